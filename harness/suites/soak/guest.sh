# shellcheck shell=sh disable=SC2154 # SOAK_OPS, SOAK_SEEDS: harness/lib/defaults.sh, which the guest init sources; live: the init's
# harness/suites/soak/guest.sh: how the guest runs sg-soak (the interface:
# harness/suites/README.md). sg.soak_ops=, sg.seed=, sg.soak_seeds=, sg.soak_args=
# (commas for spaces) set the run; with a /replay.log in the initramfs, the soak
# re-runs that op log on sg.replay_fs= (SOAK_REPLAY=), or with
# sg.minimise=SECS shortens it for at most SECS s (harness/drivers/minimise).
ops=$(sg_arg soak_ops "$SOAK_OPS")
seeds=$(sg_arg soak_seeds "$SOAK_SEEDS")
minimise=$(sg_arg minimise '')
replay_fs=$(sg_arg replay_fs xfs)
suite_cmd() {
	if [ -f /replay.log ] && [ -n "$minimise" ]; then
		up "$replay_fs" && echo "sg-soak --minimise /replay.log --fs $replay_fs:/mnt/$replay_fs --minimise-secs $minimise --drop-caches"
	elif [ -f /replay.log ]; then
		up "$replay_fs" && echo "sg-soak --replay /replay.log --fs $replay_fs:/mnt/$replay_fs"
	else
		_a=
		# Every profile up (tmpfs is not one: the soak is about disk filesystems)
		for _fs in $live; do [ "$_fs" = tmpfs ] || _a="$_a --fs $_fs:/mnt/$_fs"; done
		# VM_CPUS of 2 or more: the profiles and seeds soak at once.
		[ -z "$_a" ] || [ "$(grep -c '^processor' /proc/cpuinfo)" -lt 2 ] || _a="$_a --parallel"
		[ -n "$_a" ] && echo "sg-soak$_a --ops $ops --seed $(sg_arg seed 1) --seeds $seeds $(sg_arg soak_args '')"
	fi
}
# 20 ops/s per filesystem and seed (TCG runs 80-900 here; KASAN 27-52),
# plus setup.
# Minimising: its bound, plus at 20 ops/s the log's ops 6 times over (its
# first run, a try begun at the bound, the result's own run and 3 reruns:
# at most the log each).
suite_limit() {
	if [ -n "$minimise" ]; then
		_ops=$(sed -n 's/.*op=\([0-9]*\) .*/\1/p' /replay.log | tail -n 1)
		echo $((600 + minimise + ${_ops:-0} * 3 / 10))
	else
		echo $((600 + ops * seeds / 10))
	fi
}
