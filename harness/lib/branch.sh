# harness/lib/branch.sh: branches and series are data (backports/<b>/,
# mainline/, SERIES=): found, read and checked, never run. The branch lock.
# Sourced by harness/lib/sg.sh.
# shellcheck shell=sh disable=SC2034 # the branch keys are for the stages

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
# branch.conf is read as data (harness/lib/branch-conf.awk), and every
# series entry is a file.
sg_load_branch() {
	[ -n "$1" ] || sg_die $SG_EXIT_USAGE "no branch given; known branches: $(sg_branches | tr '\n' ' ')"
	BRANCH_DIR=$(sg_branch_dir "$1") ||
		sg_die $SG_EXIT_USAGE "unknown branch '$1'; known branches: $(sg_branches | tr '\n' ' ')"
	_conf=$(awk -f "$SG_LIB/branch-conf.awk" "$BRANCH_DIR/branch.conf") || sg_die $SG_EXIT_USAGE "$_conf"
	# its keys (branch-conf.awk has the list), none left from the environment
	name= tree= package= version= apt_sources= keyring= series_in_tree= mkfs_xfs= mkfs_ext4= reference=
	while IFS= read -r _kv; do
		eval "${_kv%%=*}=\${_kv#*=}"	# a known key; its value assigned, never evaluated
	done <<EOF
$_conf
EOF
	# its mkfs options are the disks' (harness/stages/image)
	[ -z "$mkfs_xfs" ] || MKFS_XFS=$mkfs_xfs
	[ -z "$mkfs_ext4" ] || MKFS_EXT4=$mkfs_ext4
	export MKFS_XFS MKFS_EXT4
	sg_check_series "$BRANCH_DIR"
	SG_SERIES_DIR=$BRANCH_DIR
	[ -z "${SERIES:-}" ] || sg_candidate "$SERIES"
	export BRANCH_DIR SG_SERIES_DIR
}

# sg_lock BRANCH: hold BRANCH's lock for the rest of the process, waiting
# (and saying so) while another run holds it. A branch's work copy
# ($STABLEGATE_CACHE/work/<branch>), build dirs (build/<branch>-*) and
# images are one run's at a time: every entry point that builds, boots or
# copies a kernel there takes it (validate, harness/drivers/kernel, prefixes, and
# minimise and bench when they boot the branch's own build). It is flock(1)
# on fd 7, which the holder's children inherit: a stage that the holder runs
# (validate's harness/drivers/kernel, minimise, evidence) finds fd 7 already open on
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
# name or content is another series (harness/stages/series keys its work copy on it).
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

# sg_deps_rows: the series' dependency rows, in the order harness/stages/deps
# answers them: its deps.tsv's data rows (header, comments and blank lines
# dropped), then for a candidate the commits its patches name themselves
# (harness/lib/candidate-deps.awk).
sg_deps_rows() {
	_t=$SG_SERIES_DIR/deps.tsv
	[ ! -f "$_t" ] || tail -n +2 "$_t" | grep -v '^#' | grep . || true
	[ "$SG_SERIES_DIR" = "$BRANCH_DIR" ] && return 0
	[ -f "$_t" ] || _t=/dev/null
	_b=$BRANCH_DIR/deps.tsv
	[ -f "$_b" ] || _b=/dev/null
	sg_series_patches | sg_xargs awk -F'\t' -f "$SG_LIB/candidate-deps.awk" "$_t" "$_b"
}
