package report

import "fmt"

// check returns an error for a Scale that the figures named (all of them
// when none is named) cannot be computed with: empty lists of sizes and
// counts below 1 (the zero Scale made Run and Plot("optimal") index empty
// slices). The values themselves are checked by the packages that use
// them (sim.Config.Validate and the others).
func (sc Scale) check(figs ...string) error {
	all := len(figs) == 0
	need := func(f string) bool {
		if all {
			return true
		}
		for _, g := range figs {
			if g == f {
				return true
			}
		}
		return false
	}
	bad := func(field string, v any) error {
		return fmt.Errorf("report: Scale.%s = %v: must be ≥ 1 (a list: not empty, every value ≥ 1)", field, v)
	}
	positive := func(v []int) bool {
		for _, x := range v {
			if x < 1 {
				return false
			}
		}
		return len(v) > 0
	}
	if need("fig4") && (sc.Fig4Step < 1 || sc.Fig4NMax < 1) {
		return bad("Fig4Step/Fig4NMax", [2]int{sc.Fig4Step, sc.Fig4NMax})
	}
	if need("fig7") || need("fig8") {
		for f, v := range map[string]int{"Nodes": sc.Nodes, "Cache": sc.Cache, "Exchange": sc.Exchange, "Rounds": sc.Rounds, "Reps": sc.Reps} {
			if v < 1 {
				return bad(f, v)
			}
		}
		if !positive(sc.Ns) {
			return bad("Ns", sc.Ns)
		}
	}
	if need("optimal") {
		for f, v := range map[string]int{"Cache": sc.Cache, "OptNodes": sc.OptNodes, "OptRounds": sc.OptRounds, "OptReps": sc.OptReps} {
			if v < 1 {
				return bad(f, v)
			}
		}
		if !positive(sc.Ns) {
			return bad("Ns", sc.Ns)
		}
		if !positive(sc.OptS) {
			return bad("OptS", sc.OptS)
		}
	}
	if all {
		for f, v := range map[string]int{"ProveS": sc.ProveS, "MarkovReps": sc.MarkovReps, "TreeSeeds": sc.TreeSeeds, "GossipTreeFailNodes": sc.GossipTreeFailNodes} {
			if v < 1 {
				return bad(f, v)
			}
		}
		if !positive(sc.GossipTreeNs) {
			return bad("GossipTreeNs", sc.GossipTreeNs)
		}
		if len(sc.Refined) == 0 {
			return bad("Refined", "[]")
		}
	}
	return nil
}
