package tree

import (
	"context"
	"errors"
	"sort"
	"testing"

	"github.com/gossipkit/gossipkit/internal/rng"
)

// TestByDistanceOrder: the radix sort gives the order sort.Slice gave (the
// comparison sort it replaced, run here on the same keys) for random ids,
// and for ids chosen so that every 16-bit digit decides some comparison
// (pairs 2^j, 2^j + 2^(j+1) that differ in one bit, for every bit). The
// keys are distinct: of two equal keys the two sorts may put either first
// (ids are 64 random bits, two alike among 4·10^6 with chance ~4·10^-7).
func TestByDistanceOrder(t *testing.T) {
	r := rng.NewStream(7, 0)
	for _, n := range []int{1, 2, 3, 1000, 70000} {
		id := make([]uint64, n)
		for i := range id {
			id[i] = r.Uint64()
		}
		if n == 1000 {
			for i := range 64 { // ids 2^j and 2^j + 2^(j+1 mod 64) for every bit j
				id[2*i], id[2*i+1] = 1<<i, 1<<i|1<<((i+1)%64)
			}
		}
		group := r.Uint64()
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		sort.Slice(want, func(i, j int) bool { return id[want[i]]^group < id[want[j]]^group })
		got, err := byDistance(context.Background(), id, group)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("n = %d: position %d is node %d, sort.Slice has %d", n, i, got[i], want[i])
			}
		}
		nilCtx, err := byDistance(context.Background(), id, group) // New: a context that never ends
		if err != nil || len(nilCtx) != n {
			t.Fatalf("n = %d without a context: %v", n, err)
		}
	}
}

// TestBuildCancelledBeforeJoins: Build with a cancelled context stops in
// newSim, before its N − 1 arrivals are queued (the queue stays empty):
// at N = 4·10^6 the node ordering alone ran about 2 s before the first
// check of the context, so a SIGINT at that time waited for the 2 s grace.
func TestBuildCancelledBeforeJoins(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg := Config{Nodes: 1 << 16, Degree: 8}
	if _, err := newSim(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("newSim with a cancelled context: %v, want context.Canceled", err)
	}
	if _, _, err := Build(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("Build with a cancelled context: %v, want context.Canceled", err)
	}
	s, err := New(cfg) // no context: never cancelled
	if err != nil || s.q.Len() != cfg.Nodes-1 {
		t.Fatalf("New: %v, %d arrivals queued, want %d", err, s.q.Len(), cfg.Nodes-1)
	}
}
