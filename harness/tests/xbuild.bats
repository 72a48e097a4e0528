#!/usr/bin/env bats
# harness/stages/xbuild: the objects a series touches and their in-tree
# users, on small fixture trees; its build on a fake kbuild tree whose
# Makefile answers allmodconfig, modules_prepare and single objects the
# way kbuild does (a gcc-like error or warning line, an object file), with
# a host tool that builds only once its host fix is applied. No kernel is
# built here; the real measurements are in the report of the change.

load helpers

setup() {
	sg_setup
	T=$BATS_TEST_TMPDIR/linux
}

# fixture_tree DIR: fs/a.c defines and exports sg_thing (declared in
# include/linux/thing.h), which calls a static helper and the file operation
# copy_file_range, and a static function nothing calls; fs/b.c uses sg_thing; fs/c.c has a helper of its own;
# fs/d.c assigns d_copy (defined in fs/e.c) to .copy_file_range; mm/f.c
# uses nothing of it
fixture_tree() {
	mkdir -p "$1/include/linux" "$1/fs" "$1/mm"
	printf 'struct file_operations {\n\tint (*read)(int);\n\tint (*copy_file_range)(int);\n};\n' > "$1/include/linux/fs.h"
	printf 'int sg_thing(int x);\n' > "$1/include/linux/thing.h"
	printf '%s\n' '#include <linux/thing.h>' 'static int helper(int x)' '{' '	return x;' '}' '' \
		'int sg_thing(int x)' '{' '	int y = helper(x);' '	return f->f_op->copy_file_range(y);' '}' 'EXPORT_SYMBOL(sg_thing);' \
		'static int lonely(int x)' '{' '	return x;' '}' > "$1/fs/a.c"
	printf '%s\n' '#include <linux/thing.h>' 'int b(void)' '{' '	return sg_thing(1);' '}' > "$1/fs/b.c"
	printf '%s\n' 'static int helper(int x)' '{' '	return 2;' '}' > "$1/fs/c.c"
	printf '%s\n' 'static const struct file_operations d_fops = {' '	.copy_file_range = d_copy,' '};' > "$1/fs/d.c"
	printf '%s\n' 'int d_copy(int x)' '{' '	return x;' '}' > "$1/fs/e.c"
	printf '%s\n' 'int f(void)' '{' '	return 0;' '}' > "$1/mm/f.c"
}

@test "xbuild objects: the touched file, the users of its exported function, of its static helper's callers and of the file operation it calls" {
	fixture_tree "$T"
	# a hunk in sg_thing (exported, declared in a header) and in the static helper
	printf -- '--- a/fs/a.c\n+++ b/fs/a.c\n@@ -3,3 +3,3 @@ static int helper(int x)\n {\n-\treturn x;\n+\treturn x + 1;\n }\n@@ -9,2 +9,2 @@ int sg_thing(int x)\n {\n-\tint y = helper(x);\n+\tint y = helper(x) * 2;\n' > "$BATS_TEST_TMPDIR/1.patch"
	run "$H/stages/xbuild" objects "$T" "$BATS_TEST_TMPDIR/1.patch"
	echo "$output"
	[ "$status" -eq 0 ]
	# stdout: the objects; the one stderr line says whose users they are
	[ "$(echo "$output" | grep -v '^stablegate:' | tr '\n' ' ')" = "fs/a.o fs/b.o fs/d.o fs/e.o " ]
	[[ "$output" == *"1 objects of files the series touches, 3 of users of: "*"sg_thing"* ]]
	[[ "$output" == *"d_copy (.copy_file_range)"* ]]
	# fs/c.c's helper is another function: a static one is not followed
	[[ "$output" != *"fs/c.o"* ]] && [[ "$output" != *"mm/f.o"* ]]
	# only the static helper changed: sg_thing, which calls it, changes too
	printf -- '--- a/fs/a.c\n+++ b/fs/a.c\n@@ -3,3 +3,3 @@ static int helper(int x)\n {\n-\treturn x;\n+\treturn x + 1;\n }\n' > "$BATS_TEST_TMPDIR/2.patch"
	run "$H/stages/xbuild" objects "$T" "$BATS_TEST_TMPDIR/2.patch"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -v '^stablegate:' | tr '\n' ' ')" = "fs/a.o fs/b.o fs/d.o fs/e.o " ]
	# a static function nothing calls: the file itself, no users
	printf -- '--- a/fs/a.c\n+++ b/fs/a.c\n@@ -14,3 +14,3 @@ static int lonely(int x)\n {\n-\treturn x;\n+\treturn x + 1;\n }\n' > "$BATS_TEST_TMPDIR/3.patch"
	run "$H/stages/xbuild" objects "$T" "$BATS_TEST_TMPDIR/3.patch"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -v '^stablegate:')" = fs/a.o ]
}

@test "xbuild objects: a header the series changes makes its new declaration visible; more users than the bound are cut, named" {
	fixture_tree "$T"
	for i in $(seq 1 45); do printf 'int u%d(void) { return gen_x(); }\n' "$i" > "$T/fs/u$i.c"; done
	# a function made non-static and declared in a header by the series
	printf -- '--- a/fs/b.c\n+++ b/fs/b.c\n@@ -1,2 +1,2 @@\n #include <linux/thing.h>\n-int b(void)\n+int b_new(void)\n--- a/include/linux/thing.h\n+++ b/include/linux/thing.h\n@@ -1 +1,3 @@\n int sg_thing(int x);\n+int b_new(void);\n+int gen_x(void);\n' > "$BATS_TEST_TMPDIR/1.patch"
	run "$H/stages/xbuild" objects "$T" "$BATS_TEST_TMPDIR/1.patch"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -v '^stablegate:')" = fs/b.o ]
	[[ "$output" == *"cut (more than 40 objects in all): gen_x (45)"* ]]
}

@test "xbuild objects: a series patch naming a path outside the tree is refused by name, and nothing is read" {
	fixture_tree "$T"
	echo keep > "$BATS_TEST_TMPDIR/victim.c"
	printf -- '--- a/../victim.c\n+++ b/../victim.c\n@@ -1 +1 @@\n-keep\n+owned\n' > "$BATS_TEST_TMPDIR/0001-x.patch"
	run "$H/stages/xbuild" objects "$T" "$BATS_TEST_TMPDIR/0001-x.patch"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$(echo "$output" | grep -c .)" = 1 ]
	[[ "$output" == "stablegate: xbuild: error: 0001-x.patch:"[0-9]*": refused: a/../victim.c is outside the tree"* ]]
	# a link in the tree that leads out of it is not followed either
	ln -s "$BATS_TEST_TMPDIR/victim.c" "$T/fs/v.c"
	printf -- '--- a/fs/v.c\n+++ b/fs/v.c\n@@ -1 +1 @@\n-keep\n+owned\n' > "$BATS_TEST_TMPDIR/0002-y.patch"
	run "$H/stages/xbuild" objects "$T" "$BATS_TEST_TMPDIR/0002-y.patch"
	[ "$status" -eq 1 ]
	[[ "$output" == *"fs/v.c: not a file inside"* ]]
	[ "$(cat "$BATS_TEST_TMPDIR/victim.c")" = keep ]
}

# fake_kbuild DIR: a tree whose Makefile does what xbuild asks of kbuild:
# allmodconfig writes .config and include/config/auto.conf (CONFIG_A=y);
# modules_prepare builds a host tool, which fails unless tools/tool.c says
# "fixed"; DIR/fs/NAME.o compiles fs/NAME.c: "#error" fails as gcc does,
# "WARN" prints a gcc warning with line and column, "OBJTOOL" one of
# objtool's with an offset. fs/Makefile builds a.o b.o e.o under CONFIG_A
# and c.o under CONFIG_NOPE.
fake_kbuild() {
	mkdir -p "$1/fs" "$1/tools" "$1/scripts"
	printf 'VERSION = 4\nPATCHLEVEL = 19\nSUBLEVEL = 48\n' > "$1/Makefile"
	cat >> "$1/Makefile" <<'MK'
allmodconfig:
	@mkdir -p $(O)/include/config; echo CONFIG_A=y > $(O)/.config; echo CONFIG_A=y > $(O)/include/config/auto.conf
modules_prepare:
	@echo "  HOSTCC  tools/tool"; if ! grep -q fixed tools/tool.c; then echo "$(CURDIR)/tools/tool.c:1:1: error: use after free [-Werror=use-after-free]"; exit 1; fi
fs/%.o: FORCE
	@mkdir -p $(O)/fs; echo "  CC      $@"
	@if grep -q '^#error' fs/$*.c; then echo "$(CURDIR)/fs/$*.c:1:2: error: #error $$(sed -n 's/^#error //p' fs/$*.c)"; exit 1; fi
	@if grep -q WARN fs/$*.c; then echo "$(CURDIR)/fs/$*.c:3:5: warning: unused variable 'x' [-Wunused-variable]"; fi
	@if grep -q OBJTOOL fs/$*.c; then echo "fs/.tmp_$*.o: warning: objtool: f()+0x3e: unreachable instruction"; fi
	@cp fs/$*.c $(O)/fs/$*.o
FORCE:
.PHONY: FORCE allmodconfig modules_prepare
MK
	touch "$1/Kconfig" "$1/scripts/Kbuild.include"
	printf 'obj-$(CONFIG_A) += a.o b.o e.o\nobj-$(CONFIG_NOPE) += c.o\n' > "$1/fs/Makefile"
	echo broken > "$1/tools/tool.c"
	printf 'int a;\n' > "$1/fs/a.c"
	printf 'int b;\nWARN\n' > "$1/fs/b.c"
	printf 'int c;\n' > "$1/fs/c.c"
	printf '#error no such thing\n' > "$1/fs/e.c"
}

@test "xbuild build: a host fix touching a file outside tools/ and scripts/ is refused by name; nothing is built" {
	fake_branch 9.6
	mkdir -p "$R/backports/9.6/host-fixes"
	printf -- '--- a/tools/tool.c\n+++ b/tools/tool.c\n@@ -1 +1 @@\n-broken\n+fixed\n' > "$R/backports/9.6/host-fixes/0001-tool.patch"
	printf -- '--- a/b.c\n+++ b/b.c\n@@ -1 +1 @@\n-b1\n+b2\n' > "$R/backports/9.6/host-fixes/0002-not-a-tool.patch"
	echo a.o > "$BATS_TEST_TMPDIR/list"
	run "$R/harness/stages/xbuild" build 9.6 baseline "$K" "$BATS_TEST_TMPDIR/logs" "$BATS_TEST_TMPDIR/list"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "stablegate: xbuild: error: host fix 0002-not-a-tool.patch: touches b.c, outside tools/ and scripts/: refused (host fixes are for host tools only, never the code under test)" ]
	[ ! -e "$STABLEGATE_CACHE/xbuild" ] && [ ! -e "$BATS_TEST_TMPDIR/logs/xbuild.tsv" ]
	[ "$(cat "$K/b.c")" = b1 ]
}

@test "xbuild build: host fixes only in the shadow dir; ok, error, not-built rows; warnings comparable; i386 only the touched objects" {
	fake_repo 9.6 'tree=ksrc
series_in_tree=no'
	fake_kbuild "$T"
	# the series touches fs/a.c and fs/e.c; the list (xbuild objects) adds users
	printf -- '--- a/fs/a.c\n+++ b/fs/a.c\n@@ -1 +1 @@\n-int a;\n+int a2;\n--- a/fs/e.c\n+++ b/fs/e.c\n@@ -1 +1 @@\n-x\n+y\n' > "$R/backports/9.6/0001-x.patch"
	echo 0001-x.patch > "$R/backports/9.6/series"
	mkdir -p "$R/backports/9.6/host-fixes"
	printf -- '--- a/tools/tool.c\n+++ b/tools/tool.c\n@@ -1 +1 @@\n-broken\n+fixed\n' > "$R/backports/9.6/host-fixes/0001-tool.patch"
	printf '%s\n' fs/a.o fs/b.o fs/c.o fs/e.o fs/gone.o > "$BATS_TEST_TMPDIR/list"
	L=$BATS_TEST_TMPDIR/logs
	run "$R/harness/stages/xbuild" build 9.6 baseline "$T" "$L" "$BATS_TEST_TMPDIR/list"
	echo "$output"
	[ "$status" -eq 0 ]
	cat "$L/xbuild.tsv"
	[ "$(head -n 1 "$L/xbuild.tsv")" = "$(printf 'arch\tobject\tstatus\twarnings\tdetail')" ]
	grep -qx "$(printf 'x86_64\tfs/a.o\tok\t0\t')" "$L/xbuild.tsv"
	grep -qx "$(printf 'x86_64\tfs/b.o\tok\t1\t')" "$L/xbuild.tsv"
	grep -qx "$(printf 'x86_64\tfs/c.o\tnot-built\t0\tnot enabled by allmodconfig on x86_64')" "$L/xbuild.tsv"
	grep -qx "$(printf 'x86_64\tfs/e.o\terror\t0\tfs/e.c:1:2: error: #error no such thing')" "$L/xbuild.tsv"
	grep -qx "$(printf 'x86_64\tfs/gone.o\tnot-built\t0\tno fs/gone.c in this variant')" "$L/xbuild.tsv"
	# i386: the files the series touches only
	[ "$(awk -F'\t' '$1 == "i386" { print $2 }' "$L/xbuild.tsv" | tr '\n' ' ')" = "fs/a.o fs/e.o " ]
	[ "$(cat "$L/xbuild-x86_64.warnings")" = "fs/b.c: warning: unused variable 'x' [-Wunused-variable]" ]
	grep -q '^## make modules_prepare' "$L/xbuild-x86_64.log"
	[ "$(sed -n 's/^HOST_FIXES=//p' "$L/xbuild.env")" = 0001-tool.patch ]
	for k in XBUILD_X86_64_PREPARE_SECS XBUILD_X86_64_OBJECTS_SECS XBUILD_I386_PREPARE_SECS XBUILD_I386_OBJECTS_SECS; do
		grep -qE "^$k=[0-9]+\$" "$L/xbuild.env"
	done
	# the fix is in the shadow only: the tree given stays as it was
	[ "$(cat "$T/tools/tool.c")" = broken ]
	[ "$(cat "$STABLEGATE_CACHE/xbuild/9.6-src/tools/tool.c")" = fixed ]
	# another variant with an objtool warning: the same line whatever the offset
	cp -a "$T" "$BATS_TEST_TMPDIR/p"
	printf 'int b;\nWARN\nOBJTOOL\n' > "$BATS_TEST_TMPDIR/p/fs/b.c"
	run "$R/harness/stages/xbuild" build 9.6 patched "$BATS_TEST_TMPDIR/p" "$L.p" "$BATS_TEST_TMPDIR/list"
	[ "$status" -eq 0 ]
	[ "$(diff "$L/xbuild-x86_64.warnings" "$L.p/xbuild-x86_64.warnings" | grep '^[<>]')" = "> fs/b.o: warning: objtool: f(): unreachable instruction" ]
	grep -qx "$(printf 'x86_64\tfs/b.o\tok\t2\t')" "$L.p/xbuild.tsv"
	[ -d "$STABLEGATE_CACHE/xbuild/9.6-patched-x86_64" ]
	# without the fix the host tool fails: every row says so
	rm "$R/backports/9.6/host-fixes/0001-tool.patch"
	run "$R/harness/stages/xbuild" build 9.6 baseline "$T" "$L" "$BATS_TEST_TMPDIR/list"
	[ "$status" -eq 0 ]
	[ "$(awk -F'\t' 'NR > 1 { print $3 }' "$L/xbuild.tsv" | sort -u)" = prepare-failed ]
	[ "$(awk -F'\t' 'NR > 1 { print $5 }' "$L/xbuild.tsv" | sort -u)" = "tools/tool.c:1:1: error: use after free [-Werror=use-after-free]" ]
	[ -z "$(sed -n 's/^HOST_FIXES=//p' "$L/xbuild.env")" ]
}

@test "xbuild: usage errors exit 2" {
	run "$H/stages/xbuild" frobnicate
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown command 'frobnicate' (objects or build)"* ]]
	run "$H/stages/xbuild" objects "$BATS_TEST_TMPDIR/nosuch"
	[ "$status" -eq 2 ]
	echo 'fs/a.o -o x' > "$BATS_TEST_TMPDIR/list"
	fixture_tree "$T"
	run "$H/stages/xbuild" build 4.19 baseline "$T" "$BATS_TEST_TMPDIR/logs" "$BATS_TEST_TMPDIR/list"
	[ "$status" -eq 2 ]
	[[ "$output" == *"is not a kbuild object path"* ]]
}
