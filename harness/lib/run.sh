# harness/lib/run.sh: the run contract: what a run dir records and how a
# stage of it is run, timed and logged. Sourced by harness/lib/sg.sh.
# shellcheck shell=sh

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
