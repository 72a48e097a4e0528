# harness/stages/upstream: the hunks of two diffs, compared as a reviewer
# compares a backport with its upstream commit or another backport.
#   awk -v mode=reduce -f hunks.awk DIFF
#     DIFF's diff part (a mail's from its first "diff --git", or a "--- "
#     line followed by "+++ ", to its "-- " signature) with the @@ line
#     numbers blanked ("@@ @@ heading") and the index and similarity lines
#     dropped: two reduced diffs differ only where the changes, their
#     context or their files do.
#   awk -v mode=compare -v against=upstream|stable -f hunks.awk PATCH REF
#     one line: matched, differ, dropped, added, files, summary (tab
#     separated). A hunk is its -, + and "\ No newline" lines in order
#     (context and @@ numbers ignored), in the file its +++ line names
#     (its --- line's for a deletion), without the first directory. Per
#     file: a PATCH hunk equal to a REF hunk of the same file (each REF
#     hunk pairs once) matches; an unpaired PATCH hunk differs when REF
#     changes that file too, and is added when REF does not; REF hunks in a
#     file PATCH does not touch, and in a file both touch the unpaired REF
#     hunks beyond the differing ones, are dropped. A file under another
#     path (a rename between the two trees) is not mapped: its hunks are
#     added in one and dropped in the other. files: the files with a
#     differing, added or dropped hunk, comma separated.
# Paths are strings here: nothing in a diff is ever opened.
function stamped(s) {	# the name of a ---/+++ line: up to a tab, else the first blank
	sub(/^[ \t]+/, "", s)
	if (index(s, "\t")) { s = substr(s, 1, index(s, "\t") - 1); sub(/ +$/, "", s) }
	else sub(/[ \t].*/, "", s)
	return s
}
function fname(s) { s = stamped(s); if (s == "/dev/null") return ""; sub(/^[^\/]*\//, "", s); gsub(/[\t,]/, "_", s); return s }
function emit(s) { if (mode == "reduce") print s }
function close_hunk() {
	if (!hunk) return
	hunk = 0
	nh[fi, F]++
	key[fi, F, nh[fi, F]] = k
}
function plural(n, w) { return n " " w (n == 1 ? "" : "s") }
function addto(list, f) { return list == "" ? f : list "," f }

FNR == 1 { close_hunk(); fi++; indiff = 0; stop = 0; pend = ""; F = ""; oldf = "" }
{ sub(/\r$/, "") }
stop { next }
hunk {
	c = substr($0, 1, 1)
	if (c == " " || $0 == "") { old--; new-- }
	else if (c == "-") { old--; k = k "\n" $0 }
	else if (c == "+") { new--; k = k "\n" $0 }
	else if (c == "\\") k = k "\n" $0
	else close_hunk()	# not a hunk line: the hunk was short; read it as a header
	if (hunk) {
		emit($0)
		if (old <= 0 && new <= 0) close_hunk()
		next
	}
}
!indiff {
	if (/^diff --git /) indiff = 1
	else if (pend != "" && /^\+\+\+ /) { indiff = 1; oldf = fname(substr(pend, 5)); emit("--- " stamped(substr(pend, 5))) }
	else { pend = /^--- / ? $0 : ""; next }
}
/^diff --git / { emit($0); F = ""; oldf = ""; next }
/^--- / { oldf = fname(substr($0, 5)); emit("--- " stamped(substr($0, 5))); next }
/^\+\+\+ / {
	F = fname(substr($0, 5))
	if (F == "") F = oldf
	if (!((fi, F) in seen)) { seen[fi, F] = 1; files[fi, ++nfiles[fi]] = F }
	emit("+++ " stamped(substr($0, 5)))
	next
}
/^@@ -[0-9]+(,[0-9]+)? \+[0-9]+(,[0-9]+)? @@/ {
	split($0, w, " "); o = substr(w[2], 2); n = substr(w[3], 2)
	old = (o ~ /,/) ? substr(o, index(o, ",") + 1) + 0 : 1
	new = (n ~ /,/) ? substr(n, index(n, ",") + 1) + 0 : 1
	h = $0; sub(/^@@ [^@]* @@/, "", h)
	emit("@@ @@" h)
	hunk = (old > 0 || new > 0) && F != ""; k = ""
	next
}
/^\\/ {	# "\ No newline at end of file" after a hunk's last line: part of that hunk
	if (nh[fi, F]) key[fi, F, nh[fi, F]] = key[fi, F, nh[fi, F]] "\n" $0
	emit($0)
	next
}
/^(old mode|new mode|deleted file mode|new file mode|rename from|rename to|copy from|copy to|Binary files|GIT binary patch)/ { emit($0); next }
/^-- ?$/ { stop = 1; next }	# the mail's signature
END {
	close_hunk()
	if (mode != "compare") exit 0
	name = against == "upstream" ? "upstream" : "the stable backport"
	matched = differ = dropped = added = 0
	# the files in order: PATCH's, then those only REF touches
	for (i = 1; i <= nfiles[1]; i++) order[++no] = files[1, i]
	for (i = 1; i <= nfiles[2]; i++) if (!((1, files[2, i]) in seen)) order[++no] = files[2, i]
	for (i = 1; i <= no; i++) {
		f = order[i]; p = nh[1, f] + 0; r = nh[2, f] + 0; d = a = x = 0
		if (!((1, f) in seen)) x = r
		else if (!((2, f) in seen)) a = p
		else {
			for (j = 1; j <= r; j++) used[j] = 0
			m = 0
			for (j = 1; j <= p; j++) {
				for (q = 1; q <= r; q++) if (!used[q] && key[2, f, q] == key[1, f, j]) break
				if (q <= r) { used[q] = 1; m++ } else d++
			}
			matched += m
			x = r - m - d; if (x < 0) x = 0
		}
		differ += d; added += a; dropped += x
		if (d) dfiles = dfiles (dfiles == "" ? "" : ", ") f
		if (a) afiles = afiles (afiles == "" ? "" : ", ") f
		if (x) xfiles = xfiles (xfiles == "" ? "" : ", ") f
		if (d || a || x) flist = addto(flist, f)
	}
	if (differ + added + dropped == 0) s = "matches " name " (" plural(matched, "hunk") ")"
	else {
		s = "differs from " name; sep = ": "
		if (differ) { s = s " in " plural(differ, "hunk") ": " dfiles; sep = "; " }
		if (added) { s = s sep added " added: " afiles; sep = "; " }
		if (dropped) s = s sep dropped " dropped: " xfiles
	}
	printf "%d\t%d\t%d\t%d\t%s\t%s\n", matched, differ, dropped, added, flist, s
}
