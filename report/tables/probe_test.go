package tables

import (
	"bytes"
	"context"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/exact"
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
	probe.Func(t, "ODETable", ODETable, set, nil, nil)
	probe.Func(t, "PDropTable", PDropTable, set, nil, false)
}

// TestPDropTableZero: an Evaluation not made by exact.Evaluate (the zero
// value, nil fractions) is written with null cells in every format, not a
// panic (issue 42: before, PDropTable called Float64 on the nil formula).
func TestPDropTableZero(t *testing.T) {
	for _, format := range []string{"text", "json", "csv", "markdown"} {
		var b bytes.Buffer
		if err := PDropTable([]exact.Evaluation{{}}, true).Write(&b, format); err != nil {
			t.Errorf("%s: %v", format, err)
		}
	}
}
