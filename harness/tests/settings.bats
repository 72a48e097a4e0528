#!/usr/bin/env bats
# Settings and make variables: how a value gets from the command line or the
# environment to a stage. A make variable reaches the harness as one literal
# argument, never as shell text of a recipe; every setting is checked against
# its rule in harness/lib/defaults.sh before a stage does anything.

# shellcheck disable=SC2154 # (file-wide) $stderr: set by bats's run --separate-stderr
load helpers

setup() {
	sg_setup
	M=$BATS_TEST_TMPDIR/ran
}

# Values a shell would run as code, if one got into a recipe's text: each
# would create $M.
hostile() {
	printf '%s\n' "\`touch $M\`" "\$(touch $M)" "x; touch $M" "x' && touch '$M" "x\" && touch \"$M" \
		"\$(shell touch $M)"
}

# refused TEXT: the command run failed, ran nothing, and said TEXT.
refused() {
	echo "exit $status: $output"
	[ "$status" -ne 0 ] || return 1
	[ ! -e "$M" ] || return 1
	[[ "$output" == *"$1"* ]]
}

@test "make: a hostile branch, RUN, LOG, KERNEL, FS, CHECK_ON or setting is never run; the harness names it, exit non-zero" {
	fake_branch 9.5
	mapfile -t vs < <(hostile)
	for v in "${vs[@]}"; do
		for t in validate evidence lava-jobs prefixes "bench-soak GUEST=1"; do
			# shellcheck disable=SC2086 # (the target and its fixed words)
			run make -C "$R" -s $t "branch=$v"
			refused "error: unknown branch '$v'"
		done
		run make -C "$R" -s branch=9.5 validate "RUNNER=$v"
		refused "validate: error: RUNNER=$v: "
		for t in report kcidb; do
			run make -C "$R" -s $t "RUN=/x$v"
			refused "$t: error: /x$v "
		done
		run make -C "$R" -s minimise "RUN=/x$v" FS=xfs
		refused "error: no such run directory or op log: /x$v"
		run make -C "$R" -s minimise RUN=/x "FS=$v"
		refused "error: FS must be a profile of harness/lib/profiles.tsv (or one with -sN, a soak seed), not '$v'"
		# (minimise takes the kernels as a list: its first word is checked first)
		run make -C "$R" -s minimise LOG=/x branch=9.5 FS=xfs "KERNEL=/k$v"
		refused "error: no such kernel: /k${v%% *}"
		run make -C "$R" -s minimise LOG=/x branch=9.5 FS=xfs "CHECK_ON=/k$v"
		refused "error: no such kernel: /k${v%% *}"
	done
}

# A copy of the repo whose entry points print the arguments they were given
# ([one][per][argument]) and RUNNER, EVIDENCE.
stub_stages() {
	fake_repo 9.5 'tree=ksrc'
	for s in drivers/validate report/report report/kcidb drivers/prefixes drivers/minimise drivers/bench; do
		printf '#!/bin/sh\nfor a; do printf "[%%s]" "$a"; done; echo " RUNNER=${RUNNER:-} EVIDENCE=${EVIDENCE:-}"\n' > "$R/harness/$s"
	done
}

@test "make: each variable is one literal argument of the stage; the usual spellings pass what they did" {
	stub_stages
	m() { make -C "$R" -s "$@"; }
	[ "$(m branch=6.1 validate)" = "[6.1] RUNNER= EVIDENCE=" ]
	[ "$(m branch=6.1 evidence)" = "[6.1] RUNNER= EVIDENCE=1" ]
	[ "$(m branch=6.1 lava-jobs)" = "[6.1] RUNNER=lava-jobs EVIDENCE=" ]
	[ "$(m branch=4.19 prefixes)" = "[4.19] RUNNER= EVIDENCE=" ]
	[ "$(m validate)" = "[] RUNNER= EVIDENCE=" ]
	[ "$(m report RUN=reports/6.1/x)" = "[reports/6.1/x] RUNNER= EVIDENCE=" ]
	[ "$(m report)" = " RUNNER= EVIDENCE=" ]
	[ "$(m kcidb RUN=reports/6.1/x)" = "[reports/6.1/x] RUNNER= EVIDENCE=" ]
	[ "$(m minimise RUN=reports/6.1/x/patched FS=xfs)" = "[reports/6.1/x/patched][xfs] RUNNER= EVIDENCE=" ]
	[ "$(m minimise LOG=o.txt branch=6.1 KERNEL=k CHECK_ON="a b" FS=ext4)" = \
		"[--kernel][k][--branch][6.1][--check-on][a][--check-on][b][o.txt][ext4] RUNNER= EVIDENCE=" ]
	[ "$(m minimise RUN=r LOG=o.txt FS=xfs)" = "[r][xfs] RUNNER= EVIDENCE=" ]
	[ "$(m bench-soak GUEST=1 branch=6.1 KERNEL=k)" = "[--kernel][k][6.1] RUNNER= EVIDENCE=" ]
	[ "$(m bench-soak GUEST=1 branch=6.1)" = "[6.1] RUNNER= EVIDENCE=" ]
	# a setting given to make reaches the stage as given
	[ "$(m branch=6.1 validate RUNNER=lava)" = "[6.1] RUNNER=lava EVIDENCE=" ]
	mapfile -t vs < <(hostile)
	for v in "${vs[@]}"; do
		[ "$(m validate "branch=$v")" = "[$v] RUNNER= EVIDENCE=" ]
		[ "$(m report "RUN=$v")" = "[$v] RUNNER= EVIDENCE=" ]
		[ "$(m minimise "LOG=$v" "branch=$v" "KERNEL=$v" "FS=$v")" = "[--kernel][$v][--branch][$v][$v][$v] RUNNER= EVIDENCE=" ]
		[ "$(m bench-soak GUEST=1 "branch=$v" "KERNEL=$v")" = "[--kernel][$v][$v] RUNNER= EVIDENCE=" ]
		[ "$(m validate branch=6.1 "RUNNER=$v")" = "[6.1] RUNNER=$v EVIDENCE=" ]
		# from the environment as well
		[ "$(branch=$v m validate)" = "[$v] RUNNER= EVIDENCE=" ]
	done
	[ ! -e "$M" ]
}

# The settings: the names of defaults.sh's `: "${NAME:=...}"` lines.
settings() { sed -n 's/^: "\${\([A-Z][A-Z0-9_]*\):=.*/\1/p' "$ROOT/harness/lib/defaults.sh"; }

@test "every setting in defaults.sh has a [RULE] tag the check knows, and its default passes it; to the guest's shell the tags are comments" {
	rule='(uint|uint>0|uint>=[0-9]+|path|profile|text|[a-z0-9-]+(\|[a-z0-9-]+)+)(\.\.\.)?'
	tagged="^: \"\\$\{[A-Z][A-Z0-9_]*:=.*\}\" +# \[$rule\] "
	grep '^: "\${' "$ROOT/harness/lib/defaults.sh" > "$BATS_TEST_TMPDIR/lines"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/lines")" -ge 45 ]
	run grep -vE "$tagged" "$BATS_TEST_TMPDIR/lines"
	echo "without a known rule: $output"
	[ "$status" -eq 1 ]
	# the defaults, set, pass
	env -i PATH="$PATH" SG_ROOT="$ROOT" sh -c '. "$SG_ROOT/harness/lib/sg.sh" && sg_check_settings'
	# the guest's busybox sh reads the same values with the tags as without them
	command -v busybox || skip "no busybox"
	sed 's/  *# \[.*//' "$ROOT/harness/lib/defaults.sh" > "$BATS_TEST_TMPDIR/untagged.sh"
	show='. "$1"; for n in '"$(settings | tr '\n' ' ')"'; do eval "echo $n=\${$n}"; done'
	diff <(env -i busybox sh -c "$show" sh "$ROOT/harness/lib/defaults.sh") <(env -i busybox sh -c "$show" sh "$BATS_TEST_TMPDIR/untagged.sh")
	[ "$(env -i busybox sh -c "$show" sh "$ROOT/harness/lib/defaults.sh" | grep -c '^[A-Z]')" -ge 45 ]
}

@test "a bad setting stops validate with one line naming it, exit 2: no run dir, nothing built" {
	bats_require_minimum_version 1.5.0
	fake_branch 9.5
	for c in "SOAK_OPS=-1:a whole number > 0" "SOAK_OPS=abc:a whole number > 0" "SEED=abc:a whole number" \
		"BOOT_TIMEOUT=0:a whole number > 0" "BOOT_STALL=abc:a whole number > 0" "VM_MEM=abc:a whole number > 0" \
		"DISK_MB=1:a whole number >= 300" "TIME_FACTOR=1 2:a whole number > 0" "SOAK_OPS=010:a whole number > 0" \
		"SEED=99999999999999999999:a whole number" "RUNNER=docker:qemu, lava or lava-jobs" "EVIDENCE=yes:0 or 1" \
		"ACCEL=hvf:kvm or tcg" "VARIANTS=baseline patch:baseline or patched, space separated" \
		"SEEDS=1 x:a whole number, space separated" "SOAK_REPLAY=/nosuch:an existing file or directory" \
		"PROFILES=xfs xfs_2k:a profile of harness/lib/profiles.tsv, space separated"; do
		run --separate-stderr env "${c%%:*}" KSRC="$K" "$R/harness/drivers/validate" 9.5
		echo "$c: exit $status: $stderr"
		[ "$status" -eq 2 ]
		[ "$stderr" = "stablegate: validate: error: ${c%%:*}: takes ${c#*:} (harness/lib/defaults.sh)" ]
		[ ! -e "$R/reports/9.5" ]
		[ ! -e "$STABLEGATE_CACHE/build" ]
	done
}

@test "every stage checks the settings first, in its own name; an empty setting is its default" {
	bats_require_minimum_version 1.5.0
	for f in "$ROOT"/harness/*; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		s=${f##*/}
		run --separate-stderr env BOOT_STALL=abc "$f"
		echo "$s: exit $status: $stderr"
		[ "$status" -eq 2 ]
		[ "$stderr" = "stablegate: $s: error: BOOT_STALL=abc: takes a whole number > 0 (harness/lib/defaults.sh)" ]
	done
	# shellcheck disable=SC2046 # (one NAME= per setting)
	run --separate-stderr env $(settings | sed 's/$/=/') "$ROOT/harness/report/report" /nosuch
	[ "$status" -eq 2 ]
	[ "$stderr" = "stablegate: report: error: /nosuch is not a run directory (no env and stages.tsv, no result.json)" ]
}
