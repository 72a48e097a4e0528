# stablegate: shared shell helpers, sourced by every harness stage.
# POSIX sh. Every stage starts with sg_stage, which names it (SG_STAGE) so
# that each error line says which stage failed and why, in one line.
# shellcheck shell=sh disable=SC2034 # (file-wide) the globals set here are for the stages that source it

# SG_ROOT: the checkout the running stage belongs to (the stage's own, so a
# copy of the repo runs on its own data); the caller's when lib.sh is sourced
# by something outside harness/ (the Makefile exports it).
if [ -f "$(dirname "$0")/lib.sh" ]; then SG_ROOT=$(cd "$(dirname "$0")/.." && pwd); fi
: "${SG_ROOT:?SG_ROOT is not set (the stablegate checkout)}"
# The awk and jq programs of the stages, one file each.
SG_PROGRAMS=$SG_ROOT/harness/programs

# Exit statuses shared by all stages and the validate driver.
SG_EXIT_FAIL=1      # the stage ran and failed (reject, build error, boot hang ...)
SG_EXIT_USAGE=2     # bad arguments or data: unknown branch, a bad setting, a corrupt result.json
SG_EXIT_NOTREE=3    # the branch's tree is not installable here and no KSRC= was given
SG_EXIT_ENV=4       # the machine lacks something: a tool, disk space

sg_log() { printf 'stablegate: %s: %s\n' "${SG_STAGE:-?}" "$*" >&2; }
sg_die() { # sg_die STATUS MESSAGE...
	_st=$1; shift
	printf 'stablegate: %s: error: %s\n' "${SG_STAGE:-?}" "$*" >&2
	exit "$_st"
}

# sg_check_settings: every setting of defaults.sh that has a value holds what
# the [RULE] tag of its comment there says it takes (defaults.sh lists the
# rules), or one error line naming it, exit 2. Empty is the default.
sg_check_settings() {
	while IFS= read -r _l; do
		case $_l in ': "${'*) ;; *) continue ;; esac
		_n=${_l#': "${'} _n=${_n%%:=*} _r=${_l#*'}"'*'# ['} _r=${_r%%]*}
		eval "_v=\${$_n-}"
		[ -z "$_v" ] || sg_takes "$_r" "$_v" || sg_die $SG_EXIT_USAGE "$_n=$_v: takes $(echo "$_r" |
			sed 's/^uint/a whole number/; s/[>=][>=]*/ & /; s/^path/an existing file or directory/
				s/[.][.][.]$/, space separated/; s/|\([^|]*\)$/ or \1/; s/|/, /g') (harness/defaults.sh)"
	done < "$SG_ROOT/harness/defaults.sh"
}

# sg_takes RULE VALUE: VALUE is what RULE takes (sg_check_settings). A whole
# number is decimal, of at most 18 digits (the shell's arithmetic).
sg_takes() {
	case $1 in
	*...)
		set -f; set -- "${1%...}" $2; set +f
		_each=$1; shift
		for _w; do sg_takes "$_each" "$_w" || return 1; done ;;
	uint*)
		case $2 in *[!0-9]*|0?*) return 1 ;; esac
		[ ${#2} -le 18 ] || return 1
		case $1 in
		'uint>0') [ "$2" -gt 0 ] ;;
		'uint>='*) [ "$2" -ge "${1#uint>=}" ] ;;
		esac ;;
	path) [ -e "$2" ] ;;
	text) ;;
	*'|'*) case "|$1|" in *"|$2|"*) ;; *) return 1 ;; esac ;;
	*) return 1 ;;
	esac
}

# The settings as given are checked before defaults.sh computes defaults
# from them (SOAK_OPS=abc would stop the shell there), as every stage starts:
# named after its file, which is the name sg_stage gives it.
SG_STAGE=${0##*/}
sg_check_settings
. "$SG_ROOT/harness/defaults.sh"
export SG_ROOT STABLEGATE_CACHE

# sg_help FILE: print the leading comment block of a stage as its --help.
sg_help() {
	sed -n '2,/^[^#]/{/^#/!q;s/^# \{0,1\}//;p}' "$1"
}

# sg_stage NAME 'ARG...' "$@": the first line of every stage. Names the stage
# (SG_STAGE); -h/--help prints its help (sg_help) on stdout and exits 0;
# fewer arguments than the named required ones is a usage error (sg_args).
# "$@" is the script's own arguments, untouched: the first stage of a run
# runs itself again with them (sg_supervise).
sg_stage() {
	SG_STAGE=$1 _req=$2; shift 2
	case "${1:-}" in -h|--help) sg_help "$0"; exit 0 ;; esac
	sg_args "$_req" "$@"
	trap 'sg_on_signal 129' HUP
	trap 'sg_on_signal 130' INT
	trap 'sg_on_signal 141' PIPE	# the run's log reader (tee) gone first
	trap 'sg_on_signal 143' TERM
	[ -n "${SG_RUN_PID:-}" ] || sg_supervise "$@"
}

# sg_supervise ARG...: the first stage of a run runs again as its own child,
# and this shell (the pid a user sees) only waits for it. dash runs a trap
# only when the foreground command it waits for has ended, so a stage waiting
# for tar or make would take a signal to its pid alone only after them;
# `wait` returns at once, and sg_on_signal ends the whole run.
sg_supervise() {
	SG_RUN_PID=$$
	export SG_RUN_PID
	exec 3<&0
	/bin/sh "$0" "$@" <&3 3<&- &
	wait $! || exit $?
	exit 0
}

# sg_on_signal CODE: a stage that gets a signal ends every process it
# started (tar, make, QEMU: a signal to the stage's pid alone reaches none of
# them), then exits CODE, through its EXIT trap (its temporary files go). A
# stage sets its own EXIT trap, never its own signal traps.
sg_on_signal() {
	trap '' HUP INT PIPE TERM
	_pids=$(sg_descendants $$)
	# shellcheck disable=SC2086 # a list of pids
	[ -z "$_pids" ] || kill -TERM $_pids 2>/dev/null
	exit "$1"
}
sg_descendants() { # sg_descendants PID: every process below PID
	for _c in $(pgrep -P "$1"); do echo "$_c"; sg_descendants "$_c"; done
}

# sg_args 'ARG...' "$@": at least as many arguments as ARG names, or
# sg_usage naming the missing ones (a missing BRANCH lists the branches).
sg_args() {
	_req=$1; shift
	_i=0 _missing=
	for _a in $_req; do
		_i=$((_i + 1))
		[ "$_i" -le $# ] || _missing="$_missing $_a"
	done
	case $_missing in
	'') ;;
	" BRANCH"*) sg_usage "no branch given; known branches: $(sg_branches | tr '\n' ' ')" ;;
	*) sg_usage "missing$_missing" ;;
	esac
}

# sg_usage MESSAGE: one error line and the stage's usage (the first
# paragraph of its help) on stderr, exit 2.
sg_usage() {
	printf 'stablegate: %s: error: %s\n' "${SG_STAGE:-?}" "$*" >&2
	sg_help "$0" | sed '/^$/,$d' >&2
	exit "$SG_EXIT_USAGE"
}

sg_need() { # sg_need TOOL...: fail with SG_EXIT_ENV naming the missing tools
	_missing=
	for _t; do command -v "$_t" >/dev/null 2>&1 || _missing="$_missing $_t"; done
	[ -z "$_missing" ] || sg_die $SG_EXIT_ENV "missing tools:$_missing (run 'make setup')"
}

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

# sg_space DIR MIB: fail unless DIR's filesystem has MIB MiB free.
sg_space() {
	mkdir -p "$1" 2>/dev/null || sg_die $SG_EXIT_ENV "cannot create $1"
	_free=$(df -Pm "$1" | awk 'NR==2{print $4}')
	[ "${_free:-0}" -ge "$2" ] ||
		sg_die $SG_EXIT_ENV "not enough space in $1: ${_free} MiB free, need $2 MiB"
}

sg_branches() { # list known branch names (data under backports/ and mainline/)
	for _c in "$SG_ROOT"/backports/*/branch.conf "$SG_ROOT"/mainline/branch.conf; do
		[ -f "$_c" ] && sg_conf_key "$_c" name
	done
}

# sg_conf_key FILE KEY: KEY's value in a branch.conf, as branch-conf.awk
# reads it (the last one, one pair of quotes stripped), for a lookup before
# the file is checked.
sg_conf_key() {
	sed -n "s/^$2=//p" "$1" | tail -n 1 | sed "s/^\"\(.*\)\"\$/\1/; t; s/^'\(.*\)'\$/\1/"
}

sg_suites() { # the suites the harness has: harness/suites/<name>/Makefile, comma separated
	for _mk in "$SG_ROOT"/harness/suites/*/Makefile; do basename "$(dirname "$_mk")"; done | paste -sd, -
}

sg_branch_dir() { # sg_branch_dir NAME: directory holding that branch's data
	for _c in "$SG_ROOT"/backports/*/branch.conf "$SG_ROOT"/mainline/branch.conf; do
		[ -f "$_c" ] || continue
		if [ "$(sg_conf_key "$_c" name)" = "$1" ]; then dirname "$_c"; return 0; fi
	done
	return 1
}

# sg_check_series DIR: every entry of DIR/series (if any) names a patch file
# in DIR (sg_file_in). The entries are data: checked with test, never run.
sg_check_series() {
	[ -f "$1/series" ] || return 0
	while IFS='	' read -r _n _e; do
		[ -z "$_n" ] || sg_file_in "$1" "$_e" || sg_die $SG_EXIT_USAGE "$1/series:$_n: no such patch \"$_e\""
	done <<EOF
$(sg_series_entries "$1")
EOF
}

# sg_series_entries DIR: "LINE<TAB>ENTRY" for each entry of DIR/series
# (comments, trailing blanks and empty lines dropped).
sg_series_entries() {
	awk '{ sub(/#.*/, ""); sub(/[[:space:]]+$/, "") } $0 != "" { print FNR "\t" $0 }' "$1/series"
}

# sg_file_in DIR PATH: PATH (from mail: a series entry, a probe's file) names
# a file in DIR: relative, without a ".." component, and no symlink on the
# way leads out of DIR.
sg_file_in() {
	case /$2/ in //*|*/../*) return 1 ;; esac
	[ -f "$1/$2" ] || return 1
	case $(realpath -e -- "$1/$2") in "$(realpath -e -- "$1")"/*) return 0 ;; esac
	return 1
}

# sg_load_branch NAME: check the branch's data and read its branch.conf into
# the environment (BRANCH_DIR, name, tree, package, suite, archive, ...), or
# exit 2 with the list of branches, or naming the file and line of bad data:
# branch.conf is read as data (harness/programs/branch-conf.awk), and every
# series entry is a file.
sg_load_branch() {
	[ -n "$1" ] || sg_die $SG_EXIT_USAGE "no branch given; known branches: $(sg_branches | tr '\n' ' ')"
	BRANCH_DIR=$(sg_branch_dir "$1") ||
		sg_die $SG_EXIT_USAGE "unknown branch '$1'; known branches: $(sg_branches | tr '\n' ' ')"
	_conf=$(awk -f "$SG_PROGRAMS/branch-conf.awk" "$BRANCH_DIR/branch.conf") || sg_die $SG_EXIT_USAGE "$_conf"
	# its keys (branch-conf.awk has the list), none left from the environment
	name= tree= package= version= apt_sources= keyring= series_in_tree= mkfs_xfs= mkfs_ext4= reference=
	while IFS= read -r _kv; do
		eval "${_kv%%=*}=\${_kv#*=}"	# a known key; its value assigned, never evaluated
	done <<EOF
$_conf
EOF
	sg_check_series "$BRANCH_DIR"
	SG_SERIES_DIR=$BRANCH_DIR
	[ -z "${SERIES:-}" ] || sg_candidate "$SERIES"
	export BRANCH_DIR SG_SERIES_DIR
}

# sg_lock BRANCH: hold BRANCH's lock for the rest of the process, waiting
# (and saying so) while another run holds it. A branch's work copy
# ($STABLEGATE_CACHE/work/<branch>), build dirs (build/<branch>-*) and
# images are one run's at a time: every entry point that builds, boots or
# copies a kernel there takes it (validate, harness/kernel, prefixes, and
# minimise and bench when they boot the branch's own build). It is flock(1)
# on fd 7, which the holder's children inherit: a stage that the holder runs
# (validate's harness/kernel, minimise, evidence) finds fd 7 already open on
# the lock file, holds the lock through it, and does not take it again
# (which would wait for ever). One branch per process.
sg_lock() {
	_lock=$STABLEGATE_CACHE/locks/branch-$1.lock
	if [ -e "$_lock" ] && [ "$(stat -Lc %d:%i /proc/self/fd/7 2>/dev/null)" = "$(stat -c %d:%i "$_lock")" ]; then
		return 0	# fd 7 came open on it from the holder
	fi
	mkdir -p "$STABLEGATE_CACHE/locks"
	exec 7>"$_lock"
	flock -n 7 || { sg_log "another run of branch $1 holds its work and build dirs; waiting"; flock 7; }
}

# sg_candidate PATH: SERIES=PATH validates a candidate series instead of the
# branch's own: a directory of format-patch files (in the order of its
# `series` file, or by name) or an mbox, split once per content digest with
# git mailsplit (mails without a diff, such as a cover letter, are dropped).
# A candidate is not in the tree: baseline = the tree as shipped, patched =
# the tree plus the candidate. Its own deps.tsv, if it has one, is probed;
# the branch's is about the branch's series and is not.
sg_candidate() {
	if [ -d "$1" ]; then
		SG_SERIES_DIR=$(cd "$1" && pwd)
	elif [ -f "$1" ]; then
		sg_need git
		SG_SERIES_DIR=$STABLEGATE_CACHE/candidates/mbox-$(sha256sum < "$1" | cut -c1-16)
		if [ ! -f "$SG_SERIES_DIR/series" ]; then
			rm -rf "$SG_SERIES_DIR.part" && mkdir -p "$SG_SERIES_DIR.part"
			git mailsplit -o"$SG_SERIES_DIR.part" "$1" >/dev/null ||
				sg_die $SG_EXIT_USAGE "SERIES=$1: git mailsplit cannot split it"
			# the mails are listed before the redirection makes `series`
			(cd "$SG_SERIES_DIR.part" && set -- * && for _mail; do
				if grep -q '^+++ ' "$_mail"; then mv "$_mail" "$_mail.patch"; echo "$_mail.patch"; else rm -f "$_mail"; fi
			done > series)
			rm -rf "$SG_SERIES_DIR" && mv "$SG_SERIES_DIR.part" "$SG_SERIES_DIR"
		fi
	else
		sg_die $SG_EXIT_USAGE "SERIES=$1: no such directory or mbox"
	fi
	# the patch list is one path per line (spaces are fine)
	_nl='
'
	case $SG_SERIES_DIR in *"$_nl"*) sg_die $SG_EXIT_USAGE "SERIES: a directory path with a newline in it" ;; esac
	[ -f "$SG_SERIES_DIR/series" ] || for _p in "$SG_SERIES_DIR"/*.patch; do
		case $_p in *"$_nl"*) sg_die $SG_EXIT_USAGE "SERIES=$1: a patch name with a newline in it" ;; esac
	done
	sg_check_series "$SG_SERIES_DIR"
	[ -n "$(sg_series_patches)" ] || sg_die $SG_EXIT_USAGE "SERIES=$1: no patches in it"
	series_in_tree=no
}

# sg_series_patches: the series' patches (the branch's, or SERIES='s), in
# order, as paths. A candidate without a series file is taken by name.
sg_series_patches() {
	_d=$SG_SERIES_DIR
	if [ -f "$_d/series" ]; then
		sg_series_entries "$_d" | while IFS='	' read -r _n _e; do printf '%s/%s\n' "$_d" "$_e"; done
	elif [ "$_d" != "$BRANCH_DIR" ]; then
		for _p in "$_d"/*.patch; do [ ! -f "$_p" ] || echo "$_p"; done
	fi
}

# sg_xargs CMD...: CMD with the lines of stdin (paths) as its arguments, in
# one call (xargs may split them into several: the awk programs need all).
sg_xargs() (
	_args=$(cat)
	IFS='
'
	set -f
	# shellcheck disable=SC2086 # one argument per line
	exec "$@" $_args
)

# sg_series_hash: a short hash over the series' patches in order, each by
# its name and the sha256 of all its bytes: whatever form the candidate has
# (a series file, patches taken by name, a split mbox), a change of order,
# name or content is another series (harness/series keys its work copy on it).
sg_series_hash() {
	sg_series_patches | tr '\n' '\0' | xargs -0 -r sha256sum | sed 's|  .*/|  |' |
		sha256sum | cut -c1-12
}

# sg_manifest DIR: one line per file of a source tree - path, inode, size,
# mtime - sorted. What identifies the tree's content for the work copy and the
# build: an edit (new mtime, or a new inode from sed -i or an editor), a
# switch to another tree or an older mtime all change a file's line.
sg_manifest() {
	find "$1" \( -name .git -o -name '.sg-*' -o -name .complete \) -prune -o \
		-type f -printf '%P\t%i\t%s\t%T@\n' | LC_ALL=C sort
}

# sg_deps_rows: the series' dependency rows, in the order harness/deps
# answers them: its deps.tsv's data rows (header, comments and blank lines
# dropped), then for a candidate the commits its patches name themselves
# (harness/programs/candidate-deps.awk).
sg_deps_rows() {
	_t=$SG_SERIES_DIR/deps.tsv
	[ ! -f "$_t" ] || tail -n +2 "$_t" | grep -v '^#' | grep . || true
	[ "$SG_SERIES_DIR" = "$BRANCH_DIR" ] && return 0
	[ -f "$_t" ] || _t=/dev/null
	_b=$BRANCH_DIR/deps.tsv
	[ -f "$_b" ] || _b=/dev/null
	sg_series_patches | sg_xargs awk -F'\t' -f "$SG_PROGRAMS/candidate-deps.awk" "$_t" "$_b"
}

# sg_setenv FILE KEY VALUE: record a stage output (key=value, one per line).
sg_setenv() {
	touch "$1"
	grep -v "^$2=" "$1" > "$1.tmp" || true
	printf '%s=%s\n' "$2" "$3" >> "$1.tmp"
	mv "$1.tmp" "$1"
}
sg_getenv() { # sg_getenv FILE KEY
	sed -n "s/^$2=//p" "$1" 2>/dev/null | tail -n 1
}

sg_now() { date +%s; }

# sg_redact: stdin with no credentials in its URLs: of "//USER:TOKEN@HOST",
# all up to the authority's last @ goes (where lavacli, and Python's urllib,
# take the host to start), whatever the token holds.
sg_redact() { sed 's|//[^/?#[:space:]]*@|//|g'; }

# sg_write FILE CMD...: CMD's output as FILE, whole or not at all: written to
# FILE.tmp beside it, then renamed. When CMD fails, the temp file goes, FILE
# stays as it was and the stage ends, naming it.
sg_write() {
	_f=$1; shift
	"$@" > "$_f.tmp" && mv "$_f.tmp" "$_f" && return 0
	rm -f "$_f.tmp"
	sg_die $SG_EXIT_FAIL "$_f: not written ($1 failed); it is as it was"
}

# sg_result FILE: FILE is a whole stablegate result (every key the report
# programs read, harness/programs/result-check.jq), or exit 2 naming it
# corrupt and what is wrong, before anything is rendered from it.
sg_result() {
	_bad=$(jq -r -s -f "$SG_PROGRAMS/result-check.jq" "$1" 2>&1) || _bad="not JSON: $_bad"
	[ -z "$_bad" ] || sg_die $SG_EXIT_USAGE "$1: corrupt: not a complete stablegate result: $_bad"
}

# sg_run_stage NAME VARIANT LOG CMD...: run one stage of a run, time it and
# keep its log: stderr (progress, errors) goes live to the terminal and into
# LOG, stdout into LOG.out; a line in RUN_DIR/stages.tsv, and a failed
# stage's error line in RUN_DIR/stage-errors.txt. Returns the stage's status.
sg_run_stage() {
	_n=$1 _v=$2 _log=$3; shift 3
	sg_log "== $_n${_v:+ ($_v)}"
	_t0=$(sg_now)
	{ _rc=0; "$@" 2>&1 > "$_log.out" || _rc=$?; echo $_rc > "$_log.rc"; } | tee "$_log" >&2
	_rc=$(cat "$_log.rc"); rm -f "$_log.rc"
	_st=ok; [ "$_rc" = 0 ] || _st="failed($_rc)"
	printf '%s\t%s\t%s\t%s\n' "$_n" "${_v:--}" "$(( $(sg_now) - _t0 ))" "$_st" >> "$RUN_DIR/stages.tsv"
	[ "$_rc" = 0 ] || grep -h 'error:' "$_log" | tail -n 1 | sed "s/^/$_n${_v:+ $_v}: /" >> "$RUN_DIR/stage-errors.txt"
	return "$_rc"
}

# sg_progress LABEL PID [LOG]: while PID runs, print elapsed time (and the last
# line of LOG) every SG_PROGRESS_SECS seconds, so long stages show life.
sg_progress() {
	_start=$(sg_now)
	while kill -0 "$2" 2>/dev/null; do
		sleep 1
		_el=$(( $(sg_now) - _start ))
		if [ $(( _el % SG_PROGRESS_SECS )) -eq 0 ]; then
			_last=
			[ -n "${3:-}" ] && _last=$(tail -n 1 "$3" 2>/dev/null | cut -c1-70)
			sg_log "$1: ${_el}s ${_last}"
		fi
	done
}
