package ctxguard_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/meanfield"
	"github.com/gossipkit/gossipkit/ode"
	"github.com/gossipkit/gossipkit/sim"
)

func TestCheck(t *testing.T) {
	if err := ctxguard.Check("sim", nil); err == nil || err.Error() != "sim: nil context" {
		t.Errorf("nil: %v", err)
	}
	if err := ctxguard.Check("sim", context.Background()); err != nil {
		t.Errorf("background: %v", err)
	}
}

func ExampleCheck() {
	var ctx context.Context // a caller's forgotten context
	fmt.Println(ctxguard.Check("chain", ctx))
	// Output: chain: nil context
}

// Every exported computation of the packages below takes a context first;
// a nil one is an error prefixed with the package's name, never a panic.
func TestNilContextEverywhere(t *testing.T) {
	sh := gossip.Shuffle{Items: 10, Cache: 5, Exchange: 2}
	mf, err := approx.NewModel(approx.Config{Nodes: 10, Shuffle: sh})
	if err != nil {
		t.Fatal(err)
	}
	var nilCtx context.Context
	for _, tc := range []struct {
		name, pkg string
		call      func() error
	}{
		{"sim.Run", "sim", func() error {
			_, err := sim.Run(nilCtx, sim.Config{Model: sim.Markov, Nodes: 10, Shuffle: sh, Rounds: 1, Reps: 1, Initial: 1}, sim.Settings{})
			return err
		}},
		{"chain.Solve", "chain", func() error {
			_, err := chain.Solve(nilCtx, chain.Config{Nodes: 10, Shuffle: sh, TMax: 1, Dt: 1}, chain.Settings{})
			return err
		}},
		{"chain.TimeToLevel", "chain", func() error {
			_, err := chain.TimeToLevel(nilCtx, chain.Config{Nodes: 10, Shuffle: sh, Level: 1}, chain.Settings{})
			return err
		}},
		{"chain.HittingMoments", "chain", func() error {
			_, _, err := chain.HittingMoments(nilCtx, chain.Config{Nodes: 10, Shuffle: sh, Level: 1})
			return err
		}},
		{"chain.MeanTimeToLevel", "chain", func() error {
			_, _, err := chain.MeanTimeToLevel(nilCtx, chain.Config{Nodes: 10, Shuffle: sh, Level: 1})
			return err
		}},
		{"meanfield.RefineGrid", "meanfield", func() error {
			_, err := meanfield.RefineGrid(nilCtx, mf, 1, 1, gossip.Continuous, ode.Settings{})
			return err
		}},
		{"meanfield.Optimize", "meanfield", func() error {
			_, err := meanfield.Optimize(nilCtx, meanfield.OptimizeConfig{Nodes: 10, Items: 10, Cache: 5, Level: 0.9})
			return err
		}},
		{"exact.NewFormula1", "exact", func() error { _, err := exact.NewFormula1(nilCtx, 5, 2); return err }},
		{"exact.PDropDoubleSum", "exact", func() error { _, err := exact.PDropDoubleSum(nilCtx, sh); return err }},
		{"exact.ProveGamma", "exact", func() error { _, err := exact.ProveGamma(nilCtx, 2); return err }},
		{"exact.ProveGammaRange", "exact", func() error { _, err := exact.ProveGammaRange(nilCtx, 2, exact.Settings{}); return err }},
		{"exact.Evaluate", "exact", func() error {
			_, err := exact.Evaluate(nilCtx, exact.Config{Shuffles: []gossip.Shuffle{sh}}, exact.Settings{})
			return err
		}},
		{"exact.VerifyGamma", "exact", func() error {
			_, _, err := exact.VerifyGamma(nilCtx, exact.Grid{MaxExchange: 2, MaxCache: 3, MaxItems: 4}, exact.Settings{})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("panic: %v", r)
					}
				}()
				err = tc.call()
			}()
			if want := tc.pkg + ": nil context"; err == nil || err.Error() != want {
				t.Errorf("err = %v, want %q", err, want)
			}
		})
	}
}
