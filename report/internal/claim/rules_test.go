package claim

import (
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/sim"
)

// Every rule at and around its thresholds, on constructed inputs.
func TestRules(t *testing.T) {
	cases := []struct {
		name string
		got  string
		want string
	}{
		// Very many replications: the critical value is 4 se.
		{"transitions within 4 se", TransRule(sim.TransitionTest{MaxDiff: 0.05, MaxZ: 4}, 1<<30), Holds},
		{"transitions beyond 4 se, small", TransRule(sim.TransitionTest{MaxDiff: 0.009, MaxZ: 4.1}, 1<<30), Qualified},
		{"transitions beyond 4 se, large", TransRule(sim.TransitionTest{MaxDiff: 0.01, MaxZ: 4.1}, 1<<30), Fails},
		// 3 replications: t(2) at the level of 4 normal se, p = Φ(4) =
		// 0.99996833, is (2p − 1)/√(2p(1 − p)) = 125.6: 10 se is not a
		// departure.
		{"transitions 10 se over 3 replications", TransRule(sim.TransitionTest{MaxDiff: 0.05, MaxZ: 10}, 3), Holds},
		// With very many replications Student's t is the normal law: 3 se.
		{"steady within 3 se", SteadyRule(3, 1<<30), Holds},
		{"steady beyond 3 se", SteadyRule(3.01, 1<<30), Fails},
		// With 3 replications (2 degrees of freedom) the critical value at
		// the level of 3 normal se, p = Φ(3) = 0.998650, is the closed form
		// (2p − 1)/√(2p(1 − p)) = 19.21: 10 se is not yet a departure.
		{"steady 10 se with 3 replications", SteadyRule(10, 3), Holds},
		{"steady 20 se with 3 replications", SteadyRule(20, 3), Fails},
		{"coverage reaches 0.99", ReachRule(Interval{0.99, 1}), Holds},
		{"coverage short of 0.99", ReachRule(Interval{0.9, 0.989}), Unchecked},
		{"coverage across 0.99", ReachRule(Interval{0.98, 1}), Undecided},
		{"|E − S| below 1e-2", NearRule(-2.01), Holds},
		{"|E − S| at 1e-2", NearRule(-2), Qualified},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.got != c.want {
				t.Errorf("%s, want %s", c.got, c.want)
			}
		})
	}
	for _, c := range []struct {
		a, b float64
		want bool
	}{{1.5, 1, true}, {1.51, 1, false}, {1, 1.5, true}, {1, 1.51, false}} {
		if got := SimilarGaps(c.a, c.b); got != c.want {
			t.Errorf("similarGaps(%v, %v) = %v", c.a, c.b, got)
		}
	}
}

func TestRulesStep2(t *testing.T) {
	cases := []struct {
		name, got, want string
	}{
		// Figures of a measured run: the best s gains 1.78 of 73 rounds (2.4 %), z = 1.87.
		{"coverage optimum small, not significant", OptimumRule(OptimumEffect{Best: 61, SStar: 52.79, GainPct: 2.4, Z: 1.87}), Qualified},
		{"coverage optimum small, significant", OptimumRule(OptimumEffect{Best: 61, SStar: 52.79, GainPct: 2.4, Z: 5}), Qualified},
		{"coverage optimum large, not significant", OptimumRule(OptimumEffect{Best: 61, SStar: 52.79, GainPct: 6, Z: 1.9}), Qualified},
		{"coverage optimum large and significant", OptimumRule(OptimumEffect{Best: 61, SStar: 52.79, GainPct: 5, Z: 2}), Fails},
		{"coverage optimum within one of s*", OptimumRule(OptimumEffect{Best: 53, SStar: 52.79, GainPct: 50, Z: 50}), Holds},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.got != c.want {
				t.Errorf("%s, want %s", c.got, c.want)
			}
		})
	}
}

func TestOptimumEffect(t *testing.T) {
	// Times 70 (sd 3) at the best s and 72 (sd 4) at s*'s integer: gain 2,
	// 2/72 = 2.78 %; with 25 runs each the difference of the means has
	// se √((9 + 16)/25) = 1, so z = 2; z = 2 needs 4·25/4 = 25 runs.
	e := EffectOf(61, 52.79, 53, 70, 3, 72, 4, 25)
	if e.Gain != 2 || math.Abs(e.GainPct-200.0/72) > 1e-12 || math.Abs(e.Z-2) > 1e-12 || math.Abs(e.RunsForZ-25) > 1e-12 {
		t.Errorf("%+v", e)
	}
	if e := EffectOf(53, 52.79, 53, 70, 3, 70, 3, 25); e.Z != 0 || !math.IsInf(e.RunsForZ, 1) {
		t.Errorf("no gain: %+v", e)
	}
}

func TestTakeOff(t *testing.T) {
	// Model 0, 0.005, 0.5, 0.995, 1: plateau 1, so the window (1 %–99 %)
	// is t = 2 only; t = 1 (0.5 %) and t = 3 (99.5 %) lie outside.
	model := []float64{0, 0.005, 0.5, 0.995, 1}
	tr := sim.Trajectory{T: []float64{0, 1, 2, 3, 4}, Mean: []float64{0, 0.2, 0.45, 0.5, 0.9}, SD: []float64{0, 0, 0.04, 0, 0}}
	// |0.5 − 0.45| = 0.05 > 0.04 + 0.001: outside.
	w := TakeOff(model, tr, 0.001)
	if w.From != 2 || w.To != 2 || w.Rounds != 1 || w.Within != 0 || math.Abs(w.Max-0.05) > 1e-15 || w.At != 2 {
		t.Errorf("%+v", w)
	}
	// With the tolerance of half a node of N = 50 (0.01): 0.05 ≤ 0.04 + 0.01.
	if w := TakeOff(model, tr, 0.01); w.Within != 1 {
		t.Errorf("with tolerance 0.01: %+v", w)
	}
	// A flat model has no take-off.
	if w := TakeOff([]float64{1, 1}, sim.Trajectory{T: []float64{0, 1}, Mean: []float64{1, 1}, SD: []float64{0, 0}}, 0); w.Rounds != 0 || !math.IsNaN(w.Within) || w.Span() != "none" {
		t.Errorf("flat: %+v", w)
	}
}

func TestClauses(t *testing.T) {
	nan := math.NaN()
	const many = 1 << 30
	cases := []struct {
		name     string
		cs       []Clause
		dir, mag Check
		want     string
	}{
		// many: so many seeds that Student's t is the normal law (the
		// interval is ± 3 se, ZDecide); the arithmetic below uses it.
		// Preservation at 50 % failures, as a tree simulation measured it
		// over 10 seeds: depth +144 ± 22.7, requests +21 ± 1.1, against the
		// document's +44.26 and +163.7. t(9) at the level of 3 normal se
		// lies between 3.5 and 4.5 (t(9) is 3.25 at 99.5 % and 4.30 at
		// 99.9 %, standard tables): depth from [42, 64] to [224, 246],
		// across 88.52 either way; requests within [16, 26], below
		// [81.85, 327.4]. The requests' magnitude is outside its
		// tolerance, so the claim holds with a qualification whatever the
		// depth's magnitude turns out to be: decided.
		{"preservation", []Clause{{Kind: Rises, Value: 144, SE: 22.7, Seeds: 10, Doc: 44.26}, {Kind: Rises, Value: 21, SE: 1.1, Seeds: 10, Doc: 163.7}}, Passed, Unresolved, Qualified},
		// The depth alone: its magnitude could be within or outside.
		{"preservation depth alone", []Clause{{Kind: Rises, Value: 144, SE: 22.7, Seeds: 10, Doc: 44.26}}, Passed, Unresolved, Undecided},
		// An unresolved direction beside a contradicted magnitude: it
		// could still contradict (does not hold) or not (qualified).
		{"unresolved direction, contradicted magnitude", []Clause{{Kind: Small, Value: 8, SE: 2, Seeds: many, Doc: nan}, {Kind: Rises, Value: 21, SE: 1.1, Seeds: 10, Doc: 163.7}}, Unresolved, none, Undecided},
		// The same requests alone: contradicted magnitude, qualified.
		{"requests below the document", []Clause{{Kind: Rises, Value: 21, SE: 1.1, Seeds: 10, Doc: 163.7}}, Passed, Contradicted, Qualified},
		// [36, 84] within [22.13, 88.52].
		{"rise as large as stated", []Clause{{Kind: Rises, Value: 60, SE: 8, Seeds: many, Doc: 44.26}}, Passed, Passed, Holds},
		// [22.7, 23.3] just within.
		{"rise just above half the document", []Clause{{Kind: Rises, Value: 23, SE: 0.1, Seeds: many, Doc: 44.26}}, Passed, Passed, Holds},
		// [19.13, 25.13] across 22.13: undecided.
		{"rise across half the document", []Clause{{Kind: Rises, Value: 22.13, SE: 1, Seeds: many, Doc: 44.26}}, Passed, Unresolved, Undecided},
		// [12, 18] below 22.13.
		{"rise below half the document", []Clause{{Kind: Rises, Value: 15, SE: 1, Seeds: many, Doc: 44.26}}, Passed, Contradicted, Qualified},
		// [−8, 28] holds 0.
		{"rise not shown", []Clause{{Kind: Rises, Value: 10, SE: 6, Seeds: many, Doc: nan}}, Unresolved, none, Undecided},
		// The same mean and se over 2 seeds: t(1) at the level of 3 se is
		// tan(π(Φ(3) − ½)) = 235.8, [−697, 717]; over many, [1, 19].
		{"a rise over 2 seeds", []Clause{{Kind: Rises, Value: 10, SE: 3, Seeds: 2, Doc: nan}}, Unresolved, none, Undecided},
		{"the same rise over many seeds", []Clause{{Kind: Rises, Value: 10, SE: 3, Seeds: many, Doc: nan}}, Passed, none, Holds},
		// [−19, −1] below 0.
		{"a fall where a rise is stated", []Clause{{Kind: Rises, Value: -10, SE: 3, Seeds: many, Doc: nan}}, Contradicted, none, Fails},
		{"no spread", []Clause{{Kind: Rises, Value: 1, SE: 0, Seeds: many, Doc: nan}}, Passed, none, Holds},
		{"small change", []Clause{{Kind: Small, Value: -10, Seeds: many, Doc: nan}}, Passed, none, Holds},
		{"not small", []Clause{{Kind: Small, Value: 10.1, Seeds: many, Doc: nan}}, Contradicted, none, Fails},
		// [2, 14] across 10.
		{"small undecided", []Clause{{Kind: Small, Value: 8, SE: 2, Seeds: many, Doc: nan}}, Unresolved, none, Undecided},
		{"limited", []Clause{{Kind: Limited, Value: 25, Seeds: many, Doc: nan}}, Passed, none, Holds},
		{"not limited", []Clause{{Kind: Limited, Value: 25.1, Seeds: many, Doc: nan}}, Contradicted, none, Fails},
		// Table I's depth: random 5.00, distance 6.12 ± 0.05 against 6.00,
		// 6.93 ± 10 %: 5 is below [5.4, 6.6] (6.12 ± 0.15 across 6.237
		// does not undo a contradiction).
		{"Table I depth", []Clause{{Kind: Rises, Value: 1.12, SE: 0.05, Seeds: many, Doc: nan, Values: []float64{5, 6.12}, ValueSEs: []float64{0, 0.05}, DocValues: []float64{6, 6.93}}}, Passed, Contradicted, Qualified},
		// ν: 7.8 ± 0.003 within [6.48, 7.92], 8.4 ± 0.03 within [6.912, 8.448].
		{"Table I messages", []Clause{{Kind: Rises, Value: 0.6, SE: 0.02, Seeds: many, Doc: nan, Values: []float64{7.8, 8.4}, ValueSEs: []float64{0.001, 0.01}, DocValues: []float64{7.2, 7.68}}}, Passed, Passed, Holds},
		// ν of distance 8.4 ± 0.3: [8.1, 8.7] across 8.448.
		{"Table I value undecided", []Clause{{Kind: Rises, Value: 0.6, SE: 0.02, Seeds: many, Doc: nan, Values: []float64{7.8, 8.4}, ValueSEs: []float64{0.001, 0.1}, DocValues: []float64{7.2, 7.68}}}, Passed, Unresolved, Undecided},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, mag := c.cs[0].Judge()
			if dir != c.dir || mag != c.mag {
				t.Errorf("first clause: direction %v magnitude %v, want %v %v", dir, mag, c.dir, c.mag)
			}
			if got := ClauseRule(c.cs); got != c.want {
				t.Errorf("%s, want %s", got, c.want)
			}
		})
	}
}

func TestPowerOfTen(t *testing.T) {
	for n, want := range map[int]string{1000: "10^3", 100000000: "10^8", 10: "10^1", 2500: "2500", 1: "1", 2000: "2000"} {
		if got := PowerOfTen(n); got != want {
			t.Errorf("powerOfTen(%d) = %q, want %q", n, got, want)
		}
	}
}
