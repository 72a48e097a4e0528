# harness/lib/builder.sh: what a series brings runs as the build user, and
# the kernel a build made is the kernel booted. Sourced by harness/lib/sg.sh.
# shellcheck shell=sh

# sg_as_builder CMD...: run CMD as SG_BUILD_USER when the harness runs as
# root, with no capabilities and no way to gain any: what a series brings
# (the patch program reading its text, its Makefile and Kconfig hunks at
# build time) never runs as root (README.md, "What a candidate series can
# do"). Not root: CMD runs as the caller.
# In a PID namespace of its own, with no network: nothing it starts outlives
# it (the namespace ends with CMD), so no code of the build user's runs while
# the harness, as root, works in the dirs that user may write.
# The namespace's PID 1 is a shell that waits for CMD: the kernel drops a
# signal sent to a PID 1 that has no handler of its own, so make as PID 1
# outlived a SIGTERM to its run; CMD, as PID 2, gets the group's signals.
sg_as_builder() {
	if [ "$(id -u)" != 0 ]; then "$@"; return; fi
	unshare --pid --fork --kill-child --net -- \
		setpriv --reuid="$SG_BUILD_USER" --regid="$SG_BUILD_USER" --clear-groups \
		--inh-caps=-all --bounding-set=-all --no-new-privs -- \
		env HOME=/nonexistent sh -c '"$@"; exit $?' sg-builder "$@"
}

# sg_builder_owns [-d] DIR...: the build user may write DIR (root only):
# what it does not own yet becomes its own, only the directories with -d
# (a work copy's files stay hard links the build user cannot write through,
# so the tree it was copied from stays as it was). Fails naming DIR when
# the user is missing or cannot reach DIR.
sg_builder_owns() {
	[ "$(id -u)" = 0 ] || return 0
	_type=; [ "$1" != -d ] || { _type='-type d'; shift; }
	id -u "$SG_BUILD_USER" >/dev/null 2>&1 ||
		sg_die $SG_EXIT_ENV "no user $SG_BUILD_USER to build as (run 'make setup', or set SG_BUILD_USER)"
	for _d; do
		sg_unplant "$_d"
		# shellcheck disable=SC2086 # _type: empty or two words
		find "$_d" $_type ! -user "$SG_BUILD_USER" -exec chown -h "$SG_BUILD_USER:" {} +
		sg_as_builder test -w "$_d" -a -x "$_d" ||
			sg_die $SG_EXIT_ENV "the build user $SG_BUILD_USER cannot reach $_d: make its parent directories searchable (o+x), or set STABLEGATE_CACHE elsewhere"
	done
}

# sg_unplant DIR: no symbolic link at the top of DIR, a dir the build user
# may write (a build dir): the harness writes its records (.sg-*, logs) there
# as root, and would write through a link planted by the build's code. kbuild
# makes its own (O=/source) again at each make.
sg_unplant() {
	[ "$(id -u)" = 0 ] || return 0
	find "$1" -mindepth 1 -maxdepth 1 -type l -delete
}

# sg_bzimage_version FILE: the version string an x86 bzImage's boot header
# carries, "6.1.192 (user@host) #7 SMP ..." (Documentation/x86/boot.rst:
# "HdrS" at 0x202, kernel_version at 0x20e an offset from 0x200); nothing for
# a file without that header.
sg_bzimage_version() {
	[ "$(dd if="$1" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ] || return 0
	_o=$(od -An -tu2 -j 526 -N 2 "$1" | tr -d ' ')
	dd if="$1" bs=1 skip=$((_o + 512)) count=256 2>/dev/null | tr '\0' '\n' | head -n 1
}

# sg_keep_kernel BZIMAGE: keep a copy of a kernel about to be booted,
# named by its content ($STABLEGATE_CACHE/kernels/<sha256>.bzImage), so that
# a run's verdict can be booted again after later builds; prints its path.
# The least recently kept go once all of them pass SG_KEEP_KERNELS_MB.
sg_keep_kernel() {
	_kd=$STABLEGATE_CACHE/kernels
	_k=$_kd/$(sha256sum < "$1" | cut -c1-64).bzImage
	mkdir -p "$_kd"
	[ -f "$_k" ] || { cp "$1" "$_k.tmp.$$" && mv "$_k.tmp.$$" "$_k"; } ||
		sg_die $SG_EXIT_ENV "cannot keep $1 in $_kd (disk full?)"
	touch "$_k"
	# newest first: size and path (the names are hex, no spaces)
	find "$_kd" -name '*.bzImage' -printf '%T@ %s %p\n' | sort -rn |
		awk -v max=$((SG_KEEP_KERNELS_MB * 1048576)) -v keep="$_k" '{ sum += $2 } sum > max && $3 != keep { print $3 }' |
		xargs -r rm -f
	echo "$_k"
}

# sg_kbuild_cc: the compiler a kernel build gives make, in SG_CC: gcc, or,
# when ccache is installed, ccache through harness/stages/kbuild-cc
# (installed in $STABLEGATE_CACHE/bin; a source with .incbin bypasses
# ccache, which does not see the bytes it pulls in), with CCACHE_DIR
# the build user's. Depend mode: on a miss ccache compiles once and takes
# the headers from kbuild's -Wp,-MMD file, instead of running the
# preprocessor first to hash its output (a second pass over every header).
sg_kbuild_cc() {
	SG_CC=gcc
	command -v ccache >/dev/null 2>&1 || return 0
	SG_CC=$STABLEGATE_CACHE/bin/kbuild-cc
	if ! cmp -s "$SG_STAGES/kbuild-cc" "$SG_CC"; then
		mkdir -p "${SG_CC%/*}" && cp "$SG_STAGES/kbuild-cc" "$SG_CC.tmp" && mv "$SG_CC.tmp" "$SG_CC" ||
			sg_die $SG_EXIT_ENV "cannot install $SG_CC (disk full?)"
	fi
	mkdir -p "$CCACHE_DIR"
	sg_builder_owns "$CCACHE_DIR"
	export CCACHE_DIR CCACHE_DEPEND="${CCACHE_DEPEND:-1}"
}
