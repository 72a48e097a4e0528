# lib.sh sg_check_branch: branch.conf holds only known KEY=VALUE lines
# (README.md, "Branches are data") with valid values and a name=; the first
# bad line is printed as FILE:LINE: why.
function bad(m) { print FILENAME ":" FNR ": " m; err = 1; exit }
/^[[:space:]]*(#|$)/ { next }
!/^[a-z_]+=/ { bad("not a KEY=VALUE line: " $0) }
{ k = $0; sub(/=.*/, "", k); v = substr($0, length(k) + 2); gsub(/"/, "", v) }
k !~ /^(name|tree|package|version|apt_sources|keyring|series_in_tree|mkfs_xfs|mkfs_ext4|reference)$/ { bad("unknown key \"" k "\"") }
k == "tree" && v !~ /^(apt|ksrc)$/ { bad("tree must be apt or ksrc, not \"" v "\"") }
k == "series_in_tree" && v !~ /^(yes|no)$/ { bad("series_in_tree must be yes or no, not \"" v "\"") }
k == "reference" && v !~ /^(yes|no)$/ { bad("reference must be yes or no, not \"" v "\"") }
{ seen[k] = 1 }
END { if (!err && !("name" in seen)) print FILENAME ": no name= line" }
