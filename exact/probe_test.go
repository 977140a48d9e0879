package exact

import (
	"context"
	"math/big"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestNastyValues calls every exported entry point of the package with the
// nastiest values of its parameters' types, one at a time (package
// internal/probe): none may panic or run on past its context.
func TestNastyValues(t *testing.T) {
	ctx := context.Background()
	sh := gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}
	var set probe.Settings
	probe.Func(t, "Binomial", Binomial, set, new(big.Int), int64(10), int64(3))
	probe.Func(t, "CheckEnumerable", CheckEnumerable, set, sh)
	probe.Func(t, "Ecs", Ecs, set, sh)
	probe.Func(t, "Gamma", Gamma, set, new(big.Rat), 7, 2)
	probe.Func(t, "GridPoints", GridPoints, set, []int{7}, []int{4}, []int{2})
	probe.Func(t, "Log10AbsDiff", Log10AbsDiff, set, big.NewRat(1, 3), big.NewRat(1, 2))
	probe.Func(t, "PDrop", PDrop, set, sh)
	probe.Func(t, "PDropDoubleSum", PDropDoubleSum, set, ctx, sh)
	probe.Func(t, "PDropGamma", PDropGamma, set, sh)
	probe.Func(t, "PDropSimplified", PDropSimplified, set, sh)
	probe.Func(t, "Validate", Validate, set, sh)
	probe.Func(t, "PDropEnumerated", PDropEnumerated, set, sh)
	probe.Func(t, "Evaluate", Evaluate, set, ctx, Config{Shuffles: []gossip.Shuffle{sh}, Enumerate: true}, Settings{})
	probe.Func(t, "NewFormula1", NewFormula1, set, ctx, 4, 2)
	f, err := NewFormula1(ctx, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "Formula1.At", (*Formula1).At, set, f, new(big.Rat), 7)
	probe.Func(t, "VerifyGamma", VerifyGamma, set, ctx, Grid{MaxItems: 8, MaxCache: 4, MaxExchange: 3}, Settings{})
	probe.Func(t, "ProveGamma", ProveGamma, set, ctx, 3)
	probe.Func(t, "ProveGammaRange", ProveGammaRange, set, ctx, 3, Settings{})
}
