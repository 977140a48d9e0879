package plan

import (
	"context"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// TestFeasibleJudgesLowerEnd: a Monte Carlo whose every run met the
// deadline shows P(T_L ≤ D) = 1 with a standard error of 0, but R runs
// resolve it only down to Wilson's lower end R/(R + 9) at z = 3 (200 runs:
// 0.9569); the truth here is below 1 (the exact chain's P(T_L ≤ 200) is
// 1 − 1.86·10⁻⁶), so a confidence above that end is not feasible, and one
// below it is. The point estimate alone called 0.999999 feasible, which
// the exact chain refutes.
func TestFeasibleJudgesLowerEnd(t *testing.T) {
	cfg := Config{Nodes: 40, Shuffle: gossip.Shuffle{Items: 100, Cache: 20, Exchange: 5}, Level: 0.9, Deadline: 200}
	set := Settings{Method: MonteCarlo, Model: Lumped, Reps: 200, Seed: 7}
	for _, c := range []struct {
		conf float64
		want bool
	}{{0.95, true}, {0.96, false}, {0.999999, false}} {
		cfg.Confidence = c.conf
		r, err := Solve(context.Background(), cfg, set)
		if err != nil {
			t.Fatal(err)
		}
		if r.PDeadline != 1 {
			t.Fatalf("P(T_L ≤ 200) = %g from 200 runs; the test needs every run on time", r.PDeadline)
		}
		if want := 200.0 / 209; r.PDeadlineLow < want-1e-12 || r.PDeadlineLow > want+1e-12 {
			t.Errorf("lower end %.6g, want 200/209 = %.6g", r.PDeadlineLow, want)
		}
		if r.Feasible != c.want {
			t.Errorf("confidence %g: feasible %v, want %v", c.conf, r.Feasible, c.want)
		}
	}
	// A computed law: the exact chain's lower end is PDeadline − Bound.
	for _, c := range []struct {
		conf float64
		want bool
	}{{0.99999, true}, {0.999999, false}} {
		cfg.Confidence = c.conf
		r, err := Solve(context.Background(), cfg, Settings{Method: Exact})
		if err != nil {
			t.Fatal(err)
		}
		if r.Feasible != c.want || r.PDeadlineLow != r.PDeadline-r.Accuracy.Bound {
			t.Errorf("exact, confidence %g: P %.17g, low %.17g, bound %g, feasible %v", c.conf, r.PDeadline, r.PDeadlineLow, r.Accuracy.Bound, r.Feasible)
		}
	}
}
