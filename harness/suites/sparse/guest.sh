# shellcheck shell=sh disable=SC2154 # live: the guest init's; REPEAT: the run's settings
# harness/suites/sparse/guest.sh: sourced, in a subshell, by harness/guest/init
# in the VM (busybox ash). sg-sparse runs on each filesystem that is up (every
# profile mounted at /mnt/<profile> and the tmpfs, healthy); none: a SKIP.
# A failing case runs REPEAT times in all (flaky k/n).
# sg.sparse_args= on the kernel command line (commas for spaces) adds
# arguments, e.g. sg.sparse_args=--only,clone_* or --timeout,60.
# The cases take seconds; the init's default limit (600 s) stands.

# shellcheck disable=SC2034 # read by the init
suite_skip="every filesystem is down"

suite_cmd() {
	_a=
	for _fs in $live; do _a="$_a --fs $_fs:/mnt/$_fs"; done
	[ -n "$_a" ] || return 0
	_x=$(sg_arg sparse_args '')
	echo "sg-sparse --repeat $REPEAT$_a${_x:+ $_x}"
}
