#!/usr/bin/env bash
# A sweep as a Slurm job array: task i runs shard i of 3 (gossipkit reads
# SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT).
#
#   jid=$(sbatch --parsable deploy/slurm-array.sh)
#   sbatch --dependency=afterok:$jid deploy/slurm-merge.sh
#
#SBATCH --job-name=gossipkit-sweep
#SBATCH --array=1-3
#SBATCH --cpus-per-task=2
#SBATCH --time=01:00:00
set -euo pipefail
GOSSIPKIT=${GOSSIPKIT:-gossipkit}
PARTS=${PARTS:-parts}
mkdir -p "$PARTS"
"$GOSSIPKIT" sim --reps 12 --rounds 100 --warmup 50 --seed 9 -o "$PARTS/"
