# harness/report/report: what each patch of a series says about itself, one TSV line
# per patch file: file, subject, upstream, upstream_via, release, seed,
# upstream_text (an empty field: the patch does not say).
#   awk -v releases=mainline/upstream.tsv -f patch-info.awk PATCH...
# subject: the Subject: header, unfolded, without its [PATCH ...] tag.
# upstream: the commit the patch names as its upstream form, in whichever
# of the forms the series use:
#   [ Upstream commit <sha> ]              (also with a note: "(EOF part)")
#   [ Upstream: merged in <ver> via <sha> ("Merge tag ...") ]   via "merge"
#   commit <sha> upstream.                 (the stable tree's own form)
#   (cherry picked from commit <sha>)      (git cherry-pick -x)
# A patch that is a seed patch with no upstream commit of its own
# ("[ Seed 004 (...) ]", "[ Upstream: seed 004 (...) ]") has no upstream and
# its seed number. release: the patch's own "merged in <ver>", else the
# first_version of that commit in mainline/upstream.tsv. upstream_text: the
# bracketed note (or the commit line) as written, on one line.
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function hexpre(s) { sub(/[^0-9a-f].*$/, "", s); return s }
function out(   t, w, n, s) {
	t = br; via = ""; upstream = ""; release = ""; seed = ""
	sub(/^\[[ \t]*/, "", t); sub(/[ \t]*\]$/, "", t); gsub(/[ \t]+/, " ", t)
	if (t ~ /^Upstream commit [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]/) {
		split(t, w, " "); upstream = hexpre(w[3]); via = "commit"
	} else if (t ~ /^Upstream: merged in [^ ]+ via [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]/) {
		split(t, w, " "); release = w[4]; sub(/,$/, "", release); upstream = hexpre(w[6]); via = "merge"
	}
	if (match(t, /[Ss]eed [0-9]+/)) { s = substr(t, RSTART, RLENGTH); sub(/^[^ ]* /, "", s); seed = s }
	if (upstream == "" && line_sha != "") { upstream = line_sha; via = "commit"; if (t == "") t = line_text }
	if (upstream != "" && release == "" && (substr(upstream, 1, 12) in rel)) release = rel[substr(upstream, 1, 12)]
	n = split(FILE, w, "/")
	s = trim(subj); sub(/^(\[[^]]*\][ \t]*)+/, "", s)
	gsub(/\t/, " ", s); gsub(/\t/, " ", t)
	print w[n] "\t" trim(s) "\t" upstream "\t" via "\t" release "\t" seed "\t" t
}
BEGIN {
	# upstream.tsv: upstream_commit ("<sha>" or "unknown (merge <sha>)"),
	# subject, first_version ("4.20-rc4 (4.19.89, ...)"), ...
	while (releases != "" && (getline l < releases) > 0) {
		split(l, f, "\t"); c = f[1]; v = f[3]
		sub(/^unknown \(merge /, "", c); sub(/\)$/, "", c); sub(/[ (].*$/, "", v)
		if (c ~ /^[0-9a-f]+$/ && v ~ /^[0-9]/) rel[substr(c, 1, 12)] = v
	}
}
FNR == 1 {
	if (NR > 1) out()
	FILE = FILENAME; hdr = 1; insubj = 0; done = 0; inbr = 0
	subj = ""; br = ""; line_sha = ""; line_text = ""
}
{ sub(/\r$/, "") }
done { next }
/^---$/ || /^diff --git / || /^--- a\// { done = 1; next }
hdr && /^$/ { hdr = 0; next }
hdr {
	if (/^Subject:/) { subj = substr($0, 9); insubj = 1 }
	else if (insubj && /^[ \t]/) subj = subj " " trim($0)
	else insubj = 0
	next
}
inbr { br = br " " trim($0); if (/\][ \t]*$/) inbr = 0; next }
br == "" && /^\[ ?[A-Z]/ { br = trim($0); if (!/\][ \t]*$/) inbr = 1; next }
line_sha == "" && /^commit [0-9a-f]+ upstream\.?[ \t]*$/ { line_sha = $2; line_text = trim($0) }
line_sha == "" && /^\(cherry picked from commit [0-9a-f]+\)/ { line_sha = hexpre($5); line_text = trim($0) }
END { if (NR > 0) out() }
