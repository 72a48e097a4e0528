#!/usr/bin/env bats
# End to end: `make branch=6.1 validate` on the real linux-source-6.1 tree,
# under whatever accelerator works here (TCG on this machine). Asserts the
# pipeline ran and the report is complete, not that the kernel is bug-free:
# the verdict may be SAFE or UNSAFE. SOAK_OPS is kept short for CI.

setup_file() {
	export ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	export SOAK_OPS=${E2E_SOAK_OPS:-5000} SEED=${E2E_SEED:-20181203}
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
	jq -e '[.variants.patched.soak[].fs] | sort == ["ext4", "xfs"]' "$j"
	jq -e '.variants.patched.soak | all(.ops_per_sec != null and .ops != null)' "$j"
	grep -q '^## Where the patched kernel differs from mainline' "$ROOT/reports/6.1/latest/summary.md"
	grep -q '^## Evidence for the review reply' "$ROOT/reports/6.1/latest/summary.md"
	cp "$j" "$BATS_FILE_TMPDIR/first.json"
}

@test "a second run reuses the extracted tree and the build dirs" {
	[ -f "$BATS_FILE_TMPDIR/first.json" ] || skip "first run failed"
	SUITES=smoke run make -C "$ROOT" -s branch=6.1 validate
	[ "$status" -eq 0 ]
	d=$ROOT/reports/6.1/latest
	[ "$(jq -r .run_id "$d/result.json")" != "$(jq -r .run_id "$BATS_FILE_TMPDIR/first.json")" ]
	grep -q 'reusing extracted tree' "$d/tree.log"
	# an incremental build compiles (almost) nothing
	n=$(grep -c '^  CC ' "$d/patched/build.log" || true)
	echo "patched rebuild compiled $n objects"
	[ "$n" -lt 20 ]
	jq -r '.stages[] | "\(.stage) \(.variant) \(.seconds)s"' "$BATS_FILE_TMPDIR/first.json" "$d/result.json"
}
