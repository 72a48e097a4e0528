#!/usr/bin/env bats
# A verdict is about the kernel it names: the bzImage built is the kernel the
# sources make (no object with an older payload from ccache), the guest runs
# that bzImage, and every report names it by its sha256. The build tests use
# a small fake tree whose bzImage is made the way kbuild makes one: a payload,
# an assembler file that .incbin's it, compiled through $(CC), and a boot
# header with the payload's offset and length and a version string.

load helpers

setup() {
	sg_setup
}

# piggy_tree DIR TEXT: a tree whose kernel is TEXT (its one source, k.c). The
# "compressed" payload is the kernel as is; piggy.S holds its length and
# .incbin's it, like kbuild's mkpiggy output; the bzImage is a 1024-byte
# setup (setup_sects 1, "HdrS", payload_offset 0 and payload_length, the
# version string "R (U@H) #N SMP") and piggy.o's section. FAKE_STALE=1 keeps
# an existing piggy.o: an object holding an older payload.
piggy_tree() {
	mkdir -p "$1/scripts/kconfig"
	printf 'VERSION = 4\nPATCHLEVEL = 19\nSUBLEVEL = 48\n' > "$1/Makefile"
	cat >> "$1/Makefile" <<'MK'
Z := arch/x86/boot/compressed
bzImage:
	@mkdir -p $(O)/$(Z) $(O)/obj
	@cp $(CURDIR)/k.c $(O)/obj/k.o && cp $(O)/obj/k.o $(O)/vmlinux
	@cp $(O)/vmlinux $(O)/$(Z)/vmlinux.bin.gz
	@n=$$(($$(cat $(O)/.version 2>/dev/null || echo 0) + 1)); echo $$n > $(O)/.version
	@printf '.section ".rodata..compressed","a"\n.globl z_input_len\nz_input_len = %d\n.incbin "$(Z)/vmlinux.bin.gz"\n' \
		$$(wc -c < $(O)/$(Z)/vmlinux.bin.gz) > $(O)/$(Z)/piggy.S
	@if [ -n "$(FAKE_STALE)" ] && [ -f $(O)/$(Z)/piggy.o ]; then :; else \
		cd $(O) && $(CC) -Wp,-MMD,$(Z)/.piggy.o.d -D__ASSEMBLY__ -c -o $(Z)/piggy.o $(Z)/piggy.S; fi
	@objcopy -O binary -j .rodata..compressed $(O)/$(Z)/piggy.o $(O)/body
	@sh $(CURDIR)/mkhdr $$(wc -c < $(O)/body) "4.19.48 (stablegate@stablegate) #$$(cat $(O)/.version) SMP" > $(O)/hdr
	@mkdir -p $(O)/arch/x86/boot && cat $(O)/hdr $(O)/body > $(O)/arch/x86/boot/bzImage
MK
	cat > "$1/mkhdr" <<'SH'
b() { printf "\\$(printf %03o "$1")"; }
le32() { b $(($1 & 255)); b $(($1 >> 8 & 255)); b $(($1 >> 16 & 255)); b $(($1 >> 24 & 255)); }
f=$(mktemp); head -c 1024 /dev/zero > "$f"
at() { dd of="$f" bs=1 seek="$1" conv=notrunc 2>/dev/null; }
b 1 | at 497; printf HdrS | at 514; b 0 | at 526; b 1 | at 527   # version at 0x300
le32 0 | at 584; le32 "$1" | at 588; printf '%s\0' "$2" | at 768
cat "$f"; rm -f "$f"
SH
	touch "$1/Kconfig"
	printf '#!/bin/sh\n' > "$1/scripts/kconfig/merge_config.sh"
	chmod +x "$1/scripts/kconfig/merge_config.sh"
	echo "$2" > "$1/k.c"
	echo test > "$1/.sg-key"	# a harness work copy (harness/stages/series): built incrementally
}
payload() { # the payload of bzImage $1, as the boot header places it
	tail -c +1025 "$1" | head -c "$(od -An -tu4 -j 588 -N 4 "$1" | tr -d ' ')"
}

@test "identity 0: two kernels of the same length through ccache: the bzImage carries the second" {
	command -v ccache || skip "no ccache (make setup installs it)"
	T=$BATS_TEST_TMPDIR/k OUT=$BATS_TEST_TMPDIR/out
	piggy_tree "$T" kernel-one
	run "$H/stages/build" "$T" "$OUT"
	[ "$status" -eq 0 ]
	[ "$(payload "$OUT/arch/x86/boot/bzImage")" = kernel-one ]
	echo kernel-two > "$T/k.c"	# new bytes, the same length: piggy.S's text is the same
	run "$H/stages/build" "$T" "$OUT"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(payload "$OUT/arch/x86/boot/bzImage")" = kernel-two ]
	grep -q "^BZIMAGE_SHA256=$(sha256sum < "$OUT/arch/x86/boot/bzImage" | cut -c1-64)$" "$OUT/.sg-kernel"
	grep -q '^BZIMAGE_VERSION=4.19.48 (stablegate@stablegate) #2 SMP$' "$OUT/.sg-kernel"
	grep -q '^BZIMAGE_PAYLOAD=arch/x86/boot/compressed/vmlinux.bin.gz, sha256 ' "$OUT/.sg-kernel"
	# piggy.S went to gcc itself, the kernel's C sources through ccache
	printf 'int main(void) { return 0; }\n' > "$BATS_TEST_TMPDIR/x.c"
	(cd "$BATS_TEST_TMPDIR" && CCACHE_DIR=$STABLEGATE_CACHE/ccache "$STABLEGATE_CACHE/bin/kbuild-cc" -c x.c -o x.o)
	[ "$(CCACHE_DIR=$STABLEGATE_CACHE/ccache ccache --print-stats | awk '$1 == "cache_miss" || $1 == "direct_cache_miss" {n += $2} END {print n + 0}')" -ge 1 ]
}

@test "identity 0: a bzImage whose payload is not the kernel this build made is refused, named" {
	T=$BATS_TEST_TMPDIR/k OUT=$BATS_TEST_TMPDIR/out
	piggy_tree "$T" kernel-one
	"$H/stages/build" "$T" "$OUT"
	echo kernel-two > "$T/k.c"
	FAKE_STALE=1 run "$H/stages/build" "$T" "$OUT"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"stablegate: build: error: stale kernel: the bzImage's payload (sha256 "*") is not the arch/x86/boot/compressed/vmlinux.bin.gz this build made (sha256 "*"): an object holding an older kernel was reused; not booting it"* ]]
	[ ! -f "$OUT/.sg-kernel" ] && [ ! -f "$OUT/.sg-built" ]
	# and the next build, with the object made again, is a good one
	run "$H/stages/build" "$T" "$OUT"
	[ "$status" -eq 0 ] && [ "$(payload "$OUT/arch/x86/boot/bzImage")" = kernel-two ]
}

@test "identity 7: make runs as the build user, not root; the tree it was given stays as it was" {
	[ "$(id -u)" = 0 ] || skip "not root: the build runs as the caller"
	T=$BATS_TEST_TMPDIR/k OUT=$BATS_TEST_TMPDIR/out
	piggy_tree "$T" kernel-one
	# a Makefile hunk of a candidate: it tells who it runs as, and tries to
	# write into the tree and a root-owned file
	victim=$BATS_TEST_TMPDIR/victim && echo intact > "$victim"
	sed -i "1i \$(shell id -un > \$(O)/who; echo pwned >> $victim; echo pwned >> \$(CURDIR)/k.c)" "$T/Makefile"
	run "$H/stages/build" "$T" "$OUT"
	[ "$status" -eq 0 ]
	[ "$(cat "$OUT/who")" = stablegate ]
	[ "$(cat "$victim")" = intact ] && [ "$(cat "$T/k.c")" = kernel-one ]
}

@test "identity 0: reports name each kernel booted by its bzImage's sha256" {
	d=$BATS_TEST_TMPDIR/r
	make_run "$d" pass pass
	sed -i 's/^STARTED=now$/STARTED=2026-12-05T00:00:00Z/' "$d/env"	# (KCIDB: a date)
	for v in baseline patched; do
		printf 'config\t%s\t1\tok\nbuild\t%s\t9\tok\n' "$v" "$v" >> "$d/stages.tsv"
		printf '%s\n' "KERNEL_SHA256=$(echo "$v" | sha256sum | cut -c1-64)" \
			"KERNEL_BUILT=6.1.1 (stablegate@stablegate) #3 SMP" >> "$d/$v/boot.env"
	done
	"$H/report/report" "$d"
	"$H/report/kcidb" "$d"
	p=$(echo patched | sha256sum | cut -c1-64) b=$(echo baseline | sha256sum | cut -c1-64)
	[ "$(jq -r '.kernels | map(.variant + " " + .sha256) | join(",")' "$d/result.json")" = "baseline $b,patched $p" ]
	grep -q "| patched | \`$p\` | 6.1.1 (stablegate@stablegate) #3 SMP | ok |" "$d/summary.md"
	grep -q "^Kernel patched: bzImage sha256 ${p:0:16}, build #3$" "$d/summary.md"
	grep -q "^\* kernel patched: bzImage sha256 ${p:0:16}, build #3$" "$d/review.txt"
	[ "$(jq -r '.builds[] | select(.misc.variant == "patched") | .misc.bzimage_sha256' "$d/kcidb.json")" = "$p" ]
}

@test "identity 0: a guest whose banner is not the bzImage's build is wrong-kernel, INCONCLUSIVE" {
	k=${STABLEGATE_CACHE_REAL:-/var/cache/stablegate}/build/6.1-patched/arch/x86/boot/bzImage
	[ -f "$k" ] || skip "no 6.1 kernel at $k (e2e.bats builds it)"
	G=$BATS_TEST_TMPDIR/g && mkdir -p "$G"
	SUITES=smoke "$H/stages/image" initramfs "$G/initramfs.cpio" 2>/dev/null
	"$H/stages/image" disks "$G/disks" 2>/dev/null
	# the same kernel, its boot header claiming another build number (as many
	# digits): the guest still runs the payload's, so banner and header disagree
	cp "$k" "$G/bzImage"
	v=$(SG_ROOT=$ROOT sh -c '. "$SG_ROOT/harness/lib/sg.sh"; sg_bzimage_version "$1"' - "$G/bzImage")
	o=$(( $(od -An -tu2 -j 526 -N 2 "$G/bzImage" | tr -d ' ') + 512 ))
	n=$(echo "$v" | grep -o ' #[0-9]* ' | tr -d ' #') pre=${v%% #*}
	m=$(echo "$n" | tr 0-9 9); [ "$m" != "$n" ] || m=$(echo "$n" | tr 0-9 8)
	printf '%s' "$m" | dd of="$G/bzImage" bs=1 seek=$((o + ${#pre} + 2)) conv=notrunc 2>/dev/null
	[ "$(SG_ROOT=$ROOT sh -c '. "$SG_ROOT/harness/lib/sg.sh"; sg_bzimage_version "$1"' - "$G/bzImage")" = "$pre #$m ${v#* #"$n" }" ]
	run "$H/stages/boot" "$G/bzImage" "$G/initramfs.cpio" "$G/disks" "$G" sg.suites=smoke
	[ "$status" -eq 1 ]
	grep -qx 'BOOT_STATUS=wrong-kernel' "$G/boot.env"
	"$H/stages/scan" "$G" 2>/dev/null
	grep -q "^wrong-kernel	the guest ran \"Linux version .* #$n .*\", not the kernel booted (\".* #$m " "$G/failures.tsv"
}

@test "identity 7: what a candidate's build changes in the work copy or plants in its build dir never outlives it" {
	[ "$(id -u)" = 0 ] || skip "not root: the build runs as the caller"
	fake_branch 9.7
	victim=$BATS_TEST_TMPDIR/victim && echo intact > "$victim"
	c=$BATS_TEST_TMPDIR/cand && mkdir -p "$c"
	# a candidate whose Makefile hunk, at build time, replaces a file no patch
	# touches, plants links where the harness writes its records, and leaves
	# a process behind to do more later
	printf -- '--- a/Makefile\n+++ b/Makefile\n@@ -1,2 +1,3 @@\n VERSION = 4\n+$(shell rm -f $(CURDIR)/a.c; echo evil > $(CURDIR)/a.c; ln -s %s $(O)/.sg-built; ln -s %s $(CURDIR)/.sg-key; (sleep 5; echo late > $(O)/late) >/dev/null 2>&1 &)\n PATCHLEVEL = 19\n' \
		"$victim" "$victim" > "$c/0001-evil.patch"
	VSRC=$(SERIES=$c "$R/harness/stages/series" 9.7 patched "$K")
	"$R/harness/stages/build" "$VSRC" "$BATS_TEST_TMPDIR/out"
	[ "$(cat "$VSRC/a.c")" = evil ]	# it ran, as the build user
	[ "$(cat "$victim")" = intact ]
	sleep 6
	[ ! -e "$BATS_TEST_TMPDIR/out/late" ]
	# the branch's own series: the work copy is the tree again, not the candidate's
	run "$R/harness/stages/series" 9.7 patched "$K"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"differs from the tree outside the series' paths (a.c "*"): copied afresh"* ]]
	[ "$(cat "$VSRC/a.c")" = a1 ] && [ "$(cat "$VSRC/b.c")" = b2 ] && [ "$(cat "$victim")" = intact ]
}
