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
	grep -q '^# soak-stats name=tmpfs ops=100000 secs=[0-9.]* ops_per_sec=[0-9]* seed=424242 read=[1-9]' <<<"$output"
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

@test "--parallel: every --fs at once, the same ops as one after another; each report and oplog under its own header, results in --fs order" {
	run "$SOAK" --fs a:"$TMPFS" --fs b:"$DISK" --ops 3000 --seed 7
	[ "$status" -eq 0 ]
	serial=$(grep '^# soak-stats' <<<"$output" | sed 's/ secs=[^ ]* ops_per_sec=[^ ]*//')
	run "$SOAK" --fs a:"$TMPFS" --fs b:"$DISK" --ops 3000 --seed 7 --parallel
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q -- '^# cmdline: .* --parallel' <<<"$output"
	[ "$(grep '^# soak-stats' <<<"$output" | sed 's/ secs=[^ ]* ops_per_sec=[^ ]*//')" = "$serial" ]
	run "$SOAK" --fs a:"$TMPFS" --fs b:"$DISK" --ops 3000 --seed 5 --parallel --inject-corruption --log-ops 5
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$(grep -E '^(not )?ok ' <<<"$output" | cut -d'#' -f1)" = "$(printf 'not ok 1 soak.a \nnot ok 2 soak.b ')" ]
	for fs in a b; do
		block=$(sed -n "/^# soak name=$fs /,/^not ok [12] soak.$fs /p" <<<"$output")
		[ "$(grep -c '^# oplog: ' <<<"$block")" -ge 5 ]
		grep -q "^# replay: sg-soak --fs $fs:" <<<"$block"
		! grep -v '^# progress' <<<"$block" | grep -E "name=[^$fs]|--fs [^$fs]:" || false
	done
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

# the op lines of a record, and the record without its Nth op line
ops_of() { grep -c '^op=' "$1"; }
without_op() { awk -v n="$2" '/^op=/ && ++i == n { next } { print }' "$1"; }

@test "--minimise: an injected corruption minimises to the 2 ops that matter; it replays failing, and fails no more without either" {
	run "$SOAK" --fs tmpfs:"$TMPFS" --ops 3000 --seed 31 --inject-corruption --log "$TMPFS/fail.log" --log-ops 50
	[ "$status" -eq 1 ]
	off=$(injected_off "$output"); op=$(injected_op "$output")
	[ -n "$off" ] && [ "$op" -gt 50 ]	# a ring tail: the prefix is regenerated
	inj=$(grep '^op=[0-9]* inject ' "$TMPFS/fail.log")
	run "$SOAK" --fs tmpfs:"$TMPFS" --minimise "$TMPFS/fail.log" --minimise-out "$TMPFS/min.rec"
	echo "$output" | grep -v '^# minimise: try'
	[ "$status" -eq 0 ]
	grep -qx 'ok 1 minimise.tmpfs' <<<"$output"
	grep -q "^# minimise: it fails: mismatch at op $op (.*) off $off\$" <<<"$output"
	grep -q '^# minimise: class: mismatch at inject; ' <<<"$output"
	grep -qE "^# minimise: done name=tmpfs before=$((op + 1)) after=2 subset=2 simplified=[0-9]+ tries=[1-9][0-9]* cached=[0-9]+ secs=[0-9.]+ stopped_early=0 one_minimal=1 reruns=3/3 class=mismatch/inject\$" <<<"$output"
	grep -qE '^# minimise: try [0-9]+: [0-9]+ ops \(.*\): (passes|fails, the same class: .*)$' <<<"$output"
	# the record: a header and 2 ops, the injection as it was logged
	[ "$(ops_of "$TMPFS/min.rec")" -eq 2 ]
	head -n 1 "$TMPFS/min.rec" | grep -q '^sg-soak-log v1 worker=0 args: --seed 31 '
	[ "$(sed -n 3p "$TMPFS/min.rec" | cut -d' ' -f2-4,7-8)" = "$(cut -d' ' -f2-4,7-8 <<<"$inj")" ]
	sed -n 2p "$TMPFS/min.rec" | grep -vq ' inject '
	diff <(sed -n 's/^# minimised: //p' <<<"$output") "$TMPFS/min.rec"
	! ls -d "$TMPFS"/sg-soak-min-* 2>/dev/null || false	# every try's files removed
	# it replays as failing, at its first op, where the byte was flipped
	run "$SOAK" --fs tmpfs:"$TMPFS" --replay "$TMPFS/min.rec"
	[ "$status" -eq 1 ]
	result_line "$output" | grep -qE "^not ok 1 soak\.tmpfs # mismatch at op 1 \([a-z_]+\) off $off\$"
	# and without either op it passes (1-minimal)
	for i in 1 2; do
		without_op "$TMPFS/min.rec" $i > "$TMPFS/less.rec"
		run "$SOAK" --fs tmpfs:"$TMPFS" --replay "$TMPFS/less.rec"
		echo "without op $i: $(result_line "$output")"
		[ "$status" -eq 0 ]
	done
}

# A hand-made log on the disk fs whose failure, under a file size limit, is
# SIGXFSZ in a copy that needs the write before it; removing the collapse
# instead lets the injection (skipped: past EOF after the collapse) flip a
# byte: a shorter log with a mismatch, which must not be taken for it.
@test "--minimise keeps the failure's class: a subset failing differently is not taken" {
	cat > "$DISK/cls.rec" <<'REC'
sg-soak-log v1 worker=0 args: --seed 1 --max-size 131072 --align 1 --nfiles 3 --verify-every 1 --full-every 1000 --block 4096 --dio-align 512
op=1 write f=0 off=0x0 len=0x4000 sf=0 soff=0x0 arg=0x5eed res=16384 size=0x4000
op=2 collapse f=0 off=0x1000 len=0x2000 sf=0 soff=0x0 arg=0x0 res=0 size=0x2000
op=2 inject f=0 off=0x3000 len=0x0 sf=0 soff=0x0 arg=0x5a res=0 size=0x2000
op=3 copy f=1 off=0x1f000 len=0x1000 sf=0 soff=0x0 arg=0x0 res=4096 size=0x20000
REC
	limited() { bash -c 'ulimit -f 100 && exec "$@"' limited "$@"; }
	run limited "$SOAK" --fs d:"$DISK" --replay "$DISK/cls.rec"
	[ "$status" -eq 1 ]
	result_line "$output" | grep -q '# worker 0 killed by signal 25 '
	run limited "$SOAK" --fs d:"$DISK" --minimise "$DISK/cls.rec" --minimise-out "$DISK/min.rec"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '^# minimise: class: signal 25 (.*) at copy; ' <<<"$output"
	grep -qE '^# minimise: try [0-9]+: 3 ops \(.*\): fails differently, not the class: mismatch at op 1 \(write\) off 12288 \(mismatch at inject\)$' <<<"$output"
	grep -q ' after=2 .* one_minimal=1 reruns=3/3 class=signal/copy/25$' <<<"$output"
	[ "$(grep '^op=' "$DISK/min.rec" | cut -d' ' -f2-4)" = "$(printf 'write f=0 off=0x0\ncopy f=1 off=0x1f000')" ]
	run limited "$SOAK" --fs d:"$DISK" --replay "$DISK/min.rec"
	[ "$status" -eq 1 ]
	result_line "$output" | grep -q '# worker 0 killed by signal 25 '
	for i in 1 2; do
		without_op "$DISK/min.rec" $i > "$DISK/less.rec"
		run limited "$SOAK" --fs d:"$DISK" --replay "$DISK/less.rec"
		[ "$status" -eq 0 ]
	done
}

@test "--minimise-secs: at the bound it stops early with the shortest failing log so far" {
	# the two ops that matter are the first and the last of 60,000
	{ echo 'sg-soak-log v1 worker=0 args: --seed 1 --max-size 262144 --align 1 --nfiles 3 --verify-every 1 --full-every 1000 --block 4096 --dio-align 512'
	  echo 'op=1 write f=0 off=0x0 len=0x2000 sf=0 soff=0x0 arg=0x1 res=8192 size=0x2000'
	  awk 'BEGIN { for (n = 2; n <= 60000; n++)
		printf "op=%d write f=%d off=0x%x len=0x1000 sf=0 soff=0x0 arg=0x%x res=4096 size=0x0\n", n, 1 + n % 2, (n * 4096) % 131072, n }'
	  echo 'op=60000 inject f=0 off=0x100 len=0x0 sf=0 soff=0x0 arg=0x77 res=0 size=0x2000'; } > "$TMPFS/long.rec"
	SECONDS=0
	run "$SOAK" --fs tmpfs:"$TMPFS" --minimise "$TMPFS/long.rec" --minimise-secs 1 --minimise-out "$TMPFS/min.rec"
	echo "$output" | grep -v '^# minimise: try'
	[ "$status" -eq 0 ]
	[ "$SECONDS" -lt 60 ]
	grep -q '^# minimise: the 1 s bound is reached: stopping early with the shortest failing log so far$' <<<"$output"
	grep -qE '^# minimise: done name=tmpfs before=60001 after=[0-9]+ .* stopped_early=1 one_minimal=0 reruns=3/3 class=mismatch/inject$' <<<"$output"
	after=$(sed -n 's/^# minimise: done .* after=\([0-9]*\) .*/\1/p' <<<"$output")
	[ "$(ops_of "$TMPFS/min.rec")" -eq "$after" ] && [ "$after" -le 60001 ] && [ "$after" -gt 2 ]
	run "$SOAK" --fs tmpfs:"$TMPFS" --replay "$TMPFS/min.rec"
	[ "$status" -eq 1 ]
	result_line "$output" | grep -q '# mismatch at op [0-9]* (write) off 256$'
}

@test "--minimise: a log that does not fail here is said to, and nothing is minimised" {
	run "$SOAK" --fs tmpfs:"$TMPFS" --ops 300 --seed 8 --record "$TMPFS/pass.rec"
	[ "$status" -eq 0 ]
	run "$SOAK" --fs tmpfs:"$TMPFS" --minimise "$TMPFS/pass.rec"
	[ "$status" -eq 1 ]
	grep -qx 'not ok 1 minimise.tmpfs # the log does not fail here: 300 ops clean' <<<"$output"
	! grep -q '^# minimised: ' <<<"$output" || false
	run "$SOAK" --fs a:"$TMPFS" --fs b:"$DISK" --minimise "$TMPFS/pass.rec"
	[ "$status" -eq 2 ]
	run "$SOAK" --fs a:"$TMPFS" --minimise "$TMPFS/pass.rec" --replay "$TMPFS/pass.rec"
	[ "$status" -eq 2 ]
}

@test "--replay: an op that does not fit the files (ops removed from a log) is skipped, never a false mismatch" {
	cat > "$TMPFS/misfit.rec" <<'REC'
sg-soak-log v1 worker=0 args: --seed 1 --max-size 262144 --align 1 --nfiles 3 --verify-every 1 --full-every 1000 --block 4096 --dio-align 512
op=1 mapwrite f=0 off=0x0 len=0x100 sf=0 soff=0x0 arg=0x1 res=0 size=0x2000
op=2 write f=0 off=0x0 len=0x10 sf=0 soff=0x0 arg=0x2 res=16 size=0x10
op=3 mapwrite f=0 off=0x8 len=0x2000 sf=0 soff=0x0 arg=0x3 res=0 size=0x10
op=4 write f=3 off=0x0 len=0x10 sf=0 soff=0x0 arg=0x4 res=16 size=0x10
op=5 truncate f=1 off=0x10000000 len=0x0 sf=0 soff=0x0 arg=0x5 res=0 size=0x10000000
op=6 mapwrite f=0 off=0x0 len=0x10 sf=0 soff=0x0 arg=0x6 res=0 size=0x10
REC
	run "$SOAK" --fs tmpfs:"$TMPFS" --replay "$TMPFS/misfit.rec"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '^# note: tmpfs: replay: op 1 (mapwrite) does not fit the files here (range past EOF): skipped' <<<"$output"
	grep -q '^# soak-stats name=tmpfs ops=6 .* write=1 mapread=0 mapwrite=1 truncate=0 ' <<<"$output"
}

@test "--verify-every 0 --full-every 0 (fsx's level, harness/drivers/bench): passes, is recorded, and an injected corruption is still caught" {
	run "$SOAK" --fs tmpfs:"$TMPFS" --fs ext4:"$DISK" --ops 20000 --seed 7 --verify-every 0 --full-every 0
	[ "$status" -eq 0 ]
	grep -q '^# cmdline: .* --verify-every 0 --full-every 0 ' <<<"$output"
	for seed in 1 2 3; do
		run "$SOAK" --fs t:"$TMPFS" --ops 400 --seed "$seed" --verify-every 0 --full-every 0 --inject-corruption
		[ "$status" -eq 1 ]
		result_line "$output" | grep -qE "^not ok 1 soak\.t # mismatch at op $(injected_op "$output") \([a-z_]+\) off $(injected_off "$output")\$"
	done
}

# SOAK_SEEDS: every --fs once per seed, each a result of its own, with the
# seed in its stats and its op log, so a failing one replays alone.
@test "--seeds N: N soaks per --fs with seeds S..S+N-1, results soak-sK.FS, each failing one with its own replayable log" {
	run "$SOAK" --fs tmpfs:"$TMPFS" --fs disk:"$DISK" --ops 300 --seed 40 --seeds 3 --parallel
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ok [0-9]* soak-s[123]\.\(tmpfs\|disk\)$' <<<"$output")" -eq 6 ]
	grep -q '^1\.\.6$' <<<"$output"
	for k in 1 2 3; do
		grep -q "^# soak-stats name=tmpfs-s$k ops=300 .* seed=$((39 + k)) " <<<"$output"
		grep -q "^# soak-stats name=disk-s$k ops=300 .* seed=$((39 + k)) " <<<"$output"
	done
	# the same seeds, one per run: the same op counts as the seeds' own runs
	run "$SOAK" --fs tmpfs:"$TMPFS" --ops 300 --seed 41
	one=$(sed -n 's/^# soak-stats name=tmpfs ops=300 .* seed=41 //p' <<<"$output")
	[ -n "$one" ]
	run "$SOAK" --fs tmpfs:"$TMPFS" --ops 300 --seed 40 --seeds 3
	[ "$(sed -n 's/^# soak-stats name=tmpfs-s2 ops=300 .* seed=41 //p' <<<"$output")" = "$one" ]
	# a failing seed: its op log names its seed and replays on its own
	run "$SOAK" --fs tmpfs:"$TMPFS" --ops 400 --seed 40 --seeds 2 --inject-corruption --log "$DISK/oplog"
	[ "$status" -ne 0 ]
	grep -qE '^not ok 1 soak-s1\.tmpfs # mismatch at op [0-9]+' <<<"$output"
	grep -qE '^not ok 2 soak-s2\.tmpfs # mismatch at op [0-9]+' <<<"$output"
	grep -q "^# replay: sg-soak --fs tmpfs:<dir> --replay $DISK/oplog.tmpfs-s2$" <<<"$output"
	grep -q "args: --seed 41 " "$DISK/oplog.tmpfs-s2"
	run "$SOAK" --fs tmpfs:"$TMPFS" --replay "$DISK/oplog.tmpfs-s2"
	grep -qE "^not ok 1 soak\.tmpfs # mismatch at op [0-9]+" <<<"$output"
	run "$SOAK" --fs tmpfs:"$TMPFS" --replay "$DISK/oplog.tmpfs-s2" --seeds 2
	[ "$status" -eq 2 ] && [[ "$output" == *"--seeds cannot be combined with --replay"* ]]
	run "$SOAK" --fs tmpfs:"$TMPFS" --seeds 0
	[ "$status" -eq 2 ]
}
