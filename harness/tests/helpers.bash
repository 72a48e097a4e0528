# Shared by the .bats files: load helpers

# sg_setup: what every test starts from (each file's setup calls it first):
# ROOT, the checkout (exported: fake_repo copies it), H its harness, FIX the
# fixtures, and a STABLEGATE_CACHE of the test's own.
sg_setup() {
	export ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	# shellcheck disable=SC2034 # for the tests
	H=$ROOT/harness FIX=$BATS_TEST_DIRNAME/fixtures
	export STABLEGATE_CACHE=$BATS_TEST_TMPDIR/cache
}

# fake_repo NAME CONF: a copy of the repo's harness and data in
# $BATS_TEST_TMPDIR/repo ($R) with one extra branch NAME whose branch.conf is
# "name=NAME" plus CONF: adding a branch is data only.
fake_repo() {
	R=$BATS_TEST_TMPDIR/repo
	mkdir -p "$R"
	cp -r "$ROOT/harness" "$ROOT/backports" "$ROOT/mainline" "$ROOT/Makefile" "$R/"
	mkdir -p "$R/backports/$1"
	printf '%s\n' "name=$1" "$2" > "$R/backports/$1/branch.conf"
}

# fake_tree DIR A B: a "kernel tree" of two sources and a header; its bzImage
# is their concatenation, rebuilt the way kbuild decides, by mtime. A source
# line "#error X" fails its compile the way gcc does; FAKE_SLOW=S in the
# environment makes each compile take S seconds; FAKE_KERNEL=BZIMAGE makes the
# "build" that real kernel, so that the run boots and reaches a verdict.
fake_tree() {
	mkdir -p "$1"
	printf 'VERSION = 4\nPATCHLEVEL = 19\nSUBLEVEL = 48\n' > "$1/Makefile"
	cat >> "$1/Makefile" <<'MK'
bzImage: $(O)/arch/x86/boot/bzImage
tinyconfig olddefconfig:
	@touch $(O)/.config
$(O)/obj/%.o: %.c inc.h
	@mkdir -p $(dir $@); echo "  CC      $@"
	@[ -z "$(FAKE_SLOW)" ] || sleep $(FAKE_SLOW)
	@if grep -q '^#error' $<; then echo "$<:1:2: error: $$(grep '^#error' $<)"; exit 1; fi
	@cat $^ > $@
$(O)/arch/x86/boot/bzImage: $(O)/obj/a.o $(O)/obj/b.o
	@mkdir -p $(dir $@); if [ -n "$(FAKE_KERNEL)" ]; then cp $(FAKE_KERNEL) $@; else cat $^ > $@; fi
MK
	touch "$1/Kconfig"
	mkdir -p "$1/scripts/kconfig"
	printf '#!/bin/sh\n' > "$1/scripts/kconfig/merge_config.sh"
	chmod +x "$1/scripts/kconfig/merge_config.sh"
	echo x > "$1/notes.txt"
	echo "$2" > "$1/a.c"
	echo "$3" > "$1/b.c"
	echo "header-1" > "$1/inc.h"
	touch -d '2019-06-04 12:00' "$1"/*.c "$1"/*.h "$1/Makefile" "$1/notes.txt"
}

# fake_branch NAME: branch NAME (4.19-like: KSRC, series applied) in a copy of
# the repo, with a fake kernel tree $K and a one-patch series (b1 -> b2).
fake_branch() {
	fake_repo "$1" 'tree=ksrc
series_in_tree=no'
	K=$BATS_TEST_TMPDIR/linux-$1
	fake_tree "$K" a1 b1
	printf -- '--- a/b.c\n+++ b/b.c\n@@ -1 +1 @@\n-b1\n+b2\n' > "$R/backports/$1/0001-x.patch"
	echo 0001-x.patch > "$R/backports/$1/series"
}

# mail_patch FILE SUBJECT BODY DIFF: a git format-patch file.
mail_patch() {
	printf 'From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\nFrom: A U Thor <a@example.org>\nDate: Mon, 3 Dec 2018 00:00:00 +0000\nSubject: %s\n\n%b\n---\n%b' "$2" "$3" "$4" > "$1"
}

wait_for() { # wait_for FILE REGEX [SECS]: FILE has a line matching REGEX, or print it and fail
	for _i in $(seq "${3:-60}"); do grep -qE "$2" "$1" 2>/dev/null && return 0; sleep 1; done
	cat "$1"; return 1
}

# make_run DIR BASE_STATUS PATCHED_STATUS: a run dir, as harness/report/report reads
# it, with two cases on each kernel, the first with the statuses given
make_run() {
	d=$1
	mkdir -p "$d/baseline" "$d/patched"
	printf '%s\n' BRANCH=6.1 RUN_ID=test SEED=7 SOAK_OPS=10 SUITES=syscall \
		SERIES_HASH=abc SERIES_IN_TREE=yes TREE_SOURCE=apt TREE_PACKAGE=p \
		TREE_VERSION=6.1.1-1 KERNEL_VERSION=6.1.1 STARTED=now > "$d/env"
	printf 'stage\tvariant\tseconds\tstatus\ntree\t-\t1\tok\n' > "$d/stages.tsv"
	for v in baseline patched; do
		printf '%s\n' ACCEL=tcg BOOT_SECONDS=3 BOOT_STATUS=ok > "$d/$v/boot.env"
		: > "$d/$v/failures.tsv"
	done
	printf 'syscall\ta.xfs\t%s\t\nsyscall\tb.xfs\tpass\t\n' "$2" > "$d/baseline/results.tsv"
	printf 'syscall\ta.xfs\t%s\t\nsyscall\tb.xfs\tpass\t\n' "$3" > "$d/patched/results.tsv"
}

# The build user (harness/lib/sg.sh sg_as_builder) runs the fake trees' make and
# patch: it must reach the tests' temporary dirs (bats makes its run dir 0700).
chmod o+x "$BATS_RUN_TMPDIR" 2>/dev/null || true
