# harness/report/report: result.json - the run's stages, both variants, the
# comparison patched against baseline (a case missing on patched among it)
# and the verdict under STABLE-POLICY.md.
# jq -n -L harness/report with --argjson env stages errors baseline patched
# divergences patches failed_mail kernel_kinds findings deps kconfig_branch
# deps_base deps_patched reference patch_info findings_items masked bisect
# minimised rules interdiff, --slurpfile steps, --arg findings_at
include "common";
def bykey: map({(key): .}) | add // {};
def count(s): [.tests[] | select(.status == s)] | length;
def kernel: [.failures[] | select(.kind | IN($kernel_kinds[]))];
# a failure's signature: its kind and text without numbers (PIDs, offsets,
# line numbers move between two builds of one tree)
def sig: "\(.kind) \(.detail | gsub("0x[0-9a-f]+"; "#") | gsub("[0-9]+"; "#"))";
def harness_errors: [.failures[] | select(.kind == "suite-error" or .kind == "no-results")];
# a variant that was there and not skipped
def ran: .present and (.skipped | not);
# a prefix's number: prefix-K is K
def prefix_k: .name | ltrimstr("prefix-") | tonumber;
# What kind of behaviour a case failed on variant $v: data (stale, lost or
# wrong bytes: its data check failed, or its failure was a corruption) or
# interface (errno, count, refusal, mode bits, timestamps, what a dedupe
# shares), as its suite said on its "# kind:" line (kinds); a case whose
# suite says nothing (soak, sparse, fstests) is data, the graver reading.
def kind_on($v):
  ($v.kinds[key] // {}) as $k
  | if ($k.kind // "") == "interface" then "interface" else "data" end;
# the upstream commit(s) its "# pins:" line names, or null
def pins_commit($v):
  ($v.kinds[key].pins // "" | capture("^commit (?<c>[0-9a-f][0-9a-f ]*[0-9a-f]) seed").c) // null;
# the keys of the cases (bykey) whose status went from $from in $before to $to
def turned($before; $from; $to):
  [to_entries[] | select($before[.key].status == $from and .value.status == $to) | .key];
($baseline.tests | bykey) as $b | ($patched.tests | bykey) as $p
| ($baseline | ran) as $have_base
| ($divergences | map({(.test): .}) | add // {}) as $known
# A case's divergence row: its own, or, on a profile (cfr_whole.xfs_1k),
# the row of its filesystem type (cfr_whole.xfs) when the profile has none.
| def known: $known[key] // $known[key | sub("(?<t>\\.[a-z0-9]+)_[a-z0-9]+$"; "\(.t)")];
# A case that baseline ran and the patched kernel, which finished its boot,
# gave no result for is missing: a lost result, never a pass. Unless the
# guest said why it did not run it: its filesystem went down on the patched
# kernel (a kernel failure of its own: "fs xfs down before soak"), or its
# suite was skipped whole; such a case is not run, with that reason.
  [$patched.failures[] | select(.kind == "fs-error") | .detail
   | capture("^fs (?<fs>[a-z0-9_]+) down before").fs] as $down
| [$patched.tests[] | select(.name == .suite and .status == "skip") | .suite] as $skipped_suites
| [if $have_base and $patched.boot.BOOT_STATUS == "ok" then
     $baseline.tests[] | select($p[key] == null)
     # its filesystem, or the first of a cross pair's (xfs-ext4) that went down
     | ([.name | split(".") | last | split("-")[] | select(. as $f | $down | index($f))][0]) as $fs
     | .suite as $s
     | {suite, name, baseline: .status,
        why: (if $fs then "fs \($fs) down on the patched kernel"
              elif $skipped_suites | any(. == $s) then "suite \($s) skipped on the patched kernel"
              else null end)}
   else empty end] as $unrun
| [$unrun[] | select(.why == null) | del(.why)] as $missing
# Each dependency as the probes found it: present in the tree as given,
# brought by the series (then carried or replaced, as the row says),
# not-carried (left out on purpose, and the patched tree indeed lacks it),
# or missing from the patched tree.
| [range(0; $deps | length) as $i | $deps[$i]
   | ($deps_base[$i].result // null) as $b | ($deps_patched[$i].result // null) as $p
   | (if $p == null or $p == "unprobed" then "not probed"
      elif $p != "match" then (if .status == "not-carried" then "not-carried" else "missing" end)
      elif $b == "match" then "present"
      elif .status == "present" or .status == "not-carried" then "carried"
      else .status end) as $st
   | {commit, subject, claimed: .status, patch, why, status: $st,
      baseline: ($b // "not probed"), patched: ($p // "not probed"),
      claim_holds: ($st == .status or $st == "not probed" or ($b == null and $st != "missing")),
      failed_probe: ($deps_patched[$i].failed // "")}] as $depres
# Per-patch proof: patch K is judged on the cases prefixes K-1 and K both
# ran (prefix 0 = baseline, N = patched, the others from harness/drivers/evidence).
| def usable: ran and ((.tests // []) | length) > 0;
  ($patches | length) as $np
| ([{k: 0, v: $baseline}]
   + [$steps[] | {k: prefix_k, v: .}]
   + [{k: $np, v: $patched}]
   | map({(.k | tostring): .v}) | add) as $at
| ($masked | map({(.number): .reason}) | add // {}) as $why
| [range(1; $np + 1) as $k | $patches[$k - 1] as $name
   | $at[($k - 1) | tostring] as $a | $at[$k | tostring] as $c
   | if ($a | usable) and ($c | usable) then
       ($a.tests | bykey) as $ta | ($c.tests | bykey) as $tc
       | ($tc | turned($ta; "fail"; "pass")) as $flips
       | [[$a, $baseline][] | kernel[] | sig] as $ka
       | ($tc | turned($ta; "pass"; "fail")) as $turned
       | [$turned[] | . as $n | $tc[$n] | select(kind_on($c) == "interface") | $n] as $changes
       | (($turned - $changes)
          + [$c | kernel[] | select(sig as $g | $ka | index([$g]) | not)
             | "\(.kind): \(.detail)"]) as $breaks
       | {k: $k, patch: $name, flips: $flips, breaks: $breaks, changes: $changes,
          status: (if ($breaks | length) > 0 then "harmful"
                   elif ($changes | length) > 0 then "changes behaviour"
                   elif ($flips | length) > 0 then "proven"
                   else "masked" end),
          reason: (if ($breaks + $flips + $changes | length) > 0 then null
                   else $why["000\($k)"[-4:]]
                        // "no case flips, and NOTES.md gives no reason" end),
          compared: [$tc | keys[] | select($ta[.])] | length}
     else {k: $k, patch: $name, status: "not run", flips: [], breaks: [], changes: [], compared: 0,
           reason: "prefix \(if ($a | usable) then $k else $k - 1 end) has no results"}
     end] as $proof
| ($bisect | bykey) as $bis
| [$p | to_entries[] | select(.value.status == "fail") | .value] as $pfail
| {
  regressions: (if $have_base then
    [$pfail[] | select($b[key].status == "pass")
     | . + {kind: kind_on($patched), upstream: pins_commit($patched)}
     | (key as $kk | $bis[$kk]) as $x
     | if $x then . + {introduced_by: {
           k: ($x.k | tonumber), patch: $x.patch,
           booted: ($x.booted | split(" ") | map(select(. != ""))),
           commands: ["prefix-\(($x.k | tonumber) - 1)  # last good",
                      "prefix-\($x.k)  # first bad: + \($x.patch)"]
             | map("SUITES=\($x.suite) harness/drivers/kernel"
                   + " reports/\($env.BRANCH)/\($env.RUN_ID) " + .)}}
       else . end]
    else [] end),
  fixes: (if $have_base then
            [$b | to_entries[] | .value | select(.status == "fail" and $p[key].status == "pass")
             | . + {kind: kind_on($baseline), upstream: pins_commit($baseline)}]
          else [] end),
  new_skips: (if $have_base then
                [$p | to_entries[] | .value
                 | select(.status == "skip" and ($b[key].status // "skip") != "skip")]
              else [] end),
  known_divergences: [$pfail[] | known as $k | select($k)
                      | . + {why: $k.reason, evidence: $k.evidence}],
  unexplained: [$pfail[] | select(known | not)
                | . + {baseline: ($b[key].status
                                  // (if $have_base then "absent" else "not run" end)),
                       baseline_reason: ($b[key].reason // null)}],
  corruption: [$patched.failures[] | select(.kind == "corruption")],
  kernel_failures: ($patched | kernel),
  baseline_kernel_failures: ($baseline | kernel),
  missing_deps: [$depres[] | select(.status == "missing")],
  missing: $missing,
  not_run: [$unrun[] | select(.why != null)]
} as $cmp
# What the patched kernel shares with baseline: failing cases that fail
# there too, soaks that fail there too (the same way or not), kernel
# failures with the same signature (kind, text without numbers: PIDs,
# offsets and line numbers move). Under the candidate rule they are counted,
# not the verdict's reason: the reviewer's question is what the candidate
# changes.
| def soak_name: .detail | split(":")[0];
  [$baseline | kernel[] | sig] as $bsig
| [$baseline.failures[] | select(.kind == "corruption")] as $bcorr
| ({failures: [$cmp.unexplained[] | select(.baseline == "fail")],
   corruption: [$cmp.corruption[] | soak_name as $s
                | ([$bcorr[] | select(soak_name == $s)][0]) as $bc | select($bc)
                | . + {baseline: $bc.detail, same_way: ($bc.detail == .detail)}],
   kernel_failures: [$cmp.kernel_failures[] | select(sig as $g | $bsig | index([$g]))]}
  # a soak that fails on baseline too shows nothing about the series: the
  # op types baseline's soaks failed at, to leave out of a soak again
  | . + {soak_ops_failing: [$bcorr[] | .detail | capture("\\((?<op>[a-z_]+)\\)").op] | unique})
  as $pre
# Builds beyond the test config (harness/stages/xbuild): each object under
# allmodconfig on both trees; a build regression is one that compiles on
# baseline and not patched; a new warning is one patched prints and
# baseline does not, in a file the series touches (the i386 list) or not.
| ($baseline.xbuild // {rows: [], warnings: {}}) as $xb
| ($patched.xbuild // {rows: [], warnings: {}}) as $xp
| ([$xb.rows[] | {("\(.arch) \(.object)"): .status}] | add // {}) as $xbs
| [$xp.rows[] | select(.arch == "i386") | .object | sub("\\.o$"; ".c")] as $touched
| {ran: (($xp.rows | length) > 0),
   objects: [$xp.rows[] | select(.arch == "x86_64") | .object],
   counts: ([$xb, $xp] | map(.rows | group_by(.status) | map({(.[0].status): length}) | add // {})
            | {baseline: .[0], patched: .[1]}),
   regressions: [$xp.rows[] | select(.status == "error" and $xbs["\(.arch) \(.object)"] == "ok")],
   errors_both: [$xp.rows[] | select(.status == "error" and $xbs["\(.arch) \(.object)"] == "error")],
   not_checked: [$xp.rows[] | select(.status == "prepare-failed") | "\(.arch): \(.detail)"] | unique,
   new_warnings: [($xp.warnings // {}) | to_entries[] | .key as $a
                  | (.value - ($xb.warnings[$a] // []))[]
                  | {arch: $a, warning: ., touched: (split(":")[0] as $f | $touched | index([$f]) != null)}],
   host_fixes: ($xp.env.HOST_FIXES // ""),
   seconds: {baseline: $xb.env, patched: $xp.env}} as $xbuild
| ($env.CANDIDATE // "") as $candidate
| (if $reference then "reference" elif $candidate != "" then "candidate" else "branch" end) as $rule
# what counts against the series under its rule (STABLE-POLICY.md rule 2)
| {regressions: [$cmp.regressions[] | select(.kind == "data")],
   behaviour_changes: [$cmp.regressions[] | select(.kind == "interface")],
   failing: (if $rule == "candidate" then
               [$cmp.unexplained[] | select(.baseline | IN("fail", "pass") | not)]
             else $cmp.unexplained end),
   corruption: (if $rule == "candidate" then
                  [$cmp.corruption[] | soak_name as $s | select([$pre.corruption[] | soak_name] | index([$s]) | not)]
                else $cmp.corruption end),
   kernel_failures: (if $rule == "candidate" then
                       [$cmp.kernel_failures[] | select(sig as $g | $bsig | index([$g]) | not)]
                     else $cmp.kernel_failures end),
   missing_deps: $cmp.missing_deps,
   build_regressions: $xbuild.regressions} as $against
| def cases(a): [a[] | .name] | if length > 3 then .[0:3] + ["..."] else . end | join(", ");
  def upstream_of(a): [a[] | .upstream // empty] | unique
    | if length > 0 then " (the behaviour pinned came upstream with \(join(", ")))" else "" end;
  def count(a; w): a | length | plural(w);
  [(if $rule == "reference" and ($against.failing | length) > 0 then
      "mainline itself fails \(count($against.failing; "case")): its own findings" else empty end),
   (if ($against.regressions | length) > 0 then
      "\(count($against.regressions; "regression")) of data integrity:"
      + " \(cases($against.regressions))"
    else empty end),
   (if ($against.behaviour_changes | length) > 0 then
      "\(count($against.behaviour_changes; "behaviour change")) (an interface case that passes"
      + " on baseline fails patched): \(cases($against.behaviour_changes))"
      + upstream_of($against.behaviour_changes)
    else empty end),
   (if $rule == "candidate" and ($against.failing | length) > 0 then
      "\(count($against.failing; "failing case")) that baseline does not fail:"
      + " \(cases($against.failing))"
    elif $rule == "branch" and ($against.failing | length) > 0 then
      "\(count($against.failing; "failing case")) not listed in divergences.tsv"
    else empty end),
   (if ($against.corruption | length) > 0 then
      count($against.corruption; "soak corruption")
      + (if $rule == "candidate" then " that baseline does not show" else "" end)
    else empty end),
   (if ($against.kernel_failures | length) > 0 then
      count($against.kernel_failures; "kernel failure") + " on the console"
      + (if $rule == "candidate" then " that baseline does not show" else "" end)
    else empty end),
   (if ($against.build_regressions | length) > 0 then
      "\(count($against.build_regressions; "build regression")) under allmodconfig:"
      + " \([$against.build_regressions[] | "\(.object) (\(.arch))"] | join(", "))"
    else empty end),
   (if ($against.missing_deps | length) > 0 then
      "\($against.missing_deps | length) missing"
      + " dependenc\(if ($against.missing_deps | length) == 1 then "y" else "ies" end) (deps.tsv)"
    else empty end)] as $reasons
| ([$stages[]
    | select(.status != "ok"
             and .stage != "scan" and .stage != "boot" and .stage != "bisect"
             and .stage != "minimise"
             and (.variant | startswith("prefix-") | not))]
   + [[$baseline, $patched][] | select(ran and (.boot.BOOT_STATUS // "none") != "ok")
      | {stage: "boot", variant: .name, status: (.boot.BOOT_STATUS // "not run")}]
   + [[$baseline, $patched][] | .name as $v | harness_errors[]
      | {stage: "suites", variant: $v, status: "\(.kind): \(.detail)"}]
   + [$missing | select(length > 0) | map(key) as $k
      | {stage: "results", variant: "patched",
         status: ("no result for \($k | length) case\(if ($k | length) > 1 then "s" else "" end)"
                  + " baseline ran (missing, not passing): \($k[0:5] | join(", "))"
                  + (if ($k | length) > 5 then ", ..." else "" end))}]
   + [[$baseline, $patched][] | .unreadable as $u | select(($u | length) > 0)
      | {stage: "results", variant: .name,
         status: ("\($u | length) unreadable line\(if ($u | length) > 1 then "s" else "" end)"
                  + ": \($u[0:3] | join("; "))"
                  + (if ($u | length) > 3 then "; ..." else "" end))}]) as $broken
| (if ($broken | length) > 0 then "INCONCLUSIVE"
   elif ($patched.tests | length) == 0 then "INCONCLUSIVE"
   elif ($reasons | length) > 0 then "UNSAFE"
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
                      elif ($env.CANDIDATE // "") != "" then
                        "tree as shipped, without the candidate"
                      else "tree as given" end),
           patches: $patches},
  failed_mail: $failed_mail,
  accelerator: ($patched.boot.ACCEL // $baseline.boot.ACCEL // null),
  seed: ($env.SEED | tonumber? // $env.SEED), soak_ops: ($env.SOAK_OPS | tonumber? // null),
  soak_seeds: ($env.SOAK_SEEDS | tonumber? // 1),
  soak_replay: (if ($env.SOAK_REPLAY // "") != "" then $env.SOAK_REPLAY else null end),
  suites: ($env.SUITES | split(",")),
  stages: [$stages[] | .seconds = (.seconds | tonumber? // .)],
  stage_errors: $errors,
  variants: {baseline: $baseline, patched: $patched},
  totals: ([$baseline, $patched] | map(select(ran)
           | {(.name): {passed: count("pass"), failed: count("fail"), skipped: count("skip"),
                        kernel_failures: (kernel | length)}}) | add // {}),
  comparison: ($cmp + {pre_existing: $pre}),
  # the rule of STABLE-POLICY.md the verdict was reached under, and what
  # made it UNSAFE (empty: nothing did)
  verdict_rule: $rule,
  xbuild: $xbuild,
  verdict_reasons: $reasons,
  evidence: {steps: [$at | to_entries[] | .value as $v | select($v.present)
                     | {k: (.key | tonumber), variant: $v.name,
                        boot: ($v.boot.BOOT_STATUS // "not run"),
                        passed: ($v | count("pass")), failed: ($v | count("fail")),
                        skipped: ($v | count("skip"))}]
                    | sort_by(.k),
             # each patch as it names itself (harness/report/patch-info.awk), and its proof
             # and its stable rules and interdiffs (harness/stages/upstream): a
             # failed rule makes it "not stable material as posted"
             patches: [$proof[] | (.k - 1) as $i | {k, patch} + ($patch_info[$i] // {}) + .
                       | .patch as $pn
                       | . + {rules: [$rules[] | select(.patch == $pn) | del(.patch)],
                              interdiff: [$interdiff[] | select(.patch == $pn) | del(.patch)
                                          | map_values(if test("^[0-9]+$") then tonumber else . end)]}
                       | . + {not_stable: [.rules[] | select(.result == "fail") | .detail]}]},
  # what harness/stages/upstream checked against: the form alone, a mainline
  # clone, an existing backport
  stable_rules: {checked: (($rules | length) > 0),
                 upstream_git: (($env.UPSTREAM_GIT // "") != ""),
                 stable_ref: (if ($env.STABLE_REF // "") == "" then null else $env.STABLE_REF end),
                 not_checked: ([$rules[] | select(.rule == "upstream-git" and .result == "unchecked")
                                | .detail] | unique)},
  dependencies: $depres,
  broken_stages: $broken,
  findings_on_record: {count: $findings, file: (if $findings > 0 then $findings_at else null end),
                       items: $findings_items},
  # harness/drivers/minimise: each failing soak's op log, minimised (minimise-<fs>.env)
  minimised: [$minimised[] | def num(k): (.[k] // "") | tonumber? // null;
    {variant, fs: .FS, status: .STATUS,
     record: (if (.RECORD // "") != "" then "\(.variant)/\(.RECORD)" else null end),
     ops: num("OPS_AFTER"), ops_before: num("OPS_BEFORE"), ops_subset: num("OPS_SUBSET"),
     tries: num("TRIES"), seconds: num("SECONDS"), stopped_early: (.STOPPED_EARLY == "1"),
     one_minimal: (.ONE_MINIMAL == "1"), reruns: (.RERUNS // null), class: (.CLASS // null),
     kernel_version: (.KERNEL_VERSION // null), bound: num("BOUND")}],
  # every kernel the run booted, by the sha256 of its bzImage (kept in
  # $STABLEGATE_CACHE/kernels/<sha256>.bzImage: harness/drivers/kernel)
  kernels: ([[$baseline, $patched][], ($steps | sort_by(prefix_k))[]
             | select(ran) | select(.boot.KERNEL_SHA256)
             | {variant: .name, sha256: .boot.KERNEL_SHA256,
                built: (.boot.KERNEL_BUILT // null),
                banner: (.boot.GUEST_BANNER // null), boot: (.boot.BOOT_STATUS // null),
                reused_from: (.boot.REUSED_FROM // null)}]
           # a reused baseline's minimised logs are that run's, and so are their boots
           + [$minimised[] | select((.KERNEL_SHA256 // "") != "")
              | {variant: "\(.variant) (minimiser, \(.FS))", sha256: .KERNEL_SHA256,
                 built: (.KERNEL_BUILT // null), banner: null, boot: null,
                 reused_from: ({baseline: $baseline, patched: $patched}[.variant].boot.REUSED_FROM // null)}]),
  verdict: $verdict,
  policy: "STABLE-POLICY.md"
}
