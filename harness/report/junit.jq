# harness/report/report: junit.xml from result.json (jq -r -f junit.jq result.json),
# in the JUnit shape xfstests-bld's kvm-xfstests writes and Jenkins-style
# dashboards read (harness/report/junit.xsd is what make check holds it to):
#   <testsuites> with one <testsuite> per kernel that ran (baseline, patched);
#   one <testcase classname="stablegate.SUITE" name="CASE"> per result, with
#   <failure message=...> when it failed and <skipped message=...> when it
#   was skipped; and one testcase "stablegate.kernel"/"console" per kernel,
#   failed with every kernel, boot or harness failure the console and the
#   logs showed (oops, WARN, hung task, boot hang, a suite that bailed out),
#   one per line. A case that baseline ran and patched gave no result for
#   is a testcase of the patched kernel with <error type="missing">, and a
#   kernel whose results.tsv has unreadable lines has a testcase
#   "stablegate.harness"/"results.tsv" with <error type="unreadable">
#   naming them: errors, not passes.
# A regression of an interface case (a behaviour change, STABLE-POLICY.md)
# fails with type "behaviour-change". The stable rules of
# harness/stages/upstream are a testsuite of their own,
# stablegate.<branch>.stable-rules: a testcase per patch and rule
# (classname stablegate.stable_rules.<patch>), failed or skipped (not checked).
# The reference branch (mainline, reference=yes) has one kernel, named
# "reference" (stablegate.mainline.reference), and its failing cases are
# of type "mainline-finding": mainline's own findings, not regressions.
def x: tostring | @html;
def attrs(o): o | to_entries | map(" \(.key)=\"\(.value | x)\"") | join("");
def case_failures: ["test-fail", "corruption"];
# a testcase's start tag, open: what follows ends it
def case_tag(o): "    <testcase\(attrs(o))";
# the end of a testcase of one child element, empty or holding text
def child($tag; o): ">\n      <\($tag)\(attrs(o))/>\n    </testcase>";
def child($tag; o; text): ">\n      <\($tag)\(attrs(o))>" + text + "</\($tag)>\n    </testcase>";
. as $r
| (.reference // false) as $ref
| def vname(v): if $ref and v == "patched" then "reference" else v end;
  [.variants[] | select(.name as $n | $r.totals | has($n))	# the kernels that ran
   | . as $v | [.failures[] | select(.kind as $k | case_failures | index($k) | not)] as $other
   | (if .name == "patched" then $r.comparison.missing // [] else [] end) as $missing
   | (.unreadable // []) as $unreadable
   | (($missing | length) + (if ($unreadable | length) > 0 then 1 else 0 end)) as $errors
   | {v: $v, other: $other, missing: $missing, unreadable: $unreadable, errors: $errors,
      tests: ((.tests | length) + 1 + $errors),
      failures: ($r.totals[$v.name].failed
                 + (if ($other | length) > 0 then 1 else 0 end))}] as $runs
| [$r.comparison.regressions[] | select(.kind == "interface") | .suite + "/" + .name] as $changes
| [($r.evidence.patches // [])[] | .patch as $p | (.rules // [])[]
   | select(.result | IN("pass", "fail", "unchecked")) | . + {patch: $p}] as $rules
| "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
  "<testsuites\(attrs({name: "stablegate.\($r.branch)",
    tests: (([$runs[].tests] | add // 0) + ($rules | length)),
    failures: (([$runs[].failures] | add // 0) + ([$rules[] | select(.result == "fail")] | length)),
    errors: ([$runs[].errors] | add // 0)}))>",
  ($runs[] | .v as $v | .other as $other | .unreadable as $unreadable
   | "  <testsuite\(attrs({name: "stablegate.\($r.branch).\(vname($v.name))",
       tests, failures, errors, skipped: $r.totals[$v.name].skipped,
       time: ($v.boot.BOOT_SECONDS // 0),
       timestamp: ($r.started // ""), hostname: "qemu-\($r.accelerator // "none")"}))>",
     "    <properties>",
     ({branch: $r.branch, role: (if $ref then "reference" else "branch" end),
       run: $r.run_id, variant: vname($v.name), verdict: $r.verdict,
       tree: "\($r.tree.package // $r.tree.source) \($r.tree.version // "")",
       kernel: $r.tree.kernel_version, series: $r.series.hash, seed: $r.seed,
       reused_from: ($v.boot.REUSED_FROM // null)}
      | with_entries(select(.value != null))
      | to_entries[] | "      <property\(attrs({name: .key, value: .value}))/>"),
     "    </properties>",
     ($v.tests[]
      | case_tag({classname: "stablegate.\(.suite)", name: .name})
        + (if .status == "fail" then
             child("failure";
                   {message: .reason,
                    type: (if $ref then "mainline-finding"
                           elif $v.name == "patched" and ((.suite + "/" + .name) as $k | $changes | index([$k])) then
                             "behaviour-change"
                           else "fail" end)})
           elif .status == "skip" then child("skipped"; {message: .reason})
           else "/>" end)),
     (.missing[]
      | case_tag({classname: "stablegate.\(.suite)", name: .name})
        + child("error";
                {message: ("no result on \(vname($v.name)) (baseline: \(.baseline)):"
                           + " missing, not passing"),
                 type: "missing"})),
     (if ($unreadable | length) == 0 then empty
      else case_tag({classname: "stablegate.harness", name: "results.tsv"})
        + child("error";
                {message: ("results.tsv: \($unreadable | length) of its lines cannot be read"
                           + " (no result)"),
                 type: "unreadable"};
                [$unreadable[] | x] | join("\n")) end),
     case_tag({classname: "stablegate.kernel", name: "console"})
       + (if ($other | length) == 0 then "/>"
          else child("failure";
                     {message: ("\($other | length) kernel, boot or harness failures:"
                                + " \([$other[].kind] | unique | join(", "))"),
                      type: "kernel"};
                     [$other[] | "\(.kind): \(.detail)" | x] | join("\n")) end),
     "  </testsuite>"),
  (if ($rules | length) == 0 then empty else
     "  <testsuite\(attrs({name: "stablegate.\($r.branch).stable-rules", tests: ($rules | length),
       failures: ([$rules[] | select(.result == "fail")] | length), errors: 0,
       skipped: ([$rules[] | select(.result == "unchecked")] | length), time: 0,
       timestamp: ($r.started // ""), hostname: "host"}))>",
     ($rules[]
      | case_tag({classname: "stablegate.stable_rules.\(.patch)", name: .rule})
        + (if .result == "fail" then
             child("failure"; {message: "not stable material as posted: \(.detail)", type: "stable-rules"})
           elif .result == "unchecked" then child("skipped"; {message: .detail})
           else "/>" end)),
     "  </testsuite>" end),
  "</testsuites>"
