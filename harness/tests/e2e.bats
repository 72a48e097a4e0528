#!/usr/bin/env bats
# End to end: `make branch=6.1 validate` on the real linux-source-6.1 tree,
# under whatever accelerator works here (TCG on this machine). Asserts the
# pipeline ran and the report is complete, not that the kernel is bug-free:
# the verdict may be SAFE or UNSAFE. SOAK_OPS is kept short for CI.

setup_file() {
	export ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	# two seeds per profile, 1,000 ops each: the soak's ops of one 2,000-op seed
	export SOAK_OPS=${E2E_SOAK_OPS:-1000} SOAK_SEEDS=${E2E_SOAK_SEEDS:-2} SEED=${E2E_SEED:-20181203}
	# a failing soak is minimised in the guest; bounded for CI
	export MINIMISE_SECS=${E2E_MINIMISE_SECS:-60}
	# fstests on XFS, two tests: the suite cannot rot (the full lists: make fstests)
	export FSTESTS=${E2E_FSTESTS:-generic/157 generic/158} FSTESTS_SECTIONS=${E2E_FSTESTS_SECTIONS:-xfs}
	# the allmodconfig builds cost minutes per kernel cold (docs/measurements.md);
	# xbuild.bats tests the stage, harness.bats its report
	export XBUILD=${E2E_XBUILD:-0}
}

@test "make branch=6.1 validate exits 0 with a complete report" {
	run make -C "$ROOT" -s branch=6.1 validate
	echo "$output" | tail -n 25
	[ "$status" -eq 0 ]
	j=$ROOT/reports/6.1/latest/result.json
	[ -f "$j" ] && [ -f "$ROOT/reports/6.1/latest/summary.md" ]
	jq -e '.tree.kernel_version | startswith("6.1.")' "$j"
	jq -e '.accelerator == "tcg" or .accelerator == "kvm"' "$j"
	jq -e '.verdict == "SAFE" or .verdict == "UNSAFE"' "$j"
	jq -e '[.stages[] | select((.seconds | type) != "number")] | length == 0' "$j"
	jq -e '[.stages[].stage] | index("build") and index("boot") and index("tree")' "$j"
	jq -e '.broken_stages | length == 0' "$j"
	# the pipeline canary passed on the patched kernel, from inside the guest
	jq -e '[.variants.patched.tests[] | select(.suite == "smoke" and .status == "pass")] | length == 3' "$j"
	jq -e '.totals.patched.passed >= 3' "$j"
	# the syscall and soak suites reported from both kernels
	jq -e '[.variants.patched.tests[] | select(.suite == "syscall")] | length >= 80' "$j"
	jq -e '[.variants.baseline.tests[] | select(.suite == "syscall")] | length >= 80' "$j"
	# on every default profile (harness/lib/profiles.tsv), 4 KiB and 1 KiB blocks
	jq -e '[.variants.patched.soak_profiles[] | .profile] | sort == ["ext4", "ext4_1k", "xfs", "xfs_1k"]' "$j"
	# SOAK_SEEDS seeds on each, a result and stats each, counted per profile
	jq -e '[.variants.patched.soak[].fs] | sort == ["ext4-s1", "ext4-s2", "ext4_1k-s1", "ext4_1k-s2", "xfs-s1", "xfs-s2", "xfs_1k-s1", "xfs_1k-s2"]' "$j"
	jq -e '[.variants.patched.soak[].seed] | unique == [20181203, 20181204]' "$j"
	jq -e '[.variants[].soak_profiles[] | .seeds] | unique == [2]' "$j"
	grep -qE '^- patched, xfs_1k: [0-2] of 2 seeds failed, ' "$ROOT/reports/6.1/latest/summary.md"
	jq -e '[.variants.patched.tests[] | select(.suite == "syscall") | .name | select(endswith(".xfs_1k"))] | length >= 40' "$j"
	jq -e '.variants.patched.soak | all(.ops_per_sec != null and .ops != null)' "$j"
	# fstests ran in the same guests: its tests from both kernels, and its time
	for v in baseline patched; do
		jq -e --arg v "$v" '[.variants[$v].tests[] | select(.suite == "fstests") | .name] | sort == ["generic/157.xfs", "generic/158.xfs"]' "$j"
		jq -e --arg v "$v" '.variants[$v].suites[] | select(.suite == "fstests") | .seconds > 0' "$j"
	done
	grep -q '^| patched | fstests | xfs | ' "$ROOT/reports/6.1/latest/summary.md"
	grep -q '^## Where the patched kernel differs from mainline' "$ROOT/reports/6.1/latest/summary.md"
	grep -q '^## Evidence for the review reply' "$ROOT/reports/6.1/latest/summary.md"
	# junit.xml: the schema, and one testcase per result plus each kernel's
	# console case, plus one per patch and stable rule checked
	x=$ROOT/reports/6.1/latest/junit.xml
	xmllint --noout --schema "$ROOT/harness/report/junit.xsd" "$x"
	[ "$(xmllint --xpath 'string(/testsuites/@tests)' "$x")" = "$(jq '([.variants[] | .tests | length + 1] | add)
		+ ([.evidence.patches[].rules[] | select(.result | IN("pass", "fail", "unchecked"))] | length)' "$j")" ]
	d=$ROOT/reports/6.1/latest
	# each kernel booted: named by the sha256 of the copy kept and booted, and
	# the guest's banner has the build number of that bzImage's header (and
	# the prefixes bisection booted, when a case failed on patched only)
	jq -e '[.kernels[] | select(.variant | test("minimiser") | not)]
		| (map(.variant) | .[:2] == ["baseline", "patched"] and (.[2:] | all(test("^prefix-[0-9]+$"))))
		and all(.boot == "ok")' "$j"
	# the minimiser booted the kept copy of the kernel whose log it minimised
	jq -e '(.kernels | map({(.variant): .sha256}) | add) as $k | [.kernels[] | select(.variant | test("minimiser")) | .sha256 == $k[.variant | split(" ")[0]]] | all' "$j"
	for v in baseline patched; do
		k=$(sed -n 's/^KERNEL=//p' "$d/$v/boot.env")
		[ "$(sha256sum < "$k" | cut -c1-64)" = "$(jq -r --arg v "$v" '.kernels[] | select(.variant == $v) | .sha256' "$j")" ]
		jq -e --arg v "$v" '.kernels[] | select(.variant == $v) | (.built | capture("(?<n> #[0-9]+ )").n) as $n | .banner | contains($n)' "$j"
	done
	# the first failing seed's op log of each kernel and profile was minimised
	# on its kernel, or said why not
	[ "$(jq '.minimised | length' "$j")" -eq "$(ls "$d"/*/oplog-*.txt 2>/dev/null | sed 's/-s[0-9]*[.]txt$//' | sort -u | wc -l)" ]
	jq -r '.minimised[] | "\(.variant) \(.fs) \(.status) \(.ops_before) -> \(.ops) in \(.tries) tries"' "$j"
	jq -e '.minimised | all(.status != "no-result")' "$j"
	jq -e '[.minimised[] | select(.status == "ok")] | all(.ops <= .ops_before and (.record | test("^(baseline|patched)/minimised-(xfs|ext4)(_1k)?-s[12][.]record$")))' "$j"
	for r in $(jq -r '.minimised[] | select(.status == "ok") | .record' "$j"); do
		[ "$(grep -c '^op=' "$d/$r")" -eq "$(jq --arg r "$r" '.minimised[] | select(.record == $r) | .ops' "$j")" ]
	done
	cp "$j" "$BATS_FILE_TMPDIR/first.json"
	readlink -f "$ROOT/reports/6.1/latest" > "$BATS_FILE_TMPDIR/first.run"
}

@test "the 6.1 run's kernels as LAVA jobs: valid, and patched run by lava-run with the direct boot's cases; its KCIDB JSON is valid" {
	[ -f "$BATS_FILE_TMPDIR/first.run" ] || skip "first run failed"
	d=$(cat "$BATS_FILE_TMPDIR/first.run")
	# KCIDB: the whole run, checked against the v4 rules; a test per case and boot
	run "$ROOT/harness/report/kcidb" "$d"
	echo "$output"
	[ "$status" -eq 0 ]
	jq -e --slurpfile r "$d/result.json" '(.tests | length) >= ($r[0].variants | [.[] | .tests | length] | add) + 2' "$d/kcidb.json"
	jq -e '.builds | length == 2 and all(.valid)' "$d/kcidb.json"
	# a job per kernel, each valid for LAVA's schema and lava-run --validate
	l=$BATS_FILE_TMPDIR/lava
	run "$ROOT/harness/lava/lava-jobs" "$d" "$l"
	echo "$output"
	[ "$status" -eq 0 ]
	for v in baseline patched; do "$ROOT/harness/lava/lava-run" --validate "$l/$v.yaml" "$l/validate-$v"; done
	# patched, run by LAVA's dispatcher under TCG: LAVA records every case the direct boot had
	run "$ROOT/harness/lava/lava-run" "$l/patched.yaml" "$l/patched"
	echo "$output" | tail -n 5
	[ "$status" -eq 0 ]
	# the same cases; the same results, but for the soak, whose failures are
	# the kernel's timing (a soak fails where the kernel races, run to run),
	# and the cases one boot timed out or skipped behind a stuck one (under
	# TCG a starved guest can stall for 20 s and more: docs/measurements.md)
	diff <(cut -f1-2 "$d/patched/results.tsv" | sort) <(cut -f1-2 "$l/patched/results.tsv" | sort)
	sed -n 's/.*ok [0-9]* \([^ ]*\) # .*\(timeout: no result\|stuck in the kernel\).*/\1/p' \
		"$d/patched/ktap.log" "$l/patched/console.log" | sort -u > "$BATS_TEST_TMPDIR/timed"
	sed 's/^/# timed out or behind a stuck case in one boot, not compared: /' "$BATS_TEST_TMPDIR/timed" >&3
	same() { grep -v '^soak	' "$1" | awk -F'\t' 'FILENAME == ARGV[1] { t[$1]; next } !($2 in t)' "$BATS_TEST_TMPDIR/timed" - | cut -f1-3 | sort; }
	diff <(same "$d/patched/results.tsv") <(same "$l/patched/results.tsv")
	diff <(grep '^soak	' "$d/patched/results.tsv" | cut -f1-3 | sort) \
		<(grep '^soak	' "$l/patched/results.tsv" | cut -f1-3 | sort) |
		sed 's/^/# soak, direct (<) and LAVA (>) differ: /' >&3 || true
	[ "$(grep -c . "$l/patched/results.tsv")" -ge 80 ]
	# every suite's monitor saw its end
	grep -qx "MONITORS=$(sed -n 's/^SUITES=//p' "$d/env" | tr , '\n' | grep -c .)" "$l/patched/lava.env"
	grep -q 'Linux version 6\.1\.' "$l/patched/console.log"
	rm -rf "${STABLEGATE_CACHE:-/var/cache/stablegate}/lava/6.1/$(basename "$d")"	# the jobs' images
	echo "# direct: $(grep -c . "$d/patched/results.tsv") cases, LAVA: $(grep -c . "$l/patched/results.tsv"); jobs $(du -cb "$l"/*.yaml | tail -n 1 | cut -f1) bytes" >&3
}

@test "a candidate that drops the EOVERFLOW check: UNSAFE on a behaviour change, and bisection names that patch" {
	# fixtures/eoverflow-6.1: a comment, the patch that changes an errno, a comment
	c=$ROOT/harness/tests/fixtures/eoverflow-6.1
	SERIES=$c SUITES=syscall run make -C "$ROOT" -s branch=6.1 validate
	echo "$output" | tail -n 15
	[ "$status" -eq 0 ]
	d=$ROOT/reports/6.1/latest
	j=$d/result.json
	bad=0002-vfs-drop-the-copy_file_range-wrap-check.patch
	jq -e '.verdict == "UNSAFE" and .series.candidate != null and .verdict_rule == "candidate"' "$j"
	# an errno that changes is an interface case's flip: a behaviour change, named so
	jq -e '(.comparison.regressions | all(.kind == "interface"))
		and (.verdict_reasons[0] | test("^[0-9]+ behaviour changes \\(an interface case"))' "$j"
	# every regression is a case pinning the wrap check, and each is bisected to 0002
	jq -r '.comparison.regressions[] | "\(.name) \(.introduced_by.k) \(.introduced_by.patch)"' "$j"
	# on the four default profiles and the tmpfs
	jq -e '[.comparison.regressions[].name | select(test("^cfr_overflow_in[.]"))] | length == 5' "$j"
	jq -e --arg p "$bad" '.comparison.regressions | all(.introduced_by.patch == $p and .introduced_by.k == 2
		and (.name | test("^cfr_(overflow_in|overflow_out|neg_wrap)[.]")))' "$j"
	# two prefixes were booted for the first case, none for the others
	jq -e '.comparison.regressions | map(.introduced_by.booted | length) | add == 2' "$j"
	jq -e '.comparison.regressions[0].introduced_by.commands[1] | test("harness/drivers/kernel reports/6.1/[0-9TZ]+ prefix-2  # first bad")' "$j"
	grep -q '^bisect	-	[0-9]*	ok' "$d/stages.tsv"
	# with every prefix booted, each patch has its proof: only 0002 changes anything
	jq -e '[.evidence.patches[].status] == ["masked", "changes behaviour", "masked"]' "$j"
	jq -e '.evidence.patches[1].changes | index("syscall/cfr_overflow_in.xfs")' "$j"
	jq -e '.evidence.patches[0].reason == "no case flips, and NOTES.md gives no reason"' "$j"
	grep -q "^- patch 2, \`$bad\`, is the first with which \`syscall/cfr_overflow_in.xfs\`, " "$d/summary.md"
}

@test "a second run reuses the extracted tree and the build dirs" {
	[ -f "$BATS_FILE_TMPDIR/first.json" ] || skip "first run failed"
	# (FRESH_BASELINE=1: an earlier `make check` in this checkout booted it too)
	FRESH_BASELINE=1 SUITES=smoke run make -C "$ROOT" -s branch=6.1 validate
	[ "$status" -eq 0 ]
	d=$ROOT/reports/6.1/latest
	grep -q "^boot	baseline	" "$d/stages.tsv"
	[ "$(jq -r .run_id "$d/result.json")" != "$(jq -r .run_id "$BATS_FILE_TMPDIR/first.json")" ]
	grep -q 'reusing extracted tree' "$d/tree.log"
	# an incremental build compiles (almost) nothing
	n=$(grep -c '^  CC ' "$d/patched/build.log" || true)
	echo "patched rebuild compiled $n objects"
	[ "$n" -lt 20 ]
	jq -r '.stages[] | "\(.stage) \(.variant) \(.seconds)s"' "$BATS_FILE_TMPDIR/first.json" "$d/result.json"
	# the same again: the baseline's results are the last run's, said in every output
	second=$(jq -r .run_id "$d/result.json")
	SUITES=smoke run make -C "$ROOT" -s branch=6.1 validate
	[ "$status" -eq 0 ]
	[[ "$output" == *"baseline: results reused from run 6.1/$second"* ]]
	jq -e --arg r "6.1/$second" '[.kernels[] | {(.variant): .reused_from}] | add == {baseline: $r, patched: null}' "$d/result.json"
	grep -q "| baseline | .* reused from run 6.1/$second |" "$d/summary.md"
	tr -s ' \n' '  ' < "$d/review.txt" | grep -q "results reused from run 6.1/$second"	# wrapped at 72
	grep -q "<property name=\"reused_from\" value=\"6.1/$second\"/>" "$d/junit.xml"
	"$ROOT/harness/report/kcidb" "$d"
	jq -e --arg r "6.1/$second" '.builds[] | select(.id | endswith(":baseline")) | .misc.results_reused_from == $r' "$d/kcidb.json"
	run grep -q "^boot	baseline	" "$d/stages.tsv"	# not booted
	[ "$status" -eq 1 ]
	# a changed initramfs (other profiles in the guest's settings): booted again
	SUITES=smoke PROFILES="xfs ext4" run make -C "$ROOT" -s branch=6.1 validate
	[ "$status" -eq 0 ]
	[[ "$output" != *"results reused"* ]]
	jq -e '[.kernels[].reused_from] == [null, null]' "$d/result.json"
	grep -q "^boot	baseline	" "$d/stages.tsv"
}

# The 4.x branches validate against a tree the user supplies; the one CI has
# is ../shared/trees (test data, never copied into the repo).
TREES=${SG_TREES:-$(cd "$BATS_TEST_DIRNAME/../../.." && pwd)/shared/trees}

@test "make branch=4.19 validate KSRC=<4.19.48 tarball> ports the series and reaches a verdict" {
	t=$TREES/linux-4.19.48.tar.xz
	[ -f "$t" ] || skip "no $t (the 4.19 tree is test data in ../shared/trees)"
	# (minimising and fstests are the 6.1 run's to show; here they would add a
	# boot per failing soak, and fstests' 100 s to each boot)
	MINIMISE_SECS=0 SUITES=smoke,syscall,sparse,soak run make -C "$ROOT" -s branch=4.19 validate KSRC="$t"
	echo "$output" | tail -n 25
	[ "$status" -eq 0 ]
	j=$ROOT/reports/4.19/latest/result.json
	jq -e '.tree.kernel_version == "4.19.48" and (.tree.source | startswith("KSRC:"))' "$j"
	jq -e '.verdict == "SAFE" or .verdict == "UNSAFE"' "$j"
	jq -e '.broken_stages | length == 0' "$j"
	# both kernels built and booted, and ran the same suites
	jq -e '[.variants[] | .boot.BOOT_STATUS] == ["ok", "ok"]' "$j"
	# (a case the patched kernel did not run is in the report as not run, with
	# why: its filesystem went down there)
	jq -e '([.variants.baseline.tests[] | .suite + "/" + .name] | sort)
		== ([.variants.patched.tests[], .comparison.not_run[] | .suite + "/" + .name] | sort)' "$j"
	# the series does what it claims: seed cases the baseline fails, patched passes
	for c in cfr_len_huge.xfs cfr_overflow_in.ext4 cfr_same_overlap.tmpfs cfr_immutable_dst.xfs \
		cfr_swap_src.ext4 cfr_rlimit_efbig.xfs clone_rlimit_efbig.xfs dedupe_unsupported.ext4 \
		dedupe_subblock_mid.xfs dio_eof_zero.xfs; do
		jq -e --arg c "$c" '[.comparison.fixes[] | select(.name == $c)] | length == 1' "$j" ||
			{ echo "not a fix: $c"; false; }
	done
	# no regression; every case still failing is in the report, a known
	# divergence or not (4.19.48 has bugs the series does not fix: findings.md);
	# and every dependency is in the patched tree
	jq -e '.comparison.regressions == []' "$j"
	for c in $(jq -r '(.comparison.unexplained + .comparison.known_divergences)[] | "\(.suite)/\(.name)"' "$j"); do
		grep -qF "\`$c\`" "$ROOT/reports/4.19/latest/summary.md" || { echo "not in summary.md: $c"; false; }
	done
	jq -e '[.dependencies[] | select(.status == "missing" or (.claim_holds | not))] == []' "$j"
	jq -e '[.dependencies[] | select(.status == "carried")] | length >= 7' "$j"
	grep -q '^## Dependencies' "$ROOT/reports/4.19/latest/summary.md"
}
