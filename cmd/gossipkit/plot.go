package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gossipkit/gossipkit/sim"
)

func init() {
	moreCommands = append(moreCommands,
		&command{name: "plot", summary: "draw one figure (fig4, fig7, fig8, optimal) with custom parameters", run: cmdPlot},
	)
}

var plotFigures = []string{"fig4", "fig7", "fig8", "optimal"}

// intList parses "a,b,c" into positive integers.
func intList(flagName, s string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v < 1 {
			return nil, usagef("%s %q: want a comma-separated list of integers ≥ 1", flagName, s)
		}
		out = append(out, v)
	}
	return out, nil
}

// cmdPlot draws one figure of the report with the parameters given: it runs
// the same code as `reproduce` for that figure, in a scratch directory, and
// moves only the figure's PNG and SVG into --out.
func cmdPlot(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fmt.Fprintf(e.stdout, "Usage: gossipkit plot %s [flags]; gossipkit plot fig7 --help for the flags\n", strings.Join(plotFigures, "|"))
			return errHelp
		}
		return usagef("name a figure: %s", strings.Join(plotFigures, ", "))
	}
	fig := args[0]
	valid := false
	for _, f := range plotFigures {
		valid = valid || f == fig
	}
	if !valid {
		return usagef("unknown figure %q (valid: %s)", fig, strings.Join(plotFigures, ", "))
	}
	sc := scales["quick"]
	fs := newFlags("plot " + fig)
	out := fs.String("out", ".", "directory for FIGURE.png and FIGURE.svg")
	seed := fs.Uint64("seed", 1, "random seed of the simulations")
	workers := fs.Int("workers", sim.DefaultWorkers(), "worker goroutines (≥ 1)")
	cs := fs.String("cs", "250,500", "fig4: cache sizes c, comma-separated")
	ss := fs.String("ss", "1,2,5,10,25", "fig4: exchange sizes s, comma-separated")
	fs.IntVar(&sc.fig4NMax, "n-max", sc.fig4NMax, "fig4: largest n")
	fs.IntVar(&sc.fig4Step, "step", sc.fig4Step, "fig4: step in n")
	fs.IntVar(&sc.N, "N", sc.N, "fig7, fig8: nodes N")
	fs.IntVar(&sc.c, "c", sc.c, "fig7, fig8, optimal: cache size c")
	fs.IntVar(&sc.s, "s", sc.s, "fig7, fig8: exchange size s")
	ns := fs.String("ns", "500,1000,2000", "fig7, fig8: numbers of items n, comma-separated (optimal: the first)")
	fs.IntVar(&sc.W, "warmup", sc.W, "fig7, fig8: warm-up rounds")
	fs.IntVar(&sc.T, "rounds", sc.T, "fig7, fig8: rounds observed")
	fs.IntVar(&sc.R, "reps", sc.R, "fig7, fig8: replications")
	fs.IntVar(&sc.optN, "opt-N", sc.optN, "optimal: nodes N of the simulation")
	optS := fs.String("opt-s", "10,20,30,40,50,53,60,70,80,90", "optimal: exchange sizes simulated, comma-separated")
	fs.IntVar(&sc.optR, "opt-reps", sc.optR, "optimal: replications per s")
	fs.IntVar(&sc.optT, "opt-rounds", sc.optT, "optimal: rounds observed per s")
	if err := parseEnv(fs, e, args[1:]); err != nil {
		return err
	}
	var err error
	if sc.ns, err = intList("--ns", *ns); err != nil {
		return err
	}
	if sc.optS, err = intList("--opt-s", *optS); err != nil {
		return err
	}
	fig4c, err := intList("--cs", *cs)
	if err != nil {
		return err
	}
	fig4s, err := intList("--ss", *ss)
	if err != nil {
		return err
	}
	for _, n := range sc.ns {
		if cfg := (sim.Config{Nodes: sc.N, Items: n, Cache: sc.c, Exchange: sc.s, Warmup: sc.W, Rounds: sc.T, Reps: sc.R, Initial: 1}); fig != "fig4" {
			if err := cfg.Validate(*workers); err != nil {
				return usagef("%v", err)
			}
		}
	}
	switch {
	case *workers < 1 || *workers > 4096:
		return usagef("--workers %d: valid range 1..4096", *workers)
	case sc.fig4Step < 1 || sc.fig4NMax < 2:
		return usagef("--n-max %d, --step %d: need n-max ≥ 2 and step ≥ 1", sc.fig4NMax, sc.fig4Step)
	case sc.optR < 1 || sc.optT < 1 || sc.optN < 2:
		return usagef("--opt-reps, --opt-rounds ≥ 1 and --opt-N ≥ 2")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return usagef("--out %s: cannot create the directory: %v", *out, err)
	}
	tmp, err := os.MkdirTemp(*out, ".plot-")
	if err != nil {
		return usagef("--out %s: directory is not writable: %v", *out, err)
	}
	defer os.RemoveAll(tmp)
	r := &reproduction{ctx: ctx, e: e, sc: sc, seed: *seed, workers: *workers, dir: tmp, start: time.Now(), fig4C: fig4c, fig4S: fig4s}
	switch fig {
	case "fig4":
		err = r.dropProbability()
	case "fig7", "fig8":
		err = r.replicationCoverage()
	case "optimal":
		err = r.optimal()
	}
	if err != nil {
		return err
	}
	for _, ext := range []string{".png", ".svg"} {
		if err := os.Rename(filepath.Join(tmp, fig+ext), filepath.Join(*out, fig+ext)); err != nil {
			return err
		}
	}
	fmt.Fprintf(e.stderr, "plot: wrote %s.png and %s.svg in %s\n", fig, fig, *out)
	return nil
}
