package report

import (
	"context"
	"reflect"
	"testing"

	"github.com/gossipkit/gossipkit/sim"
)

// TestWarmStatesRule: which runs branch from shared warm-ups. The quick
// scale branches none (its outputs are those of every earlier version, on
// which the seed-stability and golden tests rest); the paper scale gives
// ⌈R/5⌉ warm states to lossless protocol runs with a warm-up on the
// complete graph and none to the others (loss: the items alive at t = 0
// belong to the warm state; partial views: not measured; Markov: no
// caches); the smoke scale branches, so that CI runs the path.
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
		{"paper, loss", Paper(), with(func(c *sim.Config) { c.Loss = 0.1 }), 0},
		{"paper, regular graph", Paper(), with(func(c *sim.Config) { c.Topology = sim.Topology{Kind: sim.Regular, Degree: 20} }), 0},
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
		c := newClock(nil)
		cfg.WarmStates = tc.k
		c.simulated(cfg, tc.idx, -1)
		if got := c.of(0).Protocol; got != tc.want {
			t.Errorf("k = %d, replications %v: %g shuffles, want %g", tc.k, tc.idx, got, tc.want)
		}
	}
}
