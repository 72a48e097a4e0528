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

@test "untrusted 3: branch.conf values are data: \$(cmd), \`cmd\` and ; cmd never run; a value its key does not take is named by file and line" {
	p=$BATS_TEST_TMPDIR/pwned
	for line in "package=\$(touch $p)" "mkfs_xfs=x; touch $p" "apt_sources=\"debian:\`touch $p\`\"" \
		"version='1.0'\$(touch $p)" "keyring=/k \$(touch $p)"; do
		printf 'name=9.7\ntree=ksrc\n%s\n' "$line" > "$R/backports/9.6/branch.conf"
		run "$H/deps" --check 9.7
		echo "$output"
		[ ! -e "$p" ]
		[ "$status" -eq 2 ]
		[[ "$output" == "stablegate: deps: error: $R/backports/9.6/branch.conf:3: "* ]]
	done
	# quotes around a value are stripped, and what is inside is kept as it is
	printf 'name=9.7\ntree=ksrc\nmkfs_xfs="-m reflink=1,bigtime=0"\nmkfs_ext4='"'"'-O ^has_journal'"'"'\n' > "$R/backports/9.6/branch.conf"
	run env SG_ROOT="$R" sh -c '. "$SG_ROOT/harness/lib.sh" && sg_load_branch 9.7 && printf "%s|%s|%s\n" "$name" "$mkfs_xfs" "$mkfs_ext4"'
	[ "$status" -eq 0 ]
	[ "$output" = "9.7|-m reflink=1,bigtime=0|-O ^has_journal" ]
}

@test "untrusted 5: a deps.tsv probe never reads outside the tree: absolute and .. files are malformed (exit 2), a symlink out of the tree never matches" {
	echo 'root:secret' > "$BATS_TEST_TMPDIR/shadow"
	cp "$R/backports/9.6/0001-x.patch" "$c/"
	out=$BATS_TEST_TMPDIR/deps.tsv
	for probe in '../shadow:^root:' "$BATS_TEST_TMPDIR/shadow:^root:" '!fs/../../shadow:^x' '2*../shadow:.'; do
		printf 'commit\tsubject\tstatus\tpatch\tprobe\twhy\n111111111111\ts\tpresent\t-\t%s\tw\n' "$probe" > "$c/deps.tsv"
		SERIES=$c run "$H/deps" 9.6 "$K" "$out"
		echo "$output"
		[ "$status" -eq 2 ]
		[ "$output" = "stablegate: deps: error: $c/deps.tsv:2: probe term \"$probe\": its file is outside the tree" ]
	done
	# a symlink in the tree that leads out of it
	ln -s "$BATS_TEST_TMPDIR" "$K/evil"
	printf 'commit\tsubject\tstatus\tpatch\tprobe\twhy\n111111111111\ts\tpresent\t-\tevil/shadow:^root:\tw\n' > "$c/deps.tsv"
	SERIES=$c run "$H/deps" 9.6 "$K" "$out"
	[ "$status" -eq 0 ]
	grep -q '^111111111111	nomatch	evil/shadow:^root:$' "$out"
}
