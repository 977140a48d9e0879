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

// With message loss the item can die before the level is reached. At N =
// 2 (n = 7, c = 4, s = 2) P(T_1 < ∞) = (2 − ε)/(2 − ε + ε·q) with q = 3/5
// (package doc): 15/16 at ε = 0.2. Over a grid of ε, LossSweep finds the
// largest ε that still meets a deadline of 4 rounds with probability
// 0.905, scanning the grid upwards to the first failure.
func ExampleLossSweep() {
	cfg := plan.Config{Nodes: 2, Shuffle: gossip.Shuffle{Items: 7, Cache: 4}, Level: 1, Deadline: 4, Confidence: 0.905}
	ld, err := plan.LossSweep(context.Background(), cfg, []int{2}, []float64{0, 0.1, 0.2, 0.3}, plan.Settings{Method: plan.Exact})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, e := range ld.Losses {
		a := ld.Designs[i].Rows[0]
		fmt.Printf("ε = %.1f: P(reach) %.4f, P(T_1 ≤ 4) %.4f, feasible %v\n", e, a.PReach, a.PDeadline, a.Feasible)
	}
	fmt.Printf("largest ε tolerated: %g\n", ld.Tolerated[0])
	// Output:
	// ε = 0.0: P(reach) 1.0000, P(T_1 ≤ 4) 0.9817, feasible true
	// ε = 0.1: P(reach) 0.9694, P(T_1 ≤ 4) 0.9409, feasible true
	// ε = 0.2: P(reach) 0.9375, P(T_1 ≤ 4) 0.8941, feasible false
	// ε = 0.3: P(reach) 0.9043, P(T_1 ≤ 4) 0.8392, feasible false
	// largest ε tolerated: 0.1
}
