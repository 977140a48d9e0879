package main

import (
	"context"
	"io"

	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/report/tables"
)

func cmdChain(fs *cli.FlagSet) cli.Run {
	cfg := chain.Config{Nodes: 100, Shuffle: defaultShuffle, Initial: 1, TMax: 150, Dt: 1}
	fs.IntParam(&cfg.Nodes, "N", "Config", chain.Nodes)
	cli.ShuffleFlags(fs, &cfg.Shuffle, "Config.", true)
	fs.IntParam(&cfg.Initial, "initial", "Config", chain.Initial)
	fs.FloatParam(&cfg.TMax, "t-max", "Config", chain.TMax)
	fs.FloatParam(&cfg.Dt, "dt", "Config", chain.Dt)
	timeFlag(fs, &cfg.Time, "Config.Time", gossip.Continuous, gossip.Shuffles)
	pdropFlag(fs, &cfg.PDrop, "Config.PDrop")
	fs.BoolVar(&cfg.ReplicationOnly, "replication-only", false, "solve the chain of X alone (no coverage columns)")
	fs.FloatParam(&cfg.Level, "level", "Config", chain.Level, "add p_level = P(Y(t) ≥ ⌈L·N⌉) and the law of the time to L")
	cli.LossFlag(fs, &cfg.Loss, "Config.Loss", false)
	qs := fs.Bool("quasi-stationary", false, "with --loss > 0: print instead the quasi-stationary law of X, P(X = x | d alive) in the long run, for x = 1..N (up to the last x whose p is not 0 in float64)")
	format, out := fs.Output("csv")
	return func(ctx context.Context, e *env) error {
		if *qs {
			return quasiStationary(ctx, e, fs, cfg, *format, *out)
		}
		res, err := chain.Solve(ctx, cfg, chain.Settings{Progress: newProgress(e, "chain")})
		if err != nil {
			return err
		}
		var life *tables.Lifetime
		if cfg.Loss > 0 { // d dies: the law of its lifetime T_0
			mean, sd, err := chain.Lifetime(ctx, cfg)
			if err != nil {
				return err
			}
			life = &tables.Lifetime{Mean: mean, SD: sd}
		}
		return output(e, *out, func(w io.Writer) error { return tables.WriteChain(w, res, life, *format) })
	}
}

// quasiStationary is `chain --quasi-stationary`: the law of X given that
// d is alive, in the long run (chain.QuasiStationary).
func quasiStationary(ctx context.Context, e *env, fs *cli.FlagSet, cfg chain.Config, format, out string) error {
	for _, f := range []string{"level", "t-max", "dt", "initial", "replication-only", "time"} {
		if cli.Given(fs.FlagSet, f) {
			return usagef("--%s: not used with --quasi-stationary (the law of X given survival in the long run)", f)
		}
	}
	if !(cfg.Loss > 0) {
		return usagef("--quasi-stationary needs --loss > 0: without loss d never dies (X has a stationary law)")
	}
	nu, err := chain.QuasiStationary(ctx, cfg)
	if err != nil {
		return err
	}
	return buffered(e, out, func(w io.Writer) error { return tables.WriteQuasiStationary(w, cfg, nu, format) })
}
