# harness/stages/series: the paths patches change, read from their file headers
# only, one per line, relative to the tree as patch -p1 takes them. As GNU
# patch does, a header is any line outside a hunk (after leading blanks or
# X) that starts "--- " (also quoted as "- --- "), "+++ ", "*** " or
# "Index:", or "diff --git a/X b/Y": its names lose their first directory;
# git's "rename from/to" and "copy from/to" name paths without one. A
# hunk's body is skipped by the line counts of its "@@ -a,b +c,d @@" line,
# so an added line "++ x/../../etc/passwd" (shown as "+++ x/...") is data,
# never a name. Refused, as "PATCH:LINE: refused: why" and exit 1, before
# harness/stages/series applies anything: a name that is absolute or has a ".."
# component (outside the tree), a "." or empty component, a quoted name
# (git's C quoting), an indented hunk, and a git file mode other than a
# regular file's. harness/stages/series puts the tree's files back with rm and cp
# as root, and a symlink a patch made (mode 120000: fs/x -> /etc, then
# fs/x/passwd) would lead them out of the work copy; stable patches do not
# add symlinks, so refusing them is simpler than checking every path.
# awk -f patch-files.awk PATCH...
function refuse(why) { printf "%s:%d: refused: %s\n", patch, FNR, why; err = 1; exit 1 }
# name(S, STRIP): S is a name a header gives; without its first directory
# when STRIP (a name without one names nothing to patch -p1)
function name(s, strip,    p) {
	if (s ~ /^"/) refuse(s ": a quoted file name")
	if (s == "/dev/null") return
	p = s
	if (p ~ /^\// || ("/" p "/") ~ /\/\.\.\//) refuse(s " is outside the tree")
	if (strip && !sub(/^[^\/]*\//, "", p)) return
	if (("/" p "/") ~ /\/\.?\//) refuse(s ": a . or empty path component")
	path[p] = 1
}
# stamped(S): the name of a ---, +++ or *** line: up to a tab (a name may
# hold spaces then), else up to the first blank
function stamped(s) {
	sub(/^[ \t]+/, "", s)
	if (index(s, "\t")) { s = substr(s, 1, index(s, "\t") - 1); sub(/ +$/, "", s) }
	else sub(/[[:space:]].*/, "", s)
	return s
}
function mode(m) {
	if (m !~ /^100(644|755)$/)
		refuse(file ": file mode " m (m == "120000" ? " (a symlink)" : "") ": only regular files are patched")
}
FNR == 1 { patch = FILENAME; sub(/.*\//, "", patch); hunk = 0; file = ""; stars = 0 }
hunk {
	c = substr($0, 1, 1)
	if (c == " " || $0 == "" || $0 == "\r") { old--; new-- }
	else if (c == "-") old--
	else if (c == "+") new--
	else if (c != "\\") hunk = 0	# not a hunk line: patch finds the hunk malformed
	if (hunk) { if (old <= 0 && new <= 0) hunk = 0; next }
}
{ s = $0; sub(/\r$/, "", s); sub(/^[ \tX]+/, "", s); laststars = stars; stars = (s ~ /^\*\*\*\*\*\*\*\*/) }
s ~ /^@@ -[0-9]+(,[0-9]+)? \+[0-9]+(,[0-9]+)? @@/ {
	if (s != $0) refuse("an indented hunk")
	split(s, w, " "); o = substr(w[2], 2); n = substr(w[3], 2)
	old = (o ~ /,/) ? substr(o, index(o, ",") + 1) : 1
	new = (n ~ /,/) ? substr(n, index(n, ",") + 1) : 1
	hunk = old > 0 || new > 0
	next
}
s ~ /^diff --git / { split(substr(s, 12), w, " "); name(w[1], 1); name(w[2], 1); file = w[2]; sub(/^[^\/]*\//, "", file); next }
s ~ /^\+\+\+ / { name(stamped(substr(s, 5)), 1); next }
s ~ /^\*\*\* / && !laststars { name(stamped(substr(s, 5)), 1); next }
s ~ /^Index:/ { t = substr(s, 7); gsub(/^[[:space:]]+|[[:space:]]+$/, "", t); name(t, 1); next }
s ~ /^(rename|copy) (from|to) / { t = s; sub(/^[a-z]+ [a-z]+ /, "", t); name(t, 0); next }
s ~ /^(old mode|new mode|deleted file mode|new file mode) / { t = s; sub(/.* /, "", t); mode(t); next }
s ~ /^index [0-9a-f]+\.\.[0-9a-f]+ / { split(s, w, " "); mode(w[3]); next }
{ t = s; while (t ~ /^- /) t = substr(t, 3) }
t ~ /^--- / { name(stamped(substr(t, 5)), 1) }
END {
	if (err) exit 1
	for (p in path) print p
}
