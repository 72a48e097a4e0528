# shellcheck shell=sh disable=SC2154 # live: the guest init's; REPEAT: the run's settings
# harness/suites/syscall/guest.sh: how the guest runs sg-syscall (the
# interface: harness/suites/README.md): every filesystem up, and each pair
# of them across which a copy or clone is tried; a failing case run REPEAT
# times in all (flaky k/n). sg.syscall_args= adds options (commas for spaces).
suite_cmd() {
	_a=
	for _fs in $live; do _a="$_a --fs $_fs:/mnt/$_fs"; done
	for _x in xfs:ext4 ext4:xfs tmpfs:xfs; do
		up ${_x%:*} && up ${_x#*:} && _a="$_a --cross $_x"
	done
	[ -n "$_a" ] && echo "sg-syscall --guest --repeat $REPEAT$_a $(sg_arg syscall_args '')"
}
