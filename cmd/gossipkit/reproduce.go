package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/flagval"
	"github.com/gossipkit/gossipkit/report"
	"github.com/gossipkit/gossipkit/sim"
)

// scales are the scales `reproduce --scale` offers.
var scales = map[string]func() report.Scale{"quick": report.Quick, "paper": report.Paper}

// dirUsage makes an unusable output folder a usage error naming flag.
func dirUsage(err error, flag string) error {
	var de *report.DirError
	if errors.As(err, &de) {
		return usagef("%s %v", flag, de)
	}
	return err
}

// stepPrinter shows the report's current step on a terminal.
func stepPrinter(e *env, label string, start time.Time) func(string) {
	if !e.terminal {
		return nil
	}
	return func(step string) {
		fmt.Fprintf(e.stderr, "\r\033[K%s: %s (%.0f s)", label, step, time.Since(start).Seconds())
	}
}

func clearLine(e *env) {
	if e.terminal {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
}

func cmdReproduce(ctx context.Context, e *env, args []string) error {
	fs := newFlags("reproduce")
	out := fs.String("out", "out", "output directory (created if missing; files in it are replaced)")
	scaleName := fs.String("scale", "quick", "quick (under 3 minutes on 2 cores) or paper (100 replications of 1000 + 1000 rounds)")
	seed := fs.Uint64("seed", 1, "random seed of every simulation")
	workers := fs.Int("workers", sim.DefaultWorkers(), "worker goroutines (≥ 1); results do not depend on it")
	if err := parseEnv(fs, e, args); err != nil {
		return err
	}
	mk, ok := scales[*scaleName]
	if !ok {
		return usagef("--scale %q: valid values are quick, paper", *scaleName)
	}
	if *workers < 1 || *workers > 4096 {
		return usagef("--workers %d: valid range 1..4096", *workers)
	}
	sc := mk()
	sc.Seed = *seed
	start := time.Now()
	err := report.Run(ctx, *out, sc, report.Options{Workers: *workers, Progress: stepPrinter(e, "reproduce", start)})
	clearLine(e)
	if err != nil {
		return dirUsage(err, "--out")
	}
	fmt.Fprintf(e.stderr, "reproduce: wrote the report to %s (REPORT.md) in %.0f s\n", *out, time.Since(start).Seconds())
	return nil
}

// cmdPlot draws one figure of the report with the parameters given: it runs
// that figure's compute step (report.Plot) and writes its PNG and SVG into
// --out.
func cmdPlot(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fmt.Fprintf(e.stdout, "Usage: gossipkit plot %s [flags]; gossipkit plot fig7 --help for the flags\n", strings.Join(report.Figures, "|"))
			return errHelp
		}
		return usagef("name a figure: %s", strings.Join(report.Figures, ", "))
	}
	fig := args[0]
	if !slices.Contains(report.Figures, fig) {
		return usagef("unknown figure %q (valid: %s)", fig, strings.Join(report.Figures, ", "))
	}
	sc := report.Quick()
	fs := newFlags("plot " + fig)
	out := fs.String("out", ".", "directory for FIGURE.png and FIGURE.svg")
	fs.Uint64Var(&sc.Seed, "seed", 1, "random seed of the simulations")
	workers := fs.Int("workers", sim.DefaultWorkers(), "worker goroutines (≥ 1)")
	cs := fs.String("cs", "250,500", "fig4: cache sizes c, comma-separated")
	ss := fs.String("ss", "1,2,5,10,25", "fig4: exchange sizes s, comma-separated")
	fs.IntVar(&sc.Fig4NMax, "n-max", sc.Fig4NMax, "fig4: largest n")
	fs.IntVar(&sc.Fig4Step, "step", sc.Fig4Step, "fig4: step in n")
	fs.IntVar(&sc.Nodes, "N", sc.Nodes, "fig7, fig8: nodes N")
	fs.IntVar(&sc.Cache, "c", sc.Cache, "fig7, fig8, optimal: cache size c")
	fs.IntVar(&sc.Exchange, "s", sc.Exchange, "fig7, fig8: exchange size s")
	ns := fs.String("ns", "500,1000,2000", "fig7, fig8: numbers of items n, comma-separated (optimal: the first)")
	fs.IntVar(&sc.Warmup, "warmup", sc.Warmup, "fig7, fig8: warm-up rounds")
	fs.IntVar(&sc.Rounds, "rounds", sc.Rounds, "fig7, fig8: rounds observed")
	fs.IntVar(&sc.Reps, "reps", sc.Reps, "fig7, fig8: replications")
	fs.IntVar(&sc.OptNodes, "opt-N", sc.OptNodes, "optimal: nodes N of the simulation")
	optS := fs.String("opt-s", "10,20,30,40,50,53,60,70,80,90", "optimal: exchange sizes simulated, comma-separated")
	fs.IntVar(&sc.OptReps, "opt-reps", sc.OptReps, "optimal: replications per s")
	fs.IntVar(&sc.OptRounds, "opt-rounds", sc.OptRounds, "optimal: rounds observed per s")
	if err := parseEnv(fs, e, args[1:]); err != nil {
		return err
	}
	if err := plotFlagsApply(fs, fig); err != nil {
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
	if fig == "fig7" || fig == "fig8" {
		for _, n := range sc.Ns {
			cfg := sim.Config{Nodes: sc.Nodes, Shuffle: gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sc.Exchange}, Warmup: sc.Warmup, Rounds: sc.Rounds, Reps: sc.Reps, Initial: 1}
			if err := checkSimConfig(cfg, *workers); err != nil {
				return err
			}
		}
	}
	switch {
	case *workers < 1 || *workers > 4096:
		return usagef("--workers %d: valid range 1..4096", *workers)
	case sc.Fig4Step < 1 || sc.Fig4NMax < 2 || sc.Fig4NMax > 1_000_000 || sc.Fig4NMax/sc.Fig4Step > 100_000:
		return usagef("--n-max %d, --step %d: need 2 ≤ n-max ≤ 10^6, step ≥ 1 and at most 10^5 points a curve", sc.Fig4NMax, sc.Fig4Step)
	case fig == "optimal" && slices.Max(sc.OptS) >= sc.Cache:
		return usagef("--opt-s %s: every s must be < c = %d", *optS, sc.Cache)
	case sc.OptReps < 1 || sc.OptRounds < 1 || sc.OptNodes < 2:
		return usagef("--opt-reps, --opt-rounds ≥ 1 and --opt-N ≥ 2")
	}
	if err := plotInputs(fig, sc); err != nil {
		return err
	}
	start := time.Now()
	err = report.Plot(ctx, *out, fig, sc, report.Options{Workers: *workers, Progress: stepPrinter(e, "plot", start)})
	clearLine(e)
	if err != nil {
		return dirUsage(err, "--out")
	}
	fmt.Fprintf(e.stderr, "plot: wrote %s.png and %s.svg in %s\n", fig, fig, *out)
	return nil
}
