package meanfield

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/ode"
)

// matrixDrift is the mean field of one item built directly from the
// entries of approx.NewTransitionsLoss, with no use of approx.Model: N
// shuffles per round, each an ordered pair (A, B) with A holding d and B
// not with probability x(1−x) each way round and both holding it with x²,
// and each changing the count by one node (1/N of x):
//
//	dx/dt = x(1−x)·[T(11|10) + T(11|01) − T(00|10) − T(00|01)] − x²·[T(10|11) + T(01|11)]
//	dy/dt = x(1−y)·[T(11|10) + T(01|10) + T(11|01) + T(10|01)]
//
// (a node that never held d gains it as B of a 10 pair when the pair ends
// in 11 or 01, and as A of a 01 pair when it ends in 11 or 10).
func matrixDrift(tr approx.Transitions) ode.Func {
	const s00, s01, s10, s11 = approx.S00, approx.S01, approx.S10, approx.S11
	gain := tr[s10][s11] + tr[s01][s11] - tr[s10][s00] - tr[s01][s00]
	drop := tr[s11][s10] + tr[s11][s01]
	cover := tr[s10][s11] + tr[s10][s01] + tr[s01][s11] + tr[s01][s10]
	return func(_ float64, z, dz []float64) {
		x, y := z[0], z[1]
		dz[0] = x*(1-x)*gain - x*x*drop
		dz[1] = x * (1 - y) * cover
	}
}

// TestLossClosedFormsAgainstMatrixDrift: approx.Model's closed forms with
// loss (the lossless logistic on a clock slowed by f) against DP5
// integration of matrixDrift, every variant of P_drop. Tolerance as in
// TestGossipClosedFormsAgainstIntegration: rtol 1e-12 on values ≤ 1 with the
// ~5× global amplification of ode.TestDormandPrinceLogisticTolerance, so
// 1e-11; a drift off by a term of order ε·p·q (the 01 → 00 loss left out,
// or f misplaced) moves x by far more (TestLossClosedFormsMutation).
func TestLossClosedFormsAgainstMatrixDrift(t *testing.T) {
	for _, v := range approx.Variants {
		for _, eps := range []float64{0.01, 0.1, 0.3, 0.7} {
			for _, p := range []struct{ N, n, c, s, init int }{
				{2500, 500, 100, 50, 1}, {2500, 2000, 100, 50, 1}, {100, 200, 100, 50, 20}, {2500, 500, 100, 1, 1},
			} {
				t.Run(fmt.Sprint(v, eps, p), func(t *testing.T) {
					worst := lossClosedFormGap(t, v, eps, p.N, gossip.Shuffle{Items: p.n, Cache: p.c, Exchange: p.s}, p.init, nil)
					if worst > 1e-11 {
						t.Errorf("closed forms with loss differ from the matrix drift's integration by %.3g", worst)
					}
				})
			}
		}
	}
}

// lossClosedFormGap integrates matrixDrift (edited by edit, if not nil) to
// t = 1000 and returns the largest gap to the closed forms on whole t.
func lossClosedFormGap(t *testing.T, v approx.Variant, eps float64, N int, sh gossip.Shuffle, init int, edit func(*approx.Transitions)) float64 {
	t.Helper()
	m, err := approx.NewModel(approx.Config{Nodes: N, Shuffle: sh, PDrop: v, Initial: init, Loss: eps})
	if err != nil {
		t.Fatal(err)
	}
	tr := approx.NewTransitionsLoss(m.P, m.Q, eps)
	if edit != nil {
		edit(&tr)
	}
	sol, err := ode.DormandPrince(matrixDrift(tr), 0, []float64{m.X0, m.Y0}, 1000, ode.Settings{RTol: 1e-12, ATol: 1e-15})
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for tt := 0.0; tt <= 1000; tt++ {
		s := sol.At(tt, nil)
		worst = math.Max(worst, math.Max(math.Abs(s[0]-m.X(tt)), math.Abs(s[1]-m.Y(tt))))
	}
	return worst
}

// TestLossClosedFormsMutation: the comparison above can fail. Leaving the
// 01 → 00 loss out of the matrix drift, or the reply loss out of 10 → 11,
// moves the integration far outside 1e-11 of the closed forms.
func TestLossClosedFormsMutation(t *testing.T) {
	sh := gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}
	for name, edit := range map[string]func(*approx.Transitions){
		"no 01→00": func(tr *approx.Transitions) { tr[approx.S01][approx.S00] = 0 },
		"10→11 without the lost reply": func(tr *approx.Transitions) {
			tr[approx.S10][approx.S11] = tr[approx.S01][approx.S11]
		},
	} {
		if gap := lossClosedFormGap(t, approx.Simplified, 0.1, 2500, sh, 1, edit); gap < 1e-3 {
			t.Errorf("%s: gap %.3g, the comparison does not see it", name, gap)
		}
	}
}

// TestLossPopulationDrift: the drift of Replication and Coverage with loss
// is approx.Model's (f·2p(1−q)… against u − ℓ from the matrix: different
// roundings of numbers ≤ 2, so a few ulp of 1; 1e-15 absolute).
func TestLossPopulationDrift(t *testing.T) {
	for _, eps := range []float64{0.05, 0.3, 0.9} {
		m, err := approx.NewModel(approx.Config{Nodes: 100, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Initial: 5, Loss: eps})
		if err != nil {
			t.Fatal(err)
		}
		for _, xy := range [][2]float64{{0.05, 0.3}, {0.15, 0.9}, {0.2, 1}, {1, 1}} {
			dx, dy := m.Drift(xy[0], xy[1])
			f := make([]float64, 2)
			Coverage(m).Drift(xy[:], f)
			if math.Abs(f[0]-dx) > 1e-15 || math.Abs(f[1]-dy) > 1e-15 {
				t.Errorf("ε=%g %v: Coverage drift %v, model (%v, %v)", eps, xy, f, dx, dy)
			}
			Replication(m).Drift(xy[:1], f[:1])
			if math.Abs(f[0]-dx) > 1e-15 {
				t.Errorf("ε=%g %v: Replication drift %v, model %v", eps, xy, f[0], dx)
			}
		}
	}
}

// TestLossMap: the synchronous map with loss. Its x line is x + drift
// (f·2p…), checked against matrixDrift; its first coverage step is
// 1 − (1 − y0)(1 − a·p·x0)(1 − a²·p·x0), written out here, whose first
// order in x0 is the drift f·2p·x0(1−y0) (a + a² = 2f). The by-hand
// values round in another order: a few ulp of numbers ≤ 1, so 1e-15.
func TestLossMap(t *testing.T) {
	eps := 0.5
	m, _ := approx.NewModel(approx.Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Initial: 25, Loss: eps})
	xs, ys := Map(m, 3)
	tr := approx.NewTransitionsLoss(m.P, m.Q, eps)
	dz := make([]float64, 2)
	matrixDrift(tr)(0, []float64{xs[0], ys[0]}, dz)
	if math.Abs(xs[1]-(xs[0]+dz[0])) > 1e-15 {
		t.Errorf("x1 = %v, x0 + matrix drift %v", xs[1], xs[0]+dz[0])
	}
	a := 1 - eps
	want := 1 - (1-ys[0])*(1-a*m.P*xs[0])*(1-a*a*m.P*xs[0])
	if math.Abs(ys[1]-want) > 1e-15 {
		t.Errorf("y1 = %v, by hand %v", ys[1], want)
	}
	if got := ys[1] - ys[0]; math.Abs(got-dz[1])/dz[1] > 2*m.P*xs[0] {
		t.Errorf("first coverage step %g vs drift %g", got, dz[1])
	}
}

// TestLossOptimize: loss slows every time by f alike, so Optimize with
// loss has the lossless argmaxes and every time divided by f (to the
// event location's 1e-9 relative, TestCoverageTimeMatchesClosedForm; 1e-8
// for two of them); and Config.Loss out of range is a field error.
func TestLossOptimize(t *testing.T) {
	cfg := OptimizeConfig{Nodes: 1000, Items: 500, Cache: 20, Level: 0.99}
	r0, err := Optimize(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Loss = 0.2
	r, err := Optimize(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := approx.LossFactor(0.2)
	if r.SInt != r0.SInt || r.SBestTime != r0.SBestTime {
		t.Errorf("argmaxes with loss %d, %d; lossless %d, %d", r.SInt, r.SBestTime, r0.SInt, r0.SBestTime)
	}
	for i := range r.Times {
		if !scalar.EqualWithinRel(r.Times[i], r0.Times[i]/f, 1e-8) {
			t.Errorf("s = %d: time %v, lossless/f %v", i+1, r.Times[i], r0.Times[i]/f)
		}
	}
	for _, bad := range []float64{-0.1, 1, math.NaN()} {
		cfg.Loss = bad
		var fe *FieldError
		if _, err := Optimize(context.Background(), cfg); !errors.As(err, &fe) || fe.Field != "OptimizeConfig.Loss" {
			t.Errorf("Loss = %g: %v, want a field error on OptimizeConfig.Loss", bad, err)
		}
	}
}

// TestLossRefineGrid: RefineGrid with loss, both clocks. Its classic part
// is the lossy mean field: in continuous time the closed forms x_ε(t),
// y_ε(t) (DP5 at rtol 1e-10 with the ~5× amplification: 1e-9); in
// synchronous time x follows Map with loss, the same recursion x + F(x)
// (the population's drift equals the model's to a few ulp, so 1e-12 after
// 200 rounds of a contracting map). The synchronous y is not compared: the
// recursion steps y by the drift, Map by the product of two chances.
func TestLossRefineGrid(t *testing.T) {
	m, err := approx.NewModel(approx.Config{Nodes: 500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Initial: 5, Loss: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	rc, err := RefineGrid(context.Background(), m, 200, 10, gossip.Continuous, ode.Settings{RTol: 1e-10, ATol: 1e-13})
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range rc.T {
		if math.Abs(rc.Classic.X[i][0]-m.X(tt)) > 1e-9 || math.Abs(rc.Classic.X[i][1]-m.Y(tt)) > 1e-9 {
			t.Errorf("continuous t=%g: classic (%v, %v), closed forms (%v, %v)", tt, rc.Classic.X[i][0], rc.Classic.X[i][1], m.X(tt), m.Y(tt))
		}
	}
	rs, err := RefineGrid(context.Background(), m, 200, 10, gossip.Synchronous, ode.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	xs, _ := Map(m, 200)
	for i, tt := range rs.T {
		if math.Abs(rs.Classic.X[i][0]-xs[int(tt)]) > 1e-12 {
			t.Errorf("synchronous t=%g: classic x %v, Map %v", tt, rs.Classic.X[i][0], xs[int(tt)])
		}
	}
}
