# harness/stages/xbuild objects: what a touched .c file's changed functions
# reach, read from the tree's text of that file (inside the tree, after
# harness/stages/patch-files.awk took its name).
#   awk -f xbuild-calls.awk CHANGED FILE.c
# CHANGED: the names harness/stages/xbuild-names.awk read from the hunks in
# FILE.c, one a line. A function starts at a line at column 0 that names it
# before a "(" and does not end in ";" (the line before may hold its type,
# "static" among it), and ends at a "}" at column 0. Prints:
#   caller NAME   a function of FILE.c calling a changed function that is
#                 static there (its behaviour is the callee's), and so on up,
#                 through static callers only, three calls deep at most
#   op NAME       a member called through a pointer, "->NAME(", in the body
#                 of a changed function or of such a caller (xbuild keeps
#                 those that are file operations)
FILENAME == ARGV[1] { changed[$0] = 1; next }
function ident_call(s,    n) {
	if (!match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) return ""
	n = substr(s, RSTART, RLENGTH); sub(/[ \t]*\($/, "", n)
	return n
}
!in_body && /^[A-Za-z_]/ && !/;[ \t]*$/ {
	n = ident_call($0)
	if (n != "" && n !~ /^[A-Z0-9_]+$/) {
		fn = n; in_body = 1; defined[fn] = 1
		# static: before its name on this line, or on the line before (K&R)
		t = index($0, n) > 1 ? substr($0, 1, index($0, n) - 1) : prev
		st[fn] = ((" " t " ") ~ /[^A-Za-z0-9_]static[^A-Za-z0-9_]/)
	}
	prev = $0
	next
}
in_body && /^}/ { in_body = 0; prev = ""; next }
in_body {
	s = $0
	while (match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
		n = substr(s, RSTART, RLENGTH); sub(/[ \t]*\($/, "", n)
		if (substr(s, 1, RSTART - 1) ~ /->[ \t]*$/) ops[fn] = ops[fn] " " n
		else calls[fn] = calls[fn] " " n " "
		s = substr(s, RSTART + RLENGTH)
	}
	next
}
{ prev = $0 }
END {
	for (n in changed) reach[n] = 0
	for (depth = 1; depth <= 3; depth++) {
		more = 0
		for (c in reach) {
			if (reach[c] != depth - 1 || !(c in defined) || !st[c]) continue
			for (f in calls) if (!(f in reach) && index(calls[f], " " c " ")) { reach[f] = depth; more = 1 }
		}
		if (!more) break
	}
	for (f in reach) {
		if (reach[f] > 0) print "caller\t" f
		k = split(ops[f], w, " ")
		for (i = 1; i <= k; i++) print "op\t" w[i]
	}
}
