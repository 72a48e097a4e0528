# harness/lib/run.sh: the run contract: what a run dir records and how a
# stage of it is run, timed and logged. Sourced by harness/lib/sg.sh.
# shellcheck shell=sh disable=SC2034 # the run's facts are for the stages

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


# sg_result FILE: FILE is a whole stablegate result (every key the report
# programs read, harness/lib/result-check.jq), or exit 2 naming it
# corrupt and what is wrong, before anything is rendered from it.
sg_result() {
	_bad=$(jq -r -s -f "$SG_LIB/result-check.jq" "$1" 2>&1) || _bad="not JSON: $_bad"
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

# sg_run_load RUN_DIR: a run's recorded facts, read once from RUN_DIR/env
# (harness/drivers/validate writes it, harness/stages/tree adds the tree's):
# RUN_DIR (absolute), RUN_ID, BRANCH, SRC, SUITES, SEED, SOAK_OPS, SOAK_SEEDS
# (1 for a run from before it was recorded), SOAK_ARGS, DEBUG, SOAK_REPLAY, SOAK_REPLAY_FS and SERIES (the run's candidate, not
# the caller's), then its branch (sg_load_branch, with the branch's mkfs options). SUITES
# and SEED in the environment override the run's (a prefix re-run with
# fewer suites). Exit 2 when RUN_DIR is no run dir.
sg_run_load() {
	RUN_DIR=$(cd "$1" 2>/dev/null && pwd) && [ -f "$RUN_DIR/env" ] ||
		sg_die $SG_EXIT_USAGE "$1 is not a run directory (no env)"
	_e=$RUN_DIR/env
	RUN_ID=$(sg_getenv "$_e" RUN_ID) BRANCH=$(sg_getenv "$_e" BRANCH) SRC=$(sg_getenv "$_e" SRC)
	SUITES=${SUITES:-$(sg_getenv "$_e" SUITES)} SEED=${SEED:-$(sg_getenv "$_e" SEED)}
	SOAK_OPS=$(sg_getenv "$_e" SOAK_OPS) SOAK_ARGS=$(sg_getenv "$_e" SOAK_ARGS)
	SOAK_SEEDS=$(sg_getenv "$_e" SOAK_SEEDS) SOAK_SEEDS=${SOAK_SEEDS:-1}
	DEBUG=$(sg_getenv "$_e" DEBUG) SOAK_REPLAY=$(sg_getenv "$_e" SOAK_REPLAY)
	SOAK_REPLAY_FS=$(sg_getenv "$_e" SOAK_REPLAY_FS)
	SERIES=$(sg_getenv "$_e" CANDIDATE_DIR)
	sg_load_branch "$BRANCH"
	export RUN_DIR
}

# sg_build_dir BRANCH VARIANT [DEBUG]: the build dir of a branch's kernel.
# Baseline and patched have their own ($STABLEGATE_CACHE/build/<branch>-
# <variant>[-<debug>]); a prefix is built in the baseline's, so that each
# step recompiles only the files that differ.
sg_build_dir() {
	case $2 in prefix-*) set -- "$1" baseline "${3:-}" ;; esac
	echo "$STABLEGATE_CACHE/build/$1-$2${3:+-$3}"
}

# sg_boot_limit: the VM's hard time limit, s: BOOT_TIMEOUT as given, else
# 300 s for the boot plus the limit of each suite of SUITES that the guest
# enforces (sg_suite_limit, with the run's settings).
sg_boot_limit() {
	if [ -n "$BOOT_TIMEOUT" ]; then echo "$BOOT_TIMEOUT"
	else
		_t=300
		for _s in $(echo "${SUITES:-$(sg_suites)}" | tr , ' '); do
			_t=$((_t + $(sg_suite_limit "$_s")))
		done
		echo $_t
	fi
}

# sg_suite_limit NAME: the suite's time limit in the guest, s: its
# guest.sh's suite_limit (default 600, as harness/guest/init has it),
# worked out here with the run's settings and no sg.*= overrides.
sg_suite_limit() {
	(
		# shellcheck disable=SC2317 # called by the suite's guest.sh
		sg_arg() { echo "$2"; }
		# shellcheck disable=SC2317
		up() { :; }
		suite_limit() { echo 600; }
		# shellcheck disable=SC1090 # the suite's own
		. "$SG_ROOT/harness/suites/$1/guest.sh"
		suite_limit
	)
}

# sg_failure_kinds CLASS: the kinds of failure of CLASS (kernel, test,
# harness, boot), one a line: harness/lib/failure-kinds.tsv, the one table
# every program that sorts failures reads. sg_failure_kinds_json CLASS: as
# a JSON array, for jq; sg_failure_kinds_re CLASS: as a regex, for awk.
sg_failure_kinds() {
	awk -F'\t' -v c="$1" '!/^#/ && $2 == c { print $1 }' "$SG_LIB/failure-kinds.tsv"
}
sg_failure_kinds_json() { sg_failure_kinds "$1" | jq -R . | jq -sc .; }
sg_failure_kinds_re() { echo "^($(sg_failure_kinds "$1" | paste -sd'|' -))\$"; }

# sg_mkfs_cmd PROFILE: the mkfs command of that profile
# (harness/lib/profiles.tsv): the branch's mkfs options for its type, then
# the profile's own. sg_mkfs PROFILE IMG: make IMG that filesystem.
sg_mkfs_cmd() {
	_x=$(awk -F '\t' -v n="$1" '$1 == n && $2 != "-" { print $2 }' "$SG_LIB/profiles.tsv")
	case ${1%%_*} in
	xfs) echo "mkfs.xfs -q -f $MKFS_XFS $_x" ;;
	ext4) echo "mkfs.ext4 -q -F $MKFS_EXT4 $_x" ;;
	*) echo "profile $1: no mkfs for its type" >&2; return 1 ;;
	esac
}
sg_mkfs() { _c=$(sg_mkfs_cmd "$1") && $_c "$2"; }

# sg_boot_key DISKDIR KERNEL INITRAMFS APPEND...: the sha256 of everything a
# boot's results depend on: the kernel, the initramfs's content (suites,
# scripts and the settings the guest reads), the command line (seed, op
# counts), each profile's mkfs command, the suites' own disks (their images
# are named by content), the mkfs and QEMU binaries, the accelerator and
# the VM's size and limits.
sg_boot_key() {
	_dd=$1 _k=$2 _i=$3
	shift 3
	{
		echo "kernel $(sha256sum < "$_k" | cut -c1-64)"
		echo "initramfs $(cat "$_i.digest" 2>/dev/null || sha256sum < "$_i")"
		echo "append $*"
		for _p in $PROFILES; do echo "disk $_p $(sg_mkfs_cmd "$_p") ${DISK_MB}M"; done
		sg_boot_disks "$_dd" | while read -r _n _f _d; do
			case $_n in *-*) echo "disk $_n $_f $(stat -c %s "$_d") $(qemu-img info -U "$_d" 2>/dev/null |
				sed -n 's|^backing file: .*/||p')" ;; esac
		done
		# the tools by their binaries' content (never run here)
		for _t in mkfs.xfs mkfs.ext4 qemu-system-x86_64; do echo "$_t $(sha256sum < "$(command -v "$_t")" | cut -c1-64)"; done
		echo "vm ${ACCEL:-auto} $([ -w /dev/kvm ] && echo kvm) $VM_CPUS $VM_MEM $BOOT_TIMEOUT $BOOT_STALL"
	} | sha256sum | cut -c1-64
}

# sg_boot_record KEY VARIANT_DIR: index an ok boot by its key, for
# sg_boot_reuse. The index is reports/.boots/<key> -> <branch>/<run>/<variant>:
# a run reuses only boots whose reports are in this checkout, the ones
# REUSED_FROM can name (a cache shared by several checkouts would hand a
# run another checkout's results under a run id its reports do not have).
# Paths are compared resolved, so a run reached through reports/<b>/latest
# is indexed by its id; a run dir outside reports/ is not indexed.
sg_boot_record() {
	_r=$(cd "$SG_ROOT/reports" && pwd -P) && _v=$(cd "$2" && pwd -P) || return 1
	case $_v in "$_r"/*) ;; *) return 0 ;; esac
	mkdir -p "$_r/.boots"
	echo "${_v#"$_r/"}" > "$_r/.boots/$1"
}

# sg_boot_reuse KEY VARIANT_DIR: an earlier boot with that key, its results
# copied into VARIANT_DIR (the files its own stages have not written), and
# REUSED_FROM=<branch>/<run> in its boot.env; 1 when there is none.
sg_boot_reuse() {
	_rel=$(cat "$SG_ROOT/reports/.boots/$1" 2>/dev/null) && _from=$SG_ROOT/reports/$_rel &&
		[ -f "$_from/boot.env" ] &&
		[ "$(sg_getenv "$_from/boot.env" BOOT_KEY)" = "$1" ] &&
		[ "$(sg_getenv "$_from/boot.env" BOOT_STATUS)" = ok ] || return 1
	for _f in "$_from"/*; do [ -e "$2/${_f##*/}" ] || cp -p "$_f" "$2/"; done
	[ -n "$(sg_getenv "$2/boot.env" REUSED_FROM)" ] ||
		sg_setenv "$2/boot.env" REUSED_FROM "${_rel%/*}"
}

# sg_boot_disks DIR: the disks a boot attaches, in order (vda, vdb, ...):
# one per profile of PROFILES, then the suites' own (harness/stages/image
# disks), one "ID FORMAT PATH" a line; ID, the file name without its
# extension, is the disk's serial in the guest (/sys/block/vdX/serial).
sg_boot_disks() {
	for _d in $(for _p in $PROFILES; do echo "$1/$_p.img"; done) "$1"/*-*.img "$1"/*-*.qcow2; do
		[ -f "$_d" ] || continue
		_n=${_d##*/}
		case $_d in *.qcow2) _f=qcow2 ;; *) _f=raw ;; esac
		echo "${_n%.*} $_f $_d"
	done
}

# sg_qemu_cpu ACCEL: QEMU's -cpu for that accelerator: the host's CPU under
# KVM, every feature TCG can emulate otherwise.
sg_qemu_cpu() { if [ "$1" = kvm ]; then echo host; else echo max; fi; }
