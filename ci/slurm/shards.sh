#!/bin/sh
# pairbench across a Slurm cluster: a job array runs one shard per node
# (SLURM_ARRAY_TASK_ID 1..N -> `--shard K/N`), each on a whole node (--exclusive) so its
# paired comparisons see no neighbours; a dependent job merges the shards and gates them.
#
#   sh ci/slurm/shards.sh SPEC RESULTS_DIR [SHARDS]     # submits both jobs and returns
#   sh ci/slurm/shards.sh --merge RESULTS_DIR           # what the merge job runs
#
# RESULTS_DIR must be on a filesystem every node sees. Run it from the pairbench checkout
# (the same path on every node). PAIRBENCH_COMPARE overrides bin/compare in the shards and in
# the merge (it is passed on to both jobs). Every job's log goes to RESULTS_DIR
# (pairbench-shard-JOB_K.log, merge-JOB.log), never into the checkout. See docs/ci.md.
#SBATCH --job-name=pairbench-shard
#SBATCH --exclusive
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --time=02:00:00
set -eu
compare=${PAIRBENCH_COMPARE:-bin/compare}

if [ "${1:-}" = "--merge" ]; then
    # merge mode: join every shard, then gate the merged run directory
    [ $# -eq 2 ] || { echo "usage: sh ci/slurm/shards.sh --merge RESULTS_DIR" >&2; exit 2; }
    results=$2
    rm -rf "$results/merged"
    "$compare" merge --out "$results/merged" "$results"/shard-*
    # inconclusive stays exit 4: the caller tells it from a regression (1)
    exec "$compare" gate --from "$results/merged" --inconclusive exit
fi

if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
    # submit mode
    [ $# -ge 2 ] || { echo "usage: sh ci/slurm/shards.sh SPEC RESULTS_DIR [SHARDS]" >&2; exit 2; }
    spec=$(realpath "$1"); results=$(realpath -m "$2"); shards=${3:-4}
    top=$(cd "$(dirname "$0")/../.." && pwd)
    mkdir -p "$results"
    array=$(sbatch --parsable --array="1-$shards" --chdir="$top" \
        --output="$results/pairbench-shard-%A_%a.log" \
        --export="ALL,PAIRBENCH_SPEC=$spec,PAIRBENCH_RESULTS=$results,PAIRBENCH_COMPARE=$compare" "$0")
    # afterany: merge also when a shard failed; merge then names the missing shard
    merge=$(sbatch --parsable --dependency="afterany:$array" --chdir="$top" \
        --job-name=pairbench-merge --output="$results/merge-%j.log" \
        --export="ALL,PAIRBENCH_COMPARE=$compare" "$top/ci/slurm/shards.sh" --merge "$results")
    echo "submitted shards as job $array, merge as job $merge; report: $results/merged/report.md"
    exit 0
fi

# array task mode: one shard
k=$SLURM_ARRAY_TASK_ID
n=${SLURM_ARRAY_TASK_COUNT:?}
out=$PAIRBENCH_RESULTS/shard-$k
resume=""
[ -s "$out/runs.jsonl" ] && resume="--resume"   # a requeued task continues its dataset
set +e
"$compare" run --spec "$PAIRBENCH_SPEC" --shard "$k/$n" --out "$out" $resume
rc=$?
set -e
# 3: some runs failed; the dataset and report are written and the merge shows them
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || exit "$rc"
