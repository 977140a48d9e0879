package plan

import (
	"context"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

func TestExpExamples(t *testing.T) {
	cfgs := []Config{
		{Nodes: 2000, Shuffle: gossip.Shuffle{Items: 200, Cache: 20, Exchange: 18}, Level: 0.5},
		{Nodes: 2000, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 99}, Level: 0.99, Deadline: 899.7},
		{Nodes: 300, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 80}, Level: 0.9},
	}
	for _, cfg := range cfgs {
		for _, fs := range []bool{false, true} {
			finiteShift = fs
			a, err := Solve(context.Background(), cfg, Settings{Method: Asymptotic})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("finite=%v mean %.2f sd %.2f q05 %.2f q50 %.2f q95 %.2f P %.4f", fs, a.Mean, a.SD, a.Q05, a.Q50, a.Q95, a.PDeadline)
		}
		finiteShift = true
		a, _ := Solve(context.Background(), cfg, Settings{Method: MonteCarlo, Model: Lumped, Reps: 4000, Seed: 1})
		t.Logf("lumped mean %.2f±%.2f sd %.2f±%.2f q05 %.2f q50 %.2f q95 %.2f P %.4f±%.4f", a.Mean, a.Accuracy.SEMean, a.SD, a.Accuracy.SESD, a.Q05, a.Q50, a.Q95, a.PDeadline, a.Accuracy.SEPDeadline)
	}
}
