# harness/report/report, kcidb, matrix: is a result.json a whole stablegate result,
# as result.jq writes it: one JSON object with every key the report programs
# read as such, each of its type (those older results lack are checked only
# when there), the verdict one of STABLE-POLICY.md's.
# jq -r -s -f result-check.jq FILE: what is wrong, on one line; nothing when whole.
def need: {verdict: "string", schema: "string", branch: "string", run_id: "string",
  tree: "object", series: "object", suites: "array", variants: "object", totals: "object",
  comparison: "object", stages: "array", stage_errors: "array", broken_stages: "array",
  dependencies: "array", findings_on_record: "object"};
def may: {kernels: "array", evidence: "object", minimised: "array", reference: "boolean"};
def problems:
  if type != "object" then "a JSON \(type), not an object" else . as $r
  | (need | keys_unsorted[] | select(. as $k | $r | has($k) | not) | "no \(.)"),
    (need + may | to_entries[] | .key as $k | ($r[$k] | type) as $t | select(($r | has($k)) and $t != .value)
     | "\($k): \($t), not \(.value)"),
    (select(has("verdict") and (.verdict | IN("SAFE", "UNSAFE", "INCONCLUSIVE") | not))
     | "verdict \(.verdict | tojson | .[0:40]): not SAFE, UNSAFE or INCONCLUSIVE"),
    (select(has("schema") and .schema != "stablegate-result/1") | "schema \(.schema | tojson | .[0:40]): not stablegate-result/1"),
    (.series | objects | select(.patches | type != "array") | "series.patches: not an array"),
    (.variants | objects | ("baseline", "patched") as $v | select(.[$v] | type != "object") | "variants.\($v): not an object")
  end;
if length != 1 then "\(length) JSON values, not one" else
  [.[0] | problems] | select(length > 0) | .[0:3] + (if length > 3 then ["and \(length - 3) more"] else [] end) | join("; ") end
