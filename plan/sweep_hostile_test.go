package plan

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// countedCtx is a context that is cancelled from its limit-th look on
// (Err): a cancel at a point of the computation fixed by the code, not by
// a clock.
type countedCtx struct {
	context.Context
	looks, limit int64
}

func (c *countedCtx) Err() error {
	if atomic.AddInt64(&c.looks, 1) >= c.limit {
		return context.Canceled
	}
	return nil
}

// A sweep over MaxSettings exchange sizes (each a valid s; about 20 ms
// each here, minutes in all) stops once its context is cancelled: it looks
// at it between sizes and inside the exact chain, so the context cancelled
// at its 1,000th look must end the sweep with context.Canceled within a
// few more looks. (10⁶ sizes, 5 hours, are refused before any work:
// TestMaxSettings.)
func TestSweepMillionSizesStopsAtCancel(t *testing.T) {
	ctx := &countedCtx{Context: context.Background(), limit: 1000}
	cfg := Config{Nodes: 20, Shuffle: gossip.Shuffle{Items: 10, Cache: 4}, Level: 0.9, Deadline: 10}
	sizes := make([]int, MaxSettings)
	for i := range sizes {
		sizes[i] = 1 + i%3
	}
	_, err := Sweep(ctx, cfg, sizes, Settings{Method: Exact})
	if looks := atomic.LoadInt64(&ctx.looks); !errors.Is(err, context.Canceled) || looks > ctx.limit+10 {
		t.Fatalf("err %v after %d looks at the context; want context.Canceled at the %dth", err, looks, ctx.limit)
	}
}
