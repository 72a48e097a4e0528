# harness/report/matrix: matrix.md from matrix.json (jq -r -L harness/report):
# one row per branch, then per case where a branch differs from mainline,
# with the messages.
include "common";
def cell: if . == null then "not run"
  else (if .status == "fail" then "**FAIL**" else .status end)
    + (if .note then " (\(.note))" else "" end) end;
def esc: tostring | gsub("\\|"; "\\|");
# how many cases a branch's patched kernel ran
def ran_cases:
  (.totals.patched // {passed: 0, failed: 0, skipped: 0}) | .passed + .failed + .skipped;
[.branches[] | select(.run_id and (.reference | not))] as $cols
| .reference as $ref
| "# stablegate matrix",
"",
"Generated \(.generated) from \(n([.branches[] | select(.run_id)]) | plural("run")),"
+ " each branch's verdict its own run's under STABLE-POLICY.md; "
+ (if $ref then "the reference: \($ref.branch) run `\($ref.run_id)`"
   else "no reference run: cases are compared with the suites' expectations" end)
+ ". Re-render from the runs: `make matrix`.",
"",
"| branch | tree | run | series | ran (patched) | verdict: rules | fixes | regressions"
+ " | differs from mainline | findings on record |",
"|---|---|---|---|---|---|---|---|---|---|",
(.branches[]
 | if .run_id == null then "| \(.branch) | | | | | \(.why | esc) | | | | |"
   else "| \(.branch)\(if .reference then " (reference)" else "" end)"
     + " | \(.tree | esc), Linux \(.kernel)"
     + " | [`\(.run_id)`](\(.dir | ltrimstr("reports/"))/summary.md) | "
     + (if .reference then "none"
        elif .series.candidate then
          "candidate `\(.series.candidate)`, \(.series.patches | plural("patch"))"
        else "own, \(.series.patches | plural("patch"))" end)
     + " | \(ran_cases) cases (\(.suites | join(", "))), seed \(.seed)"
     + " | **\(.verdict)**: \(.rules | esc) | "
     + (if .baseline_ran then "\(.fixes) | \(.regressions)" else "- | -" end) + " | "
     + (if .reference then
          "is the reference"
          + (if .differs > 0 then "; fails \(.differs) (its own findings)" else "" end)
        else
          "\(.differs)"
          + (if .known > 0 or .pre_existing > 0 then
               " ("
               + ([(if .known > 0 then "\(.known) known" else empty end),
                   (if .pre_existing > 0 then "\(.pre_existing) pre-existing" else empty end)]
                  | join(", "))
               + ")"
             else "" end)
        end)
     + " | \(.findings)\(if .findings_file then " (`\(.findings_file)`)" else "" end) |" end),
"",
"## Where each branch differs from mainline",
"",
(if n(.cases) == 0
    and ([.branches[] | .totals.patched // {} | .passed // 0, .failed // 0, .skipped // 0]
         | add // 0) == 0 then
   "No case to compare: no patched kernel reported a result."
 elif n(.cases) == 0 then
   "Nowhere: every branch's patched kernel gives mainline's result in every case it ran."
 else
   "The patched kernel's result, per case where a branch's differs from "
   + (if $ref then "mainline's" else "the expectation (pass)" end)
   + " or mainline fails (its own findings). In brackets: known = in the branch's"
   + " divergences.tsv; pre-existing = baseline fails the same way;"
   + " regression = passes on baseline.",
   "",
   "| case | \(if $ref then $ref.branch else "expected" end)"
   + " | \($cols | map(.branch) | join(" | ")) |",
   "|---|---|\($cols | map("---|") | join(""))",
   (.cases[] | .branches as $b
    | "| `\(.case)` | \(if $ref then (.mainline | cell) else "pass" end)"
      + " | \([$cols[] | $b[.branch] | cell] | join(" | ")) |"),
   "",
   "### Failure messages",
   "",
   (.cases[] | .case as $k
    | ((if .mainline.status == "fail" then "- `\($k)` on \($ref.branch): \(.mainline.reason)"
        else empty end),
       (.branches | to_entries[] | select(.value.status == "fail")
        | "- `\($k)` on \(.key): \(.value.reason)")))
 end)
