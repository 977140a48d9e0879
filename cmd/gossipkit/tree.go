package main

import (
	"context"
	"fmt"
	"io"

	"github.com/gossipkit/gossipkit/internal/shard"
	"github.com/gossipkit/gossipkit/report"
	"github.com/gossipkit/gossipkit/tree"
)

func cmdTree(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || (args[0] != "build" && args[0] != "fail" && args[0] != "sweep" && args[0] != "-h" && args[0] != "--help") {
		what := ""
		if len(args) > 0 {
			what = fmt.Sprintf("%q: ", args[0])
		}
		return usagef("%svalid subcommands are build, fail, sweep (gossipkit tree build --help)", what)
	}
	if args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(e.stdout, "Usage: gossipkit tree build|fail|sweep [flags]; gossipkit tree build --help for the flags")
		return errHelp
	}
	sub := args[0]
	fs := newFlags("tree " + sub)
	// Each subcommand defines only the flags it uses, so that its help
	// lists exactly what it takes and any other flag is refused.
	seeds := fs.Int("seeds", 10, "number of seeds (runs) to aggregate (≥ 1)")
	seed := fs.Uint64("seed", 1, "first seed; run i uses seed + i")
	if sub == "sweep" {
		outDir := fs.String("out", "out/tree", "output directory (the tree section of the report: TREE.md, figures, tables)")
		if err := parseEnv(fs, e, args[1:]); err != nil {
			return err
		}
		if err := (tree.Experiment{Cfg: tree.DefaultConfig(), Seeds: *seeds}).Validate(); err != nil {
			return usagef("%v", fieldUsage(err, treeFieldFlags))
		}
		names, err := report.TreeSweep(ctx, *outDir, *seeds, *seed, report.Options{})
		if err != nil {
			return dirUsage(err, "--out")
		}
		fmt.Fprintf(e.stderr, "tree sweep: wrote %d files to %s (TREE.md)\n", len(names), *outDir)
		return nil
	}
	cfg := tree.DefaultConfig()
	fs.IntVar(&cfg.Nodes, "N", cfg.Nodes, "number of nodes N (1..4194304)")
	fs.IntVar(&cfg.Nodes, "nodes", cfg.Nodes, "alias of -N")
	fs.IntVar(&cfg.Degree, "degree", cfg.Degree, "k, the most children a node accepts (≥ 1)")
	join := fs.String("join", "first", "entry point: first, root or closest (see `go doc ./tree`)")
	redirect := fs.String("redirect", "random", "alternative named by a full node: random or distance")
	format := fs.String("format", "text", "output format: text, json, csv or markdown")
	out := fs.String("o", "", "write to FILE instead of standard output")
	fraction, repair, elect := new(float64), new(string), new(string)
	*repair, *elect = "election", "xor"
	if sub == "fail" {
		fs.Float64Var(fraction, "fraction", 0.1, "fraction of nodes failing at once, in [0, 1)")
		fs.StringVar(repair, "repair", "election", "breakout, preservation or election")
		fs.StringVar(elect, "elect", "xor", "with election: priority xor (distance to the group id) or lifetime")
	}
	shardFlag := fs.String("shard", "", "run only seeds i with i mod M = I−1 and write a part file for `gossipkit merge` to -o (a file, or a directory ending in /)")
	shards := fs.Int("shards", 0, "number of shards M when the shard index comes from JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX (Slurm: SLURM_ARRAY_TASK_COUNT)")
	ignoreEnv := fs.Bool("no-scheduler-env", false, "ignore JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID and AWS_BATCH_JOB_ARRAY_INDEX")
	if err := parseFormatted(fs, e, args[1:], format); err != nil {
		return err
	}
	var err error
	if cfg.Join, err = tree.ParseJoin(*join); err != nil {
		return usagef("--join %q: valid values are first, root, closest", *join)
	}
	if cfg.Redirect, err = tree.ParseRedirect(*redirect); err != nil {
		return usagef("--redirect %q: valid values are random, distance", *redirect)
	}
	if cfg.Repair, err = tree.ParseRepair(*repair); err != nil {
		return usagef("--repair %q: valid values are breakout, preservation, election", *repair)
	}
	if cfg.Elect, err = tree.ParseElect(*elect); err != nil {
		return usagef("--elect %q: valid values are xor, lifetime", *elect)
	}
	cfg.FailFraction = *fraction
	exp := tree.Experiment{Cfg: cfg, Fail: sub == "fail", Seeds: *seeds, Seed: *seed}
	if err := exp.Validate(); err != nil {
		return usagef("%v", fieldUsage(err, treeFieldFlags))
	}
	if err := checkShards(fs, *shards); err != nil {
		return err
	}
	id, note, err := resolveShard(e, *shardFlag, *out, *shards, !*ignoreEnv)
	if err != nil {
		return err
	}
	if err := shardsUsed(*shards, id); err != nil {
		return err
	}
	if id != nil && len(exp.Indices(id)) == 0 {
		return usagef("--shard %d/%d: no seed falls in this shard (--seeds %d)", id.Index, id.Count, *seeds)
	}
	path := ""
	if id != nil {
		if path, err = shardOut(*out, *id); err != nil {
			return err
		}
	}
	res, err := exp.Run(ctx, tree.Settings{Indices: exp.Indices(id), Progress: newProgress(e, "tree")})
	if err != nil {
		return err
	}
	if id != nil {
		if err := output(e, path, func(w io.Writer) error { return tree.WritePart(w, exp, *id, res) }); err != nil {
			return err
		}
		if note != "" {
			note = "; " + note
		}
		fmt.Fprintf(e.stderr, "gossipkit tree: wrote %s (seeds %s of %d%s)\n", path, shard.Ranges(exp.Indices(id)), *seeds, note)
		return nil
	}
	return outputTable(e, *out, *format, report.TreeTable(exp.Summarize(res)))
}
