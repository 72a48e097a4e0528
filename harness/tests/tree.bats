#!/usr/bin/env bats
# KSRC trees and tarballs, and the work copy and build dir never going stale:
# the tree, series and build stages on small fake kernel trees whose Makefile
# rebuilds by mtime, as kbuild does. No kernel is built here.

load helpers

setup() {
	sg_setup
	# a branch with a one-patch series, so the work copy is a patched copy
	fake_repo 9.6 'tree=ksrc
series_in_tree=no'
	H=$R/harness
	printf -- '--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@\n-x\n+y\n' > "$R/backports/9.6/0001-x.patch"
	echo 0001-x.patch > "$R/backports/9.6/series"
}

# build_variant KSRC: series (patched, no patches) then build, as validate does.
build_variant() {
	VSRC=$("$H/stages/series" 9.6 patched "$1" 2>"$BATS_TEST_TMPDIR/series.err") || {
		cat "$BATS_TEST_TMPDIR/series.err"; return 1; }
	"$H/stages/build" "$VSRC" "$BATS_TEST_TMPDIR/out" 2>&1
	cat "$BATS_TEST_TMPDIR/out/arch/x86/boot/bzImage"
}
# switch: the work copy to baseline and back to patched (new inodes, the same bytes); prints its path
switch() { "$H/stages/series" 9.6 baseline "$k" > /dev/null 2>&1; "$H/stages/series" 9.6 patched "$k" 2>/dev/null; }

@test "KSRC tarball: extracted once per digest into the cache, then reused" {
	fake_tree "$BATS_TEST_TMPDIR/t/linux-4.19.48" a1 b1
	tar -C "$BATS_TEST_TMPDIR/t" -cJf "$BATS_TEST_TMPDIR/linux.tar.xz" linux-4.19.48
	KSRC=$BATS_TEST_TMPDIR/linux.tar.xz run "$H/stages/tree" 9.6
	[ "$status" -eq 0 ]
	[[ "$output" == *"KERNEL_VERSION=4.19.48"* ]]
	[[ "$output" == *"TREE_SOURCE=KSRC:linux.tar.xz"* ]]
	d=$(sha256sum < "$BATS_TEST_TMPDIR/linux.tar.xz" | cut -c1-64)
	[[ "$output" == *"TREE_DIGEST=sha256:$d"* ]]
	src=$(echo "$output" | sed -n 's/^SRC=//p')
	[ "$src" = "$STABLEGATE_CACHE/src/ksrc-$(echo "$d" | cut -c1-16)" ]
	[ -f "$src/.complete" ] && [ "$(cat "$src/a.c")" = a1 ]
	[ -z "$(ls -d "$src".part.* 2>/dev/null)" ]
	KSRC=$BATS_TEST_TMPDIR/linux.tar.xz run "$H/stages/tree" 9.6
	[[ "$output" == *"reusing extracted tree $src"* ]]
	# another tarball is another tree
	fake_tree "$BATS_TEST_TMPDIR/t/linux-4.19.48" a2 b1
	tar -C "$BATS_TEST_TMPDIR/t" -czf "$BATS_TEST_TMPDIR/linux2.tar.gz" linux-4.19.48
	KSRC=$BATS_TEST_TMPDIR/linux2.tar.gz run "$H/stages/tree" 9.6
	src2=$(echo "$output" | sed -n 's/^SRC=//p')
	[ "$src2" != "$src" ] && [ "$(cat "$src2/a.c")" = a2 ]
}

@test "KSRC: a file that is not a tarball of one kernel tree is named, nothing left behind" {
	echo junk > "$BATS_TEST_TMPDIR/junk.tar.xz"
	KSRC=$BATS_TEST_TMPDIR/junk.tar.xz run "$H/stages/tree" 9.6
	[ "$status" -eq 1 ]
	[[ "$output" == *"tree: error: cannot extract $BATS_TEST_TMPDIR/junk.tar.xz"* ]]
	mkdir -p "$BATS_TEST_TMPDIR/t/a" "$BATS_TEST_TMPDIR/t/b"
	tar -C "$BATS_TEST_TMPDIR/t" -cf "$BATS_TEST_TMPDIR/two.tar" a b
	KSRC=$BATS_TEST_TMPDIR/two.tar run "$H/stages/tree" 9.6
	[ "$status" -eq 2 ]
	[[ "$output" == *"does not unpack to one top directory"* ]]
	KSRC=$BATS_TEST_TMPDIR/nosuch run "$H/stages/tree" 9.6
	[ "$status" -eq 2 ]
	[[ "$output" == *"KSRC=$BATS_TEST_TMPDIR/nosuch: takes an existing file or directory"* ]]
	# shellcheck disable=SC2143 # (what was left, in the failure output)
	[ -z "$(ls -A "$STABLEGATE_CACHE/src" | grep -v '\.lock$')" ]
}

@test "an edited KSRC is rebuilt: sed -i, and an edit back to an older mtime" {
	k=$BATS_TEST_TMPDIR/linux
	fake_tree "$k" a1 b1
	run build_variant "$k"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | tail -n 4 | tr '\n' ' ')" = "a1 header-1 b1 header-1 " ] || { echo "$output"; false; }
	sed -i 's/a1/a1-edited/' "$k/a.c"
	run build_variant "$k"
	[ "$status" -eq 0 ]
	[[ "$output" != *"reusing"* ]]
	[[ "$output" == *"a1-edited"* ]]
	# a header edited and set back to an old mtime (a git checkout, a tarball)
	echo header-2 > "$k/inc.h"
	touch -d '2001-01-01' "$k/inc.h"
	run build_variant "$k"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | tail -n 4 | tr '\n' ' ')" = "a1-edited header-2 b1 header-2 " ] || { echo "$output"; false; }
	# unchanged: nothing recompiled
	run build_variant "$k"
	[[ "$output" == *"built 0 objects"* ]]
	# the user's tree itself was never written to
	[ "$(stat -c %Y "$k/inc.h")" = "$(date -d 2001-01-01 +%s)" ]
}

@test "switching KSRC between two trees builds exactly the current tree" {
	a=$BATS_TEST_TMPDIR/A b=$BATS_TEST_TMPDIR/B
	fake_tree "$a" a-changed b1
	fake_tree "$b" a1 b-changed
	touch -d '2019-07-01' "$a/a.c"	# A's edit is the newest file of both trees
	run build_variant "$a"
	[ "$(echo "$output" | tail -n 4 | tr '\n' ' ')" = "a-changed header-1 b1 header-1 " ] || { echo "$output"; false; }
	run build_variant "$b"
	[ "$(echo "$output" | tail -n 4 | tr '\n' ' ')" = "a1 header-1 b-changed header-1 " ] || { echo "$output"; false; }
	run build_variant "$a"
	[ "$(echo "$output" | tail -n 4 | tr '\n' ' ')" = "a-changed header-1 b1 header-1 " ] || { echo "$output"; false; }
}

@test "a build dir with objects but no record of their sources starts clean" {
	k=$BATS_TEST_TMPDIR/linux
	fake_tree "$k" a1 b1
	mkdir -p "$BATS_TEST_TMPDIR/out/obj"
	echo stale > "$BATS_TEST_TMPDIR/out/obj/a.o"
	touch -d '2030-01-01' "$BATS_TEST_TMPDIR/out/obj/a.o"
	run build_variant "$k"
	[[ "$output" == *"has objects but no record of their sources; starting clean"* ]]
	[[ "$output" != *stale* ]] && [[ "$output" == *a1* ]]
}

@test "prefixes: each prefix of the series is applied exactly and built; an offset or a build error is named" {
	k=$BATS_TEST_TMPDIR/linux
	fake_tree "$k" a1 b1
	printf -- '--- a/b.c\n+++ b/b.c\n@@ -1 +1 @@\n-b1\n+b2\n' > "$R/backports/9.6/0002-y.patch"
	printf '0001-x.patch\n0002-y.patch\n' > "$R/backports/9.6/series"
	KSRC=$k run "$H/drivers/prefixes" 9.6
	[ "$status" -eq 0 ]
	[[ "$output" == *"prefix 1/2 0001-x.patch: exact, built in "*"s, 0 warnings in its files"* ]]
	[[ "$output" == *"prefix 2/2 0002-y.patch: exact, built in "* ]]
	[[ "$output" == *"all 2 prefixes of the 9.6 series apply exactly and build"* ]]
	[ "$(tail -n 2 "$STABLEGATE_CACHE/build/9.6-baseline/arch/x86/boot/bzImage" | head -n 1)" = b2 ]
	# the next validate's series stage does not mistake the copy for the baseline
	run "$H/stages/series" 9.6 baseline "$k"
	[[ "$output" != *reusing* ]]
	# a patch that applies only at an offset
	printf -- '--- a/b.c\n+++ b/b.c\n@@ -3 +3 @@\n-b1\n+b2\n' > "$R/backports/9.6/0002-y.patch"
	KSRC=$k run "$H/drivers/prefixes" 9.6
	[ "$status" -eq 1 ]
	[[ "$output" == *"prefix 2/2 0002-y.patch: inexact (Hunk #1 succeeded at 1 "* ]]
	# a patch that breaks the build
	printf -- '--- a/Makefile\n+++ b/Makefile\n@@ -3,2 +3,3 @@\n SUBLEVEL = 48\n+$(error broken by 0002)\n bzImage: $(O)/arch/x86/boot/bzImage\n' > "$R/backports/9.6/0002-y.patch"
	KSRC=$k run "$H/drivers/prefixes" 9.6
	[ "$status" -eq 1 ]
	[[ "$output" == *"prefix 2/2 0002-y.patch: exact, build error: "*"broken by 0002"* ]] || { echo "$output"; false; }
}

@test "build: the objects compiled are counted even under 'make -s validate'" {
	k=$BATS_TEST_TMPDIR/linux
	fake_tree "$k" a1 b1
	VSRC=$("$H/stages/series" 9.6 patched "$k" 2>/dev/null)
	MAKEFLAGS=s MAKELEVEL=1 run "$H/stages/build" "$VSRC" "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 0 ]
	[[ "$output" == *"built 2 objects"* ]]
}

@test "build: a series applied again rebuilds nothing, and then make is not run; a changed file or .config is built" {
	k=$BATS_TEST_TMPDIR/linux
	fake_tree "$k" a1 b1
	out=$BATS_TEST_TMPDIR/out
	# patched, baseline in between (the work copy is made again), patched
	cycle() { VSRC=$(switch); "$H/stages/build" "$VSRC" "$out" 2>&1; }
	run build_variant "$k"
	[ "$status" -eq 0 ] && [[ "$output" == *"built 2 objects"* ]]
	rm "$out/.sg-sums"	# (a build dir from before .sg-sums)
	run cycle	# notes.txt, patched again: not known yet, so refreshed; make runs
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 source files differ from the last build: notes.txt"* ]]
	[[ "$output" != *"make not run"* ]]
	run cycle	# now known: the same bytes get their mtime back; nothing to make
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(1 of them only by inode and mtime: the same bytes): notes.txt"* ]]
	[[ "$output" == *"up to date: built 0 objects, make not run"* ]]
	grep -q 'make not run' "$out/build.log"
	VSRC=$STABLEGATE_CACHE/work/9.6
	[ "$(cat "$VSRC/notes.txt")" = y ]
	# a build that did not keep .sg-sums (an older stablegate) moved the
	# manifest on: the sums are not trusted, the file is refreshed
	sed -i 's/^\(notes.txt\t[0-9]*\t[0-9]*\t\)[0-9.]*/\11.0/' "$out/.sg-manifest"
	run cycle
	[[ "$output" == *"1 source files differ from the last build: notes.txt"* ]] && [[ "$output" != *"make not run"* ]]
	run cycle
	[[ "$output" == *"make not run"* ]]
	# a changed .config makes make run again (and compile what it decides)
	echo '# CONFIG_X is not set' >> "$out/.config"
	run "$H/stages/build" "$VSRC" "$out"
	[ "$status" -eq 0 ] && [[ "$output" != *"make not run"* ]]
	# an edited source in the user's tree is compiled, and its bytes end up in the image
	sed -i 's/a1/a1-edited/' "$k/a.c"
	run cycle
	[ "$status" -eq 0 ] && [[ "$output" == *"built 1 objects"* ]] && grep -q '  CC .*obj/a.o' "$out/build.log"
	grep -q a1-edited "$out/arch/x86/boot/bzImage"
	# a failed build is never taken as up to date
	echo '#error broken' >> "$k/b.c"
	run cycle
	[ "$status" -eq 1 ]
	sed -i '/#error/d' "$k/b.c"
	run cycle
	[ "$status" -eq 0 ] && [[ "$output" != *"make not run"* ]]
}

@test "config: unchanged inputs do not run kconfig again; a changed fragment, Kconfig file or compiler does" {
	k=$BATS_TEST_TMPDIR/linux
	fake_tree "$k" a1 b1
	out=$BATS_TEST_TMPDIR/out
	f=$BATS_TEST_TMPDIR/frag.config
	echo 'CONFIG_A=y' > "$f"
	run env FRAGMENTS="$f" "$H/stages/config" "$k" "$out"
	[ "$status" -eq 0 ] && [[ "$output" == *"config ok"* ]] && [ -f "$out/config.log" ]
	run env FRAGMENTS="$f" "$H/stages/config" "$k" "$out"
	[ "$status" -eq 0 ] && [[ "$output" == *"config unchanged"* ]]
	echo 'CONFIG_B=y' >> "$f"
	run env FRAGMENTS="$f" "$H/stages/config" "$k" "$out"
	[[ "$output" == *"config ok"* ]]
	run env FRAGMENTS="$f" "$H/stages/config" "$k" "$out"
	[[ "$output" == *"config unchanged"* ]]
	touch "$k/Kconfig"
	run env FRAGMENTS="$f" "$H/stages/config" "$k" "$out"
	[[ "$output" == *"config ok"* ]]
	# a .config changed since (by hand, or by the build) is written again
	echo 'CONFIG_HAND=y' >> "$out/.config"
	run env FRAGMENTS="$f" "$H/stages/config" "$k" "$out"
	[[ "$output" == *"config ok"* ]]
	# another compiler: a gcc first on PATH that says another version
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\n[ "$1" = --version ] && echo "gcc (Other) 99.1" && exit 0\nexec /usr/bin/gcc "$@"\n' > "$BATS_TEST_TMPDIR/bin/gcc"
	chmod +x "$BATS_TEST_TMPDIR/bin/gcc"
	run env FRAGMENTS="$f" PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$H/stages/config" "$k" "$out"
	[[ "$output" == *"config ok"* ]]
	run env FRAGMENTS="$f" PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$H/stages/config" "$k" "$out"
	[[ "$output" == *"config unchanged"* ]]
}

@test "series: switching variants puts back only the files patches touched; a file a patch made is gone again" {
	k=$BATS_TEST_TMPDIR/linux
	fake_tree "$k" a1 b1
	printf -- '--- /dev/null\n+++ b/new.c\n@@ -0,0 +1 @@\n+new\n' > "$R/backports/9.6/0002-new.patch"
	printf '0001-x.patch\n0002-new.patch\n' > "$R/backports/9.6/series"
	w=$STABLEGATE_CACHE/work/9.6
	run "$H/stages/series" 9.6 patched "$k"
	[ "$status" -eq 0 ] && [ "$(cat "$w/notes.txt")" = y ] && [ "$(cat "$w/new.c")" = new ]
	run "$H/stages/series" 9.6 baseline "$k"
	echo "$output"
	[ "$status" -eq 0 ] && [[ "$output" == *"2 files put back to the tree's"* ]]
	[ "$(cat "$w/notes.txt")" = x ] && [ ! -e "$w/new.c" ]
	[ "$(stat -c %i "$w/notes.txt")" = "$(stat -c %i "$k/notes.txt")" ]	# a hard link again
	run "$H/stages/series" 9.6 prefix-1 "$k"
	[ "$(cat "$w/notes.txt")" = y ] && [ ! -e "$w/new.c" ]
	[ "$(cat "$k/notes.txt")" = x ]	# the tree itself never written
	# an edited tree is copied anew, not switched
	echo a2 > "$k/a.c"
	run "$H/stages/series" 9.6 patched "$k"
	[[ "$output" != *"put back"* ]] && [ "$(cat "$w/a.c")" = a2 ] && [ "$(cat "$w/new.c")" = new ]
}

@test "build: the first switch of variants after a full build rebuilds nothing" {
	k=$BATS_TEST_TMPDIR/linux
	fake_tree "$k" a1 b1
	out=$BATS_TEST_TMPDIR/out
	run build_variant "$k"
	[ "$status" -eq 0 ] && [[ "$output" == *"built 2 objects"* ]]
	VSRC=$(switch)
	run "$H/stages/build" "$VSRC" "$out"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(1 of them only by inode and mtime: the same bytes): notes.txt"* ]]
	[[ "$output" == *"make not run"* ]]
	# and after a build dir was emptied (more files differ than SG_REBUILD_MAX)
	VSRC=$(switch)
	SG_REBUILD_MAX=0 run "$H/stages/build" "$VSRC" "$out"
	[ "$status" -eq 0 ] && [[ "$output" == *"starting clean"* ]] && [[ "$output" == *"built 2 objects"* ]]
	VSRC=$(switch)
	run "$H/stages/build" "$VSRC" "$out"
	[ "$status" -eq 0 ] && [[ "$output" == *"make not run"* ]]
}

@test "build: a file put back as a hard link to the tree, with the bytes last built, is not rebuilt, and the tree is not touched" {
	k=$BATS_TEST_TMPDIR/linux
	fake_tree "$k" a1 b1
	out=$BATS_TEST_TMPDIR/out
	w=$STABLEGATE_CACHE/work/9.6
	base() { "$H/stages/series" 9.6 baseline "$k" > /dev/null 2>&1 && "$H/stages/build" "$w" "$out" 2>&1; }
	run base
	[ "$status" -eq 0 ]
	# the baseline's dir once built from the patched state (as prefixes or a candidate do)
	"$H/stages/series" 9.6 patched "$k" > /dev/null 2>&1
	"$H/stages/build" "$w" "$out" > /dev/null 2>&1
	run base	# notes.txt back as a link to the tree: other bytes than last built, refreshed
	[[ "$output" == *"1 source files differ from the last build: notes.txt"* ]]
	"$H/stages/series" 9.6 patched "$k" > /dev/null 2>&1
	run base	# a link again, now with the bytes last built: nothing to make
	echo "$output"
	[[ "$output" == *"(1 of them only by inode and mtime: the same bytes)"* ]] && [[ "$output" == *"make not run"* ]]
	[ "$(stat -c %Y "$k/notes.txt")" = "$(date -d '2019-06-04 12:00' +%s)" ] && [ "$(cat "$k/notes.txt")" = x ]
}
