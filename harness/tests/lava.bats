#!/usr/bin/env bats
# Past one machine: KCIDB output (harness/kcidb), LAVA job definitions
# (harness/lava-jobs) and LAVA's results read back (harness/lava-results),
# on fixed inputs. No kernel boots here; lava-e2e.bats runs a real job.

load helpers

setup() {
	ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	H=$ROOT/harness
	export STABLEGATE_CACHE=$BATS_TEST_TMPDIR/cache
}

# fake_run DIR: a reported 6.1 run: baseline and patched built and booted,
# a fail, a pass and a skip on each, and a WARN on baseline's console.
fake_run() {
	d=$1
	mkdir -p "$d/baseline" "$d/patched"
	printf '%s\n' BRANCH=6.1 RUN_ID=20261204T000000Z SEED=7 SOAK_OPS=10 SUITES=syscall \
		SERIES_HASH=abc SERIES_IN_TREE=yes TREE_SOURCE=apt TREE_PACKAGE=linux-source-6.1 \
		TREE_VERSION=6.1.1-1 KERNEL_VERSION=6.1.1 STARTED=2026-12-04T00:00:00Z > "$d/env"
	printf 'stage\tvariant\tseconds\tstatus\ntree\t-\t1\tok\n' > "$d/stages.tsv"
	for v in baseline patched; do
		printf 'series\t%s\t1\tok\nconfig\t%s\t2\tok\nbuild\t%s\t5\tok\nboot\t%s\t9\tok\n' $v $v $v $v >> "$d/stages.tsv"
		printf '%s\n' ACCEL=tcg BOOT_SECONDS=9 BOOT_STATUS=ok > "$d/$v/boot.env"
		printf 'syscall\tcfr_eof.xfs\tfail\treturned -1 EINVAL, expected 0\nsyscall\tcfr_basic.ext4\tpass\t\nsyscall\tficlone.tmpfs\tskip\ttmpfs has no reflink\nsoak\tsoak.xfs\tfail\ttimeout: no result after 30 s\n' > "$d/$v/results.tsv"
		: > "$d/$v/failures.tsv"
	done
	printf 'warn\tWARNING: at fs/xfs/x.c:1 | RIP: xfs_f\n' > "$d/baseline/failures.tsv"
}

@test "kcidb: a 6.1 run is valid KCIDB v4: checkouts, builds, one test per case with its path and status" {
	r=$BATS_TEST_TMPDIR/r
	fake_run "$r"
	"$H/report" "$r"
	run "$H/kcidb" "$r"
	echo "$output"
	[ "$status" -eq 0 ]
	k=$r/kcidb.json
	[[ "$output" == *"2 checkouts, 2 builds (0 invalid), 11 tests; valid KCIDB v4"* ]]
	jq -e '.version == {major: 4, minor: 3}' "$k"
	jq -e '[.checkouts[], .builds[], .tests[] | .origin] | unique == ["stablegate"]' "$k"
	jq -e '[.checkouts[].id] == ["stablegate:6.1:20261204T000000Z:baseline", "stablegate:6.1:20261204T000000Z:patched"]' "$k"
	jq -e '.builds | all(.valid == true and .architecture == "x86_64" and .duration == 7)' "$k"
	# one test per case, its status from KTAP; a case that did not finish is ERROR
	p='.tests[] | select(.build_id | endswith(":patched"))'
	[ "$(jq -r "[$p | \"\(.path)=\(.status)\"] | join(\" \")" "$k")" = \
		"stablegate.boot=PASS stablegate.syscall.cfr_eof.xfs=FAIL stablegate.syscall.cfr_basic.ext4=PASS stablegate.syscall.ficlone.tmpfs=SKIP stablegate.soak.soak.xfs=ERROR" ]
	jq -e "[$p | select(.path == \"stablegate.syscall.cfr_eof.xfs\")][0].comment == \"returned -1 EINVAL, expected 0\"" "$k"
	# the baseline's console WARN is a failed test of its own
	jq -e '[.tests[] | select(.path == "stablegate.kernel.warn")] | length == 1 and .[0].status == "FAIL" and (.[0].build_id | endswith(":baseline"))' "$k"
	# the patched checkout carries KCIDB's patchset hash of the 6.1 series
	want=$(jq -r '.series.patches[]' "$r/result.json" | sed "s|^|$ROOT/backports/6.1/|" | xargs sha256sum | cut -c-64 | sha256sum | cut -c-64)
	jq -e --arg h "$want" '.checkouts[1].patchset_hash == $h and (.checkouts[0] | has("patchset_hash") | not)' "$k"
	# no null anywhere (KCIDB forbids them)
	jq -e '[.. | select(. == null)] | length == 0' "$k"
}

@test "kcidb: a broken build is valid: false with its error, and has no tests; a failed series makes the checkout invalid" {
	r=$BATS_TEST_TMPDIR/r
	fake_run "$r"
	sed -i 's/^build\tpatched\t5\tok$/build\tpatched\t5\tfailed(1)/; /^boot\tpatched/d' "$r/stages.tsv"
	rm "$r/patched/boot.env" "$r/patched/results.tsv"
	echo 'build patched: stablegate: build: error: fs/read_write.c:1601:2: error: expected ";"' > "$r/stage-errors.txt"
	"$H/report" "$r" || true
	run "$H/kcidb" "$r"
	echo "$output"
	[ "$status" -eq 0 ]
	k=$r/kcidb.json
	jq -e '[.builds[] | {(.id | split(":")[-1]): .valid}] | add == {baseline: true, patched: false}' "$k"
	jq -e '.builds[1].comment | contains("fs/read_write.c:1601:2: error")' "$k"
	jq -e '[.tests[] | select(.build_id | endswith(":patched"))] | length == 0' "$k"
	jq -e '.checkouts | all(.valid)' "$k"
	# a series that did not apply: that checkout is invalid, and nothing was built from it
	sed -i 's/^series\tpatched\t1\tok$/series\tpatched\t1\tfailed(1)/; /^config\tpatched/d; /^build\tpatched/d' "$r/stages.tsv"
	"$H/report" "$r" || true
	"$H/kcidb" "$r"
	jq -e '[.checkouts[] | .valid] == [true, false] and (.builds | length) == 1' "$k"
}

@test "kcidb: the schema check catches every kind of violation, each named" {
	r=$BATS_TEST_TMPDIR/r
	fake_run "$r"
	"$H/report" "$r"
	"$H/kcidb" "$r"
	c=$H/programs/kcidb-check.jq
	[ -z "$(jq -r -f "$c" "$r/kcidb.json")" ]
	bad() { jq "$1" "$r/kcidb.json" | jq -r -f "$c"; }
	[[ "$(bad '.tests[1].status = "BROKEN"')" == *'tests[1].status: "BROKEN" is not one of FAIL, ERROR, MISS, PASS, DONE, SKIP'* ]]
	[[ "$(bad '.builds[0].valid = null')" == *'builds[0].valid: null'* ]]
	[[ "$(bad '.builds[0].valid = "false"')" == *'builds[0].valid: string, not boolean'* ]]
	[[ "$(bad '.checkouts[0].foo = 1')" == *'checkouts[0]: unknown property foo'* ]]
	[[ "$(bad 'del(.tests[2].build_id)')" == *'tests[2]: missing required build_id'* ]]
	[[ "$(bad '.tests[0].path = "a b"')" == *'tests[0].path: "a b" does not match'* ]]
	[[ "$(bad '.checkouts[0].id = "Stablegate-1"')" == *'checkouts[0].id: "Stablegate-1" does not match'* ]]
	[[ "$(bad '.checkouts[0].start_time = "now"')" == *'is not a date-time'* ]]
	[[ "$(bad '.version.major = 5')" == *'version.major: 5, not 4'* ]]
	[[ "$(bad '.version.minor = 9')" == *'version.minor: 9, not 0..5'* ]]
	[[ "$(bad 'del(.version)')" == *'top: missing required version'* ]]
	[[ "$(bad '.tests[0].environment.x = 1')" == *'tests[0].environment: unknown property x'* ]]
	[[ "$(bad '.checkouts[1].patchset_hash = "abc"')" == *'patchset_hash: "abc" does not match'* ]]
	[[ "$(bad '.builds[0].log_excerpt = ("x" * 16385)')" == *'longer than 16384'* ]]
	[[ "$(bad '.builds[0].checkout_id = "stablegate:nosuch"')" == *'checkout stablegate:nosuch is not in checkouts'* ]]
	[[ "$(bad '.tests[1].id = .tests[0].id')" == *'appears 2 times'* ]]
}

@test "make kcidb RUN= renders from result.json alone, without the run's logs" {
	r=$BATS_TEST_TMPDIR/r
	fake_run "$r"
	"$H/report" "$r"
	a=$BATS_TEST_TMPDIR/archived
	mkdir -p "$a" && cp "$r/result.json" "$a/"
	run make -C "$ROOT" -s kcidb RUN="$a"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(jq '.tests | length' "$a/kcidb.json")" -eq 11 ]
	run "$H/kcidb" "$BATS_TEST_TMPDIR/nosuch"
	[ "$status" -eq 2 ]
}
