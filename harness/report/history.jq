# harness/report/report: the run's failing cases, with how often each failed
# on this branch before (kdevops keeps such rates in its expunge lists'
# comments, kvm-xfstests prints "Flaky: test NN% (f/n)"). Input: this run's
# result.json; --slurpfile runs: the earlier runs of the branch (the run
# dirs beside it), each reduced by history-run.jq. A run counts for a
# kernel when it booted the same tree (its digest) with the same series
# (its hash) as this run, soaked as it did (or replayed the same op log,
# SOAK_REPLAY), and that variant's results were its own (not
# reused from another run). This run counts too: "fails on patched in 2 of
# 9 runs".
include "common";
def same_kernel($r): $r.tree == (.tree.digest // null) and $r.hash == (.series.hash // null)
  and $r.replay == (.soak_replay // null);
# this run's variant holds the results of one of the earlier runs (REUSED_FROM
# <branch>/<run>): they count there, once
def reused_from($earlier): (.boot.REUSED_FROM // "" | split("/") | last) as $from
  | $from != "" and any($earlier[]; .run_id == $from);
. as $run
| ([$runs[] | select(.run_id != $run.run_id) | select(. as $r | $run | same_kernel($r))] | unique_by(.run_id)) as $earlier
| ([.variants[] | .tests[] | select(.status == "fail") | key] | unique) as $failing
| .failure_rates = {
    earlier_runs: ($earlier | length),
    cases: [$failing[] as $k
      | {case: $k} + ([("baseline", "patched") as $v
          | ([$earlier[] | .variants[$v] | select(. != null and (.reused | not)) | .tests[$k] | select(. != null)]
             + [$run.variants[$v] | select(.present and (reused_from($earlier) | not))
                | .tests[] | select(key == $k) | .status]) as $s
          | {($v): {failed: ($s | map(select(. == "fail")) | length), ran: ($s | length)}}] | add)]}
