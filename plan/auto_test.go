package plan

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// Auto beyond the exact chain (ExactBudget 1 state-step keeps it out):
// the asymptotic law where its largest stated deviation is within
// Settings.Accuracy; the lumped Monte Carlo where it is not, with enough
// replications that two standard errors of the mean are within the
// accuracy (the sample's se against the law's sd: 5 % slack for the
// sample sd's own error at ≥ 10⁴ replications); and the law again where
// the Monte Carlo that fits the budget would be less accurate than it.
// Every row's Note says which and why.
func TestAutoChoice(t *testing.T) {
	ctx := context.Background()
	few := Config{Nodes: 2000, Shuffle: gossip.Shuffle{Items: 200, Cache: 20, Exchange: 18}, Level: 0.5}
	law, err := Solve(ctx, few, Settings{Method: Asymptotic})
	if err != nil {
		t.Fatal(err)
	}
	dev := law.Accuracy.Largest(few.confidence())
	t.Run("asymptotic", func(t *testing.T) {
		a, err := Solve(ctx, few, Settings{ExactBudget: 1, Accuracy: 2 * dev})
		if err != nil {
			t.Fatal(err)
		}
		if a.Method != Asymptotic || !strings.Contains(a.Accuracy.Note, "≤ requested") || a.Mean != law.Mean {
			t.Errorf("%v: %s", a.Method, a.Accuracy.Note)
		}
	})
	t.Run("lumped", func(t *testing.T) {
		acc := dev / 2
		a, err := Solve(ctx, few, Settings{ExactBudget: 1, Accuracy: acc, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if a.Method != MonteCarlo || !strings.Contains(a.Accuracy.Note, "lumped Monte Carlo") || !strings.Contains(a.Accuracy.Note, "> requested") {
			t.Fatalf("%v: %s", a.Method, a.Accuracy.Note)
		}
		if !(2*a.Accuracy.SEMean <= 1.05*acc) || !math.IsNaN(a.Accuracy.DevMean) {
			t.Errorf("2·se %.3g, requested %.3g; DevMean %v", 2*a.Accuracy.SEMean, acc, a.Accuracy.DevMean)
		}
		t.Log(a.Accuracy.Note)
	})
	t.Run("budget", func(t *testing.T) {
		big := Config{Nodes: 1_000_000, Shuffle: paper, Level: 0.99}
		a, err := Solve(ctx, big, Settings{Accuracy: 1e-9})
		if err != nil {
			t.Fatal(err)
		}
		if a.Method != Asymptotic || !strings.Contains(a.Accuracy.Note, "would have 2·se") {
			t.Errorf("%v: %s", a.Method, a.Accuracy.Note)
		}
	})
}

// Settings.Accuracy must be a number ≥ 0: NaN and negative values are
// refused as a *FieldError naming it (NaN used to reach int(NaN)
// replications).
func TestAccuracyValidated(t *testing.T) {
	cfg := Config{Nodes: 2000, Shuffle: paper, Level: 0.9}
	for _, acc := range []float64{math.NaN(), -1, math.Inf(-1)} {
		_, err := Solve(context.Background(), cfg, Settings{Accuracy: acc})
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != "Settings.Accuracy" {
			t.Errorf("Accuracy %v: %v", acc, err)
		}
	}
	a, err := Solve(context.Background(), cfg, Settings{Accuracy: math.Inf(1), ExactBudget: 1})
	if err != nil || a.Method != Asymptotic {
		t.Errorf("Accuracy +Inf: %v, %v", a, err)
	}
}
