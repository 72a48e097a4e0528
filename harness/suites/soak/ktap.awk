# harness/suites/soak/ktap.awk: the soak's own lines of the guest's KTAP
# (harness/stages/scan runs it, awk -v dir=LOGDIR): its "# soak-stats" lines
# into LOGDIR/soak.tsv (the soak's label, then key=value stats), and the op
# log a failing soak prints ("# oplog ...", after "# soak name=LABEL") into
# LOGDIR/oplog-LABEL.txt, replayable with sg-soak --replay. LABEL is the
# profile, with -sK for the K-th seed when there are several (xfs_1k-s2).
BEGIN { OFS = "\t"; soak = dir "/soak.tsv"; printf "" > soak }
/^    # soak-stats / {
	l = $0; sub(/^    # soak-stats /, "", l); split(l, kv, " ")
	fs = ""; for (k in kv) if (kv[k] ~ /^name=/) fs = substr(kv[k], 6)
	print fs, l > soak; next
}
/^    # soak name=/ { cur = $0; sub(/^    # soak name=/, "", cur); sub(/ .*/, "", cur); next }
/^    # oplog/ {
	l = $0; sub(/^    /, "", l)
	print l > (dir "/oplog-" (cur == "" ? "soak" : cur) ".txt"); next
}
