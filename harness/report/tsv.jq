# harness/report/report: a TSV file (no header) as a JSON array of objects, one
# key per column. jq -R -s --arg cols COL,COL,...
($cols | split(",")) as $c
| split("\n") | map(select(length > 0) | split("\t")
| [$c, .] | transpose | map({(.[0]): (.[1] // "")}) | add)
