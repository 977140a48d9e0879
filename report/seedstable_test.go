package report

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/report/internal/claim"
)

// seedStable runs the sections whose verdicts rest on Monte Carlo (3 and 4,
// the protocol runs of Figs. 7–8; 6, the replication optimum; 8, the tree;
// 12, the protocol on a real network)
// at sc with each seed and checks that the verdict column is the same for
// every seed.
//
// With coarse, a growth-distance verdict is compared by class only: holds,
// does not hold, or neither ("holds with a qualification" and "undecided
// at this scale" alike). At 10–20 runs a band of |δ| has a half-width of
// about 1.3, so where |δ̂| is small its upper end falls on either side of
// 2 by the noise of a seed, between qualified (within 2 sd shown) and
// undecided (measured 2026-12-06: seeds 3 and 4 of TestVerdictsSeedStable
// moved Fig. 8 per event, the complete graph and the loss clock); the
// quick scale's runs keep it clear of 2 (seeds 1–3 identical on every
// row, `gossipkit reproduce`), and TestVerdictsSeedStableQuick compares
// every verdict whole.
func seedStable(t *testing.T, sc Scale, seeds []uint64, coarse bool) {
	t.Helper()
	var first []string
	for _, seed := range seeds {
		sc.Seed = seed
		s := NewStudy(sc, Options{Workers: 2})
		var vs []Verdict
		f, err := s.Fig78(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		vs = append(append(vs, f.replicationVerdicts()...), f.coverageVerdicts()...)
		o, err := s.optimalFigure(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, o.Verdicts()[0])
		tr, err := s.Tree(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, tr.Verdicts()...)
		nw, err := s.Network(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, nw.Verdicts()...)
		var col []string
		for _, v := range vs {
			c := v.Verdict
			if coarse && strings.Contains(v.Rule, "growth distance δ") && (c == claim.Qualified || c == claim.Undecided) {
				c = "neither holds nor fails"
			}
			col = append(col, c)
			t.Logf("seed %d: %s: %s (%s)", seed, v.Claim, v.Verdict, v.Measured)
		}
		if first == nil {
			first = col
			continue
		}
		if !slices.Equal(col, first) {
			t.Errorf("seed %d: verdicts %q, seed %d: %q", seed, col, seeds[0], first)
		}
	}
}

// TestVerdictsSeedStable: at a small scale the verdicts are the same for
// seeds 1–5 (logged with their measurements). A verdict decided by the
// noise of one seed would differ between them.
func TestVerdictsSeedStable(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three sections five times")
	}
	// The quick scale's shuffle (c = 100, s = 50, n = 500) on 500 nodes
	// over 200 rounds (every run's coverage complete), with its 10
	// replications (the fewest the bootstrap takes); the optimum on 200
	// nodes with 5 runs per s around s* = 52.79; the tree with 3 seeds (15
	// for Table I); the partial views with 20 runs of 10 + 200 rounds (at
	// N = 500 the torus slows coverage by 1.3 times only, and 10 runs leave
	// its interval across 1.05 in some seeds), the protocol with loss with
	// 20 and the uniformity with 10.
	sc := tiny()
	sc.Nodes, sc.Cache, sc.Exchange, sc.Ns, sc.Rounds, sc.Reps = 500, 100, 50, []int{500}, 200, claim.MinBootReps
	sc.OptNodes, sc.OptS, sc.OptRounds, sc.OptReps = 200, []int{30, 53, 70}, 150, 5
	sc.TreeSeeds = 3
	sc.NetReps, sc.LossReps = 20, 20
	// Every replication warms its own caches, as when these seeds were
	// checked: with two replications a warm state (tiny's), seed 4 turned
	// "Fig. 8, snapshot coverage within one sd in the take-off" from
	// undecided to does not hold (bootstrap interval 0–64 % over 10
	// replications), either by the new draws or because a bootstrap over
	// replications sharing warm states is too narrow if ρ > 0 (not measured
	// at N = 500).
	sc.RepsPerWarm = 0
	seedStable(t, sc, []uint64{1, 2, 3, 4, 5}, true)
}

// TestVerdictsSeedStableQuick checks the same at the default (quick) scale:
// about 6 CPU-minutes, so it runs only with GOSSIPKIT_SEED_STABILITY=quick.
func TestVerdictsSeedStableQuick(t *testing.T) {
	if os.Getenv("GOSSIPKIT_SEED_STABILITY") != "quick" {
		t.Skip("set GOSSIPKIT_SEED_STABILITY=quick (about 6 CPU-minutes)")
	}
	seedStable(t, Quick(), []uint64{1, 2, 3, 4, 5}, false)
}
