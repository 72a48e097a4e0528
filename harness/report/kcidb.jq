# harness/report/kcidb: a run's result.json as KCIDB I/O data (schema v4.3, the
# version field says so), to submit next to every other CI system's results.
# jq --arg patchset_hash HASH (sha256 of the series' sha256s, or "")
#    --argjson kernel_kinds KINDS (harness/lib/failure-kinds.tsv) result.json
#   checkouts  one per kernel variant: baseline (the tree, the series
#              reverse-applied or as shipped) and patched (tree + series);
#              valid: false when its tree or series stage failed
#   builds     one per kernel whose config or build stage ran; valid: false
#              when either failed (KCIDB: a build that could not complete)
#   tests      one per case, path stablegate.<suite>.<case> (the case name
#              ends in .<fs>): PASS, FAIL or SKIP as KTAP said, ERROR when
#              the case did not finish (timeout, signal, a suite that bailed
#              out); a fail accepted in divergences.tsv is waived; plus one
#              stablegate.boot per booted kernel and one stablegate.kernel.<kind>
#              per oops/BUG/WARN/... the console showed; MISS for a case
#              baseline ran and patched gave no result for (missing, not
#              passing), and an ERROR stablegate.results for a kernel whose
#              results.tsv has unreadable lines, naming them; and on the
#              patched build, stablegate.stable_rules.<rule> per patch and
#              rule of harness/stages/upstream (PASS, FAIL, SKIP: not checked)
# Ids are "stablegate:<branch>:<run id>:<variant>[:<n>]". No property is null
# (KCIDB forbids it): a missing value is left out.
def origin: "stablegate";
def clean: with_entries(select(.value != null and .value != "" and .value != {} and .value != []));
def rfc3339:
  if type == "string"
     and test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}"
              + "(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$")
  then . else null end;
def pathpart: gsub("[^.a-zA-Z0-9_-]"; "_");
# a case's test path, stablegate.<suite>.<case>
def case_path: "stablegate.\(.suite | pathpart).\(.name | pathpart)";
# where a variant's tests ran
def environment($x): {comment: "QEMU x86_64 (\($x.boot.ACCEL // "?")), no network device"};
. as $r
| "\(origin):\($r.branch):\($r.run_id)" as $base
| ($r.stages // []) as $stages
# a stage's status for a variant: "ok", "failed(N)" or null (did not run)
| def stage($s; $v):
    [$stages[] | select(.stage == $s and (.variant == $v or .variant == "-"))][-1].status // null;
  def seconds($s; $v): [$stages[] | select(.stage == $s and .variant == $v)][-1].seconds // null;
  ($r.comparison.known_divergences // [] | map(.suite + "/" + .name)) as $waived
| ["baseline", "patched"] as $variants
| [$variants[] as $v | $r.variants[$v] // {}
   | select(.present // false) | {v: $v, x: .}] as $present
| {
  version: {major: 4, minor: 3},
  checkouts: [$present[] | .v as $v
    | ([stage("tree"; "-"), stage("series"; $v)] | all(. == null or . == "ok")) as $ok
    | {id: "\($base):\($v)", origin: origin,
       tree_name: (if $r.reference then "mainline" else "linux-\($r.branch).y" end),
       git_commit_name: (if ($r.tree.kernel_version // "") != "" then "v\($r.tree.kernel_version)"
                         else null end),
       patchset_hash: (if $v == "patched" and $patchset_hash != "" then $patchset_hash
                       else null end),
       comment: (([$r.tree.package, $r.tree.version] | map(select(. != null and . != ""))
                  | join(" "))
         + (if $v == "baseline" then ", \($r.series.baseline)"
            else ", the series applied (\($r.series.patches | length) patches)" end)),
       start_time: ($r.started | rfc3339),
       valid: $ok,
       misc: {branch: $r.branch, run_id: $r.run_id, variant: $v, verdict: $r.verdict,
              series_hash: $r.series.hash, candidate: $r.series.candidate,
              tree_source: $r.tree.source} | clean}
      | clean],
  builds: ([$present[] | .v as $v | select(stage("config"; $v) != null or stage("build"; $v) != null)
    | ([stage("config"; $v), stage("build"; $v)] | all(. == "ok")) as $ok
    | {id: "\($base):\($v)", checkout_id: "\($base):\($v)", origin: origin,
       architecture: "x86_64",
       config_name: ("tinyconfig+stablegate"
                     + (if $r.debug_profile then "+\($r.debug_profile)" else "" end)),
       duration: ([seconds("config"; $v), seconds("build"; $v)] | map(select(type == "number"))
                  | if length > 0 then add else null end),
       valid: $ok,
       comment: (if $ok then null else
         ([$r.stage_errors[]?
           | select(startswith("config \($v):") or startswith("build \($v):"))][0]
          // "the \(if stage("config"; $v) != "ok" then "config" else "build" end) stage"
             + " \(stage("build"; $v) // stage("config"; $v))") end),
       misc: {variant: $v, kernel_version: $r.tree.kernel_version,
              bzimage_sha256: ([$r.kernels[]? | select(.variant == $v) | .sha256][0] // null),
              bzimage_version: ([$r.kernels[]? | select(.variant == $v) | .built][0] // null),
              results_reused_from: ([$r.kernels[]? | select(.variant == $v) | .reused_from][0] // null)}
             | clean}
      | clean]
    # harness/stages/xbuild: the objects compiled under allmodconfig, a build
    # per kernel and architecture, valid when every object built
    + [$present[] | .v as $v | (.x.xbuild.rows // []) | group_by(.arch)[] | .[0].arch as $a
       | map(select(.status | IN("error", "prepare-failed"))) as $bad
       | {id: "\($base):\($v):allmodconfig-\($a)", checkout_id: "\($base):\($v)", origin: origin,
          architecture: $a, config_name: "allmodconfig",
          duration: ($r.xbuild.seconds[$v] // {} | [.["XBUILD_\($a | ascii_upcase)_PREPARE_SECS"],
                      .["XBUILD_\($a | ascii_upcase)_OBJECTS_SECS"]] | map(tonumber? // empty)
                     | if length > 0 then add else null end),
          valid: ($bad | length == 0),
          comment: (if $bad == [] then null
                    else "not built: " + ($bad | map(.object) | join(", ")) end),
          misc: {variant: $v, objects: length, warnings: (map(.warnings | tonumber? // 0) | add)}}
       | clean]),
  tests: ([$present[] | .v as $v | (.x.xbuild.rows // []) | group_by(.arch)[] | .[0].arch as $a
     | to_entries[] | .key as $i | .value
     | {id: "\($base):\($v):allmodconfig-\($a):\($i)", build_id: "\($base):\($v):allmodconfig-\($a)",
        origin: origin, path: "stablegate.xbuild.\(.object | pathpart)",
        status: ({ok: "PASS", error: "FAIL", "prepare-failed": "ERROR"}[.status] // "SKIP"),
        comment: (if .detail == "" then null else .detail end),
        misc: {warnings: (.warnings | tonumber? // null)}} | clean]
    + [$present[] | .v as $v | .x as $x | select(stage("build"; $v) == "ok")
    | "\($base):\($v)" as $build
    | ($x.boot.BOOT_STATUS // null) as $boot
    | (if $boot == null then empty else
        {id: "\($build):boot", build_id: $build, origin: origin, path: "stablegate.boot",
         status: (if $boot == "ok" then "PASS"
                  elif $boot == "stall" or $boot == "timeout" then "FAIL"
                  else "ERROR" end),
         duration: ($x.boot.BOOT_SECONDS // null | tonumber? // null),
         comment: (if $boot == "ok" then null else "boot status \($boot)" end),
         environment: environment($x),
         misc: ({seed: $r.seed, soak_ops: $r.soak_ops, soak_seeds: $r.soak_seeds} | clean)} | clean end),
      ($x.tests | to_entries[] | .key as $i | .value
       | {id: "\($build):\($i)", build_id: $build, origin: origin,
          path: case_path,
          status: (if .status == "pass" then "PASS" elif .status == "skip" then "SKIP"
                   elif (.reason // "") | test("^(timeout|hung):|^signal [0-9]+|^exit ") then
                     "ERROR"
                   else "FAIL" end),
          waived: ("\(.suite)/\(.name)" as $k
                   | if .status == "fail" and ($waived | index([$k])) then true else null end),
          comment: (if (.reason // "") != "" then .reason else null end),
          environment: environment($x),
          misc: {suite: .suite, case: .name, variant: $v} }
       | clean),
      ($x.failures // [] | to_entries[]
       | select(.value.kind | IN($kernel_kinds[]))
       | {id: "\($build):kernel:\(.key)", build_id: $build, origin: origin,
          path: "stablegate.kernel.\(.value.kind | pathpart)", status: "FAIL",
          comment: (.value.detail | .[0:1000]), misc: {variant: $v}}
       | clean),
      (if $v == "patched" then $r.comparison.missing // [] else [] end
       | to_entries[] | .key as $i | .value
       | {id: "\($build):missing:\($i)", build_id: $build, origin: origin,
          path: case_path, status: "MISS",
          comment: "no result on patched (baseline: \(.baseline)): missing, not passing",
          misc: {suite: .suite, case: .name, variant: $v}}),
      (if $v == "patched" then $r.evidence.patches // [] else [] end
       | .[] | .k as $k | .patch as $p | (.rules // []) | to_entries[]
       | select(.value.result | IN("pass", "fail", "unchecked"))
       | {id: "\($build):rules:\($k):\(.key)", build_id: $build, origin: origin,
          path: "stablegate.stable_rules.\(.value.rule | pathpart)",
          status: ({pass: "PASS", fail: "FAIL", unchecked: "SKIP"}[.value.result]),
          comment: (.value.detail | .[0:1000]), misc: {patch: $p, variant: $v}}
       | clean),
      ($x.unreadable // [] | select(length > 0)
       | {id: "\($build):results", build_id: $build, origin: origin,
          path: "stablegate.results", status: "ERROR",
          comment: ("results.tsv: \(length) of its lines cannot be read (no result): "
                    + join("; ") | .[0:1000]),
          misc: {variant: $v}})
  ])
}
