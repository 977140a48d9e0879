package main

import (
	"slices"

	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/cli"
	"github.com/gossipkit/gossipkit/report"
	"github.com/gossipkit/gossipkit/sim"
)

// plotInputs checks what the figure's compute step needs, before any
// work; the libraries' field errors name the flags cmdPlot binds.
func plotInputs(fig string, sc report.Scale, workers int) error {
	if err := cli.CheckWorkers(workers); err != nil {
		return err
	}
	switch fig {
	case "fig4":
		if sc.Fig4Step < 1 || sc.Fig4NMax < 2 || sc.Fig4NMax > 1_000_000 || sc.Fig4NMax/sc.Fig4Step > 100_000 {
			return usagef("--n-max %d, --step %d: need 2 ≤ n-max ≤ 10^6, step ≥ 1 and at most 10^5 points a curve", sc.Fig4NMax, sc.Fig4Step)
		}
		return fig4Curves(sc)
	case "optimal":
		if len(sc.Ns) == 0 || sc.Cache < 1 || sc.Cache >= sc.Ns[0] {
			return usagef("-c %d, --ns %v: the optimum needs 1 ≤ c < n (n: the first of --ns)", sc.Cache, sc.Ns)
		}
		if slices.Max(sc.OptS) >= sc.Cache {
			return usagef("--opt-s %v: every s must be < c = %d", sc.OptS, sc.Cache)
		}
		sh := gossip.Shuffle{Items: sc.Ns[0], Cache: sc.Cache, Exchange: 1}
		if err := (chain.Config{Nodes: sc.OptNodes, Shuffle: sh, Level: 0.99, TMax: 1, Dt: 1}).Validate(); err != nil {
			return err
		}
		return checkSimConfig(sim.Config{Nodes: sc.OptNodes, Shuffle: sh, Rounds: sc.OptRounds, Reps: sc.OptReps, Initial: 1}, workers)
	}
	for _, n := range sc.Ns { // fig7, fig8
		cfg := sim.Config{Nodes: sc.Nodes, Shuffle: gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sc.Exchange}, Warmup: sc.Warmup, Rounds: sc.Rounds, Reps: sc.Reps, Initial: 1}
		if err := checkSimConfig(cfg, workers); err != nil {
			return err
		}
	}
	return nil
}

// plotFields binds the fields the figure's configurations name to the
// flags that set them.
func plotFields(fs *cli.FlagSet, fig string) {
	binds := [][2]string{{"Config.Shuffle.Cache", "c"}, {"Config.Shuffle.Items", "ns"}}
	if fig == "optimal" {
		binds = append(binds, [2]string{"Config.Nodes", "opt-N"}, [2]string{"Config.Reps", "opt-reps"}, [2]string{"Config.Rounds", "opt-rounds"})
	} else {
		binds = append(binds, [2]string{"Config.Nodes", "N"}, [2]string{"Config.Shuffle.Exchange", "s"}, [2]string{"Config.Warmup", "warmup"},
			[2]string{"Config.Rounds", "rounds"}, [2]string{"Config.Reps", "reps"})
	}
	for _, b := range binds {
		fs.Bind(b[0], b[1])
	}
}

// fig4Curves refuses, before any work, a Fig. 4 with no curve to draw: a
// curve (c, s) needs s ≤ c (and s ≤ exact.MaxS) and at least one n from
// c + step to n-max. It names the flags.
func fig4Curves(sc report.Scale) error {
	for _, s := range sc.Fig4S {
		if s < 1 || s > exact.MaxS {
			return usagef("--ss %d: valid range 1..%d", s, exact.MaxS)
		}
	}
	for _, c := range sc.Fig4C {
		if c < 1 {
			return usagef("--cs %d: cache sizes must be ≥ 1", c)
		}
	}
	for _, c := range sc.Fig4C {
		for _, s := range sc.Fig4S {
			if s <= c && c+sc.Fig4Step <= sc.Fig4NMax {
				return nil
			}
		}
	}
	return usagef("--cs, --ss, --n-max, --step: no curve to draw (each needs s ≤ c and c + step ≤ n-max; got cs %v, ss %v, n-max %d, step %d)", sc.Fig4C, sc.Fig4S, sc.Fig4NMax, sc.Fig4Step)
}
