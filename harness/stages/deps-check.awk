# harness/stages/deps --check: every row of deps.tsv has six fields, a known status,
# patches that are in the series and well-formed probe terms (a not-carried
# row may have none: -), whose files are in the tree (relative, no ".."
# component: a candidate's deps.tsv is mail, and its probes read files as
# root); the first bad row is printed as FILE:LINE: why, exit 1.
# awk -F'\t' -v f=FILE-AS-NAMED -v series="PATCH\nPATCH..."
BEGIN { n = split(series, s, "\n"); for (i = 1; i <= n; i++) { p = s[i]; inseries[p] = 1; sub(/-.*/, "", p); inseries[p] = 1 } }
NR == 1 || /^#/ || /^$/ { next }
function bad(why) { printf "%s:%d: %s\n", f, NR, why; err = 1; exit }
NF != 6 { bad("has " NF " fields, needs 6 (commit, subject, status, patch, probe, why)") }
{ for (i = 1; i <= 6; i++) if ($i == "") bad("field " i " is empty (- stands for none)") }
$3 !~ /^(present|carried|replaced|not-carried)$/ { bad("status \"" $3 "\" is not present, carried, replaced or not-carried") }
$3 ~ /^(present|not-carried)$/ && $4 != "-" { bad("a " $3 " row names no patch (-)") }
$3 !~ /^(present|not-carried)$/ {
	n = split($4, ps, ",")
	for (i = 1; i <= n; i++) if (!(ps[i] in inseries)) bad("patch " ps[i] " is not in the series")
}
$5 == "-" && $3 != "not-carried" { bad("only a not-carried row may go unprobed (-)") }
$5 != "-" {
	n = split($5, t, " ;; ")
	for (i = 1; i <= n; i++) {
		if (t[i] !~ /^!?([0-9]+\*)?[^:!*]+:./) bad("probe term \"" t[i] "\" is not [!][N*]FILE:REGEX")
		file = t[i]; sub(/^!?([0-9]+\*)?/, "", file); sub(/:.*/, "", file)
		if (file ~ /^\// || ("/" file "/") ~ /\/\.\.\//) bad("probe term \"" t[i] "\": its file is outside the tree")
	}
}
END { exit err }
