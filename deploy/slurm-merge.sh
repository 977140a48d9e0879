#!/usr/bin/env bash
# Merges the parts of slurm-array.sh; submit with --dependency=afterok:JOBID.
#SBATCH --job-name=gossipkit-merge
#SBATCH --time=00:10:00
set -euo pipefail
GOSSIPKIT=${GOSSIPKIT:-gossipkit}
PARTS=${PARTS:-parts}
"$GOSSIPKIT" merge "$PARTS/" -o "${RESULT:-result.csv}"
