# harness/lib/branch.sh sg_load_branch: branch.conf is data (README.md, "Branches are
# data"): known KEY=VALUE lines, one optional pair of quotes ("..." or
# '...') around a value stripped, nothing expanded or run. Each key takes
# only the characters its values need: mkfs options, apt sources and the
# keyring are split into words or written into files later, so no quote,
# $, `, ;, glob or other shell syntax gets through. A name= is required.
# Prints the KEY=VALUE lines as read (a key set twice: the last), or the
# first bad line as FILE:LINE: why and exit 1.
function bad(m) { print FILENAME ":" FNR ": " m; err = 1; exit 1 }
BEGIN {
	legal["name"] = "^[A-Za-z0-9][A-Za-z0-9._-]*$";	what["name"] = "a branch name (A-Z a-z 0-9 . _ -)"
	legal["tree"] = "^(apt|ksrc)$";	what["tree"] = "apt or ksrc"
	legal["package"] = "^[a-z0-9+.-]*$";	what["package"] = "a package name (a-z 0-9 + . -)"
	legal["version"] = "^[A-Za-z0-9.+~:-]*$";	what["version"] = "a package version (A-Z a-z 0-9 . + ~ : -)"
	legal["apt_sources"] = "^[A-Za-z0-9._:/ -]*$";	what["apt_sources"] = "archive:suite words (A-Z a-z 0-9 . _ : / - and spaces)"
	legal["keyring"] = "^[A-Za-z0-9._/+-]*$";	what["keyring"] = "a file path (A-Z a-z 0-9 . _ / + -)"
	legal["series_in_tree"] = legal["reference"] = "^(yes|no)$"
	what["series_in_tree"] = what["reference"] = "yes or no"
	legal["mkfs_xfs"] = legal["mkfs_ext4"] = "^[A-Za-z0-9 ,=._:/+^-]*$"
	what["mkfs_xfs"] = what["mkfs_ext4"] = "mkfs options (A-Z a-z 0-9 , = . _ : / + ^ - and spaces)"
}
/^[[:space:]]*(#|$)/ { next }
!/^[a-z][a-z0-9_]*=/ { bad("not a KEY=VALUE line: " $0) }
{ k = $0; sub(/=.*/, "", k); v = substr($0, length(k) + 2) }
!(k in legal) { bad("unknown key \"" k "\"") }
v ~ /^".*"$/ || v ~ /^'.*'$/ { v = substr(v, 2, length(v) - 2) }
v !~ legal[k] { bad(k " must be " what[k] ", not \"" v "\"") }
{ value[k] = v }
END {
	if (err) exit 1
	if (!("name" in value)) { print FILENAME ": no name= line"; exit 1 }
	for (k in value) print k "=" value[k]
}
