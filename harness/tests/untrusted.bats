#!/usr/bin/env bats
# A candidate series is untrusted mail and the harness runs as root: its
# patches, series file and deps.tsv, and a branch's branch.conf, are data that
# never act on the host, and each way they can be wrong ends in one named
# error. Each test is an item of issue 24; the host files at stake are
# victims under $BATS_TEST_TMPDIR. Fake kernel trees; no kernel is built.

load helpers

setup() {
	sg_setup
	fake_branch 9.6	# $R, $K: a one-patch series (b.c: b1 -> b2) on a fake tree
	H=$R/harness
	w=$STABLEGATE_CACHE/work/9.6	# the work copy harness/stages/series makes
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

@test "untrusted 1: a hunk body line that looks like +++ ../../victim never deletes a host file" {
	echo keep > "$BATS_TEST_TMPDIR/victim.c"
	# an added line "++ x/../../../victim.c" (from the work copy, ../../.. is $BATS_TEST_TMPDIR)
	printf -- '--- a/b.c\n+++ b/b.c\n@@ -1 +1,2 @@\n-b1\n+b2\n+++ x/../../../victim.c\n' > "$R/backports/9.6/0001-x.patch"
	run "$H/stages/series" 9.6 patched "$K"
	[ "$status" -eq 0 ]
	[ "$(cat "$w/b.c")" = "$(printf 'b2\n++ x/../../../victim.c')" ]	# the line is data
	for v in baseline patched baseline; do
		run "$H/stages/series" 9.6 $v "$K"
		[ "$status" -eq 0 ]
		[ "$(cat "$BATS_TEST_TMPDIR/victim.c")" = keep ]
	done
	[ "$(cat "$w/b.c")" = b1 ]
}

@test "untrusted 1: a file header naming a path outside the tree is refused by series and prefixes, naming the patch and the path; nothing is acted on" {
	echo keep > "$BATS_TEST_TMPDIR/victim.c"
	for hdr in '--- a/../../../victim.c\n+++ b/../../../victim.c\n@@ -1 +1 @@\n-keep\n+owned\n' \
		"--- /dev/null\n+++ $BATS_TEST_TMPDIR/victim.c\n@@ -0,0 +1 @@\n+owned\n" \
		'diff --git a/b.c b/b.c\nsimilarity index 100%\nrename from b.c\nrename to ../../../victim.c\n'; do
		printf -- '--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-a1\n+a2\n%b' "$hdr" > "$R/backports/9.6/0001-x.patch"
		run "$H/stages/series" 9.6 patched "$K"
		echo "$output"
		[ "$status" -eq 1 ]
		[ "$(echo "$output" | grep -c .)" = 1 ]
		[[ "$output" == "stablegate: series: error: 0001-x.patch:"[0-9]*": refused: "*"victim.c is outside the tree"* ]]
		[ "$(cat "$BATS_TEST_TMPDIR/victim.c")" = keep ] && [ "$(cat "$K/a.c")" = a1 ]
		run "$H/stages/series" 9.6 baseline "$K"
		[ "$status" -eq 0 ] && [ "$(cat "$w/a.c")" = a1 ]
		# make prefixes applies the same patches one at a time: the same refusal
		KSRC=$K run "$H/drivers/prefixes" 9.6
		[ "$status" -eq 1 ]
		[[ "$output" == *"prefixes: error: 0001-x.patch:"[0-9]*": refused: "*"victim.c is outside the tree"* ]]
		[ "$(cat "$BATS_TEST_TMPDIR/victim.c")" = keep ]
	done
}

@test "untrusted 1: a patch that makes fs/x a symlink out of the tree, then touches fs/x/passwd, is refused; the host file survives" {
	mkdir -p "$BATS_TEST_TMPDIR/etc"
	echo root > "$BATS_TEST_TMPDIR/etc/passwd"
	printf -- 'diff --git a/fs/x b/fs/x\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n+++ b/fs/x\n@@ -0,0 +1 @@\n+%s\n\\ No newline at end of file\n' \
		"$BATS_TEST_TMPDIR/etc" > "$R/backports/9.6/0001-x.patch"
	printf -- 'diff --git a/b.c b/b.c\n--- a/b.c\n+++ b/b.c\n@@ -1 +1,2 @@\n-b1\n+b2\n+++ b/fs/./x/passwd\n' >> "$R/backports/9.6/0001-x.patch"
	run "$H/stages/series" 9.6 patched "$K"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == "stablegate: series: error: 0001-x.patch:2: refused: fs/x: file mode 120000 (a symlink)"* ]]
	run "$H/stages/series" 9.6 baseline "$K"
	[ "$(cat "$BATS_TEST_TMPDIR/etc/passwd")" = root ]
	[ ! -L "$w/fs/x" ]
}

@test "untrusted 1: a switch puts back the paths the current series changed, not every path of every earlier series" {
	printf -- '--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-a1\n+a2\n' > "$c/0001-a.patch"
	run "$H/stages/series" 9.6 patched "$K"	# the branch's series: b.c
	[ "$status" -eq 0 ] && [ "$(cat "$w/b.c")" = b2 ]
	SERIES=$c run "$H/stages/series" 9.6 patched "$K"	# the candidate: b.c back, a.c
	[[ "$output" == *": 1 files put back to the tree's"* ]]
	[ "$(cat "$w/b.c")" = b1 ] && [ "$(cat "$w/a.c")" = a2 ]
	SERIES=$c run "$H/stages/series" 9.6 baseline "$K"
	[[ "$output" == *": 1 files put back to the tree's"* ]]
	[ "$(cat "$w/a.c")" = a1 ]
	run "$H/stages/series" 9.6 patched "$K"	# from the baseline: nothing differs
	echo "$output"
	[[ "$output" == *": 0 files put back to the tree's"* ]]
	[ "$(listing "$w" | grep -v '^b.c ')" = "$(listing "$K" | grep -v '^b.c ')" ]
}

@test "untrusted 2: a series file's lines are data: \$(cmd) never runs; an entry outside the directory is refused" {
	cp "$R/backports/9.6/0001-x.patch" "$c/"
	cp "$R/backports/9.6/0001-x.patch" "$BATS_TEST_TMPDIR/outside.patch"
	ln -s "$BATS_TEST_TMPDIR/outside.patch" "$c/link.patch"
	for e in '$(touch '"$BATS_TEST_TMPDIR"'/pwned)' 'x"; touch '"$BATS_TEST_TMPDIR"'/pwned; echo "' \
		'`touch '"$BATS_TEST_TMPDIR"'/pwned`' ../outside.patch "$BATS_TEST_TMPDIR/outside.patch" link.patch; do
		printf '%s\n' 0001-x.patch "$e" > "$c/series"
		SERIES=$c run "$H/stages/series" 9.6 patched "$K"
		echo "$output"
		[ "$status" -eq 2 ]
		[ ! -e "$BATS_TEST_TMPDIR/pwned" ]
		[ "$output" = "stablegate: series: error: $c/series:2: no such patch \"$e\"" ]
	done
	# a plain name, a name in a subdirectory: fine
	mkdir -p "$c/sub" && cp "$c/0001-x.patch" "$c/sub/"
	printf '# comment\nsub/0001-x.patch  \n' > "$c/series"
	SERIES=$c run "$H/stages/series" 9.6 patched "$K"
	[ "$status" -eq 0 ]
}

@test "untrusted 3: branch.conf values are data: \$(cmd), \`cmd\` and ; cmd never run; a value its key does not take is named by file and line" {
	p=$BATS_TEST_TMPDIR/pwned
	for line in "package=\$(touch $p)" "mkfs_xfs=x; touch $p" "apt_sources=\"debian:\`touch $p\`\"" \
		"version='1.0'\$(touch $p)" "keyring=/k \$(touch $p)"; do
		printf 'name=9.7\ntree=ksrc\n%s\n' "$line" > "$R/backports/9.6/branch.conf"
		run "$H/stages/deps" --check 9.7
		echo "$output"
		[ ! -e "$p" ]
		[ "$status" -eq 2 ]
		[[ "$output" == "stablegate: deps: error: $R/backports/9.6/branch.conf:3: "* ]]
	done
	# quotes around a value are stripped, and what is inside is kept as it is
	printf 'name=9.7\ntree=ksrc\nmkfs_xfs="-m reflink=1,bigtime=0"\nmkfs_ext4='"'"'-O ^has_journal'"'"'\n' > "$R/backports/9.6/branch.conf"
	run env SG_ROOT="$R" sh -c '. "$SG_ROOT/harness/lib/sg.sh" && sg_load_branch 9.7 && printf "%s|%s|%s\n" "$name" "$mkfs_xfs" "$mkfs_ext4"'
	[ "$status" -eq 0 ]
	[ "$output" = "9.7|-m reflink=1,bigtime=0|-O ^has_journal" ]
	# a quoted name and reference are the branch's, wherever a branch is looked up
	printf 'name="9.7"\ntree=ksrc\nreference='"'"'yes'"'"'\n' > "$R/backports/9.6/branch.conf"
	run make -s -C "$R" branches
	[[ "$output" == *9.7* ]] && [[ "$output" != *'"'* ]]
	run env SG_ROOT="$R" sh -c '. "$SG_ROOT/harness/lib/sg.sh" && sg_load_branch 9.7 && echo "$name $reference"'
	[ "$output" = "9.7 yes" ]
}

@test "untrusted 5: a deps.tsv probe never reads outside the tree: absolute and .. files are malformed (exit 2), a symlink out of the tree never matches" {
	echo 'root:secret' > "$BATS_TEST_TMPDIR/shadow"
	cp "$R/backports/9.6/0001-x.patch" "$c/"
	out=$BATS_TEST_TMPDIR/deps.tsv
	for probe in '../shadow:^root:' "$BATS_TEST_TMPDIR/shadow:^root:" '!fs/../../shadow:^x' '2*../shadow:.'; do
		printf 'commit\tsubject\tstatus\tpatch\tprobe\twhy\n111111111111\ts\tpresent\t-\t%s\tw\n' "$probe" > "$c/deps.tsv"
		SERIES=$c run "$H/stages/deps" 9.6 "$K" "$out"
		echo "$output"
		[ "$status" -eq 2 ]
		[ "$output" = "stablegate: deps: error: $c/deps.tsv:2: probe term \"$probe\": its file is outside the tree" ]
	done
	# a symlink in the tree that leads out of it
	ln -s "$BATS_TEST_TMPDIR" "$K/evil"
	printf 'commit\tsubject\tstatus\tpatch\tprobe\twhy\n111111111111\ts\tpresent\t-\tevil/shadow:^root:\tw\n' > "$c/deps.tsv"
	SERIES=$c run "$H/stages/deps" 9.6 "$K" "$out"
	[ "$status" -eq 0 ]
	grep -q '^111111111111	nomatch	evil/shadow:^root:$' "$out"
}

@test "untrusted 10: every git patch form round-trips: renames, copies, mode changes, deletions and new dirs come back to the tree's paths, contents and modes" {
	g=$BATS_TEST_TMPDIR/git
	cp -a "$K" "$g"
	commit() { git -C "$g" add -A && git -C "$g" -c user.name=t -c user.email=t@example.org commit -qm "$1"; }
	git -C "$g" init -q && commit base
	mkdir -p "$g/docs" && git -C "$g" mv notes.txt docs/notes.md
	commit rename
	chmod +x "$g/b.c" && commit mode
	cp "$g/inc.h" "$g/inc2.h" && commit copy
	git -C "$g" rm -q scripts/kconfig/merge_config.sh && commit delete	# its dirs go with it
	mkdir -p "$g/new/dir" && echo new > "$g/new/dir/x.c" && echo a2 > "$g/a.c" && commit new
	rm "$R/backports/9.6/"*.patch
	git -C "$g" format-patch -q -C -C -M -o "$R/backports/9.6" HEAD~5
	(cd "$R/backports/9.6" && ls 0*.patch) > "$R/backports/9.6/series"
	run "$H/stages/series" 9.6 patched "$K"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(listing "$w")" = "$(listing "$g" | grep -v '^\.git')" ]
	for v in baseline patched baseline; do
		run "$H/stages/series" 9.6 $v "$K"
		[ "$status" -eq 0 ]
	done
	diff <(listing "$K") <(listing "$w")
}

@test "untrusted 12: a KSRC on another filesystem than the cache is copied, not linked, and a switch still puts the tree's files back" {
	[ "$(id -u)" = 0 ] || skip "needs root to mount a tmpfs as the cache"
	mkdir -p "$STABLEGATE_CACHE"
	mount -t tmpfs -o size=64m sg-cache-test "$STABLEGATE_CACHE"
	run "$H/stages/series" 9.6 patched "$K"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"copied, not hard-linked"*"Invalid cross-device link"* ]]
	[ "$(cat "$w/b.c")" = b2 ]
	run "$H/stages/series" 9.6 baseline "$K"
	[ "$status" -eq 0 ]
	[ "$(listing "$w")" = "$(listing "$K")" ]
}

@test "untrusted 13: a space in the SERIES path and in patch names: the candidate is validated and its reject named, with the stable bot's mail" {
	cs="$BATS_TEST_TMPDIR/my cand"
	mkdir -p "$cs"
	printf -- 'Subject: [PATCH] a: fix\n\ncommit 1111111111111111111111111111111111111111 upstream.\n\n--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-a1\n+a2\n' > "$cs/0001-a fix.patch"
	printf -- '--- a/b.c\n+++ b/b.c\n@@ -1 +1 @@\n-zwei\n+b3\n' > "$cs/0002-b fix.patch"
	KSRC=$K SERIES=$cs VARIANTS=patched run "$R/harness/drivers/validate" 9.6
	echo "$output"
	[ "$status" -eq 1 ]
	d=$R/reports/9.6/latest
	grep -q '^series patched: stablegate: series: error: apply reject: 0002-b fix.patch does not apply to b.c (Hunk #1 FAILED at 1)$' "$d/stage-errors.txt"
	grep -q 'stablegate applied it with patch -p1 -F0 (no fuzz): 0002-b fix.patch$' "$d/FAILED.txt"
	jq -e '.verdict == "INCONCLUSIVE" and .series.patches == ["0001-a fix.patch", "0002-b fix.patch"]' "$d/result.json"
	[ "$(grep -c . "$d/stage-errors.txt")" = 1 ]
	# each patch is read whole: the commit it names is a dependency, its bytes are in the series' hash
	rm "$cs/0002-b fix.patch"
	SERIES=$cs run "$H/stages/deps" 9.6 "$K" "$BATS_TEST_TMPDIR/deps.tsv"
	[ "$status" -eq 0 ]
	[ "$(cat "$BATS_TEST_TMPDIR/deps.tsv")" = "$(printf '111111111111\tunprobed\t')" ]
	SERIES=$cs run "$H/stages/series" 9.6 patched "$K"
	[ "$status" -eq 0 ] && [ "$(cat "$w/a.c")" = a2 ]
	sed -i 's/^+a2$/+a3/' "$cs/0001-a fix.patch"
	SERIES=$cs run "$H/stages/series" 9.6 patched "$K"
	[ "$status" -eq 0 ] && [[ "$output" != *reusing* ]] && [ "$(cat "$w/a.c")" = a3 ]
	# a newline in a patch name: one line naming the candidate, exit 2
	touch "$cs/$(printf '0002-b\nfix.patch')"
	SERIES=$cs run "$H/stages/series" 9.6 patched "$K"
	[ "$status" -eq 2 ]
	[ "$output" = "stablegate: series: error: SERIES=$cs: a patch name with a newline in it" ]
}

@test "untrusted 13: a symlink-only git patch is one named error, and the run is INCONCLUSIVE naming it" {
	printf -- 'diff --git a/l b/l\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+a.c\n\\ No newline at end of file\n' > "$c/0001-link.patch"
	SERIES=$c run "$H/stages/series" 9.6 patched "$K"
	[ "$status" -eq 1 ]
	err='stablegate: series: error: 0001-link.patch:2: refused: l: file mode 120000 (a symlink): only regular files are patched'
	[ "$output" = "$err" ]
	KSRC=$K SERIES=$c VARIANTS=patched run "$R/harness/drivers/validate" 9.6
	[ "$status" -eq 1 ]
	d=$R/reports/9.6/latest
	[ "$(cat "$d/stage-errors.txt")" = "series patched: $err" ]
	jq -e '.verdict == "INCONCLUSIVE"' "$d/result.json"
}

@test "untrusted 13: a fatal candidate-deps.awk error is a named deps error, not '0 of 0 probes match', and the run is INCONCLUSIVE naming it" {
	cp "$R/backports/9.6/0001-x.patch" "$c/"
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\ncase "$*" in *candidate-deps.awk*) echo "awk: fatal: injected" >&2; exit 2 ;; esac\nexec /usr/bin/awk "$@"\n' > "$BATS_TEST_TMPDIR/bin/awk"
	chmod +x "$BATS_TEST_TMPDIR/bin/awk"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH SERIES=$c run "$H/stages/deps" 9.6 "$K" "$BATS_TEST_TMPDIR/deps.tsv"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "stablegate: deps: error: the candidate's dependency rows (harness/lib/candidate-deps.awk): awk: fatal: injected" ]
	PATH=$BATS_TEST_TMPDIR/bin:$PATH KSRC=$K SERIES=$c VARIANTS=patched run "$R/harness/drivers/validate" 9.6
	[ "$status" -eq 1 ]
	d=$R/reports/9.6/latest
	[ "$(cat "$d/stage-errors.txt")" = "deps patched: stablegate: deps: error: the candidate's dependency rows (harness/lib/candidate-deps.awk): awk: fatal: injected" ]
	jq -e '.verdict == "INCONCLUSIVE"' "$d/result.json"
}
