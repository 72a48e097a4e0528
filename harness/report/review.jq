# harness/report/report: review.txt from result.json (jq -r) - the block to paste
# into a reply to a stable review or AUTOSEL mail, in the shape of LKFT's
# replies: the result in one line first, then what was built, each patch with
# its upstream commit and proof status, regressions and fixes compared to a
# named baseline, the cases whose results were lost (missing on patched) or
# cannot be read, the result summary, the verdict with the rules of
# STABLE-POLICY.md it rests on, and where the full report is.
# Plain text, every line at most 72 columns; a word longer than that (a
# path, a URL) is never broken and stands on a line of its own.
# The reference branch (mainline) is worded as one: no series, no baseline,
# its failures are mainline's own findings.
include "common";
def W: 72;
def keys_of(a): a | map(key) | join(", ");
# fill(width; first; rest): the string's words filled to width columns,
# the first line after first, the next ones after rest.
def fill($width; $first; $rest):
  reduce (split(" ") | map(select(. != "")))[] as $w ({lines: [], cur: $first, fresh: true};
    if .fresh then .cur += $w | .fresh = false
    elif (.cur | length) + 1 + ($w | length) <= $width then .cur += " " + $w
    else .lines += [.cur] | .cur = $rest + $w end)
  | (.lines + [.cur])[];
def para($first; $rest): fill(W; $first; $rest);
# a shell command, continued with " \\" so that it still pastes; its
# trailing "# comment" goes on the line before it
def command: (index(" #") // null) as $i
  | (if $i then .[$i + 2:] | fill(W; "    # "; "    # ") else empty end),
    ([if $i then .[:$i] else . end | fill(W - 2; "    "; "      ")]
     | (.[:-1][] | . + " \\"), .[-1]);
def text: para(""; "");
def item: para("* "; "  ");
def sub_item: para("  "; "    ");
def baseline_words: "baseline (\(.series.baseline))";
# a patch's number in the series, as its file name starts: 0001
def patch_number: "000\(.k)"[-4:];
def patches:
  .evidence.patches
  // [.series.patches | to_entries[]
      | {k: (.key + 1), patch: .value, status: "not run", flips: [], breaks: []}];
def upstream_words:
  if has("upstream") | not then "(its upstream commit is not in this result.json)"
  elif .upstream then
    "(upstream "
    + (if .release then .release + " " else "" end)
    + (if .upstream_via == "merge" then "merge " else "" end)
    + "\(.upstream[0:12]))"
  elif .seed then "(seed \(.seed), no upstream commit of its own)"
  else "(no upstream commit named in the patch)" end;
def some(a): (a[0:3] | join(", ")) + (if n(a) > 3 then ", ..." else "" end);
def proof_words:
  if .status == "proven" then "proven, flips \(n(.flips) | plural("case")) (\(some(.flips)))"
  elif .status == "harmful" then "harmful, breaks \(n(.breaks)): \(some(.breaks))"
    + (if n(.changes // []) > 0 then "; changes behaviour of \(some(.changes))" else "" end)
    + (if n(.flips) > 0 then "; flips \(n(.flips))" else "" end)
  elif .status == "changes behaviour" then
    "changes behaviour (interface cases pass before it, fail after):"
    + " \(some(.changes))"
    + (if n(.flips) > 0 then "; flips \(n(.flips))" else "" end)
  elif .status == "masked" then "masked: \(.reason // "no case flips")"
  else "not run" end;	# (why: the line after the list)
def kernel_words(t):
  "total \(t.passed + t.failed + t.skipped), pass \(t.passed), fail \(t.failed),"
  + " skip \(t.skipped), kernel failures \(t.kernel_failures)";
(.reference // false) as $ref
| def ref: $ref;
  def vname(v): if $ref and v == "patched" then "mainline" else v end;
  .comparison as $c
| [$c.unexplained[] | select(.baseline == "fail" and .baseline_reason == .reason)] as $pre
| [$c.unexplained[] | select(.baseline == "fail" and .baseline_reason != .reason)] as $other
| [$c.unexplained[] | select(.baseline != "fail")] as $new
| ($c.kernel_failures + $c.corruption) as $kc
# the flips of interface cases (both ways) and the fixes of data integrity
| ($c | behaviour_changes) as $changes
| of_data($c.fixes) as $fixes
| ($c.pre_existing // {}) as $prex
| (if .verdict == "INCONCLUSIVE" then
     "INCONCLUSIVE under STABLE-POLICY.md rule 1: the run cannot support a decision: "
     + (if n(.broken_stages) > 0 then broken_words
        else "the patched kernel reported no test result" end) + "."
   else
     "\(.verdict) under STABLE-POLICY.md rule \(if .verdict == "UNSAFE" then 2 else 3 end)"
     + (if rule == "candidate" then
          ", for a candidate: only what the candidate changes counts;"
          + " failures baseline shows too are counted, not reasons"
        elif rule == "reference" then ", applied to the reference"
        else ", for a branch's own series: every case patched fails must be a listed divergence" end)
     + "." end) as $verdict_words
|
# -- the verdict and its reason in one breath, then LKFT's opening --
("stablegate \(.branch)\(if .series.candidate then ", candidate \(.series.candidate)" else "" end): "
 + verdict_line | text),
"",
(if ref then
  ("Results from stablegate (QEMU \(.accelerator // "-"), x86_64) on mainline, the reference:"
   + " \(tree_label), Linux \(.tree.kernel_version)."
   + " The suites' expectations are this tree's behaviour:"
   + " there is no series, no baseline and nothing to compare."
   | text)
 else
  ("Results from stablegate (QEMU \(.accelerator // "-"), x86_64) on \(.branch):"
   + " \(tree_label), Linux \(.tree.kernel_version)"
   + (if .series.candidate then ", candidate \(.series.candidate)" else "" end) + "."
   | text)
 end),
"",
"## Build",
("tree: \(tree_label), Linux \(.tree.kernel_version)" | item),
("config: \(config_words)" | item),
(if ref then empty else
  ("series: \(series_words)" | item),
  ("baseline: \(.series.baseline)" | item) end),
("run: \(.run_id), seed \(.seed), QEMU \(.accelerator // "-")" | item),
((.kernels // [])[] | ("kernel \(.variant): " + bzimage_words | item)),
(if .failed_mail then
   ("does not apply: \(.failed_mail) in the run dir holds the reject in the stable bot's form"
    | item)
 else empty end),
(if ref then empty else
  "",
  "## Patches",
  (patches[] | ("\(patch_number) \(.subject // .patch) \(upstream_words): \(proof_words)" | item),
   (if n(.not_stable // []) > 0 then
      "not stable material as posted: \(.not_stable | join("; "))" | sub_item
    else empty end),
   ((.interdiff // [])[] | .summary | sub_item)),
  ((.stable_rules.not_checked // [])[] | "Not checked: \(.)" | text),
  (if (patches | all(.status == "not run")) and n(patches) > 0 then
     ("Per-patch proof not run: only baseline and patched were booted." | text) else empty end),
  "",
  "## Test Regressions (compared to baseline)",
  (if .variants.baseline.skipped then "none: no baseline (the series is empty)"
   elif n(of_data($c.regressions)) == 0 then
     ("none" + (if n($changes | map(select(.now == "fails"))) > 0 then
                  " of data integrity (the interface cases that fail are behaviour changes, below)"
                else "" end) | text)
   else (of_data($c.regressions)[] | ("\(key): \(.reason)" | item),
     (.introduced_by // empty
      | ("first fails with patch \(patch_number) (\(.patch)); to reproduce:" | sub_item),
        (.commands[] | command))) end),
  "",
  "## Behaviour changes (interface cases that flip)",
  (if .variants.baseline.skipped then "none: no baseline (the series is empty)"
   elif n($changes) == 0 then "none"
   else
     ($changes[]
      | (if (.reason // "") != "" then "fails: \(.reason)" else "fails" end) as $failed
      | "\(key): baseline \(if .now == "passes" then $failed else "passes" end)"
        + "; patched \(if .now == "passes" then "passes (mainline's result)" else $failed end)"
        + (if .upstream then "; the behaviour pinned came upstream with \(.upstream)" else "" end)
      | item),
     ("A user-visible change needs a bug behind it (stable-kernel-rules);"
      + " each of these is the series' doing, to weigh, not a fix to count." | text)
   end),
  "",
  "## Test Fixes (compared to baseline)",
  (if .variants.baseline.skipped then "none: no baseline (the series is empty)"
   elif n($c.fixes) == 0 then
     ("none"
      + (if .series.in_tree then
           ": the series shows no fix of its own here,"
           + " so read the verdict as \"no harm found\", not \"fix confirmed\""
         else "" end)
      | text)
   elif n($fixes) == 0 then "none of data integrity (the flips are behaviour changes, above)"
   elif n($fixes) <= 5 then
     ($fixes[]
      | "\(key)" + (if (.reason // "") != "" then " (baseline: \(.reason))" else "" end)
      | item)
   else ("\(n($fixes)): \(keys_of($fixes))" | text) end)
 end),
(if n($c.missing // []) + n([.variants[] | (.unreadable // [])[]]) > 0 then
   "",
   "## Missing and unreadable results",
   (($c.missing // [])[]
    | "\(key): no result on patched (baseline: \(.baseline)): missing, not passing" | item),
   (.variants[] | .name as $v | (.unreadable // [])[] | "\(vname($v)): \(.)" | item)
 else empty end),
"",
(if ref then "## Mainline's own findings (cases mainline fails)"
 else "## Where the patched kernel differs from mainline" end),
(if n($c.unexplained + $c.known_divergences) == 0 then
   (if ref then "none: mainline gives every expected result"
    else "none: every case gives mainline's result" end)
 elif ref then
   ($c.unexplained[] | "\(key): \(.reason)" | item),
   ($c.known_divergences[] | "\(key): \(.reason) (listed: \(.why))" | item)
 else
   ($new[]
    | "\(key): \(.reason)"
      + (if .baseline == "pass" then " (a regression)" else " (baseline: \(.baseline))" end)
    | item),
   (if rule == "candidate" then
      (if n($pre) > 0 then
         ("\(n($pre) | plural("case")) fail on baseline the same way (not the candidate's;"
          + " listed in summary.md, \"Where the patched kernel differs from mainline\")"
          | item)
       else empty end)
    else ($pre[] | "\(key): pre-existing, fails on baseline the same way: \(.reason)" | item) end),
   ($other[]
    | "\(key): fails on baseline too, but differently (baseline: \(.baseline_reason));"
      + " patched: \(.reason)"
    | item),
   ($c.known_divergences[] | "\(key): known divergence (divergences.tsv): \(.reason)" | item)
 end),
(if ref and .findings_on_record.count > 0 then
   ("On record in \(.findings_on_record.file) (soak failures there are mainline bugs,"
    + " a failing syscall case a defect of the case):"
    | text),
   ((.findings_on_record.items // [])[] | "\(.id) \(.title)" | item)
 else empty end),
(if n($kc) > 0 then
   "",
   "## Kernel failures and corruption (\(vname("patched")))",
   ($kc[] | . as $f
    | "\(.kind): \(.detail)"
      + (if ([$prex.corruption // [] | .[] | select(.detail == $f.detail and .same_way)] | n(.) > 0) then
           " (baseline fails the same way: this soak showed nothing about the series)"
         elif ([$prex.corruption // [] | .[] | select(.detail == $f.detail)] | n(.) > 0) then
           " (baseline's soak fails too, differently)"
         elif ([$prex.kernel_failures // [] | .[] | select(.detail == $f.detail)] | n(.) > 0) then
           " (baseline shows it too)"
         else "" end)
    | item),
   (if n($prex.corruption // []) > 0 and n($prex.soak_ops_failing // []) > 0 then
      ("To soak again without the ops that fail on baseline:"
       + " SOAK_ARGS=\"--disable \($prex.soak_ops_failing | join(","))\" SUITES=soak"
       | text)
    else empty end)
 else empty end),
(if .xbuild.ran // false then
   "",
   "## Builds beyond the test config (allmodconfig)",
   ("\(n(.xbuild.objects)) objects the series touches or that use what it changes,"
    + " x86_64 allmodconfig, and the touched ones for i386; patched:"
    + " \(.xbuild.counts.patched | to_entries | map("\(.value) \(.key)") | join(", "));"
    + " baseline: \(.xbuild.counts.baseline | to_entries | map("\(.value) \(.key)") | join(", "))"
    + (if .xbuild.host_fixes != "" then
         "; host tools built with backports/\(.branch)/host-fixes (\(.xbuild.host_fixes))"
       else "" end) | text),
   (.xbuild.regressions[] | "build regression: \(.object) (\(.arch)): \(.detail)" | item),
   (.xbuild.errors_both[] | "fails on baseline too: \(.object) (\(.arch)): \(.detail)" | item),
   (.xbuild.not_checked[] | "not checked: \(.)" | item),
   ([.xbuild.new_warnings[] | select(.touched)]
    | if n(.) == 0 then "no new warning in a file the series touches" | text
      else (.[] | "new warning (\(.arch)): \(.warning)" | item) end)
 else empty end),
(if n(.dependencies) > 0 then
   "",
   "## Dependencies (deps.tsv, probed in both trees)",
   (dep_counts
    + (if n($c.missing_deps) > 0 then "; missing: " + missing_deps_words else "" end)
    | text)
 else empty end),
"",
"## Test result summary",
(.totals | to_entries[] | "\(vname(.key)): \(kernel_words(.value))" | text),
(if n([.variants[].soak_profiles[]?]) > 0 then
   ("soak, per profile (\(.soak_seeds // 1 | plural("seed")) from \(.seed),"
    + " \(.soak_ops // "?" | thousands) ops each):" | text)
 else empty end),
(.variants as $v | [$v[] | .soak_profiles[]? | .profile] | unique[] as $p
 | "\($p): "
   + ([$v[] | .name as $n | .soak_profiles[]? | select(.profile == $p)
       | "\(vname($n)) \(soak_profile_words)"]
      | join("; "))
 | item),
(if n(.failure_rates.cases // []) > 0 then
   ("failing cases across runs of this tree and series here"
    + " (\(.failure_rates.earlier_runs) earlier, and this one): "
    + (across_runs_flaky as $f
       | if n($f) == 0 then "none failed only some of them"
         else "\(n($f)) failed only some of them (flaky across runs):" end)
    | text)
 else empty end),
(across_runs_flaky[] | "\(.case): \(rate_words(vname(.)))" | item),
(if n(.minimised // []) > 0 then
   ("failing soak logs, minimised in the guest on the kernel that failed"
    + " (harness/drivers/minimise):"
    | text)
 else empty end),
(.run_id as $run | .branch as $b | (.minimised // [])[]
 | "\(.variant) \(.fs): "
   + (if .status == "ok" or .status == "unstable" then
        "\(.ops_before) -> \(.ops) ops"
        + (if .stopped_early then " (stopped early at \(.bound) s)"
           elif .one_minimal then " (1-minimal)"
           else "" end)
        + (if .status == "unstable" then ", unstable (\(.reruns))" else "" end)
        + (if .record then ", reports/\($b)/\($run)/\(.record)" else "" end)
      else "not minimised (\(.status))" end)
 | item),
("suites: \(.suites | join(", "))" | text),
"",
"## Verdict",
($verdict_words | text),
((.verdict_reasons // [])[] | item),
(if .findings_on_record.count > 0 and (ref | not) then (findings_words | text) else empty end),
"",
"## Full report",
("reports/\(.branch)/\(.run_id)/summary.md (result.json and junit.xml beside it)" | text)
