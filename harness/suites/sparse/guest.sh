# shellcheck shell=sh
# harness/suites/sparse/guest.sh: sourced, in a subshell, by harness/guest/init
# in the VM (busybox ash). sg-sparse runs on each of xfs, ext4 and tmpfs that
# is up (mounted at /mnt/FS and healthy); none up: nothing, a SKIP.
# sg.sparse_args= on the kernel command line (commas for spaces) adds
# arguments, e.g. sg.sparse_args=--only,clone_* or --timeout,60.
# The cases take seconds; the init's default limit (600 s) stands.

# shellcheck disable=SC2034 # read by the init
suite_skip="xfs, ext4 and tmpfs are all down"

suite_cmd() {
	_a=
	for _fs in xfs ext4 tmpfs; do
		up $_fs && _a="$_a --fs $_fs:/mnt/$_fs"
	done
	[ -n "$_a" ] || return 0
	_x=$(sg_arg sparse_args '')
	echo "sg-sparse$_a${_x:+ $_x}"
}
