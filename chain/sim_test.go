package chain

import (
	"context"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/sim"
)

// The exact chain against the simulation it describes: `sim --model markov
// --schedule continuous`, N = 50, 10⁴ runs. Every simulated mean of x and
// y lies within 4 standard errors of the exact mean at every round, and the
// simulated first rounds at which coverage reaches 90 % follow the exact
// law P(T ≤ t) = P(Y(t) ≥ 45) (Kolmogorov–Smirnov distance below 1.95/√R,
// the 0.1 % critical value; conservative for a discrete law).
func TestAgainstMarkovSimulation(t *testing.T) {
	const N, R, T = 50, 10000, 60
	cfg := sim.DefaultConfig()
	cfg.Model, cfg.Schedule = sim.Markov, sim.Continuous
	cfg.Nodes, cfg.Shuffle.Items, cfg.Shuffle.Cache, cfg.Shuffle.Exchange = N, 500, 100, 50
	cfg.Warmup, cfg.Rounds, cfg.Reps, cfg.Seed = 0, T, R, 11
	res, err := sim.Run(context.Background(), cfg, sim.Settings{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := Solve(context.Background(), Config{Nodes: N, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Time: gossip.Continuous, TMax: T, Dt: 1, Level: 0.9}, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	sx, sy := res.Trajectories()
	for i, row := range ex.Rows {
		for _, q := range []struct {
			name        string
			exact, mean float64
			sd          float64
		}{{"x", row.X.Mean, sx.Mean[i], sx.SD[i]}, {"y", row.Y.Mean, sy.Mean[i], sy.SD[i]}} {
			se := q.sd / math.Sqrt(R)
			// 4 standard errors of the mean of R = 10000 runs (a false alarm once in ~16000 comparisons) plus 1e-12 for the exact chain's own error (Settings.Tol's default 1e-14 plus rounding over ≤ 51² states), which alone matters where the sd is 0 (t = 0).
			if math.Abs(q.mean-q.exact) > 4*se+1e-12 {
				t.Errorf("t=%g %s: simulated %.5f ± %.5f, exact %.5f", row.T, q.name, q.mean, se, q.exact)
			}
		}
	}
	times := res.TimesToCoverage(45)
	worst := 0.0
	for i, row := range ex.Rows {
		reached := 0
		for _, tt := range times {
			if tt <= float64(i) {
				reached++
			}
		}
		worst = math.Max(worst, math.Abs(float64(reached)/R-row.PLevel))
	}
	if crit := 1.95 / math.Sqrt(R); worst > crit {
		t.Errorf("KS distance %.4f > %.4f", worst, crit)
	}
	t.Logf("KS distance of the time to 90 %% coverage: %.4f (0.1 %% critical value %.4f)", worst, 1.95/math.Sqrt(R))
}
