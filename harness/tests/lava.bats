#!/usr/bin/env bats
# Past one machine: KCIDB output (harness/report/kcidb), LAVA job definitions
# (harness/lava/lava-jobs) and LAVA's results read back (harness/lava-results),
# on fixed inputs. No kernel boots here; lava-e2e.bats runs a real job.

load helpers

setup() {
	sg_setup
	export DISK_MB=300	# the smallest XFS mkfs.xfs makes: LAVA copies the disks for every job
}

teardown() {
	[ -z "${lab:-}" ] || kill "$lab" 2>/dev/null || true	# a stand-in lab a test started
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
	"$H/report/report" "$r"
	run "$H/report/kcidb" "$r"
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
	"$H/report/report" "$r" || true
	run "$H/report/kcidb" "$r"
	echo "$output"
	[ "$status" -eq 0 ]
	k=$r/kcidb.json
	jq -e '[.builds[] | {(.id | split(":")[-1]): .valid}] | add == {baseline: true, patched: false}' "$k"
	jq -e '.builds[1].comment | contains("fs/read_write.c:1601:2: error")' "$k"
	jq -e '[.tests[] | select(.build_id | endswith(":patched"))] | length == 0' "$k"
	jq -e '.checkouts | all(.valid)' "$k"
	# a series that did not apply: that checkout is invalid, and nothing was built from it
	sed -i 's/^series\tpatched\t1\tok$/series\tpatched\t1\tfailed(1)/; /^config\tpatched/d; /^build\tpatched/d' "$r/stages.tsv"
	"$H/report/report" "$r" || true
	"$H/report/kcidb" "$r"
	jq -e '[.checkouts[] | .valid] == [true, false] and (.builds | length) == 1' "$k"
}

@test "kcidb: the schema check catches every kind of violation, each named" {
	r=$BATS_TEST_TMPDIR/r
	fake_run "$r"
	"$H/report/report" "$r"
	"$H/report/kcidb" "$r"
	c=$H/report/kcidb-check.jq
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
	"$H/report/report" "$r"
	a=$BATS_TEST_TMPDIR/archived
	mkdir -p "$a" && cp "$r/result.json" "$a/"
	run make -C "$ROOT" -s kcidb RUN="$a"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(jq '.tests | length' "$a/kcidb.json")" -eq 11 ]
	run "$H/report/kcidb" "$BATS_TEST_TMPDIR/nosuch"
	[ "$status" -eq 2 ]
}

# fake_built DIR: a run dir whose baseline and patched were built, with
# stand-in kernels and initramfs in the cache (nothing here boots them).
fake_built() {
	d=$1
	mkdir -p "$d"
	printf '%s\n' BRANCH=6.1 RUN_ID=20261204T000000Z SEED=7 SOAK_OPS=5000 SOAK_SEEDS=2 SUITES=syscall,soak \
		SOAK_ARGS= SOAK_REPLAY= DEBUG= > "$d/env"
	printf 'stage\tvariant\tseconds\tstatus\nbuild\tbaseline\t5\tok\nbuild\tpatched\t5\tok\n' > "$d/stages.tsv"
	for v in baseline patched; do
		mkdir -p "$STABLEGATE_CACHE/build/6.1-$v/arch/x86/boot"
		echo "kernel $v" > "$STABLEGATE_CACHE/build/6.1-$v/arch/x86/boot/bzImage"
	done
	mkdir -p "$STABLEGATE_CACHE/images/6.1"
	echo initramfs > "$STABLEGATE_CACHE/images/6.1/initramfs.cpio"
}

# stand_in_qemu SERIAL DEVICE: the device's QEMU replaced by a script that
# writes SERIAL the way a serial line delivers it, each line in two pieces
# with a pause between (a case's name, or its "# SKIP", arriving in the
# second), then exits.
stand_in_qemu() {
	cat > "$BATS_TEST_TMPDIR/qemu" <<SH
#!/bin/bash
while IFS= read -r l; do
	h=\$(( \${#l} * 2 / 3 ))
	printf '%s' "\${l:0:h}"; sleep 0.2; printf '%s\n' "\${l:h}"
done < "$1"
sleep 1
SH
	chmod +x "$BATS_TEST_TMPDIR/qemu"
	sed -i "s|command: qemu-system-x86_64|command: $BATS_TEST_TMPDIR/qemu|" "$2"
}

@test "lava-jobs: a job per built kernel (and per seed), valid for LAVA's schema and lava-run --validate; a broken one is not" {
	r=$BATS_TEST_TMPDIR/run
	fake_built "$r"
	sed -i 's/^build\tbaseline\t5\tok$/build\tbaseline\t5\tfailed(1)/' "$r/stages.tsv"
	run "$H/lava/lava-jobs" "$r"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"baseline: not built in this run; no job"* ]]
	[ "$(cd "$r/lava" && echo *.yaml)" = "device-qemu.yaml patched.yaml" ]
	j=$r/lava/patched.yaml
	# the harness's kernel command line, its timeouts, no network device
	grep -q -- "-append \"console=ttyS0 panic=-1 sg.one_serial=1 sg.suites=syscall,soak sg.soak_ops=5000 sg.soak_seeds=2 sg.seed=7\"" "$j"
	grep -q '^    timeout: {seconds: 2500}$' "$j"	# 300 boot + syscall 600 + soak 600 + 5000 * 2 seeds / 10
	grep -q '^  connection: {seconds: 300}$' "$j"
	grep -q -- '-nic none' "$r/lava/device-qemu.yaml"
	run grep -E -- '-net(dev)? |-nic user|-device .*net' "$r/lava/device-qemu.yaml" "$j"
	[ "$status" -eq 1 ]
	# the images: fresh disks, and every artefact's sha256 in the job
	a=$STABLEGATE_CACHE/lava/6.1/20261204T000000Z
	[ -f "$a/xfs.img.gz" ] && [ -f "$a/ext4.img.gz" ] && [ -f "$a/patched/bzImage" ]
	(cd "$a" && sha256sum -c "$r/lava/artefacts.sha256")
	grep -q "url: 'file://$a/xfs.img.gz'" "$j"
	grep -q "sha256sum: $(sha256sum < "$a/patched/bzImage" | cut -c-64)" "$j"
	run "$H/lava/lava-run" --validate "$j" "$BATS_TEST_TMPDIR/v"
	echo "$output"
	[ "$status" -eq 0 ]
	# a lab's URL prefix, and a job per seed
	sed -i 's/failed(1)/ok/' "$r/stages.tsv"
	LAVA_ARTEFACTS=https://lab.example/sg/run1/ SEEDS="3 4" "$H/lava/lava-jobs" "$r" "$BATS_TEST_TMPDIR/lab"
	[ "$(cd "$BATS_TEST_TMPDIR/lab" && echo *-seed*.yaml)" = "baseline-seed3.yaml baseline-seed4.yaml patched-seed3.yaml patched-seed4.yaml" ]
	grep -q "url: 'https://lab.example/sg/run1/6.1/20261204T000000Z/patched/bzImage'" "$BATS_TEST_TMPDIR/lab/patched-seed4.yaml"
	grep -q 'sg.seed=4"' "$BATS_TEST_TMPDIR/lab/patched-seed4.yaml"
	# LAVA's schema refuses a job with a bad result mapping, and says where
	sed "s/'not ok': fail/'not ok': failed/" "$j" > "$r/lava/bad.yaml"
	run "$H/lava/lava-run" --validate "$r/lava/bad.yaml" "$BATS_TEST_TMPDIR/v"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"LAVA's job schema"*"fixupdict"* ]]
}

@test "lava-run: LAVA's own dispatcher parses a recorded console into the cases scan reads from the same KTAP" {
	# The serial connection's bytes are replayed by a stand-in for QEMU:
	# everything after it is lava-run's real deploy, monitors and pattern
	# parser, and what it records must be what harness/stages/scan makes of the
	# same KTAP (suite, case, status).
	r=$BATS_TEST_TMPDIR/run
	fake_built "$r"
	VARIANTS=patched "$H/lava/lava-jobs" "$r"
	k=$BATS_TEST_DIRNAME/fixtures/ktap-nested.log
	serial=$BATS_TEST_TMPDIR/serial.log
	{ echo "[    0.000000] Linux version 6.1.1 (stand-in)"
	  head -n 2 "$k"
	  echo "[    1.500000] XFS (vda): Mounting V5 Filesystem"
	  tail -n +3 "$k"; } | sed 's/$/\r/' > "$serial"
	stand_in_qemu "$serial" "$r/lava/device-qemu.yaml"
	run "$H/lava/lava-run" "$r/lava/patched.yaml" "$BATS_TEST_TMPDIR/l"
	echo "$output"
	[ "$status" -eq 0 ]
	l=$BATS_TEST_TMPDIR/l
	cat "$l/results.tsv"
	# scan on the same KTAP, for comparison
	mkdir -p "$BATS_TEST_TMPDIR/d"
	cp "$k" "$BATS_TEST_TMPDIR/d/ktap.log"; : > "$BATS_TEST_TMPDIR/d/console.log"
	"$H/stages/scan" "$BATS_TEST_TMPDIR/d"
	diff <(cut -f1-3 "$BATS_TEST_TMPDIR/d/results.tsv") <(cut -f1-3 "$l/results.tsv")
	[ "$(wc -l < "$l/results.tsv")" -eq 4 ]
	grep -q '^syscall	ficlone.tmpfs	skip' "$l/results.tsv"
	grep -q '^soak	soak.xfs	fail' "$l/results.tsv"
	grep -q '^LAVA_RESULT=pass$' "$l/lava.env"
	grep -q '^MONITORS=2$' "$l/lava.env"
	grep -q 'XFS (vda): Mounting V5 Filesystem' "$l/console.log"
	# LAVA's temporary download dir is gone
	[ "$(find /var/lib/lava/dispatcher/tmp -maxdepth 1 -name "stablegate-*" | wc -l)" -eq 0 ]
}

@test "lava-run: a guest that dies mid-suite is a job that did not complete, named, with the cases recorded so far" {
	r=$BATS_TEST_TMPDIR/run
	fake_built "$r"
	VARIANTS=patched "$H/lava/lava-jobs" "$r"
	serial=$BATS_TEST_TMPDIR/serial.log
	head -n 6 "$BATS_TEST_DIRNAME/fixtures/ktap-nested.log" | sed 's/$/\r/' > "$serial"
	printf '[   9.0] Kernel panic - not syncing: stand-in\r\n' >> "$serial"
	stand_in_qemu "$serial" "$r/lava/device-qemu.yaml"
	run "$H/lava/lava-run" "$r/lava/patched.yaml" "$BATS_TEST_TMPDIR/l"
	echo "$output"
	[ "$status" -eq 1 ]
	l=$BATS_TEST_TMPDIR/l
	grep -q '^LAVA_RESULT=fail$' "$l/lava.env"
	grep -q '^lava-error	the LAVA job did not complete' "$l/failures.tsv"
	grep -q '^panic	Kernel panic - not syncing: stand-in' "$l/failures.tsv"
	[ "$(cut -f1-3 "$l/results.tsv" | tr '\t\n' ' |')" = "syscall cfr_basic.xfs pass|syscall cfr_eof.ext4 fail|" ]
}

# lava_branch NAME: a fake branch (fake_repo, fake_tree: $k, a one-line
# patch) and, first on PATH, a qemu-system-x86_64 that replays a guest's
# serial line: the kernel's console and the smoke suite's KTAP, one case
# passing, one failing, one skipped. LAVA finds it on PATH; everything else
# is lava-run's own.
lava_branch() {
	fake_branch "$1"
	k=$K
	serial=$BATS_TEST_TMPDIR/serial.log
	printf '%s\n' '[    0.000000] Linux version 9.5.0 (stand-in)' 'KTAP version 1' '1..1' \
		'    KTAP version 1' '    1..3' '    ok 1 mount.xfs' '    not ok 2 mount.ext4 # EIO' \
		'    ok 3 reflink.ext4 # SKIP no reflink' '# smoke: exit 1 in 1s' 'not ok 1 smoke # exit 1' \
		'stablegate-guest: done' | sed 's/$/\r/' > "$serial"
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\ncat "%s"\nsleep 1\n' "$serial" > "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	chmod +x "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
}

@test "validate RUNNER=lava: each built kernel's boot is a LAVA job; LAVA's cases are the run's results and reach a verdict" {
	lava_branch 9.5
	# a lab without an artefact URL is refused before anything runs
	RUNNER=lava LAVA_URL=https://u:t@lava.example/RPC2 KSRC=$k run "$R/harness/drivers/validate" 9.5
	[ "$status" -eq 2 ]
	[[ "$output" == *"LAVA_ARTEFACTS=<http(s) prefix> must serve them"* ]]
	[ ! -e "$R/reports/9.5" ]
	PATH=$BATS_TEST_TMPDIR/bin:$PATH RUNNER=lava VARIANTS=patched SUITES=smoke KSRC=$k \
		run "$R/harness/drivers/validate" 9.5
	echo "$output" | tail -n 20
	[ "$status" -eq 0 ]
	d=$R/reports/9.5/latest
	grep -q '^lava-jobs	patched	[0-9]*	ok$' "$d/stages.tsv"
	grep -q '^lava-run	patched	[0-9]*	ok$' "$d/stages.tsv"
	run grep -E '^(boot|disks|scan)	' "$d/stages.tsv"
	[ "$status" -eq 1 ]
	[ "$(cut -f1-3 "$d/patched/results.tsv" | tr '\t\n' ' |')" = "smoke mount.xfs pass|smoke mount.ext4 fail|smoke reflink.ext4 skip|" ]
	grep -q '^RUNNER=lava$' "$d/patched/boot.env"
	grep -q '^BOOT_STATUS=ok$' "$d/patched/boot.env"
	# the failing case makes the verdict, as from a direct boot
	jq -e '.verdict == "UNSAFE" and .totals.patched == {passed: 1, failed: 1, skipped: 1, kernel_failures: 0}' "$d/result.json"
	[ -f "$d/lava/patched.yaml" ]
}

@test "make lava-jobs: builds, then writes and checks the jobs; no boot, no report" {
	lava_branch 9.5
	run make -C "$R" -s branch=9.5 lava-jobs KSRC="$k" SUITES=smoke SEEDS="5 6"
	echo "$output" | tail -n 12
	[ "$status" -eq 0 ]
	d=$R/reports/9.5/latest
	[ "$(cd "$d/lava" && echo *.yaml)" = "baseline-seed5.yaml baseline-seed6.yaml device-qemu.yaml patched-seed5.yaml patched-seed6.yaml" ]
	[ "$(grep -c ': valid$' <<< "$output")" -eq 4 ]
	run grep -E '^(boot|disks|scan|lava-run)	' "$d/stages.tsv"
	[ "$status" -eq 1 ]
	[ ! -f "$d/result.json" ]
	# and RUNNER is checked
	RUNNER=docker run "$R/harness/drivers/validate" 9.5
	[ "$status" -eq 2 ]
	[[ "$output" == *"RUNNER=docker: takes qemu, lava or lava-jobs"* ]]
}

@test "validate-all RUNNER=lava: every branch's boots are LAVA jobs; a lab without an artefact URL is refused up front" {
	lava_branch 9.4
	KD=$BATS_TEST_TMPDIR/trees
	mkdir -p "$KD" && mv "$k" "$KD/linux-9.4.1"
	RUNNER=lava LAVA_URL=https://u:t@lava.example/RPC2 KSRC_DIR=$KD run "$R/harness/drivers/validate-all" 9.4
	[ "$status" -eq 2 ]
	[[ "$output" == *"LAVA_ARTEFACTS=<http(s) prefix> must serve them"* ]]
	RUNNER=lava-jobs KSRC_DIR=$KD run "$R/harness/drivers/validate-all" 9.4
	[ "$status" -eq 2 ]
	[[ "$output" == *"make branch=NAME lava-jobs"* ]]
	[ ! -e "$R/reports/all" ]
	PATH=$BATS_TEST_TMPDIR/bin:$PATH RUNNER=lava VARIANTS=patched SUITES=smoke KSRC_DIR=$KD \
		run "$R/harness/drivers/validate-all" 9.4
	echo "$output" | tail -n 8
	[ "$status" -eq 0 ]
	[[ "$output" == *"boots as LAVA jobs (RUNNER=lava)"* ]]
	[ "$(cut -f1,2 "$R"/reports/all/*/branches.tsv | tail -n 1)" = "9.4	UNSAFE" ]
	grep -q '^lava-run	patched	[0-9]*	ok$' "$R/reports/9.4/latest/stages.tsv"
	grep -q '^smoke	mount.ext4	fail' "$R/reports/9.4/latest/patched/results.tsv"
}

@test "lava-run LAVA_URL=: a lab's job, submitted with lavacli, its images fetched over http, its log read back the same way" {
	# The lab is a stand-in (fixtures/lava-lab.py: the XML-RPC calls lavacli
	# makes, each job run by the real lava-run, and an http server for the
	# artefacts); lavacli, LAVA's http download and the log are real.
	r=$BATS_TEST_TMPDIR/run
	fake_built "$r"
	VARIANTS=patched "$H/lava/lava-jobs" "$r"
	run env LAVA_URL=http://u:t@127.0.0.1:9/RPC2 "$H/lava/lava-run" "$r/lava/patched.yaml" "$BATS_TEST_TMPDIR/l"
	[ "$status" -eq 2 ]
	[[ "$output" == *"fetches its images from file://: a lab needs LAVA_ARTEFACTS="* ]]
	serial=$BATS_TEST_TMPDIR/serial.log
	sed 's/$/\r/' "$BATS_TEST_DIRNAME/fixtures/ktap-nested.log" > "$serial"
	stand_in_qemu "$serial" "$r/lava/device-qemu.yaml"
	mkdir -p "$BATS_TEST_TMPDIR/lab"
	/usr/bin/python3 "$BATS_TEST_DIRNAME/fixtures/lava-lab.py" "$r/lava/device-qemu.yaml" \
		"$STABLEGATE_CACHE/lava" "$BATS_TEST_TMPDIR/lab" "$BATS_TEST_TMPDIR/ports" 3>&- &
	lab=$!
	for _ in $(seq 20); do [ -s "$BATS_TEST_TMPDIR/ports" ] && break; sleep 0.5; done
	read -r rpc http < "$BATS_TEST_TMPDIR/ports"
	export NO_PROXY=127.0.0.1 no_proxy=127.0.0.1
	LAVA_ARTEFACTS=http://127.0.0.1:$http VARIANTS=patched "$H/lava/lava-jobs" "$r"
	grep -q "url: 'http://127.0.0.1:$http/6.1/20261204T000000Z/patched/bzImage'" "$r/lava/patched.yaml"
	stand_in_qemu "$serial" "$r/lava/device-qemu.yaml"
	LAVA_URL=http://user:secret@127.0.0.1:$rpc/RPC2 run "$H/lava/lava-run" "$r/lava/patched.yaml" "$BATS_TEST_TMPDIR/l"
	kill "$lab"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"http://127.0.0.1:$rpc/RPC2: job 1 submitted"* ]]
	[[ "$output" != *secret* ]]
	l=$BATS_TEST_TMPDIR/l
	grep -q '^LAVA_JOB=1$' "$l/lava.env"
	grep -q '^LAVA_RESULT=pass$' "$l/lava.env"
	# the lab fetched the images over http
	grep -q "http-download" "$l/lava.log"
	mkdir -p "$BATS_TEST_TMPDIR/d"
	cp "$BATS_TEST_DIRNAME/fixtures/ktap-nested.log" "$BATS_TEST_TMPDIR/d/ktap.log"; : > "$BATS_TEST_TMPDIR/d/console.log"
	"$H/stages/scan" "$BATS_TEST_TMPDIR/d"
	diff <(cut -f1-3 "$BATS_TEST_TMPDIR/d/results.tsv") <(cut -f1-3 "$l/results.tsv")
}
