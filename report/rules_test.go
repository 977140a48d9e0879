package report

import (
	"math"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/sim"
	"github.com/gossipkit/gossipkit/tree"
)

// Every rule at and around its thresholds, on constructed inputs.
func TestRules(t *testing.T) {
	cases := []struct {
		name string
		got  string
		want string
	}{
		// Very many replications: the critical value is 4 se.
		{"transitions within 4 se", transRule(sim.TransitionTest{MaxDiff: 0.05, MaxZ: 4}, 1<<30), holds},
		{"transitions beyond 4 se, small", transRule(sim.TransitionTest{MaxDiff: 0.009, MaxZ: 4.1}, 1<<30), qualified},
		{"transitions beyond 4 se, large", transRule(sim.TransitionTest{MaxDiff: 0.01, MaxZ: 4.1}, 1<<30), fails},
		// 3 replications: t(2) at the level of 4 normal se, p = Φ(4) =
		// 0.99996833, is (2p − 1)/√(2p(1 − p)) = 125.6: 10 se is not a
		// departure.
		{"transitions 10 se over 3 replications", transRule(sim.TransitionTest{MaxDiff: 0.05, MaxZ: 10}, 3), holds},
		// With very many replications Student's t is the normal law: 3 se.
		{"steady within 3 se", steadyRule(3, 1<<30), holds},
		{"steady beyond 3 se", steadyRule(3.01, 1<<30), fails},
		// With 3 replications (2 degrees of freedom) the critical value at
		// the level of 3 normal se, p = Φ(3) = 0.998650, is the closed form
		// (2p − 1)/√(2p(1 − p)) = 19.21: 10 se is not yet a departure.
		{"steady 10 se with 3 replications", steadyRule(10, 3), holds},
		{"steady 20 se with 3 replications", steadyRule(20, 3), fails},
		{"coverage reaches 0.99", reachRule(Interval{0.99, 1}), holds},
		{"coverage short of 0.99", reachRule(Interval{0.9, 0.989}), unchecked},
		{"coverage across 0.99", reachRule(Interval{0.98, 1}), undecided},
		{"|E − S| below 1e-2", nearRule(-2.01), holds},
		{"|E − S| at 1e-2", nearRule(-2), qualified},
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
		if got := similarGaps(c.a, c.b); got != c.want {
			t.Errorf("similarGaps(%v, %v) = %v", c.a, c.b, got)
		}
	}
}

func TestRulesStep2(t *testing.T) {
	cases := []struct {
		name, got, want string
	}{
		// Figures of a measured run: the best s gains 1.78 of 73 rounds (2.4 %), z = 1.87.
		{"coverage optimum small, not significant", optimumRule(OptimumEffect{Best: 61, SStar: 52.79, GainPct: 2.4, Z: 1.87}), qualified},
		{"coverage optimum small, significant", optimumRule(OptimumEffect{Best: 61, SStar: 52.79, GainPct: 2.4, Z: 5}), qualified},
		{"coverage optimum large, not significant", optimumRule(OptimumEffect{Best: 61, SStar: 52.79, GainPct: 6, Z: 1.9}), qualified},
		{"coverage optimum large and significant", optimumRule(OptimumEffect{Best: 61, SStar: 52.79, GainPct: 5, Z: 2}), fails},
		{"coverage optimum within one of s*", optimumRule(OptimumEffect{Best: 53, SStar: 52.79, GainPct: 50, Z: 50}), holds},
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
	e := optimumEffect(61, 52.79, 53, 70, 3, 72, 4, 25)
	if e.Gain != 2 || math.Abs(e.GainPct-200.0/72) > 1e-12 || math.Abs(e.Z-2) > 1e-12 || math.Abs(e.RunsForZ-25) > 1e-12 {
		t.Errorf("%+v", e)
	}
	if e := optimumEffect(53, 52.79, 53, 70, 3, 70, 3, 25); e.Z != 0 || !math.IsInf(e.RunsForZ, 1) {
		t.Errorf("no gain: %+v", e)
	}
}

func TestTakeOff(t *testing.T) {
	// Model 0, 0.005, 0.5, 0.995, 1: plateau 1, so the window (1 %–99 %)
	// is t = 2 only; t = 1 (0.5 %) and t = 3 (99.5 %) lie outside.
	model := []float64{0, 0.005, 0.5, 0.995, 1}
	tr := sim.Trajectory{T: []float64{0, 1, 2, 3, 4}, Mean: []float64{0, 0.2, 0.45, 0.5, 0.9}, SD: []float64{0, 0, 0.04, 0, 0}}
	// |0.5 − 0.45| = 0.05 > 0.04 + 0.001: outside.
	w := takeOff(model, tr, 0.001)
	if w.From != 2 || w.To != 2 || w.Rounds != 1 || w.Within != 0 || math.Abs(w.Max-0.05) > 1e-15 || w.At != 2 {
		t.Errorf("%+v", w)
	}
	// With the tolerance of half a node of N = 50 (0.01): 0.05 ≤ 0.04 + 0.01.
	if w := takeOff(model, tr, 0.01); w.Within != 1 {
		t.Errorf("with tolerance 0.01: %+v", w)
	}
	// A flat model has no take-off.
	if w := takeOff([]float64{1, 1}, sim.Trajectory{T: []float64{0, 1}, Mean: []float64{1, 1}, SD: []float64{0, 0}}, 0); w.Rounds != 0 || !math.IsNaN(w.Within) || w.span() != "none" {
		t.Errorf("flat: %+v", w)
	}
}

func TestClauses(t *testing.T) {
	nan := math.NaN()
	const many = 1 << 30
	cases := []struct {
		name     string
		cs       []clause
		dir, mag check
		want     string
	}{
		// many: so many seeds that Student's t is the normal law (the
		// interval is ± 3 se, zDecide); the arithmetic below uses it.
		// Preservation at 50 % failures, as a tree simulation measured it
		// over 10 seeds: depth +144 ± 22.7, requests +21 ± 1.1, against the
		// document's +44.26 and +163.7. t(9) at the level of 3 normal se
		// lies between 3.5 and 4.5 (t(9) is 3.25 at 99.5 % and 4.30 at
		// 99.9 %, standard tables): depth from [42, 64] to [224, 246],
		// across 88.52 either way; requests within [16, 26], below
		// [81.85, 327.4]. The requests' magnitude is outside its
		// tolerance, so the claim holds with a qualification whatever the
		// depth's magnitude turns out to be: decided.
		{"preservation", []clause{{Kind: rises, Value: 144, SE: 22.7, Seeds: 10, Doc: 44.26}, {Kind: rises, Value: 21, SE: 1.1, Seeds: 10, Doc: 163.7}}, passed, unresolved, qualified},
		// The depth alone: its magnitude could be within or outside.
		{"preservation depth alone", []clause{{Kind: rises, Value: 144, SE: 22.7, Seeds: 10, Doc: 44.26}}, passed, unresolved, undecided},
		// An unresolved direction beside a contradicted magnitude: it
		// could still contradict (does not hold) or not (qualified).
		{"unresolved direction, contradicted magnitude", []clause{{Kind: small, Value: 8, SE: 2, Seeds: many, Doc: nan}, {Kind: rises, Value: 21, SE: 1.1, Seeds: 10, Doc: 163.7}}, unresolved, none, undecided},
		// The same requests alone: contradicted magnitude, qualified.
		{"requests below the document", []clause{{Kind: rises, Value: 21, SE: 1.1, Seeds: 10, Doc: 163.7}}, passed, contradicted, qualified},
		// [36, 84] within [22.13, 88.52].
		{"rise as large as stated", []clause{{Kind: rises, Value: 60, SE: 8, Seeds: many, Doc: 44.26}}, passed, passed, holds},
		// [22.7, 23.3] just within.
		{"rise just above half the document", []clause{{Kind: rises, Value: 23, SE: 0.1, Seeds: many, Doc: 44.26}}, passed, passed, holds},
		// [19.13, 25.13] across 22.13: undecided.
		{"rise across half the document", []clause{{Kind: rises, Value: 22.13, SE: 1, Seeds: many, Doc: 44.26}}, passed, unresolved, undecided},
		// [12, 18] below 22.13.
		{"rise below half the document", []clause{{Kind: rises, Value: 15, SE: 1, Seeds: many, Doc: 44.26}}, passed, contradicted, qualified},
		// [−8, 28] holds 0.
		{"rise not shown", []clause{{Kind: rises, Value: 10, SE: 6, Seeds: many, Doc: nan}}, unresolved, none, undecided},
		// The same mean and se over 2 seeds: t(1) at the level of 3 se is
		// tan(π(Φ(3) − ½)) = 235.8, [−697, 717]; over many, [1, 19].
		{"a rise over 2 seeds", []clause{{Kind: rises, Value: 10, SE: 3, Seeds: 2, Doc: nan}}, unresolved, none, undecided},
		{"the same rise over many seeds", []clause{{Kind: rises, Value: 10, SE: 3, Seeds: many, Doc: nan}}, passed, none, holds},
		// [−19, −1] below 0.
		{"a fall where a rise is stated", []clause{{Kind: rises, Value: -10, SE: 3, Seeds: many, Doc: nan}}, contradicted, none, fails},
		{"no spread", []clause{{Kind: rises, Value: 1, SE: 0, Seeds: many, Doc: nan}}, passed, none, holds},
		{"small change", []clause{{Kind: small, Value: -10, Seeds: many, Doc: nan}}, passed, none, holds},
		{"not small", []clause{{Kind: small, Value: 10.1, Seeds: many, Doc: nan}}, contradicted, none, fails},
		// [2, 14] across 10.
		{"small undecided", []clause{{Kind: small, Value: 8, SE: 2, Seeds: many, Doc: nan}}, unresolved, none, undecided},
		{"limited", []clause{{Kind: limited, Value: 25, Seeds: many, Doc: nan}}, passed, none, holds},
		{"not limited", []clause{{Kind: limited, Value: 25.1, Seeds: many, Doc: nan}}, contradicted, none, fails},
		// Table I's depth: random 5.00, distance 6.12 ± 0.05 against 6.00,
		// 6.93 ± 10 %: 5 is below [5.4, 6.6] (6.12 ± 0.15 across 6.237
		// does not undo a contradiction).
		{"Table I depth", []clause{{Kind: rises, Value: 1.12, SE: 0.05, Seeds: many, Doc: nan, Values: []float64{5, 6.12}, ValueSEs: []float64{0, 0.05}, DocValues: []float64{6, 6.93}}}, passed, contradicted, qualified},
		// ν: 7.8 ± 0.003 within [6.48, 7.92], 8.4 ± 0.03 within [6.912, 8.448].
		{"Table I messages", []clause{{Kind: rises, Value: 0.6, SE: 0.02, Seeds: many, Doc: nan, Values: []float64{7.8, 8.4}, ValueSEs: []float64{0.001, 0.01}, DocValues: []float64{7.2, 7.68}}}, passed, passed, holds},
		// ν of distance 8.4 ± 0.3: [8.1, 8.7] across 8.448.
		{"Table I value undecided", []clause{{Kind: rises, Value: 0.6, SE: 0.02, Seeds: many, Doc: nan, Values: []float64{7.8, 8.4}, ValueSEs: []float64{0.001, 0.1}, DocValues: []float64{7.2, 7.68}}}, passed, unresolved, undecided},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, mag := c.cs[0].judge()
			if dir != c.dir || mag != c.mag {
				t.Errorf("first clause: direction %v magnitude %v, want %v %v", dir, mag, c.dir, c.mag)
			}
			if got := clauseRule(c.cs); got != c.want {
				t.Errorf("%s, want %s", got, c.want)
			}
		})
	}
}

func TestFirstRootRule(t *testing.T) {
	p := func(d, m float64) TreePoint { return TreePoint{Depth: tree.Stat{Mean: d}, Msgs: tree.Stat{Mean: m}} }
	ks := []int{2, 4}
	if v, _ := firstRootRule([]TreePoint{p(5, 7), p(4, 6)}, []TreePoint{p(5, 7), p(4, 6)}, ks); v != unchecked {
		t.Errorf("identical trees: %s", v)
	}
	if v, _ := firstRootRule([]TreePoint{p(5, 7), p(4, 6)}, []TreePoint{p(4, 7.5), p(4, 6)}, ks); v != holds {
		t.Errorf("first no worse in ν: %s", v)
	}
	if v, _ := firstRootRule([]TreePoint{p(5, 8), p(4, 6)}, []TreePoint{p(5, 7), p(4, 6)}, ks); v != fails {
		t.Errorf("first worse at k = 2: %s", v)
	}
}

// The tree verdicts from constructed sweeps and repair summaries: every
// claim is judged by its rule, k = 8 cannot be checked.
func TestTreeVerdicts(t *testing.T) {
	st := func(m, sd float64) tree.Stat { return tree.Stat{Mean: m, SD: sd} }
	pt := TreePoint{Depth: st(5, 0), Msgs: st(7, 0)}
	r := &Tree{Ks: []int{2, 4, 8, 16, 32, 64}, Curves: map[tree.JoinStrategy][]TreePoint{
		tree.JoinFirst: {pt, pt, pt, pt, pt, pt}, tree.JoinRoot: {pt, pt, pt, pt, pt, pt}}}
	r.Table1 = []Table1Row{
		{Redirect: tree.RedirectDistance, Seeds: 50, Depth: st(6.12, 0.33), Msgs: st(8.4, 0.13), DepthDoc: 6.93, MsgsDoc: 7.68},
		{Redirect: tree.RedirectRandom, Seeds: 50, Depth: st(5, 0), Msgs: st(7.8, 0.01), DepthDoc: 6, MsgsDoc: 7.2},
	}
	sum := func(depth, traffic tree.Stat) tree.Summary {
		return tree.Summary{Seeds: 10, DepthChangePct: depth, TrafficIncreasePct: traffic}
	}
	// 10 seeds: the intervals are mean ± t·sd/√10 with t(9) at the level
	// of 3 normal se between 3.5 and 4.5 (t(9) is 3.25 at 99.5 % and 4.30
	// at 99.9 %). Breakout: depth 88 ± ≤ 29, wholly above "small" (10 %):
	// does not hold. Preservation: depth 144 ± ≤ 103, its magnitude across
	// 88.52, but the traffic's 21 ± ≤ 5 is far below 163.7/2: holds with a
	// qualification whatever the depth's turns out to be. Election: depth
	// 0, traffic 0.004 ± 0.014, within 25 %: holds.
	r.Repairs = [][]RepairRow{
		{{Repair: tree.Breakout, FailedPct: 50, Summary: sum(st(88, 20), st(42, 6))}},
		{{Repair: tree.Preservation, FailedPct: 50, Summary: sum(st(144, 72), st(21, 3.5))}},
		{{Repair: tree.Election, FailedPct: 50, Summary: sum(st(0, 0), st(0.004, 0.01))}},
	}
	want := []string{unchecked, unchecked, qualified, fails, qualified, holds}
	vs := r.Verdicts()
	if len(vs) != len(want) {
		t.Fatalf("%d verdicts", len(vs))
	}
	for i, v := range vs {
		if v.Verdict != want[i] || v.Rule == "" {
			t.Errorf("%s: %s (rule %q), want %s", v.Claim, v.Verdict, v.Rule, want[i])
		}
	}

	// "Up to" is judged at the largest value of the table, "small" at the
	// largest |Δ|. Breakout's traffic +300 % ± ≤ 15 at 20 % failures is
	// within a factor 2 of the document's 427 %, +150 % at 50 % is not; its
	// depth stays within 10 % at 50 % (5 ± ≤ 1.5) but not at 10 % (−12 ± ≤
	// 1.5). Election: a +30 % ± ≤ 1.5 rise in traffic at 5 % failures
	// breaks "very limited" (≤ 25 %) though the 50 % row has none.
	r.Repairs = [][]RepairRow{
		{{Repair: tree.Breakout, FailedPct: 20, Summary: sum(st(2, 1), st(300, 10))},
			{Repair: tree.Breakout, FailedPct: 50, Summary: sum(st(5, 1), st(150, 10))}},
		{{Repair: tree.Preservation, FailedPct: 50, Summary: sum(st(40, 3), st(150, 10))}},
		{{Repair: tree.Election, FailedPct: 5, Summary: sum(st(0, 0), st(30, 1))},
			{Repair: tree.Election, FailedPct: 50, Summary: sum(st(0, 0), st(0, 0))}},
	}
	vs = r.Verdicts()
	if v := vs[3]; v.Verdict != holds || !strings.Contains(v.Measured, "repair traffic at 20 % failures +300.0 %") {
		t.Errorf("breakout: %s, %s; want holds, judged on +300 %% at 20 %%", v.Verdict, v.Measured)
	}
	if v := vs[4]; v.Verdict != holds {
		t.Errorf("preservation: %s, %s; want holds", v.Verdict, v.Measured)
	}
	if v := vs[5]; v.Verdict != fails || !strings.Contains(v.Measured, "repair traffic at 5 % failures +30.0 %") {
		t.Errorf("election: %s, %s; want does not hold, judged on +30 %% at 5 %%", v.Verdict, v.Measured)
	}
	r.Repairs[0] = []RepairRow{{Repair: tree.Breakout, FailedPct: 10, Summary: sum(st(-12, 1), st(300, 10))},
		{Repair: tree.Breakout, FailedPct: 50, Summary: sum(st(5, 1), st(300, 10))}}
	if v := r.Verdicts()[3]; v.Verdict != fails || !strings.Contains(v.Measured, "depth at 10 % failures -12.0 %") {
		t.Errorf("breakout, depth −12 %% at 10 %%: %s, %s; want does not hold", v.Verdict, v.Measured)
	}
	// No row for a repair: nothing is shown, so the claim is undecided.
	r.Repairs = [][]RepairRow{{}, {}, {}}
	if v := r.Verdicts()[5]; v.Verdict != undecided {
		t.Errorf("election without rows: %s, %s; want undecided", v.Verdict, v.Measured)
	}
}

// Figs. 7 and 8 judged on the take-off window, not on every round, by the
// interval of the smallest share (ShareX, ShareY, ShareYRound, set here as
// the bootstrap would), and coverage by its final value over the runs.
func TestFig78Verdicts(t *testing.T) {
	// A growth distance δ with its interval [lo, hi] over 10 runs.
	g := func(lo, hi float64) NetGrowth {
		return NetGrowth{ODE: 10, Runs: 10, Delta: (lo + hi) / 2, DLo: lo, DHi: hi}
	}
	// 10 runs of 100 nodes, every one covered at the end.
	runs := func() *sim.Result {
		cfg := sim.DefaultConfig()
		cfg.Nodes = 100
		res := &sim.Result{Config: cfg}
		for range 10 {
			res.Reps = append(res.Reps, sim.Replication{Y: []int32{1, 50, 100}})
		}
		return res
	}
	f := &Fig78{Ns: []int{500, 1000}, C: 100, S: 50, T: 500, Runs: map[int]*sim.Result{500: runs(), 1000: runs()}, Rows: []ODEvsSimRow{
		{N: 500, SteadyCOverN: 0.2, Items: 501, SteadyProtocol: 100.0 / 501, XLateMean: 0.199, XLateSE: 0.001, YFinal: 1,
			GrowthX: g(-0.5, 0.8), GrowthY: g(-0.4, 0.4), GrowthYRound: g(2.2, 3)},
		{N: 1000, SteadyCOverN: 0.1, Items: 1001, SteadyProtocol: 100.0 / 1001, XLateMean: 0.1, XLateSE: 0.001, YFinal: 1,
			GrowthX: g(1.2, 1.8), GrowthY: g(-0.9, 0.9), GrowthYRound: g(-0.2, 0.2)},
	}, DistX: TakeOffDistance{Theta: math.NaN()}, DistY: TakeOffDistance{Theta: math.NaN()}, DistYRound: TakeOffDistance{Theta: math.NaN()}}
	rep := f.replicationVerdicts()
	// |0.199 − 100/501| = 0.6 se, below t(9) at the level of 3 se: holds;
	// x's growth distance wholly in (1, 2] at n = 1000: qualified.
	if rep[1].Verdict != holds || rep[2].Verdict != qualified {
		t.Errorf("replication: %+v", rep)
	}
	cov := f.coverageVerdicts()
	// Per event: both within one sd, holds; snapshots: above 2 sd at n =
	// 500, does not hold; every run covered: coverage reaches 1.
	if cov[0].Verdict != holds || cov[1].Verdict != fails || cov[2].Verdict != holds {
		t.Errorf("coverage: %+v", cov)
	}
	// An interval across one sd and below two (the truth on the source's
	// threshold): the weaker form is shown, qualified, and says so.
	f.Rows[1].GrowthX = g(-0.5, 1.5)
	if v := f.replicationVerdicts()[2]; v.Verdict != qualified || !strings.Contains(v.Short, "within 2 sd shown, within 1 sd not shown") {
		t.Errorf("x across 1: %+v", v)
	}
	// An interval across two sd: undecided, with the replications that
	// would decide it named (|δ̂| = 1.5, half-width 1 at 10 runs: it
	// clears 2 at half-width 0.5, 10·(1/0.5)² = 40).
	f.Rows[1].GrowthX = g(0.5, 2.5)
	if v := f.replicationVerdicts()[2]; v.Verdict != undecided || !strings.Contains(v.Measured, "about 40 replications per n would decide it") {
		t.Errorf("x across 2: %+v", v)
	}
}

func TestPowerOfTen(t *testing.T) {
	for n, want := range map[int]string{1000: "10^3", 100000000: "10^8", 10: "10^1", 2500: "2500", 1: "1", 2000: "2000"} {
		if got := powerOfTen(n); got != want {
			t.Errorf("powerOfTen(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestSteadyAgainstItems: the steady-state verdict compares the late mean
// with c/(n+1), the plateau of the network simulated (n items and d),
// and states its distance from the paper's c/n beside it. A made-up
// measurement at n = 500, c = 100 with a standard error of 10⁻⁵ (the gap
// c/(n(n+1)) = 100/250500 = 3.99·10⁻⁴ is 40 of them) holds exactly at
// 100/501 and does not hold at 0.2.
func TestSteadyAgainstItems(t *testing.T) {
	row := func(late float64) *Fig78 {
		res := &sim.Result{Config: sim.DefaultConfig()}
		for range 100 {
			res.Reps = append(res.Reps, sim.Replication{Y: []int32{1}})
		}
		n := 500
		return &Fig78{Ns: []int{n}, C: 100, S: 50, Runs: map[int]*sim.Result{n: res}, ShareX: Interval{math.NaN(), math.NaN()},
			Rows: []ODEvsSimRow{{N: n, SteadyCOverN: 0.2, Items: protocolItems(n), SteadyProtocol: 100 / float64(protocolItems(n)), XLateMean: late, XLateSE: 1e-5}}}
	}
	for _, c := range []struct {
		name       string
		late       float64
		want, text string
	}{
		{"at c/(n+1)", 100.0 / 501, holds, "from c/(n+1) 0.0 standard errors"},
		{"at c/n", 0.2, fails, "from c/(n+1) 39.9 standard errors"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := row(c.late).replicationVerdicts()[1]
			if v.Verdict != c.want || !strings.Contains(v.Measured, c.text) || !strings.Contains(v.Rule, "c/(n+1)") {
				t.Errorf("%s: %s (%s)", v.Verdict, v.Measured, v.Rule)
			}
		})
	}
	// 0/0: no spread, no distance.
	if v := steadyRule(math.NaN(), 100); v != unchecked {
		t.Errorf("NaN distance: %s, want %s", v, unchecked)
	}
}
