#!/usr/bin/env bats
# A candidate series is untrusted mail and the harness runs as root: its
# patches, series file and deps.tsv, and a branch's branch.conf, are data that
# never act on the host, and each way they can be wrong ends in one named
# error. Each test is an item of issue 24; the host files at stake are
# victims under $BATS_TEST_TMPDIR. Fake kernel trees; no kernel is built.

load helpers

setup() {
	# shellcheck disable=SC2034 # (fake_repo, in helpers.bash, uses it)
	ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	export STABLEGATE_CACHE=$BATS_TEST_TMPDIR/cache
	fake_branch 9.6	# $R, $K: a one-patch series (b.c: b1 -> b2) on a fake tree
	H=$R/harness
	w=$STABLEGATE_CACHE/work/9.6	# the work copy harness/series makes
	c=$BATS_TEST_TMPDIR/cand	# a candidate directory (SERIES=)
	mkdir -p "$c"
}

teardown() {
	if mountpoint -q "$STABLEGATE_CACHE"; then umount "$STABLEGATE_CACHE"; fi
}

# listing DIR: every path of DIR (work copy records left out) with its type,
# mode and, for a file, its content's sum
listing() {
	(cd "$1" && find . ! -name '.sg-*' ! -name . -printf '%P %y %m\n' | LC_ALL=C sort |
		while read -r p t m; do echo "$p $t $m $([ "$t" != f ] || sha256sum < "$p" | cut -c1-16)"; done)
}

@test "untrusted 2: a series file's lines are data: \$(cmd) never runs; an entry outside the directory is refused" {
	cp "$R/backports/9.6/0001-x.patch" "$c/"
	cp "$R/backports/9.6/0001-x.patch" "$BATS_TEST_TMPDIR/outside.patch"
	ln -s "$BATS_TEST_TMPDIR/outside.patch" "$c/link.patch"
	for e in '$(touch '"$BATS_TEST_TMPDIR"'/pwned)' 'x"; touch '"$BATS_TEST_TMPDIR"'/pwned; echo "' \
		'`touch '"$BATS_TEST_TMPDIR"'/pwned`' ../outside.patch "$BATS_TEST_TMPDIR/outside.patch" link.patch; do
		printf '%s\n' 0001-x.patch "$e" > "$c/series"
		SERIES=$c run "$H/series" 9.6 patched "$K"
		echo "$output"
		[ "$status" -eq 2 ]
		[ ! -e "$BATS_TEST_TMPDIR/pwned" ]
		[ "$output" = "stablegate: series: error: $c/series:2: no such patch \"$e\"" ]
	done
	# a plain name, a name in a subdirectory: fine
	mkdir -p "$c/sub" && cp "$c/0001-x.patch" "$c/sub/"
	printf '# comment\nsub/0001-x.patch  \n' > "$c/series"
	SERIES=$c run "$H/series" 9.6 patched "$K"
	[ "$status" -eq 0 ]
}
