#!/usr/bin/env bash
# Runs the reproduction's array-job examples locally at the smoke scale with
# M = 3 shards instead of 16, with the array-index variables set the way
# Slurm and Kubernetes set them, and checks that each merged report equals
# the single run's byte for byte (every table and figure, and REPORT.md
# above its timing lines). Needs GOSSIPKIT (path to the binary).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${GOSSIPKIT:?set GOSSIPKIT to the gossipkit binary}"
export GOSSIPKIT
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
M=3
"$GOSSIPKIT" reproduce --scale smoke --out single 2>>log

# same DIR1 DIR2: the two reports agree but for the timing lines.
same() {
	diff -r -x REPORT.md "$1" "$2"
	cmp <(sed '/^## Where the time goes/,$d' "$1/REPORT.md") <(sed '/^## Where the time goes/,$d' "$2/REPORT.md")
}

# Slurm: the array script as Slurm runs it, task ids 1..M.
for id in $(seq 1 $M); do
	SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=$M SLURM_ARRAY_JOB_ID=1 \
		SCALE=smoke PARTS=slurm bash "$here/slurm-reproduce.sh" 2>>log
done
PARTS=slurm REPORT=slurm-report bash "$here/slurm-reproduce-merge.sh" 2>>log
same single slurm-report
echo "slurm: report merged from $M array tasks = single run"

# Kubernetes: the manifests' container args, with the paper scale replaced
# by smoke, 16 shards by M and /parts by a local folder, run with
# JOB_COMPLETION_INDEX = 0..M−1.
yaml_args() {
	sed -n 's/^ *args: *\[\(.*\)\]/\1/p' "$1" | tr ',' '\n' | sed 's/^ *"//; s/" *$//; s#^/parts#k8s#; s/^paper$/smoke/; s/^16$/'$M'/'
}
grep -q '^  completions: 16$' "$here/k8s-reproduce-job.yaml"
mkdir -p k8s
mapfile -t kargs < <(yaml_args "$here/k8s-reproduce-job.yaml")
for ((i = 0; i < M; i++)); do
	JOB_COMPLETION_INDEX=$i "$GOSSIPKIT" "${kargs[@]}" 2>>log
done
mapfile -t margs < <(yaml_args "$here/k8s-reproduce-merge-job.yaml")
"$GOSSIPKIT" "${margs[@]}" 2>>log
same single k8s/report
echo "kubernetes: report merged from $M indexed pods = single run"

# A batch log shows one line per finished step.
grep -q '^reproduce: section 3, Figs. 7–8: protocol simulation, n = 100: ' log
echo "the batch log shows the steps"
