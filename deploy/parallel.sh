#!/usr/bin/env bash
# The same sweep on one multi-core machine: 3 shards at a time with xargs
# (GNU parallel: `parallel -j3 gossipkit sim ... --shard {}/3 -o parts/ ::: 1 2 3`).
set -euo pipefail
GOSSIPKIT=${GOSSIPKIT:-gossipkit}
PARTS=${PARTS:-parts}
mkdir -p "$PARTS"
seq 1 3 | xargs -P 3 -I{} "$GOSSIPKIT" sim --reps 12 --rounds 100 --warmup 50 --seed 9 --workers 1 --shard {}/3 -o "$PARTS/"
"$GOSSIPKIT" merge "$PARTS/" -o "${RESULT:-result.csv}"
