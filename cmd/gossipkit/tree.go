package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/internal/shard"
	"github.com/gossipkit/gossipkit/report"
	"github.com/gossipkit/gossipkit/report/tables"
	"github.com/gossipkit/gossipkit/tree"
)

// treeCommands are tree build, fail and sweep; each declares only the
// flags it uses, so that its help lists exactly what it takes and any
// other flag is refused.
func treeCommands() []*cli.Command {
	return []*cli.Command{
		{Name: "build", Short: "build trees and measure them", Flags: func(fs *cli.FlagSet) cli.Run { return cmdTreeRun(fs, false) }},
		{Name: "fail", Short: "fail a fraction of the nodes at once and repair", Flags: func(fs *cli.FlagSet) cli.Run { return cmdTreeRun(fs, true) }},
		{Name: "sweep", Short: "the tree section of the report", Flags: cmdTreeSweep},
	}
}

func seedFlags(fs *cli.FlagSet, exp *tree.Experiment) {
	exp.Seeds, exp.Seed = 10, 1
	fs.IntParam(&exp.Seeds, "seeds", "Experiment", tree.Seeds)
	fs.Uint64Var(&exp.Seed, "seed", 1, "first seed; run i uses seed + i")
}

func cmdTreeSweep(fs *cli.FlagSet) cli.Run {
	var exp tree.Experiment
	seedFlags(fs, &exp)
	outDir := fs.String("out", "out/tree", "output directory (the tree section of the report: TREE.md, figures, tables)")
	return func(ctx context.Context, e *env) error {
		exp.Cfg = tree.DefaultConfig()
		if err := exp.Validate(); err != nil {
			return err
		}
		names, err := report.TreeSweep(ctx, *outDir, exp.Seeds, exp.Seed, report.Options{StepStart: cli.StepStarts(e, "tree sweep", time.Now())})
		cli.ClearLine(e)
		if err != nil {
			return cli.DirUsage(err, "--out")
		}
		fmt.Fprintf(e.Stderr, "tree sweep: wrote %d files to %s (TREE.md)\n", len(names), *outDir)
		return nil
	}
}

func cmdTreeRun(fs *cli.FlagSet, fail bool) cli.Run {
	var exp tree.Experiment
	seedFlags(fs, &exp)
	exp.Cfg, exp.Fail = tree.DefaultConfig(), fail
	cfg := &exp.Cfg
	fs.IntParam(&cfg.Nodes, "N", "Config", tree.Nodes)
	fs.IntVar(&cfg.Nodes, "nodes", cfg.Nodes, "alias of -N")
	fs.IntParam(&cfg.Degree, "degree", "Config", tree.Degree)
	cli.Enum(fs, &cfg.Join, "join", "Config.Join", "entry point (see `go doc ./tree`)")
	cli.Enum(fs, &cfg.Redirect, "redirect", "Config.Redirect", "alternative named by a full node")
	if fail {
		cfg.FailFraction = 0.1
		fs.FloatParam(&cfg.FailFraction, "fraction", "Config", tree.FailFraction)
		cli.Enum(fs, &cfg.Repair, "repair", "Config.Repair", "repair")
		cli.Enum(fs, &cfg.Elect, "elect", "Config.Elect", "with --repair election, the priority (xor: the distance to the group id)")
	}
	format, out := fs.Output("text")
	sh := cli.ShardFlags(fs, "run only seeds i with i mod M = I−1 and write a part file for `gossipkit merge` to -o (a file, or a directory ending in /)")
	return func(ctx context.Context, e *env) error {
		if err := exp.Validate(); err != nil {
			return err
		}
		id, note, err := sh.Resolve(e, fs.FlagSet, *out)
		if err != nil {
			return err
		}
		if id != nil && len(exp.Indices(id)) == 0 {
			return usagef("--shard %d/%d: no seed falls in this shard (--seeds %d)", id.Index, id.Count, exp.Seeds)
		}
		path := ""
		if id != nil {
			if path, err = cli.ShardOut(e, *out, shard.FileName(*id)); err != nil {
				return err
			}
		}
		res, err := exp.Run(ctx, tree.Settings{Indices: exp.Indices(id), Progress: newProgress(e, "tree")})
		if err != nil {
			return err
		}
		if id == nil {
			return outputTable(e, *out, *format, tables.TreeTable(exp.Summarize(res)))
		}
		return cli.WritePart(e, "tree", path, func(w io.Writer) error { return tree.WritePart(w, exp, *id, res) },
			shareText(len(exp.Indices(id)), exp.Seeds, "seeds", *id), note)
	}
}
