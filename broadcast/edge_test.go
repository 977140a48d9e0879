package broadcast

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// TestEdgeCases runs both methods over tiny and extreme settings (N = 2…7,
// every fanout, loss up to 0.99, half the nodes down, levels from one node
// to all, budgets 1 and 5; loss 0.99 where the chain ends in a few
// thousand rounds: push, push–pull): no error, a law of total mass 1 within its
// stated accuracy, and the asymptotic law within its stated DevP of the
// exact one even here, far from its regime.
func TestEdgeCases(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	n := 0
	for N := 2; N <= 7; N++ {
		for _, p := range []Protocol{Push, Pull, PushPull} {
			for k := 1; k < N; k++ {
				for _, e := range []float64{0, 0.5, 0.99} {
					for _, f := range []float64{0, 0.5} {
						for _, L := range []float64{1e-9, 0.5, 1} {
							for _, B := range []int{0, 1, 5} {
								cfg := Config{Nodes: N, Protocol: p, Fanout: k, Loss: e, Failed: f, Level: L, Budget: B}
								// Loss 0.99 with pulls alone (pull, or push–pull
								// once a budget is spent) needs ~10⁵ rounds.
								if cfg.Validate() != nil || B > 0 && N > 5 || e > 0.9 && (p == Pull || p == PushPull && B > 0) {
									continue
								}
								name := fmt.Sprintf("%v/N=%d/k=%d/eps=%g/phi=%g/L=%g/B=%d", p, N, k, e, f, L, B)
								ex, err := ExactLaw(ctx, cfg)
								if err != nil {
									t.Fatalf("%s: %v", name, err)
								}
								mass := ex.Never
								for _, q := range ex.PMF {
									mass += q
								}
								// + the rounding of a sum of ≤ a few thousand
								// terms ≤ 1: 5000·1.1e-16 < 1e-12.
								if math.Abs(mass-1) > ex.Accuracy.Bound+1e-12 {
									t.Errorf("%s: exact mass %.15g (bound %g)", name, mass, ex.Accuracy.Bound)
								}
								n++
								if B > 0 {
									continue
								}
								as, err := AsymptoticLaw(ctx, cfg)
								if err != nil {
									t.Fatalf("%s: asymptotic: %v", name, err)
								}
								dF, _, _ := lawDiff(cfg, as, ex)
								if dF > as.Accuracy.DevP {
									t.Errorf("%s: asymptotic |ΔF| %.3g > DevP %.3g", name, dF, as.Accuracy.DevP)
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d configurations", n)
}
