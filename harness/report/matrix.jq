# harness/report/matrix: matrix.json from the runs' result.json files (jq -n, the
# files as inputs, in order), --argjson dirs (their run dirs, in the same
# order) skipped ([{branch, why}]: branches with no run here), --arg
# generated, -L harness/report. Nothing here decides a verdict: each branch's
# is its run's.
include "common";
def reference: .reference // false;
# n(a) | plural(w), when a holds any
def counted(a; w): if n(a) > 0 then n(a) | plural(w) else empty end;
# the rules of STABLE-POLICY.md the verdict rests on, in a few words
def rules: .comparison as $c
  | if .verdict == "INCONCLUSIVE" then "rule 1: "
      + (if n(.broken_stages) > 0 then broken_words
         else "no test result on the patched kernel" end)
    elif .verdict == "UNSAFE" then "rule 2: "
      + ([counted($c.regressions; "regression"),
          (if n($c.unexplained) > 0 then
             if reference then "fails \(n($c.unexplained) | plural("case")) (its own findings)"
             else "\(n($c.unexplained) | plural("failing case")) not in divergences.tsv" end
           else empty end),
          counted($c.corruption; "soak corruption"),
          counted($c.kernel_failures; "kernel failure"),
          counted($c.missing_deps; "missing dependency")]
         | join(", "))
    else "rule 3"
      + (if n($c.known_divergences) > 0 then
           ": \(n($c.known_divergences) | plural("failing case")), all in divergences.tsv"
         else "" end) end;
# what a failing case of a branch is, beside its failure: how baseline did
def notes: .comparison as $c
  | [($c.unexplained[]
      | {(key): (if .baseline == "fail" and .baseline_reason == .reason then "pre-existing"
                 elif .baseline == "fail" then "baseline fails differently"
                 elif .baseline == "pass" then "regression"
                 else "baseline \(.baseline)" end)}),
     ($c.known_divergences[] | {(key): "known divergence"})] | add // {};
def cells: notes as $note | .variants.patched.tests
  | map({(key): {status, reason, note: $note[key]}}) | add // {};

[inputs] as $in
| [range(0; $in | length) as $i | $in[$i] + {dir: $dirs[$i]}] as $runs
| ([$runs[] | select(reference)][0] // null) as $ref
| (if $ref then
     ($ref | cells
      | map_values(if .status == "fail" then .note = "mainline's own finding" else . end))
   else {} end) as $mt
| [$runs[] | select(reference | not) | {branch, t: cells}] as $bt
| {
  schema: "stablegate-matrix/1",
  generated: $generated,
  reference: (if $ref then {branch: $ref.branch, run_id: $ref.run_id, dir: $ref.dir} else null end),
  branches: ([$runs[] | .comparison as $c | {
      branch, run_id, dir, reference: reference, verdict, rules: rules,
      tree: tree_label, kernel: .tree.kernel_version, seed, soak_ops, soak_seeds, suites,
      series: {candidate: .series.candidate, patches: (.series.patches | length),
               hash: .series.hash, baseline: .series.baseline},
      baseline_ran: (.totals | has("baseline")),
      fixes: n($c.fixes), regressions: n($c.regressions), new_skips: n($c.new_skips),
      differs: n($c.unexplained + $c.known_divergences), known: n($c.known_divergences),
      pre_existing: n([$c.unexplained[]
                       | select(.baseline == "fail" and .baseline_reason == .reason)]),
      kernel_failures: n($c.kernel_failures), corruption: n($c.corruption),
      missing_deps: n($c.missing_deps),
      findings: .findings_on_record.count, findings_file: .findings_on_record.file,
      totals, seconds: ([.stages[].seconds | numbers] | add // 0)}]
    + [$skipped[] | {branch, run_id: null, why}]),
  # every case where a branch's patched kernel gives another result than
  # mainline's (without a reference run: than the suites' expectation, pass),
  # and every case mainline itself fails
  cases: ([$bt[].t | keys[]] + ($mt | keys) | unique
    | map(. as $k | ($mt[$k].status // "pass") as $want
      | select(($mt[$k].status // "pass") == "fail"
               or any($bt[]; .t[$k] != null and .t[$k].status != $want))
      | {case: $k, mainline: ($mt[$k] // null),
         branches: ([$bt[] | {(.branch): .t[$k]}] | add // {})}))
}
