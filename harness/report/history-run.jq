# harness/report/report: one earlier run's result.json, reduced to what
# history.jq counts: its tree and series, and per variant the status of the
# cases this run fails ($want, "suite/case"), unless its results were reused;
# whether it replayed an op log instead of soaking (SOAK_REPLAY).
include "common";
{run_id, tree: (.tree.digest // null), hash: (.series.hash // null), replay: (.soak_replay // null),
 variants: (.variants | map_values(
   {reused: ((.boot.REUSED_FROM // "") != ""),
    tests: ([.tests[] | select(key | IN($want[])) | {(key): .status}] | add // {})}))}
