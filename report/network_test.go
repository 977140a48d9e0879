package report

import (
	"context"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/report/internal/claim"
	"github.com/gossipkit/gossipkit/sim"
)

// The torus radius of mean degree d: (N − 1)·π·r² = d, by hand:
// √(20/(2499π)) = 0.050473, 3 digits 0.0505; √(20/(499π)) = 0.112951 →
// 0.113.
func TestTorusRadius(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		N, d int
		want float64
	}{{2500, 20, 0.0505}, {500, 20, 0.113}} {
		if got := torusRadius(c.N, c.d); got != c.want {
			t.Errorf("torusRadius(%d, %d) = %v, want %v", c.N, c.d, got, c.want)
		}
	}
}

// claim.MeasureGrowth on runs written out by hand: levels lo = 2, hi = 8.
func TestNetGrowth(t *testing.T) {
	t.Parallel()
	runs := [][]int32{
		{1, 2, 4, 8, 9},  // 2 at t = 1, 8 at t = 3: 2 rounds
		{1, 1, 3, 5, 8},  // t = 2 to 4: 2
		{2, 3, 4, 6, 10}, // t = 0 to 4: 4
	}
	g := claim.MeasureGrowth(runs, 2, 8, 4)
	// Mean 8/3; sd² = ((2/3)² + (2/3)² + (4/3)²)/2 = 4/3; se = √(4/9) = 2/3.
	if math.Abs(g.Mean-8.0/3) > 1e-12 || math.Abs(g.SE-2.0/3) > 1e-12 || g.Censored != 0 {
		t.Fatalf("%+v, want mean 8/3, se 2/3", g)
	}
	// Ratio 2/3 over the ODE's 4, ± claim.TCrit(3, 3)·(2/3)/4.
	h := claim.TCrit(claim.ZDecide, 3) * (2.0 / 3) / 4
	if math.Abs(g.Ratio-2.0/3) > 1e-12 || math.Abs(g.Lo-(2.0/3-h)) > 1e-12 || math.Abs(g.Hi-(2.0/3+h)) > 1e-12 {
		t.Errorf("ratio %v [%v, %v], want 2/3 ± %v", g.Ratio, g.Lo, g.Hi, h)
	}
	// δ = (8/3 − 4)/sd, sd = √(4/3), with half-width claim.TCrit(3, 3)·√(1/3 +
	// δ²/4) (growthdist.go).
	d := (8.0/3 - 4) / math.Sqrt(4.0/3)
	hd := claim.TCrit(claim.ZDecide, 3) * math.Sqrt(1.0/3+d*d/4)
	if math.Abs(g.Delta-d) > 1e-12 || math.Abs(g.DLo-(d-hd)) > 1e-12 || math.Abs(g.DHi-(d+hd)) > 1e-12 {
		t.Errorf("δ %v [%v, %v], want %v ± %v", g.Delta, g.DLo, g.DHi, d, hd)
	}
	// A run that reaches 2 at t = 1 and never 8 counts 5 − 1 − 1 = 3
	// rounds, a lower bound: the interval is open above.
	g = claim.MeasureGrowth(append(runs, []int32{0, 2, 3, 4, 5}), 2, 8, 4)
	if g.Censored != 1 || math.Abs(g.Mean-11.0/4) > 1e-12 || !math.IsInf(g.Hi, 1) {
		t.Errorf("censored: %+v, want 1 censored, mean 11/4, Hi = +Inf", g)
	}
}

// The rule on constructed growth distances δ with their intervals, at
// both sides of each threshold (every |δ| interval within 1 holds, within
// 2 qualified, beyond 2 does not hold, across 2 undecided).
func TestNetRule(t *testing.T) {
	t.Parallel()
	g := func(lo, hi float64) NetGrowth {
		return NetGrowth{ODE: 10, Runs: 10, Delta: (lo + hi) / 2, DLo: lo, DHi: hi}
	}
	view := func(x, y NetGrowth) NetworkView {
		return NetworkView{Name: "v", Connected: true, Rows: []NetworkRow{{N: 500, Runs: 10, GrowthX: x, GrowthY: y}}}
	}
	for _, c := range []struct {
		name string
		v    NetworkView
		want string
	}{
		{"both within one sd", view(g(-0.5, 0.8), g(-0.9, 0.2)), claim.Holds},
		{"one ends on 1 (inclusive)", view(g(0.5, 1.0), g(-1.0, 0.2)), claim.Holds},
		// Across 1 and below 2: within two sd shown, within one not.
		{"one starts on 1", view(g(1.0, 1.5), g(-0.2, 0.2)), claim.Qualified},
		{"one across 1", view(g(0.5, 1.5), g(-0.2, 0.2)), claim.Qualified},
		{"across 0 and 1", view(g(-1.5, 0.5), g(-0.2, 0.2)), claim.Qualified},
		{"one wholly in (1, 2]", view(g(1.2, 1.8), g(-0.2, 0.2)), claim.Qualified},
		{"negative side in (1, 2]", view(g(-1.8, -1.2), g(-0.2, 0.2)), claim.Qualified},
		{"one wholly above 2", view(g(2.1, 3), g(-0.2, 0.2)), claim.Fails},
		{"above 2 decides beside an undecided one", view(g(2.1, 3), g(0.5, 1.5)), claim.Fails},
		{"across 2", view(g(1.5, 2.5), g(-0.2, 0.2)), claim.Undecided},
		{"open above, from inside", view(g(0.5, math.Inf(1)), g(-0.2, 0.2)), claim.Undecided},
		{"open above, from above 2", view(g(2.5, math.Inf(1)), g(-0.2, 0.2)), claim.Fails},
		{"no spread", view(g(math.NaN(), math.NaN()), g(-0.2, 0.2)), claim.Unchecked},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := netRule(c.v); got != c.want {
				t.Errorf("netRule = %q, want %q", got, c.want)
			}
		})
	}
	// An undecided verdict names the runs that would decide it: |δ̂| = 1.5
	// with half-width 1 over 10 runs clears 2 at 10·(1/0.5)² = 40 runs.
	r := &Network{}
	v := r.netVerdict(view(g(0.5, 2.5), g(-0.2, 0.2)))
	if v.Verdict != claim.Undecided || !strings.Contains(v.Measured, "about 40 runs per n would decide it") {
		t.Errorf("%s: %s", v.Verdict, v.Measured)
	}
	// A qualified one says which form was shown.
	if v := r.netVerdict(view(g(0.5, 1.5), g(-0.2, 0.2))); v.Verdict != claim.Qualified || !strings.HasPrefix(v.Short, "within 2 sd shown, within 1 sd not shown") {
		t.Errorf("%s: %s", v.Verdict, v.Short)
	}
}

// The ODE's growth times against a Runge–Kutta integration of its drift
// (approx.Model.Drift, the right-hand side of the paper's ODEs): the first
// passages through 10 % and 90 % of the plateau, linearly interpolated
// between steps of 1/64 round.
func TestNetGrowthODE(t *testing.T) {
	t.Parallel()
	for _, n := range []int{500, 2000} {
		m, err := approx.NewModel(approx.Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: n, Cache: 100, Exchange: 50}, Initial: 1})
		if err != nil {
			t.Fatal(err)
		}
		K := m.Steady()
		levels := []float64{claim.GrowthLo * K, claim.GrowthHi * K, claim.GrowthLo, claim.GrowthHi}
		at := make([]float64, 4)
		for i := range at {
			at[i] = math.NaN()
		}
		x, y, h := 1/2500.0, 1/2500.0, 1.0/64
		for step := 0; step < 64*2000; step++ {
			k1x, k1y := m.Drift(x, y)
			k2x, k2y := m.Drift(x+h/2*k1x, y+h/2*k1y)
			k3x, k3y := m.Drift(x+h/2*k2x, y+h/2*k2y)
			k4x, k4y := m.Drift(x+h*k3x, y+h*k3y)
			nx, ny := x+h/6*(k1x+2*k2x+2*k3x+k4x), y+h/6*(k1y+2*k2y+2*k3y+k4y)
			for i, l := range levels {
				old, cur := x, nx
				if i >= 2 {
					old, cur = y, ny
				}
				if math.IsNaN(at[i]) && cur >= l {
					at[i] = float64(step)*h + h*(l-old)/(cur-old)
				}
			}
			x, y = nx, ny
		}
		row := netRow("ode", m, &sim.Result{Config: sim.Config{Nodes: 2500}, Reps: []sim.Replication{{X: []int32{1, 1}, Y: []int32{1, 1}, YRound: []int32{1, 1}}}}, []float64{0, 0}, []float64{0, 0})
		// 1e-3 rounds: RK4's error at h = 1/64 is far below, and linear
		// interpolation within a step of 1/64 round of a curve whose
		// curvature is at most k²·K ≈ 0.01 errs by < 1e-5.
		if d := row.GrowthX.ODE - (at[1] - at[0]); math.Abs(d) > 1e-3 {
			t.Errorf("n = %d: replication growth %v, RK4 %v", n, row.GrowthX.ODE, at[1]-at[0])
		}
		if d := row.GrowthY.ODE - (at[3] - at[2]); math.Abs(d) > 1e-3 {
			t.Errorf("n = %d: coverage growth %v, RK4 %v", n, row.GrowthY.ODE, at[3]-at[2])
		}
	}
}

// The section at the tiny scale: a row per network and n, the complete
// graph's the runs of sections 3–4.
func TestNetworkRows(t *testing.T) {
	var r *Network
	for _, res := range tinyResults(t) {
		if n, ok := res.(*Network); ok {
			r = n
		}
	}
	if r == nil {
		t.Fatal("no network section")
	}
	sc := tiny()
	if len(r.Views) != 3 || len(r.Ns) != 1 || r.Ns[0] != sc.Ns[0] {
		t.Fatalf("%d views, n = %v", len(r.Views), r.Ns)
	}
	if r.Views[0].Rows[0].Runs != sc.Reps || r.Views[1].Topology.Degree != netDegree || r.Views[2].Topology.Radius != torusRadius(sc.Nodes, netDegree) {
		t.Errorf("views %+v", r.Views)
	}
	if len(r.Verdicts()) != 7 {
		t.Errorf("%d verdicts, want one per network, loss, uniformity (2) and Sec. 3.5", len(r.Verdicts()))
	}
}

// The exact optima by hand (p = s/c). At n = 7, c = 4, S = 3/(7−s):
// P(11|10) = p(1 − S) = 1/8, 1/5, 3/16, 0 (argmax 2) and P(01|11) =
// p(1−p)S = 3/32, 3/20, 9/64, 0 (argmax 2, argmin 4); with ε = 1/10,
// P(11|10) = (9/10)p((9/10)(1−S) + 1/10) = 9/400, 207/1000, 351/1600,
// 9/100 (argmax 3) while P(01|11) keeps argmax 2. At n = 6, c = 5 under
// formula (1), q = S(1 − 1/C(6,s)) with S = 1/(6−s): q = 1/6, 7/30, 19/60,
// 7/15, 5/6; P(11|10) = 1/6, 23/75, 41/100, 32/75, 1/6 (argmax 4) and
// P(01|11) = 2/75, 7/125, 19/250, 28/375, 0 (argmax 3): the claim fails
// there.
func TestTransitionOptima(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		name            string
		n, c            int
		eps             *big.Rat
		f               func(gossip.Shuffle) (*big.Rat, error)
		a11, a01, min01 int
	}{
		{"S", 7, 4, new(big.Rat), exact.PDropSimplified, 2, 2, 4},
		{"S, loss 1/10", 7, 4, big.NewRat(1, 10), exact.PDropSimplified, 3, 2, 4},
		{"formula (1)", 6, 5, new(big.Rat), exact.PDrop, 4, 3, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			a11, a01, m01, err := transitionOptima(ctx, c.n, c.c, c.eps, c.f)
			if err != nil || a11 != c.a11 || a01 != c.a01 || m01 != c.min01 {
				t.Errorf("argmax P(11|10) %d, argmax P(01|11) %d, argmin %d (%v); want %d, %d, %d", a11, a01, m01, err, c.a11, c.a01, c.min01)
			}
		})
	}
	rows, err := optima(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The lossless argmax of P(11|10) against approx.ArgmaxP11, which
	// finds it from the root s* in floats (a different algorithm).
	for _, r := range rows {
		if r.Loss != "0" {
			continue
		}
		v := approx.Simplified
		if r.PDrop != "S" {
			v = approx.Exact
		}
		want, _, err := approx.ArgmaxP11(v, r.N, r.C)
		if err != nil || want != r.ArgmaxP11 {
			t.Errorf("(%d, %d, %s): argmax %d, approx.ArgmaxP11 %d (%v)", r.N, r.C, r.PDrop, r.ArgmaxP11, want, err)
		}
		// And against exact.TransitionOptima, another implementation of
		// the same scan (the smallest s of each tie).
		f := exact.DropSimplified
		if r.PDrop != "S" {
			f = exact.DropFormula1
		}
		o, err := exact.TransitionOptima(ctx, r.N, r.C, f)
		if err != nil || o.P11ArgMax[0] != r.ArgmaxP11 || o.P01ArgMax[0] != r.ArgmaxP01 || o.P01ArgMin[0] != r.ArgminP01 {
			t.Errorf("(%d, %d, %s): %+v, exact.TransitionOptima %+v (%v)", r.N, r.C, r.PDrop, r, o, err)
		}
		if r.PDrop == "S" && !r.Same {
			t.Errorf("(%d, %d): under S the argmaxes must agree (P(01|11) ∝ P(11|10))", r.N, r.C)
		}
	}
	// (12, 6) under formula (1) differs, S never does: qualified.
	if v := optimaRule(rows); v != claim.Qualified {
		t.Errorf("rule %s, want %s", v, claim.Qualified)
	}
	if v := optimaRule([]OptimaRow{{PDrop: "S", Loss: "0", Same: false}}); v != claim.Fails {
		t.Errorf("S differing: %s", v)
	}
	if v := optimaRule([]OptimaRow{{PDrop: "S", Loss: "0", Same: true}, {PDrop: "formula (1)", Loss: "0", Same: true}, {PDrop: "S", Loss: "1/10"}}); v != claim.Holds {
		t.Errorf("all agreeing: %s", v)
	}
}

// The uniformity rule on constructed rows, at both sides of each
// threshold.
func TestUniformityRule(t *testing.T) {
	t.Parallel()
	row := func(lo, hi, p float64) UniformityRow {
		return UniformityRow{VarRatio: (lo + hi) / 2, Lo: lo, Hi: hi, FirstPValue: p}
	}
	for _, c := range []struct {
		name string
		rows []UniformityRow
		want string
	}{
		{"inside, p fine", []UniformityRow{row(0.95, 1.05, 0.4), row(0.91, 1.09, 0.002)}, claim.Holds},
		{"across 1.1", []UniformityRow{row(0.95, 1.05, 0.4), row(1.05, 1.15, 0.4)}, claim.Undecided},
		{"p below 1e-3", []UniformityRow{row(0.95, 1.05, 5e-4)}, claim.Undecided},
		{"wholly above", []UniformityRow{row(0.95, 1.05, 0.4), row(1.36, 1.51, 0.4)}, claim.Fails},
		{"wholly below", []UniformityRow{row(0.7, 0.85, 0.4)}, claim.Fails},
		{"p below 1e-6", []UniformityRow{row(0.95, 1.05, 1e-7)}, claim.Fails},
		{"NaN p", []UniformityRow{row(0.95, 1.05, math.NaN())}, claim.Undecided},
		{"none", nil, claim.Unchecked},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := uniformityRule(c.rows); got != c.want {
				t.Errorf("uniformityRule = %q, want %q", got, c.want)
			}
		})
	}
	// The descriptors are shown, not judged; loss has its own row.
	r := &Network{Uniformity: []UniformityRow{row(0.95, 1.05, 0.4), {Descriptors: true, Lo: 2, Hi: 3, FirstPValue: 0}, {Loss: 0.1, Lo: 1.4, Hi: 1.5, FirstPValue: 1e-20}}}
	if vs := r.uniformityVerdicts(); vs[0].Verdict != claim.Holds || vs[1].Verdict != claim.Fails {
		t.Errorf("verdicts %q, %q; want holds (lossless items), does not hold (loss)", vs[0].Verdict, vs[1].Verdict)
	}
}

// Part (b) at the tiny scale: the ODE's growth times at ε are the
// lossless ones over f = (1 − ε)(1 − ε/2), written out here (the claim
// the verdict tests, derived in docs/MODEL.md); no extinction without
// loss; the chain's extinction probability grows with ε.
func TestNetworkLossRows(t *testing.T) {
	var r *Network
	for _, res := range tinyResults(t) {
		if n, ok := res.(*Network); ok {
			r = n
		}
	}
	if r == nil || len(r.LossMC) != len(lossMCEps) || len(r.LossChain) != 2*len(lossEps) {
		t.Fatalf("no loss rows: %+v", r)
	}
	sc := tiny()
	for _, row := range r.LossMC {
		items := r.LossItems
		if !math.IsNaN(row.Alive) {
			items = int(math.Round(row.Alive))
		}
		m, err := approx.NewModel(approx.Config{Nodes: row.N, Shuffle: gossip.Shuffle{Items: items, Cache: sc.Cache, Exchange: sc.Exchange}, Initial: 1})
		if err != nil {
			t.Fatal(err)
		}
		f := (1 - row.Loss) * (1 - row.Loss/2)
		want := (m.TimeToCoverage(claim.GrowthHi) - m.TimeToCoverage(claim.GrowthLo)) / f
		// 1e-9 relative: two closed forms of one quantity.
		if math.Abs(row.GrowthY.ODE-want) > 1e-9*want {
			t.Errorf("ε = %g: the ODE's coverage growth %v, lossless/f %v", row.Loss, row.GrowthY.ODE, want)
		}
	}
	prev := map[int]float64{}
	for _, row := range r.LossChain {
		if row.Loss == 0 && (row.PExtinct != 0 || !math.IsInf(row.LifeMean, 1)) {
			t.Errorf("N = %d without loss: P(extinct) %v, lifetime %v", row.N, row.PExtinct, row.LifeMean)
		}
		if p, ok := prev[row.N]; ok && row.PExtinct <= p {
			t.Errorf("N = %d: P(extinct) %v at ε = %g, not above %v", row.N, row.PExtinct, row.Loss, p)
		}
		prev[row.N] = row.PExtinct
	}
}
