# harness/lib/branch.sh sg_deps_rows: the dependency rows a candidate series names itself,
# in deps.tsv's six columns. Each patch's own upstream commit ("[ Upstream
# commit <id> ]" or "commit <id> upstream") is carried by that patch; a
# commit its Depends-on: or Stable-dep-of: trailers name, and no patch of
# the candidate is, must be present. The probe is the one a deps.tsv row
# gives that commit (the candidate's own, then the branch's), else "-"
# (harness/stages/deps then answers "unprobed"). Commits the candidate's deps.tsv
# lists already are left out.
# awk -F'\t' -f candidate-deps.awk CAND_DEPS BRANCH_DEPS PATCH...
function id12(s) { sub(/.* /, "", s); return substr(s, 1, 12) }
FILENAME == ARGV[1] && FNR > 1 && !/^#/ && NF >= 6 { listed[id12($1)] = 1 }
(FILENAME == ARGV[1] || FILENAME == ARGV[2]) && FNR > 1 && !/^#/ && NF >= 6 {
	k = id12($1); if (!(k in probe)) probe[k] = $5; next
}
FILENAME == ARGV[1] || FILENAME == ARGV[2] { next }
FNR == 1 { np++; name[np] = FILENAME; sub(/.*\//, "", name[np]); insubj = 0 }
/^Subject: / && subj[np] == "" { s = substr($0, 10); sub(/^\[[^]]*\][ \t]*/, "", s); subj[np] = s; insubj = 1; next }
insubj && /^[ \t]/ { sub(/^[ \t]+/, " "); subj[np] = subj[np] $0; next }
{ insubj = 0 }
up[np] == "" && match($0, /[Uu]pstream commit [0-9a-f]+/) { u = substr($0, RSTART, RLENGTH); up[np] = id12(u); own[up[np]] = np }
up[np] == "" && /^commit [0-9a-f]+ upstream/ { split($0, w, " "); up[np] = id12(w[2]); own[up[np]] = np }
/^(Depends-on|Stable-dep-of): *[0-9a-f]+/ {
	t = $0; sub(/^[^:]*: */, "", t); c = t; sub(/[^0-9a-f].*/, "", c)
	s = t; if (match(s, /\(".*"\)/)) s = substr(s, RSTART + 2, RLENGTH - 4); else s = "-"
	nd++; dep[nd] = substr(c, 1, 12); dsubj[nd] = s; dby[nd] = np; dtr[nd] = t; dkind[nd] = $0; sub(/:.*/, "", dkind[nd])
}
# (no field is empty: harness/stages/deps reads the rows with a tab IFS, which
# merges empty fields)
function row(c, s, st, p, why) {
	if ((c in listed) || (c in done)) return
	done[c] = 1
	print c "\t" (s == "" ? "-" : s) "\t" st "\t" p "\t" (probe[c] == "" ? "-" : probe[c]) "\t" why
}
END {
	for (i = 1; i <= np; i++)
		if (up[i] != "") row(up[i], subj[i], "carried", name[i], "the candidate's own upstream commit (" name[i] ")")
	for (i = 1; i <= nd; i++)
		if (!(dep[i] in own)) row(dep[i], dsubj[i], "present", "-", "named by " name[dby[i]] "'s " dkind[i] ": trailer")
}
