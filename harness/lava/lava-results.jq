# harness/lava/lava-run: the cases LAVA's monitors recorded, as harness/stages/scan's
# results.tsv rows: suite (the monitor's name), case (the KTAP name, kept
# in extra.test_case_id: LAVA's own case id is lower-cased and has its dots
# replaced), pass|fail|skip, and an empty reason (LAVA keeps none).
# jq -r -f lava-results.jq LOG.jsonl (lava-log.awk's output)
select(.lvl == "results" and (.msg | type) == "object" and .msg.definition != "lava")
| .msg
| [.definition, (.extra.test_case_id // .case), .result, ""]
| @tsv
