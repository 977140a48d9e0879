package sim

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gossipkit/gossipkit/internal/rng"
)

// selectBufferFill is selectBuffer as it was written first, and as the C
// reference (testdata/cref/shuffle.c) writes it: the m = min(s, c−s) raw
// draws stored by r.Fill, then each mapped by r.Bounded, whose redraws come
// from the stream after the batch. It returns the number of redraws.
func selectBufferFill(r *rng.Rand, cache []int32, s int) (redraws int) {
	c := len(cache)
	bounded := func(u, n uint32) uint32 {
		m := uint64(u) * uint64(n)
		if uint32(m) < n {
			t := -n % n
			for uint32(m) < t {
				m = uint64(uint32(r.Uint64())) * uint64(n)
				redraws++
			}
		}
		return uint32(m >> 32)
	}
	if 2*s <= c {
		raw := make([]uint32, s)
		r.Fill(raw)
		for i, u := range raw {
			j := i + int(bounded(u, uint32(c-i)))
			cache[i], cache[j] = cache[j], cache[i]
		}
		return
	}
	raw := make([]uint32, c-s)
	r.Fill(raw)
	for k, u := range raw {
		i := c - 1 - k
		j := int(bounded(u, uint32(i+1)))
		cache[i], cache[j] = cache[j], cache[i]
	}
	return
}

// TestSelectBufferMatchesFill: selectBuffer, which makes its draws on the
// fly, moves the same items to the same slots and leaves the stream in the
// same state as selectBufferFill, from either end, for odd and even numbers
// of draws, and when Bounded redraws. Redraws happen with probability
// (2^32 mod c)/2^32 a draw: at c = 3·10^6 about 2·10^-4, so the runs at
// that size (about 5·10^4 draws) redraw about 10 times, and the test
// requires some.
func TestSelectBufferMatchesFill(t *testing.T) {
	cases := []struct{ c, s, runs int }{
		{1, 1, 20}, {2, 1, 20}, {3, 1, 20}, {3, 2, 20}, {10, 5, 50}, {10, 6, 50}, {11, 5, 50},
		{100, 50, 50}, {100, 51, 50}, {100, 7, 50}, {100, 93, 50}, {97, 13, 50}, {97, 84, 50},
		{3_000_000, 1001, 25}, {3_000_000, 3_000_000 - 1000, 25},
	}
	redraws := 0
	for _, tc := range cases {
		t.Run(fmt.Sprintf("c=%d,s=%d", tc.c, tc.s), func(t *testing.T) {
			want := make([]int32, tc.c)
			for i := range want {
				want[i] = int32(i)
			}
			got := slices.Clone(want)
			r1, r2 := rng.NewStream(11, uint64(tc.c)), rng.NewStream(11, uint64(tc.c))
			for run := range tc.runs {
				redraws += selectBufferFill(r1, want, tc.s)
				selectBuffer(r2, got, tc.s)
				if !slices.Equal(got, want) {
					t.Fatalf("run %d: the caches differ", run)
				}
				if *r1 != *r2 {
					t.Fatalf("run %d: the streams are out of step", run)
				}
			}
		})
	}
	if redraws == 0 {
		t.Error("no redraw happened: the test does not exercise lateDraws")
	}
	t.Logf("%d redraws", redraws)
}
