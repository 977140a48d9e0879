package main

import (
	"context"
	"io"

	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/report"
)

func cmdChain(fs *cli.FlagSet) cli.Run {
	cfg := chain.Config{Nodes: 100, Shuffle: defaultShuffle, Initial: 1, TMax: 150, Dt: 1}
	fs.IntField(&cfg.Nodes, "N", "Config.Nodes", "number of nodes N (2..5000 jointly with coverage, 2..10^7 with --replication-only)")
	shuffleFlags(fs, &cfg.Shuffle, "Config.", true)
	fs.IntField(&cfg.Initial, "initial", "Config.Initial", "nodes holding d at t = 0 (1..N)")
	fs.FloatField(&cfg.TMax, "t-max", "Config.TMax", "last output time, in rounds (> 0)")
	fs.FloatField(&cfg.Dt, "dt", "Config.Dt", "output spacing, in rounds (0 < dt ≤ t-max)")
	timeFlag(fs, &cfg.Time, "Config.Time", gossip.Continuous, gossip.Shuffles)
	pdropFlag(fs, &cfg.PDrop, "Config.PDrop")
	fs.BoolVar(&cfg.ReplicationOnly, "replication-only", false, "solve the chain of X alone (no coverage columns)")
	fs.FloatField(&cfg.Level, "level", "Config.Level", "coverage level L in (0, 1]: add p_level = P(Y(t) ≥ ⌈L·N⌉) and the law of the time to L")
	lossFlag(fs, &cfg.Loss, "Config.Loss", false)
	format, out := fs.Output("csv")
	return func(ctx context.Context, e *env) error {
		if cfg.Initial < 1 { // the library reads 0 as its default, 1
			return usagef("--initial %d: valid range 1..N = 1..%d", cfg.Initial, cfg.Nodes)
		}
		res, err := chain.Solve(ctx, cfg, chain.Settings{Progress: newProgress(e, "chain")})
		if err != nil {
			return err
		}
		return output(e, *out, func(w io.Writer) error { return report.WriteChain(w, res, *format) })
	}
}
