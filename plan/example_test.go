package plan_test

import (
	"context"
	"fmt"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/plan"
)

// At N = 10⁶ nodes the time to 99 % coverage still has an sd of π/(√6·u)
// = 11.5 rounds (u = 1/9 for n = 500, c = 100, s = 50), and its mean lies
// γ/u = 5.2 rounds after the mean-field ODE's time (package doc): the
// spread is made while few nodes hold the item.
func ExampleSolve() {
	cfg := plan.Config{Nodes: 1_000_000, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Level: 0.99}
	a, err := plan.Solve(context.Background(), cfg, plan.Settings{})
	if err != nil {
		fmt.Println(err)
		return
	}
	mf, _ := approx.NewModel(approx.Config{Nodes: 1_000_000, Shuffle: cfg.Shuffle})
	fmt.Printf("%v: sd %.1f rounds, mean − ODE time %.1f rounds\n", a.Method, a.SD, a.Mean-mf.TimeToCoverage(0.99))
	// Output: asymptotic: sd 11.5 rounds, mean − ODE time 5.2 rounds
}
