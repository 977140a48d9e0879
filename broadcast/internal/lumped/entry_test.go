package lumped

import (
	"context"
	"math"
	"testing"
)

// TestEntryLaw checks the entry law (entry.go): its chances and the
// chance of a count still below c at D sum to 1 (no mass is lost by the
// chain); and DeadlineLaw's chances agree with those of the model's own
// runs from the source (Law: forced stalls, stratified), a different
// estimator of the same means, within 4 standard errors of the
// difference, at a deadline near the mean and one in the tail, for push,
// pull and push–pull, each also more precise than the runs from the
// source where the chance is below 10⁻³.
func TestEntryLaw(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name        string
		p           Params
		pulls, push bool
	}{
		// broadcast.Config{Nodes: 20000, Fanout: 2, Loss: 0.1, Failed:
		// 0.02, Level: 1, Deadline: D}: M = 19,600 live of N − 1 = 19,999.
		{"push D 17", Params{M: 19600, N1: 19999, K: 2, R: 18, Budget: 36, Target: 19600, D: 17, Eps: 0.1, Z: 3}, false, true},
		{"push D 20", Params{M: 19600, N1: 19999, K: 2, R: 21, Budget: 42, Target: 19600, D: 20, Eps: 0.1, Z: 3}, false, true},
		{"pull D 12", Params{M: 19600, N1: 19999, K: 2, R: 13, Target: 19600, D: 12, Eps: 0.1, Z: 3, Pulls: true, NoPushes: true}, true, false},
		{"pull D 16", Params{M: 19600, N1: 19999, K: 2, R: 17, Target: 19600, D: 16, Eps: 0.1, Z: 3, Pulls: true, NoPushes: true}, true, false},
		{"push-pull D 8", Params{M: 19600, N1: 19999, K: 2, R: 9, Budget: 18, Target: 19600, D: 8, Eps: 0.1, Z: 3, Pulls: true}, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := New(c.p)
			e, err := m.entry(ctx, m.EntryCount())
			if err != nil {
				t.Fatal(err)
			}
			sum := e.below
			for _, p := range e.p {
				sum += p
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("the entry law sums to 1 %+.2g", sum-1)
			}
			late, resD, runs, err := m.DeadlineLaw(ctx)
			if err != nil {
				t.Fatal(err)
			}
			s, _, err := m.Law(ctx)
			if err != nil {
				t.Fatal(err)
			}
			sl, sr := s.Deadline()
			for _, q := range []struct {
				name string
				a, b Est
			}{{"p_late", late, sl}, {"residue_deadline", resD, sr}} {
				se := math.Hypot(q.a.SE, q.b.SE)
				if q.b.SE == 0 {
					// Every run from the source gave the same value (pull
					// at D 12 is late in all 80,000; the entry law's
					// 1 − 4.8·10⁻⁶ is not 1): the rule of three, 3/n, is
					// the most it can be off.
					se = math.Max(se, 3/s.Runs/4)
				}
				z := (q.a.V - q.b.V) / se
				t.Logf("%s: entry %.5g ± %.2g (%d runs), from the source %.5g ± %.2g (%d runs): z %+.2f", q.name, q.a.V, q.a.SE, runs, q.b.V, q.b.SE, int(s.Runs), z)
				if !(math.Abs(z) <= 4) {
					t.Errorf("%s: entry %.5g and runs %.5g are %.1f standard errors apart", q.name, q.a.V, q.b.V, z)
				}
				if q.a.V < 1e-3 && !(q.a.SE/q.a.V < q.b.SE/q.b.V) {
					t.Errorf("%s: entry relative SE %.3g, from the source %.3g", q.name, q.a.SE/q.a.V, q.b.SE/q.b.V)
				}
			}
		})
	}
}
