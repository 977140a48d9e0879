package sim

import (
	"fmt"
	"slices"
)

// checkRanges checks every field of a decoded part against its
// configuration: counters ≥ 0 (and hits ≤ trials, drops ≤ candidates),
// 0 ≤ x(t) ≤ y(t) ≤ N (the nodes holding d are among those that have held
// it), 0 ≤ y_round(t) ≤ y(t), y non-decreasing, x(t) = 0 only under loss
// and then for good (extinction is absorbing: x, y and y_round stay as
// they are), alive in 0..n in a lossy protocol run and 0 otherwise, and
// every replication index listed once, in increasing order.
func (p *Part) checkRanges(cfg Config) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("sim: corrupted part file: "+format, a...)
	}
	if !slices.IsSorted(p.Replications) || len(slices.Compact(slices.Clone(p.Replications))) != len(p.Replications) {
		return bad("replications %v are not listed once each in increasing order", p.Replications)
	}
	for _, rep := range p.Reps {
		if rep.Index < 0 {
			return bad("replication index %d is negative", rep.Index)
		}
		c := rep.Counters
		for _, v := range []int64{c.Shuffles, c.Failed, c.SelectTrials, c.SelectHits, c.DropCandidates, c.Drops} {
			if v < 0 {
				return bad("replication %d has a negative counter (%d)", rep.Index, v)
			}
		}
		for _, row := range c.Transitions {
			for _, v := range row {
				if v < 0 {
					return bad("replication %d has a negative transition count (%d)", rep.Index, v)
				}
			}
		}
		if c.SelectHits > c.SelectTrials || c.Drops > c.DropCandidates {
			return bad("replication %d counts more hits than trials or more drops than candidates", rep.Index)
		}
		if lossy := cfg.Model == Protocol && cfg.Loss > 0; lossy && (rep.Alive < 0 || rep.Alive > cfg.Shuffle.Items) || !lossy && rep.Alive != 0 {
			return bad("replication %d: alive = %d, want 0..n = %d in a lossy protocol run and absent otherwise", rep.Index, rep.Alive, cfg.Shuffle.Items)
		}
		for t := range rep.Y {
			x, y, yr := int64(rep.X[t]), int64(rep.Y[t]), int64(rep.YRound[t])
			switch {
			case y < 0 || y > int64(cfg.Nodes):
				return bad("replication %d: y(%d) = %d outside 0..N = %d", rep.Index, t, y, cfg.Nodes)
			case x < 0 || x > y:
				return bad("replication %d: x(%d) = %d outside 0..y = %d", rep.Index, t, x, y)
			case yr < 0 || yr > y:
				return bad("replication %d: y_round(%d) = %d outside 0..y = %d", rep.Index, t, yr, y)
			case t > 0 && y < int64(rep.Y[t-1]):
				return bad("replication %d: y decreases at t = %d", rep.Index, t)
			case x == 0 && cfg.Loss == 0:
				return bad("replication %d: x(%d) = 0 in a lossless run, where d cannot die", rep.Index, t)
			case t > 0 && rep.X[t-1] == 0 && (x != 0 || y != int64(rep.Y[t-1]) || yr != int64(rep.YRound[t-1])):
				return bad("replication %d: d extinct at t = %d comes back or is counted again at t = %d", rep.Index, t-1, t)
			}
		}
	}
	return nil
}

// checkMergeable refuses parts of one experiment that disagree on a field
// outside the configuration (whether the topology is connected).
func checkMergeable(parts []*Part, names []string) error {
	if len(names) < len(parts) {
		return &MergeError{Pkg: "sim", Msg: fmt.Sprintf("%d names for %d parts", len(names), len(parts))}
	}
	for i, p := range parts {
		if p == nil {
			return &MergeError{Pkg: "sim", Msg: fmt.Sprintf("%s: no part (nil)", names[i])}
		}
		if p.Connected != parts[0].Connected {
			return &MergeError{Pkg: "sim", Msg: fmt.Sprintf("%s and %s disagree on whether the topology is connected: corrupted or from different builds", names[0], names[i])}
		}
	}
	return nil
}
