package chain

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/meanfield"
	"github.com/gossipkit/gossipkit/ode"
)

// The refined mean field's 1/N term against the exact chain: E[X^N(t)/N] =
// x(t) + V(t)/N + O(1/N²), so N·(E_exact − x) tends to V as N grows. With
// the start at 5 % of the nodes (so that x(0) is the same for every N), the
// relative distance of N·(E_exact − x) from V over t ∈ [0, 40] must shrink
// like 1/N: it is checked to fall by at least a factor 2.5 from each N to
// 4N (1/N would give 4).
func TestRefinedMeanFieldOneOverN(t *testing.T) {
	const n, c, s, T = 500, 100, 50, 40
	prev := math.Inf(1)
	for _, N := range []int{100, 400, 1600} {
		m, err := approx.NewModel(approx.Config{Nodes: N, Shuffle: gossip.Shuffle{Items: n, Cache: c, Exchange: s}, PDrop: approx.Simplified, Initial: N / 20})
		if err != nil {
			t.Fatal(err)
		}
		ts := make([]float64, T+1)
		for i := range ts {
			ts[i] = float64(i)
		}
		ref, err := meanfield.RefinedContinuous(context.Background(), meanfield.Replication(m), []float64{m.X0}, ts, ode.Settings{RTol: 1e-12, ATol: 1e-15})
		if err != nil {
			t.Fatal(err)
		}
		ex, err := Solve(context.Background(), Config{Nodes: N, Shuffle: gossip.Shuffle{Items: n, Cache: c, Exchange: s}, Initial: N / 20, ReplicationOnly: true, Time: gossip.Continuous, TMax: T, Dt: 1}, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		worst, vmax := 0.0, 0.0
		for i := range ts {
			got := float64(N) * (ex.Rows[i].X.Mean - ref.X[i][0])
			worst = math.Max(worst, math.Abs(got-ref.V[i][0]))
			vmax = math.Max(vmax, math.Abs(ref.V[i][0]))
		}
		rel := worst / vmax
		t.Logf("N = %d: max |N(E − x) − V| / max|V| = %.4f", N, rel)
		if rel > prev/2.5 {
			t.Errorf("N = %d: relative distance %.4f did not shrink enough from %.4f", N, rel, prev)
		}
		prev = rel
	}
}

// The replication chain of the paper's setting against SciPy's
// expm_multiply on a generator built independently from the model's
// formulas (testdata/chain, provenance in testdata/README.md). Both are
// accurate to ~1e-14; 1e-12 leaves room for rounding over 300 rounds.
func TestAgainstExpmMultiply(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "testdata", "chain", "expm_multiply_N2500.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Solve(context.Background(), Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, ReplicationOnly: true, Time: gossip.Continuous, TMax: 300, Dt: 1}, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i, rec := range recs[1:] {
		want, _ := strconv.ParseFloat(rec[1], 64)
		worst = math.Max(worst, math.Abs(res.Rows[i].X.Mean-want))
	}
	if len(recs)-1 != len(res.Rows) || worst > 1e-12 {
		t.Errorf("%d rows against %d; largest difference %g", len(recs)-1, len(res.Rows), worst)
	}
	t.Logf("largest difference of E[X(t)/N]: %.3g (bound %.3g)", worst, res.Bound)
}

// The joint chain at N = 300 (the setting of the speed comparison in
// testdata/README.md) against SciPy's expm_multiply on a generator of
// (X, Y) built independently from the model's formulas (testdata/chain, provenance in
// testdata/README.md): E[X(t)/N], E[Y(t)/N] and P(Y(t) ≥ 297) at
// t = 0..150. Both are accurate to ~1e-14 (expm_multiply's tolerance is
// 2^-53 a step; the solver's bound is ~1e-12); 1e-12, as for the
// replication chain, leaves room for the rounding of both over 150 rounds
// (measured: 5.3e-15 at most).
func TestJointAgainstExpmMultiply(t *testing.T) {
	if testing.Short() {
		t.Skip("a 2 s solve")
	}
	f, err := os.Open(filepath.Join("..", "testdata", "chain", "expm_multiply_joint_N300.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Solve(context.Background(), Config{Nodes: 300, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Time: gossip.Continuous, TMax: 150, Dt: 1, Level: 0.99}, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs)-1 != len(res.Rows) {
		t.Fatalf("%d rows against %d", len(recs)-1, len(res.Rows))
	}
	worst := [3]float64{}
	for i, rec := range recs[1:] {
		row := res.Rows[i]
		for k, got := range []float64{row.X.Mean, row.Y.Mean, row.PLevel} {
			want, err := strconv.ParseFloat(rec[k+1], 64)
			if err != nil {
				t.Fatal(err)
			}
			worst[k] = math.Max(worst[k], math.Abs(got-want))
		}
	}
	t.Logf("largest differences: x_mean %.3g, y_mean %.3g, p_level %.3g (bound %.3g)", worst[0], worst[1], worst[2], res.Bound)
	for k, name := range []string{"x_mean", "y_mean", "p_level"} {
		if worst[k] > 1e-12 {
			t.Errorf("%s: largest difference %g", name, worst[k])
		}
	}
}
