# harness/bench: the guest bench's results (harness/guest/bench, in the
# guest's ktap.log) as tables. Input lines, indented or not:
#   # bench fs=F tool=fsx|soak check=default|fsx ops=N secs=S status=R
#   # soak-rates name=F op=R ...   (after the soak's bench line)
#   # bench: fsx absent ...
# Output: per fs and checking level, the soak's and fsx's ops/s (fsx: both
# of its runs, their mean the reference) and the ratio soak/fsx, then the
# soak's per-op rates (ops/s of the time spent in each op type).
function kv(s,   i, a) {
	delete v
	for (i = 1; i <= NF; i++)
		if (split($i, a, "=") == 2)
			v[a[1]] = a[2]
}
function rate(ops, secs) { return secs > 0 ? ops / secs : 0 }
{ sub(/^[ \t]+/, "") }
/^# bench: fsx absent/ { absent = 1 }
/^# bench fs=/ {
	kv()
	fs = v["fs"]
	if (!(fs in seenfs)) { seenfs[fs] = 1; fss[++nfs] = fs }
	if (v["tool"] == "fsx") {
		n = ++nfsx[fs]
		fsxr[fs, n] = rate(v["ops"], v["secs"])
		fsxs[fs, n] = v["secs"]
		if (v["status"] != 0) fsxbad[fs] = 1
	} else {
		c = v["check"]
		soakr[fs, c] = rate(v["ops"], v["secs"])
		soaks[fs, c] = v["secs"]
		soakst[fs, c] = v["status"]
		cur = fs SUBSEP c
	}
	ops = v["ops"]
	next
}
/^# soak-rates / && cur != "" {
	kv()
	for (i = 3; i <= NF; i++) {
		split($i, a, "=")
		if (!(a[1] in isop)) { isop[a[1]] = 1; oplist[++nop] = a[1] }
		r[cur, a[1]] = a[2]
	}
	cur = ""
}
END {
	if (!nfs) { print "bench: no results (see the guest's ktap.log and console.log)"; exit 1 }
	printf "%-5s %-8s %9s %10s %22s %10s %6s\n", "fs", "checking", "soak s", "soak op/s", "fsx s (run 1, run 2)", "fsx op/s", "ratio"
	for (j = 1; j <= nfs; j++) {
		fs = fss[j]
		m = 0
		for (k = 1; k <= nfsx[fs]; k++) m += fsxr[fs, k]
		m = nfsx[fs] ? m / nfsx[fs] : 0
		if (nfsx[fs] == 2) fsxt = sprintf("%s, %s", fsxs[fs, 1], fsxs[fs, 2])
		else if (nfsx[fs] == 1) fsxt = fsxs[fs, 1]
		else fsxt = "absent"
		for (ci = 1; ci <= 2; ci++) {
			c = ci == 1 ? "default" : "fsx"
			if (!((fs, c) in soakr)) continue
			st = soakst[fs, c] != 0 ? " (soak FAILED)" : ""
			if (fsxbad[fs]) st = st " (fsx FAILED)"
			printf "%-5s %-8s %9s %10.0f %22s %10s %6s%s\n", fs, c, soaks[fs, c], soakr[fs, c], fsxt,
				m ? sprintf("%.0f", m) : "-", m ? sprintf("%.2f", soakr[fs, c] / m) : "-", st
		}
	}
	if (absent) print "fsx absent: the soak ran alone (FSX= a static fsx, or FSX_SRC= fstests' fsx.c)"
	if (!nop) exit 0
	printf "\nsoak per-op rates (ops/s of the time spent in each op)\n%-12s", "op"
	for (j = 1; j <= nfs; j++) for (ci = 1; ci <= 2; ci++) printf " %14s", fss[j] "/" (ci == 1 ? "default" : "fsx")
	printf "\n"
	for (i = 1; i <= nop; i++) {
		printf "%-12s", oplist[i]
		for (j = 1; j <= nfs; j++) for (ci = 1; ci <= 2; ci++) {
			c = ci == 1 ? "default" : "fsx"
			printf " %14s", ((fss[j], c, oplist[i]) in r) ? r[fss[j], c, oplist[i]] : "-"
		}
		printf "\n"
	}
}
