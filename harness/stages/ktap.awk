# harness/stages/scan: the guest's nested KTAP (top level = suites, indented one
# level = cases) into results.tsv and failures.tsv. A suite's own lines are
# its ktap.awk's (harness/suites/<name>/ktap.awk).
# A failing case's "# kind: data|interface" and "# pins: ..." lines (before
# its result: harness/suites/README.md) go to KINDS: case, kind, pins.
# awk -v FS='\n' -v OFS='\t' -v res=RESULTS -v fail=FAILURES -v kinds=KINDS
function parse(line,   st, name, why, rest) {
	# "ok N name # SKIP why" / "not ok N name # why"
	st = (line ~ /^not ok /) ? "fail" : "pass"
	sub(/^(not )?ok [0-9]+ ?/, "", line)
	name = line; why = ""
	if (index(line, "#")) {
		name = substr(line, 1, index(line, "#") - 1)
		why = substr(line, index(line, "#") + 1)
		sub(/^ */, "", why)
		if (st == "pass" && why ~ /^SKIP/) { st = "skip"; sub(/^SKIP ?/, "", why) }
	}
	sub(/ +$/, "", name)
	P_st = st; P_name = name; P_why = why
}
BEGIN { if (kinds == "") kinds = "/dev/null"; printf "" > res; printf "" > fail; printf "" > kinds; n = 0; plan = 0 }
/^    # kind: / { ckind = substr($0, 13); next }
/^    # pins: / { cpins = substr($0, 13); next }
/^stablegate-guest: done/ { done = 1; next }
/^1\.\.[0-9]+/ { plan = 1 }
/^Bail out!/ { print "suite-error", substr($0, 11) > fail }
/^# stablegate: fs / { l = $0; sub(/^# stablegate: /, "", l); print "fs-error", l > fail; next }
/^    (not )?ok [0-9]+/ {
	l = $0; sub(/^    /, "", l); parse(l)
	pend[++n] = P_name OFS P_st OFS P_why
	if (P_st == "fail") {
		kind = (P_why ~ /mismatch|corrupt/) ? "corruption" : \
		       (P_why ~ /^flaky [0-9]+\/[0-9]+: /) ? "flaky" : \
		       (P_why ~ /^(timeout|hung):/) ? "timeout" : \
		       (P_why ~ /^signal [0-9]+ /) ? "crash" : "test-fail"
		pendf[n] = kind OFS P_name ": " P_why
		if (ckind != "" || cpins != "") pendk[n] = P_name OFS ckind OFS cpins
	}
	ckind = cpins = ""
	next
}
/^(not )?ok [0-9]+/ {
	parse($0)
	for (i = 1; i <= n; i++) {
		print P_name, pend[i] > res
		if (i in pendf) print pendf[i] > fail
		if (i in pendk) print P_name, pendk[i] > kinds
	}
	if (n == 0) print P_name, P_name, P_st, P_why > res
	if (P_st == "fail" && n == 0) print "suite-error", P_name ": " P_why > fail
	if (P_st == "fail" && n > 0 && P_why !~ /^exit 1$/) print "suite-error", P_name ": " P_why > fail
	n = 0; delete pend; delete pendf; delete pendk
}
END { if (!plan) print "no-results", "the guest printed no KTAP plan" > fail }
