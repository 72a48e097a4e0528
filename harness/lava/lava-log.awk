# harness/lava/lava-run: LAVA's job log (lava-run's output: one YAML flow mapping
# per line, {"dt": ..., "lvl": ..., "msg": ...}, every scalar double-quoted)
# as JSON lines, for jq. YAML's double-quoted escapes that JSON lacks (\e,
# \xHH, \0, \a, \v, \N, \_, \L, \P, \UXXXXXXXX) become \uXXXX; the "!" that
# marks a quoted number (! "3") is dropped, so the number stays a string.
# Lines that are not such a mapping are passed over. lavacli jobs logs --raw
# prints a server's log the same way, each line an item of a YAML list.
# awk -f lava-log.awk LOG
function hex4(h) { return "\\u" substr("0000" h, length(h) + 1) }
{ sub(/^- /, "") }
!/^\{/ { next }
{
	s = $0; out = ""; n = length(s); instr = 0
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (!instr) {
			if (c == "\"") instr = 1
			else if (c == "!" && substr(s, i + 1, 1) == " ") { i++; continue }
			out = out c
			continue
		}
		if (c == "\"") { instr = 0; out = out c; continue }
		if (c != "\\") { out = out c; continue }
		d = substr(s, ++i, 1)
		if (index("\"\\/bfnrt", d)) out = out "\\" d
		else if (d == "u") { out = out "\\u" substr(s, i + 1, 4); i += 4 }
		else if (d == "x") { out = out hex4(tolower(substr(s, i + 1, 2))); i += 2 }
		else if (d == "U") { out = out "\\ufffd"; i += 8 }
		else if (d == "e") out = out "\\u001b"
		else if (d == "0") out = out "\\u0000"
		else if (d == "a") out = out "\\u0007"
		else if (d == "v") out = out "\\u000b"
		else if (d == "N") out = out "\\u0085"
		else if (d == "_") out = out "\\u00a0"
		else if (d == "L") out = out "\\u2028"
		else if (d == "P") out = out "\\u2029"
		else if (d == " ") out = out " "
		else out = out "\\ufffd"
	}
	print out
}
