package report

import (
	"slices"

	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/sim"
)

// CheckFigure returns an error, before any work, for a Scale with which
// Plot cannot draw the figure fig with `workers` replications in flight:
// Fig. 4's sizes (Scale.Fig4S in 1..exact.MaxS, Scale.Fig4C ≥ 1, at most
// 10^5 points a curve and at least one curve to draw), the optimum's
// c < n, and every configuration the figure runs, by its own package's
// Validate and, for the simulations, sim.Config.CheckMemory against
// sim.AvailableMemory. An invalid field is a *fielderr.Error naming
// Scale's field(s) (Scale.Fig4S) or the configuration's (Config.Nodes).
// An unknown fig passes (Plot refuses it).
func (sc Scale) CheckFigure(fig string, workers int) error {
	f := func(field, format string, a ...any) error { return fielderr.New("report", field, format, a...) }
	simOK := func(cfg sim.Config) error { return cfg.CheckMemory(max(workers, 1), sim.AvailableMemory()) }
	switch fig {
	case "fig4":
		if sc.Fig4Step < 1 || sc.Fig4NMax < 2 || sc.Fig4NMax > 1_000_000 || sc.Fig4NMax/sc.Fig4Step > 100_000 {
			return f("Scale.Fig4NMax, Scale.Fig4Step", "need 2 ≤ Fig4NMax ≤ 10^6, Fig4Step ≥ 1 and at most 10^5 points a curve (got %d, %d)", sc.Fig4NMax, sc.Fig4Step)
		}
		for _, s := range sc.Fig4S {
			if s < 1 || s > exact.MaxS {
				return f("Scale.Fig4S", "%d: valid range 1..%d", s, exact.MaxS)
			}
		}
		for _, c := range sc.Fig4C {
			if c < 1 {
				return f("Scale.Fig4C", "%d: cache sizes must be ≥ 1", c)
			}
		}
		for _, c := range sc.Fig4C {
			for _, s := range sc.Fig4S {
				if s <= c && c+sc.Fig4Step <= sc.Fig4NMax {
					return nil
				}
			}
		}
		return f("Scale.Fig4C, Scale.Fig4S, Scale.Fig4NMax, Scale.Fig4Step", "give no curve to draw (each (c, s) needs s ≤ c and c + Fig4Step ≤ Fig4NMax; got Fig4C %v, Fig4S %v, Fig4NMax %d, Fig4Step %d)", sc.Fig4C, sc.Fig4S, sc.Fig4NMax, sc.Fig4Step)
	case "optimal":
		if len(sc.Ns) == 0 || sc.Cache < 1 || sc.Cache >= sc.Ns[0] {
			return f("Scale.Cache, Scale.Ns", "need 1 ≤ Cache < Ns[0] for the optimum (got %d, %v)", sc.Cache, sc.Ns)
		}
		if len(sc.OptS) == 0 || slices.Max(sc.OptS) >= sc.Cache {
			return f("Scale.OptS", "%v: every s must be < c = %d", sc.OptS, sc.Cache)
		}
		sh := gossip.Shuffle{Items: sc.Ns[0], Cache: sc.Cache, Exchange: 1}
		if err := (chain.Config{Nodes: sc.OptNodes, Shuffle: sh, Level: 0.99, TMax: 1, Dt: 1}).Validate(); err != nil {
			return err
		}
		return simOK(sim.Config{Nodes: sc.OptNodes, Shuffle: sh, Rounds: sc.OptRounds, Reps: sc.OptReps, Initial: 1})
	case "fig7", "fig8":
		for _, n := range sc.Ns {
			cfg := sim.Config{Nodes: sc.Nodes, Shuffle: gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sc.Exchange}, Warmup: sc.Warmup, Rounds: sc.Rounds, Reps: sc.Reps, Initial: 1}
			if err := simOK(cfg); err != nil {
				return err
			}
		}
	}
	return nil
}
