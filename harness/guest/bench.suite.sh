# shellcheck shell=sh disable=SC2034,SC2154 # suite_skip: the init reads it; SOAK_OPS: defaults.sh
# harness/guest/bench.suite.sh: the bench as a suite of the guest's init
# (harness/suites/README.md): harness/drivers/bench puts it in the initramfs
# as /suites/bench.sh, beside /bench, and boots with sg.suites=bench and
# the bench's own sg.suite_limit=.
suite_skip="a filesystem is down"
suite_cmd() {
	up xfs && up ext4 && echo "sh /bench $(sg_arg soak_ops "$SOAK_OPS") $(sg_arg seed 1)"
}
