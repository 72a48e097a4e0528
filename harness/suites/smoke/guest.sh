# shellcheck shell=sh
# harness/suites/smoke/guest.sh: how the guest runs sg-smoke (the interface:
# harness/suites/README.md): on xfs and ext4 together, or not at all.
suite_cmd() {
	up xfs && up ext4 && echo "sg-smoke /mnt/xfs /mnt/ext4"
}
