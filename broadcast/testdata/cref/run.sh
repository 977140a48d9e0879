#!/bin/sh
# run.sh: builds push.c with gcc -O2 and times it beside the Go engines on
# the same replications' rules (push, N = 10^6, k = 3, no loss, no
# failures, level 1, 5 replications, one core), alternating C and Go
# COUNT times; prints ns per message of each run. Run from the repository
# root: sh broadcast/testdata/cref/run.sh [COUNT]
set -eu
COUNT=${1:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
gcc -O2 -o "$dir/push" broadcast/testdata/cref/push.c
go test -c -o "$dir/broadcast.test" ./broadcast
i=0
while [ "$i" -lt "$COUNT" ]; do
	"$dir/push" 1000000 3 0 0 5 1 | sed 's/^/C: /'
	GOMAXPROCS=1 "$dir/broadcast.test" -test.run '^$' -test.bench PushMillion -test.benchtime 5x | grep '^Benchmark' | sed 's/^/Go: /'
	i=$((i + 1))
done
