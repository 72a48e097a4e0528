# harness/report: result.json - the run's stages, both variants, the
# comparison patched against baseline and the verdict under STABLE-POLICY.md.
# jq -n with --argjson env stages errors baseline patched divergences patches failed_mail
# findings deps kconfig_branch deps_base deps_patched reference patch_info
# findings_items, --arg findings_at
def key: .suite + "/" + .name;
def bykey: map({(key): .}) | add // {};
def count(s): [.tests[] | select(.status == s)] | length;
def kernel: [.failures[] | select(.kind as $k
  | ["oops", "bug", "warn", "panic", "hung-task", "lockdep", "rcu-stall", "ubsan", "fs-error"] | index($k))];
def harness_errors: [.failures[] | select(.kind == "suite-error" or .kind == "no-results")];
($baseline.tests | bykey) as $b | ($patched.tests | bykey) as $p
| ($baseline.present and ($baseline.skipped | not)) as $have_base
| ($divergences | map({(.test): .}) | add // {}) as $known
# Each dependency as the probes found it: present in the tree as given,
# brought by the series (then carried or replaced, as the row says), or
# missing from the patched tree.
| [range(0; $deps | length) as $i | $deps[$i]
   | ($deps_base[$i].result // null) as $b | ($deps_patched[$i].result // null) as $p
   | (if $p == null then "not probed"
      elif $p != "match" then "missing"
      elif $b == "match" then "present"
      elif .status == "present" then "carried"
      else .status end) as $st
   | {commit, subject, claimed: .status, patch, why, status: $st,
      baseline: ($b // "not probed"), patched: ($p // "not probed"),
      claim_holds: ($st == .status or ($b == null and $st != "missing")),
      failed_probe: ($deps_patched[$i].failed // "")}] as $depres
| [$p | to_entries[] | select(.value.status == "fail") | .value] as $pfail
| {
  regressions: (if $have_base then [$pfail[] | select($b[key].status == "pass")] else [] end),
  fixes: (if $have_base then [$b | to_entries[] | .value | select(.status == "fail" and $p[key].status == "pass")] else [] end),
  new_skips: (if $have_base then [$p | to_entries[] | .value | select(.status == "skip" and ($b[key].status // "skip") != "skip")] else [] end),
  known_divergences: [$pfail[] | select($known[key]) | . + {why: $known[key].reason, evidence: $known[key].evidence}],
  unexplained: [$pfail[] | select($known[key] | not)
                | . + {baseline: ($b[key].status // (if $have_base then "absent" else "not run" end)),
                       baseline_reason: ($b[key].reason // null)}],
  corruption: [$patched.failures[] | select(.kind == "corruption")],
  kernel_failures: ($patched | kernel),
  baseline_kernel_failures: ($baseline | kernel),
  missing_deps: [$depres[] | select(.status == "missing")]
} as $cmp
| ([$stages[] | select(.status != "ok" and .stage != "scan" and .stage != "boot")]
   + [[$baseline, $patched][] | select(.present and (.skipped | not) and (.boot.BOOT_STATUS // "none") != "ok")
      | {stage: "boot", variant: .name, status: (.boot.BOOT_STATUS // "not run")}]
   + [[$baseline, $patched][] | .name as $v | harness_errors[]
      | {stage: "suites", variant: $v, status: "\(.kind): \(.detail)"}]) as $broken
| (if ($broken | length) > 0 then "INCONCLUSIVE"
   elif ($patched.tests | length) == 0 then "INCONCLUSIVE"
   elif ($cmp.regressions + $cmp.unexplained + $cmp.corruption + $cmp.kernel_failures + $cmp.missing_deps | length) > 0 then "UNSAFE"
   else "SAFE" end) as $verdict
| {
  schema: "stablegate-result/1",
  branch: $env.BRANCH, run_id: $env.RUN_ID,
  reference: $reference,
  started: $env.STARTED, finished: ($env.FINISHED // null),
  tree: {source: $env.TREE_SOURCE, package: $env.TREE_PACKAGE,
         version: $env.TREE_VERSION, kernel_version: $env.KERNEL_VERSION,
         digest: ($env.TREE_DIGEST // "")},
  kconfig_branch: $kconfig_branch,
  debug_profile: (if ($env.DEBUG // "") == "" then null else $env.DEBUG end),
  series: {hash: $env.SERIES_HASH, in_tree: ($env.SERIES_IN_TREE == "yes"),
           candidate: (if ($env.CANDIDATE // "") == "" then null else $env.CANDIDATE end),
           baseline: (if $env.SERIES_IN_TREE == "yes" then "tree with the series reverse-applied"
                      elif ($env.CANDIDATE // "") != "" then "tree as shipped, without the candidate"
                      else "tree as given" end),
           patches: $patches},
  failed_mail: $failed_mail,
  accelerator: ($patched.boot.ACCEL // $baseline.boot.ACCEL // null),
  seed: ($env.SEED | tonumber? // $env.SEED), soak_ops: ($env.SOAK_OPS | tonumber? // null),
  suites: ($env.SUITES | split(",")),
  stages: [$stages[] | .seconds = (.seconds | tonumber? // .)],
  stage_errors: $errors,
  variants: {baseline: $baseline, patched: $patched},
  totals: ([$baseline, $patched] | map(select(.present and (.skipped | not))
           | {(.name): {passed: count("pass"), failed: count("fail"), skipped: count("skip"),
                        kernel_failures: (kernel | length)}}) | add // {}),
  comparison: $cmp,
  # Each patch of the series as it names itself (harness/programs/patch-info.awk);
  # its proof (status, flips, breaks, reason) is "not run" until prefixes are booted.
  evidence: {patches: [range(0; $patches | length) as $i
    | {k: ($i + 1), patch: $patches[$i]} + ($patch_info[$i] // {})
      + {status: "not run", flips: [], breaks: [], reason: null}]},
  dependencies: $depres,
  broken_stages: $broken,
  findings_on_record: {count: $findings, file: (if $findings > 0 then $findings_at else null end),
                       items: $findings_items},
  verdict: $verdict,
  policy: "STABLE-POLICY.md"
}
