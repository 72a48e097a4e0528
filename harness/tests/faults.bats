#!/usr/bin/env bats
# Every failure mode the harness claims to handle, injected for real: each
# test provokes one fault and checks that it ends in one named result, that
# the run goes on where it can, and that the cache stays sound. Each prints
# the result it got ("# result: ..."), so the TAP log is the list.
#
# The guest faults boot the 6.1 kernel e2e.bats built (its config has lkdtm,
# harness/kconfig/detectors.config) and make it panic, oops, WARN and hang.
# The host faults run validate and its stages on small fake kernel trees.

load helpers

setup_file() {
	export ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	CACHE=${STABLEGATE_CACHE:-/var/cache/stablegate}
	export KERNEL=${FAULTS_KERNEL:-$CACHE/build/6.1-patched/arch/x86/boot/bzImage}
	export GUEST=$BATS_FILE_TMPDIR/guest
	mkdir -p "$GUEST"
	if [ -f "$KERNEL" ] && grep -q '^CONFIG_LKDTM=y' "$(dirname "$KERNEL")/../../../.config" 2>/dev/null; then
		SUITES=smoke,syscall,soak "$ROOT/harness/stages/image" initramfs "$GUEST/initramfs.cpio" 2>/dev/null
	fi
}

setup() {
	sg_setup
}

result() { echo "# result: $*" >&3; }

need_kernel() {
	[ -f "$GUEST/initramfs.cpio" ] || skip "no lkdtm-enabled 6.1 kernel at $KERNEL (e2e.bats builds it)"
}

# guest NAME APPEND...: boot the kernel once with fresh disks; logs in $G.
guest() {
	G=$BATS_TEST_TMPDIR/$1; shift
	# the disks of the suites it names (fstests' are its own)
	SUITES=$(printf '%s\n' "$@" | sed -n 's/^sg\.suites=//p') "$H/stages/image" disks "$G/disks" 2>/dev/null
	SECONDS=0
	"$H/stages/boot" "$KERNEL" "$GUEST/initramfs.cpio" "$G/disks" "$G" "$@" || true
	BOOT_S=$SECONDS
	"$H/stages/scan" "$G" 2>/dev/null
	# no QEMU of this boot outlives it
	! pgrep -f -- "$G/disks" || return 1
}
kinds() { cut -f1 "$G/failures.tsv" | sort -u | paste -sd' ' -; }
detail() { grep -m1 "^$1	" "$G/failures.tsv" | cut -f2-; }

# ---- the guest: a kernel that panics, oopses, WARNs, hangs ----

@test "fault: an init that never finishes is a boot hang naming the last lines; no QEMU left" {
	need_kernel
	# PID 1 is cat, waiting on the console for ever
	BOOT_STALL=20 guest stall rdinit=/bin/cat
	grep -q '^BOOT_STATUS=stall' "$G/boot.env"
	grep -q 'Run /bin/cat as init process' "$G/console.log"
	# the console's last line, whatever the kernel printed after starting init
	# (a clocksource switch or an input device may come later under TCG)
	tail_line=$(tr -d '\r' < "$G/console.log" | grep . | tail -n 1 | sed 's/^\[ *[0-9.]*\] //' | cut -c1-120)
	[[ "$(detail boot-hang)" == *"last result: none; console: "*"$tail_line" ]]
	result "$(detail boot-hang | cut -c1-160) (${BOOT_S}s)"
}

@test "fault: an oops, then a panic: each named, the oops with its function; the guest died" {
	need_kernel
	guest panic sg.lkdtm=EXCEPTION,PANIC sg.suites=smoke
	grep -q '^BOOT_STATUS=no-finish' "$G/boot.env"
	[[ "$(detail bug)" == "BUG: kernel NULL pointer dereference"*"| RIP: lkdtm_EXCEPTION | trace: "* ]]
	run grep -c '^oops	' "$G/failures.tsv"
	[ "$output" = 0 ]	# its "Oops:" line is part of the same splat
	# (a kernel tainted by an oops prints no stack trace when it panics)
	[[ "$(detail panic)" == "Kernel panic - not syncing: dumptest" ]]
	# the console's last lines name the panic (a loaded host may print another line after it)
	[[ "$(detail guest-died)" == *"never printed its done line; last result: none; console: "*"lkdtm: Performing direct entry PANIC|"* ]]
	result "$(kinds): $(detail bug | cut -c1-110); $(detail panic | cut -c1-110) (${BOOT_S}s)"
}

@test "fault: a WARN and a hung task are named with function names, and every suite still reports" {
	need_kernel
	# (after an oops the kernel stops reporting hung tasks - it is tainted
	# D - so this boot has none; the 5 s limit reports it inside the suites)
	guest splats sg.lkdtm=WARNING,HUNG_TASK sg.suites=smoke,syscall,soak sg.soak_ops=2000 sg.soak_seeds=1 \
		sysctl.kernel.hung_task_timeout_secs=5
	grep -q '^BOOT_STATUS=ok' "$G/boot.env"
	[[ "$(detail warn)" == "WARNING: "*"lkdtm"*"| RIP: lkdtm_WARNING | trace: direct_entry < "* ]]
	[[ "$(detail hung-task)" == "INFO: task "*"blocked for more than 5 seconds."*"trace: "* ]]
	# the suites after the faults: all three reported, cases and all
	[ "$(awk -F'\t' '$1 == "syscall"' "$G/results.tsv" | wc -l)" -ge 80 ]
	[ "$(awk -F'\t' '$1 == "smoke" && $3 == "pass"' "$G/results.tsv" | wc -l)" = 3 ]
	grep -q '^xfs	' "$G/soak.tsv" && grep -q '^ext4	' "$G/soak.tsv"
	result "$(kinds): $(detail warn | cut -c1-100); $(detail hung-task | cut -c1-100) (${BOOT_S}s)"
}

@test "fault: a hung syscall case and hung soak ops are timeouts naming what hung; the rest still runs" {
	need_kernel
	guest hangs sg.suites=syscall,soak sg.soak_ops=2000 sg.soak_seeds=1 \
		"sg.syscall_args=--only,cfr_whole*,--inject,hang,--timeout,5" "sg.soak_args=--inject-hang,500,--hang,10"
	grep -q '^BOOT_STATUS=ok' "$G/boot.env"
	grep -q '^syscall	cfr_whole.xfs	fail	timeout: no result after 5 s, in the call; killed' "$G/results.tsv"
	grep -q '^syscall	cfr_whole.ext4	pass' "$G/results.tsv"
	grep -q '^soak	soak.xfs	fail	hung: no progress for 1[0-9] s in op=500 ' "$G/results.tsv"
	grep -q '^soak	soak.ext4	fail	hung: no progress for 1[0-9] s in op=500 ' "$G/results.tsv"
	[ -s "$G/oplog-xfs.txt" ] && [ -s "$G/oplog-ext4.txt" ]	# replayable
	[ "$(grep -c '^timeout	' "$G/failures.tsv")" = 5 ]	# the syscall case, a soak per profile
	result "$(grep '^timeout' "$G/failures.tsv" | cut -f2 | cut -c1-90 | paste -sd'|' -) (${BOOT_S}s)"
}

@test "fault: a suite that stops printing is killed by the guest's watchdog; the next suite runs" {
	need_kernel
	guest suitestall sg.suites=soak,smoke sg.soak_ops=2000 sg.soak_seeds=1 sg.suite_stall=10 \
		"sg.soak_args=--inject-hang,500,--hang,1000"
	grep -q '^BOOT_STATUS=ok' "$G/boot.env"
	[[ "$(detail suite-error)" == "soak: timeout: no output for 1"*" s (last line: "* ]]
	[ "$(awk -F'\t' '$1 == "smoke" && $3 == "pass"' "$G/results.tsv" | wc -l)" = 3 ]
	result "$(detail suite-error | cut -c1-140) (${BOOT_S}s)"
}

@test "fault: an fstests test past its limit is killed and failed as a timeout; the next test runs" {
	need_kernel
	[ -e "${FSTESTS_SRC:-$ROOT/../shared/peers/fstests-63a29724.tar.xz}" ] || skip "no fstests source"
	# generic/137 runs minutes under TCG (the limit is checked every 10 s, so
	# a test of a few seconds may end before it is); generic/157 comes next
	export SUITES=fstests FSTESTS="generic/137 generic/157" FSTESTS_SECTIONS=xfs FSTESTS_TEST_LIMIT=5
	"$H/stages/image" initramfs "$BATS_TEST_TMPDIR/fstests.cpio" 2>/dev/null
	f=$BATS_TEST_TMPDIR/fstests
	"$H/stages/image" disks "$f/disks" 2>/dev/null
	"$H/stages/boot" "$KERNEL" "$BATS_TEST_TMPDIR/fstests.cpio" "$f/disks" "$f" sg.suites=fstests || true
	"$H/stages/scan" "$f" 2>/dev/null
	grep -q '^BOOT_STATUS=ok' "$f/boot.env"
	grep -q '^fstests	generic/137\.xfs	fail	timeout: ran past 5 s, killed$' "$f/results.tsv"
	grep -q '^timeout	generic/137\.xfs: timeout: ran past 5 s, killed$' "$f/failures.tsv"
	grep -q '^fstests	generic/157\.xfs	' "$f/results.tsv"	# the next test ran
	result "$(cut -f2- "$f/results.tsv" | paste -sd'|' -)"
}

@test "fault: a filesystem that shuts down is named once; the suites go on with the others" {
	need_kernel
	# the first case shuts its XFS down (XFS_IOC_GOINGDOWN), as a log
	# overrun or a corruption would
	guest shutdown sg.suites=syscall,soak,smoke sg.soak_ops=1000 sg.soak_seeds=1 "sg.syscall_args=--only,cfr_*,--inject,shutdown"
	grep -q '^BOOT_STATUS=ok' "$G/boot.env"
	[[ "$(detail fs-error)" == "XFS (vda): "*"shut"* ]] || [[ "$(detail fs-error)" == *"fs xfs down"* ]]
	grep -q '^fs-error	fs xfs down before soak: a probe write failed (shut down?); later suites run without it' "$G/failures.tsv"
	# within the syscall suite: one failure names it, the later xfs cases are skips saying why
	[ "$(grep -c 'xfs: mkdir fails (EIO) since before' "$G/results.tsv")" -gt 5 ]
	[ "$(grep -c '	fail	xfs: mkdir fails (EIO) since before' "$G/results.tsv")" = 1 ]
	[ "$(grep -c '^syscall	cfr_[a-z_0-9]*\.ext4	pass' "$G/results.tsv")" -gt 10 ]
	# the soak ran on ext4 only; smoke, which needs both, says why it did not run
	grep -q '^ext4	' "$G/soak.tsv"
	run grep -c '^xfs	' "$G/soak.tsv"
	[ "$output" = 0 ]
	grep -q '^smoke	smoke	skip	the filesystems it needs are down' "$G/results.tsv"
	result "$(grep -m1 '	fail	xfs: mkdir' "$G/results.tsv" | cut -f2-); $(detail fs-error | cut -c1-80) (${BOOT_S}s)"
}

@test "isolation: QEMU ran with no network device, fresh disks per boot" {
	need_kernel
	guest isolation sg.suites=smoke
	grep -qx -- '-nic' "$G/qemu.cmd"
	[ "$(grep -A1 -x -- '-nic' "$G/qemu.cmd" | tail -n 1)" = none ]
	! grep -qE -- '^-(netdev|net)$' "$G/qemu.cmd" || false
	# every device is a virtio disk
	[ "$(awk 'p { print; p = 0 } $0 == "-device" { p = 1 }' "$G/qemu.cmd" | grep -vc '^virtio-blk-pci,')" = 0 ]
	grep -q 'file=.*/isolation/disks/xfs.img' "$G/qemu.cmd"
	result "qemu: $(grep -A1 -x -- '-nic' "$G/qemu.cmd" | paste -sd' ' -), $(grep -c -- '^-drive$' "$G/qemu.cmd") fresh drives"
}

# ---- the host: bad input, rejects, broken builds, signals, locks, full disks ----

# validate_bg LOG ARGS...: make validate in its own process group, as a
# terminal's foreground job (a background job of a script ignores SIGINT:
# perl puts it back to the default); sets VPID, the group's id.
validate_bg() {
	_log=$1; shift
	setsid perl -e '$SIG{INT} = $SIG{QUIT} = "DEFAULT"; exec @ARGV or die' \
		env "$@" make -C "$R" -s validate > "$_log" 2>&1 3>&- &
	VPID=$!
}
gone() { # gone PGID: every process of the group has exited (within 10 s)
	for _i in $(seq 10); do pgrep -g "$1" >/dev/null || return 0; sleep 1; done
	ps -o pid,stat,args -g "$1"; return 1
}
tree_sum() { (cd "$1" && find . -type f ! -name '.sg-*' ! -name .complete -exec sha256sum {} + | sort | sha256sum); }

@test "bad input: branch.conf, series, apt package and version, KSRC: one line naming the file and line, exit 2" {
	fake_repo 9.9 'tree=apt
package=linux-source-0.0-nosuch
apt_sources="debian:bookworm"'
	run "$R/harness/stages/tree" 9.9
	[ "$status" -eq 2 ]
	[[ "$output" == *"tree: error: $R/backports/9.9/branch.conf:3: package linux-source-0.0-nosuch not found in debian:bookworm" ]]
	result "$(echo "$output" | grep error:)"
	printf 'name=9.9\ntree=apt\npackage=linux-source-6.1\nversion=0.0.0-nosuch\napt_sources="debian:bookworm"\n' > "$R/backports/9.9/branch.conf"
	run "$R/harness/stages/tree" 9.9
	[ "$status" -eq 2 ]
	[[ "$output" == *"branch.conf:4: package linux-source-6.1 version 0.0.0-nosuch not found in debian:bookworm" ]]
	result "$(echo "$output" | grep error:)"
	printf 'name=9.9\ntree=apt\npakage=linux-source-6.1\n' > "$R/backports/9.9/branch.conf"
	run make -C "$R" -s branch=9.9 validate
	[ "$status" -ne 0 ]
	[ "$(echo "$output" | grep -c error)" = 1 ]
	[[ "$output" == *"validate: error: $R/backports/9.9/branch.conf:3: unknown key \"pakage\""* ]]
	result "$(echo "$output" | grep error:)"
	printf 'name=9.9\ntree=ksrc\nmkfs_xfs="-m reflink=1\n' > "$R/backports/9.9/branch.conf"
	run "$R/harness/drivers/validate" 9.9
	[ "$status" -eq 2 ]
	[[ "$output" == *"branch.conf:3: mkfs_xfs must be mkfs options "*', not ""-m reflink=1"' ]]
	printf 'name=9.9\ntree=ksrc\n' > "$R/backports/9.9/branch.conf"
	printf '# a comment\n0001-there.patch\n' > "$R/backports/9.9/series"
	touch "$R/backports/9.9/0001-there.patch"
	echo 0002-missing.patch >> "$R/backports/9.9/series"
	run "$R/harness/drivers/validate" 9.9
	[ "$status" -eq 2 ]
	[[ "$output" == *"validate: error: $R/backports/9.9/series:3: no such patch \"0002-missing.patch\"" ]]
	result "$(echo "$output" | grep error:)"
	mkdir -p "$BATS_TEST_TMPDIR/notatree"
	KSRC=$BATS_TEST_TMPDIR/notatree run "$R/harness/drivers/validate" 4.19
	[ "$status" -eq 2 ]
	[[ "$output" == *"tree: error: KSRC="*"is not a kernel tree"* ]]
	result "$(echo "$output" | grep error)"
	[ ! -d "$R/reports/9.9" ] && [ ! -d "$R/reports/4.19" ]	# no INCONCLUSIVE run dirs
}

@test "apply reject: the patch, file and hunk are named; the cached pristine tree is untouched" {
	fake_branch 9.5
	printf -- '--- a/b.c\n+++ b/b.c\n@@ -1 +1 @@\n-zwei\n+b2\n' > "$R/backports/9.5/0001-x.patch"
	tar -czf "$BATS_TEST_TMPDIR/k.tar.gz" -C "$BATS_TEST_TMPDIR" linux-9.5
	KSRC=$BATS_TEST_TMPDIR/k.tar.gz run "$R/harness/drivers/validate" 9.5
	[ "$status" -eq 1 ]
	d=$R/reports/9.5/latest
	grep -q 'series patched: stablegate: series: error: apply reject: 0001-x.patch does not apply to b.c (Hunk #1 FAILED at 1)' "$d/stage-errors.txt"
	jq -e '.verdict == "INCONCLUSIVE"' "$d/result.json"
	[ "$(tree_sum "$STABLEGATE_CACHE"/src/ksrc-*/)" = "$(tree_sum "$K")" ]
	result "$(cat "$d/stage-errors.txt")"
}

@test "SERIES=: a candidate (directory or mbox) replaces the branch's series; a reject leaves the stable bot's FAILED.txt" {
	fake_branch 9.5
	c=$BATS_TEST_TMPDIR/cand
	mkdir -p "$c"
	mail_patch "$c/0001-a.patch" '[PATCH 1/2] a: one' '[ Upstream commit 1111111111111111111111111111111111111111 ]\n\nSigned-off-by: A U Thor <a@example.org>' \
		'--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-a1\n+a2\n'
	mail_patch "$c/0002-b.patch" '[PATCH 2/2] b: a change that needs a
 long subject line' 'commit 2222222222222222222222222222222222222222 upstream.\n\nStable-dep-of: 3333333333333 ("b: the rework")\nSigned-off-by: A U Thor <a@example.org>' \
		'--- a/b.c\n+++ b/b.c\n@@ -1 +1 @@\n-zwei\n+b3\n'
	KSRC=$K SERIES=$c run "$R/harness/drivers/validate" 9.5
	[ "$status" -eq 1 ]
	d=$R/reports/9.5/latest
	f=$d/FAILED.txt
	[ "$(head -n 1 "$f")" = 'Subject: FAILED: patch "[PATCH] b: a change that needs a long subject line" failed to apply to 9.5-stable tree' ]
	grep -q '^The patch below does not apply to the 9.5-stable tree (KSRC, Linux 4.19.48)\.$' "$f"
	grep -qx 'does not apply to b.c (Hunk #1 FAILED at 1).' "$f"
	grep -q 'stablegate applied it with patch -p1 -F0 (no fuzz): 0002-b.patch$' "$f"
	grep -qx 'git cherry-pick -x 2222222222222222222222222222222222222222' "$f"
	grep -qx 'git fetch https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git/ linux-9.5.y' "$f"
	grep -qx "make branch=9.5 validate KSRC=$K SERIES=$c" "$f"
	grep -qx 'Stable-dep-of: 3333333333333 ("b: the rework")' "$f"
	grep -qx '+b3' "$f"
	j=$d/result.json
	jq -e --arg c "$c" '.verdict == "INCONCLUSIVE" and .series.candidate == $c and .failed_mail == "FAILED.txt"
		and .series.patches == ["0001-a.patch", "0002-b.patch"] and (.series.in_tree | not)
		and .series.baseline == "tree as shipped, without the candidate"' "$j"
	grep -q "^Series: candidate $c, 2 patches" "$d/summary.md"
	grep -q 'baseline: 0 patches applied' "$d/baseline/series.log"	# the branch's own 0001-x is not applied
	result "$(head -n 1 "$f") | $(sed -n 4p "$f")"

	# the same two patches as an mbox behind a cover letter: the cover letter is dropped
	{ printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nFrom: A U Thor <a@example.org>\nSubject: [PATCH 0/2] cover\n\ntwo fixes\n\n'
	  cat "$c/0001-a.patch"; echo; cat "$c/0002-b.patch"; } > "$BATS_TEST_TMPDIR/c.mbox"
	KSRC=$K SERIES=$BATS_TEST_TMPDIR/c.mbox run "$R/harness/drivers/validate" 9.5
	[ "$status" -eq 1 ]
	d=$R/reports/9.5/latest
	jq -e '.series.patches == ["0002.patch", "0003.patch"]' "$d/result.json"
	grep -q 'stablegate applied it with patch -p1 -F0 (no fuzz): 0003.patch$' "$d/FAILED.txt"

	# the good patch alone applies, and leaves no FAILED.txt; the commits the
	# candidate names are its dependencies, probed where a deps.tsv row of
	# the branch has a probe for them
	rm "$c/0002-b.patch"
	printf 'commit\tsubject\tstatus\tpatch\tprobe\twhy\n1111111111111111\ta: one\tcarried\t0001\ta.c:^a2$\tt\n' > "$R/backports/9.5/deps.tsv"
	mail_patch "$c/0002-c.patch" '[PATCH] c: three' 'commit 4444444444444444444444444444444444444444 upstream.\n\nDepends-on: 5555555555555 ("c: the base")' \
		'--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@\n-x\n+y\n'
	KSRC=$K SERIES=$c run "$R/harness/drivers/validate" 9.5
	d=$R/reports/9.5/latest
	grep -q '^series	patched	[0-9]*	ok' "$d/stages.tsv"
	[ ! -f "$d/FAILED.txt" ]
	jq -c ".dependencies[] | [.commit, .claimed, .status, .baseline, .patched]" "$d/result.json" >&3
	jq -e '[.dependencies[] | [.commit, .claimed, .status]] == [["111111111111", "carried", "carried"],
		["444444444444", "carried", "not probed"], ["555555555555", "present", "not probed"]]' "$d/result.json"
	jq -e '.dependencies[0].baseline == "nomatch" and .dependencies[0].patched == "match"
		and (.dependencies[2].subject == "c: the base")' "$d/result.json"
	SERIES=$BATS_TEST_TMPDIR/nosuch run "$R/harness/drivers/validate" 9.5
	[ "$status" -eq 2 ]
	[[ "$output" == *"SERIES=$BATS_TEST_TMPDIR/nosuch: takes an existing file or directory"* ]]
}

@test "build error: the file and first error are named; the unbroken series then builds" {
	fake_branch 9.5
	printf -- '--- a/a.c\n+++ b/a.c\n@@ -1 +1,2 @@\n a1\n+#error broken by 0002\n' > "$R/backports/9.5/0002-y.patch"
	echo 0002-y.patch >> "$R/backports/9.5/series"
	KSRC=$K VARIANTS=patched run "$R/harness/drivers/validate" 9.5
	[ "$status" -eq 1 ]
	d=$R/reports/9.5/latest
	grep -q '^build patched: stablegate: build: error: build error: a.c:1:2: error: #error broken by 0002' "$d/stage-errors.txt"
	result "$(cat "$d/stage-errors.txt")"
	echo 0001-x.patch > "$R/backports/9.5/series"
	KSRC=$K VARIANTS=patched run "$R/harness/drivers/validate" 9.5
	d=$R/reports/9.5/latest
	grep -q '^build	patched	[0-9]*	ok' "$d/stages.tsv"
	[ "$(cat "$STABLEGATE_CACHE/build/9.5-patched/arch/x86/boot/bzImage")" = "$(printf 'a1\nheader-1\nb2\nheader-1')" ]
}

@test "SIGINT and SIGTERM during extraction and build: no partial tree reused, no stale lock, no process left" {
	fake_branch 9.5
	tar -czf "$BATS_TEST_TMPDIR/k.tar.gz" -C "$BATS_TEST_TMPDIR" linux-9.5
	# a slow extraction: tar unpacks, then takes 30 s more before the tree is moved into place
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\n/bin/tar "$@" || exit\ncase "$*" in *-x*) sleep 30;; esac\n' > "$BATS_TEST_TMPDIR/bin/tar"
	chmod +x "$BATS_TEST_TMPDIR/bin/tar"
	for sig in INT TERM; do
		validate_bg "$BATS_TEST_TMPDIR/x.log" PATH="$BATS_TEST_TMPDIR/bin:$PATH" \
			KSRC="$BATS_TEST_TMPDIR/k.tar.gz" VARIANTS=patched branch=9.5
		wait_for "$BATS_TEST_TMPDIR/x.log" 'extracting k.tar.gz'
		sleep 1
		kill -$sig -- -$VPID
		gone $VPID
		# nothing that looks complete: no tree, no .part dir
		[ "$(ls "$STABLEGATE_CACHE/src")" = "$(cd "$STABLEGATE_CACHE/src" && ls ksrc-*.lock)" ]
		result "SIG$sig during extraction: only $(ls "$STABLEGATE_CACHE/src") left, no process"
	done
	# the next run extracts afresh (what was left is never taken for a tree)
	# and takes the locks without waiting
	KSRC=$BATS_TEST_TMPDIR/k.tar.gz VARIANTS=patched run "$R/harness/drivers/validate" 9.5
	[[ "$output" == *"extracting k.tar.gz"* ]]
	[[ "$output" != *"waiting"* ]]
	[ "$(tree_sum "$STABLEGATE_CACHE"/src/ksrc-*/)" = "$(tree_sum "$K")" ]
	# a slow build (from scratch: the run above built it)
	for sig in INT TERM; do
		rm -rf "$STABLEGATE_CACHE/build/9.5-patched"
		validate_bg "$BATS_TEST_TMPDIR/b.log" FAKE_SLOW=30 KSRC="$BATS_TEST_TMPDIR/k.tar.gz" VARIANTS=patched branch=9.5
		sleep 1
		wait_for "$R/reports/9.5/latest/patched/build.log" "  CC "
		kill -$sig -- -$VPID
		gone $VPID
		result "SIG$sig during the build: no process left"
	done
	# the next run builds, without waiting on a lock
	KSRC=$BATS_TEST_TMPDIR/k.tar.gz VARIANTS=patched run "$R/harness/drivers/validate" 9.5
	[[ "$output" != *"waiting"* ]]
	grep -q '^build	patched	[0-9]*	ok' "$R/reports/9.5/latest/stages.tsv"
	[ "$(cat "$STABLEGATE_CACHE/build/9.5-patched/arch/x86/boot/bzImage")" = "$(printf 'a1\nheader-1\nb2\nheader-1')" ]
}

@test "SIGTERM to a stage's pid alone: what it started ends with it, and its temporary dirs go" {
	fake_branch 9.5
	tar -czf "$BATS_TEST_TMPDIR/k.tar.gz" -C "$BATS_TEST_TMPDIR" linux-9.5
	mkdir -p "$BATS_TEST_TMPDIR/bin" "$BATS_TEST_TMPDIR/tmp"
	# a slow tar and a slow make, each writing its pid
	printf '#!/bin/sh
echo $$ > "%s/tar.pid"
/bin/tar "$@" || exit
case "$*" in *-x*) sleep 30;; esac
' \
		"$BATS_TEST_TMPDIR" > "$BATS_TEST_TMPDIR/bin/tar"
	printf '#!/bin/sh
echo $$ > "%s/make.pid"
exec sleep 30
' "$BATS_TEST_TMPDIR" > "$BATS_TEST_TMPDIR/bin/make"
	chmod +x "$BATS_TEST_TMPDIR/bin/tar" "$BATS_TEST_TMPDIR/bin/make"
	# validate, during the extraction
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" KSRC="$BATS_TEST_TMPDIR/k.tar.gz" VARIANTS=patched \
		"$R/harness/drivers/validate" 9.5 > "$BATS_TEST_TMPDIR/v.log" 2>&1 3>&- &
	v=$!
	wait_for "$BATS_TEST_TMPDIR/v.log" 'extracting k.tar.gz'
	sleep 1
	kill -TERM "$v"
	for p in $v $(cat "$BATS_TEST_TMPDIR/tar.pid"); do
		for _i in $(seq 5); do kill -0 "$p" 2>/dev/null || break; sleep 1; done
		! kill -0 "$p" 2>/dev/null || { ps -o pid,args -p "$p"; false; }
	done
	! ls "$STABLEGATE_CACHE"/src/ | grep -v '[.]lock$' || false
	# the initramfs stage, while it builds the suites
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" TMPDIR="$BATS_TEST_TMPDIR/tmp" \
		"$R/harness/stages/image" initramfs "$BATS_TEST_TMPDIR/i.cpio" 3>&- &
	i=$!
	wait_for "$BATS_TEST_TMPDIR/make.pid" '^[0-9]+$' 30
	kill -TERM "$i"
	for p in $i $(cat "$BATS_TEST_TMPDIR/make.pid"); do
		for _i in $(seq 5); do kill -0 "$p" 2>/dev/null || break; sleep 1; done
		! kill -0 "$p" 2>/dev/null || { ps -o pid,args -p "$p"; false; }
	done
	[ -z "$(ls "$BATS_TEST_TMPDIR/tmp")" ] && [ ! -e "$BATS_TEST_TMPDIR/i.cpio" ]
	result "validate's tar and the initramfs stage's make ended with them; no staging dir left"
}

@test "two validates at once: different branches both succeed; the same branch waits on its lock" {
	need_kernel
	fake_branch 9.5
	K5=$K
	fake_repo 9.4 'tree=ksrc
series_in_tree=no'
	cp "$R/backports/9.5/0001-x.patch" "$R/backports/9.5/series" "$R/backports/9.4/"
	fake_tree "$BATS_TEST_TMPDIR/linux-9.4" a1 b1
	common="FAKE_KERNEL=$KERNEL FAKE_SLOW=3 VARIANTS=patched SUITES=smoke"
	validate_bg "$BATS_TEST_TMPDIR/a.log" $common KSRC="$K5" branch=9.5
	a=$VPID
	validate_bg "$BATS_TEST_TMPDIR/b.log" $common KSRC="$BATS_TEST_TMPDIR/linux-9.4" branch=9.4
	b=$VPID
	wait_for "$BATS_TEST_TMPDIR/a.log" '== build'
	validate_bg "$BATS_TEST_TMPDIR/c.log" $common KSRC="$K5" branch=9.5
	c=$VPID
	for p in $a $b $c; do wait $p || { tail -n 5 "$BATS_TEST_TMPDIR"/[abc].log; false; }; done
	cat "$BATS_TEST_TMPDIR"/[abc].log | grep -E 'verdict:|waiting'
	grep -q 'another run of branch 9.5 holds its work and build dirs; waiting' "$BATS_TEST_TMPDIR/c.log"
	! grep -q waiting "$BATS_TEST_TMPDIR/a.log" "$BATS_TEST_TMPDIR/b.log" || false
	for l in a b c; do grep -q 'verdict: SAFE' "$BATS_TEST_TMPDIR/$l.log"; done
	# two 9.5 runs, both complete; the second reused the first one's work copy and build
	[ "$(ls "$R/reports/9.5" | grep -c T)" = 2 ]
	grep -q 'reusing' "$R/reports/9.5/latest/patched/series.log"
	[ "$(grep -c '^  CC ' "$R/reports/9.5/latest/patched/build.log")" = 0 ]
	result "$(grep -h 'waiting' "$BATS_TEST_TMPDIR/c.log"); all three: $(grep -h 'verdict:' "$BATS_TEST_TMPDIR"/[abc].log | sed 's/.*verdict: \([A-Z]*\).*/\1/' | paste -sd' ' -)"
}

@test "a full cache disk: one line naming the stage, nothing half-written left looking complete" {
	[ "$(id -u)" = 0 ] || skip "needs root to mount a size-limited tmpfs as the cache"
	fake_branch 9.5
	# a tree with 2.1 GB of (compressible) data, for a 2010 MiB cache that
	# passes the stage's 2000 MiB free-space check and fills up mid-extraction
	truncate -s 2100M "$K/big.bin"
	tar -czf "$BATS_TEST_TMPDIR/k.tar.gz" -C "$BATS_TEST_TMPDIR" linux-9.5
	rm "$K/big.bin"
	mkdir -p "$STABLEGATE_CACHE"
	mount -t tmpfs -o size=2010m sg-cache-test "$STABLEGATE_CACHE"
	KSRC=$BATS_TEST_TMPDIR/k.tar.gz run "$R/harness/stages/tree" 9.5
	found=$(ls -d "$STABLEGATE_CACHE"/src/ksrc-*/ "$STABLEGATE_CACHE"/src/*.part.* 2>/dev/null || true)
	umount "$STABLEGATE_CACHE"
	[ "$status" -eq 1 ]
	[ "$(echo "$output" | grep -c 'error:')" = 1 ]
	[[ "$output" == *"tree: error: cannot extract "*"Wrote only "*"; 0 MiB left in $STABLEGATE_CACHE/src" ]]
	[ -z "$found" ]
	result "$(echo "$output" | grep error:)"
}

@test "SIGINT and SIGTERM during the boot: QEMU ends with the run; the lock is free" {
	fake_branch 9.5
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	# a VM that never finishes, and says who it is
	printf '#!/bin/sh\necho $$ > "%s/qemu.pid"\nexec sleep 600\n' "$BATS_TEST_TMPDIR" > "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	chmod +x "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	for sig in INT TERM; do
		rm -f "$BATS_TEST_TMPDIR/qemu.pid"
		validate_bg "$BATS_TEST_TMPDIR/q.log" PATH="$BATS_TEST_TMPDIR/bin:$PATH" ACCEL=tcg \
			KSRC="$K" VARIANTS=patched SUITES=smoke branch=9.5
		wait_for "$BATS_TEST_TMPDIR/qemu.pid" '^[0-9]+$' 120 || { cat "$BATS_TEST_TMPDIR/all.log"; kill -TERM -- -$apid; false; }
		q=$(cat "$BATS_TEST_TMPDIR/qemu.pid")
		kill -$sig -- -$VPID
		gone $VPID
		for _i in $(seq 15); do kill -0 "$q" 2>/dev/null || break; sleep 1; done
		! kill -0 "$q" 2>/dev/null || { ps -o pid,pgid,args -p "$q"; false; }
		result "SIG$sig during the boot: the VM ($q) is gone"
	done
	# the next run takes the branch lock without waiting
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" ACCEL=tcg BOOT_TIMEOUT=5 KSRC="$K" VARIANTS=patched SUITES=smoke \
		"$R/harness/drivers/validate" 9.5
	[[ "$output" != *"waiting"* ]]
}

@test "SIGTERM to validate-all during a boot: the VM ends with it; the lock is free" {
	fake_branch 9.5
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho $$ > "%s/qemu.pid"\nexec sleep 600\n' "$BATS_TEST_TMPDIR" > "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	chmod +x "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	mkdir -p "$BATS_TEST_TMPDIR/kd"
	ln -s "$K" "$BATS_TEST_TMPDIR/kd/linux-9.5"
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" ACCEL=tcg KSRC_DIR="$BATS_TEST_TMPDIR/kd" VARIANTS=patched SUITES=smoke \
		setsid "$R/harness/drivers/validate-all" 9.5 > "$BATS_TEST_TMPDIR/all.log" 2>&1 3>&- &
	apid=$!
	wait_for "$BATS_TEST_TMPDIR/qemu.pid" '^[0-9]+$' 120 || { cat "$BATS_TEST_TMPDIR/all.log"; kill -TERM -- -$apid; false; }
	q=$(cat "$BATS_TEST_TMPDIR/qemu.pid")
	kill -TERM "$apid"
	for _i in $(seq 15); do kill -0 "$q" 2>/dev/null || break; sleep 1; done
	! kill -0 "$q" 2>/dev/null || { ps -o pid,pgid,args -p "$q"; cat "$BATS_TEST_TMPDIR/all.log"; false; }
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" ACCEL=tcg BOOT_TIMEOUT=5 KSRC="$K" VARIANTS=patched SUITES=smoke \
		"$R/harness/drivers/validate" 9.5
	[[ "$output" != *"waiting"* ]]
	# KSRC reached through a link: the series went into a copy, not the tree
	[ "$(cat "$K/b.c")" = b1 ]
}
