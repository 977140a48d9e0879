#!/usr/bin/env bash
# Runs every example in this folder locally (the sim array job here, the
# reproduction's through test-reproduce.sh), with the array-index variables
# set the way each engine sets them, and checks that each merge equals the
# single-machine run byte for byte. Needs GOSSIPKIT (path to the binary).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${GOSSIPKIT:?set GOSSIPKIT to the gossipkit binary}"
export GOSSIPKIT
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# The experiment every example runs, as the single-machine reference.
args="--reps 12 --rounds 100 --warmup 50 --seed 9"
"$GOSSIPKIT" sim $args --format csv > single.csv

# Slurm: run the array script as Slurm would, task ids 1..3.
for id in 1 2 3; do
	SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_JOB_ID=1 \
		PARTS=slurm bash "$here/slurm-array.sh" 2>>log
done
PARTS=slurm RESULT=slurm.csv bash "$here/slurm-merge.sh"
cmp single.csv slurm.csv
echo "slurm: merge of 3 array tasks = single run"

# Kubernetes: take the container args from the manifests and run them with
# JOB_COMPLETION_INDEX = 0..completions−1, /parts mapped to a local folder.
yaml_args() { # the args list of a manifest, one word a line, /parts → ./k8s
	sed -n 's/^ *args: *\[\(.*\)\]/\1/p' "$1" | tr ',' '\n' | sed 's/^ *"//; s/" *$//; s#^/parts#k8s#'
}
completions=$(sed -n 's/^ *completions: *\([0-9]*\)/\1/p' "$here/k8s-indexed-job.yaml")
mkdir -p k8s
mapfile -t kargs < <(yaml_args "$here/k8s-indexed-job.yaml")
for ((i = 0; i < completions; i++)); do
	JOB_COMPLETION_INDEX=$i "$GOSSIPKIT" "${kargs[@]}" 2>>log
done
mapfile -t margs < <(yaml_args "$here/k8s-merge-job.yaml")
"$GOSSIPKIT" "${margs[@]}"
cmp single.csv k8s/result.csv
echo "kubernetes: merge of $completions indexed pods = single run"

# One machine: xargs -P.
PARTS=local RESULT=local.csv bash "$here/parallel.sh" 2>>log
cmp single.csv local.csv
echo "xargs -P: merge of 3 local shards = single run"

# The reproduction as an array job (M = 3 at the smoke scale): the same
# engines, the report merged and compared with the single run.
bash "$here/test-reproduce.sh"
