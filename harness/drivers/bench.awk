# harness/drivers/bench: the guest bench's results (harness/guest/bench, in the
# guest's ktap.log) as tables. Input lines, indented or not:
#   # bench fs=F tool=fsx|soak|ref check=default|fsx round=R ops=N done=D secs=S status=X
#   # soak-time name=F secs=S in_ops=A verifying=B, # soak-rates name=F op=R ...
#                                 (after a soak's bench line)
#   # bench: fsx absent ...
#   # soak-stats name=F ops=N secs=S ops_per_sec=R op=COUNT ... (after a soak's bench line)
#   # bench fsx-ran fs=F ops=N logged=L skipped=S (fsx's counting run)
# and before them, from a file named *cpu.tsv: "N<TAB>TICKS", QEMU's CPU
# time (utime + stime, in 1/tck s) when the host saw the guest's Nth
# "sg-bench-mark" (harness/drivers/bench's cpu_monitor): marks 2j-1 and 2j are the
# start and the end of the jth run that ran.
# Output: per fs, checking level and tool, the seconds of each round's run,
# ops/s over all of them (ops run / seconds), fsx's the same way, and the
# ratio to fsx, and the same per second of QEMU's CPU time; then where the soak's time went and its per-op rates
# (ops/s of the time spent in each op type, the mean over the rounds). A run
# that failed is timed over the ops it ran (done=), and said to have stopped.
# A second table counts only the ops that did something: fsx counts an op it
# skipped (unsupported here, or not fitting the file) as one of its ops, the
# soak counts no no-op and turns an unsupported op off. fsx's share that ran
# is from its counting run (1 - skipped/logged), the soak's from its
# soak-stats per-op counts.
function kv(   i, a) {
	delete v
	for (i = 1; i <= NF; i++)
		if (split($i, a, "=") == 2)
			v[a[1]] = a[2]
}
function add(list, x) { return list == "" ? x : list ", " x }
FILENAME ~ /cpu\.tsv$/ { T[$1] = $2; next }
{ sub(/^[ \t]+/, "") }
/^# bench start / { next }
/^# bench: fsx absent/ { absent = 1 }
/^# bench fs=/ {
	kv()
	fs = v["fs"]; t = v["tool"]; c = v["check"]
	if (!(fs in seenfs)) { seenfs[fs] = 1; fss[++nfs] = fs }
	if (t == "ref") hasref = 1
	d = ("done" in v) ? v["done"] : v["ops"]
	k = fs SUBSEP t SUBSEP c
	done[k] += d; secs[k] += v["secs"]; runs[k]++
	m += 2
	if (((m - 1) in T) && (m in T)) {
		x = (T[m] - T[m - 1]) / (tck ? tck : 100)
		cpu[k] += x; ncpu[k]++
		cpulist[k] = add(cpulist[k], sprintf("%.0f", x))
	}
	list[k] = add(list[k], v["secs"])
	if (v["status"] != 0) {
		stopped[k] = 1
		stops = stops sprintf("%s %s (%s checking, round %s) stopped at op %s of %s (exit %s): its rate is over those ops\n",
			fs, t, c, v["round"] ? v["round"] : 1, d, v["ops"], v["status"])
	}
	cur = t == "fsx" ? "" : k
	next
}
/^# bench fsx-ran / { kv(); if (v["logged"] > 0) ranfrac[v["fs"]] = 1 - v["skipped"] / v["logged"]; fsxskip[v["fs"]] = v["skipped"] " of " v["logged"]; next }
/^# soak-stats / && cur != "" {
	kv()
	for (i = 1; i <= NF; i++) {
		split($i, a, "=")
		if (a[1] != "name" && a[1] != "ops" && a[1] != "secs" && a[1] != "ops_per_sec" && a[2] != "")
			ran[cur] += a[2]
	}
	nran[cur]++
}
/^# soak-time / && cur != "" {
	kv()
	tin[cur] += v["in_ops"]; tver[cur] += v["verifying"]; tall[cur] += v["secs"]; nt[cur]++
}
/^# soak-rates / && cur != "" {
	nr[cur]++
	for (i = 3; i <= NF; i++) {
		split($i, a, "=")
		if (!(a[1] in isop)) { isop[a[1]] = 1; oplist[++nop] = a[1] }
		r[cur, a[1]] += a[2]
	}
}
# the checking level of column ci: 1 the default, 2 fsx's
function check(ci) { return ci == 1 ? "default" : "fsx" }
function key(fs, ti, ci) { return fs SUBSEP tools[ti] SUBSEP check(ci) }
function rate(k) { return secs[k] > 0 ? done[k] / secs[k] : 0 }
function crate(k) { return (k in runs) && (k in ncpu) && ncpu[k] == runs[k] && cpu[k] > 0 ? done[k] / cpu[k] : 0 }
function fmt(x, r) { return x ? sprintf("%.0f", x) : "-" }
function ratio(a, b) { return a && b ? sprintf("%.2f", a / b) : "-" }
END {
	if (!nfs) { print "bench: no results (see the guest's ktap.log and console.log)"; exit 1 }
	ntools = 0
	tools[++ntools] = "soak"
	if (hasref) tools[++ntools] = "ref"
	print "ops/s: per second of wall time in the guest; ops/cpu-s: per second of CPU time QEMU spent on the run"
	printf "%-5s %-8s %-5s %14s %6s %14s %9s | %14s %6s %9s | %6s %6s\n", "fs", "checking", "tool", "secs per run",
		"ops/s", "cpu-s per run", "ops/cpu-s", "fsx secs", "ops/s", "ops/cpu-s", "ratio", "cpu"
	for (j = 1; j <= nfs; j++) {
		fs = fss[j]
		f = fs SUBSEP "fsx" SUBSEP "fsx"
		fr = rate(f); fc = crate(f)
		for (ci = 1; ci <= 2; ci++) for (ti = 1; ti <= ntools; ti++) {
			k = key(fs, ti, ci)
			if (!(k in runs)) continue
			st = (k in stopped) ? " (" tools[ti] " stopped)" : ""
			if (f in stopped) st = st " (fsx stopped)"
			printf "%-5s %-8s %-5s %14s %6s %14s %9s | %14s %6s %9s | %6s %6s%s\n", fs, check(ci), tools[ti], list[k],
				fmt(rate(k)), cpulist[k] == "" ? "-" : cpulist[k], fmt(crate(k)),
				(f in runs) ? list[f] : "absent", fmt(fr), fmt(fc), ratio(rate(k), fr), ratio(crate(k), fc), st
		}
	}
	printf "%s", stops
	if (length(ranfrac)) {
		print "\nops that ran (fsx's skipped ops and the soak's no-ops left out): ops/s, ops/cpu-s"
		printf "%-5s %-8s %-5s %9s %6s %9s | %15s %9s %6s %9s | %6s %6s\n", "fs", "checking", "tool", "ran/run",
			"ops/s", "ops/cpu-s", "fsx skipped", "ran/run", "ops/s", "ops/cpu-s", "ratio", "cpu"
		for (j = 1; j <= nfs; j++) {
			fs = fss[j]
			f = fs SUBSEP "fsx" SUBSEP "fsx"
			if (!(fs in ranfrac) || !(f in runs)) continue
			fr = rate(f) * ranfrac[fs]; fc = crate(f) * ranfrac[fs]
			for (ci = 1; ci <= 2; ci++) for (ti = 1; ti <= ntools; ti++) {
				k = key(fs, ti, ci)
				if (!(k in runs) || nran[k] != runs[k] || !done[k]) continue
				q = ran[k] / done[k]
				printf "%-5s %-8s %-5s %9.0f %6s %9s | %15s %9.0f %6s %9s | %6s %6s\n", fs, check(ci),
					tools[ti], ran[k] / runs[k], fmt(rate(k) * q), fmt(crate(k) * q), fsxskip[fs],
					done[f] * ranfrac[fs] / runs[f], fmt(fr), fmt(fc), ratio(rate(k) * q, fr), ratio(crate(k) * q, fc)
			}
		}
	}
	if (absent) print "fsx absent: the soak ran alone (FSX= a static fsx, or FSX_SRC= fstests' fsx.c)"
	ncol = 0
	for (j = 1; j <= nfs; j++) for (ti = 1; ti <= ntools; ti++) for (ci = 1; ci <= 2; ci++) {
		k = key(fss[j], ti, ci)
		if (!(k in runs)) continue
		col[++ncol] = k
		split(k, p, SUBSEP)
		cname[ncol] = p[1] "/" p[2] "/" p[3]
	}
	head = 0
	for (i = 1; i <= ncol; i++) {
		k = col[i]
		if (!nt[k]) continue
		if (!head++) print "\nwhere the soak's time went (its own clock, summed over the rounds)"
		printf "  %s: %.2f s in ops, %.2f s verifying, %.2f s the rest (generating, logging)\n", cname[i],
			tin[k], tver[k], tall[k] - tin[k] - tver[k]
	}
	if (!nop) exit 0
	printf "\nsoak per-op rates (ops/s of the time spent in each op, mean over the rounds)\n%-12s", "op"
	for (i = 1; i <= ncol; i++) printf " %18s", cname[i]
	printf "\n"
	for (o = 1; o <= nop; o++) {
		if (oplist[o] == "name") continue
		printf "%-12s", oplist[o]
		for (i = 1; i <= ncol; i++)
			printf " %18s", nr[col[i]] ? sprintf("%.0f", r[col[i], oplist[o]] / nr[col[i]]) : "-"
		printf "\n"
	}
}
