# harness/report/report: KEY=VALUE lines (env, boot.env) as one JSON object. jq -R -s
split("\n") | map(select(test("^[A-Za-z_0-9]+="))
| {(sub("=.*"; "")): sub("^[^=]*="; "")}) | add // {}
