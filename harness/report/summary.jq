# harness/report/report: summary.md from result.json - the verdict first, the
# evidence to paste into a review reply last; a lost result (a case missing
# on patched) or an unreadable one is said in both. jq -r -L harness/report
include "common";
# cases as `suite/case`, or none
def names(a):
  if (a | length) == 0 then "none"
  else (a | map("`" + .suite + "/" + .name + "`") | join(", ")) end;
# a list of strings, each in backquotes
def codes: map("`" + . + "`") | join(", ");
def kernel_or_corruption: .comparison.kernel_failures + .comparison.corruption;
# the cases patched fails: not in divergences.tsv, then in it
def differing: .comparison.unexplained + .comparison.known_divergences;
def case_line: "- `\(.suite)/\(.name)`: \(.reason)";
def minimised_line:
  "\(.variant) \(.fs) soak log: "
  + (if .status == "ok" or .status == "unstable" then
       "\(.ops_before) → \(.ops) ops in \(.tries) tries, \(.seconds) s"
       + (if .stopped_early then
            ", stopped early at the \(.bound) s bound"
            + " (the shortest failing log so far, not 1-minimal)"
          elif .one_minimal then ", 1-minimal"
          else "" end)
       + (if .status == "unstable" then ", unstable: \(.reruns) reruns fail as the original"
          else "" end)
     elif .status == "not-reproduced" then
       "does not fail again on \(.kernel_version // "its kernel"): not minimised"
     else "not minimised (\(.status))" end);
# The reference branch (mainline, reference=yes) is worded as one: no series
# and no baseline; the kernel is "mainline", its failures its own findings.
(.reference // false) as $ref
| def vname(v): if $ref and v == "patched" then "mainline" else v end;
  def row(v): v.name as $n | (.totals[$n] // null) as $t
  | if $ref and $n == "baseline" then empty
    elif $t == null then "| \($n) | not run | | | | |"
    else "| \(vname($n)) | \($t.passed) | \($t.failed) | \($t.skipped) | "
      + "\($t.kernel_failures) | \(v.boot.BOOT_SECONDS // "-") s |" end;
"# stablegate \(.branch)\(if $ref then " (the reference)" else "" end): \(.verdict)",
"",
"**\(verdict_line)**",
"",
"Under STABLE-POLICY.md's \(rule) rule — run `\(.run_id)`, tree \(tree_label) (Linux \(.tree.kernel_version)), "
+ (if $ref then "no series (the suites' expectations are this tree's behaviour)"
   else "series `\(.series.hash)` (\(.series.patches | length | plural("patch")))" end)
+ ", accelerator \(.accelerator // "none"), seed \(.seed).",
"",
(if n(.broken_stages) > 0 then
   "Broken stages: "
   + (.broken_stages | map("\(.stage) \(.variant // ""): \(.status)") | join("; ")) + "\n"
 else empty end),
(if n(.stage_errors) > 0 then (.stage_errors | map("- " + .) | join("\n")) + "\n" else empty end),
(if .failed_mail then
   "A patch does not apply: `\(.failed_mail)` holds the reject in the stable bot's form,"
   + " with the commands to reproduce it.\n"
 else empty end),
(if $ref then
   "## No baseline: mainline is the reference",
   "",
   "- the suites' expectations are this tree's behaviour: nothing is applied,"
   + " one kernel is built and booted, and nothing is compared"
 else
   "## Compared to baseline (\(.series.baseline))",
   "",
   (if .variants.baseline.skipped then "- no baseline: the series is empty"
    else
      (of_data(.comparison.regressions) as $r
       | of_data(.comparison.fixes) as $f
       | (.comparison | behaviour_changes) as $i
       | "- Regressions (pass → fail, data integrity): \(names($r))",
         "- Behaviour changes (an interface case flips: errno, count, refusal, mode bits,"
         + " timestamps, sharing): "
         + (if n($i) == 0 then "none"
            else [$i[] | "`\(.suite)/\(.name)` now \(.now)"
                   + (if .upstream then " (upstream \(.upstream))" else "" end)] | join(", ") end),
         "- Fixes (fail → pass, data integrity): \(n($f)) — \(names($f))"),
      "- New skips: \(names(.comparison.new_skips))",
      (if n(.comparison.missing // []) > 0 then
         "- **Missing** (baseline ran them, patched gave no result; INCONCLUSIVE): "
         + names(.comparison.missing)
       else empty end),
      (.comparison.not_run // [] | group_by(.why)[]
       | "- Not run on the patched kernel, \(.[0].why): \(names(.))")
    end)
 end),
"",
(if n(.comparison.regressions | map(select(.introduced_by))) > 0 then
   "Bisected over the prefixes of the series:",
   "",
   ([.comparison.regressions[] | select(.introduced_by)]
    | group_by(.introduced_by.k)[]
    | .[0].introduced_by as $i
    | ([.[].introduced_by.booted // [] | .[]] | unique | join(", ")
       | if . == "" then "none" else . end) as $booted
    | "- patch \($i.k), `\($i.patch)`, is the first with which \(names(.))"
      + " fail\(if length == 1 then "s" else "" end) (prefixes booted: \($booted));"
      + " to reproduce that step alone:",
      "  ```",
      ($i.commands[] | "  " + .),
      "  ```"),
   ""
 else empty end),
(if n(.evidence.patches) > 0 then
   "## Per-patch proof",
   "",
   "Each patch judged on the cases the prefixes before and after it both ran"
   + (if n(.evidence.steps) < n(.series.patches) + 1 then
        " (only baseline and patched were booted:"
        + " `make branch=\(.branch) evidence` boots every prefix)"
      else "" end)
   + ".",
   "",
   "| # | patch | upstream | status | cases flipped | broken | behaviour changed | why |",
   "|---|---|---|---|---|---|---|---|",
   (.evidence.patches[]
    | "| \(.k) | \(.subject // .patch) | \(.upstream // (if .seed then "seed \(.seed)" else "-" end))"
      + " | **\(.status)** | "
      + (if n(.flips) > 0 then "\(n(.flips)): " + (.flips | codes) else "0" end)
      + " | \(if n(.breaks) > 0 then .breaks | codes else "" end)"
      + " | \(if n(.changes // []) > 0 then .changes | codes else "" end) | \(.reason // "") |"),
   ""
 else empty end),
(if .stable_rules.checked // false then
   "## Stable rules (harness/stages/upstream)",
   "",
   "Each patch as a stable reviewer reads it: its upstream line and id, author, subject,"
   + " sender's sign-off"
   + (if .stable_rules.upstream_git then ", and in UPSTREAM_GIT its commit, subject, author,"
        + " sign-off chain and follow-ups"
      else "; not looked up: \(.stable_rules.not_checked | join("; "))" end)
   + (if .stable_rules.stable_ref then "; diffed against `\(.stable_rules.stable_ref)`" else "" end)
   + ". Full interdiffs: `upstream/interdiff/` in the run dir.",
   "",
   "| # | patch | stable form | compared |",
   "|---|---|---|---|",
   (.evidence.patches[]
    | "| \(.k) | \(.subject // .patch) | "
      + (if n(.not_stable // []) > 0 then "**not stable material as posted**: \(.not_stable | join("; "))"
         else "ok" end)
      + " | \([(.interdiff // [])[] | .summary] | join("; ")) |"),
   ""
 else empty end),
(if $ref then
   "## Mainline's own findings (cases mainline fails)",
   "",
   (if n(differing) == 0 then "- none: mainline gives every expected result"
    else differing[] | case_line end),
   (if .findings_on_record.count > 0 then
      "",
      "A failing syscall case here is a defect of the case, a soak or kernel failure"
      + " a mainline bug. On record in `\(.findings_on_record.file)`:"
      + ([(.findings_on_record.items // [])[] | " \(.id) \(.title)"] | join(";"))
    else empty end)
 else
   "## Where the patched kernel differs from mainline",
   "",
   (if n(differing) == 0 then "- nowhere: every case gives mainline's result"
    else
      (.comparison.unexplained[]
       | case_line
         + (if .baseline != "fail" then ""
            elif .baseline_reason == .reason then
              " — also fails on baseline, the same way:"
              + " present without the series, not caused by it"
            else
              " — fails on baseline too, but differently (baseline: \(.baseline_reason)),"
              + " so the baseline does not show whether the series causes this failure"
            end)),
      (.comparison.known_divergences[]
       | "- `\(.suite)/\(.name)` (known divergence: \(.why)): \(.reason)")
    end)
 end),
"",
"## Results",
"",
"| variant | passed | failed | skipped | kernel failures | boot |",
"|---|---|---|---|---|---|",
row(.variants.baseline), row(.variants.patched),
"",
(.variants[] | select(n(.unreadable // []) > 0)
 | "**Unreadable results** (\(vname(.name)), no result, INCONCLUSIVE): "
   + (.unreadable | codes) + "\n"),
(if n(.comparison.missing_deps) > 0 then
   "**Missing dependencies** (UNSAFE): "
   + (.comparison.missing_deps | map("`\(.commit)` \(.subject)") | join(", ")) + "\n"
 else empty end),
"## Failing cases across runs",
"",
"How often each case failing here failed in the runs of this tree and series"
+ " on this machine (reports/\(.branch)/, \(.failure_rates.earlier_runs // 0) earlier"
+ " and this one; a variant whose results were reused from another run counts once)."
+ " A case failing only some of them is flaky across runs.",
"",
# the cases a reviewer weighs: failing on the patched kernel, or not every
# time; a case that failed only on baseline, every run, is a fix listed above
([(.failure_rates.cases // [])[] | select(.patched.failed > 0 or flaky_across_runs)]) as $shown
| (n(.failure_rates.cases // []) - n($shown)) as $fixed
| (if n($shown) == 0 then "- no case failing on \(vname("patched")) or only some of the runs"
 else
   (if $ref then ["patched"] else ["baseline", "patched"] end) as $cols
   | "| case | \($cols | map(vname(.)) | join(" | ")) | reading |",
     "|---|\($cols | map("---|") | join(""))---|",
   ($shown[]
    | . as $c | def fr(v): if .[v].ran > 0 then "\(.[v].failed)/\(.[v].ran)" else "-" end;
      "| `\(.case)` | \($cols | map(. as $v | $c | fr($v)) | join(" | ")) | "
      + (if flaky_across_runs then "**flaky across runs**"
         elif ([.baseline.ran, .patched.ran] | max) <= 1 then "first seen in this run"
         else "the same every run" end) + " |")
 end),
(if $fixed > 0 then "", "\($fixed | plural("more case")) failed on baseline only, every run: the fixes and behaviour changes above." else empty end),
"",
"## Suites, per filesystem",
"",
"| variant | suite | fs | passed | failed | skipped | suite's time |",
"|---|---|---|---|---|---|---|",
(.variants[] | .name as $v | (.suites // []) as $times
 | .tests | group_by(.suite)[] | .[0].suite as $s
 | ($times | map(select(.suite == $s))[0].seconds // "-") as $t
 | group_by(.name | split(".") | if length > 1 then last else "-" end) | to_entries[]
 | (.value[0].name | split(".") | if length > 1 then last else "-" end) as $fs
 | "| \(vname($v)) | \($s) | \($fs) | \(.value | map(select(.status == "pass")) | length)"
   + " | \(.value | map(select(.status == "fail")) | length)"
   + " | \(.value | map(select(.status == "skip")) | length)"
   + " | \(if .key == 0 then "\($t) s" else "" end) |"),
"",
"## Corruption, kernel and boot failures (\(vname("patched")))",
"",
(if n(kernel_or_corruption) == 0 then
   "- none: no oops, BUG, WARN, panic, hung task, lockdep or filesystem error"
 else kernel_or_corruption[] | "- **\(.kind)**: \(.detail)" end),
"",
(if .xbuild.ran // false then
   "## Builds beyond the test config (harness/stages/xbuild)",
   "",
   "Under allmodconfig, each object compiled on both trees (x86_64; i386 for the files the series touches)"
   + (if .xbuild.host_fixes != "" then
        ", host tools built with `backports/\(.branch)/host-fixes` (\(.xbuild.host_fixes))"
      else "" end) + ".",
   "",
   "| arch | object | baseline | patched | warnings | detail |",
   "|---|---|---|---|---|---|",
   (.variants.baseline.xbuild.rows // [] | map({("\(.arch) \(.object)"): .status}) | add // {}) as $b
   | (.variants.patched.xbuild.rows // [])[]
   | "| \(.arch) | `\(.object)` | \($b["\(.arch) \(.object)"] // "-") | **\(.status)** | \(.warnings) | \(.detail) |",
   "",
   (if n(.xbuild.new_warnings) > 0 then
      "New warnings on patched: "
      + (.xbuild.new_warnings | map("`\(.warning)` (\(.arch)\(if .touched then ", a file the series touches" else "" end))") | join("; ")),
      ""
    else "No warning on patched that baseline does not print.\n" end)
 else empty end),
"## Dependencies (deps.tsv, probed in both trees)",
"",
(if n(.dependencies) == 0 then "- none listed"
 else
   "| upstream | subject | status | patch | baseline | patched |",
   "|---|---|---|---|---|---|",
   (.dependencies[]
    | "| \(.commit) | \(.subject) | **\(.status)**"
      + (if .claim_holds then "" else " (deps.tsv says \(.claimed))" end)
      + " | \(.patch) | \(.baseline) | \(.patched)"
      + (if .failed_probe != "" then ": `\(.failed_probe)`" else "" end)
      + " |")
 end),
"",
"## Soak",
"",
"\(.soak_seeds // 1 | plural("seed")) per profile and kernel, from \(.seed), \(.soak_ops // "?" | thousands) ops each:",
"",
(.variants[] | .name as $v | .soak_profiles[]? | "- \(vname($v)), \(.profile): \(soak_profile_words)"),
"",
"| variant | soak | seed | ops | seconds | ops/s |",
"|---|---|---|---|---|---|",
(.seed as $seed | .variants[] | .name as $v | .soak[]
 | "| \(vname($v)) | \(.fs) | \(.seed // $seed) | \(.ops // "-") | \(.secs // "-") | \(.ops_per_sec // "-") |"),
"",
(if n(.minimised // []) > 0 then
   "Failing soak logs minimised in the guest on the same kernel (harness/drivers/minimise):",
   "",
   (.minimised[]
    | "- " + minimised_line
      + (if .record then ": `\(.record)` (class \(.class))" else "" end)),
   ""
 else empty end),
(if n(.kernels // []) > 0 then
   "## Kernels booted",
   "",
   "Each by the sha256 of its bzImage,"
   + " kept as `$STABLEGATE_CACHE/kernels/<sha256>.bzImage`;"
   + " the guest's banner was checked against the build it names."
   + " A kernel whose boot inputs were all the same as an earlier run's"
   + " (kernel, initramfs, command line, disks, QEMU) has that run's results,"
   + " not a boot of its own (FRESH_BASELINE=1 boots it).",
   "",
   "| kernel | bzImage sha256 | build | boot |",
   "|---|---|---|---|",
   (.kernels[] | "| \(.variant) | `\(.sha256)` | \(.built // "-") | \(.boot // "-")"
                 + (if .reused_from then ", reused from run \(.reused_from)" else "" end) + " |"),
   ""
 else empty end),
"## Stage times",
"",
"| stage | variant | seconds | status |",
"|---|---|---|---|",
(.stages[] | "| \(.stage) | \(.variant) | \(.seconds) | \(.status) |"),
"",
"## Evidence for the review reply",
"",
"```",
"stablegate \(.branch): \(verdict_line)",
"Compared: "
+ (if $ref then
     "the reference: \(n(.comparison.unexplained) | plural("case"))"
     + " failing on mainline itself, no baseline"
   elif .variants.baseline.skipped then "no baseline (empty series)"
   else
     "\(n(.comparison.regressions) | plural("regression")),"
     + " \(n(.comparison.fixes) | plural("fix")),"
     + " \(n(.comparison.new_skips) | plural("new skip"))"
     + " compared to baseline (\(.series.baseline))"
   end),
"Tree: \(tree_label), Linux \(.tree.kernel_version), \(config_words), QEMU \(.accelerator // "-")",
(if $ref then "Series: none (the reference)" else "Series: \(series_words)" end),
(if .failed_mail then
   "Does not apply: \(.failed_mail) in the run dir, in the stable bot's form"
 else empty end),
(.totals | to_entries[]
 | "\(vname(.key)): \(.value.passed) passed, \(.value.failed) failed,"
   + " \(.value.skipped) skipped, \(.value.kernel_failures) kernel failures"),
(.seed as $seed | .variants.patched.soak[]
 | "soak \(.fs): \(.ops // "?") ops in \(.secs // "?") s"
   + " (\(.ops_per_sec // "?") ops/s), seed \(.seed // $seed)"),
(if n(.comparison.regressions) > 0 then
   "Regressions: " + names(.comparison.regressions)
 else empty end),
(if n(.comparison.missing // []) > 0 then
   "Missing (baseline ran them, patched gave no result): " + names(.comparison.missing)
 else empty end),
(.variants[] | select(n(.unreadable // []) > 0)
 | "Unreadable results (\(vname(.name))): \(.unreadable | join("; "))"),
([.comparison.regressions[] | select(.introduced_by)]
 | group_by(.introduced_by.k)[]
 | "Bisected: \(length | plural("regression")) first with patch \(.[0].introduced_by.k),"
   + " \(.[0].introduced_by.patch)"),
(.comparison.unexplained as $u
 | [$u[] | select(.baseline == "fail" and .baseline_reason == .reason)] as $pre
 | [$u[] | select(.baseline == "fail" and .baseline_reason != .reason)] as $other
 | [$u[] | select(.baseline != "fail")] as $new
 | (if n($new) > 0 then
      (if $ref then "Mainline's own findings: " else "Differs from mainline: " end) + names($new)
    else empty end),
   (if n($pre) > 0 then
      "Differs from mainline with and without the series (pre-existing): " + names($pre)
    else empty end),
   (if n($other) > 0 then
      "Differs from mainline; fails on baseline too, but differently: " + names($other)
    else empty end)),
(if n(.comparison.known_divergences) > 0 then
   "Known divergences (STABLE-POLICY.md): " + names(.comparison.known_divergences)
 else empty end),
(if n(.dependencies) > 0 then
   "Dependencies: " + dep_counts
   + (if n(.comparison.missing_deps) > 0 then " — missing: " + missing_deps_words else "" end)
 else empty end),
(.run_id as $run | .branch as $b | (.minimised // [])[]
 | "Minimised: " + minimised_line
   + (if .record then ", reports/\($b)/\($run)/\(.record)" else "" end)),
(if .findings_on_record.count > 0 then findings_words else empty end),
((.kernels // [])[] | "Kernel \(.variant): " + bzimage_words),
"Run: reports/\(.branch)/\(.run_id)/result.json",
"```"
