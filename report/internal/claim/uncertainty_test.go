package claim

import (
	"math"
	"slices"
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
		{"wholly above 0.95", 0.98, Interval{0.96, 1}, Holds, math.NaN()},
		{"at 0.95 exactly counts as above", 0.97, Interval{0.95, 1}, Holds, math.NaN()},
		{"between the thresholds", 0.8, Interval{0.7, 0.9}, Qualified, math.NaN()},
		{"wholly below 0.68", 0.3, Interval{0.1, 0.5}, Fails, math.NaN()},
		{"across 0.95", 0.94, Interval{0.9, 0.99}, Undecided, 0.95},
		{"across 0.68", 0.63, Interval{0.5, 0.75}, Undecided, 0.68},
		{"across both, nearer 0.68", 0.7, Interval{0.2, 1}, Undecided, 0.68},
		{"across both, nearer 0.95", 0.9, Interval{0.2, 1}, Undecided, 0.95},
		{"no interval", math.NaN(), Interval{math.NaN(), math.NaN()}, Unchecked, math.NaN()},
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
	reps := make([][]int32, MinBootReps)
	for i := range reps {
		reps[i] = on
	}
	same := ShareCase{reps: reps, model: model, from: 2, to: 18, nodes: N, tol: 0.5 / N}
	off := same
	off.model = far
	if iv := BootstrapMinShare([]ShareCase{same}, 1); iv != (Interval{1, 1}) {
		t.Errorf("identical replications on the model: interval %v, want [1, 1]", iv)
	}
	if iv := BootstrapMinShare([]ShareCase{off}, 1); iv != (Interval{0, 0}) {
		t.Errorf("model 0.5 away from every replication: interval %v, want [0, 0]", iv)
	}
	if iv := BootstrapMinShare([]ShareCase{same, off}, 1); iv != (Interval{0, 0}) {
		t.Errorf("minimum over cases: interval %v, want [0, 0]", iv)
	}
	// Warm states: singletons are the one-by-one bootstrap, draw for draw
	// (a mixed case, whose interval is not a single point); fewer than
	// MinBootReps groups give no bound; groups of identical replications
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
	if a, b := BootstrapMinShare([]ShareCase{mixed}, 1), BootstrapMinShare([]ShareCase{single}, 1); a != b || a.Lo == a.Hi {
		t.Errorf("singleton groups: interval %v, one by one %v (want equal, and not a point)", b, a)
	}
	grouped := same
	grouped.groups = [][]int{{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}}
	if iv := BootstrapMinShare([]ShareCase{grouped}, 1); iv != (Interval{0, 1}) {
		t.Errorf("5 warm states: interval %v, want [0, 1]", iv)
	}
	grouped.reps = append(slices.Clone(reps), reps...)
	grouped.groups = nil
	for i := range MinBootReps {
		grouped.groups = append(grouped.groups, []int{2 * i, 2*i + 1})
	}
	if iv := BootstrapMinShare([]ShareCase{grouped}, 1); iv != (Interval{1, 1}) {
		t.Errorf("10 warm states on the model: interval %v, want [1, 1]", iv)
	}
	// Fewer than MinBootReps replications: no bound.
	few := same
	few.reps = few.reps[:MinBootReps-1]
	if iv := BootstrapMinShare([]ShareCase{few}, 1); iv != (Interval{0, 1}) {
		t.Errorf("%d replications: interval %v, want [0, 1]", len(few.reps), iv)
	}
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
			if got := TCrit(c.z, c.n); math.Abs(got-c.want) > 1e-6*c.want {
				t.Errorf("tCrit(%g, %d) = %.9g, want %.9g", c.z, c.n, got, c.want)
			}
		})
	}
	if !math.IsNaN(TCrit(2, 1)) {
		t.Error("one value has no t interval")
	}
	// Many values: the normal law's z.
	if got := TCrit(2, 1<<30); math.Abs(got-2) > 1e-6 {
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
	got := TransitionsByRep(res, model)
	// 1e-12: sums of a few hundred integers and one square root.
	if math.Abs(got.MaxDiff-wantDiff) > 1e-12 || math.Abs(got.MaxZ-wantZ) > 1e-9 {
		t.Errorf("transitionsByRep = %+v, want MaxDiff %g, MaxZ %g", got, wantDiff, wantZ)
	}
}
