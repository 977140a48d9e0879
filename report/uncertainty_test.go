package report

import (
	"context"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/sim"
)

func TestGradeInterval(t *testing.T) {
	t.Parallel()
	// The thresholds of the take-off share: 0.95 holds, 0.68 qualified.
	for _, c := range []struct {
		name      string
		v         float64
		iv        Interval
		want      string
		straddled float64
	}{
		{"wholly above 0.95", 0.98, Interval{0.96, 1}, holds, math.NaN()},
		{"at 0.95 exactly counts as above", 0.97, Interval{0.95, 1}, holds, math.NaN()},
		{"between the thresholds", 0.8, Interval{0.7, 0.9}, qualified, math.NaN()},
		{"wholly below 0.68", 0.3, Interval{0.1, 0.5}, fails, math.NaN()},
		{"across 0.95", 0.94, Interval{0.9, 0.99}, undecided, 0.95},
		{"across 0.68", 0.63, Interval{0.5, 0.75}, undecided, 0.68},
		{"across both, nearer 0.68", 0.7, Interval{0.2, 1}, undecided, 0.68},
		{"across both, nearer 0.95", 0.9, Interval{0.2, 1}, undecided, 0.95},
		{"no interval", math.NaN(), Interval{math.NaN(), math.NaN()}, unchecked, math.NaN()},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, th := gradeInterval(c.v, c.iv, sdShareHolds, sdShareQualified)
			if got != c.want || !(th == c.straddled || math.IsNaN(th) && math.IsNaN(c.straddled)) {
				t.Errorf("gradeInterval(%g, %v) = %q, %g; want %q, %g", c.v, c.iv, got, th, c.want, c.straddled)
			}
		})
	}
}

func TestRepsToDecide(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		R    int
		v    float64
		iv   Interval
		th   float64
		want float64
	}{
		// Half-width 0.2 at R = 10, 0.1 from the threshold: the half-width
		// must halve, R·(0.2/0.1)² = 40.
		{"half-width twice the distance", 10, 0.6, Interval{0.4, 0.8}, 0.7, 40},
		// Already nearly clear: at least one more replication.
		{"nearly clear", 10, 0.6, Interval{0.55, 0.65}, 0.64, 10 * (0.05 / 0.04) * (0.05 / 0.04)},
		{"at the threshold", 10, 0.7, Interval{0.6, 0.8}, 0.7, math.Inf(1)},
		{"beyond the bound", 10, 0.7001, Interval{0.2, 1.2}, 0.7, math.Inf(1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := c.want
			if !math.IsInf(want, 1) {
				want = math.Max(math.Ceil(want-1e-9), float64(c.R+1))
			}
			if got := repsToDecide(c.R, c.v, c.iv, c.th); got != want {
				t.Errorf("repsToDecide = %g, want %g", got, want)
			}
		})
	}
}

// TestBootstrapMinShare checks the bootstrap on cases whose interval is
// known without sampling: identical replications on the model (every
// resample has mean = model and sd = 0: share 1 whatever is drawn), a
// model far from every replication (share 0), and the minimum over cases
// (the smaller case's share).
func TestBootstrapMinShare(t *testing.T) {
	t.Parallel()
	const N, T = 100, 20
	curve := func(f func(t int) int32) []int32 {
		c := make([]int32, T+1)
		for t := range c {
			c[t] = f(t)
		}
		return c
	}
	on := curve(func(t int) int32 { return int32(5 * t) })
	model := make([]float64, T+1)
	for t := range model {
		model[t] = float64(5*t) / N
	}
	far := make([]float64, T+1)
	for t := range far {
		far[t] = model[t] + 0.5
	}
	reps := make([][]int32, minBootReps)
	for i := range reps {
		reps[i] = on
	}
	same := shareCase{reps: reps, model: model, from: 2, to: 18, nodes: N, tol: 0.5 / N}
	off := same
	off.model = far
	if iv := bootstrapMinShare([]shareCase{same}, 1); iv != (Interval{1, 1}) {
		t.Errorf("identical replications on the model: interval %v, want [1, 1]", iv)
	}
	if iv := bootstrapMinShare([]shareCase{off}, 1); iv != (Interval{0, 0}) {
		t.Errorf("model 0.5 away from every replication: interval %v, want [0, 0]", iv)
	}
	if iv := bootstrapMinShare([]shareCase{same, off}, 1); iv != (Interval{0, 0}) {
		t.Errorf("minimum over cases: interval %v, want [0, 0]", iv)
	}
	// Warm states: singletons are the one-by-one bootstrap, draw for draw
	// (a mixed case, whose interval is not a single point); fewer than
	// minBootReps groups give no bound; groups of identical replications
	// on the model still give [1, 1].
	mixed := same
	mixed.reps = slices.Clone(reps)
	for i := range mixed.reps {
		mixed.reps[i] = curve(func(t int) int32 { return int32(5*t + (i%3-1)*t/2) })
	}
	single := mixed
	for i := range single.reps {
		single.groups = append(single.groups, []int{i})
	}
	if a, b := bootstrapMinShare([]shareCase{mixed}, 1), bootstrapMinShare([]shareCase{single}, 1); a != b || a.Lo == a.Hi {
		t.Errorf("singleton groups: interval %v, one by one %v (want equal, and not a point)", b, a)
	}
	grouped := same
	grouped.groups = [][]int{{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}}
	if iv := bootstrapMinShare([]shareCase{grouped}, 1); iv != (Interval{0, 1}) {
		t.Errorf("5 warm states: interval %v, want [0, 1]", iv)
	}
	grouped.reps = append(slices.Clone(reps), reps...)
	grouped.groups = nil
	for i := range minBootReps {
		grouped.groups = append(grouped.groups, []int{2 * i, 2*i + 1})
	}
	if iv := bootstrapMinShare([]shareCase{grouped}, 1); iv != (Interval{1, 1}) {
		t.Errorf("10 warm states on the model: interval %v, want [1, 1]", iv)
	}
	// Fewer than minBootReps replications: no bound.
	few := same
	few.reps = few.reps[:minBootReps-1]
	if iv := bootstrapMinShare([]shareCase{few}, 1); iv != (Interval{0, 1}) {
		t.Errorf("%d replications: interval %v, want [0, 1]", len(few.reps), iv)
	}
}

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
			if coarse && strings.Contains(v.Rule, "growth distance δ") && (c == qualified || c == undecided) {
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
	sc.Nodes, sc.Cache, sc.Exchange, sc.Ns, sc.Rounds, sc.Reps = 500, 100, 50, []int{500}, 200, minBootReps
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

// TestTCrit checks the Student t critical values against closed forms of
// its quantile: with 1 degree of freedom (Cauchy) t_p = tan(π(p − ½)), with
// 2, t_p = (2p − 1)/√(2p(1 − p)); p = Φ(z) for the level of z normal
// standard errors (Φ(2) = 0.977249868, Φ(3) = 0.998650102, from the
// error function).
func TestTCrit(t *testing.T) {
	t.Parallel()
	cauchy := func(p float64) float64 { return math.Tan(math.Pi * (p - 0.5)) }
	two := func(p float64) float64 { return (2*p - 1) / math.Sqrt(2*p*(1-p)) }
	for _, c := range []struct {
		name string
		z    float64
		n    int
		want float64
	}{
		{"z = 2, 2 values", 2, 2, cauchy(0.977249868)},
		{"z = 2, 3 values", 2, 3, two(0.977249868)},
		{"z = 3, 3 values", 3, 3, two(0.998650102)},
	} {
		t.Run(c.name, func(t *testing.T) {
			// 1e-6 relative: the quantile is inverted numerically by
			// gonum, and Φ is given to 9 digits here.
			if got := tCrit(c.z, c.n); math.Abs(got-c.want) > 1e-6*c.want {
				t.Errorf("tCrit(%g, %d) = %.9g, want %.9g", c.z, c.n, got, c.want)
			}
		})
	}
	if !math.IsNaN(tCrit(2, 1)) {
		t.Error("one value has no t interval")
	}
	// Many values: the normal law's z.
	if got := tCrit(2, 1<<30); math.Abs(got-2) > 1e-6 {
		t.Errorf("tCrit(2, 2^30) = %g, want 2", got)
	}
}

// TestTransitionsByRep: two replications whose only shuffles start in
// state 01, with counts to 01, 10, 11 of (80, 5, 15) and (70, 10, 20). The
// pooled frequencies are 150/200, 15/200, 35/200; the ratio estimator's
// standard errors, √(2/1 · Σ (c_r − f·m_r)²)/200, are √(2·(5² + 5²))/200 =
// 0.05 for 01 and √(2·(2.5² + 2.5²))/200 = 0.025 for 10 and 11 (by hand).
func TestTransitionsByRep(t *testing.T) {
	t.Parallel()
	cfg := sim.DefaultConfig()
	res := &sim.Result{Config: cfg, Reps: []sim.Replication{
		{Counters: sim.Counters{Transitions: [4][4]int64{1: {0, 80, 5, 15}}}},
		{Counters: sim.Counters{Transitions: [4][4]int64{1: {0, 70, 10, 20}}}},
	}}
	model := res.Measure().TransModel
	f := []float64{0, 0.75, 0.075, 0.175}
	se := []float64{0, 0.05, 0.025, 0.025}
	var wantDiff, wantZ float64
	for j := 1; j < 4; j++ {
		d := math.Abs(f[j] - model[1][j])
		wantDiff, wantZ = math.Max(wantDiff, d), math.Max(wantZ, d/se[j])
	}
	got := transitionsByRep(res, model)
	// 1e-12: sums of a few hundred integers and one square root.
	if math.Abs(got.MaxDiff-wantDiff) > 1e-12 || math.Abs(got.MaxZ-wantZ) > 1e-9 {
		t.Errorf("transitionsByRep = %+v, want MaxDiff %g, MaxZ %g", got, wantDiff, wantZ)
	}
}
