#!/usr/bin/env bats
# Tests for harness/suites/soak (sg-soak). Host only: a tmpfs dir (/dev/shm)
# and a disk dir (/tmp, ext4 here); nothing is mounted.

setup_file() {
	make -s -C "$BATS_TEST_DIRNAME/../suites/soak" >&2
}

setup() {
	SOAK="$BATS_TEST_DIRNAME/../suites/soak/sg-soak"
	TMPFS=$(mktemp -d /dev/shm/sg-soak-bats.XXXXXX)
	DISK=$(mktemp -d /tmp/sg-soak-bats.XXXXXX)
	[ "$(stat -f -c %T /dev/shm)" = tmpfs ] || skip "/dev/shm is not tmpfs"
}

teardown() {
	rm -rf "$TMPFS" "$DISK"
}

# the offset in "# inject-corruption: after op N: file fF off Y ..."
injected_off() { sed -n 's/^# inject-corruption: after op \([0-9]*\): file f[0-9]* off \([0-9]*\) .*/\2/p' <<<"$1"; }
injected_op() { sed -n 's/^# inject-corruption: after op \([0-9]*\):.*/\1/p' <<<"$1"; }
result_line() { grep -E '^(not )?ok 1 soak\.' <<<"$1"; }

@test "binary is static and usage errors exit 2" {
	! readelf -l "$SOAK" | grep -q INTERP || false
	run "$SOAK"
	[ "$status" -eq 2 ]
	run "$SOAK" --fs tmpfs:"$TMPFS" --weights nosuch=1
	[ "$status" -eq 2 ]
	run "$SOAK" --fs tmpfs:"$TMPFS" --bogus
	[ "$status" -eq 2 ]
	run "$SOAK" --fs "bad name:$TMPFS"
	[ "$status" -eq 2 ]
	run "$SOAK" --help
	[ "$status" -eq 0 ]
}

@test "100000 ops with a fixed seed pass on tmpfs" {
	run "$SOAK" --fs tmpfs:"$TMPFS" --ops 100000 --seed 424242
	echo "$output" | grep -v '^# progress'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "KTAP version 1" ]
	[ "${lines[1]}" = "1..1" ]
	grep -qx '# seed=424242' <<<"$output"
	grep -q '^# cmdline: sg-soak .*--seed 424242' <<<"$output"
	grep -q '^# soak-stats name=tmpfs ops=100000 secs=[0-9.]* ops_per_sec=[0-9]* read=[1-9]' <<<"$output"
	grep -q '^# note: tmpfs: clone unsupported' <<<"$output"
	grep -qx 'ok 1 soak.tmpfs' <<<"$output"
	[ -z "$(ls -A "$TMPFS")" ]     # cleaned up on success
}

@test "100000 ops with a fixed seed pass on the disk fs (ext4)" {
	run "$SOAK" --fs ext4:"$DISK" --ops 100000 --seed 424242
	echo "$output" | grep -v '^# progress'
	[ "$status" -eq 0 ]
	grep -qx 'ok 1 soak.ext4' <<<"$output"
	grep -q '^# soak-stats name=ext4 ops=100000 .* collapse=[1-9][0-9]* insert=[1-9]' <<<"$output"
	[ -z "$(ls -A "$DISK")" ]
}

@test "several --fs give one KTAP result each; workers mode passes" {
	run "$SOAK" --fs a:"$TMPFS" --fs b:"$DISK" --ops 3000 --workers 3 --seed 7 --progress 1
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx '1..2' <<<"$output"
	grep -qx 'ok 1 soak.a' <<<"$output"
	grep -qx 'ok 2 soak.b' <<<"$output"
	grep -q '^# soak-stats name=a ops=9000 ' <<<"$output"
	grep -q '^# progress name=a ops=' <<<"$output"
}

@test "the same seed gives the same op sequence (records byte for byte)" {
	for i in 1 2; do
		run "$SOAK" --fs tmpfs:"$TMPFS" --ops 20000 --seed 99 --record "$TMPFS/rec$i"
		[ "$status" -eq 0 ]
	done
	cmp "$TMPFS/rec1" "$TMPFS/rec2"
	[ "$(grep -c '^op=' "$TMPFS/rec1")" -eq 20000 ]
	run "$SOAK" --fs tmpfs:"$TMPFS" --ops 20000 --seed 100 --record "$TMPFS/rec3"
	! cmp -s "$TMPFS/rec1" "$TMPFS/rec3" || false
	# replaying a full record re-executes it exactly
	run "$SOAK" --fs tmpfs:"$TMPFS" --replay "$TMPFS/rec1" --record "$TMPFS/rec4"
	[ "$status" -eq 0 ]
	cmp "$TMPFS/rec1" "$TMPFS/rec4"
}

@test "the verifier catches an injected corruption for 50 seeds, naming op and offset" {
	for seed in $(seq 1 50); do
		dir=$TMPFS; [ $((seed % 5)) -eq 0 ] && dir=$DISK
		run "$SOAK" --fs t:"$dir" --ops 400 --seed "$seed" --inject-corruption
		off=$(injected_off "$output"); op=$(injected_op "$output")
		echo "seed $seed: status $status op $op off $off: $(result_line "$output")"
		[ "$status" -eq 1 ]
		grep -q '^# WARNING: --inject-corruption is ON' <<<"$output"
		[ -n "$off" ]
		result_line "$output" | grep -qE "^not ok 1 soak\.t # mismatch at op $op \([a-z_]+\) off $off\$"
		grep -qE "^# mismatch: op $op \([a-z_]+\) exposed it: file f[0-9] .* off $off " <<<"$output"
		grep -qE '^# [0-9a-f]{8} expected:.*<--$' <<<"$output"
		grep -q '^# oplog: sg-soak-log v1 worker=0 args: ' <<<"$output"
		rm -rf "$dir"/sg-soak-t-*
	done
}

@test "no corruption is ever injected by default" {
	run "$SOAK" --fs tmpfs:"$TMPFS" --ops 3000 --seed 5
	[ "$status" -eq 0 ]
	! grep -qi inject <<<"$output" || false
}

@test "--replay of a saved failing log reproduces the same mismatch" {
	run "$SOAK" --fs tmpfs:"$TMPFS" --ops 3000 --seed 31 --inject-corruption --log "$TMPFS/fail.log" --log-ops 50
	[ "$status" -eq 1 ]
	want=$(result_line "$output")
	echo "original: $want"
	grep -q '^not ok 1 soak.tmpfs # mismatch at op [0-9]* (.*) off [0-9]*$' <<<"$want"
	grep -q '^# kept ' <<<"$output"
	[ "$(grep -c '^op=' "$TMPFS/fail.log")" -le 51 ]
	# the ring tail does not start at op 1: the prefix is regenerated from the seed
	! grep -q '^op=1 ' "$TMPFS/fail.log" || false
	run "$SOAK" --fs tmpfs:"$TMPFS" --replay "$TMPFS/fail.log"
	echo "replay: $(result_line "$output")"
	[ "$status" -eq 1 ]
	[ "$(result_line "$output")" = "$want" ]
	! grep -q 'replay: .*differs' <<<"$output" || false

	# the default oplog on stdout, inside a noisy console log, replays too
	run "$SOAK" --fs tmpfs:"$TMPFS" --ops 3000 --seed 31 --inject-corruption
	[ "$status" -eq 1 ]
	# shellcheck disable=SC2001 # (a prefix on every line)
	sed 's/^/[   12.345678] /' <<<"$output" >"$TMPFS/console.log"
	run "$SOAK" --fs tmpfs:"$TMPFS" --replay "$TMPFS/console.log"
	[ "$status" -eq 1 ]
	[ "$(result_line "$output")" = "$want" ]

	# a full record of the failing run replays to the same mismatch as well
	run "$SOAK" --fs tmpfs:"$TMPFS" --ops 3000 --seed 31 --inject-corruption --record "$TMPFS/full.rec"
	[ "$status" -eq 1 ]
	run "$SOAK" --fs tmpfs:"$TMPFS" --replay "$TMPFS/full.rec"
	[ "$status" -eq 1 ]
	[ "$(result_line "$output")" = "$want" ]
}

@test "fault: a hung op is named (number, type, offsets) and ends that fs's run; the next fs runs; --replay logs kept" {
	SECONDS=0
	run "$SOAK" --fs a:"$TMPFS" --fs b:"$DISK" --ops 300 --seed 5 --inject-hang 100 --hang 2 --log "$BATS_TEST_TMPDIR/log"
	[ "$status" -eq 1 ]
	[ "$SECONDS" -lt 20 ]
	# shellcheck disable=SC2076 # (the quoted parts are literal on purpose)
	[[ "$output" =~ "not ok 1 soak.a # hung: no progress for 2 s in op=100 "[a-z_]+" f="[0-9]+" off=0x" ]]
	# shellcheck disable=SC2076
	[[ "$output" =~ "not ok 2 soak.b # hung: no progress for 2 s in op=100 " ]]
	grep -q '^op=100 ' "$BATS_TEST_TMPDIR/log.a" && grep -q '^op=100 ' "$BATS_TEST_TMPDIR/log.b"
	[ -z "$(pgrep -f -- '--inject-hang 100')" ]
}
