#!/usr/bin/env bats
# A verdict is about the code it names, and about every result it was given
# (issue 24): a series is told apart from any other by every byte of its
# patches, their names and order; a branch's work and build dirs are used by
# one run at a time; a result that is lost or cannot be read is said, and
# the run is INCONCLUSIVE. Fake trees and fixture results: no kernel built.

load helpers

setup() {
	ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	H=$ROOT/harness
	export STABLEGATE_CACHE=$BATS_TEST_TMPDIR/cache
}

# series_hash DIR: lib.sh's hash of the candidate series in DIR.
series_hash() {
	(SG_ROOT=$R && . "$R/harness/lib.sh" && BRANCH_DIR=$R/backports/9.5 SG_SERIES_DIR=$1 && sg_series_hash)
}

@test "integrity 8: two candidates without a series file are told apart" {
	fake_branch 9.5
	for c in a:b2 b:b3; do
		mkdir -p "$BATS_TEST_TMPDIR/${c%:*}"
		mail_patch "$BATS_TEST_TMPDIR/${c%:*}/0001-fix.patch" "[PATCH] b: fix" 'Signed-off-by: A U Thor <a@example.org>' \
			"--- a/b.c\n+++ b/b.c\n@@ -1 +1 @@\n-b1\n+${c#*:}\n"
	done
	for c in a b; do
		KSRC=$K SERIES=$BATS_TEST_TMPDIR/$c VARIANTS=patched run "$R/harness/validate" 9.5
		ln -s "$(readlink -f "$R/reports/9.5/latest")" "$BATS_TEST_TMPDIR/run-$c"
	done
	ha=$(sed -n 's/^SERIES_HASH=//p' "$BATS_TEST_TMPDIR/run-a/env")
	hb=$(sed -n 's/^SERIES_HASH=//p' "$BATS_TEST_TMPDIR/run-b/env")
	echo "hashes: $ha $hb"
	[ "$ha" != "$hb" ]
	[ "$ha" != e3b0c44298fc ]	# (sha256 of nothing)
	# B is applied and built: its own kernel, not A's
	! grep -q reusing "$BATS_TEST_TMPDIR/run-b/patched/series.log" || false
	grep -q '^build	patched	[0-9]*	ok' "$BATS_TEST_TMPDIR/run-b/stages.tsv"
	[ "$(cat "$STABLEGATE_CACHE/build/9.5-patched/arch/x86/boot/bzImage")" = "$(printf 'a1\nheader-1\nb3\nheader-1')" ]
	# the name, the order and every byte count, with or without a series file
	c=$BATS_TEST_TMPDIR/b
	h0=$(series_hash "$c")
	[ "$h0" = "$hb" ]
	mv "$c/0001-fix.patch" "$c/0001-fix-b.patch"
	[ "$(series_hash "$c")" != "$h0" ]
	h1=$(series_hash "$c")
	printf -- '--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-a1\n+a2\n' > "$c/0002-a.patch"
	h2=$(series_hash "$c")
	printf '0001-fix-b.patch\n0002-a.patch\n' > "$c/series"
	[ "$(series_hash "$c")" = "$h2" ]
	printf '0002-a.patch\n0001-fix-b.patch\n' > "$c/series"
	[ "$(series_hash "$c")" != "$h2" ]
	printf '0001-fix-b.patch\n' > "$c/series"
	[ "$(series_hash "$c")" = "$h1" ]
	sed -i 's/Signed-off-by/Signed-off-By/' "$c/0001-fix-b.patch"
	[ "$(series_hash "$c")" != "$h1" ]
}

@test "integrity 8: an mbox candidate keeps its series file; two mboxes are told apart" {
	fake_branch 9.5
	for c in a:b2 b:b3; do
		mail_patch "$BATS_TEST_TMPDIR/${c%:*}.mbox" "[PATCH] b: fix" 'Signed-off-by: A U Thor <a@example.org>' \
			"--- a/b.c\n+++ b/b.c\n@@ -1 +1 @@\n-b1\n+${c#*:}\n"
	done
	SERIES=$BATS_TEST_TMPDIR/a.mbox run "$R/harness/series" 9.5 patched "$K"
	[ "$status" -eq 0 ]
	v=$(echo "$output" | tail -n 1)
	[ "$(cat "$v/b.c")" = b2 ]
	for d in "$STABLEGATE_CACHE"/candidates/mbox-*/; do
		[ "$(cat "$d/series")" = 0001.patch ]
	done
	SERIES=$BATS_TEST_TMPDIR/b.mbox run "$R/harness/series" 9.5 patched "$K"
	[ "$status" -eq 0 ]
	[[ "$output" != *reusing* ]]
	[ "$(cat "$v/b.c")" = b3 ]
	ha=$(series_hash "$(ls -d "$STABLEGATE_CACHE"/candidates/mbox-* | head -n 1)")
	hb=$(series_hash "$(ls -d "$STABLEGATE_CACHE"/candidates/mbox-* | tail -n 1)")
	[ "$ha" != "$hb" ]
}
