#!/usr/bin/env bash
# Merges the parts of slurm-reproduce.sh into the report (REPORT.md, figures,
# tables); submit with --dependency=afterok:JOBID.
#SBATCH --job-name=gossipkit-reproduce-merge
#SBATCH --cpus-per-task=2
#SBATCH --time=00:30:00
set -euo pipefail
GOSSIPKIT=${GOSSIPKIT:-gossipkit}
PARTS=${PARTS:-reproduce-parts}
"$GOSSIPKIT" reproduce --merge "$PARTS" --out "${REPORT:-report}"
