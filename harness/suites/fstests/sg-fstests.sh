#!/bin/sh
# sg-fstests: fstests' check in the guest, as KTAP (harness/suites/fstests/README.md).
# Runs in the initramfs (busybox): mounts the Debian root the host made
# (harness/suites/fstests/disks; its disks found by their serials), enters
# it with chroot and runs `./check -s SECTION $FSTESTS` for each section of
# FSTESTS_SECTIONS (xfs, ext4, or FS_anything: FSTYP is the part before the
# "_"), with the branch's mkfs options and a profile's (harness/lib/profiles.tsv:
# section xfs_1k is XFS with 1 KiB blocks). Settings: the run's, /settings.sh.
#
# Out: KTAP, one result per test and section, named <test>.<section>
# ("generic/157.xfs"): ok; ok # SKIP for fstests' "[not run]" (its reason)
# and "[expunged]" (the branch's backports/<b>/suites/fstests/
# expunge-<section>: a test a line, "# why; fails k of n runs"); not ok
# with what check said. The plan is check -n's list, so a test check never
# reached is missing, not passed. A test still running after
# FSTESTS_TEST_LIMIT s is killed (check records it failed and goes on); a
# "# fstests:" progress line every 60 s says which test is running.
# Exit 0 when every planned test ran and none failed.
# shellcheck disable=SC1091 # the initramfs's own files
. /settings.sh; . /defaults.sh
R=/fstests-root O=/run/fstests.out

planned=
bail() { [ -n "$planned" ] || echo "KTAP version 1"; echo "Bail out! $*"; exit 1; }
disk() {
	for _b in /sys/block/vd*; do
		[ "$(cat "$_b/serial" 2>/dev/null)" = "$1" ] && { echo "/dev/${_b##*/}"; return 0; }
	done
	return 1
}
root=$(disk fstests-root) && test=$(disk fstests-test) && scratch=$(disk fstests-scratch) ||
	bail "no fstests disks (serials fstests-root, -test, -scratch)"
mkdir -p $R
mount -t ext4 "$root" $R || bail "cannot mount the fstests root $root"
mount -t proc proc $R/proc && mount -t sysfs sysfs $R/sys && mount -o bind /dev $R/dev &&
	mount -t tmpfs tmpfs $R/tmp && mount -t tmpfs tmpfs $R/run || bail "cannot set up the fstests root"
mkdir -p $R/dev/shm && mount -t tmpfs tmpfs $R/dev/shm
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd	# bash's <(...), which check uses
mount -t debugfs debugfs $R/sys/kernel/debug 2>/dev/null

# config SECTION: local.config holding that section alone (check takes its
# first section's settings before -s picks one): the disks, FSTYP (the
# part of the name before "_") and the branch's mkfs options for it, then
# those of the profile of that name (/profiles.tsv: xfs_1k), if one is.
mkfs_opts() {
	_x=$(awk -F '\t' -v n="$1" '$1 == n && $2 != "-" { print $2 }' /profiles.tsv)
	case ${1%%_*} in xfs) echo "$MKFS_XFS $_x" ;; ext4) echo "$MKFS_EXT4 $_x" ;; esac
}
config() {
	printf '[%s]\nFSTYP=%s\nTEST_DEV=%s\nTEST_DIR=/mnt/test\nSCRATCH_DEV=%s\nSCRATCH_MNT=/mnt/scratch\nMKFS_OPTIONS="%s"\n' \
		"$1" "${1%%_*}" "$test" "$scratch" "$(mkfs_opts "$1")" > $R/fstests/local.config
}

# check ARG...: fstests' check in the Debian root, in a clean environment.
check() {
	chroot $R /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
		/bin/bash -c 'cd /fstests && exec ./check "$@"' check "$@"
}

# prepare SECTION: its local.config, and TEST_DEV made with its filesystem
# (check mounts TEST_DEV before it would remake it, even for -n).
prepare() {
	umount $R/mnt/test $R/mnt/scratch 2>/dev/null
	config "$1"
	case $1 in xfs*) _force=-f ;; *) _force=-F ;; esac
	# shellcheck disable=SC2046 # the mkfs options, as words
	chroot $R /usr/bin/env PATH=/usr/sbin:/usr/bin:/sbin:/bin mkfs -t "${1%%_*}" $_force $(mkfs_opts "$1") "$test" \
		> /run/mkfs.$1 2>&1 || bail "mkfs of TEST_DEV for $1 failed: $(tail -n 1 /run/mkfs.$1)"
}

# The plan: each section's list (check -n lists without running).
set -f
n=0
for sec in $FSTESTS_SECTIONS; do
	prepare "$sec"
	# shellcheck disable=SC2086 # FSTESTS: test names and check's options
	check -n -s "$sec" $FSTESTS > /run/list.$sec 2>&1
	k=$(grep -cE '^[a-z0-9]+/[0-9]+' /run/list.$sec)
	[ "$k" -gt 0 ] || { sed 's/^/# /' /run/list.$sec; bail "check -n -s $sec listed no tests: $(tail -n 1 /run/list.$sec)"; }
	n=$((n + k))
done
echo "KTAP version 1"
echo "1..$n"
planned=1

# kill_tree PID: SIGKILL to every process under PID, then to PID.
kill_tree() {
	for _c in $(grep -l "^PPid:[[:space:]]*$1\$" /proc/[0-9]*/status 2>/dev/null); do
		_c=${_c#/proc/}
		kill_tree "${_c%/status}"
	done
	kill -KILL "$1" 2>/dev/null
}

# ticker: every 10 s until killed, the test now running (the first word of
# the last line of check's output); a progress line each 60 s, and the
# test (bash /fstests/tests/<test> and everything under it) killed once it
# has run FSTESTS_TEST_LIMIT s (named in /run/killed, which to_ktap reads).
ticker() {
	set +f
	_cur= _t=0
	while :; do
		sleep 10
		_now=$(tail -c 300 $O | tr '\r' '\n' | tail -n 1 | cut -d' ' -f1)
		case $_now in */[0-9]*) ;; *) _now= ;; esac
		if [ "$_now" != "$_cur" ]; then _cur=$_now _t=0; continue; fi
		[ -n "$_cur" ] || continue
		_t=$((_t + 10))
		[ $((_t % 60)) != 0 ] || echo "# fstests: $_cur running ${_t} s"
		[ "$_t" -ge "$FSTESTS_TEST_LIMIT" ] || continue
		_k=0
		for _p in /proc/[0-9]*; do
			{ tr '\0' ' ' < "$_p/cmdline"; } 2>/dev/null | grep -q "/tests/$_cur\( \|$\)" &&
				kill_tree "${_p#/proc/}" && _k=$((_k + 1))
		done
		if [ $_k -gt 0 ]; then
			echo "# fstests: $_cur past ${FSTESTS_TEST_LIMIT} s: killed"
			echo "$_cur" >> /run/killed
		fi
	done
}

# to_ktap N0 SECTION: check's output as KTAP results from number N0+1 on,
# the diff lines under a failure as diagnostics; at its end every test of
# the section's list that check never reported, as missing. The last
# number in /run/done.
to_ktap() {
	awk -v n="$1" -v sec="$2" -v limit="$FSTESTS_TEST_LIMIT" -v list="/run/list.$2" -v xfile="$R/tmp/expunge" '
	function say(s) { print s; fflush() }
	/^[a-z0-9]+\/[0-9]+/ {
		t = $1; rest = $0; sub(/^[^ ]+ */, "", rest); n++; seen[t] = 1
		killed = 0
		while ((getline k < "/run/killed") > 0) if (k == t) killed = 1
		close("/run/killed")
		if (rest ~ /\[not run\]/) { sub(/.*\[not run\] */, "", rest); say("ok " n " " t "." sec " # SKIP " rest) }
		else if (rest ~ /\[expunged\]/) {
			why = "the branch\047s expunge list"
			while ((getline x < xfile) > 0) if (x ~ "^" t "[ \t#]" && sub(/^[^#]*# */, "", x)) why = why ": " x
			close(xfile)
			say("ok " n " " t "." sec " # SKIP expunged: " why)
		}
		else if (killed) say("not ok " n " " t "." sec " # timeout: ran past " limit " s, killed")
		else if (rest ~ /_check_[a-z0-9_]*filesystem/) say("not ok " n " " t "." sec " # corrupt: " rest)
		else if (rest ~ /output mismatch|\[failed|_check_|\[dumped core\]|no qualified output|no such test/) {
			sub(/- output mismatch/, "output differs from the golden output", rest)
			say("not ok " n " " t "." sec " # " rest)
		} else say("ok " n " " t "." sec)
		next
	}
	/^    / { say("# " $0); next }
	/[^ ]/ && !($0 in said) { said[$0]; say("# " sec ": " $0) }
	END {
		while ((getline l < list) > 0) {
			if (l !~ /^[a-z0-9]+\/[0-9]+/) continue
			split(l, w, " ")
			if (!(w[1] in seen)) say("not ok " ++n " " w[1] "." sec " # missing: check never reported it")
		}
		print n > "/run/done"
	}'
}

fail=0 i=0
for sec in $FSTESTS_SECTIONS; do
	: > $O; : > /run/killed
	prepare "$sec"
	# The branch's known failures of this section (kdevops' expunge lists).
	x=/suites/fstests.d/expunge-$sec
	[ -f "$x" ] || x=/dev/null
	cp "$x" $R/tmp/expunge
	t0=$(date +%s)
	ticker &
	tpid=$!
	# shellcheck disable=SC2086
	check -s "$sec" -E /tmp/expunge $FSTESTS 2>&1 | tee $O | to_ktap $i "$sec" | tee /run/ktap.$sec
	kill $tpid 2>/dev/null
	i=$(cat /run/done)
	echo "# fstests $sec: $(grep -c '^ok .*# SKIP' /run/ktap.$sec) not run, $(grep -c '^not ok' /run/ktap.$sec) failed, $(grep -c '^ok [0-9]* [^#]*$' /run/ktap.$sec) passed in $(( $(date +%s) - t0 )) s"
	! grep -q '^not ok' /run/ktap.$sec || fail=1
done
umount $R/sys/kernel/debug $R/dev/shm $R/run $R/tmp $R/dev $R/sys $R/proc 2>/dev/null
umount $R 2>/dev/null
exit $fail
