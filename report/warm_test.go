package report

import (
	"context"
	"reflect"
	"testing"

	"github.com/gossipkit/gossipkit/report/internal/clock"
	"github.com/gossipkit/gossipkit/sim"
)

// TestWarmStatesRule: which runs branch from shared warm-ups. The quick
// scale branches none (its outputs are those of every earlier version, on
// which the seed-stability and golden tests rest); the paper scale gives
// ⌈R/5⌉ warm states to protocol runs with a warm-up on the complete graph,
// lossless or with loss up to 0.1, and on the lossless random regular
// graph, and none to the others (the torus and loss 0.3: ρ measured above
// 0; Markov: no caches); the smoke scale branches, so that CI runs the
// path.
func TestWarmStatesRule(t *testing.T) {
	proto := sim.DefaultConfig() // protocol, N = 2500, W = 1000, R = 100, full graph
	with := func(f func(*sim.Config)) sim.Config { c := proto; f(&c); return c }
	cases := []struct {
		name string
		sc   Scale
		cfg  sim.Config
		want int
	}{
		{"quick", Quick(), proto, 0},
		{"paper, R = 100", Paper(), proto, 20},
		{"paper, R = 20", Paper(), with(func(c *sim.Config) { c.Reps = 20 }), 4},
		{"paper, R = 2000", Paper(), with(func(c *sim.Config) { c.Reps = 2000 }), 400},
		{"paper, R = 5", Paper(), with(func(c *sim.Config) { c.Reps = 5 }), 1},
		{"paper, R = 101", Paper(), with(func(c *sim.Config) { c.Reps = 101 }), 21},
		{"paper, loss 0.1", Paper(), with(func(c *sim.Config) { c.Loss = 0.1; c.Reps = 40 }), 8},
		{"paper, loss 0.3", Paper(), with(func(c *sim.Config) { c.Loss = 0.3; c.Reps = 40 }), 0},
		{"paper, loss just above 0.1", Paper(), with(func(c *sim.Config) { c.Loss = 0.10000000000000002 }), 0},
		{"paper, loss on the regular graph", Paper(), with(func(c *sim.Config) { c.Loss = 0.1; c.Topology = sim.Topology{Kind: sim.Regular, Degree: 20} }), 0},
		{"paper, regular graph", Paper(), with(func(c *sim.Config) { c.Topology = sim.Topology{Kind: sim.Regular, Degree: 20}; c.Reps = 20 }), 4},
		{"paper, torus", Paper(), with(func(c *sim.Config) { c.Topology = sim.Topology{Kind: sim.Torus, Radius: 0.0505} }), 0},
		{"paper, no warm-up", Paper(), with(func(c *sim.Config) { c.Warmup = 0 }), 0},
		{"paper, Markov", Paper(), with(func(c *sim.Config) { c.Model = sim.Markov }), 0},
		{"smoke, R = 3", Smoke(), with(func(c *sim.Config) { c.Reps = 3 }), 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := warmStates(tc.sc, tc.cfg); got != tc.want {
				t.Errorf("warm states %d, want %d", got, tc.want)
			}
		})
	}
}

// TestFig4CurvesWorkers: the exact curves of section 1, run on the
// study's workers, are the same for 1 and 3 workers and in the order of
// (c, s) of the serial loop.
func TestFig4CurvesWorkers(t *testing.T) {
	sc := tiny()
	sc.Fig4C, sc.Fig4S = []int{5, 20}, []int{1, 2, 10}
	var got [][]Fig4Curve
	for _, w := range []int{1, 3} {
		c, err := NewStudy(sc, Options{Workers: w}).Fig4Curves(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c)
	}
	if !reflect.DeepEqual(got[0], got[1]) {
		t.Error("1 and 3 workers give different curves")
	}
	var order [][2]int
	for _, c := range got[0] {
		order = append(order, [2]int{c.C, c.S})
	}
	// s = 10 > c = 5 has no curve.
	if want := [][2]int{{5, 1}, {5, 2}, {20, 1}, {20, 2}, {20, 10}}; !reflect.DeepEqual(order, want) {
		t.Errorf("curves in order %v, want %v", order, want)
	}
}

// TestClockCountsWarmUps: the shuffles the timing table counts for a
// protocol run are (warm-ups·W + replications·T)·N, with one warm-up per
// warm state a shard uses.
func TestClockCountsWarmUps(t *testing.T) {
	cfg := sim.DefaultConfig()
	cfg.Nodes, cfg.Warmup, cfg.Rounds, cfg.Reps = 10, 100, 7, 12
	for _, tc := range []struct {
		k    int
		idx  []int
		want float64
	}{
		{0, nil, (12*100 + 12*7) * 10},
		{3, nil, (3*100 + 12*7) * 10},
		{4, []int{1, 5, 9}, (1*100 + 3*7) * 10}, // all from warm state 1
		{4, []int{0, 1, 5}, (2*100 + 3*7) * 10},
		{4, []int{}, 0},
	} {
		c := clock.New(nil)
		cfg.WarmStates = tc.k
		c.Simulated(cfg, tc.idx, -1)
		if got := c.Of(0).Protocol; got != tc.want {
			t.Errorf("k = %d, replications %v: %g shuffles, want %g", tc.k, tc.idx, got, tc.want)
		}
	}
}

// TestWarmCacheRule: the runs that keep their warm states in the study's
// cache are those whose warm-up is one of section 7's protocol runs' (N of
// a Refined case with protocol runs, n = Ns[0], the scale's c and s,
// OptWarmup rounds, lossless, complete graph, rounds schedule) and that
// branch at all; every other run gets none, so the cache holds only states
// used again.
func TestWarmCacheRule(t *testing.T) {
	paper := Paper()
	proto := sim.DefaultConfig() // N = 2500, n = 500, c = 100, s = 50, W = 1000: Figs. 7–8 at n = Ns[0]
	proto.WarmStates = 20
	with := func(f func(*sim.Config)) sim.Config { c := proto; f(&c); return c }
	cases := []struct {
		name string
		sc   Scale
		cfg  sim.Config
		want bool
	}{
		{"Figs. 7–8, n = 500", paper, proto, true},
		{"section 7, N = 2500, 5 copies, 150 rounds, 200 runs", paper, with(func(c *sim.Config) { c.Initial, c.Rounds, c.Reps, c.WarmStates = 5, 150, 200, 40 }), true},
		{"section 7, N = 100", paper, with(func(c *sim.Config) { c.Nodes, c.Rounds, c.Reps, c.WarmStates = 100, 100, 2000, 400 }), true},
		{"section 9, N = 100, failures", paper, with(func(c *sim.Config) { c.Nodes, c.FailFraction = 100, 0.2 }), true},
		{"Figs. 7–8, n = 1000", paper, with(func(c *sim.Config) { c.Shuffle.Items = 1000 }), false},
		{"section 6, s = 20", paper, with(func(c *sim.Config) { c.Shuffle.Exchange = 20 }), false},
		{"section 9, N = 500", paper, with(func(c *sim.Config) { c.Nodes = 500 }), false},
		{"no warm states", paper, with(func(c *sim.Config) { c.WarmStates = 0 }), false},
		{"loss", paper, with(func(c *sim.Config) { c.Loss = 0.1 }), false},
		{"regular graph", paper, with(func(c *sim.Config) { c.Topology = sim.Topology{Kind: sim.Regular, Degree: 20} }), false},
		{"async schedule", paper, with(func(c *sim.Config) { c.Schedule = sim.Async }), false},
		{"other warm-up", paper, with(func(c *sim.Config) { c.Warmup = 999 }), false},
		{"no refined protocol runs", func() Scale { sc := Paper(); sc.Refined = nil; return sc }(), proto, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := NewStudy(tc.sc, Options{}).warmCache(tc.cfg) != nil; got != tc.want {
				t.Errorf("cached %v, want %v", got, tc.want)
			}
		})
	}
}
