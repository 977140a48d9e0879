package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/internal/flagval"
	"github.com/gossipkit/gossipkit/report"
	"github.com/gossipkit/gossipkit/sim"
)

func cmdReproduce(fs *cli.FlagSet) cli.Run {
	out := fs.String("out", "out", "output directory (created if missing; files in it are replaced)")
	scaleName := fs.String("scale", "quick", "quick (under 3 minutes on 2 cores), paper (100 replications of 1000 + 1000 rounds) or smoke (seconds; checks an installation or a deployment, its numbers mean nothing)")
	seed := fs.Uint64("seed", 1, "random seed of every simulation")
	workers := new(int)
	cli.WorkersFlag(fs, workers, sim.DefaultWorkers())
	sh := cli.ShardFlags(fs, "run only shard I/M of every simulation of the report (replications r with r mod M = I−1) and write one part file to -o, for --merge")
	partOut := fs.String("o", "", "a shard's part file, or a directory ending in / (created if missing) to write it in under its own name (default: the current directory)")
	fs.Bind("Scale.Name", "scale")
	mergeDir := fs.String("merge", "", "merge the part files (*.gkpart) in this directory, written by every shard 1..M, into the report in --out; the scale and seed are the parts'")
	var maxMemory uint64
	cli.MergeMemoryFlag(fs, &maxMemory, "with --merge: memory the merge may use, as 500MB, 2GiB or bytes (0: the memory available); a merge whose estimate, 6 times the parts' JSON plus 16 MiB plus the report's own 96 MiB, exceeds it is refused before any part is read")
	return func(ctx context.Context, e *env) error {
		return reproduce(ctx, e, fs.FlagSet, *out, *scaleName, *seed, *workers, sh, *partOut, *mergeDir, maxMemory)
	}
}

func reproduce(ctx context.Context, e *env, fs *flag.FlagSet, out, scaleName string, seed uint64, workers int, sh cli.ShardOpts, partOut, mergeDir string, maxMemory uint64) error {
	sc, err := report.ScaleNamed(scaleName)
	if err != nil {
		return err
	}
	if err := cli.CheckWorkers(workers); err != nil {
		return err
	}
	start := time.Now()
	opt := report.Options{Workers: workers, StepStart: cli.StepPrinter(e, "reproduce", start), StepDone: cli.StepLogger[report.StepTime](e, "reproduce")}
	if mergeDir != "" {
		for _, f := range []string{"shard", "shards", "o", "scale", "seed"} {
			if cli.Given(fs, f) {
				return usagef("--%s: not with --merge (the parts fix the scale, the seed and the shards)", f)
			}
		}
		// The memory, before any part is read: the parts' as merge
		// estimates it, plus the report's own computations.
		need, parts, err := report.MergeDirMemoryEstimate(mergeDir)
		var pe *report.PartError
		if errors.As(err, &pe) {
			return usagef("--merge %q: %v", mergeDir, strings.TrimPrefix(pe.Error(), "report: "))
		}
		if maxMemory > 0 && need > maxMemory {
			return usagef("--max-memory %s: merging the %d parts in %q into the report needs about %s (6 times their JSON plus the report's own %s); raise --max-memory or merge on a machine with more memory", cli.FormatBytes(maxMemory), parts, mergeDir, cli.FormatBytes(need), cli.FormatBytes(report.ReportMergeBase))
		}
		if avail := sim.AvailableMemory(); maxMemory == 0 && avail > 0 && need > avail {
			return usagef("--merge %q: merging these %d parts into the report needs about %s (6 times their JSON plus the report's own %s), more than the %s available; merge on a machine with more memory", mergeDir, parts, cli.FormatBytes(need), cli.FormatBytes(report.ReportMergeBase), cli.FormatBytes(avail))
		}
		n, err := report.MergeDir(ctx, out, mergeDir, opt)
		cli.ClearLine(e)
		if errors.As(err, &pe) {
			return usagef("--merge %q: %v", mergeDir, strings.TrimPrefix(pe.Error(), "report: "))
		}
		if err != nil {
			return cli.DirUsage(err, "--out")
		}
		fmt.Fprintf(e.Stderr, "reproduce: merged %d parts into the report in %s (REPORT.md) in %.0f s\n", n, out, time.Since(start).Seconds())
		return nil
	}
	if cli.Given(fs, "max-memory") {
		return usagef("--max-memory: only with --merge (a run's simulations are checked against the memory available)")
	}
	sc.Seed = seed
	id, note, err := sh.Resolve(e, fs, "")
	if err != nil {
		return err
	}
	if id != nil {
		if cli.Given(fs, "out") {
			return usagef("--out: a shard writes a part file (-o), the merge writes the report (--merge DIR --out DIR); --no-scheduler-env runs the whole report here")
		}
		path, err := cli.ShardOut(e, partOut, report.PartFileName(*id))
		if err != nil {
			return err
		}
		if note != "" {
			fmt.Fprintf(e.Stderr, "reproduce: %s\n", note)
		}
		err = report.RunShard(ctx, path, sc, *id, opt)
		cli.ClearLine(e)
		if err != nil {
			return cli.DirUsage(err, "-o")
		}
		fmt.Fprintf(e.Stderr, "reproduce: wrote shard %d/%d of the %s scale to %s in %.0f s\n", id.Index, id.Count, sc.Name, path, time.Since(start).Seconds())
		return nil
	}
	if partOut != "" {
		return usagef("-o %q: only a shard writes a part file (--shard I/M); the report goes to --out", partOut)
	}
	err = report.Run(ctx, out, sc, opt)
	cli.ClearLine(e)
	if err != nil {
		return cli.DirUsage(err, "--out")
	}
	fmt.Fprintf(e.Stderr, "reproduce: wrote the report to %s (REPORT.md) in %.0f s\n", out, time.Since(start).Seconds())
	return nil
}

// plotCommands are plot fig4, fig7, fig8 and optimal: each draws one
// figure of the report with the parameters given (report.Plot), writing
// its PNG and SVG into --out.
func plotCommands() []*cli.Command {
	var cmds []*cli.Command
	for _, fig := range report.Figures {
		cmds = append(cmds, &cli.Command{Name: fig, Short: "draw " + fig, Flags: func(fs *cli.FlagSet) cli.Run { return cmdPlot(fs, fig) }})
	}
	return cmds
}

func cmdPlot(fs *cli.FlagSet, fig string) cli.Run {
	sc := report.Quick()
	out := fs.String("out", ".", "directory for FIGURE.png and FIGURE.svg")
	fs.Uint64Var(&sc.Seed, "seed", 1, "random seed of the simulations")
	workers := new(int)
	cli.WorkersFlag(fs, workers, sim.DefaultWorkers())
	cs := fs.String("cs", "250,500", "fig4: cache sizes c, comma-separated")
	ss := fs.String("ss", "1,2,5,10,25", "fig4: exchange sizes s, comma-separated")
	ns := fs.String("ns", "500,1000,2000", "fig7, fig8: numbers of items n, comma-separated (optimal: the first)")
	optS := fs.String("opt-s", "10,20,30,40,50,53,60,70,80,90", "optimal: exchange sizes simulated, comma-separated")
	for _, b := range [][2]string{{"Scale.Fig4C", "cs"}, {"Scale.Fig4S", "ss"}, {"Scale.Ns", "ns"}, {"Config.Shuffle.Items", "ns"}, {"Scale.OptS", "opt-s"}} {
		fs.Bind(b[0], b[1]) // the lists, parsed below
	}
	// Each integer flag sets a field of Scale and, in the configurations
	// the figures it applies to run (sim.Config, chain.Config), the field
	// config: both are bound to it here, with the flag.
	for _, f := range []struct {
		p                   *int
		name, field, config string
		usage               string
	}{
		{&sc.Fig4NMax, "n-max", "Fig4NMax", "", "fig4: largest n"},
		{&sc.Fig4Step, "step", "Fig4Step", "", "fig4: step in n"},
		{&sc.Nodes, "N", "Nodes", "Nodes", "fig7, fig8: nodes N"},
		{&sc.Cache, "c", "Cache", "Shuffle.Cache", "fig7, fig8, optimal: cache size c"},
		{&sc.Exchange, "s", "Exchange", "Shuffle.Exchange", "fig7, fig8: exchange size s"},
		{&sc.Warmup, "warmup", "Warmup", "Warmup", "fig7, fig8: warm-up rounds"},
		{&sc.Rounds, "rounds", "Rounds", "Rounds", "fig7, fig8: rounds observed"},
		{&sc.Reps, "reps", "Reps", "Reps", "fig7, fig8: replications"},
		{&sc.OptNodes, "opt-N", "OptNodes", "Nodes", "optimal: nodes N of the simulation"},
		{&sc.OptReps, "opt-reps", "OptReps", "Reps", "optimal: replications per s"},
		{&sc.OptRounds, "opt-rounds", "OptRounds", "Rounds", "optimal: rounds observed per s"},
	} {
		fs.IntField(f.p, f.name, "Scale."+f.field, f.usage)
		if figs, _, _ := strings.Cut(f.usage, ":"); f.config != "" && slices.Contains(strings.Split(figs, ", "), fig) {
			fs.Bind("Config."+f.config, f.name)
		}
	}
	return func(ctx context.Context, e *env) error {
		if err := cli.FlagsApply(fs.FlagSet, fig, report.Figures); err != nil {
			return err
		}
		var err error
		for _, l := range []struct {
			flag, val string
			dst       *[]int
		}{{"--ns", *ns, &sc.Ns}, {"--opt-s", *optS, &sc.OptS}, {"--cs", *cs, &sc.Fig4C}, {"--ss", *ss, &sc.Fig4S}} {
			if *l.dst, err = flagval.IntList(l.flag, l.val); err != nil {
				return usagef("%v", err)
			}
		}
		if err := cli.CheckWorkers(*workers); err != nil {
			return err
		}
		if err := sc.CheckFigure(fig, *workers); err != nil {
			return err
		}
		start := time.Now()
		err = report.Plot(ctx, *out, fig, sc, report.Options{Workers: *workers, StepStart: cli.StepStarts(e, "plot", start)})
		cli.ClearLine(e)
		if err != nil {
			return cli.DirUsage(err, "--out")
		}
		fmt.Fprintf(e.Stderr, "plot: wrote %s.png and %s.svg in %s\n", fig, fig, *out)
		return nil
	}
}
