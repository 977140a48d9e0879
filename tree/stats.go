package tree

import (
	"context"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/internal/stats"
)

// Stat is a mean and sample standard deviation over seeds.
type Stat struct {
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
}

func (s Stat) String() string { return fmt.Sprintf("%.4g ± %.2g", s.Mean, s.SD) }

// MeanSD returns the mean and sd (tables print them as two CSV columns).
func (s Stat) MeanSD() (mean, sd float64) { return s.Mean, s.SD }

// StatOf summarises values in the order given (the order fixes the float
// rounding, so a merge that restores seed order reproduces it exactly).
func StatOf(v []float64) Stat {
	if len(v) == 0 {
		return Stat{Mean: math.NaN(), SD: math.NaN()}
	}
	m, sd := stats.MeanSD(v)
	return Stat{Mean: m, SD: sd}
}

// SeedResult is one seed's outcome: the built tree's metrics and, for a
// failure experiment, the repaired tree's.
type SeedResult struct {
	Index  int      `json:"index"`
	Build  Metrics  `json:"build"`
	Repair *Metrics `json:"repair,omitempty"`
}

// RunSeed builds the tree of cfg with seed base + index and, if fail is
// true, fails cfg.FailFraction of it and repairs it.
func RunSeed(ctx context.Context, cfg Config, base uint64, index int, fail bool) (SeedResult, error) {
	cfg.Seed = base + uint64(index)
	s, b, err := Build(ctx, cfg)
	if err != nil {
		return SeedResult{}, err
	}
	r := SeedResult{Index: index, Build: b}
	if fail {
		m, err := s.Fail(cfg.FailFraction, cfg.Repair, cfg.Elect)
		if err != nil {
			return r, err
		}
		r.Repair = &m
	}
	return r, nil
}

// ReachWithFailures fails a share of the nodes other than the root at the
// moment the root sends a notification, with no time for repair, and
// returns the share of the surviving nodes that receive it (those whose
// every ancestor survived). The tree itself is left unchanged.
//
// It is NaN for a Sim that New did not make or a fraction outside [0, 1].
func (s *Sim) ReachWithFailures(fraction float64) float64 {
	if s.built() != nil || !(fraction >= 0 && fraction <= 1) {
		return math.NaN()
	}
	n := len(s.id)
	k := int(fraction*float64(n) + 0.5)
	var cand []int32
	for v := range n {
		if int32(v) != s.root && s.alive[v] {
			cand = append(cand, int32(v))
		}
	}
	k = min(k, len(cand))
	dead := make([]bool, n)
	for i := 0; i < k; i++ {
		j := i + int(s.r.Intn(uint32(len(cand)-i)))
		cand[i], cand[j] = cand[j], cand[i]
		dead[cand[i]] = true
	}
	reached := 0
	stack := []int32{s.root}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		reached++
		for _, c := range s.children[v] {
			if s.alive[c] && !dead[c] && s.parent[c] == v {
				stack = append(stack, c)
			}
		}
	}
	return float64(reached) / float64(n-k)
}
