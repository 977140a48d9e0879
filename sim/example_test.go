package sim_test

import (
	"context"
	"fmt"

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
