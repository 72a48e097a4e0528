# harness/report/kcidb: check KCIDB I/O data against the field rules of the
# published v4 schema (kcidb-io's v04_00 .. v04_05: the properties, types,
# required fields, patterns, enums and formats of version, checkouts,
# builds and tests; the same rules as its JSON Schema, written out here so
# that no network or Python package is needed). Then stablegate's own rules
# for what it submits: origin "stablegate", at least one checkout, a build
# of each valid checkout and a test of each valid build (only what failed
# has nothing after it), every build's checkout and every test's build
# present, ids unique, test paths stablegate.<...>.
# jq -r -f kcidb-check.jq FILE: one line per violation, "<where>: <what>";
# nothing when the data is valid.
def origin_re: "^[a-z0-9_]+$";
def origin_id_re: "^[a-z0-9_]+:.*$";
def datetime_re:
  "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}"
  + "(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$";
def uri_re: "^[A-Za-z][A-Za-z0-9+.-]*:[^ ]*$";
# One property rule: [type, extra]. Types as JSON Schema's: string, boolean,
# number, integer, object, array(of); extra: pattern, enum, format, max.
def str: {type: "string"};
def str($k; $v): {type: "string"} + {($k): $v};
def status_enum: ["FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP"];
def resource_list: {type: "resources"};
# the lists of KCIDB I/O data that stablegate writes
def lists: ["checkouts", "builds", "tests"];
def rules:
{
  checkout: {required: ["id", "origin"], props: {
    _timestamp: str("format"; "date-time"), id: str("pattern"; origin_id_re),
    origin: str("pattern"; origin_re), tree_name: str,
    git_repository_url: ({type: "string", format: "uri", pattern: "^(https|git)://.*$"}),
    git_commit_hash: str("pattern"; "^[0-9a-f]{40}$"), git_commit_name: str,
    git_repository_branch: str, patchset_files: resource_list,
    patchset_hash: str("pattern"; "^$|^[0-9a-f]{64}$"), message_id: str("format"; "email"),
    comment: str, start_time: str("format"; "date-time"),
    contacts: {type: "array", items: "string"}, log_url: str("format"; "uri"),
    log_excerpt: str("max"; 16384), valid: {type: "boolean"}, misc: {type: "object"}}},
  build: {required: ["checkout_id", "id", "origin"], props: {
    _timestamp: str("format"; "date-time"), checkout_id: str("pattern"; origin_id_re),
    id: str("pattern"; origin_id_re), origin: str("pattern"; origin_re), comment: str,
    start_time: str("format"; "date-time"), duration: {type: "number"},
    architecture: str("pattern"; "^[a-z0-9_]*$"), command: str, compiler: str,
    input_files: resource_list, output_files: resource_list, config_name: str,
    config_url: str("format"; "uri"), log_url: str("format"; "uri"),
    log_excerpt: str("max"; 16384), valid: {type: "boolean"}, misc: {type: "object"}}},
  test: {required: ["build_id", "id", "origin"], props: {
    _timestamp: str("format"; "date-time"), build_id: str("pattern"; origin_id_re),
    id: str("pattern"; origin_id_re), origin: str("pattern"; origin_re),
    environment: {type: "environment"}, path: str("pattern"; "^[.a-zA-Z0-9_-]*$"),
    comment: str, log_url: str("format"; "uri"), log_excerpt: str("max"; 16384),
    status: str("enum"; status_enum), number: {type: "number_object"},
    waived: {type: "boolean"}, start_time: str("format"; "date-time"),
    duration: {type: "number"}, output_files: resource_list, misc: {type: "object"}}}
};
def typeok($t):
  if $t == "string" then type == "string"
  elif $t == "boolean" then type == "boolean"
  elif $t == "number" then type == "number"
  elif $t == "integer" then type == "number" and . == floor
  elif $t == "object" or $t == "environment" or $t == "number_object" then type == "object"
  elif $t == "array" or $t == "resources" then type == "array"
  else false end;
def formatok($f):
  if $f == "date-time" then test(datetime_re)
  elif $f == "uri" then test(uri_re)
  elif $f == "email" then test("^[^@ ]+@[^@ ]+$")
  else true end;
# value VALUE RULE WHERE: the violations of one property
def value($rule; $where):
  if . == null then "\($where): null (KCIDB: no property can be null; leave it out)"
  elif typeok($rule.type) | not then
    "\($where): \(type), not "
    + ($rule.type | sub("resources"; "array") | sub("environment|number_object"; "object"))
  elif $rule.pattern and (test($rule.pattern) | not) then
    "\($where): \(tojson) does not match \($rule.pattern)"
  elif $rule.enum and (. as $v | $rule.enum | index([$v]) | not) then
    "\($where): \(tojson) is not one of \($rule.enum | join(", "))"
  elif $rule.format and (formatok($rule.format) | not) then
    "\($where): \(tojson) is not a \($rule.format)"
  elif $rule.max and length > $rule.max then "\($where): longer than \($rule.max) characters"
  elif $rule.type == "array" then
    to_entries[] | select(.value | typeok($rule.items) | not)
    | "\($where)[\(.key)]: not a \($rule.items)"
  elif $rule.type == "resources" then to_entries[] | .key as $i | .value
    | if type != "object" then "\($where)[\($i)]: not an object"
      else (keys - ["name", "url"] | .[] | "\($where)[\($i)]: unknown property \(.)"),
           (["name", "url"] - keys | .[] | "\($where)[\($i)]: missing required \(.)"),
           (select(has("name")) | .name | select(type != "string" or test("^[^/]+$") | not)
            | "\($where)[\($i)].name: not a file name"),
           (select(has("url")) | .url | select(type != "string" or (test(uri_re) | not))
            | "\($where)[\($i)].url: not a uri")
      end
  elif $rule.type == "environment" then
    (keys - ["compatible", "comment", "misc"] | .[] | "\($where): unknown property \(.)"),
    (select(has("comment")) | .comment | select(type != "string")
     | "\($where).comment: not a string"),
    (select(has("misc")) | .misc | select(type != "object") | "\($where).misc: not an object"),
    (select(has("compatible")) | .compatible
     | select(type != "array"
              or any(.[]; type != "string" or (test("^[^ ]+(,[^ ]+)*$") | not)))
     | "\($where).compatible: not a list of compatible strings")
  elif $rule.type == "number_object" then
    (keys - ["value", "unit", "prefix"] | .[] | "\($where): unknown property \(.)"),
    (select(has("value") | not) | "\($where): missing required value"),
    (select(has("value")) | .value | select(type != "number") | "\($where).value: not a number"),
    (select(has("prefix")) | .prefix | select(IN("metric", "binary") | not)
     | "\($where).prefix: not metric or binary")
  else empty end;
def object($kind; $where):
  rules[$kind] as $r
  | if type != "object" then "\($where): not an object"
    else (($r.required - keys)[] | "\($where): missing required \(.)"),
         (to_entries[] | .key as $k | .value
          | if $r.props[$k] == null then "\($where): unknown property \($k) (not in the v4 schema)"
            else value($r.props[$k]; "\($where).\($k)") end)
    end;
# The schema's own rules
(if type != "object" then "top: not an object" else
  (keys - ["version", "checkouts", "builds", "tests", "issues", "incidents"] | .[]
   | "top: unknown property \(.)"),
  (if has("version") | not then "top: missing required version"
   else .version | if type != "object" then "version: not an object" else
     (keys - ["major", "minor"] | .[] | "version: unknown property \(.)"),
     (select(.major != 4) | "version.major: \(.major | tojson), not 4"),
     (select(has("minor")
             and ((.minor | type) != "number" or .minor < 0 or .minor > 5
                  or .minor != (.minor | floor)))
      | "version.minor: \(.minor | tojson), not 0..5")
   end end),
  (lists[] as $list | select(has($list)) | .[$list]
   | if type != "array" then "\($list): not an array"
     else to_entries[] | .key as $i | .value
       | object($list | rtrimstr("s"); "\($list)[\($i)]") end)
end),
# stablegate's own: what it submits is whole and its own
(select(type == "object") | . as $d
 | ([.checkouts[]?.id]) as $co | ([.builds[]?.id]) as $bu
 | (lists[] as $list | [$d[$list][]? | .id] | group_by(.)[] | select(length > 1)
    | "\($list): id \(.[0]) appears \(length) times"),
   (lists[] as $list | $d[$list][]?
    | select(.origin != "stablegate" or ((.id // "") | startswith("stablegate:") | not))
    | "\($list) \(.id): origin \(.origin | tojson), not stablegate"
      + " (and the id must start stablegate:)"),
   (select($co == []) | "checkouts: none (a run has a checkout per kernel)"),
   (.checkouts[]?
    | select(.valid != false and (.id as $c | [$d.builds[]?.checkout_id] | index([$c]) | not))
    | "checkouts \(.id): valid, and no build of it"),
   (.builds[]?
    | select(.valid != false and (.id as $b | [$d.tests[]?.build_id] | index([$b]) | not))
    | "builds \(.id): valid, and no test of it"),
   (.builds[]? | select(.checkout_id as $c | $co | index([$c]) | not)
    | "builds \(.id): checkout \(.checkout_id) is not in checkouts"),
   (.tests[]? | select(.build_id as $b | $bu | index([$b]) | not)
    | "tests \(.id): build \(.build_id) is not in builds"),
   (.tests[]? | select((.path // "") | test("^stablegate\\.[a-zA-Z0-9_-]+") | not)
    | "tests \(.id): path \(.path | tojson) is not stablegate.<suite>..."),
   (.tests[]? | select(has("status") | not) | "tests \(.id): no status"))
