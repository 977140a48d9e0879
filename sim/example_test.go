package sim_test

import (
	"context"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/sim"
)

// A small protocol run: N = 100 nodes, one copy of d at t = 0 (x(0) =
// 1/N = 0.01). With n = 50, c = 10, s = 5 the model's coverage time
// constant is about 1/(2p·c/n) = 5 rounds, so after 200 rounds every node
// has held d (y = 1), and x has settled near c/n = 0.2.
func ExampleRun() {
	cfg := sim.DefaultConfig()
	cfg.Nodes, cfg.Shuffle.Items, cfg.Shuffle.Cache, cfg.Shuffle.Exchange = 100, 50, 10, 5
	cfg.Warmup, cfg.Rounds, cfg.Reps, cfg.Seed = 20, 200, 4, 1
	res, err := sim.Run(context.Background(), cfg, sim.Settings{Workers: 2})
	if err != nil {
		panic(err)
	}
	x, y := res.Trajectories()
	fmt.Printf("x(0) = %.2f, y(200) = %.2f\n", x.Mean[0], y.Mean[200])
	late, se := res.LateMean()
	fmt.Println("late x within 4 standard errors + 0.01 of c/n:", late > 0.2-4*se-0.01 && late < 0.2+4*se+0.01)
	// Output:
	// x(0) = 0.01, y(200) = 1.00
	// late x within 4 standard errors + 0.01 of c/n: true
}

// Replica counts at steady state against the binomial the model implies:
// N = 200 nodes, n = 60 items, c = 12, s = 5, 50 rounds of mixing, then
// 3 snapshots 20 rounds apart in each of 4 replications. Under the model
// an item's count is Bin(N, c/n) (conditioned on a copy), so the variance
// ratio is 1 within its standard error.
func ExampleUniformity() {
	cfg := sim.UniformityConfig{Nodes: 200, Shuffle: gossip.Shuffle{Items: 60, Cache: 12, Exchange: 5},
		Warmup: 50, Snapshots: 3, Spacing: 20, Reps: 4, Seed: 3}
	res, err := sim.Uniformity(context.Background(), cfg, sim.UniformitySettings{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("items alive %.0f of %d\n", res.Alive, res.Items)
	fmt.Println("variance ratio within 4 standard errors of 1:", math.Abs(res.VarRatio-1) < 4*res.VarRatioSE)
	// Output:
	// items alive 60 of 60
	// variance ratio within 4 standard errors of 1: true
}
