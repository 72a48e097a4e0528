#!/usr/bin/env bats
# Host self-test of the syscall conformance suite (harness/suites/syscall).
# Runs WITHOUT --guest against a tmpfs dir (/dev/shm) and an ext4 dir (/tmp):
# no mounts, no swapon, no module loads, no FS_IOC_SETFLAGS on the host.

SUITE_DIR="$BATS_TEST_DIRNAME/../suites/syscall"
SG="$SUITE_DIR/sg-syscall"

setup_file() {
	make -s -C "$SUITE_DIR" >&2
	export T_TMPFS=$(mktemp -d /dev/shm/sg-bats.XXXXXX)
	export T_EXT4=$(mktemp -d /tmp/sg-bats.XXXXXX)
	chmod 0755 "$T_TMPFS" "$T_EXT4"	# uid 65534 children must traverse them
	export OUT="$BATS_FILE_TMPDIR/ktap.out"
	if [ "$(stat -f -c %T /dev/shm)" = tmpfs ] && [ "$(stat -f -c %T /tmp)" = ext2/ext3 ]; then
		"$SG" --fs tmpfs:"$T_TMPFS" --fs ext4:"$T_EXT4" \
			--cross tmpfs:ext4 --cross ext4:tmpfs >"$OUT" 2>&1
		echo $? >"$BATS_FILE_TMPDIR/rc"
	fi
}

teardown_file() {
	rm -rf "$T_TMPFS" "$T_EXT4"
}

need_host_fs() {
	[ -f "$BATS_FILE_TMPDIR/rc" ] || skip "host /dev/shm is not tmpfs or /tmp is not ext4"
}

@test "suite builds as a static binary" {
	[ -x "$SG" ]
	command -v file >/dev/null || skip "file(1) not installed"
	run file "$SG"
	[[ "$output" == *"statically linked"* ]] || [[ "$output" == *"static-pie"* ]]
}

@test "--list: one line per case, id/filesystems/pins all non-empty, ids unique" {
	run "$SG" --list
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -ge 60 ]
	printf '%s\n' "${lines[@]}" | awk -F'\t' '
		NF != 3 || $1 == "" || $2 == "" || $3 == "" { print "bad: " $0; bad = 1 }
		seen[$1]++ { print "dup: " $1; bad = 1 }
		END { exit bad }'
}

@test "host run exits 0 and every runnable case passes" {
	need_host_fs
	[ "$(cat "$BATS_FILE_TMPDIR/rc")" -eq 0 ] || { cat "$OUT"; false; }
	run grep -E '^not ok ' "$OUT"
	[ "$status" -eq 1 ]
	# non-SKIP result lines are all plain "ok N name"
	run grep -E '^ok [0-9]+ [^ ]+ # ' "$OUT"
	! printf '%s\n' "${lines[@]}" | grep -v ' # SKIP ' || false
}

@test "KTAP shape: version line, plan == result lines, sequential numbers, totals" {
	need_host_fs
	[ "$(head -n1 "$OUT")" = "KTAP version 1" ]
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$OUT")
	[ -n "$plan" ] && [ "$plan" -gt 0 ]
	results=$(grep -cE '^(not )?ok [0-9]+ ' "$OUT")
	[ "$results" -eq "$plan" ]
	grep -E '^(not )?ok [0-9]+ ' "$OUT" | awk '{ n = ($1 == "not") ? $3 : $2; if (n != NR) exit 1 }'
	pass=$(grep -cE '^ok [0-9]+ [^ ]+$' "$OUT")
	skipn=$(grep -cE '^ok [0-9]+ [^ ]+ # SKIP .+' "$OUT")
	grep -qx "# Totals: pass:$pass fail:0 xfail:0 xpass:0 skip:$skipn error:0" "$OUT"
	[ $((pass + skipn)) -eq "$plan" ]
	# everything else is a diagnostic
	! grep -vE '^(KTAP version 1|1\.\.[0-9]+|(not )?ok [0-9]+ .*|# .*)$' "$OUT" || false
}

@test "each result names <id>.<fs> or <id>.<src>-<dst> of a listed case" {
	need_host_fs
	"$SG" --list | cut -f1 | sort >"$BATS_TEST_TMPDIR/ids"
	grep -E '^(not )?ok [0-9]+ ' "$OUT" | sed -E 's/^(not )?ok [0-9]+ ([^ ]+).*/\2/' >"$BATS_TEST_TMPDIR/names"
	! grep -vE '^[a-z0-9_]+\.(tmpfs|ext4|tmpfs-ext4|ext4-tmpfs)$' "$BATS_TEST_TMPDIR/names" || false
	sed 's/\.[^.]*$//' "$BATS_TEST_TMPDIR/names" | sort -u >"$BATS_TEST_TMPDIR/used"
	[ -z "$(comm -23 "$BATS_TEST_TMPDIR/used" "$BATS_TEST_TMPDIR/ids")" ]
	# the two cross pairs were both exercised
	grep -q '^cfr_cross\.tmpfs-ext4$' "$BATS_TEST_TMPDIR/names"
	grep -q '^cfr_cross\.ext4-tmpfs$' "$BATS_TEST_TMPDIR/names"
}

@test "without --guest, guest-only cases SKIP with the exact reason and nothing else does" {
	need_host_fs
	"$SG" --list | awk -F'\t' '$2 ~ /guest/ && $2 ~ /tmpfs|ext4/ { print $1 }' | sort >"$BATS_TEST_TMPDIR/g"
	[ -s "$BATS_TEST_TMPDIR/g" ]
	grep -E ' # SKIP needs --guest \(root-only kernel state\)$' "$OUT" |
		awk '{ sub(/\.[^.]*$/, "", $3); print $3 }' | sort -u >"$BATS_TEST_TMPDIR/s"
	diff "$BATS_TEST_TMPDIR/g" "$BATS_TEST_TMPDIR/s"
}

@test "case directories are removed afterwards" {
	need_host_fs
	# shellcheck disable=SC2143 # (what was left, in the failure output)
	[ -z "$(ls -A "$T_TMPFS" "$T_EXT4" | grep '^sg\.')" ]
}

@test "negative: a dir on the wrong fs type is a BAIL with exit 2" {
	run "$SG" --fs xfs:"$T_EXT4"
	[ "$status" -eq 2 ]
	[[ "$output" == *"Bail out! "*"not xfs"* ]]
	run "$SG" --fs ext4:"$T_TMPFS"
	[ "$status" -eq 2 ]
	[[ "$output" == *"Bail out! "* ]]
}

@test "negative: --cross naming a filesystem not given with --fs is a BAIL" {
	run "$SG" --fs tmpfs:"$T_TMPFS" --cross tmpfs:xfs
	[ "$status" -eq 2 ]
	[[ "$output" == *"Bail out! --cross"* ]]
}

@test "negative: usage errors exit 2" {
	run "$SG"
	[ "$status" -eq 2 ]
	run "$SG" --fs btrfs:/tmp
	[ "$status" -eq 2 ]
	run "$SG" --bogus
	[ "$status" -eq 2 ]
}

@test "--only selects by id glob" {
	need_host_fs
	run "$SG" --fs tmpfs:"$T_TMPFS" --only 'cfr_dst_*'
	[ "$status" -eq 0 ]
	[ "${lines[2]}" = "1..2" ] || [ "${lines[3]}" = "1..2" ]
	[[ "$output" == *"ok 1 cfr_dst_rdonly.tmpfs"* ]]
	[[ "$output" == *"ok 2 cfr_dst_append.tmpfs"* ]]
}

# One hung or crashing case costs one result (issue 11): each case runs in
# its own child under a time limit; --inject makes the first case hang in
# its call, or die of SIGSEGV there, for real.
@test "fault: a hung case is killed at --timeout, named, and the next case runs" {
	need_host_fs
	SECONDS=0
	run "$SG" --fs tmpfs:"$T_TMPFS" --only 'cfr_whole*' --inject hang --timeout 2
	echo "$output"
	[ "$SECONDS" -lt 10 ]
	[ "$status" -eq 1 ]
	[[ "$output" == *"not ok 1 cfr_whole.tmpfs # timeout: no result after 2 s, in the call; killed"* ]]
	[[ "$output" == *"ok 2 cfr_whole_libc.tmpfs"* ]]
	[[ "$output" == *"# Totals: pass:1 fail:1 "* ]]
	[ -z "$(ls -A "$T_TMPFS")" ]	# the killed case's files are gone too
	[ -z "$(pgrep -f -- '--inject hang')" ]
}

@test "fault: a crashing case is reported with its signal, and the next case runs" {
	need_host_fs
	run "$SG" --fs tmpfs:"$T_TMPFS" --only 'cfr_whole*' --inject crash
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"not ok 1 cfr_whole.tmpfs # signal 11 (Segmentation fault) in the call"* ]]
	[[ "$output" == *"ok 2 cfr_whole_libc.tmpfs"* ]]
	[ -z "$(ls -A "$T_TMPFS")" ]
}

# A failing case is run --repeat N times in all (REPEAT in the guest): one
# that fails only some runs is flaky k/n, which scan files as its own kind.
@test "repeat: a case failing one run in two is flaky 1/2, named so through scan with its kind; a hang or a crash is not rerun" {
	need_host_fs
	run "$SG" --fs tmpfs:"$T_TMPFS" --only 'cfr_whole*' --inject flaky --repeat 2
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"not ok 1 cfr_whole.tmpfs # flaky 1/2: injected: fails on its first run only"* ]]
	[[ "$output" == *"ok 2 cfr_whole_libc.tmpfs"* ]]
	# through the harness's scan, as the guest's nested KTAP
	d=$BATS_TEST_TMPDIR/g && mkdir -p "$d"
	{ echo "KTAP version 1"; echo "1..1"; printf '    %s\n' "${lines[@]}"; echo "not ok 1 syscall"; } > "$d/ktap.log"
	awk -v FS='\n' -v OFS='\t' -v res="$d/results.tsv" -v fail="$d/failures.tsv" -v kinds="$d/kinds.tsv" \
		-f "$BATS_TEST_DIRNAME/../stages/ktap.awk" "$d/ktap.log"
	grep -qx $'flaky\tcfr_whole.tmpfs: flaky 1/2: injected: fails on its first run only' "$d/failures.tsv"
	# the injected failure is no check of the data: an interface failure, with its pins
	grep -qx $'syscall\tcfr_whole.tmpfs\tinterface\tcommit - seed - patch -' "$d/kinds.tsv"
	grep -q $'^syscall\tcfr_whole.tmpfs\tfail\tflaky 1/2: ' "$d/results.tsv"
	# without repeats it is a plain failure
	run "$SG" --fs tmpfs:"$T_TMPFS" --only cfr_whole --inject flaky
	[[ "$output" == *"not ok 1 cfr_whole.tmpfs # injected: fails on its first run only"* ]]
	# a crash is reported as it was, once
	run "$SG" --fs tmpfs:"$T_TMPFS" --only cfr_whole --inject crash --repeat 3
	[[ "$output" == *"not ok 1 cfr_whole.tmpfs # signal 11 (Segmentation fault) in the call"* ]]
	[[ "$output" != *"runs"* ]]
	[[ "$output" != *"# kind:"* ]]	# a crash is neither kind
	[ -z "$(ls -A "$T_TMPFS")" ]
}

@test "a failing case names what it pins on a '# pins:' line before its result" {
	need_host_fs
	run "$SG" --fs tmpfs:"$T_TMPFS" --only 'cfr_short_eof*' --inject crash
	echo "$output"
	[ "$status" -eq 1 ]
	pins='# pins: commit 96e6e8f4a68d seed 002 patch "vfs: copy_file_range source range over EOF should fail"'
	[ "$(grep -B1 '^not ok 1 cfr_short_eof.tmpfs # signal 11' <<<"$output" | head -n 1)" = "$pins" ]
	# a case that pins no seed or patch says so; passing cases print no such line
	run "$SG" --fs tmpfs:"$T_TMPFS" --only 'cfr_past_eof*' --inject crash
	[[ "$output" == *"# pins: commit 96e6e8f4a68d seed - patch -"* ]]
	run "$SG" --fs tmpfs:"$T_TMPFS" --only 'cfr_past_eof*'
	[ "$status" -eq 0 ]
	[[ "$output" != *"# pins:"* ]]
}

@test "the case table: named fields only, lines of at most 100 columns" {
	cd "$SUITE_DIR"
	ls table-*.h
	! grep -nE '^[[:space:]]*\{ *"' table-*.h || false	# a positional row
	! expand table-*.h | grep -nE '^.{101}' || false
	# every row's fields are named: a line inside a row starts with .field or continues a string
	! awk '/^\t\{$/ { inrow = 1; next } /^\t\},$/ { inrow = 0; next }
		inrow && !/^\t\t(\.[a-z_]+ = |\t")/ { print FILENAME ":" FNR ": " $0; bad = 1 }
		END { exit !bad }' table-*.h || false
}
