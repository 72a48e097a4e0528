#!/usr/bin/env bats
# A verdict is about the code it names, and about every result it was given
# (issue 24): a series is told apart from any other by every byte of its
# patches, their names and order; a branch's work and build dirs are used by
# one run at a time; a result that is lost or cannot be read is said, and
# the run is INCONCLUSIVE. Fake trees and fixture results: no kernel built.

load helpers

setup() {
	sg_setup
}

# a validate left running in the background by a failed test, stopped
teardown() {
	[ -z "${vpid:-}" ] || kill -- -"$vpid" 2>/dev/null || true
}

# series_hash DIR: harness/lib/branch.sh's hash of the candidate series in DIR.
series_hash() {
	SG_ROOT=$R sh -c '. "$SG_ROOT/harness/lib/sg.sh" && BRANCH_DIR=$SG_ROOT/backports/9.5 SG_SERIES_DIR=$1 && sg_series_hash' sh "$1"
}

@test "integrity 8: two candidates without a series file are told apart" {
	fake_branch 9.5
	for c in a:b2 b:b3; do
		mkdir -p "$BATS_TEST_TMPDIR/${c%:*}"
		mail_patch "$BATS_TEST_TMPDIR/${c%:*}/0001-fix.patch" "[PATCH] b: fix" 'Signed-off-by: A U Thor <a@example.org>' \
			"--- a/b.c\n+++ b/b.c\n@@ -1 +1 @@\n-b1\n+${c#*:}\n"
	done
	for c in a b; do
		KSRC=$K SERIES=$BATS_TEST_TMPDIR/$c VARIANTS=patched run "$R/harness/drivers/validate" 9.5
		ln -s "$(readlink -f "$R/reports/9.5/latest")" "$BATS_TEST_TMPDIR/run-$c"
	done
	ha=$(sed -n 's/^SERIES_HASH=//p' "$BATS_TEST_TMPDIR/run-a/env")
	hb=$(sed -n 's/^SERIES_HASH=//p' "$BATS_TEST_TMPDIR/run-b/env")
	echo "hashes: $ha $hb"
	[ "$ha" != "$hb" ]
	[ "$ha" != e3b0c44298fc ]	# (sha256 of nothing)
	# B is applied and built: its own kernel, not A's
	! grep -q reusing "$BATS_TEST_TMPDIR/run-b/patched/series.log" || false
	grep -q '^build	patched	[0-9]*	ok' "$BATS_TEST_TMPDIR/run-b/stages.tsv"
	[ "$(cat "$STABLEGATE_CACHE/build/9.5-patched/arch/x86/boot/bzImage")" = "$(printf 'a1\nheader-1\nb3\nheader-1')" ]
	# the name, the order and every byte count, with or without a series file
	c=$BATS_TEST_TMPDIR/b
	h0=$(series_hash "$c")
	[ "$h0" = "$hb" ]
	mv "$c/0001-fix.patch" "$c/0001-fix-b.patch"
	[ "$(series_hash "$c")" != "$h0" ]
	h1=$(series_hash "$c")
	printf -- '--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-a1\n+a2\n' > "$c/0002-a.patch"
	h2=$(series_hash "$c")
	printf '0001-fix-b.patch\n0002-a.patch\n' > "$c/series"
	[ "$(series_hash "$c")" = "$h2" ]
	printf '0002-a.patch\n0001-fix-b.patch\n' > "$c/series"
	[ "$(series_hash "$c")" != "$h2" ]
	printf '0001-fix-b.patch\n' > "$c/series"
	[ "$(series_hash "$c")" = "$h1" ]
	sed -i 's/Signed-off-by/Signed-off-By/' "$c/0001-fix-b.patch"
	[ "$(series_hash "$c")" != "$h1" ]
}

@test "integrity 8: an mbox candidate keeps its series file; two mboxes are told apart" {
	fake_branch 9.5
	for c in a:b2 b:b3; do
		mail_patch "$BATS_TEST_TMPDIR/${c%:*}.mbox" "[PATCH] b: fix" 'Signed-off-by: A U Thor <a@example.org>' \
			"--- a/b.c\n+++ b/b.c\n@@ -1 +1 @@\n-b1\n+${c#*:}\n"
	done
	SERIES=$BATS_TEST_TMPDIR/a.mbox run "$R/harness/stages/series" 9.5 patched "$K"
	[ "$status" -eq 0 ]
	v=$(echo "$output" | tail -n 1)
	[ "$(cat "$v/b.c")" = b2 ]
	for d in "$STABLEGATE_CACHE"/candidates/mbox-*/; do
		[ "$(cat "$d/series")" = 0001.patch ]
	done
	SERIES=$BATS_TEST_TMPDIR/b.mbox run "$R/harness/stages/series" 9.5 patched "$K"
	[ "$status" -eq 0 ]
	[[ "$output" != *reusing* ]]
	[ "$(cat "$v/b.c")" = b3 ]
	ha=$(series_hash "$(ls -d "$STABLEGATE_CACHE"/candidates/mbox-* | head -n 1)")
	hb=$(series_hash "$(ls -d "$STABLEGATE_CACHE"/candidates/mbox-* | tail -n 1)")
	[ "$ha" != "$hb" ]
}

# waits LOG CMD...: CMD, in a session of its own, says within 20 s that it
# waits for the branch's lock; then it is stopped, before it gets it.
waits() {
	_log=$1; shift
	setsid "$@" > "$_log" 2>&1 3>&- &
	_pid=$!
	_rc=0
	wait_for "$_log" 'holds its work and build dirs; waiting' 20 || _rc=1
	kill -- -"$_pid" 2>/dev/null || true
	wait "$_pid" || true
	return $_rc
}

@test "integrity 9: prefixes, minimise, bench and harness/drivers/kernel wait for a validate of the branch; its own stages do not" {
	fake_branch 9.5
	printf -- '--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-a1\n+a2\n' > "$R/backports/9.5/0002-y.patch"
	echo 0002-y.patch >> "$R/backports/9.5/series"
	# a VM that runs until the test says go
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\nwhile [ ! -f "%s/go" ]; do sleep 0.2; done\nexit 1\n' "$BATS_TEST_TMPDIR" > "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	chmod +x "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	export PATH="$BATS_TEST_TMPDIR/bin:$PATH" ACCEL=tcg KSRC=$K
	# the validate holds the lock through its harness/drivers/kernel, and through
	# harness/drivers/evidence's (EVIDENCE=1: prefix-1), without waiting on itself
	EVIDENCE=1 VARIANTS=patched setsid "$R/harness/drivers/validate" 9.5 > "$BATS_TEST_TMPDIR/v.log" 2>&1 3>&- &
	vpid=$!
	wait_for "$BATS_TEST_TMPDIR/v.log" '== boot \(patched\)'
	run=$(readlink -f "$R/reports/9.5/latest")
	echo 'op=1 write' > "$BATS_TEST_TMPDIR/op.log"
	waits "$BATS_TEST_TMPDIR/p.log" "$R/harness/drivers/prefixes" 9.5
	waits "$BATS_TEST_TMPDIR/k.log" "$R/harness/drivers/kernel" "$run" prefix-1
	waits "$BATS_TEST_TMPDIR/m.log" "$R/harness/drivers/minimise" --branch 9.5 "$BATS_TEST_TMPDIR/op.log" xfs
	waits "$BATS_TEST_TMPDIR/b.log" env FSX_SRC=/nonexistent "$R/harness/drivers/bench" 9.5
	touch "$BATS_TEST_TMPDIR/go"
	wait "$vpid" || true
	cat "$BATS_TEST_TMPDIR/v.log"
	! grep -q waiting "$BATS_TEST_TMPDIR/v.log" || false
	# none of them touched the work copy or the build dirs: the validate's
	# kernels are its own, and its prefix-1 was built by its evidence
	[ ! -f "$STABLEGATE_CACHE/build/9.5-baseline/prefix-0.log" ]
	[ "$(cat "$STABLEGATE_CACHE/build/9.5-patched/arch/x86/boot/bzImage")" = "$(printf 'a2\nheader-1\nb2\nheader-1')" ]
	grep -q '^build	prefix-1	[0-9]*	ok' "$run/stages.tsv"
	[ "$(cat "$STABLEGATE_CACHE/build/9.5-baseline/arch/x86/boot/bzImage")" = "$(printf 'a1\nheader-1\nb2\nheader-1')" ]
}

# built_run DIR: make_run's run, both cases passing, with each kernel's config
# and build stages (KCIDB output needs a build per checkout)
built_run() {
	make_run "$1" pass pass
	printf 'config\t%s\t1\tok\nbuild\t%s\t1\tok\n' baseline baseline patched patched >> "$1/stages.tsv"
}

# outputs DIR: the run's reports, rendered and checked: junit.xml against
# its schema, kcidb.json against KCIDB's rules.
outputs() {
	"$ROOT/harness/report/report" "$1"
	xmllint --noout --schema "$ROOT/harness/report/junit.xsd" "$1/junit.xml"
	"$ROOT/harness/report/kcidb" "$1"
}

@test "integrity 11: a lost or unreadable result is missing, never a pass: INCONCLUSIVE, named in every output" {
	r=$BATS_TEST_TMPDIR/r
	built_run "$r"
	printf 'syscall\tc.xfs\tfail\tEINVAL\n' >> "$r/baseline/results.tsv"
	printf 'syscall\tc.xfs\tpass\t\n' >> "$r/patched/results.tsv"
	outputs "$r"
	[ "$(jq -r .verdict "$r/result.json")" = SAFE ]
	# patched's results.tsv cut after its first line: b.xfs and c.xfs are missing
	sed -i '2,$d' "$r/patched/results.tsv"
	outputs "$r"
	j=$r/result.json
	jq -e '.verdict == "INCONCLUSIVE"' "$j"
	jq -e '.comparison.missing == [{suite: "syscall", name: "b.xfs", baseline: "pass"}, {suite: "syscall", name: "c.xfs", baseline: "fail"}]' "$j"
	jq -e '.broken_stages[0] == {stage: "results", variant: "patched",
		status: "no result for 2 cases baseline ran (missing, not passing): syscall/b.xfs, syscall/c.xfs"}' "$j"
	grep -qF -- '- **Missing** (baseline ran them, patched gave no result; INCONCLUSIVE): `syscall/b.xfs`, `syscall/c.xfs`' "$r/summary.md"
	grep -qF 'Missing (baseline ran them, patched gave no result): `syscall/b.xfs`, `syscall/c.xfs`' "$r/summary.md"
	grep -qx '\* syscall/b.xfs: no result on patched (baseline: pass): missing, not' "$r/review.txt"
	tr '\n' ' ' < "$r/review.txt" | grep -q 'INCONCLUSIVE under STABLE-POLICY.md rule 1: the run cannot support a decision: results patched: no result for 2 cases'
	q() { xmllint --xpath "$1" "$r/junit.xml"; }
	p='/testsuites/testsuite[@name="stablegate.6.1.patched"]'
	[ "$(q "string($p/testcase[@name='b.xfs']/error/@type)")" = missing ]
	[ "$(q "string($p/@errors)") $(q "string($p/@tests)")" = "2 4" ]
	jq -e '[.tests[] | select(.status == "MISS") | .path] == ["stablegate.syscall.b.xfs", "stablegate.syscall.c.xfs"]' "$r/kcidb.json"

	# a line with an unknown status, and one that is no result line at all
	printf 'syscall\tb.xfs\tpassed\t\nsyscall b.xfs pass\n' >> "$r/patched/results.tsv"
	outputs "$r"
	jq -e '.verdict == "INCONCLUSIVE"' "$j"
	jq -e '.variants.patched.unreadable == ["results.tsv:2: unknown status \"passed\" for \"syscall/b.xfs\"",
		"results.tsv:3: unparsable line \"syscall b.xfs pass\""]' "$j"
	jq -e '.broken_stages[1].status | startswith("2 unreadable lines: results.tsv:2: unknown status")' "$j"
	grep -qF '**Unreadable results** (patched, no result, INCONCLUSIVE): `results.tsv:2: unknown status "passed" for "syscall/b.xfs"`' "$r/summary.md"
	grep -qF '* patched: results.tsv:3: unparsable line "syscall b.xfs pass"' "$r/review.txt"
	[ "$(q "string($p/testcase[@name='results.tsv']/error/@type)")" = unreadable ]
	jq -e '[.tests[] | select(.path == "stablegate.results") | .status] == ["ERROR"]' "$r/kcidb.json"

	# 300 random bytes: no result at all, every case missing, the lines named
	head -c 300 /dev/urandom > "$r/patched/results.tsv"
	outputs "$r"
	jq -e '.verdict == "INCONCLUSIVE" and (.comparison.missing | length) == 3 and (.variants.patched.unreadable | length) > 0' "$j"
	jq -e '.totals.patched == {passed: 0, failed: 0, skipped: 0, kernel_failures: 0}' "$j"
	echo "# result: $(jq -r '.broken_stages[0].status' "$j")" >&3
}

@test "integrity 11: a case the guest did not run because its filesystem went down is not run, with why; the fs-error makes it UNSAFE" {
	r=$BATS_TEST_TMPDIR/r
	built_run "$r"
	printf 'soak\tsoak.xfs\tpass\t\nsoak\tsoak.ext4\tpass\t\n' >> "$r/baseline/results.tsv"
	printf 'soak\tsoak.ext4\tpass\t\n' >> "$r/patched/results.tsv"
	printf 'fs-error\tfs xfs down before soak: a probe write failed (shut down?); later suites run without it\n' > "$r/patched/failures.tsv"
	outputs "$r"
	j=$r/result.json
	jq -e '.comparison.missing == [] and .comparison.not_run == [{suite: "soak", name: "soak.xfs", baseline: "pass", why: "fs xfs down on the patched kernel"}]' "$j"
	jq -e '.verdict == "UNSAFE"' "$j"
	grep -qF -- '- Not run on the patched kernel, fs xfs down on the patched kernel: `soak/soak.xfs`' "$r/summary.md"
	# without the guest's word, the same gap is missing
	: > "$r/patched/failures.tsv"
	outputs "$r"
	jq -e '.verdict == "INCONCLUSIVE" and .comparison.missing == [{suite: "soak", name: "soak.xfs", baseline: "pass"}]' "$j"
}
