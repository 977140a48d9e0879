package main

import (
	"context"
	"io"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/report"
)

func cmdChain(ctx context.Context, e *env, args []string) error {
	fs := newFlags("chain")
	var cfg chain.Config
	fs.IntVar(&cfg.Nodes, "N", 100, "number of nodes N (2..5000 jointly with coverage, 2..10^7 with --replication-only)")
	fs.IntVar(&cfg.Shuffle.Items, "n", 500, "number of distinct items n (≥ c)")
	fs.IntVar(&cfg.Shuffle.Cache, "c", 100, "cache size c (1 ≤ c ≤ n)")
	fs.IntVar(&cfg.Shuffle.Exchange, "s", 50, "exchange size s (1 ≤ s ≤ c, s < n)")
	fs.IntVar(&cfg.Initial, "initial", 1, "nodes holding d at t = 0 (1..N)")
	fs.Float64Var(&cfg.TMax, "t-max", 150, "last output time, in rounds (> 0)")
	fs.Float64Var(&cfg.Dt, "dt", 1, "output spacing, in rounds (0 < dt ≤ t-max)")
	timeModel := fs.String("time", "continuous", "continuous (shuffles at rate N, as `sim --schedule continuous`) or shuffles (the per-shuffle chain, N shuffles a round)")
	variant := fs.String("pdrop", "simplified", "P_drop variant: simplified, gamma or exact")
	fs.BoolVar(&cfg.ReplicationOnly, "replication-only", false, "solve the chain of X alone (no coverage columns)")
	fs.Float64Var(&cfg.Level, "level", 0, "coverage level L in (0, 1]: add p_level = P(Y(t) ≥ ⌈L·N⌉) and the law of the time to L")
	format := fs.String("format", "csv", "output format: csv, json, text or markdown")
	out := fs.String("o", "", "write to FILE instead of standard output (atomically)")
	if err := parseFormatted(fs, e, args, format); err != nil {
		return err
	}
	var err error
	if cfg.Time, err = gossip.ParseTime(*timeModel); err != nil || (cfg.Time != gossip.Continuous && cfg.Time != gossip.Shuffles) {
		return usagef("--time %q: valid values are continuous, shuffles", *timeModel)
	}
	if cfg.PDrop, err = approx.ParseVariant(*variant); err != nil {
		return usagef("--pdrop %q: valid values are simplified, gamma, exact", *variant)
	}
	if cfg.Initial < 1 { // the library reads 0 as its default, 1
		return usagef("--initial %d: valid range 1..N = 1..%d", cfg.Initial, cfg.Nodes)
	}
	if err := cfg.Validate(); err != nil {
		return usagef("%v", fieldUsage(err, fieldFlags))
	}
	res, err := chain.Solve(ctx, cfg, chain.Settings{Progress: newProgress(e, "chain")})
	if err != nil {
		return err
	}
	return output(e, *out, func(w io.Writer) error { return report.WriteChain(w, res, *format) })
}
