package main

import (
	"context"
	"fmt"
	"io"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/meanfield"
	"github.com/gossipkit/gossipkit/ode"
	"github.com/gossipkit/gossipkit/report/tables"
)

// defaultShuffle is the paper's setting, the default of the model commands.
var defaultShuffle = gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}

func cmdTransitions(fs *cli.FlagSet) cli.Run {
	sh, v := defaultShuffle, approx.Simplified
	cli.ShuffleFlags(fs, &sh, "", true)
	pdropFlag(fs, &v, "")
	format, out := fs.Output("text")
	return func(_ context.Context, e *env) error {
		tr, err := approx.TransitionsFor(v, sh)
		if err != nil {
			return err
		}
		if err := tr.Check(1e-12); err != nil {
			return fmt.Errorf("transition matrix fails its check: %w", err)
		}
		return buffered(e, *out, func(w io.Writer) error { return tables.WriteTransitions(w, v, sh, tr, *format) })
	}
}

func cmdODE(fs *cli.FlagSet) cli.Run {
	cfg := approx.Config{Nodes: 2500, Shuffle: defaultShuffle, Initial: 1}
	fs.IntParam(&cfg.Nodes, "N", "Config", approx.Nodes)
	cli.ShuffleFlags(fs, &cfg.Shuffle, "Config.", true)
	tMax, dt := 300.0, 1.0
	fs.FloatParam(&tMax, "t-max", "", meanfield.TMax)
	fs.FloatParam(&dt, "dt", "", meanfield.Dt)
	set := ode.Settings{RTol: 1e-10, ATol: 1e-13}
	fs.FloatParam(&set.RTol, "rtol", "Settings", ode.RTol)
	fs.FloatParam(&set.ATol, "atol", "Settings", ode.ATol)
	fs.IntParam(&cfg.Initial, "initial", "Config", approx.Initial)
	pdropFlag(fs, &cfg.PDrop, "Config.PDrop")
	cli.LossFlag(fs, &cfg.Loss, "Config.Loss", false)
	refined := fs.Bool("refined", false, "add the refined mean field (1/N correction) and predicted standard deviations")
	tm := gossip.Continuous
	timeFlag(fs, &tm, "", gossip.Continuous, gossip.Synchronous).Alias("discrete", gossip.Synchronous, "(or its former name discrete)")
	format, out := fs.Output("csv")
	return func(ctx context.Context, e *env) error {
		if cfg.Initial < 1 { // the library reads 0 as 1
			return usagef("--initial %d: valid range 1..N = 1..%d", cfg.Initial, cfg.Nodes)
		}
		m, err := approx.NewModel(cfg)
		if err != nil {
			return err
		}
		sol, err := meanfield.Solve(m, tMax, dt, set)
		if err != nil {
			return err
		}
		var ref *meanfield.RefinedCurves
		if *refined {
			if ref, err = meanfield.RefineGrid(ctx, m, tMax, dt, tm, set); err != nil {
				return err
			}
		}
		if err := outputTable(e, *out, *format, tables.ODETable(sol, ref)); err != nil {
			return err
		}
		if *format == "text" {
			w := e.Stdout
			if *out != "" {
				w = e.Stderr
			}
			fmt.Fprintf(w, "largest |integrated − closed form| = %.3g at t = %g (%d evaluations, %d accepted and %d rejected steps)\n",
				sol.MaxDiff, sol.MaxDiffAt, sol.Stats.Evaluations, sol.Stats.Accepted, sol.Stats.Rejected)
		}
		return nil
	}
}

func cmdOptimal(fs *cli.FlagSet) cli.Run {
	cfg := meanfield.OptimizeConfig{Items: 500, Cache: 100, Nodes: 2500, Level: 0.99}
	fs.IntField(&cfg.Items, "n", "OptimizeConfig.Items", gossip.Items.Usage())
	fs.IntField(&cfg.Cache, "c", "OptimizeConfig.Cache", gossip.Cache.Usage())
	fs.IntParam(&cfg.Nodes, "N", "OptimizeConfig", meanfield.OptimizeNodes, "for the time to coverage")
	fs.FloatParam(&cfg.Level, "level", "OptimizeConfig", meanfield.OptimizeLevel)
	format, out := fs.Output("text")
	return func(ctx context.Context, e *env) error {
		res, err := meanfield.Optimize(ctx, cfg)
		if err != nil {
			return err
		}
		return outputTable(e, *out, *format, tables.OptimalTable(cfg, res))
	}
}
