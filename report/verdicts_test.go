package report

import (
	"math"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/report/internal/claim"
	"github.com/gossipkit/gossipkit/sim"
	"github.com/gossipkit/gossipkit/tree"
)

func TestFirstRootRule(t *testing.T) {
	p := func(d, m float64) TreePoint { return TreePoint{Depth: tree.Stat{Mean: d}, Msgs: tree.Stat{Mean: m}} }
	ks := []int{2, 4}
	if v, _ := firstRootRule([]TreePoint{p(5, 7), p(4, 6)}, []TreePoint{p(5, 7), p(4, 6)}, ks); v != claim.Unchecked {
		t.Errorf("identical trees: %s", v)
	}
	if v, _ := firstRootRule([]TreePoint{p(5, 7), p(4, 6)}, []TreePoint{p(4, 7.5), p(4, 6)}, ks); v != claim.Holds {
		t.Errorf("first no worse in ν: %s", v)
	}
	if v, _ := firstRootRule([]TreePoint{p(5, 8), p(4, 6)}, []TreePoint{p(5, 7), p(4, 6)}, ks); v != claim.Fails {
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
	want := []string{claim.Unchecked, claim.Unchecked, claim.Qualified, claim.Fails, claim.Qualified, claim.Holds}
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
	if v := vs[3]; v.Verdict != claim.Holds || !strings.Contains(v.Measured, "repair traffic at 20 % failures +300.0 %") {
		t.Errorf("breakout: %s, %s; want holds, judged on +300 %% at 20 %%", v.Verdict, v.Measured)
	}
	if v := vs[4]; v.Verdict != claim.Holds {
		t.Errorf("preservation: %s, %s; want holds", v.Verdict, v.Measured)
	}
	if v := vs[5]; v.Verdict != claim.Fails || !strings.Contains(v.Measured, "repair traffic at 5 % failures +30.0 %") {
		t.Errorf("election: %s, %s; want does not hold, judged on +30 %% at 5 %%", v.Verdict, v.Measured)
	}
	r.Repairs[0] = []RepairRow{{Repair: tree.Breakout, FailedPct: 10, Summary: sum(st(-12, 1), st(300, 10))},
		{Repair: tree.Breakout, FailedPct: 50, Summary: sum(st(5, 1), st(300, 10))}}
	if v := r.Verdicts()[3]; v.Verdict != claim.Fails || !strings.Contains(v.Measured, "depth at 10 % failures -12.0 %") {
		t.Errorf("breakout, depth −12 %% at 10 %%: %s, %s; want does not hold", v.Verdict, v.Measured)
	}
	// No row for a repair: nothing is shown, so the claim is undecided.
	r.Repairs = [][]RepairRow{{}, {}, {}}
	if v := r.Verdicts()[5]; v.Verdict != claim.Undecided {
		t.Errorf("election without rows: %s, %s; want undecided", v.Verdict, v.Measured)
	}
}

// Figs. 7 and 8 judged on the take-off window, not on every round, by the
// interval of the smallest share (ShareX, ShareY, ShareYRound, set here as
// the bootstrap would), and coverage by its final value over the runs.
func TestFig78Verdicts(t *testing.T) {
	// A growth distance δ with its interval [lo, hi] over 10 runs.
	g := func(lo, hi float64) claim.Growth {
		return claim.Growth{ODE: 10, Runs: 10, Delta: (lo + hi) / 2, DLo: lo, DHi: hi}
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
	if rep[1].Verdict != claim.Holds || rep[2].Verdict != claim.Qualified {
		t.Errorf("replication: %+v", rep)
	}
	cov := f.coverageVerdicts()
	// Per event: both within one sd, holds; snapshots: above 2 sd at n =
	// 500, does not hold; every run covered: coverage reaches 1.
	if cov[0].Verdict != claim.Holds || cov[1].Verdict != claim.Fails || cov[2].Verdict != claim.Holds {
		t.Errorf("coverage: %+v", cov)
	}
	// An interval across one sd and below two (the truth on the source's
	// threshold): the weaker form is shown, qualified, and says so.
	f.Rows[1].GrowthX = g(-0.5, 1.5)
	if v := f.replicationVerdicts()[2]; v.Verdict != claim.Qualified || !strings.Contains(v.Short, "within 2 sd shown, within 1 sd not shown") {
		t.Errorf("x across 1: %+v", v)
	}
	// An interval across two sd: undecided, with the replications that
	// would decide it named (|δ̂| = 1.5, half-width 1 at 10 runs: it
	// clears 2 at half-width 0.5, 10·(1/0.5)² = 40).
	f.Rows[1].GrowthX = g(0.5, 2.5)
	if v := f.replicationVerdicts()[2]; v.Verdict != claim.Undecided || !strings.Contains(v.Measured, "about 40 replications per n would decide it") {
		t.Errorf("x across 2: %+v", v)
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
		return &Fig78{Ns: []int{n}, C: 100, S: 50, Runs: map[int]*sim.Result{n: res}, ShareX: Interval{Lo: math.NaN(), Hi: math.NaN()},
			Rows: []ODEvsSimRow{{N: n, SteadyCOverN: 0.2, Items: protocolItems(n), SteadyProtocol: 100 / float64(protocolItems(n)), XLateMean: late, XLateSE: 1e-5}}}
	}
	for _, c := range []struct {
		name       string
		late       float64
		want, text string
	}{
		{"at c/(n+1)", 100.0 / 501, claim.Holds, "from c/(n+1) 0.0 standard errors"},
		{"at c/n", 0.2, claim.Fails, "from c/(n+1) 39.9 standard errors"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := row(c.late).replicationVerdicts()[1]
			if v.Verdict != c.want || !strings.Contains(v.Measured, c.text) || !strings.Contains(v.Rule, "c/(n+1)") {
				t.Errorf("%s: %s (%s)", v.Verdict, v.Measured, v.Rule)
			}
		})
	}
	// 0/0: no spread, no distance.
	if v := claim.SteadyRule(math.NaN(), 100); v != claim.Unchecked {
		t.Errorf("NaN distance: %s, want %s", v, claim.Unchecked)
	}
}
