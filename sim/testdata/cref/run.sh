#!/bin/sh
# run.sh: builds shuffle.c with gcc -O2 and
#   sh sim/testdata/cref/run.sh refs      rewrites the reference files
#                                         shuffle_*.txt (32-bit items)
#   sh sim/testdata/cref/run.sh [COUNT]   times it beside sim's
#       BenchmarkProtocol_2500_500_100_50 (N = 2500, n = 500, c = 100,
#       s = 50, no loss, 500 rounds after 300 of mixing, one core, 16-bit
#       items in both), alternating C and Go COUNT times (default 3); prints
#       wall and CPU ns per shuffle of each run.
# Run from the repository root.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cref=sim/testdata/cref
if [ "${1:-}" = refs ]; then
	gcc -O2 -o "$dir/shuffle" $cref/shuffle.c
	for a in "300 500 100 50 100 200 7 2 0" "200 100 60 40 50 150 9 1 0.1" "200 70000 50 20 20 100 3 0 0.05"; do
		# shellcheck disable=SC2086
		"$dir/shuffle" $a each >"$cref/shuffle_$(echo "$a" | tr ' ' _).txt"
	done
	exit 0
fi
COUNT=${1:-3}
gcc -O2 -DITEM=uint16_t -o "$dir/shuffle" $cref/shuffle.c
go test -c -o "$dir/sim.test" ./sim
i=0
while [ "$i" -lt "$COUNT" ]; do
	"$dir/shuffle" 2500 500 100 50 800 1 1 0 0 | sed 's/^/C: /'
	GOMAXPROCS=1 "$dir/sim.test" -test.run '^$' -test.bench 'Protocol_2500_500_' -test.benchtime 500x | grep '^Benchmark' | sed 's/^/Go: /'
	i=$((i + 1))
done
