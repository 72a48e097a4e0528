# harness/stages/upstream: what a patch of a series says about its upstream
# commit, and the rules a stable reviewer checks by hand (rules.tsv).
#   awk -v mode=index -f upstream-rules.awk PATCH...
#     per PATCH: path, upstream id (as written; empty: none in an accepted
#     form), subject (tab separated)
#   SG_UPSTREAM_FACTS=FILE awk -v mode=rules -v git=0|1 -f upstream-rules.awk PATCH
#     its rows of rules.tsv: patch, rule, result, detail. FILE (written by
#     the stage, from UPSTREAM_GIT) holds KEY<TAB>VALUE lines: rev (the
#     full id, empty: not found), nolookup (no usable id), raw (a line of
#     `git cat-file commit`), fixes (ID, FULL, SUBJECT: a Fixes: of the
#     upstream commit), followup (FULL, SUBJECT), carried (ID12, PATCH: a
#     patch of the series and its upstream id).
# The patch is mail: every field is data; tabs and control characters are
# blanked in what is written. Headers are unfolded and RFC 2047 words
# decoded (run with LC_ALL=C: a decoded byte is a byte); an in-body From:
# or Subject: at the top of the body (git am's) wins over the header's.
# The body ends at "---", "diff --git", "--- a/" or "Index: ".
# The upstream line: "commit <sha> upstream." on a line of its own, or a
# bracketed note "[ Upstream commit <sha> ...]" (7 to 40 hex digits, then
# a blank, "]" or the end). Other forms are named in upstream-line's fail:
# "[ Upstream: merged in X via <merge> ]", a "(cherry picked from commit
# <sha>)" line, a note "[ Upstream commit: ... ]" without an id.
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function clean(s) { gsub(/[\001-\037\177]/, " ", s); return s }
function brief(s) { s = trim(clean(s)); gsub(/  +/, " ", s); return s }
function cut(s) { return length(s) > 160 ? substr(s, 1, 157) "..." : s }
# the form found instead of an upstream line, as a reviewer quotes it: its start
function lead(s) { return length(s) > 60 ? substr(s, 1, 57) "..." : s }
function norm(s) { s = tolower(trim(clean(s))); gsub(/ +/, " ", s); return s }
function hexrun(s) { return match(s, /^[0-9a-f]+/) ? substr(s, 1, RLENGTH) : "" }
function isid(s) { return s ~ /^[0-9a-f]+$/ && length(s) >= 7 && length(s) <= 40 }
function row(rule, res, detail) { printf "%s\t%s\t%s\t%s\n", pname, rule, res, brief(detail) }
function quote(s) { return "\"" s "\"" }
function hexval(c) { return index("0123456789abcdef", tolower(c)) - 1 }
function qdec(s,    o, c) {
	gsub(/_/, " ", s); o = ""
	while (match(s, /=[0-9A-Fa-f][0-9A-Fa-f]/)) {
		c = hexval(substr(s, RSTART + 1, 1)) * 16 + hexval(substr(s, RSTART + 2, 1))
		o = o substr(s, 1, RSTART - 1) (c ? sprintf("%c", c) : "")
		s = substr(s, RSTART + RLENGTH)
	}
	return o s
}
function bdec(s,    A, o, i, j, v, n, c, q) {
	A = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	o = ""; v = 0; n = 0
	for (i = 1; i <= length(s); i++) {
		j = index(A, substr(s, i, 1)) - 1
		if (j < 0) continue	# "=" padding, anything else
		v = v * 64 + j; n += 6
		if (n >= 8) {
			n -= 8; q = 2 ^ n
			c = int(v / q); v -= c * q
			if (c) o = o sprintf("%c", c)
		}
	}
	return o
}
# dec2047(S): S with its =?charset?Q|B?text?= words decoded (whitespace
# between two of them dropped); the charset is not converted.
function dec2047(s,    o, pre, w, e, last) {
	o = ""; last = 0
	while (match(s, /=\?[^?]+\?[BbQq]\?[^?]*\?=/)) {
		pre = substr(s, 1, RSTART - 1); w = substr(s, RSTART + 2, RLENGTH - 4)
		s = substr(s, RSTART + RLENGTH)
		if (!(last && pre ~ /^[ \t]*$/)) o = o pre
		w = substr(w, index(w, "?") + 1); e = tolower(substr(w, 1, 1))
		o = o (e == "q" ? qdec(substr(w, 3)) : bdec(substr(w, 3)))
		last = 1
	}
	return o s
}
# person(S): PN (the name, unquoted) and PA (the address) of "Name <addr>"
# or "addr (Name)"
function person(s,    i) {
	PN = ""; PA = ""; s = trim(dec2047(s))
	i = index(s, "<")
	if (i && s ~ />$/) { PA = trim(substr(s, i + 1, length(s) - i - 1)); PN = trim(substr(s, 1, i - 1)) }
	else if (s ~ /^[^ ]+@[^ ]+ \(.*\)$/) { PA = substr(s, 1, index(s, " ") - 1); PN = substr(s, index(s, "(") + 1); PN = substr(PN, 1, length(PN) - 1) }
	else if (s ~ /@/ && s !~ / /) PA = s
	else PN = s
	if (PN ~ /^".*"$/) { PN = substr(PN, 2, length(PN) - 2); gsub(/\\"/, "\"", PN); gsub(/\\\\/, "\\", PN) }
}
function subject(s) { s = trim(dec2047(s)); sub(/^(\[[^]]*\][ \t]*)+/, "", s); return trim(s) }

function reset() {
	hdr = 1; stage = "hdr"; hk = ""; inbody = 0; split("", H); split("", B)
	form = ""; id = ""; U = 0; utext = ""; other = ""; otherline = 0
	note = ""; noteline = 0; innote = 0
	nsob = 0; nfix = 0; ndep = 0; split("", have)
}
# a whole bracketed note, or a commit line, seen: the upstream form, or
# why it is not one (the first such, when no accepted form is found)
function upstream_note(t, line,    h, r) {
	t = cut(brief(t))
	if (form != "") return
	if (t ~ /^\[ ?Upstream commit [0-9a-f]/) {
		r = t; sub(/^\[ ?Upstream commit /, "", r); h = hexrun(r)
		if (isid(h) && substr(r, length(h) + 1, 1) !~ /[0-9A-Za-z]/) { form = "bracket"; id = h; U = line; utext = t; return }
	}
	if (other != "") return
	if (t ~ /^\[ ?Upstream: merged in /) other = "names a merge: " lead(t)
	else if (t ~ /^\[ ?Upstream/) other = "no upstream commit id: " lead(t)
	else if (t ~ /^\[ ?Seed /) other = "a seed patch, no upstream commit: " lead(t)
	else if (t ~ /^\(cherry picked from commit /) other = "cherry-pick -x line only: " lead(t)
	else other = "not an upstream commit id: " lead(t)
	otherline = line
}
function endnote() { if (innote || note != "") upstream_note(note, noteline); note = ""; innote = 0 }

FNR == 1 { if (NR > 1) done(); reset(); path = FILENAME }
{ sub(/\r$/, "") }
stage == "diff" { next }
stage == "hdr" {
	if ($0 == "") { stage = "top"; next }
	if (FNR == 1 && /^From [^ ]+ /) next	# the mbox From line
	if (/^[ \t]/) { if (hk != "") H[hk] = H[hk] " " trim($0); next }
	if (match($0, /^[A-Za-z0-9-]+:/)) {
		hk = tolower(substr($0, 1, RLENGTH - 1))
		if (hk in H) hk = ""	# the first of a header wins
		else H[hk] = trim(substr($0, RLENGTH + 1))
		next
	}
	stage = "top"	# no mail headers: this line is the body's
}
stage == "top" {	# git am's in-body headers at the top of the body
	if ($0 == "" && !inbody) next
	if (/^(From|Subject|Date):/) { inbody = 1; bk = tolower(substr($0, 1, index($0, ":") - 1)); B[bk] = trim(substr($0, index($0, ":") + 1)); next }
	if (/^[ \t]/ && inbody) { B[bk] = B[bk] " " trim($0); next }
	stage = "body"
	if ($0 == "") next
}
$0 == "---" || /^diff --git / || /^--- a\// || /^Index: / { endnote(); stage = "diff"; next }
{
	have[norm($0)] = 1
	if (innote) { note = note " " $0; if ($0 ~ /\][ \t]*$/) endnote(); next }
	if (/^\[ ?(Upstream|Seed)/) { note = $0; noteline = FNR; innote = !($0 ~ /\][ \t]*$/); if (!innote) endnote(); next }
	if (/^commit [^ ]+ upstream\.?[ \t]*$/) {
		if (form == "" && isid($2)) { form = "commit"; id = $2; U = FNR; utext = trim($0) }
		else upstream_note($0, FNR)
		next
	}
	if (/^\(cherry picked from commit /) { upstream_note($0, FNR); next }
	if (match($0, /^[A-Za-z][A-Za-z0-9-]*:[ \t]/)) {
		t = tolower(substr($0, 1, RLENGTH - 2)); v = trim(substr($0, RLENGTH + 1))
		if (t == "signed-off-by") { sobline[++nsob] = FNR; sob[nsob] = v }
		else if (t == "fixes") fix[++nfix] = v
		else if (t == "stable-dep-of") dep[++ndep] = v
	}
}
function done() {
	endnote()
	pname = path; sub(/.*\//, "", pname)
	psubj = subject(("subject" in B) ? B["subject"] : H["subject"])
	pfrom = ("from" in B) ? B["from"] : H["from"]
	hasfrom = ("from" in B) || ("from" in H)
	person(pfrom); pn = PN; pa = PA
	if (mode == "index") printf "%s\t%s\t%s\n", path, id, brief(psubj)
	else if (mode == "rules") rules()
}
END { if (NR > 0) done() }

# tag(KIND, V): a Fixes: or Stable-dep-of: row
function tag(rule, v,    h) {
	h = v; sub(/[ \t].*/, "", h)
	if (isid(h)) row(rule, "info", v)
	else row(rule, "fail", "not a commit id: " v)
}
function rules(    facts, i, l, k, v, w, n, rev, looked, nolookup, raw, nraw, hdr_, par, au, usubj, utags, nut, miss, missing, lastup, s, fx, nfx, fu, nfu, carried, id12, an, ae) {
	# upstream-line, full-id
	if (form != "") row("upstream-line", "pass", utext)
	else row("upstream-line", "fail", other != "" ? other : "no upstream commit")
	if (form == "") row("full-id", "unchecked", "no upstream commit id")
	else if (length(id) == 40) row("full-id", "pass", id)
	else row("full-id", "fail", length(id) " hex digits: " id)
	# author, subject
	if (!hasfrom) row("author", "fail", "no From:")
	else if (pn == "" || pa !~ /.@./) row("author", "fail", "not a name and address: " pfrom)
	else row("author", "pass", pn " <" pa ">")
	if (psubj == "") row("subject", "fail", "no subject")
	else row("subject", "pass", psubj)

	# what UPSTREAM_GIT said (the stage's facts)
	nraw = nfx = nfu = 0; looked = 0; facts = ENVIRON["SG_UPSTREAM_FACTS"]
	while (git && facts != "" && (getline l < facts) > 0) {
		k = l; sub(/\t.*/, "", k); v = substr(l, length(k) + 2)
		if (k == "rev") { rev = v; looked = 1 }
		else if (k == "nolookup") nolookup = 1
		else if (k == "raw") raw[++nraw] = v
		else if (k == "fixes") fx[++nfx] = v
		else if (k == "followup") fu[++nfu] = v
		else if (k == "carried") { split(v, w, "\t"); if (!(w[1] in carried)) carried[w[1]] = w[2] }
	}
	if (facts != "") close(facts)
	# the upstream commit object: parents, author, subject (its first
	# paragraph on one line, as git's %s), and its tags
	hdr_ = 1; par = 0; usubj = ""; nut = 0; insub = 0
	for (i = 1; i <= nraw; i++) {
		l = raw[i]
		if (hdr_) {
			if (l == "") { hdr_ = 0; insub = 1; continue }
			if (l ~ /^parent /) par++
			else if (l ~ /^author /) { au = substr(l, 8); sub(/ [0-9]+ [-+][0-9]+$/, "", au) }
			continue
		}
		if (insub) { if (trim(l) == "") { if (usubj != "") insub = 0 } else usubj = usubj (usubj == "" ? "" : " ") trim(l) }
		if (tolower(l) ~ /^(signed-off-by|reviewed-by|acked-by):/) utags[++nut] = trim(l)
		if (tolower(l) ~ /^signed-off-by:/) lastup = trim(l)
	}

	# sender-signoff: the last Signed-off-by, below the upstream line
	if (!nsob) row("sender-signoff", "fail", "no Signed-off-by")
	else if (!U && !otherline) row("sender-signoff", "unchecked", "no upstream line to sign off below; the last Signed-off-by: " sob[nsob])
	else if (sobline[nsob] < (U ? U : otherline)) row("sender-signoff", "fail", "the last Signed-off-by is above the upstream line: " sob[nsob])
	else if (looked && rev != "" && lastup != "" && norm("Signed-off-by: " sob[nsob]) == norm(lastup) && nsob <= countsob(utags, nut))
		row("sender-signoff", "fail", "no sender's sign-off: the last one, " sob[nsob] ", is upstream's")
	else row("sender-signoff", "pass", sob[nsob])
	for (i = 1; i <= nfix; i++) tag("fixes", fix[i])
	for (i = 1; i <= ndep; i++) tag("stable-dep-of", dep[i])

	if (!git) { row("upstream-git", "unchecked", "UPSTREAM_GIT not set: id, subject, author, sign-off chain and follow-ups not looked up"); return }
	if (nolookup || !looked) { row("commit-exists", "unchecked", "no upstream commit id to look up"); return }
	if (rev == "") { row("commit-exists", "fail", id " is not a commit in UPSTREAM_GIT"); return }
	row("commit-exists", "pass", rev == id ? rev : id " is " rev)
	if (par == 1) row("not-merge", "pass", "one parent")
	else if (par == 0) row("not-merge", "fail", "a root commit: no parent")
	else row("not-merge", "fail", "a merge: " par " parents")
	if (usubj == psubj) row("subject-matches", "pass", usubj)
	else row("subject-matches", "fail", "upstream " quote(usubj) ", patch " quote(psubj))
	person(au); an = PN; ae = PA
	if (an == pn && tolower(ae) == tolower(pa)) row("author-matches", "pass", an " <" ae ">")
	else row("author-matches", "fail", "upstream " an " <" ae ">, patch " pn " <" pa ">")
	missing = ""; miss = 0
	for (i = 1; i <= nut; i++) if (!(norm(utags[i]) in have)) { miss++; missing = missing (missing == "" ? "" : "; ") utags[i] }
	if (miss) row("upstream-signoffs", "fail", "missing " miss " of " nut ": " missing)
	else row("upstream-signoffs", "pass", "all " nut " in the patch")
	for (i = 1; i <= nfx; i++) {
		split(fx[i], w, "\t")
		if (w[2] == "") row("fixes-target", "info", w[1] " (not in UPSTREAM_GIT)")
		else row("fixes-target", "info", substr(w[2], 1, 12) " (" quote(w[3]) ")")
	}
	n = 0
	for (i = 1; i <= nfu; i++) {
		split(fu[i], w, "\t")
		if (w[1] == rev) continue
		id12 = substr(w[1], 1, 12); n++
		row("follow-ups", "info", id12 " (" quote(w[2]) ")" (id12 in carried ? ", carried: " carried[id12] : ""))
	}
	if (!n) row("follow-ups", "info", "none")
}
function countsob(t, n,    i, c) { c = 0; for (i = 1; i <= n; i++) if (tolower(t[i]) ~ /^signed-off-by:/) c++; return c }
