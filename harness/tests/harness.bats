#!/usr/bin/env bats
# The harness's own behaviour: usage errors, stage interfaces, scan and report
# logic on fixed inputs. No kernel is built here (see e2e.bats for that).

load helpers

setup() {
	sg_setup
}

@test "every stage answers --help" {
	for s in stages/tree stages/config stages/series stages/deps stages/build stages/image stages/boot stages/scan \
		report/report report/kcidb report/matrix lava/lava-jobs lava/lava-run \
		drivers/validate drivers/prefixes drivers/validate-all drivers/minimise drivers/bench; do
		run "$H/$s" --help
		[ "$status" -eq 0 ]
		[ -n "$output" ]
	done
}

# The stages: every script of the harness's host folders that sources its
# library, as FOLDER/NAME (a new stage is covered too).
stages() { grep -l '/lib/sg\.sh"$' "$H"/stages/* "$H"/drivers/* "$H"/report/* "$H"/lava/* | sed "s|^$H/||"; }

@test "every stage: --help is usage on stdout, exit 0; no arguments is one error line and usage, exit 2" {
	bats_require_minimum_version 1.5.0
	[ "$(stages | wc -l)" -ge 11 ]
	for s in $(stages); do
		run --separate-stderr "$H/$s" --help
		[ "$status" -eq 0 ] || { echo "$s --help: exit $status"; false; }
		[[ "$output" == "harness/$s "* ]] && [ -z "$stderr" ]
		run --separate-stderr "$H/$s"
		echo "$s: exit $status: $stderr"
		[ "$status" -eq 2 ] && [ -z "$output" ]
		[[ "$stderr" == "stablegate: ${s##*/}: error: "* ]]
		[ "$(echo "$stderr" | grep -c 'error:')" -eq 1 ]
		echo "$stderr" | grep -q "^harness/$s "	# the usage
		[[ "$stderr" != *"parameter not set"* ]]
	done
}

@test "a stage given too few arguments names the missing ones, exit 2" {
	bats_require_minimum_version 1.5.0
	for c in "boot k i d:LOGDIR" "build src:OUT" "config src:OUT" "deps 6.1 src:OUT.tsv" \
		"image disks:OUT" "series 6.1 baseline:SRC" "scan:LOGDIR"; do
		run --separate-stderr $H/stages/${c%%:*}
		echo "${c%%:*}: exit $status: $stderr"
		[ "$status" -eq 2 ]
		[[ "$stderr" == "stablegate: "*": error: missing "*"${c#*:}"* ]]
		[[ "$stderr" != *"parameter not set"* ]]
	done
}

# Every setting the harness reads (a ${VAR:-...} or ${VAR:=...} default in its
# shell files, or a name it builds, VAR_$(...)) is a row of README.md's
# Settings table, and every name there is one it reads. Not settings: SG_STAGE
# (sg_stage sets it), SG_ROOT (the checkout: harness/lib/sg.sh or the Makefile), RUN_DIR
# (validate sets it for its stages), SG_RUN_PID (sg_supervise sets it), HOME.
@test "README's Settings table lists every setting the harness reads, and nothing else" {
	cd "$ROOT"
	files="$(ls harness/lib/*.sh) harness/guest/init $(stages | sed 's|^|harness/|')"
	read=$( { grep -ohE '\$\{[A-Z][A-Z0-9_]*:[-=]' $files | sed 's/^..//; s/:.$//'
		grep -ohE '[A-Z][A-Z0-9_]*_\$\(' $files | sed 's/..$//'; } |
		grep -vxE 'SG_STAGE|SG_ROOT|RUN_DIR|SG_RUN_PID|HOME' | sort -u)
	listed=$(sed -n '/^## Settings/,/^## /p' README.md | grep '^| `' |
		grep -oE '`[A-Z][A-Z0-9_]*(=|<)' | sed 's/^.//; s/.$//' | sort -u)
	[ "$(echo "$read" | wc -l)" -ge 25 ]
	diff <(echo "$read") <(echo "$listed")
}

@test "validate without branch= prints usage and the branches, exit 2" {
	run make -C "$ROOT" -s validate
	[ "$status" -ne 0 ]
	[[ "$output" == *"no branch given"* ]]
	[[ "$output" == *"6.1"* ]]
}

@test "unknown branch exits 2 and lists the known branches" {
	run "$H/drivers/validate" nosuch
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown branch 'nosuch'"* ]]
	for b in 4.14 4.19 6.1 mainline; do [[ "$output" == *"$b"* ]]; done
	[ ! -e "$ROOT/reports/nosuch" ]
}

@test "4.14 and 4.19 without KSRC say the tree is not installable, exit 3" {
	for b in 4.14 4.19; do
		run "$H/drivers/validate" "$b"
		[ "$status" -eq 3 ]
		[[ "$output" == *"not installable from the package manager"* ]]
		[[ "$output" == *"KSRC="* ]]
	done
}

@test "KSRC with a kernel Makefile is accepted and its version read" {
	k=$BATS_TEST_TMPDIR/linux
	mkdir -p "$k"
	printf 'VERSION = 4\nPATCHLEVEL = 19\nSUBLEVEL = 325\n' > "$k/Makefile"
	touch "$k/Kconfig"
	KSRC=$k run "$H/stages/tree" 4.19
	[ "$status" -eq 0 ]
	[[ "$output" == *"KERNEL_VERSION=4.19.325"* ]]
	[[ "$output" == *"TREE_SOURCE=KSRC"* ]]
}

@test "series: baseline and patched share one hard-linked dir, pristine tree untouched" {
	fake_repo 9.7 'tree=ksrc
series_in_tree=yes'
	src=$BATS_TEST_TMPDIR/src
	mkdir -p "$src/fs"
	printf 'one\nthree\n' > "$src/fs/a.c"
	printf 'same\n' > "$src/fs/b.c"
	printf -- '--- a/fs/a.c\n+++ b/fs/a.c\n@@ -1,2 +1,2 @@\n one\n-two\n+three\n' > "$R/backports/9.7/0001-x.patch"
	echo 0001-x.patch > "$R/backports/9.7/series"
	run "$R/harness/stages/series" 9.7 baseline "$src"
	[ "$status" -eq 0 ]
	v=$(echo "$output" | tail -n 1)
	[ "$(cat "$v/fs/a.c")" = "$(printf 'one\ntwo')" ]
	[ "$(cat "$src/fs/a.c")" = "$(printf 'one\nthree')" ]
	[ "$(stat -c %i "$v/fs/b.c")" = "$(stat -c %i "$src/fs/b.c")" ]
	# patched uses the same dir (same compiler command lines), back in SRC's state
	run "$R/harness/stages/series" 9.7 patched "$src"
	[ "$(echo "$output" | tail -n 1)" = "$v" ]
	[ "$(cat "$v/fs/a.c")" = "$(printf 'one\nthree')" ]
	# same state again: reused, not recreated
	run "$R/harness/stages/series" 9.7 patched "$src"
	[[ "$output" == *"reusing"* ]]
}

@test "config: a symbol Kconfig drops is named; one the tree lacks is a warning" {
	[ -d "$STABLEGATE_CACHE" ] || true
	src=$(ls -d "${SG_TEST_CACHE:-/var/cache/stablegate}"/src/linux-source-6.1_* 2>/dev/null | head -n 1)
	[ -n "$src" ] || skip "no 6.1 tree in the cache yet (the e2e test fetches it)"
	# EXT4_FS_SECURITY needs EXT4_FS, which tinyconfig leaves off
	printf 'CONFIG_EXT4_FS_SECURITY=y\nCONFIG_NO_SUCH_SYMBOL_SG=y\n' > "$BATS_TEST_TMPDIR/bad.config"
	FRAGMENTS=$BATS_TEST_TMPDIR/bad.config run "$H/stages/config" "$src" "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 1 ]
	[[ "$output" == *"config: error: Kconfig dropped or forced: CONFIG_EXT4_FS_SECURITY ("* ]]
	[[ "$output" == *"not defined in this tree (renamed or removed): CONFIG_NO_SUCH_SYMBOL_SG"* ]]
}

@test "boot: ACCEL is validated and KVM is not chosen without vmx/svm" {
	ACCEL=bogus run "$H/stages/boot" k i d "$BATS_TEST_TMPDIR/l"
	[ "$status" -eq 2 ]
	grep -qwE 'vmx|svm' /proc/cpuinfo && skip "this CPU has vmx/svm"
	# no such kernel: qemu fails fast, but the accelerator line comes first
	run "$H/stages/boot" /nonexistent /nonexistent "$BATS_TEST_TMPDIR" "$BATS_TEST_TMPDIR/l"
	[[ "$output" == *"accelerator: tcg"* ]]
	[ "$status" -eq 1 ]
	grep -q '^BOOT_STATUS=qemu-error' "$BATS_TEST_TMPDIR/l/boot.env"
}

# Splats captured from the 6.1 guest kernel (lkdtm, harness/tests/faults.bats)
# and, for the kinds lkdtm cannot provoke there, lines in the kernels' format.
@test "scan names every kind of kernel failure on the console, with its function and trace" {
	d=$BATS_TEST_TMPDIR/run
	mkdir -p "$d"
	cat "$FIX"/console-6.1-lkdtm-*.log "$FIX/console-splats.log" > "$d/console.log"
	printf 'KTAP version 1\n1..0\nstablegate-guest: done\n' > "$d/ktap.log"
	echo BOOT_STATUS=ok > "$d/boot.env"
	run "$H/stages/scan" "$d"
	[ "$status" -eq 0 ]
	cat "$d/failures.tsv"
	# every kind scan knows is matched by some line: no pattern that cannot match
	for k in warn bug oops fs-error hung-task panic lockdep rcu-stall ubsan; do
		grep -q "^$k	" "$d/failures.tsv"
	done
	grep -qx 'warn	WARNING: CPU: 0 PID: 57 at drivers/misc/lkdtm/bugs.c:85 lkdtm_WARNING+0x8/0xb | RIP: lkdtm_WARNING | trace: direct_entry < full_proxy_write < vfs_write < ksys_write < do_syscall_64' "$d/failures.tsv"
	grep -q '^bug	BUG: kernel NULL pointer dereference, address: 0000000000000000 | RIP: lkdtm_EXCEPTION | trace: direct_entry' "$d/failures.tsv"
	grep -q '^hung-task	INFO: task init:59 blocked for more than 5 seconds. | trace: direct_entry < .* (2 times)$' "$d/failures.tsv"
	grep -qx 'panic	Kernel panic - not syncing: dumptest' "$d/failures.tsv"
	# the "Oops:" line of a BUG splat is not a second failure
	[ "$(grep -c '^oops	Oops: 0002' "$d/failures.tsv")" = 0 ]
}

@test "scan parses nested KTAP: cases, skips, soak stats, op logs, corruption" {
	d=$BATS_TEST_TMPDIR/run
	mkdir -p "$d"
	cp "$FIX/ktap-nested.log" "$d/ktap.log"
	: > "$d/console.log"
	echo BOOT_STATUS=ok > "$d/boot.env"
	run "$H/stages/scan" "$d"
	[ "$status" -eq 0 ]
	[ "$(grep -c . "$d/results.tsv")" -eq 4 ]
	grep -qx 'syscall	cfr_basic.xfs	pass	' "$d/results.tsv"
	grep -qx 'syscall	cfr_eof.ext4	fail	returned -1 EINVAL, expected 0' "$d/results.tsv"
	grep -qx 'syscall	ficlone.tmpfs	skip	tmpfs has no reflink' "$d/results.tsv"
	grep -q '^corruption	soak.xfs: mismatch at op 17' "$d/failures.tsv"
	grep -q '^test-fail	cfr_eof.ext4' "$d/failures.tsv"
	grep -q '^xfs	name=xfs ops=5000' "$d/soak.tsv"
	grep -qx '# oplog: op=1 write f=0 off=0x0 len=0x1000' "$d/oplog-xfs.txt"
}

@test "scan: a guest that never finished is a named boot failure" {
	d=$BATS_TEST_TMPDIR/run
	mkdir -p "$d"
	: > "$d/console.log"; : > "$d/ktap.log"
	for st in stall:boot-hang timeout:timeout no-finish:guest-died; do
		echo "BOOT_STATUS=${st%%:*}" > "$d/boot.env"
		run "$H/stages/scan" "$d"
		[ "$status" -eq 0 ]
		grep -q "^${st#*:}	" "$d/failures.tsv"
		grep -q '^no-results	' "$d/failures.tsv"
	done
}

@test "report: fail on baseline, pass on patched is a fix, verdict SAFE" {
	make_run "$BATS_TEST_TMPDIR/r" fail pass
	run "$H/report/report" "$BATS_TEST_TMPDIR/r"
	[ "$status" -eq 0 ]
	j=$BATS_TEST_TMPDIR/r/result.json
	[ "$(jq -r .verdict "$j")" = SAFE ]
	[ "$(jq '.comparison.fixes | length' "$j")" -eq 1 ]
	[ "$(jq -r .accelerator "$j")" = tcg ]
	grep -q '^\*\*SAFE: no regression, no behaviour change, ' "$BATS_TEST_TMPDIR/r/summary.md"
	grep -q '^stablegate 6.1: SAFE: no regression, .*; fixes 1: a.xfs\.$' "$BATS_TEST_TMPDIR/r/summary.md"
	grep -q '^Compared: 0 regressions, 1 fix,' "$BATS_TEST_TMPDIR/r/summary.md"
}

@test "report: junit.xml passes the XSD: a testsuite per kernel, failures and skips with their reason, kernel failures as a failed console case" {
	r=$BATS_TEST_TMPDIR/r
	make_run "$r" fail pass
	printf 'syscall\tc.tmpfs\tskip\tswapon refused on tmpfs: EINVAL\n' >> "$r/patched/results.tsv"
	printf 'warn\tWARNING: at a.c:1 <x> & y | RIP: f\n' > "$r/patched/failures.tsv"
	run "$H/report/report" "$r"
	[ "$status" -eq 0 ]
	x=$r/junit.xml xsd=$ROOT/harness/report/junit.xsd
	xmllint --noout --schema "$xsd" "$x"
	q() { xmllint --xpath "$1" "$x"; }
	[ "$(q 'count(/testsuites/testsuite)')" = 2 ]
	[ "$(q 'string(/testsuites/@tests)')" = 7 ] && [ "$(q 'string(/testsuites/@failures)')" = 2 ]
	b='/testsuites/testsuite[@name="stablegate.6.1.baseline"]' p='/testsuites/testsuite[@name="stablegate.6.1.patched"]'
	[ "$(q "string($b/@tests)") $(q "string($b/@failures)") $(q "string($b/@skipped)") $(q "string($b/@time)")" = "3 1 0 3" ]
	[ "$(q "count($b/testcase[@name='a.xfs']/failure)")" = 1 ]
	[ "$(q "string($b/properties/property[@name='verdict']/@value)")" = UNSAFE ]
	[ "$(q "string($p/@tests)") $(q "string($p/@failures)") $(q "string($p/@skipped)")" = "4 1 1" ]
	[ "$(q "string($p/testcase[@name='c.tmpfs']/skipped/@message)")" = 'swapon refused on tmpfs: EINVAL' ]
	[ "$(q "string($p/testcase[@classname='stablegate.kernel']/failure)")" = 'warn: WARNING: at a.c:1 <x> & y | RIP: f' ]
	[ "$(q "count($b/testcase[@classname='stablegate.kernel']/failure)")" = 0 ]
	# make report RUN= renders the same outputs again from the run's logs
	cp "$r/result.json" "$r/junit.xml" "$BATS_TEST_TMPDIR/"
	make -C "$ROOT" -s report RUN="$r"
	cmp "$r/result.json" "$BATS_TEST_TMPDIR/result.json" && cmp "$x" "$BATS_TEST_TMPDIR/junit.xml"
	# the schema can fail: a testsuite without its counts, or a failure outside a testcase
	sed 's/ tests="4"//' "$x" > "$r/bad1.xml"
	run xmllint --noout --schema "$xsd" "$r/bad1.xml"
	[ "$status" -ne 0 ]
	sed 's|<properties>|<failure/><properties>|' "$x" > "$r/bad2.xml"
	run xmllint --noout --schema "$xsd" "$r/bad2.xml"
	[ "$status" -ne 0 ]
}

@test "report: a failure on both kernels is pre-existing only when baseline fails the same way" {
	r=$BATS_TEST_TMPDIR/r
	make_run "$r" fail fail
	printf 'syscall\ta.xfs\tfail\top 9 off 1\nsyscall\tb.xfs\tpass\t\n' > "$r/patched/results.tsv"
	printf 'syscall\ta.xfs\tfail\top 9 off 1\nsyscall\tb.xfs\tpass\t\n' > "$r/baseline/results.tsv"
	"$H/report/report" "$r"
	grep -qF -- '- `syscall/a.xfs`: op 9 off 1 — also fails on baseline, the same way' "$r/summary.md"
	grep -qx 'Differs from mainline with and without the series (pre-existing): `syscall/a.xfs`' "$r/summary.md"
	printf 'syscall\ta.xfs\tfail\top 2 off 5\nsyscall\tb.xfs\tpass\t\n' > "$r/baseline/results.tsv"
	"$H/report/report" "$r"
	grep -qF -- '- `syscall/a.xfs`: op 9 off 1 — fails on baseline too, but differently (baseline: op 2 off 5)' "$r/summary.md"
	grep -qx 'Differs from mainline; fails on baseline too, but differently: `syscall/a.xfs`' "$r/summary.md"
	run grep -q 'pre-existing' "$r/summary.md"
	[ "$status" -ne 0 ]
	[ "$(jq -r .verdict "$r/result.json")" = UNSAFE ]
}

# SOAK_SEEDS: the soak's results per profile and kernel, counted
@test "report: the soak's seeds per profile and kernel: how many failed, their ops, and where the first stopped" {
	r=$BATS_TEST_TMPDIR/r
	make_run "$r" pass pass
	echo SOAK_SEEDS=3 >> "$r/env"
	for v in baseline patched; do
		: > "$r/$v/results.tsv"; : > "$r/$v/soak.tsv"
		for k in 1 2 3; do
			st=pass why=
			[ $v = patched ] || [ $k = 1 ] || { st=fail why="mismatch at op $((300 - k)) (copy) off 5"; }
			printf 'soak\tsoak-s%s.xfs_1k\t%s\t%s\n' $k $st "$why" >> "$r/$v/results.tsv"
			printf 'xfs_1k-s%s\tname=xfs_1k-s%s ops=%s secs=1 ops_per_sec=9 seed=%s\n' $k $k \
				"$([ "$st" = fail ] && echo $((300 - k)) || echo 7000)" $((6 + k)) >> "$r/$v/soak.tsv"
		done
	done
	"$H/report/report" "$r"
	jq -e '.soak_seeds == 3 and .variants.patched.soak_profiles == [{profile: "xfs_1k", seeds: 3, failed: 0, ops: 21000, first_failure: null}]
		and .variants.baseline.soak_profiles == [{profile: "xfs_1k", seeds: 3, failed: 2, ops: 7595, first_failure: {op: 297, type: "copy"}}]' "$r/result.json"
	grep -qx -- '- patched, xfs_1k: 0 of 3 seeds failed, 21,000 ops' "$r/summary.md"
	grep -qx -- '- baseline, xfs_1k: 2 of 3 seeds failed, 7,595 ops, first at op 297 (copy)' "$r/summary.md"
	grep -qx '| baseline | xfs_1k-s2 | 8 | 298 | 1 | 9 |' "$r/summary.md"
	tr -s ' \n' '  ' < "$r/review.txt" | grep -qF 'xfs_1k: baseline 2 of 3 seeds failed, 7,595 ops, first at op 297 (copy); patched 0 of 3 seeds failed, 21,000 ops'
}

# How often a failing case failed before: the runs beside this one that
# booted the same tree and series; a reused baseline counts once, a replay
# run not at all.
@test "report: a failing case's rate across the branch's runs of the same tree and series; flaky across runs is named" {
	b=$BATS_TEST_TMPDIR/6.1
	for i in 1 2 3 4 5; do
		make_run "$b/r$i" fail pass
		sed -i "s/^RUN_ID=test/RUN_ID=r$i/" "$b/r$i/env"
	done
	printf 'syscall\ta.xfs\tfail\tx\nsyscall\tb.xfs\tpass\t\n' > "$b/r2/patched/results.tsv"
	echo REUSED_FROM=6.1/r1 >> "$b/r3/baseline/boot.env"	# its baseline is r1's
	echo SOAK_REPLAY=/x.log >> "$b/r4/env"	# a replay: not a run of the soak
	sed -i 's/^SERIES_HASH=abc/SERIES_HASH=def/' "$b/r5/env"	# another series
	for i in 1 2 3 4 5; do "$H/report/report" "$b/r$i" > /dev/null; done
	"$H/report/report" "$b/r1"
	jq -e '.failure_rates == {earlier_runs: 2, cases: [{case: "syscall/a.xfs", baseline: {failed: 2, ran: 2}, patched: {failed: 1, ran: 3}}]}' "$b/r1/result.json"
	grep -qx '| `syscall/a.xfs` | 2/2 | 1/3 | \*\*flaky across runs\*\* |' "$b/r1/summary.md"
	tr -s ' \n' '  ' < "$b/r1/review.txt" | grep -qF '(2 earlier, and this one): 1 failed only some of them (flaky across runs): * syscall/a.xfs: patched 1 of 3 runs, baseline 2 of 2 runs'
	# r3's own baseline is r1's results: counted there, not again
	jq -e '.failure_rates.cases[0].baseline == {failed: 2, ran: 2}' "$b/r3/result.json"
	jq -e '.failure_rates == {earlier_runs: 0, cases: [{case: "syscall/a.xfs", baseline: {failed: 1, ran: 1}, patched: {failed: 0, ran: 1}}]}' "$b/r5/result.json"
	# failing on baseline only, in every run: a fix, counted, not a row
	grep -qx -- '- no case failing on patched or only some of the runs' "$b/r5/summary.md"
	grep -qx '1 more case failed on baseline only, every run: the fixes and behaviour changes above.' "$b/r5/summary.md"
	! grep -q '^| `syscall/a.xfs`' "$b/r5/summary.md" || false
}

@test "boot reuse: an ok boot indexed in this checkout's reports is reused and named; a failed one, another key or another checkout's is not" {
	reuse() {	# ROOT KEY DIR: sg_boot_reuse, then REUSED_FROM
		SG_ROOT=$1 sh -c '. "$SG_ROOT/harness/lib/sg.sh" && mkdir -p "$2" && sg_boot_reuse "$1" "$2" && sg_getenv "$2/boot.env" REUSED_FROM' - "$2" "$3"
	}
	record() {	# ROOT KEY DIR
		SG_ROOT=$1 sh -c '. "$SG_ROOT/harness/lib/sg.sh" && sg_boot_record "$1" "$2"' - "$2" "$3"
	}
	A=$BATS_TEST_TMPDIR/a B=$BATS_TEST_TMPDIR/b
	mkdir -p "$A" "$B"
	cp -r "$ROOT/harness" "$A/"; cp -r "$ROOT/harness" "$B/"
	for k in k1 k2; do
		mkdir -p "$A/reports/6.1/r-$k/baseline"
		printf 'BOOT_KEY=%s\nBOOT_STATUS=ok\n' $k > "$A/reports/6.1/r-$k/baseline/boot.env"
		echo "syscall	a	pass	" > "$A/reports/6.1/r-$k/baseline/results.tsv"
		record "$A" $k "$A/reports/6.1/r-$k/baseline"
	done
	[ "$(cat "$A/reports/.boots/k1")" = 6.1/r-k1/baseline ]
	# a run reached through latest is indexed by its id; one outside reports/ not at all
	ln -s r-k1 "$A/reports/6.1/latest"
	record "$A" k1 "$A/reports/6.1/latest/baseline"
	[ "$(cat "$A/reports/.boots/k1")" = 6.1/r-k1/baseline ]
	mkdir -p "$BATS_TEST_TMPDIR/elsewhere"
	record "$A" k5 "$BATS_TEST_TMPDIR/elsewhere"
	[ ! -e "$A/reports/.boots/k5" ]
	run reuse "$A" k1 "$A/reports/6.1/r2/baseline"
	[ "$status" -eq 0 ]
	[ "$output" = 6.1/r-k1 ]
	cmp "$A/reports/6.1/r-k1/baseline/results.tsv" "$A/reports/6.1/r2/baseline/results.tsv"
	# a key with no ok boot behind it
	sed -i 's/^BOOT_STATUS=ok/BOOT_STATUS=boot-hang/' "$A/reports/6.1/r-k2/baseline/boot.env"
	run reuse "$A" k2 "$A/reports/6.1/r3/baseline"
	[ "$status" -eq 1 ]
	run reuse "$A" k3 "$A/reports/6.1/r3/baseline"
	[ "$status" -eq 1 ]
	# another checkout with the same key and STABLEGATE_CACHE boots its own
	run reuse "$B" k1 "$B/reports/6.1/r1/baseline"
	[ "$status" -eq 1 ]
	[ ! -e "$B/reports/6.1/r1/baseline/results.tsv" ]
}

@test "report: pass on baseline, fail on patched is a regression, verdict UNSAFE" {
	make_run "$BATS_TEST_TMPDIR/r" pass fail
	run "$H/report/report" "$BATS_TEST_TMPDIR/r"
	j=$BATS_TEST_TMPDIR/r/result.json
	[ "$(jq -r .verdict "$j")" = UNSAFE ]
	[ "$(jq -r '.comparison.regressions[0].name' "$j")" = a.xfs ]
	grep -q 'Regressions (pass → fail, data integrity): `syscall/a.xfs`' "$BATS_TEST_TMPDIR/r/summary.md"
}

@test "report: a candidate is judged on what it changes: failures, soak corruptions and kernel failures baseline shows too are counted, not reasons" {
	r=$BATS_TEST_TMPDIR/r c=$BATS_TEST_TMPDIR/cand
	make_run "$r" fail fail
	mkdir -p "$c" && printf 'From: A <a@example.org>\nSubject: [PATCH] x: fix y\n\n---\n' > "$c/0001-x-fix-y.patch"
	sed -i 's/^SERIES_IN_TREE=yes/SERIES_IN_TREE=no/' "$r/env"
	printf '%s\n' "CANDIDATE=$c" "CANDIDATE_DIR=$c" >> "$r/env"
	printf 'soak\tsoak.xfs\tfail\tmismatch at op 5 (copy) off 1\n' | tee -a "$r/baseline/results.tsv" >> "$r/patched/results.tsv"
	# the same WARN (another PID, offset and line) and soak failure on both
	printf 'warn\tWARNING: CPU: 0 PID: 11 at fs/x.c:10 f+0x1/0x2\ncorruption\tsoak.xfs: mismatch at op 5 (copy) off 1\n' > "$r/baseline/failures.tsv"
	printf 'warn\tWARNING: CPU: 1 PID: 12 at fs/x.c:12 f+0x3/0x4\ncorruption\tsoak.xfs: mismatch at op 5 (copy) off 1\n' > "$r/patched/failures.tsv"
	"$H/report/report" "$r"
	j=$r/result.json
	jq -e '.verdict == "SAFE" and .verdict_rule == "candidate" and .verdict_reasons == []' "$j"
	jq -e '.comparison.pre_existing | (.failures | length) == 2 and (.corruption | length) == 1
		and .corruption[0].same_way and (.kernel_failures | length) == 1 and .soak_ops_failing == ["copy"]' "$j"
	first "$r/review.txt" | grep -q "^stablegate 6.1, candidate $c: SAFE: no regression,"
	first "$r/review.txt" | grep -q 'SAFE: no regression, no behaviour change, no failure, soak corruption or kernel failure that baseline does not show (x86_64, against baseline: tree as shipped, without the candidate); fixes none; on baseline too, so not the candidate.s: 2 failing cases, 1 soak corruption, 1 kernel failure\.$'
	unfold "$r/review.txt" | grep -q '^\* 2 cases fail on baseline the same way (not the candidate.s;'
	unfold "$r/review.txt" | grep -q 'SOAK_ARGS="--disable copy" SUITES=soak'
	[ -z "$(too_wide "$r/review.txt")" ]
	# what it changes counts: b.xfs regresses
	sed -i 's/^syscall\tb.xfs\tpass/syscall\tb.xfs\tfail\tgot 1/' "$r/patched/results.tsv"
	"$H/report/report" "$r"
	jq -e '.verdict == "UNSAFE" and .verdict_reasons == ["1 regression of data integrity: b.xfs"]' "$j"
	first "$r/review.txt" | grep -q ': UNSAFE: 1 regression of data integrity: b.xfs (x86_64, against'
	# the same results as a branch's own series: every failing case counts
	sed -i '/^CANDIDATE/d' "$r/env"
	"$H/report/report" "$r"
	jq -e '.verdict_rule == "branch" and (.verdict_reasons | length) == 4' "$j"
	jq -e '.verdict_reasons[1:] == ["3 failing cases not listed in divergences.tsv", "1 soak corruption", "1 kernel failure on the console"]' "$j"
}

@test "report: an interface case that flips is a behaviour change, named with the upstream commit its pins line gives; the patch that brings it changes behaviour, not harmful" {
	r=$BATS_TEST_TMPDIR/r
	make_run "$r" pass fail
	printf 'syscall\ta.xfs\tinterface\tcommit a5e6ea18e3d1 seed - patch "fs: allow deduplication of eof block"\n' > "$r/patched/kinds.tsv"
	"$H/report/report" "$r"
	j=$r/result.json
	jq -e '.verdict == "UNSAFE" and .comparison.regressions[0].kind == "interface"' "$j"
	jq -e '.verdict_reasons[0] | startswith("1 behaviour change (an interface case that passes on baseline fails patched): a.xfs (the behaviour pinned came upstream with a5e6ea18e3d1)")' "$j"
	jq -e '.evidence.patches[0].status == "not run" or .evidence.patches[0].status == "changes behaviour"' "$j"
	grep -q 'Regressions (pass → fail, data integrity): none' "$r/summary.md"
	grep -q 'Behaviour changes (.*): `syscall/a.xfs` now fails (upstream a5e6ea18e3d1)' "$r/summary.md"
	unfold "$r/review.txt" | grep -qx '\* syscall/a.xfs: baseline passes; patched fails; the behaviour pinned came upstream with a5e6ea18e3d1'
	# the same flip of a data case is a regression
	printf 'syscall\ta.xfs\tdata\tcommit - seed - patch -\n' > "$r/patched/kinds.tsv"
	"$H/report/report" "$r"
	jq -e '.verdict_reasons == ["1 regression of data integrity: a.xfs", "1 failing case not listed in divergences.tsv"]' "$j"
}

@test "report: a patch that fails a stable rule is 'not stable material as posted' in every output; what was not checked is said" {
	r=$BATS_TEST_TMPDIR/r p=0001-xfs-zero-posteof-blocks-when-cloning-above-eof.patch
	make_run "$r" fail pass
	mkdir -p "$r/upstream"
	printf 'patch\trule\tresult\tdetail\n%s\tupstream-line\tfail\tno upstream commit\n%s\tupstream-git\tunchecked\tUPSTREAM_GIT not set\n' "$p" "$p" > "$r/upstream/rules.tsv"
	printf 'patch\tagainst\tref\tmatched\tdiffer\tdropped\tadded\tfiles\tsummary\n%s\tstable\tx.patch\t1\t1\t0\t0\tfs/read_write.c\tdiffers from the stable backport in 1 hunk: fs/read_write.c\n' "$p" > "$r/upstream/interdiff.tsv"
	"$H/report/report" "$r"
	j=$r/result.json
	jq -e '.verdict == "SAFE" and .evidence.patches[0].not_stable == ["no upstream commit"]' "$j"
	jq -e '.stable_rules.checked and .stable_rules.not_checked == ["UPSTREAM_GIT not set"] and .evidence.patches[0].interdiff[0].differ == 1' "$j"
	first "$r/review.txt" | grep -q 'fixes 1: a.xfs; 1 patch not stable material as posted: 0001 (no upstream commit)\.$'
	grep -qx '  not stable material as posted: no upstream commit' "$r/review.txt"
	grep -qx '  differs from the stable backport in 1 hunk: fs/read_write.c' "$r/review.txt"
	unfold "$r/review.txt" | grep -qx 'Not checked: UPSTREAM_GIT not set'
	grep -q '| 1 | xfs: zero posteof blocks when cloning above eof | \*\*not stable material as posted\*\*: no upstream commit | differs from the stable backport in 1 hunk' "$r/summary.md"
	x=$r/junit.xml
	xmllint --noout --schema "$ROOT/harness/report/junit.xsd" "$x"
	[ "$(xmllint --xpath "string(//testsuite[@name='stablegate.6.1.stable-rules']/testcase[@name='upstream-line']/failure/@message)" "$x")" = 'not stable material as posted: no upstream commit' ]
	[ "$(xmllint --xpath "count(//testsuite[@name='stablegate.6.1.stable-rules']/testcase/skipped)" "$x")" = 1 ]
}

@test "report: an object that compiles under allmodconfig on baseline and not patched is a build regression; new warnings in touched files are named" {
	r=$BATS_TEST_TMPDIR/r
	make_run "$r" pass pass
	for v in baseline patched; do
		printf 'arch\tobject\tstatus\twarnings\tdetail\nx86_64\tfs/a.o\tok\t0\t\nx86_64\tfs/cifs/b.o\tok\t0\t\ni386\tfs/a.o\tok\t0\t\n' > "$r/$v/xbuild.tsv"
		echo 'fs/a.c: warning: old [-Wold]' > "$r/$v/xbuild-x86_64.warnings"
		printf 'HOST_FIXES=0001-x.patch\n' > "$r/$v/xbuild.env"
	done
	sed -i 's|^i386\tfs/a.o\tok\t0\t$|i386\tfs/a.o\terror\t1\tfs/a.c:3:1: error: x|' "$r/patched/xbuild.tsv"
	printf 'fs/a.c: warning: old [-Wold]\nfs/a.c: warning: new [-Wnew]\n' > "$r/patched/xbuild-x86_64.warnings"
	"$H/report/report" "$r"
	j=$r/result.json
	jq -e '.verdict == "UNSAFE" and .verdict_reasons == ["1 build regression under allmodconfig: fs/a.o (i386)"]' "$j"
	jq -e '.xbuild.ran and .xbuild.new_warnings == [{"arch": "x86_64", "warning": "fs/a.c: warning: new [-Wnew]", "touched": true}]' "$j"
	grep -q '^| i386 | `fs/a.o` | ok | \*\*error\*\* | 1 | fs/a.c:3:1: error: x |$' "$r/summary.md"
	unfold "$r/review.txt" | grep -qx '\* build regression: fs/a.o (i386): fs/a.c:3:1: error: x'
	unfold "$r/review.txt" | grep -qx '\* new warning (x86_64): fs/a.c: warning: new \[-Wnew\]'
	# KCIDB: a build per kernel and architecture, an object a test of it
	"$H/report/kcidb" "$r"
	k=$r/kcidb.json
	jq -e '[.builds[] | select(.config_name == "allmodconfig") | {id: (.id | sub("^.*:(?<v>[a-z]+:allmodconfig)"; "\(.v)")), architecture, valid}]
		== [{id: "baseline:allmodconfig-i386", architecture: "i386", valid: true}, {id: "baseline:allmodconfig-x86_64", architecture: "x86_64", valid: true},
		    {id: "patched:allmodconfig-i386", architecture: "i386", valid: false}, {id: "patched:allmodconfig-x86_64", architecture: "x86_64", valid: true}]' "$k"
	jq -e '[.tests[] | select(.build_id | endswith("patched:allmodconfig-i386")) | {path, status, comment}]
		== [{path: "stablegate.xbuild.fs_a.o", status: "FAIL", comment: "fs/a.c:3:1: error: x"}]' "$k"
}

@test "report: a kernel WARN on the patched kernel makes it UNSAFE" {
	make_run "$BATS_TEST_TMPDIR/r" pass pass
	printf 'warn\tWARNING: CPU: 0 PID: 1 at fs/x.c:1\n' > "$BATS_TEST_TMPDIR/r/patched/failures.tsv"
	run "$H/report/report" "$BATS_TEST_TMPDIR/r"
	[ "$(jq -r .verdict "$BATS_TEST_TMPDIR/r/result.json")" = UNSAFE ]
	grep -q '^- \*\*warn\*\*: WARNING: CPU: 0' "$BATS_TEST_TMPDIR/r/summary.md"
}

@test "report: a boot that did not finish makes the run INCONCLUSIVE" {
	make_run "$BATS_TEST_TMPDIR/r" pass pass
	echo BOOT_STATUS=stall > "$BATS_TEST_TMPDIR/r/patched/boot.env"
	run "$H/report/report" "$BATS_TEST_TMPDIR/r"
	[ "$(jq -r .verdict "$BATS_TEST_TMPDIR/r/result.json")" = INCONCLUSIVE ]
}

@test "report: a listed known divergence is reported but does not make UNSAFE" {
	make_run "$BATS_TEST_TMPDIR/r" fail fail
	fake_repo 6.1x 'tree=ksrc'
	printf 'test\treason\tevidence\nsyscall/a.xfs\tmainline changed it in 9.9\tabc123\n' > "$R/backports/6.1/divergences.tsv"
	run "$R/harness/report/report" "$BATS_TEST_TMPDIR/r"
	j=$BATS_TEST_TMPDIR/r/result.json
	[ "$(jq -r .verdict "$j")" = SAFE ]
	[ "$(jq -r '.comparison.known_divergences[0].why' "$j")" = "mainline changed it in 9.9" ]
	grep -q 'known divergence: mainline changed it in 9.9' "$BATS_TEST_TMPDIR/r/summary.md"
}

@test "report: a suite that bailed out makes the run INCONCLUSIVE, not UNSAFE" {
	make_run "$BATS_TEST_TMPDIR/r" pass pass
	printf 'suite-error\tguest setup: cannot mount the test filesystems\n' > "$BATS_TEST_TMPDIR/r/patched/failures.tsv"
	run "$H/report/report" "$BATS_TEST_TMPDIR/r"
	j=$BATS_TEST_TMPDIR/r/result.json
	[ "$(jq -r .verdict "$j")" = INCONCLUSIVE ]
	[ "$(jq -r '.broken_stages[0].status' "$j")" = "suite-error: guest setup: cannot mount the test filesystems" ]
	[ "$(jq '.totals.patched.kernel_failures' "$j")" -eq 0 ]
}

# series_patch FILE SUBJECT NOTE: a format-patch file (SUBJECT and NOTE, the
# body's first paragraph, as printf %b strings) changing a.c.
series_patch() {
	printf 'From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\nFrom: A U Thor <a@example.org>\nSubject: %b\n\n%b\n\nSigned-off-by: A U Thor <a@example.org>\n---\n--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-a1\n+a2\n' "$2" "$3" > "$1"
}
# unfold FILE: review.txt with each wrapped line joined to the line it continues
# first FILE: its first paragraph on one line (review.txt's verdict)
first() { awk 'BEGIN { RS = "" } NR == 1 { gsub(/\n/, " "); print; exit }' "$1"; }
unfold() { awk '/^  / && n { sub(/^ +/, ""); l = l " " $0; next } { if (n) print l; l = $0; n = 1 } END { if (n) print l }' "$1"; }
# too_wide FILE: the lines over 72 columns that hold more than one word
too_wide() { awk 'length > 72 { w = $0; sub(/^[* ]+/, "", w); if (w ~ / /) print }' "$1"; }

@test "report: review.txt names every patch with its subject and upstream commit, at most 72 columns" {
	fake_repo 9.5 'tree=ksrc
series_in_tree=yes'
	D=$R/backports/9.5
	# each form the branch patches name their upstream commit in
	series_patch "$D/0001-a.patch" '[PATCH 9.5 1/4] a: one' '[ Upstream commit 1111111111111111111111111111111111111111 ]'
	series_patch "$D/0002-b.patch" '[PATCH 9.5 2/4] b: a fix whose subject is long enough that\n git folds it onto a second header line' \
		'[ Upstream: merged in 4.20 via c2aa1a444cab ("Merge tag\n  '\''xfs-4.20-merge-2'\''"), seed 008 ]'
	series_patch "$D/0003-c.patch" '[PATCH AUTOSEL 9.5 3/4] c: three' 'commit 3333333333333333333333333333333333333333 upstream.'
	series_patch "$D/0004-d.patch" '[PATCH 9.5 4/4] d: four' '[ Seed 004 (A U Thor).  The code comes from\n  0d41e1d28c2e ("xfs: update ctime") ]'
	printf '%s\n' 0001-a.patch 0002-b.patch 0003-c.patch 0004-d.patch > "$D/series"
	r=$BATS_TEST_TMPDIR/r
	make_run "$r" fail pass
	sed -i 's/^BRANCH=6.1/BRANCH=9.5/' "$r/env"
	# a failure message with a word no line can hold
	long=/reports/9.5/$(printf 'x%.0s' $(seq 80))/console.log
	printf 'syscall\tc.xfs\tfail\tsee %s for the splat\n' "$long" >> "$r/patched/results.tsv"
	run "$R/harness/report/report" "$r"
	[ "$status" -eq 0 ]
	t=$r/review.txt
	cat "$t"
	jq -e '[.evidence.patches[] | [.k, .patch, .subject, .upstream, .upstream_via, .release, .seed, .status, .flips, .breaks, .reason]] == [
		[1, "0001-a.patch", "a: one", "1111111111111111111111111111111111111111", "commit", null, null, "not run", [], [], "prefix 1 has no results"],
		[2, "0002-b.patch", "b: a fix whose subject is long enough that git folds it onto a second header line", "c2aa1a444cab", "merge", "4.20", "008", "not run", [], [], "prefix 1 has no results"],
		[3, "0003-c.patch", "c: three", "3333333333333333333333333333333333333333", "commit", null, null, "not run", [], [], "prefix 2 has no results"],
		[4, "0004-d.patch", "d: four", null, null, null, "004", "not run", [], [], "prefix 3 has no results"]]' "$r/result.json"
	u=$(unfold "$t")
	grep -qxF '* 0001 a: one (upstream 111111111111): not run' <<< "$u"
	grep -qxF '* 0002 b: a fix whose subject is long enough that git folds it onto a second header line (upstream 4.20 merge c2aa1a444cab): not run' <<< "$u"
	grep -qxF '* 0003 c: three (upstream 333333333333): not run' <<< "$u"
	grep -qxF '* 0004 d: four (seed 004, no upstream commit of its own): not run' <<< "$u"
	[ "$(grep -c '^\* 000[1-4] ' "$t")" = 4 ]
	grep -qx 'Per-patch proof not run: only baseline and patched were booted.' "$t"
	grep -qx '## Verdict' "$t"
	grep -qxF '* syscall/c.xfs: see' "$t"
	grep -qxF "  $long" "$t"	# unbroken, on a line of its own
	# the width: only that line is over 72 columns
	[ -z "$(too_wide "$t")" ]
	[ "$(awk 'length > 72' "$t")" = "  $long" ]
	[ "$(tail -n 2 "$t")" = "$(printf '## Full report\nreports/9.5/test/summary.md (result.json and junit.xml beside it)')" ]
	# the check can fail
	printf '%s\n' "$(printf 'a %.0s' $(seq 40))" > "$r/wide.txt"
	[ -n "$(too_wide "$r/wide.txt")" ]
}

@test "report: a run dir holding only result.json renders summary.md, junit.xml and review.txt from it" {
	r=$BATS_TEST_TMPDIR/r
	make_run "$r" fail pass
	"$H/report/report" "$r"
	a=$BATS_TEST_TMPDIR/archived
	mkdir -p "$a" && cp "$r/result.json" "$a/"
	run make -C "$ROOT" -s report RUN="$a"
	[ "$status" -eq 0 ]
	[[ "$output" == *"has no logs (env, stages.tsv): rendering from its result.json"* ]]
	for f in result.json summary.md junit.xml review.txt; do cmp "$r/$f" "$a/$f"; done
	[ "$(ls "$a" | tr '\n' ' ')" = "junit.xml result.json review.txt summary.md " ]
	# nothing of this checkout is read: a branch it does not have renders too
	jq '.branch = "nosuch"' "$r/result.json" > "$a/result.json"
	cp "$a/result.json" "$BATS_TEST_TMPDIR/before.json"
	"$H/report/report" "$a"
	cmp "$a/result.json" "$BATS_TEST_TMPDIR/before.json"
	[ "$(head -n 1 "$a/summary.md")" = '# stablegate nosuch: SAFE' ]
	# a result.json from before evidence.patches: the patches by name, their upstream not claimed
	jq 'del(.evidence)' "$BATS_TEST_TMPDIR/before.json" > "$a/result.json"
	"$H/report/report" "$a"
	n=$(jq '.series.patches | length' "$a/result.json")
	[ "$n" -gt 0 ]
	[ "$(unfold "$a/review.txt" | grep -c '^\* 000[0-9] 000[0-9]-.*\.patch (its upstream commit is not in this result.json): not run$')" = "$n" ]
	# the per-patch proof and the bisection, in the schema harness/drivers/evidence fills
	jq '.evidence.patches = [
		{k: 1, patch: "0001-a.patch", subject: "a: one", upstream: "1111111111111111111111111111111111111111", upstream_via: "commit", release: "4.20",
		 status: "proven", flips: ["syscall/a.xfs", "syscall/b.xfs", "syscall/c.xfs"], breaks: [], reason: null},
		{k: 2, patch: "0002-b.patch", subject: "b: two", upstream: null, seed: "004",
		 status: "masked", flips: [], breaks: [], reason: "XFS converts post-EOF delalloc to unwritten extents"},
		{k: 3, patch: "0003-c.patch", subject: "c: three", upstream: "3333333333333333333333333333333333333333", upstream_via: "merge", release: "4.20",
		 status: "harmful", flips: [], breaks: ["syscall/d.xfs"], reason: null}]
		| .comparison.regressions = [{suite: "syscall", name: "d.xfs", status: "fail", reason: "returned EINVAL",
		   introduced_by: {k: 3, patch: "0003-c.patch", commands: ["SUITES=syscall harness/drivers/kernel reports/6.1/test prefix-2  # last good",
		                                                         "SUITES=syscall harness/drivers/kernel reports/6.1/test prefix-3  # first bad: + 0003-c.patch"]}}]' \
		"$BATS_TEST_TMPDIR/before.json" > "$a/result.json"
	"$H/report/report" "$a"
	t=$a/review.txt
	cat "$t"
	u=$(unfold "$t")
	grep -qxF '* 0001 a: one (upstream 4.20 111111111111): proven, flips 3 cases (syscall/a.xfs, syscall/b.xfs, syscall/c.xfs)' <<< "$u"
	grep -qxF '* 0002 b: two (seed 004, no upstream commit of its own): masked: XFS converts post-EOF delalloc to unwritten extents' <<< "$u"
	grep -qxF '* 0003 c: three (upstream 4.20 merge 333333333333): harmful, breaks 1: syscall/d.xfs' <<< "$u"
	# the bisection's commands, each on a line of its own that pastes, its comment before it
	grep -A 6 -xF '* syscall/d.xfs: returned EINVAL' "$t" | diff - <(printf '%s\n' '* syscall/d.xfs: returned EINVAL' \
		'  first fails with patch 0003 (0003-c.patch); to reproduce:' \
		'    # last good' '    SUITES=syscall harness/drivers/kernel reports/6.1/test prefix-2' \
		'    # first bad: + 0003-c.patch' '    SUITES=syscall harness/drivers/kernel reports/6.1/test prefix-3' '')
	! grep -q 'Per-patch proof not run' "$t" || false
	[ -z "$(too_wide "$t")" ]
	# neither logs nor result.json: not a run directory
	run "$H/report/report" "$BATS_TEST_TMPDIR/empty"
	[ "$status" -eq 2 ]
	[[ "$output" == *"is not a run directory (no env and stages.tsv, no result.json)"* ]]
}

@test "report: the reference (mainline) reads as one: no baseline, its failures mainline's own findings" {
	fake_repo 9.5 'tree=ksrc'	# a copy of the repo; its mainline/ is the real one
	r=$BATS_TEST_TMPDIR/r
	make_run "$r" pass fail
	sed -i 's/^BRANCH=6.1/BRANCH=mainline/; s/^SERIES_IN_TREE=yes/SERIES_IN_TREE=no/' "$r/env"
	rm "$r"/baseline/* && echo skipped > "$r/baseline/skipped"	# mainline has no series to take away
	run "$R/harness/report/report" "$r"
	[ "$status" -eq 0 ]
	jq -e '.reference and .findings_on_record.items[0].id == "M1" and .verdict == "UNSAFE"' "$r/result.json"
	s=$r/summary.md
	cat "$s"
	[ "$(head -n 1 "$s")" = '# stablegate mainline (the reference): UNSAFE' ]
	grep -qx '\*\*UNSAFE: mainline itself fails 1 case: its own findings.\*\*' "$s"
	grep -q "^Under STABLE-POLICY.md's reference rule — run" "$s"
	grep -qx '## No baseline: mainline is the reference' "$s"
	grep -qx "## Mainline's own findings (cases mainline fails)" "$s"
	grep -qx -- '- `syscall/a.xfs`: ' "$s"
	grep -q 'On record in `mainline/findings.md`: M1 XFS: ' "$s"
	grep -qx '| mainline | 1 | 1 | 0 | 0 | 3 s |' "$s"
	run grep -nE 'ompared to baseline|iffers from mainline|tree as given|\| baseline \||\(patched\)|^patched:' "$s"
	[ "$status" -eq 1 ]
	t=$r/review.txt
	cat "$t"
	grep -q '^Results from stablegate (QEMU tcg, x86_64) on mainline, the reference:' "$t"
	grep -qx "## Mainline's own findings (cases mainline fails)" "$t"
	grep -qx '\* M1 XFS: O_DIRECT read across EOF fails with EIO after buffered writes (7.3-rc7)' <<< "$(unfold "$t")"
	run grep -nE 'Test Regressions|Test Fixes|## Patches|iffers from mainline|^patched:' "$t"
	[ "$status" -eq 1 ]
	[ -z "$(too_wide "$t")" ]
	x=$r/junit.xml
	xmllint --noout --schema "$ROOT/harness/report/junit.xsd" "$x"
	[ "$(xmllint --xpath 'count(/testsuites/testsuite)' "$x")" = 1 ]
	p='/testsuites/testsuite[@name="stablegate.mainline.reference"]'
	[ "$(xmllint --xpath "string($p/testcase[@name='a.xfs']/failure/@type)" "$x")" = mainline-finding ]
	[ "$(xmllint --xpath "string($p/properties/property[@name='role']/@value)" "$x")" = reference ]
	# reference= is checked like every branch.conf key
	printf 'name=9.5\ntree=ksrc\nreference=maybe\n' > "$R/backports/9.5/branch.conf"
	run "$R/harness/drivers/validate" 9.5
	[ "$status" -eq 2 ]
	[[ "$output" == *"branch.conf:3: reference must be yes or no, not \"maybe\""* ]]
}

# deps_branch CONF-ROWS...: a fake branch 9.5 with a one-patch series and
# the given deps.tsv data rows (header added).
deps_branch() {
	fake_repo 9.5 'tree=ksrc
series_in_tree=no'
	D=$R/backports/9.5
	echo 0001-x.patch > "$D/series"
	printf -- '--- a/fs/a.c\n+++ b/fs/a.c\n@@ -1 +1,2 @@\n one\n+fixed_helper();\n' > "$D/0001-x.patch"
	printf 'commit\tsubject\tstatus\tpatch\tprobe\twhy\n' > "$D/deps.tsv"
	for row; do printf '%s\n' "$row" >> "$D/deps.tsv"; done
}

# deps_refused ROW WHY: deps --check of a branch whose deps.tsv has ROW
# exits 2 naming the file, line 2 and WHY
deps_refused() {
	local out rc=0
	deps_branch "$1"
	out=$("$R/harness/stages/deps" --check 9.5 2>&1) || rc=$?
	[ "$rc" -eq 2 ] || { echo "exit $rc: $out"; return 1; }
	[[ "$out" == *"deps: error: backports/9.5/deps.tsv:2: $2"* ]] || { echo "$out"; return 1; }
}

@test "deps --check: a malformed deps.tsv row is named by file and line, exit 2" {
	deps_refused "$(printf 'abc\tsubj\tcarried\t0002\tfs/a.c:x\twhy')" "patch 0002 is not in the series"
	deps_refused "$(printf 'abc\tsubj\tmaybe\t-\tfs/a.c:x\twhy')" \
		'status "maybe" is not present, carried, replaced or not-carried'
	deps_refused "$(printf 'abc\tsubj\tnot-carried\t0001\tfs/a.c:x\twhy')" "a not-carried row names no patch (-)"
	deps_refused "$(printf 'abc\tsubj\tcarried\t0001\t-\twhy')" "only a not-carried row may go unprobed (-)"
	deps_refused "$(printf 'abc\tsubj\tpresent\t-\tnocolon\twhy')" 'probe term "nocolon" is not [!][N*]FILE:REGEX'
	deps_refused "$(printf 'abc\tsubj\tpresent\t-')" "has 4 fields, needs 6"
	# an empty field would shift the rest under harness/stages/deps's tab IFS
	deps_refused "$(printf 'abc\t\tpresent\t-\tfs/a.c:x\twhy')" "field 2 is empty (- stands for none)"
	# validate refuses before making a run directory
	run "$R/harness/drivers/validate" 9.5
	[ "$status" -eq 2 ]
	[ ! -d "$R/reports/9.5" ]
}

@test "deps probes: present, carried, not-carried and missing, as the report states them" {
	deps_branch "$(printf 'p1\tin the tree\tpresent\t-\tfs/a.c:^one$\twhy')" \
		"$(printf 'c1\tthe fix\tcarried\t0001\tfs/a.c:fixed_helper\\(\\) ;; !fs/a.c:^broken\twhy')" \
		"$(printf 'm1\tnot there\treplaced\t0001-x.patch\tfs/b.c:never\twhy')" \
		"$(printf 'x1\twrong claim\tpresent\t-\tfs/a.c:fixed_helper\twhy')" \
		"$(printf 'k1\tone more line\tcarried\t0001\t2*fs/a.c:^(one|fixed_helper)\twhy')" \
		"$(printf 'n1\tleft out\tnot-carried\t-\tfs/a.c:later_rule\twhy')" \
		"$(printf 'n2\tsaid left out\tnot-carried\t-\tfs/a.c:fixed_helper\twhy')" \
		"$(printf 'n3\tno line to name\tnot-carried\t-\t-\twhy')"
	src=$BATS_TEST_TMPDIR/src
	mkdir -p "$src/fs" && echo one > "$src/fs/a.c"
	for v in baseline patched; do
		vs=$("$R/harness/stages/series" 9.5 $v "$src")
		mkdir -p "$BATS_TEST_TMPDIR/r/$v"
		run "$R/harness/stages/deps" 9.5 "$vs" "$BATS_TEST_TMPDIR/r/$v/deps.tsv"
		[ "$status" -eq 0 ]
	done
	[ "$(cut -f2 "$BATS_TEST_TMPDIR/r/baseline/deps.tsv" | tr '\n' ' ')" = "match nomatch nomatch nomatch nomatch nomatch nomatch unprobed " ]
	[ "$(cut -f2 "$BATS_TEST_TMPDIR/r/patched/deps.tsv" | tr '\n' ' ')" = "match match nomatch match match nomatch match unprobed " ]
	grep -q '^m1	nomatch	fs/b.c:never$' "$BATS_TEST_TMPDIR/r/patched/deps.tsv"
	# the report: statuses, the false claim flagged, missing makes UNSAFE
	make_run "$BATS_TEST_TMPDIR/r" fail pass
	sed -i 's/^BRANCH=6.1/BRANCH=9.5/' "$BATS_TEST_TMPDIR/r/env"
	run "$R/harness/report/report" "$BATS_TEST_TMPDIR/r"
	j=$BATS_TEST_TMPDIR/r/result.json
	[ "$(jq -r '[.dependencies[].status] | join(" ")' "$j")" = "present carried missing carried carried not-carried carried not probed" ]
	[ "$(jq -r '[.dependencies[].claim_holds] | join(" ")' "$j")" = "true true false false true true false true" ]
	[ "$(jq -r .verdict "$j")" = UNSAFE ]
	[ "$(jq -r '.comparison.missing_deps[0].commit' "$j")" = m1 ]
	grep -q '^\*\*Missing dependencies\*\* (UNSAFE): `m1` not there' "$BATS_TEST_TMPDIR/r/summary.md"
	grep -q '^Dependencies: 4 carried, 1 missing, 1 not probed, 1 not-carried, 1 present — missing: m1 (not there)' "$BATS_TEST_TMPDIR/r/summary.md"
	grep -q '| x1 | wrong claim | \*\*carried\*\* (deps.tsv says present) |' "$BATS_TEST_TMPDIR/r/summary.md"
	grep -q '| n2 | said left out | \*\*carried\*\* (deps.tsv says not-carried) |' "$BATS_TEST_TMPDIR/r/summary.md"
}

@test "matrix: runs side by side, the reference first, and per case where a branch differs from mainline" {
	fake_repo 9.5 'tree=ksrc'
	m=$BATS_TEST_TMPDIR/m
	make_run "$m/ref" pass pass
	sed -i 's/^BRANCH=6.1/BRANCH=mainline/' "$m/ref/env"
	rm "$m/ref/baseline"/* && echo skipped > "$m/ref/baseline/skipped"
	make_run "$m/b" pass fail
	sed -i 's/^BRANCH=6.1/BRANCH=9.5/' "$m/b/env"
	printf 'syscall\tb.xfs\tskip\tno reflink\n' > "$m/b/patched/results.tsv.new"
	printf 'syscall\ta.xfs\tfail\treturned EINVAL\n' >> "$m/b/patched/results.tsv.new"
	mv "$m/b/patched/results.tsv.new" "$m/b/patched/results.tsv"
	"$R/harness/report/report" "$m/ref" && "$R/harness/report/report" "$m/b"
	run "$R/harness/report/matrix" "$m/ref" "$m/b" --skip '9.6=no tree here'
	[ "$status" -eq 0 ]
	j=$R/reports/matrix.json md=$R/reports/matrix.md
	cat "$md"
	jq -e '.reference.branch == "mainline" and ([.branches[] | [.branch, .verdict, .regressions]] == [["mainline", "SAFE", 0], ["9.5", "UNSAFE", 1], ["9.6", null, null]])' "$j"
	jq -e '[.cases[] | [.case, .mainline.status, .branches["9.5"].status, .branches["9.5"].note]] == [["syscall/a.xfs", "pass", "fail", "regression"], ["syscall/b.xfs", "pass", "skip", null]]' "$j"
	grep -qx '| case | mainline | 9.5 |' "$md"
	grep -qx '| `syscall/a.xfs` | pass | \*\*FAIL\*\* (regression) |' "$md"
	grep -qx '| `syscall/b.xfs` | pass | skip |' "$md"
	grep -qx -- '- `syscall/a.xfs` on 9.5: returned EINVAL' "$md"
	grep -q '^| mainline (reference) | p 6.1.1-1, Linux 6.1.1 | \[`test`\](.*/summary.md) | none | 2 cases (syscall), seed 7 | \*\*SAFE\*\*: rule 3 | - | - | is the reference | 1 (`mainline/findings.md`) |$' "$md"
	grep -qx '| 9.6 | | | | | no tree here | | | | |' "$md"
	# a directory that is not a reported run
	run "$R/harness/report/matrix" "$m/b/patched"
	[ "$status" -eq 2 ] && [[ "$output" == *"no result.json"* ]]
}

# all_repo: a copy of the repo whose branches are fake ones only: mainline
# (the reference) and 9.4, 9.5, 9.6, all tree=ksrc with a one-patch series,
# and KSRC_DIR=$KD holding trees for mainline and 9.5 (two sublevels, the
# newer one broken) and a tarball for 9.4; none for 9.6.
all_repo() {
	fake_repo 9.5 'tree=ksrc'
	rm -r "$R"/backports/*
	for b in 9.4 9.5 9.6; do
		mkdir -p "$R/backports/$b"
		printf 'name=%s\ntree=ksrc\nseries_in_tree=no\n' "$b" > "$R/backports/$b/branch.conf"
		printf -- '--- a/b.c\n+++ b/b.c\n@@ -1 +1 @@\n-b1\n+b2\n' > "$R/backports/$b/0001-x.patch"
		echo 0001-x.patch > "$R/backports/$b/series"
	done
	printf 'name=mainline\ntree=ksrc\nreference=yes\n' > "$R/mainline/branch.conf"
	KD=$BATS_TEST_TMPDIR/trees
	mkdir -p "$KD"
	fake_tree "$KD/linux-mainline" a1 b1
	fake_tree "$BATS_TEST_TMPDIR/linux-9.4.48" a1 b1
	tar -czf "$KD/linux-9.4.48.tar.gz" -C "$BATS_TEST_TMPDIR" linux-9.4.48
	fake_tree "$KD/linux-9.5.3" a1 b1
	fake_tree "$KD/linux-9.5.10" a1 b1
	echo '#error broken' > "$KD/linux-9.5.10/a.c"
	echo x > "$KD/linux-9.50.1.tar.gz"	# another branch's
}

@test "validate-all: every branch with a tree, the ksrc ones from KSRC_DIR, the others named as skipped; failures do not stop it; the matrix" {
	all_repo
	# an earlier 9.5 run's stage times: 10 minutes
	mkdir -p "$R/reports/9.5/20200101T000000Z"
	printf 'stage\tvariant\tseconds\tstatus\ntree\t-\t100\tok\nbuild\tpatched\t500\tok\n' > "$R/reports/9.5/20200101T000000Z/stages.tsv"
	echo '{}' > "$R/reports/9.5/20200101T000000Z/result.json"
	# one that stopped after the build, with no report (RUNNER=lava-jobs), is no whole run
	mkdir -p "$R/reports/9.5/20200102T000000Z"
	printf 'stage\tvariant\tseconds\tstatus\ntree\t-\t1\tok\nbuild\tpatched\t2\tok\n' > "$R/reports/9.5/20200102T000000Z/stages.tsv"
	KSRC_DIR=$KD SUITES=smoke ACCEL=tcg SG_PROGRESS_SECS=1 run make -C "$R" -s validate-all
	echo "$output"
	[ "$status" -ne 0 ]	# no fake kernel boots: no branch reached a verdict
	[[ "$output" == *"validate-all: 9.6: skipped: tree=ksrc and KSRC_DIR=$KD holds no linux-9.6.* tree or tarball"* ]]
	[[ "$output" == *"3 branches to validate, ~50m00s in all"* ]]
	# the reference first; the newest sublevel (9.5.10, not 9.5.3); the estimates
	grep -q "^stablegate: validate-all: \[1/3\] mainline: ~20m00s (SG_ESTIMATE_SECS, no earlier run with stage times), KSRC=$KD/linux-mainline;" <<< "$output"
	grep -q "^stablegate: validate-all: \[2/3\] 9.4: ~20m00s (SG_ESTIMATE_SECS, .*), KSRC=$KD/linux-9.4.48.tar.gz;" <<< "$output"
	grep -q "^stablegate: validate-all: \[3/3\] 9.5: ~10m00s (median of 1 earlier run), KSRC=$KD/linux-9.5.10;" <<< "$output"
	# progress: the branch, its stage, the time, what is left
	grep -qE '^stablegate: validate-all: \[2/3\] 9.4: (build|boot|scan) \((baseline|patched)\): [0-9]+s of ~20m00s; all: [0-9]+s, ~(29|30)m[0-9]{2}s left$' <<< "$output"
	# each branch ran to its end and says why it is INCONCLUSIVE; 9.5 (broken) after 9.4
	grep -q '^stablegate: validate-all: \[1/3\] mainline: INCONCLUSIVE after [0-9]*s (reports/mainline/[0-9TZ]*): boot patched: qemu-error' <<< "$output"
	grep -q '^stablegate: validate-all: \[3/3\] 9.5: INCONCLUSIVE after [0-9]*s (reports/9.5/[0-9TZ]*): build baseline: build error: a.c:1:2: error: #error broken' <<< "$output"
	[[ "$output" == *"done in "*": 0 of 3 branches reached a verdict; reports/matrix.md"* ]]
	for b in mainline 9.4 9.5; do
		l=$(ls "$R/reports/all/"*/"$b.log")
		grep -q "^stablegate: validate: verdict: INCONCLUSIVE" "$l"
	done
	j=$R/reports/matrix.json
	jq -e '[.branches[] | [.branch, .verdict, (.run_id != null)]] == [["mainline", "INCONCLUSIVE", true], ["9.4", "INCONCLUSIVE", true], ["9.5", "INCONCLUSIVE", true], ["9.6", null, false]]' "$j"
	jq -e --arg kd "$KD" '.reference.branch == "mainline" and (.branches[3].why == "skipped: tree=ksrc and KSRC_DIR=\($kd) holds no linux-9.6.* tree or tarball")' "$j"
	grep -q '^| 9.6 | | | | | skipped: tree=ksrc' "$R/reports/matrix.md"
	grep -q '^| 9.5 | KSRC, Linux 4.19.48 | .* | \*\*INCONCLUSIVE\*\*: rule 1: build baseline: failed(1);' "$R/reports/matrix.md"
	# nothing it started is left
	run pgrep -f "$R/harness/"
	[ "$status" -eq 1 ]
	# one branch's tree, one branch's series: refused
	KSRC=$KD/linux-9.5.3 run "$R/harness/drivers/validate-all" all
	[ "$status" -eq 2 ] && [[ "$output" == *"KSRC= is one branch's tree; give validate-all KSRC_DIR="* ]]
	SERIES=$R/backports/9.4 run "$R/harness/drivers/validate-all" 9.4
	[ "$status" -eq 2 ] && [[ "$output" == *"SERIES= is one branch's"* ]]
	run "$R/harness/drivers/validate-all" 9.4 nosuch
	[ "$status" -eq 2 ] && [[ "$output" == *"unknown branch 'nosuch'"* ]]
	# no KSRC_DIR: no branch has a tree; all listed as skipped, exit 3
	run "$R/harness/drivers/validate-all" all
	[ "$status" -eq 3 ]
	[[ "$output" == *"mainline: skipped: tree=ksrc and KSRC_DIR is not set"* ]]
	[ "$(jq -r '[.branches[].why] | unique | join(",")' "$j")" = "skipped: tree=ksrc and KSRC_DIR is not set" ]
}

@test "validate-all exits 0 when every branch reached a verdict; the matrix shows, per case, where a branch differs from mainline" {
	all_repo
	# validate replaced by a run with chosen results (what it would leave
	# after booting), reported by the real harness/report/report: a.xfs as
	# baseline:patched per branch; mainline fails c.xfs (its own finding)
	mkdir -p "$R/stub"
	echo 'pass:pass' > "$R/stub/mainline"
	echo 'fail:pass' > "$R/stub/9.4"
	echo 'pass:fail' > "$R/stub/9.5"
	cat > "$R/harness/drivers/validate" <<'STUB'
#!/bin/sh
# harness/drivers/validate BRANCH: (test stub) a run with the results in stub/BRANCH
set -eu
R=$(cd "$(dirname "$0")/../.." && pwd)
[ $# = 1 ] || { echo "stablegate: validate: error: missing BRANCH" >&2; echo "harness/drivers/validate BRANCH" >&2; exit 2; }
id=$(date -u +%Y%m%dT%H%M%SZ)$$ d=$R/reports/$1/$id
mkdir -p "$d/baseline" "$d/patched"
printf '%s\n' BRANCH=$1 RUN_ID=$id SEED=7 SOAK_OPS=10 SUITES=syscall SERIES_HASH=abc SERIES_IN_TREE=no \
	TREE_SOURCE=KSRC KERNEL_VERSION=4.19.48 STARTED=now > "$d/env"
printf 'stage\tvariant\tseconds\tstatus\ntree\t-\t1\tok\nbuild\tpatched\t2\tok\n' > "$d/stages.tsv"
IFS=: read -r baseline patched < "$R/stub/$1"
for v in baseline patched; do
	printf '%s\n' ACCEL=tcg BOOT_SECONDS=3 BOOT_STATUS=ok > "$d/$v/boot.env"
	: > "$d/$v/failures.tsv"
	eval "st=\$$v"
	printf 'syscall\ta.xfs\t%s\t%s\nsyscall\tb.xfs\tpass\t\n' "$st" "$([ "$st" = fail ] && echo "returned EINVAL")" > "$d/$v/results.tsv"
	[ "$1" != mainline ] || printf 'syscall\tc.xfs\tfail\tEIO on mainline\n' >> "$d/$v/results.tsv"
done
[ "$1" != mainline ] || { rm -r "$d/baseline"/*; echo skipped > "$d/baseline/skipped"; }
ln -sfn "$id" "$R/reports/$1/latest"
echo "stablegate: validate: branch $1, run $id, seed 7, logs in $d" >&2
"$R/harness/report/report" "$d"
[ "$(jq -r .verdict "$d/result.json")" != INCONCLUSIVE ]
STUB
	KSRC_DIR=$KD run "$R/harness/drivers/validate-all" mainline 9.4 9.5
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"[1/3] mainline: UNSAFE after"* ]] && [[ "$output" == *"[2/3] 9.4: SAFE after"* ]] && [[ "$output" == *"[3/3] 9.5: UNSAFE after"* ]]
	[[ "$output" == *"done in "*": 3 of 3 branches reached a verdict"* ]]
	j=$R/reports/matrix.json m=$R/reports/matrix.md
	cat "$m"
	jq -e '[.branches[] | [.branch, .verdict, .fixes, .regressions, .differs]] == [["mainline", "UNSAFE", 0, 0, 1], ["9.4", "SAFE", 1, 0, 0], ["9.5", "UNSAFE", 0, 1, 1]]' "$j"
	jq -e '[.cases[] | [.case, .mainline.status, .branches["9.4"].status, .branches["9.5"].status, .branches["9.5"].note]]
		== [["syscall/a.xfs", "pass", "pass", "fail", "regression"], ["syscall/c.xfs", "fail", null, null, null]]' "$j"
	grep -qx '| `syscall/a.xfs` | pass | pass | \*\*FAIL\*\* (regression) |' "$m"
	grep -qx '| `syscall/c.xfs` | \*\*FAIL\*\* (mainline.s own finding) | not run | not run |' "$m"
	grep -qx -- '- `syscall/a.xfs` on 9.5: returned EINVAL' "$m"
	grep -qx -- '- `syscall/c.xfs` on mainline: EIO on mainline' "$m"
	grep -q '^| mainline (reference) | .* | none | 3 cases (syscall), seed 7 | \*\*UNSAFE\*\*: rule 2: fails 1 case (its own findings) | - | - | is the reference; fails 1 (its own findings) | 1 ' "$m"
	grep -q '^| 9.5 | .* | own, 1 patch | 2 cases (syscall), seed 7 | \*\*UNSAFE\*\*: rule 2: 1 regression, 1 failing case not in divergences.tsv | 0 | 1 | 1 | 0 |$' "$m"
	# make matrix renders the same from every branch's latest run (9.6 has none)
	cp "$j" "$BATS_TEST_TMPDIR/matrix.json"
	make -C "$R" -s matrix
	diff <(jq 'del(.generated) | .branches |= map(select(.branch != "9.6"))' "$BATS_TEST_TMPDIR/matrix.json") <(jq 'del(.generated) | .branches |= map(select(.branch != "9.6"))' "$j")
	jq -e '.branches[3] == {branch: "9.6", run_id: null, why: "no run yet (make branch=9.6 validate)"}' "$j"
	# the next validate-all's estimates come from these runs' stage times
	KSRC_DIR=$KD run "$R/harness/drivers/validate-all" 9.4
	echo "$output"
	[[ "$output" == *"[1/1] 9.4: ~3s (median of 1 earlier run)"* ]]
}

@test "make branches lists every branch directory" {
	run make -C "$ROOT" -s branches
	[ "$status" -eq 0 ]
	want=$(cd "$ROOT" && for c in backports/*/branch.conf mainline/branch.conf; do
		basename "$(dirname "$c")"; done | sort | tr '\n' ' ')
	case "$want" in *"4.19 "*"6.1 "*mainline*) ;; *) false ;; esac
	[ "$(echo "$output" | sort | tr '\n' ' ')" = "$want" ]
}

@test "isolation: no host-side script mounts, loop-attaches or loads anything" {
	# the stages, their library and the Makefile run on the host; only
	# harness/guest/init and the suites (inside QEMU) may mount
	cd "$ROOT"
	run grep -nwE 'mount|umount|losetup|kpartx|qemu-nbd|insmod|modprobe|rmmod' \
		harness/stages/tree harness/stages/series harness/stages/deps harness/stages/config harness/stages/build harness/stages/image \
		harness/stages/boot harness/stages/scan harness/report/report harness/drivers/validate harness/drivers/prefixes harness/drivers/kernel \
		harness/drivers/evidence harness/drivers/bisect harness/drivers/validate-all harness/report/matrix harness/drivers/minimise harness/report/kcidb \
		harness/lava/lava-jobs harness/lava/lava-run harness/drivers/bench harness/lib/*.sh \
		harness/stages/kbuild-cc harness/stages/upstream harness/stages/xbuild Makefile .ci/run
	echo "$output"
	[ "$status" -eq 1 ]
	# every stage is listed above
	for s in harness/stages/* harness/drivers/* harness/report/* harness/lava/*; do
		[ ! -x "$s" ] || grep -q "$s" "$BATS_TEST_FILENAME"
	done
}

@test "suites: every C suite builds through common.mk (CFLAGS=-g adds to the warnings and -static), the others are sh scripts" {
	n=0
	for m in "$H"/suites/*/Makefile; do
		if ! grep -qx 'include ../common.mk' "$m"; then
			d=$(dirname "$m")
			make -s -B -C "$d"
			[ "$(head -n 1 "$d/sg-$(basename "$d")")" = '#!/bin/sh' ]
			continue
		fi
		n=$((n + 1))
		for how in env arg; do
			if [ $how = env ]; then out=$(CFLAGS=-g LDFLAGS=-s make -s -n -B -C "$(dirname "$m")")
			else out=$(make -s -n -B -C "$(dirname "$m")" CFLAGS=-g LDFLAGS=-s); fi
			echo "$m ($how): $out"
			for f in -O2 -Wall -Wextra -Werror -static -g -s; do [[ " $out " == *" $f "* ]]; done
		done
	done
	[ "$n" -ge 3 ]
}

@test "suites lib: KTAP totals, and a run that printed fewer results than its plan fails" {
	cat > "$BATS_TEST_TMPDIR/t.c" <<'C'
#include "sg.h"
#include <stdlib.h>
int main(int argc, char **argv)
{
	(void)argc;
	sg_ktap_header();
	sg_ktap_plan(3);
	sg_ktap_result(0, "a", NULL);
	sg_ktap_result(-1, "b", "%s", "no reflink");
	if (atoi(argv[1]) > 2)
		sg_ktap_result(1, "c", "returned %d", -1);
	return sg_ktap_finish();
}
C
	gcc -Wall -Wextra -Werror -I"$H/suites/lib" -o "$BATS_TEST_TMPDIR/t" "$BATS_TEST_TMPDIR/t.c" "$H/suites/lib/sg.c"
	run "$BATS_TEST_TMPDIR/t" 3
	[ "$status" -eq 1 ]
	[ "$output" = "$(printf '%s\n' 'KTAP version 1' 1..3 'ok 1 a' 'ok 2 b # SKIP no reflink' \
		'not ok 3 c # returned -1' '# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:1 error:0')" ]
	run "$BATS_TEST_TMPDIR/t" 2
	[ "$status" -eq 1 ]
	[[ "$output" == *"# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:1 error:0"* ]]
	[[ "$output" == *"# Planned tests != run tests (3 != 2)"* ]]
}

@test "report: each patch is proven, masked (with NOTES.md's reason) or harmful, from the prefixes booted" {
	r=$BATS_TEST_TMPDIR/r
	make_run "$r" fail pass	# 6.1's series: 9 patches; a.xfs fixed, b.xfs passes on both
	# the prefixes: 0003 fixes a.xfs; 0005 breaks b.xfs and 0006 repairs it;
	# prefix-7 was not booted
	for k in 1 2 3 4 5 6 8; do
		mkdir -p "$r/prefix-$k"
		cp "$r/baseline/boot.env" "$r/baseline/failures.tsv" "$r/prefix-$k/"
		a=fail b=pass
		[ $k -lt 3 ] || a=pass
		[ $k != 5 ] || b=fail
		printf 'syscall\ta.xfs\t%s\t\nsyscall\tb.xfs\t%s\t\n' $a $b > "$r/prefix-$k/results.tsv"
	done
	printf 'warn\tWARNING: at x.c:1 | RIP: f\n' > "$r/prefix-8/failures.tsv"
	run "$H/report/report" "$r"
	[ "$status" -eq 0 ]
	j=$r/result.json
	jq -r '.evidence.patches[] | "\(.k) \(.status) \(.flips) \(.breaks)"' "$j"
	[ "$(jq -r '[.evidence.patches[].status] | join(" ")' "$j")" = \
		"masked masked proven masked harmful proven not run not run masked" ]
	jq -e '.evidence.patches[2].flips == ["syscall/a.xfs"] and .evidence.patches[4].breaks == ["syscall/b.xfs"]
		and .evidence.patches[5].flips == ["syscall/b.xfs"]' "$j"
	# 0009 is judged on prefix-8, whose WARN it does not bring; 0008 would be
	[ "$(jq -r '.evidence.patches[6].reason' "$j")" = "prefix 7 has no results" ]
	# 0001's reason is the "Flips: **none, masked**" paragraph of 6.1's NOTES.md
	jq -e '.evidence.patches[0].reason | test("^on 6.1 ")' "$j"
	jq -e '.evidence.patches[1].reason == "no case flips, and NOTES.md gives no reason"' "$j"
	[ "$(jq -r .verdict "$j")" = SAFE ]	# the verdict rests on baseline and patched
	[ "$(jq '.evidence.steps | length' "$j")" = 9 ]
	grep -qE '^\| 5 \| vfs: vfs_dedupe_file_range\(\) doesn.t return EOPNOTSUPP \| [^|]+ \| \*\*harmful\*\* \| 0 \| `syscall/b.xfs` \|' "$r/summary.md"
	# a prefix with a kernel failure its predecessor lacks makes the patch harmful
	printf 'warn\tWARNING: at x.c:1 | RIP: f\n' > "$r/prefix-6/failures.tsv"
	"$H/report/report" "$r"
	jq -e '.evidence.patches[5].status == "harmful" and .evidence.patches[5].breaks == ["warn: WARNING: at x.c:1 | RIP: f"]' "$j"
}

@test "minimise: bad arguments are usage errors, exit 2" {
	bats_require_minimum_version 1.5.0
	echo 'op=1 write f=0 off=0x0 len=0x1 sf=0 soff=0x0 arg=0x1 res=1 size=0x1' > "$BATS_TEST_TMPDIR/log"
	for c in "log ext3:FS must be a profile of harness/lib/profiles.tsv" "log xfs:needs --kernel BZIMAGE or --branch B" \
		"--kernel /nonexistent log xfs:no such kernel" "--bogus x log xfs:unknown option" \
		"nosuch xfs:no such run directory or op log"; do
		# shellcheck disable=SC2086 # (the words of the case)
		(cd "$BATS_TEST_TMPDIR" && run --separate-stderr "$H/drivers/minimise" ${c%%:*}
		 echo "$c: exit $status: $stderr"
		 [ "$status" -eq 2 ] && [[ "$stderr" == *"${c#*:}"* ]])
	done
	MINIMISE_SECS=0 run "$H/drivers/minimise" --kernel "$BATS_TEST_TMPDIR/log" "$BATS_TEST_TMPDIR/log" xfs
	[ "$status" -eq 2 ] && [[ "$output" == *"MINIMISE_SECS=0"* ]]
	make_run "$BATS_TEST_TMPDIR/r" pass pass
	run "$H/drivers/minimise" "$BATS_TEST_TMPDIR/r" xfs
	[ "$status" -eq 2 ] && [[ "$output" == *"no variant has an oplog-xfs.txt"* ]]
}

# A copy of the harness whose boot is a stand-in: it keeps what it was given
# (kernel, command line, the initramfs's /replay.log) in LOGDIR and answers
# with a guest's results: for sg.minimise= the real guest output in
# fixtures/ktap-minimise.log, else a replay that fails on a "kernel" whose
# content is 6.1.192 and passes on any other. The image stage runs for real.
fake_boot() {
	fake_repo 6.1x 'tree=ksrc'
	cat > "$R/harness/stages/boot" <<'BOOT'
#!/bin/sh
# harness/stages/boot KERNEL INITRAMFS DISKDIR LOGDIR [APPEND...]: a stand-in (harness.bats)
set -eu
k=$1 i=$2 l=$4; shift 4
mkdir -p "$l"
printf '%s\n' "$k" "$@" > "$l/boot.args"
(cd "$l" && cpio -i --quiet replay.log < "$i")
v=$(cat "$k")
printf '[    0.000000] Linux version %s (stablegate@stablegate) #1 SMP\n' "$v" > "$l/console.log"
case " $* " in
*" sg.minimise="*) cp "$FIX/ktap-minimise.log" "$l/ktap.log" ;;
*) if [ "$v" = 6.1.192 ]; then r='not ok 1 soak.xfs # mismatch at op 6 (collapse) off 0'; else r='ok 1 soak.xfs'; fi
   printf 'KTAP version 1\n1..1\n    KTAP version 1\n    1..1\n    %s\nnot ok 1 soak # exit 1\nstablegate-guest: done\n' "$r" > "$l/ktap.log" ;;
esac
printf 'BOOT_STATUS=ok\nBOOT_SECONDS=3\nBOOT_TIMEOUT_SEEN=%s\n' "$BOOT_TIMEOUT" > "$l/boot.env"
BOOT
	export FIX
}

@test "minimise: a run's failing variant, on its kernel from the cache, into the variant's dir; --check-on replays the record elsewhere" {
	fake_boot
	r=$BATS_TEST_TMPDIR/run
	make_run "$r" pass fail
	cp "$ROOT/backports/6.1/findings/xfs-collapse-seed20181203.oplog" "$r/patched/oplog-xfs.txt"
	b=$STABLEGATE_CACHE/build/6.1-patched/arch/x86/boot
	mkdir -p "$b" && echo 6.1.192 > "$b/bzImage"
	echo 7.3.0-rc7 > "$BATS_TEST_TMPDIR/mainline"
	MINIMISE_SECS=120 run "$R/harness/drivers/minimise" --check-on "$BATS_TEST_TMPDIR/mainline" "$r" xfs
	echo "$output"
	[ "$status" -eq 0 ]
	V=$r/patched L=$r/patched/minimise-xfs
	# booted: that variant's kernel, its op log, sg.minimise=the bound, a VM limit that allows it
	[ "$(head -n 1 "$L/boot.args")" != "$b/bzImage" ]	# a copy of it
	grep -qx 'sg.minimise=120' "$L/boot.args" && grep -qx 'sg.replay_fs=xfs' "$L/boot.args"
	cmp "$L/replay.log" "$V/oplog-xfs.txt"
	[ "$(sed -n 's/^BOOT_TIMEOUT_SEEN=//p' "$L/boot.env")" -ge $((900 + 120 + 706 * 3 / 10)) ]
	# the record: the guest's '# minimised: ' lines
	diff <(sed -n 's/^ *# minimised: //p' "$FIX/ktap-minimise.log") "$V/minimised-xfs.record"
	[ "$(grep -c '^op=' "$V/minimised-xfs.record")" -eq 6 ]
	e=$V/minimise-xfs.env
	for kv in STATUS=ok OPS_LOGGED=100 OPS_EXPANDED=706 OPS_BEFORE=706 OPS_SUBSET=11 OPS_AFTER=6 TRIES=572 \
		SECONDS=46.4 STOPPED_EARLY=0 ONE_MINIMAL=1 RERUNS=3/3 CLASS=mismatch/collapse BOUND=120 \
		RECORD=minimised-xfs.record KERNEL_VERSION=6.1.192 "KERNEL=$b/bzImage" \
		CHECK1_VERSION=7.3.0-rc7 CHECK1_RESULT=pass "CHECK1_KERNEL=$BATS_TEST_TMPDIR/mainline"; do
		grep -qx "$kv" "$e" || { echo "not in $e: $kv"; cat "$e"; false; }
	done
	# the check booted the minimised record, and a kernel that fails it says so
	cmp "$r/patched/minimise-xfs-check1/replay.log" "$V/minimised-xfs.record"
	MINIMISE_SECS=120 run "$R/harness/drivers/minimise" --check-on "$b/bzImage" "$r/patched" xfs
	[ "$status" -eq 0 ]
	grep -qx 'CHECK1_RESULT=fail' "$e" && grep -qx 'CHECK1_DETAIL=mismatch at op 6 (collapse) off 0' "$e"
	grep -q 'the record on 6.1.192 .*: fail: mismatch at op 6 (collapse) off 0' <<<"$output"
	! ls -d "$STABLEGATE_CACHE"/images/minimise-* 2>/dev/null || false	# its images are gone
}

@test "report: minimised soak logs are in result.json (per variant and fs), summary.md and review.txt" {
	r=$BATS_TEST_TMPDIR/r
	make_run "$r" pass pass
	printf '%s\n' FS=xfs STATUS=ok OPS_BEFORE=706 OPS_SUBSET=11 OPS_AFTER=6 TRIES=572 SECONDS=46.4 STOPPED_EARLY=0 \
		ONE_MINIMAL=1 RERUNS=3/3 CLASS=mismatch/collapse BOUND=300 RECORD=minimised-xfs.record KERNEL_VERSION=6.1.192 \
		> "$r/patched/minimise-xfs.env"
	printf '%s\n' FS=ext4 STATUS=ok OPS_BEFORE=20000 OPS_AFTER=130 TRIES=40 SECONDS=301.5 STOPPED_EARLY=1 \
		ONE_MINIMAL=0 RERUNS=3/3 CLASS=error/dread/5 BOUND=300 RECORD=minimised-ext4.record > "$r/baseline/minimise-ext4.env"
	run "$H/report/report" "$r"
	[ "$status" -eq 0 ]
	j=$r/result.json
	[ "$(jq -c '.minimised | map({variant, fs, ops, ops_before, tries, seconds, stopped_early, record})' "$j")" = \
		'[{"variant":"baseline","fs":"ext4","ops":130,"ops_before":20000,"tries":40,"seconds":301.5,"stopped_early":true,"record":"baseline/minimised-ext4.record"},{"variant":"patched","fs":"xfs","ops":6,"ops_before":706,"tries":572,"seconds":46.4,"stopped_early":false,"record":"patched/minimised-xfs.record"}]' ]
	s=$r/summary.md
	sed -n '/^## Soak/,/^## Stage/p' "$s" | grep -qF -- '- patched xfs soak log: 706 → 6 ops in 572 tries, 46.4 s, 1-minimal: `patched/minimised-xfs.record` (class mismatch/collapse)'
	sed -n '/^## Soak/,/^## Stage/p' "$s" | grep -qF 'baseline ext4 soak log: 20000 → 130 ops in 40 tries, 301.5 s, stopped early at the 300 s bound'
	sed -n '/^## Evidence/,$p' "$s" | grep -qF 'Minimised: patched xfs soak log: 706 → 6 ops in 572 tries, 46.4 s, 1-minimal, reports/6.1/test/patched/minimised-xfs.record'
	# and in review.txt, within its 72 columns
	grep -qxF '* patched xfs: 706 -> 6 ops (1-minimal),' "$r/review.txt"
	grep -qxF '  reports/6.1/test/patched/minimised-xfs.record' "$r/review.txt"
	grep -qxF '* baseline ext4: 20000 -> 130 ops (stopped early at 300 s),' "$r/review.txt"
	! grep -q '.\{73\}' "$r/review.txt" || false
	# a reused baseline's logs were minimised, and their kernel booted, in the run it came from
	echo KERNEL_SHA256=abc >> "$r/baseline/minimise-ext4.env"
	echo REUSED_FROM=6.1/r0 >> "$r/baseline/boot.env"
	"$H/report/report" "$r" > /dev/null
	jq -e '.kernels[] | select(.variant == "baseline (minimiser, ext4)") | .reused_from == "6.1/r0"' "$j"
	# a run with none says nothing about it
	rm "$r"/*/minimise-*.env
	run "$H/report/report" "$r"
	[ "$(jq '.minimised | length' "$j")" -eq 0 ]
	! grep -q -i minimised "$s" "$r/review.txt" || false
}

@test "bench: fsx absent is said, and the soak runs alone; bad FSX or BENCH_OPS are usage errors; no kernel is named" {
	bats_require_minimum_version 1.5.0
	run --separate-stderr env FSX= FSX_SRC="$BATS_TEST_TMPDIR/nofsx" "$H/drivers/bench" 6.1
	echo "$stderr"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"bench: fsx absent (no FSX=, no fsx.c in FSX_SRC=$BATS_TEST_TMPDIR/nofsx): the soak runs alone"* ]]
	[[ "$stderr" == *"error: no kernel at $STABLEGATE_CACHE/build/6.1-patched/arch/x86/boot/bzImage"* ]]
	run --separate-stderr env FSX="$BATS_TEST_TMPDIR/nosuch" "$H/drivers/bench" 6.1
	[ "$status" -eq 2 ] && [[ "$stderr" == *"FSX=$BATS_TEST_TMPDIR/nosuch: takes an existing file or directory"* ]]
	echo '#!/bin/sh' > "$BATS_TEST_TMPDIR/script"
	run --separate-stderr env FSX="$BATS_TEST_TMPDIR/script" "$H/drivers/bench" 6.1
	[ "$status" -eq 2 ] && [[ "$stderr" == *"not a static binary"* ]]
	run --separate-stderr env BENCH_OPS=lots "$H/drivers/bench" 6.1
	[ "$status" -eq 2 ] && [[ "$stderr" == *"BENCH_OPS=lots: takes a whole number > 0"* ]]
	run --separate-stderr env BENCH_ROUNDS=0 "$H/drivers/bench" 6.1
	[ "$status" -eq 2 ] && [[ "$stderr" == *"BENCH_ROUNDS=0: takes a whole number > 0"* ]]
	run --separate-stderr env BENCH_SOAK_REF="$BATS_TEST_TMPDIR/script" "$H/drivers/bench" 6.1
	[ "$status" -eq 2 ] && [[ "$stderr" == *"BENCH_SOAK_REF=$BATS_TEST_TMPDIR/script: not a static binary"* ]]
	run --separate-stderr "$H/drivers/bench" nosuch
	[ "$status" -eq 2 ] && [[ "$stderr" == *"unknown branch 'nosuch'"* ]]
	# make's spelling
	run make -C "$ROOT" -s bench-soak GUEST=1 branch=6.1 FSX_SRC="$BATS_TEST_TMPDIR/nofsx"
	[ "$status" -ne 0 ] && [[ "$output" == *"fsx absent"* ]] && [[ "$output" == *"no kernel at"* ]]
}

# the guest's lines (indented, as init passes a suite's output on)
bench_line() {
	printf '    # bench start fs=%s tool=%s check=%s round=%s\n' "$1" "$2" "$3" "$4"
	printf '    # bench fs=%s tool=%s check=%s round=%s ops=20000 done=%s secs=%s status=%s\n' "$@"
}
# a row of the table, blanks squeezed: row TABLE FS CHECKING TOOL
row() { grep "^$2 *$3 *$4 " <<<"$1" | tr -s ' '; }

@test "bench table of the ops that ran: fsx's skipped ops (its counting run) and the soak's no-ops left out of both rates" {
	k=$BATS_TEST_TMPDIR/ktap.log c=$BATS_TEST_TMPDIR/qemu-cpu.tsv
	{ bench_line ext4 fsx fsx 1 20000 20.00 0
	  bench_line ext4 soak fsx 1 20000 10.00 0
	  echo '    # soak-stats name=ext4 ops=20000 secs=9.90 ops_per_sec=2020 read=9000 write=10000 clone=0'
	  echo '    # bench fsx-ran fs=ext4 ops=20000 logged=20000 skipped=5000'; } > "$k"
	printf '1\t0\n2\t2000\n3\t2000\n4\t2500\n' > "$c"
	run awk -v tck=100 -f "$H/drivers/bench.awk" "$c" "$k"
	echo "$output"
	[ "$status" -eq 0 ]
	# fsx: 15000 of 20000 ran, in 20 s (20 cpu-s); the soak: 19000 in 10 s (5 cpu-s)
	[ "$(row "$(sed -n '/^ops that ran/,$p' <<<"$output")" ext4 fsx soak)" = "ext4 fsx soak 19000 1900 3800 | 5000 of 20000 15000 750 750 | 2.53 5.07" ]
	# no counting run: no such table
	sed -i '/fsx-ran/d' "$k"
	run awk -v tck=100 -f "$H/drivers/bench.awk" "$c" "$k"
	! grep -q '^ops that ran' <<<"$output" || false
}

@test "bench table: per fs, checking level and tool, ops/s over the rounds and per QEMU CPU second, the ratios to fsx; a failed run; fsx absent says so" {
	k=$BATS_TEST_TMPDIR/ktap.log c=$BATS_TEST_TMPDIR/qemu-cpu.tsv
	{ bench_line xfs fsx fsx 1 20000 10.00 0; bench_line xfs soak default 1 20000 40.00 0
	  echo '    # soak-rates name=xfs read=13000 mapwrite=354'
	  echo '    # soak-time name=xfs secs=39.50 in_ops=30.00 verifying=8.00 (summed over workers)'
	  bench_line xfs soak fsx 1 20000 20.00 0
	  bench_line xfs soak fsx 2 20000 20.00 0
	  bench_line xfs soak default 2 20000 40.00 0
	  echo '    # soak-rates name=xfs read=11000 mapwrite=300'
	  echo '    # soak-time name=xfs secs=39.50 in_ops=29.00 verifying=9.00 (summed over workers)'
	  bench_line xfs fsx fsx 2 20000 30.00 0
	  bench_line ext4 fsx fsx 1 20000 20.00 0
	  bench_line ext4 soak default 1 5000 25.00 1
	  bench_line ext4 soak fsx 1 20000 10.00 0
	  echo '    # soak-rates name=ext4 read=9000 mapwrite=700'; } > "$k"
	# QEMU's CPU ticks (1/100 s) at the 18 start and end lines: xfs's fsx
	# runs 20 and 40 s, the soak's 40 s each, ext4's fsx 10 s, its soak 5 s
	t=0 mk=0
	for d in 0 2000 0 4000 0 4000 0 4000 0 4000 0 4000 0 1000 0 500 0 500; do
		t=$((t + d)) mk=$((mk + 1)); printf '%s\t%s\n' "$mk" "$t"; done > "$c"
	run awk -v tck=100 -f "$H/drivers/bench.awk" "$c" "$k"
	echo "$output"
	[ "$status" -eq 0 ]
	# xfs: fsx 40000 ops in 40 s (60 cpu-s); the soak 40000 in 80 s (80 cpu-s) and in 40 s (80 cpu-s)
	[ "$(row "$output" xfs default soak)" = "xfs default soak 40.00, 40.00 500 40, 40 500 | 10.00, 30.00 1000 667 | 0.50 0.75" ]
	[ "$(row "$output" xfs fsx soak)" = "xfs fsx soak 20.00, 20.00 1000 40, 40 500 | 10.00, 30.00 1000 667 | 1.00 0.75" ]
	[ "$(row "$output" ext4 fsx soak)" = "ext4 fsx soak 10.00 2000 5 4000 | 20.00 1000 2000 | 2.00 2.00" ]
	# a run that failed: its rate over the ops it ran, said so
	[ "$(row "$output" ext4 default soak)" = "ext4 default soak 25.00 200 5 1000 | 20.00 1000 2000 | 0.20 0.50 (soak stopped)" ]
	grep -qx 'ext4 soak (default checking, round 1) stopped at op 5000 of 20000 (exit 1): its rate is over those ops' <<<"$output"
	# where the time went, summed; the per-op rates, the mean of the rounds, a column per fs/tool/checking
	grep -qx '  xfs/soak/default: 59.00 s in ops, 17.00 s verifying, 3.00 s the rest (generating, logging)' <<<"$output"
	[ "$(grep '^mapwrite' <<<"$output" | tr -s ' ')" = "mapwrite 327 - - 700" ]
	! grep -q 'fsx absent' <<<"$output" || false
	# no CPU times (no QEMU seen): the wall-time columns alone
	: > "$c"
	run awk -v tck=100 -f "$H/drivers/bench.awk" "$c" "$k"
	[ "$(row "$output" xfs fsx soak)" = "xfs fsx soak 20.00, 20.00 1000 - - | 10.00, 30.00 1000 - | 1.00 -" ]
	# a reference soak (BENCH_SOAK_REF) gets rows and columns of its own
	{ bench_line ext4 fsx fsx 1 20000 20.00 0; bench_line ext4 soak fsx 1 20000 10.00 0
	  bench_line ext4 ref fsx 1 20000 16.00 0; echo '    # soak-rates name=ext4 read=9000 mapwrite=600'; } > "$k"
	run awk -f "$H/drivers/bench.awk" "$c" "$k"
	echo "$output"
	[ "$(row "$output" ext4 fsx ref)" = "ext4 fsx ref 16.00 1250 - - | 20.00 1000 - | 1.25 -" ]
	[ "$(grep '^mapwrite' <<<"$output" | tr -s ' ')" = "mapwrite - 600" ]
	grep -q 'ext4/soak/fsx  *ext4/ref/fsx$' <<<"$output"
	# without fsx: said so, and no ratio
	{ echo '    # bench: fsx absent (no /bin/fsx in the initramfs): the soak runs alone'
	  bench_line ext4 soak default 1 20000 25.00 0; bench_line ext4 soak fsx 1 20000 10.00 0; } > "$k"
	run awk -f "$H/drivers/bench.awk" "$c" "$k"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(row "$output" ext4 fsx soak)" = "ext4 fsx soak 10.00 2000 - - | absent - - | - -" ]
	grep -q '^fsx absent: the soak ran alone' <<<"$output"
	# nothing from the guest: a failure, said so
	: > "$k"
	run awk -f "$H/drivers/bench.awk" "$c" "$k"
	[ "$status" -eq 1 ] && [[ "$output" == "bench: no results"* ]]
}

@test "a suite is a folder: one added there is built and packed with its guest.sh; scan runs its ktap.awk; its disks are made and attached" {
	fake_repo 9.5 'tree=ksrc'
	s=$R/harness/suites/standin
	mkdir -p "$s"
	printf '%s\n' 'SUITE := sg-standin' 'SRCS := standin.c' 'include ../common.mk' > "$s/Makefile"
	printf '%s\n' '#include <stddef.h>' '#include "sg.h"' 'int main(void) { sg_ktap_header(); sg_ktap_plan(1);' \
		'sg_ktap_result(0, "one.tmpfs", NULL); sg_say("# standin-note hello"); return sg_ktap_finish(); }' > "$s/standin.c"
	printf '%s\n' 'suite_cmd() { up tmpfs && echo sg-standin; }' > "$s/guest.sh"
	printf '%s\n' '/^    # standin-note / { print $3 > (dir "/standin.txt") }' > "$s/ktap.awk"
	# every suite by default, or the one named
	[[ ",$(SG_ROOT=$R sh -c '. "$SG_ROOT/harness/lib/sg.sh" && sg_suites')," == *",standin,"* ]]
	SUITES=standin run "$R/harness/stages/image" initramfs "$BATS_TEST_TMPDIR/i.cpio"
	echo "$output"
	[ "$status" -eq 0 ]
	files=$(cpio -it --quiet < "$BATS_TEST_TMPDIR/i.cpio")
	grep -qx 'bin/sg-standin' <<< "$files" && grep -qx 'suites/standin.sh' <<< "$files"
	run grep -c 'sg-soak\|suites/soak' <<< "$files"
	[ "$output" = 0 ]
	# the guest's KTAP with the suite's own line: its result, and its file
	L=$BATS_TEST_TMPDIR/log
	mkdir -p "$L"
	printf '%s\n' 'KTAP version 1' '1..1' '    KTAP version 1' '    1..1' '    ok 1 one.tmpfs' \
		'    # standin-note hello' 'ok 1 standin' 'stablegate-guest: done' > "$L/ktap.log"
	: > "$L/console.log"
	echo BOOT_STATUS=ok > "$L/boot.env"
	run "$R/harness/stages/scan" "$L"
	[ "$status" -eq 0 ]
	[ "$(cat "$L/results.tsv")" = "$(printf 'standin\tone.tmpfs\tpass\t')" ]
	[ "$(cat "$L/standin.txt")" = hello ]
	# its own disks: made by its disks hook in the boot's disk dir (none
	# left from an earlier boot), attached after the profiles' disks, by serial
	printf '%s\n' '#!/bin/sh' 'truncate -s 1M "$1/standin-extra.img"' > "$s/disks"
	chmod +x "$s/disks"
	D=$BATS_TEST_TMPDIR/disks
	mkdir -p "$D" && : > "$D/gone-old.img"
	SUITES=standin run "$R/harness/stages/image" disks "$D"
	[ "$status" -eq 0 ] && [ -f "$D/standin-extra.img" ] && [ ! -e "$D/gone-old.img" ]
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '%s\n' '#!/bin/sh' 'n=0; for a; do case $a in file:*) n=$((n + 1)); [ $n != 2 ] || echo "stablegate-guest: done" > "${a#file:}" ;; esac; done' \
		> "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	chmod +x "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	: > "$BATS_TEST_TMPDIR/bzImage"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH ACCEL=tcg BOOT_TIMEOUT=30 run "$R/harness/stages/boot" "$BATS_TEST_TMPDIR/bzImage" \
		"$BATS_TEST_TMPDIR/i.cpio" "$D" "$BATS_TEST_TMPDIR/boot"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(awk 'p { print; p = 0 } $0 == "-device" { p = 1 }' "$BATS_TEST_TMPDIR/boot/qemu.cmd" | cut -d, -f3)" = \
		"$(printf 'serial=%s\n' xfs xfs_1k ext4 ext4_1k standin-extra)" ]
	# a folder without guest.sh is no suite the guest can run: named
	rm "$s/guest.sh"
	SUITES=standin run "$R/harness/stages/image" initramfs "$BATS_TEST_TMPDIR/i.cpio"
	[ "$status" -eq 2 ] && [[ "$output" == *"suite 'standin' has no $s/guest.sh"* ]]
}
