# harness/stages/xbuild objects: the names a series changes, read from its
# hunks, one "KIND<TAB>NAME<TAB>FILE" a line (FILE as patch -p1 takes it).
# The patches were accepted by harness/stages/patch-files.awk first; file
# headers and hunk bodies are told apart the same way (a hunk is skipped by
# the line counts of its "@@ -a,b +c,d @@" line), and nothing is opened.
#   ctx     the function a hunk of a .c file is in: the name before the
#           first "(" of the text after its second "@@"
#   def     a function or function-like macro defined or declared in a +/-
#           line that starts at column 0
#   static  the same, marked static there (never a user outside its file)
#   hdef    a def in a header (.h): visible to every file that includes it
#   export  EXPORT_SYMBOL*(NAME) in a +/- line
#   struct  a struct or union defined in a header's +/- line, or the one a
#           header's hunk is inside ("@@ ... @@ struct file_operations {")
#   member  a function-pointer member declared ("(*NAME)(") or an
#           operation assigned (".NAME = ...") in a +/- line
# Names in capitals (SYSCALL_DEFINE3, COMPAT_SYSCALL_DEFINE4: macros that
# wrap a definition) and C keywords are not names of anything changed.
#   awk -f xbuild-names.awk PATCH...
function out(kind, n) {
	if (n == "" || n ~ /^[A-Z0-9_]+$/ || n ~ /^(if|for|while|switch|return|sizeof|typeof|__typeof__|defined|do|else|case)$/) return
	print kind "\t" n "\t" file
}
# first(S): the first identifier of S that a "(" follows
function first(s) {
	if (!match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) return ""
	s = substr(s, RSTART, RLENGTH); sub(/[ \t]*\($/, "", s)
	return s
}
function strip(s) { sub(/^[ab]\//, "", s); return s }
function stamped(s) {
	sub(/^[ \t]+/, "", s)
	if (index(s, "\t")) s = substr(s, 1, index(s, "\t") - 1)
	else sub(/[[:space:]].*/, "", s)
	return s
}
# aggregate(S): the struct or union S defines ("struct NAME {"), else ""
function aggregate(s) {
	if (s !~ /^((static|const|extern)[ \t]+)*(struct|union)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*\{/) return ""
	sub(/^((static|const|extern)[ \t]+)*(struct|union)[ \t]+/, "", s); sub(/[^A-Za-z0-9_].*/, "", s)
	return s
}
# line(S): one added or removed line, without its +/-
function line(s,    n, hdr, pre) {
	hdr = (file ~ /\.h$/)
	if (s ~ /^#[ \t]*define[ \t]+[A-Za-z_][A-Za-z0-9_]*\(/) {
		n = s; sub(/^#[ \t]*define[ \t]+/, "", n); sub(/\(.*/, "", n)
		out(hdr ? "hdef" : "def", n); return
	}
	if (s ~ /^EXPORT_SYMBOL[A-Z_]*[ \t]*\([ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\)/) {
		n = s; sub(/^[^(]*\([ \t]*/, "", n); sub(/[^A-Za-z0-9_].*/, "", n)
		out("export", n); return
	}
	if (s ~ /^[A-Za-z_]/) {
		if ((n = aggregate(s)) != "") { if (hdr) out("struct", n); return }
		n = first(s)
		if (n == "" || s ~ /^(typedef|return|goto)[^A-Za-z0-9_]/) return
		if (hdr) { out("hdef", n); return }
		pre = " " substr(s, 1, index(s, n) - 1)
		out(pre ~ /[^A-Za-z0-9_]static[^A-Za-z0-9_]/ ? "static" : "def", n)
		return
	}
	if (match(s, /\([ \t]*\*[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\)[ \t]*\(/)) {
		n = substr(s, RSTART, RLENGTH); sub(/^\([ \t]*\*[ \t]*/, "", n); sub(/[^A-Za-z0-9_].*/, "", n)
		out("member", n); return
	}
	if (s ~ /^[ \t]+\.[A-Za-z_][A-Za-z0-9_]*[ \t]*=/) {
		n = s; sub(/^[ \t]+\./, "", n); sub(/[^A-Za-z0-9_].*/, "", n)
		out("member", n)
	}
}
FNR == 1 { hunk = 0; file = ""; minus = "" }
hunk {
	c = substr($0, 1, 1)
	if (c == " " || $0 == "" || $0 == "\r") { old--; new-- }
	else if (c == "-") { old--; line(substr($0, 2)) }
	else if (c == "+") { new--; line(substr($0, 2)) }
	else if (c != "\\") hunk = 0
	if (hunk) { if (old <= 0 && new <= 0) hunk = 0; next }
}
/^@@ -[0-9]+(,[0-9]+)? \+[0-9]+(,[0-9]+)? @@/ {
	split($0, w, " "); o = substr(w[2], 2); n = substr(w[3], 2)
	old = (o ~ /,/) ? substr(o, index(o, ",") + 1) : 1
	new = (n ~ /,/) ? substr(n, index(n, ",") + 1) : 1
	hunk = old > 0 || new > 0
	ctx = $0; sub(/^@@ [^@]* @@[ \t]*/, "", ctx)
	if ((s = aggregate(ctx)) != "") { if (file ~ /\.h$/) out("struct", s) }
	else if (file ~ /\.c$/ && (s = first(ctx)) != "")
		out(ctx ~ /^static[^A-Za-z0-9_]/ ? "static" : "ctx", s)
	next
}
/^--- / { minus = strip(stamped(substr($0, 5))); next }
/^\+\+\+ / { file = stamped(substr($0, 5)); file = (file == "/dev/null") ? minus : strip(file); next }
