#!/usr/bin/env bash
# The whole reproduction (`gossipkit reproduce`) as a Slurm job array of 16
# tasks: task i runs shard i of 16 of every simulation of the report and
# writes one part file (gossipkit reads SLURM_ARRAY_TASK_ID,
# SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT); the merge job computes
# the exact parts and writes the report.
#
#   jid=$(sbatch --parsable deploy/slurm-reproduce.sh)
#   sbatch --dependency=afterok:$jid deploy/slurm-reproduce-merge.sh
#
#SBATCH --job-name=gossipkit-reproduce
#SBATCH --array=1-16
#SBATCH --cpus-per-task=2
#SBATCH --time=00:30:00
set -euo pipefail
GOSSIPKIT=${GOSSIPKIT:-gossipkit}
PARTS=${PARTS:-reproduce-parts}
"$GOSSIPKIT" reproduce --scale "${SCALE:-paper}" -o "$PARTS/"
