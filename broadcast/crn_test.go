package broadcast

import (
	"context"
	"math"
	"testing"
)

// TestSweepCommonRandomNumbers: the rows of a budget sweep share their
// random numbers (replication r of every row draws from stream r of the
// seed), so their differences are the budget's, not noise's. Push, N =
// 1000, fanout 3, ε = 0.05, φ = 0.02, L = 1, budgets 8…48 by 4, 400
// replications of one seed:
//   - t_confidence at P = 0.9 (resolved: 0.1 ≥ 9/409) never rises with
//     the budget, and the residue falls (a larger budget informs more);
//   - rows whose budget outlasts every replication's broadcast (each
//     informed node still has transmits left at T_L, B > k·max T_L) run
//     the same draws: their means, sds and t_confidence are equal, bit for
//     bit. Independent streams per row would differ there by the noise
//     (sd/√R ≈ 0.03 rounds in the mean).
func TestSweepCommonRandomNumbers(t *testing.T) {
	t.Parallel()
	cfg := Config{Protocol: Push, Nodes: 1000, Loss: 0.05, Failed: 0.02, Level: 1, Confidence: 0.9}
	var budgets []int
	for b := 8; b <= 48; b += 4 {
		budgets = append(budgets, b)
	}
	d, err := Sweep(context.Background(), cfg, []int{3}, budgets, Settings{Method: MonteCarlo, Reps: 400, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for i := 1; i < len(d.Rows); i++ {
		a, b := d.Rows[i-1], d.Rows[i]
		if !math.IsNaN(a.TConfidence) && b.TConfidence > a.TConfidence {
			t.Errorf("budget %d → %d: t_confidence %v → %v rises", a.Budget, b.Budget, a.TConfidence, b.TConfidence)
		}
		if !(b.Residue < a.Residue) {
			t.Errorf("budget %d → %d: residue %v → %v does not fall", a.Budget, b.Budget, a.Residue, b.Residue)
		}
		if maxT := a.Q95 + 4*a.SD; float64(a.Budget) > 3*(maxT+1) {
			if a.Mean != b.Mean || a.SD != b.SD || a.TConfidence != b.TConfidence {
				t.Errorf("budgets %d and %d (beyond every broadcast): mean %v, %v; sd %v, %v; t_confidence %v, %v: want equal draws",
					a.Budget, b.Budget, a.Mean, b.Mean, a.SD, b.SD, a.TConfidence, b.TConfidence)
			}
			same++
		}
	}
	if same == 0 {
		t.Errorf("no pair of budgets beyond every broadcast: the test checks nothing there")
	}
}
