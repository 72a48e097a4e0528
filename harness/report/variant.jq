# harness/report/report: everything one variant's stages left, as one object.
# jq -n --arg name --argjson present --argjson skipped --argjson boot
#   --rawfile results --argjson failures --argjson soak --argjson suites --argjson kinds
#   --argjson xbuild (harness/stages/xbuild's rows, warnings per arch, times)
# kinds (kinds.tsv): a failing case's kind (data|interface) and its pins
# line, by "suite/case", where its suite says them.
# suites (suites.tsv): how each suite ended in the guest and its wall time.
# results (results.tsv) holds one case a line: suite, case, pass|fail|skip,
# reason. A line that is not one is no result: tests leaves it out and
# unreadable names it, "results.tsv:LINE: " and what is wrong with it (an
# unparsable line, an unknown status).
def parsed: .suite != "" and .name != "" and .fields >= 3;
def result: parsed and (.status | IN("pass", "fail", "skip"));
[$results | split("\n") | to_entries[] | select(.value != "")
 | .value as $l | ($l | split("\t")) as $f
 | {line: (.key + 1), text: $l, fields: ($f | length),
    suite: $f[0], name: ($f[1] // ""), status: ($f[2] // ""),
    reason: ($f[3:] | join("\t"))}] as $rows
| {name: $name, present: $present, skipped: $skipped, boot: $boot,
 tests: [$rows[] | select(result) | {suite, name, status, reason}],
 unreadable: [$rows[] | select(result | not) | "results.tsv:\(.line): "
   + (if parsed then
        "unknown status \(.status[0:40] | tojson) for \("\(.suite)/\(.name)"[0:80] | tojson)"
      else "unparsable line \(.text[0:80] | tojson)" end)],
 failures: $failures,
 suites: [$suites[] | .seconds = ((.seconds | tonumber?) // .seconds)],
 kinds: ($kinds | map({("\(.suite)/\(.name)"): {kind, pins}}) | add // {}),
 xbuild: $xbuild,
 soak: [$soak[] | {fs, profile: (.fs | sub("-s[0-9]+$"; ""))} + ([.stats | split(" ")[] | select(contains("="))
	| split("=") | {(.[0]): (.[1] | tonumber? // .)}] | add)]}
# The soak per profile (SOAK_SEEDS): its results soak.FS or soak-sK.FS, how
# many ran and failed, the ops they did, and the failure that came first
# ("mismatch at op 261 (copy) ...", "hung: ... in op=460 truncate ...").
| .soak as $stats
| .soak_profiles = ([.tests[] | select(.suite == "soak" and (.name | test("^soak(-s[0-9]+)?[.]")))
    | {profile: (.name | sub("^soak(-s[0-9]+)?[.]"; "")), status, reason}]
  | group_by(.profile) | map(.[0].profile as $p | {profile: $p,
      seeds: (map(select(.status != "skip")) | length),
      failed: (map(select(.status == "fail")) | length),
      ops: ([$stats[] | select(.profile == $p) | .ops // 0] | add // 0),
      first_failure: ([.[] | select(.status == "fail") | .reason
                       | capture("op[ =](?<op>[0-9]+) [(]?(?<type>[a-z_]+)")? | .op |= tonumber]
                      | min_by(.op))}))
