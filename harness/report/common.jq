# harness/report/common.jq: the helpers more than one report program uses,
# loaded with include "common"; (jq -L "$SG_REPORT"). Not a program.

# n(a): how many a holds
def n(a): a | length;
# the count before a noun, which is plural unless the count is 1:
# 1 | plural("patch") is "1 patch", 2 | plural("patch") "2 patches"
def plural(w):
  "\(.) \(w)"
  + (if . == 1 then "" elif (w | test("(ch|sh|s|x)$")) then "es" else "s" end);
# a case's name, "suite/case"
def key: .suite + "/" + .name;
# a result's tree: its package and version, or its source (and digest)
def tree_label:
  if (.tree.package // "") != "" then "\(.tree.package) \(.tree.version)"
  else "\(.tree.source)"
    + (if (.tree.digest // "") != "" then " (\(.tree.digest | .[0:19]))" else "" end)
  end;
# a result's kernel config, in a few words
def config_words:
  "x86_64 tinyconfig + harness/kconfig"
  + (if .kconfig_branch then " + backports/\(.branch)/branch.config" else "" end)
  + (if .debug_profile then " + debug/\(.debug_profile)" else "" end)
  + " (SLUB, KALLSYMS, SMP; lockdep, DEBUG_LIST, XFS_WARN,"
  + " hung-task and soft-lockup detectors)";
# a result's series: its candidate, how many patches, its hash
def series_words:
  (if .series.candidate then "candidate \(.series.candidate), " else "" end)
  + "\(.series.patches | length | plural("patch")), hash \(.series.hash)";
# a result's deps.tsv rows counted by status: "2 present, 1 missing"
def dep_counts: [.dependencies | group_by(.status)[] | "\(length) \(.[0].status)"] | join(", ");
# a result's missing dependencies: "commit (subject), ..."
def missing_deps_words: .comparison.missing_deps | map("\(.commit) (\(.subject))") | join(", ");
# a kernel of a result's kernels: its bzImage's sha256, short, and its build
def bzimage_words:
  "bzImage sha256 \(.sha256[:16]), build \([.built // "" | match("#[0-9]+").string][0] // "?")"
  + (if .reused_from then ", results reused from run \(.reused_from)" else "" end);
# a result's broken stages: "boot patched: stall; tree: failed(2)"
def broken_words:
  .broken_stages
  | map("\(.stage)\(if (.variant // "-") != "-" then " " + .variant else "" end): \(.status)")
  | join("; ");
# a result's findings on record, where they are
def findings_words:
  "Findings on record for this branch, from earlier runs:"
  + " \(.findings_on_record.count) in \(.findings_on_record.file)";
# A comparison's cases by kind (STABLE-POLICY.md, "Behaviour changes"):
# those of data integrity among a list, and every interface case that
# flips, with what it does now (.comparison | behaviour_changes).
def of_data(a): [a[] | select(.kind != "interface")];
def behaviour_changes:
  [(.regressions[] | select(.kind == "interface") | . + {now: "fails"}),
   (.fixes[] | select(.kind == "interface") | . + {now: "passes"})];
# a result's rule of STABLE-POLICY.md (older results: from what they hold)
def rule: .verdict_rule // (if .reference then "reference" elif .series.candidate then "candidate" else "branch" end);
# 21000 -> "21,000"
def thousands: tostring | until(test("[0-9]{4}") | not; sub("(?<a>[0-9])(?<b>[0-9]{3})(?<c>$|,)"; "\(.a),\(.b)\(.c)"));
# a variant's soak on one profile (variant.jq soak_profiles): "0 of 3 seeds
# failed, 21,000 ops" or "3 of 3 seeds failed, first at op 261 (copy)"
def soak_profile_words:
  "\(.failed) of \(.seeds | plural("seed")) failed, \(.ops | thousands) ops"
  + (if .first_failure then ", first at op \(.first_failure.op) (\(.first_failure.type))" else "" end);
# history.jq's rates: the cases failing only some of the runs of a kernel
# (flaky across runs), and "patched 1 of 5 runs, baseline 0 of 5" (the
# kernels named by f: mainline for the reference)
def flaky_across_runs: any(.baseline, .patched; .failed > 0 and .failed < .ran);
def across_runs_flaky: [(.failure_rates.cases // [])[] | select(flaky_across_runs)];
def rate_words(f):
  [("patched", "baseline") as $v | select(.[$v].ran > 0)
   | "\($v | f) \(.[$v].failed) of \(.[$v].ran | plural("run"))"] | join(", ");
# a few cases' names, then how many more
def few(a): (a[0:4] | map(.name) | join(", ")) + (if n(a) > 4 then " and \(n(a) - 4) more" else "" end);
# the verdict and its reason in one sentence: the first line of review.txt
# and of summary.md's evidence
def verdict_line:
  .comparison as $c
  | ($c.pre_existing // {}) as $pre
  | "\(.verdict)"
    + (if .verdict == "INCONCLUSIVE" then
         ": the run cannot support a decision: "
         + (if n(.broken_stages) > 0 then broken_words
            else "the patched kernel reported no test result" end)
       elif .verdict == "UNSAFE" then
         ": " + ((.verdict_reasons // ["see the verdict below"]) | join("; "))
       elif rule == "reference" then ": mainline meets every expectation of the suites"
       else
         ": no regression, no behaviour change"
         + (if rule == "candidate" then ", no failure, soak corruption or kernel failure that baseline does not show"
            else ", no failing case outside divergences.tsv, no soak corruption, no kernel failure" end)
       end)
    + (if rule == "reference" or .verdict == "INCONCLUSIVE" then ""
       else " (x86_64, against baseline: \(.series.baseline))" end)
    + (if .verdict == "INCONCLUSIVE" or rule == "reference" then ""
       else
         (of_data($c.fixes) as $f
          | [$c | behaviour_changes[] | select(.now == "passes")] as $i
          | (if n($f) > 0 then "; fixes \(n($f)): \(few($f))" else "; fixes none" end)
            + (if n($i) > 0 then "; \(n($i) | plural("behaviour change")) fixed: \(few($i))" else "" end))
         + (if rule == "candidate" and n(($pre.failures // []) + ($pre.corruption // [])) > 0 then
              "; on baseline too, so not the candidate's:"
              + " \(n($pre.failures // []) | plural("failing case"))"
              + (if n($pre.corruption // []) > 0 then ", \(n($pre.corruption) | plural("soak corruption"))" else "" end)
              + (if n($pre.kernel_failures // []) > 0 then ", \(n($pre.kernel_failures) | plural("kernel failure"))" else "" end)
            else "" end)
       end)
    + ([(.evidence.patches // [])[] | select(n(.not_stable // []) > 0)] as $ns
       | if n($ns) == 0 then ""
         else "; \(n($ns) | plural("patch")) not stable material as posted: "
           + ($ns | map("\("000\(.k)"[-4:]) (\(.not_stable | map(split(": ")[0]) | join(", ")))")
              | join(", ")) end)
    + ".";
