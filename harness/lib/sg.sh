# stablegate: the shell library every harness script sources first, as
#   . "$(dirname "$0")/../lib/sg.sh"
# POSIX sh. Every script starts with sg_stage, which names it (SG_STAGE), so
# that each error line says which stage failed and why, in one line. By topic:
#   sg.sh        stages: names, help, arguments, errors, signals, atomic writes
#   settings.sh  the settings (defaults.sh), checked as every stage starts
#   branch.sh    branches and series as data; the branch lock
#   builder.sh   the build user; the kernel a build made, kept by its sha256
#   run.sh       the run contract: a run dir's records, its stages, its result
# shellcheck shell=sh disable=SC2034 # (file-wide) the globals set here are for the stages that source it

# SG_ROOT: the checkout the running script belongs to (its own, so a copy
# of the repo runs on its own data); the caller's when sg.sh is sourced by
# something outside harness/ (the Makefile exports it).
if [ -f "$(dirname "$0")/../lib/sg.sh" ]; then SG_ROOT=$(cd "$(dirname "$0")/../.." && pwd); fi
: "${SG_ROOT:?SG_ROOT is not set (the stablegate checkout)}"
# The harness by what its files are: each folder holds its scripts and the
# awk and jq programs only they run.
SG_LIB=$SG_ROOT/harness/lib		# this library, defaults.sh
SG_STAGES=$SG_ROOT/harness/stages	# one kernel's steps: tree series deps config build image boot scan
SG_DRIVERS=$SG_ROOT/harness/drivers	# what runs the stages: validate, kernel, evidence, bisect, ...
SG_REPORT=$SG_ROOT/harness/report	# a run's records into reports: report, matrix, kcidb
SG_LAVA=$SG_ROOT/harness/lava		# a boot as a LAVA job

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

# shellcheck source=settings.sh
. "$SG_LIB/settings.sh"

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

# sg_space DIR MIB: fail unless DIR's filesystem has MIB MiB free.
sg_space() {
	mkdir -p "$1" 2>/dev/null || sg_die $SG_EXIT_ENV "cannot create $1"
	_free=$(df -Pm "$1" | awk 'NR==2{print $4}')
	[ "${_free:-0}" -ge "$2" ] ||
		sg_die $SG_EXIT_ENV "not enough space in $1: ${_free} MiB free, need $2 MiB"
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

# shellcheck source=branch.sh
. "$SG_LIB/branch.sh"
# shellcheck source=builder.sh
. "$SG_LIB/builder.sh"
# shellcheck source=run.sh
. "$SG_LIB/run.sh"
