package meanfield

import (
	"context"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
	"github.com/gossipkit/gossipkit/ode"
)

// TestContract checks the package doc's Contract: every function taking a
// context refuses a nil one, and zero, negative, NaN or huge arguments,
// with an error within a short time, never a panic.
func TestContract(t *testing.T) {
	m, err := approx.NewModel(approx.Config{Nodes: 100, Shuffle: gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5}, Loss: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	pop := Coverage(m)
	x0 := []float64{0.1, 0.2}
	ts := []float64{0, 1, 5}
	st := SynchronousSteps{P: pop, H: 1}
	bg := context.Background()
	cont := func(ctx context.Context, p *Population, x0, ts []float64) func() error {
		return func() error { _, err := RefinedContinuous(ctx, p, x0, ts, ode.Settings{}); return err }
	}
	disc := func(ctx context.Context, m DiscreteModel, x0 []float64, T int) func() error {
		return func() error { _, err := RefinedDiscrete(ctx, m, x0, T); return err }
	}
	grid := func(ctx context.Context, m approx.Model, tMax, dt float64) func() error {
		return func() error { _, err := RefineGrid(ctx, m, tMax, dt, gossip.Continuous, ode.Settings{}); return err }
	}
	opt := func(ctx context.Context, c OptimizeConfig) func() error {
		return func() error { _, err := Optimize(ctx, c); return err }
	}
	oc := OptimizeConfig{Nodes: 100, Items: 50, Cache: 10, Level: 0.9}
	with := func(f func(*OptimizeConfig)) OptimizeConfig { c := oc; f(&c); return c }
	nan, inf := math.NaN(), math.Inf(1)
	//nolint:staticcheck // the nil contexts are the point
	calls := []probe.Refusal{
		{Name: "RefinedContinuous(nil ctx)", Want: "nil context", Call: cont(nil, pop, x0, ts)},
		{Name: "RefinedContinuous/nil population", Call: cont(bg, nil, x0, ts)},
		{Name: "RefinedContinuous/x0 short", Call: cont(bg, pop, x0[:1], ts)},
		{Name: "RefinedContinuous/x0 NaN", Call: cont(bg, pop, []float64{nan, 0.2}, ts)},
		{Name: "RefinedContinuous/ts NaN", Call: cont(bg, pop, x0, []float64{0, nan})},
		{Name: "RefinedContinuous/ts -1", Call: cont(bg, pop, x0, []float64{0, -1})},
		{Name: "RefinedContinuous/ts Inf", Call: cont(bg, pop, x0, []float64{0, inf})},
		{Name: "RefinedDiscrete(nil ctx)", Want: "nil context", Call: disc(nil, st, x0, 10)},
		{Name: "RefinedDiscrete/nil model", Call: disc(bg, nil, x0, 10)},
		{Name: "RefinedDiscrete/x0 NaN", Call: disc(bg, st, []float64{nan, 0.2}, 10)},
		{Name: "RefinedDiscrete/T -1", Call: disc(bg, st, x0, -1)},
		{Name: "RefinedDiscrete/T huge", Call: disc(bg, st, x0, math.MaxInt)},
		{Name: "RefineGrid(nil ctx)", Want: "nil context", Call: grid(nil, m, 20, 1)},
		{Name: "RefineGrid/zero model", Call: grid(bg, approx.Model{}, 20, 1)},
		{Name: "RefineGrid/tMax NaN", Call: grid(bg, m, nan, 1)},
		{Name: "RefineGrid/tMax huge", Call: grid(bg, m, 1e300, 1)},
		{Name: "RefineGrid/dt 0", Call: grid(bg, m, 20, 0)},
		{Name: "RefineGrid/dt -1", Call: grid(bg, m, 20, -1)},
		{Name: "Optimize(nil ctx)", Want: "nil context", Call: opt(nil, oc)},
		{Name: "Optimize/zero", Field: true, Call: opt(bg, OptimizeConfig{})},
		{Name: "Optimize/Nodes", Want: "Nodes", Field: true, Call: opt(bg, with(func(c *OptimizeConfig) { c.Nodes = -1 }))},
		{Name: "Optimize/Nodes 1", Want: "Nodes", Field: true, Call: opt(bg, with(func(c *OptimizeConfig) { c.Nodes = 1 }))},
		{Name: "Optimize/Items", Want: "Items", Field: true, Call: opt(bg, with(func(c *OptimizeConfig) { c.Items = 0 }))},
		{Name: "Optimize/Cache", Want: "Cache", Field: true, Call: opt(bg, with(func(c *OptimizeConfig) { c.Cache = -1 }))},
		{Name: "Optimize/Level", Want: "Level", Field: true, Call: opt(bg, with(func(c *OptimizeConfig) { c.Level = nan }))},
		{Name: "Optimize/Loss", Want: "Loss", Field: true, Call: opt(bg, with(func(c *OptimizeConfig) { c.Loss = 1 }))},
	}
	probe.Refuses(t, 0, calls...)
}
