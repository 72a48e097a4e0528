# shellcheck shell=sh disable=SC2154 # FSTESTS_LIMIT: the run's settings, which the guest init sources
# harness/suites/fstests/guest.sh: how the guest runs sg-fstests (the
# interface: harness/suites/README.md). It runs when the host made its disks
# (harness/suites/fstests/disks: a Debian root with fstests, a test and a
# scratch disk); the settings (FSTESTS, FSTESTS_SECTIONS, ...) are the run's.

# shellcheck disable=SC2034 # read by the init
suite_skip="no fstests disks: the host had no fstests source (FSTESTS_SRC)"

suite_cmd() {
	[ -e /sys/block/vdc ] && grep -qx fstests-root /sys/block/vd*/serial 2>/dev/null && echo sg-fstests
}
suite_limit() { echo "$FSTESTS_LIMIT"; }
