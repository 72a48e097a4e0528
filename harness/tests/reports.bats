#!/usr/bin/env bats
# What a run's reports can be trusted with: a corrupt result.json is named and
# renders nothing, KCIDB output is valid only when whole, every report file
# is whole or as it was, and a LAVA lab's token is in no file and no argv.

load helpers

setup() {
	sg_setup
}

# archived DIR: a reported run's result.json alone in DIR, rendered from it;
# a copy of its reports in DIR.before.
archived() {
	make_run "$BATS_TEST_TMPDIR/r" fail pass
	"$H/report/report" "$BATS_TEST_TMPDIR/r"
	mkdir -p "$1" && cp "$BATS_TEST_TMPDIR/r/result.json" "$1/"
	"$H/report/report" "$1"
	cp -r "$1" "$1.before"
}

# intact DIR: DIR's files are those of DIR.before, byte for byte, and no
# temp file is left.
intact() {
	diff -r "$1.before" "$1"
}

@test "report: a corrupt result.json (cut, {}, null, random bytes, no verdict) is named, exit 2, the reports as they were" {
	a=$BATS_TEST_TMPDIR/a
	archived "$a"
	good=$a.before/result.json
	for bad in cut '{}' null random verdict; do
		case $bad in
		cut) head -c 300 "$good" > "$a/result.json" ;;
		random) head -c 600 /dev/urandom > "$a/result.json" ;;
		verdict) jq '.verdict = "MAYBE"' "$good" > "$a/result.json" ;;
		*) echo "$bad" > "$a/result.json" ;;
		esac
		run "$H/report/report" "$a"
		echo "$bad: $output"
		[ "$status" -eq 2 ]
		[[ "$output" == *"$a/result.json: corrupt: not a complete stablegate result"* ]]
		cp "$good" "$a/result.json"
		intact "$a"
	done
	# named, not rendered: the verdict of a result with no verdict
	echo '{}' > "$a/result.json"
	run "$H/report/report" "$a"
	[[ "$output" == *"no verdict"* ]]
	# kcidb reads the same result.json: named the same way, nothing written
	run "$H/report/kcidb" "$a"
	[ "$status" -eq 2 ]
	[[ "$output" == *"corrupt: not a complete stablegate result"* ]]
	[ ! -e "$a/kcidb.json" ]
}

@test "kcidb: {} and KCIDB data without builds or tests are not valid KCIDB; a run with none is not said to be" {
	c=$H/report/kcidb-check.jq
	run jq -r -f "$c" <<< '{}'
	[[ "$output" == *"checkouts: none"* ]]
	co='{"id": "stablegate:x:1:patched", "origin": "stablegate", "valid": true}'
	run jq -r -f "$c" <<< "{\"version\": {\"major\": 4}, \"checkouts\": [$co], \"builds\": [], \"tests\": []}"
	[[ "$output" == *"checkouts stablegate:x:1:patched: valid, and no build of it"* ]]
	bu='{"id": "stablegate:x:1:patched", "checkout_id": "stablegate:x:1:patched", "origin": "stablegate", "valid": true}'
	run jq -r -f "$c" <<< "{\"version\": {\"major\": 4}, \"checkouts\": [$co], \"builds\": [$bu], \"tests\": []}"
	[[ "$output" == *"builds stablegate:x:1:patched: valid, and no test of it"* ]]
	# a run whose kernels were never configured nor built: KCIDB data with no
	# build, written and named invalid (exit 1)
	r=$BATS_TEST_TMPDIR/r
	make_run "$r" pass pass
	"$H/report/report" "$r"
	run "$H/report/kcidb" "$r"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" != *"valid KCIDB v4"* ]]
	[[ "$output" == *"valid, and no build of it"* ]]
	jq -e '.builds == [] and .tests == []' "$r/kcidb.json"
}

@test "report, kcidb: a render that fails leaves the reports as they were and no temp file" {
	a=$BATS_TEST_TMPDIR/a
	archived "$a"
	"$H/report/kcidb" "$a" || true	# (make_run's kernels were not built: invalid, but written)
	rm -rf "$a.before" && cp -r "$a" "$a.before"
	# whole results (every key), with a part the programs cannot read
	for bad in '.totals.patched = 5' '.stages = [5]'; do
		jq "$bad" "$BATS_TEST_TMPDIR/r/result.json" | tee "$a.before/result.json" > "$a/result.json"
		run "$H/report/report" "$a"
		echo "$output"
		[ "$status" -ne 0 ]
		[[ "$output" == *"$a/summary.md: not written"* ]]
		intact "$a"
	done
	run "$H/report/kcidb" "$a"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"$a/kcidb.json: not written"* ]]
	intact "$a"
	# from a run's logs: result.json as it was, and none of report's work files
	r=$BATS_TEST_TMPDIR/r
	make_run "$r" pass fail
	"$H/report/report" "$r" || true
	cp -r "$r" "$r.before"
	printf 'syscall\ta.xfs\tx\t0001-x.patch\t\n' > "$r/bisect.tsv"	# (k: not a number)
	cp "$r/bisect.tsv" "$r.before/"
	run "$H/report/report" "$r"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"$r/result.json: not written"* ]]
	intact "$r"
}

@test "matrix: a render that fails leaves matrix.json and matrix.md as they were and no temp file" {
	fake_repo 9.5 'tree=ksrc'
	a=$BATS_TEST_TMPDIR/a
	archived "$a"
	"$R/harness/report/matrix" "$a"
	cp -r "$R/reports" "$R/reports.before"
	# a whole result whose patched cases matrix.jq cannot read
	jq '.variants.patched.tests = 5' "$a.before/result.json" > "$a/result.json"
	run "$R/harness/report/matrix" "$a"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"matrix.json: not written"* ]]
	intact "$R/reports"
	# and a corrupt one is named before anything is written
	echo null > "$a/result.json"
	run "$R/harness/report/matrix" "$a"
	[ "$status" -eq 2 ]
	[[ "$output" == *"corrupt: not a complete stablegate result"* ]]
	intact "$R/reports"
}

URL='https://u:S3CRET@TOKEN@lava.example/RPC2'

# stand_in_lavacli ANSWER: a lavacli on PATH that records, for each call,
# its argv (argv), its configuration file (config) and that file's mode
# (mode), and answers as lavacli does: a job id to jobs submit (or, with
# ANSWER=refuse, the error lavacli prints with the URI it connected to), a
# finished job's log to jobs logs.
stand_in_lavacli() {
	L=$BATS_TEST_TMPDIR/lavacli
	mkdir -p "$L/bin"
	cat > "$L/bin/lavacli" <<SH
#!/bin/sh
printf '%s\n' "\$*" >> "$L/argv"
c=\${XDG_CONFIG_HOME:-\$HOME/.config}/lavacli.yaml
stat -c %a "\$c" >> "$L/mode"
cp "\$c" "$L/config"
echo "\$c" >> "$L/files"
case "\$*" in
*"jobs submit"*)
	[ "$1" != refuse ] || { echo "Unable to connect to '$URL': [Errno 111] Connection refused"; exit 1; }
	echo 42 ;;
*"jobs logs"*)
	echo '- {"dt": "2026-12-04T00:00:01", "lvl": "target", "msg": "    ok 1 mount.xfs"}'
	echo '- {"dt": "2026-12-04T00:00:01", "lvl": "results", "msg": {"definition": "smoke", "case": "mount.xfs", "result": "pass"}}'
	echo '- {"dt": "2026-12-04T00:00:02", "lvl": "results", "msg": {"definition": "lava", "case": "job", "result": "pass"}}' ;;
esac
SH
	chmod +x "$L/bin/lavacli"
}

# secret_nowhere DIR: neither part of the token after the URL's first @
# ("S3CRET", "TOKEN") in any file of DIR, nor in lavacli's argv.
secret_nowhere() {
	[ -f "$L/argv" ] && ! grep -rlE 'S3CRET|TOKEN' "$1" "$L/argv"
}

@test "lava-run at a lab: lavacli reads the token from a 0600 configuration that is then removed; the token is in no argv and no file" {
	stand_in_lavacli pass
	j=$BATS_TEST_TMPDIR/jobs
	mkdir -p "$j"
	printf 'timeouts:\n  job: {seconds: 60}\n' > "$j/patched.yaml"
	: > "$j/device-qemu.yaml"
	PATH=$L/bin:$PATH LAVA_URL=$URL run "$H/lava/lava-run" "$j/patched.yaml" "$BATS_TEST_TMPDIR/l"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"https://lava.example/RPC2: job 42 submitted"* ]]
	[[ "$output" != *S3CRET* ]] && [[ "$output" != *TOKEN* ]]
	secret_nowhere "$BATS_TEST_TMPDIR/l"
	grep -q '^LAVA_RESULT=pass$' "$BATS_TEST_TMPDIR/l/lava.env"
	# every call: the identity, never the URI; its configuration private
	[ "$(cut -d' ' -f1-4 "$L/argv" | tr '\n' '|')" = "-i stablegate jobs submit|-i stablegate jobs wait|-i stablegate jobs logs|" ]
	[ "$(sort -u "$L/mode")" = 600 ]
	# the configuration as lavacli reads it: the URL without its credentials,
	# the user and the whole token (to the authority's last @) apart
	python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["stablegate"])' \
		"$L/config" > "$BATS_TEST_TMPDIR/id"
	[ "$(cat "$BATS_TEST_TMPDIR/id")" = "{'uri': 'https://lava.example/RPC2', 'username': 'u', 'token': 'S3CRET@TOKEN'}" ]
	# and gone afterwards
	[ "$(sort -u "$L/files" | wc -l)" = 1 ]
	[ ! -e "$(dirname "$(head -n 1 "$L/files")")" ]
}

@test "validate RUNNER=lava at a lab that refuses the job: the lab is named without its token in every file of the run" {
	stand_in_lavacli refuse
	fake_branch 9.5
	PATH=$L/bin:$PATH RUNNER=lava LAVA_URL=$URL LAVA_ARTEFACTS=http://artefacts.example \
		VARIANTS=patched SUITES=smoke KSRC=$K run "$R/harness/drivers/validate" 9.5
	echo "$output" | tail -n 20
	[[ "$output" != *S3CRET* ]] && [[ "$output" != *TOKEN* ]]
	d=$R/reports/9.5/latest
	[ -f "$d/summary.md" ]
	secret_nowhere "$d/"
	grep -qx 'RUNNER=lava https://lava.example/RPC2' "$d/patched/boot.env"
	grep -q "^lava-run patched: .*https://lava.example/RPC2: the job was not accepted: Unable to connect to 'https://lava.example/RPC2'" "$d/stage-errors.txt"
	jq -e '.stage_errors | any(contains("https://lava.example/RPC2: the job was not accepted"))' "$d/result.json"
}
