package report

import (
	"bytes"
	"context"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
	"github.com/gossipkit/gossipkit/sim"
	"github.com/gossipkit/gossipkit/tree"
)

// TestNastyValues calls the package's table writers with the nastiest
// values of their parameters' types, one at a time (package
// internal/probe): none may panic.
func TestNastyValues(t *testing.T) {
	var set probe.Settings
	ctx := context.Background()
	res, err := chain.Solve(ctx, chain.Config{Nodes: 10, Shuffle: gossip.Shuffle{Items: 20, Cache: 5, Exchange: 2}, TMax: 5, Dt: 1, Level: 0.9, Loss: 0.1}, chain.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "ChainTable", ChainTable, set, res)
	cfg := sim.DefaultConfig()
	cfg.Nodes, cfg.Shuffle, cfg.Warmup, cfg.Rounds, cfg.Reps, cfg.Loss = 10, gossip.Shuffle{Items: 20, Cache: 5, Exchange: 2}, 2, 4, 2, 0.1
	sr, err := sim.Run(ctx, cfg, sim.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	probe.Func(t, "RoundsTable", RoundsTable, set, sr)
	probe.Func(t, "WriteSim", WriteSim, set, &bytes.Buffer{}, sr, "csv")
	probe.Func(t, "TransitionsTable", TransitionsTable, set, approx.NewTransitionsLoss(0.5, 0.9, 0.1))
	probe.Func(t, "TreeTable", TreeTable, set, tree.Summary{})
	probe.Func(t, "PartFiles", PartFiles, set, t.TempDir())
	probe.Func(t, "ODETable", ODETable, set, nil, nil)
	probe.Func(t, "PDropTable", PDropTable, set, nil, false)
	probe.Func(t, "Fig4Specs", Fig4Specs, set, nil)
}

// TestSectionsRefuseNoStudy: every section of a nil Study, and every
// section that runs the paper's experiment with the zero Scale (no n, no
// nodes), returns an error instead of panicking (they indexed Ns[0]).
func TestSectionsRefuseNoStudy(t *testing.T) {
	ctx := context.Background()
	sections := map[string]func(*Study) error{
		"DropProbability": func(s *Study) error { _, err := s.DropProbability(ctx); return err },
		"Transitions":     func(s *Study) error { _, err := s.Transitions(ctx); return err },
		"Fig78":           func(s *Study) error { _, err := s.Fig78(ctx); return err },
		"ModelComparison": func(s *Study) error { _, err := s.ModelComparison(ctx); return err },
		"Optimal":         func(s *Study) error { _, err := s.Optimal(ctx); return err },
		"Refined":         func(s *Study) error { _, err := s.Refined(ctx); return err },
		"Tree":            func(s *Study) error { _, err := s.Tree(ctx); return err },
		"GossipVsTree":    func(s *Study) error { _, err := s.GossipVsTree(ctx); return err },
		"DesignAnswers":   func(s *Study) error { _, err := s.DesignAnswers(ctx); return err },
		"Deployed":        func(s *Study) error { _, err := s.Deployed(ctx); return err },
		"Network":         func(s *Study) error { _, err := s.Network(ctx); return err },
		"Fig4Curves":      func(s *Study) error { _, err := s.Fig4Curves(ctx); return err },
	}
	experiment := map[string]bool{"Transitions": true, "Fig78": true, "ModelComparison": true, "Optimal": true, "Refined": true, "GossipVsTree": true, "DesignAnswers": true, "Network": true}
	for name, run := range sections {
		if err := run(nil); err == nil {
			t.Errorf("%s of a nil Study: no error", name)
		}
		if experiment[name] {
			if err := run(NewStudy(Scale{}, Options{})); err == nil {
				t.Errorf("%s with the zero Scale: no error", name)
			}
		}
	}
}
