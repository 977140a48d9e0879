package tree

import (
	"fmt"
	"math"
)

// checkRanges checks every field of a decoded tree part: the experiment
// is valid, every seed index is listed once, and every metric is in its
// range (counts ≥ 0, at most N nodes, depth < N, finite non-negative
// times, no failures or repair counts in build metrics).
func (p *Part) checkRanges() error {
	if err := p.Exp.Validate(); err != nil {
		return fmt.Errorf("tree: bad experiment in part file: %v", err)
	}
	seen := map[int]bool{}
	N := p.Exp.Cfg.Nodes
	for _, r := range p.Results {
		if seen[r.Index] || r.Index < 0 {
			return fmt.Errorf("tree: corrupted part file: seed %d listed twice or negative", r.Index)
		}
		seen[r.Index] = true
		ms := []*Metrics{&r.Build}
		if r.Repair != nil {
			ms = append(ms, r.Repair)
		}
		for i, m := range ms {
			if err := m.check(N, i == 0); err != nil {
				return fmt.Errorf("tree: corrupted part file: seed %d: %v", r.Index, err)
			}
		}
	}
	return nil
}

func (m *Metrics) check(N int, build bool) error {
	tr := m.Traffic
	if tr.LookupMessages < 0 {
		return fmt.Errorf("a negative count (%d)", tr.LookupMessages)
	}
	for _, v := range []int{m.Nodes, m.Depth, m.MessagesMax, m.Failed, m.RepairMsgs, m.JoinRequests, m.MessagesTotal, m.Lookups, tr.Join, tr.Break, tr.Election, tr.Changes, tr.Refresh, tr.Lookups} {
		if v < 0 {
			return fmt.Errorf("a negative count (%d)", v)
		}
	}
	if m.Pings < 0 {
		return fmt.Errorf("a negative ping count (%d)", m.Pings)
	}
	for _, v := range []float64{m.MessagesMean, m.PropagationMs, m.Reach99Ms, m.ReconnectMs} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("a time or mean %g that is not finite and ≥ 0", v)
		}
	}
	switch {
	case m.Nodes > N || m.Failed > N:
		return fmt.Errorf("%d nodes, %d failed: at most N = %d", m.Nodes, m.Failed, N)
	case m.Depth >= max(N, 1):
		return fmt.Errorf("depth %d: at most N − 1 = %d", m.Depth, N-1)
	case m.MessagesMax > m.MessagesTotal:
		return fmt.Errorf("messages_max %d > messages_total %d", m.MessagesMax, m.MessagesTotal)
	case build && (m.Failed != 0 || m.RepairMsgs != 0 || m.Pings != 0 || m.ReconnectMs != 0 || tr != RepairTraffic{}):
		return fmt.Errorf("build metrics with failures or repair counts")
	}
	return nil
}

// checkMergeable refuses a call whose names do not label every part.
func checkMergeable(parts []*Part, names []string) error {
	if len(names) < len(parts) {
		return &MergeError{Pkg: "tree", Msg: fmt.Sprintf("%d names for %d parts", len(names), len(parts))}
	}
	for i, p := range parts {
		if p == nil {
			return &MergeError{Pkg: "tree", Msg: fmt.Sprintf("%s: no part (nil)", names[i])}
		}
	}
	return nil
}
