package exact

import (
	"context"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestContract checks the package doc's Contract: every function taking a
// context refuses a nil one, and zero, negative or huge arguments, with an
// error within a short time (before any work), never a panic.
func TestContract(t *testing.T) {
	bg := context.Background()
	sh := gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}
	grid := Grid{MaxItems: 8, MaxCache: 4, MaxExchange: 3}
	f1 := func(ctx context.Context, c, s int) func() error {
		return func() error { _, err := NewFormula1(ctx, c, s); return err }
	}
	dd := func(ctx context.Context, sh gossip.Shuffle) func() error {
		return func() error { _, err := PDropDoubleSum(ctx, sh); return err }
	}
	pg := func(ctx context.Context, s int) func() error {
		return func() error { _, err := ProveGamma(ctx, s); return err }
	}
	pr := func(ctx context.Context, s int) func() error {
		return func() error { _, err := ProveGammaRange(ctx, s, Settings{}); return err }
	}
	ev := func(ctx context.Context, c Config) func() error {
		return func() error { _, err := Evaluate(ctx, c, Settings{}); return err }
	}
	to := func(ctx context.Context, n, c int, f DropFormula) func() error {
		return func() error { _, err := TransitionOptima(ctx, n, c, f); return err }
	}
	vg := func(ctx context.Context, g Grid) func() error {
		return func() error { _, _, err := VerifyGamma(ctx, g, Settings{}); return err }
	}
	gw := func(f func(*Grid)) Grid { g := grid; f(&g); return g }
	//nolint:staticcheck // the nil contexts are the point
	calls := []probe.Refusal{
		{Name: "NewFormula1(nil ctx)", Want: "nil context", Call: f1(nil, 4, 2)},
		{Name: "NewFormula1/c 0", Call: f1(bg, 0, 2)},
		{Name: "NewFormula1/s -1", Call: f1(bg, 4, -1)},
		{Name: "NewFormula1/s > c", Call: f1(bg, 4, 5)},
		{Name: "NewFormula1/c huge", Call: f1(bg, math.MaxInt, 2)},
		{Name: "PDropDoubleSum(nil ctx)", Want: "nil context", Call: dd(nil, sh)},
		{Name: "PDropDoubleSum/zero", Field: true, Call: dd(bg, gossip.Shuffle{})},
		{Name: "PDropDoubleSum/Exchange -1", Want: "Exchange", Field: true, Call: dd(bg, gossip.Shuffle{Items: 7, Cache: 4, Exchange: -1})},
		{Name: "PDropDoubleSum/Items huge", Want: "Items", Field: true, Call: dd(bg, gossip.Shuffle{Items: math.MaxInt, Cache: 4, Exchange: 2})},
		{Name: "ProveGamma(nil ctx)", Want: "nil context", Call: pg(nil, 3)},
		{Name: "ProveGamma/s 0", Call: pg(bg, 0)},
		{Name: "ProveGamma/s huge", Call: pg(bg, math.MaxInt)},
		{Name: "ProveGammaRange(nil ctx)", Want: "nil context", Call: pr(nil, 3)},
		{Name: "ProveGammaRange/-1", Call: pr(bg, -1)},
		{Name: "ProveGammaRange/huge", Call: pr(bg, math.MaxInt)},
		{Name: "Evaluate(nil ctx)", Want: "nil context", Call: ev(nil, Config{Shuffles: []gossip.Shuffle{sh}, Enumerate: true})},
		{Name: "Evaluate/zero shuffle", Field: true, Call: ev(bg, Config{Shuffles: []gossip.Shuffle{{}}})},
		{Name: "Evaluate/Items huge", Want: "Items", Field: true, Call: ev(bg, Config{Shuffles: []gossip.Shuffle{{Items: math.MaxInt, Cache: 4, Exchange: 2}}})},
		{Name: "TransitionOptima(nil ctx)", Want: "nil context", Call: to(nil, 50, 10, DropFormula1)},
		{Name: "TransitionOptima/n 0", Call: to(bg, 0, 10, DropFormula1)},
		{Name: "TransitionOptima/c -1", Call: to(bg, 50, -1, DropFormula1)},
		{Name: "TransitionOptima/n huge", Call: to(bg, math.MaxInt, 10, DropFormula1)},
		{Name: "TransitionOptima/formula -1", Call: to(bg, 50, 10, DropFormula(-1))},
		{Name: "VerifyGamma(nil ctx)", Want: "nil context", Call: vg(nil, grid)},
		{Name: "VerifyGamma/zero", Call: vg(bg, Grid{})},
		{Name: "VerifyGamma/MaxItems huge", Want: "MaxItems", Call: vg(bg, gw(func(g *Grid) { g.MaxItems = math.MaxInt }))},
		{Name: "VerifyGamma/MaxCache -1", Want: "MaxCache", Call: vg(bg, gw(func(g *Grid) { g.MaxCache = -1 }))},
		{Name: "VerifyGamma/MaxExchange huge", Want: "MaxExchange", Call: vg(bg, gw(func(g *Grid) { g.MaxExchange = math.MaxInt }))},
	}
	probe.Refuses(t, 0, calls...)
}
