package broadcast

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// TestAgainstExact compares the Monte Carlo with the exact count chain
// (ExactLaw, an independent algorithm: the law of one round's new count by
// occupancy recursions, not by simulating nodes) at N = 2…1,000 for every
// protocol, with loss, failures and budgets: every P(T_L = r), Never and
// PMiss within 5 binomial standard errors (with the exact probability)
// plus the chain's stated Bound; the mean messages per live node and the
// residue within 5 sample standard errors (testSeed). The literal engine
// is compared too where N ≤ 100.
func TestAgainstExact(t *testing.T) {
	t.Parallel()
	cfgs := []Config{
		{Nodes: 2, Protocol: PushPull, Fanout: 1, Loss: 0.4, Level: 1},
		{Nodes: 3, Protocol: Push, Fanout: 1, Loss: 0.2, Budget: 2, Level: 1},
		{Nodes: 5, Protocol: Pull, Fanout: 2, Loss: 0.3, Failed: 0.25, Level: 1},
		{Nodes: 10, Protocol: Push, Fanout: 2, Loss: 0.1, Failed: 0.2, Budget: 3, Level: 1},
		{Nodes: 30, Protocol: PushPull, Fanout: 2, Loss: 0.2, Failed: 0.1, Budget: 2, Level: 0.9},
		{Nodes: 100, Protocol: Push, Fanout: 3, Loss: 0.2, Failed: 0.1, Level: 1},
		{Nodes: 100, Protocol: Pull, Fanout: 1, Loss: 0.1, Level: 1},
		{Nodes: 50, Protocol: Push, Fanout: 3, Loss: 0.1, Failed: 0.1, Budget: 4, Level: 1},
		{Nodes: 30, Protocol: Push, Fanout: 1, Budget: 3, Level: 0.8},
		{Nodes: 300, Protocol: PushPull, Fanout: 1, Loss: 0.3, Failed: 0.2, Level: 1},
		{Nodes: 1000, Protocol: Push, Fanout: 3, Loss: 0.1, Failed: 0.1, Level: 1},
		{Nodes: 1000, Protocol: Pull, Fanout: 2, Loss: 0.2, Level: 0.99},
		{Nodes: 500, Protocol: Pull, Fanout: 3, Loss: 0.2, Failed: 0.3, Level: 1},
		{Nodes: 600, Protocol: PushPull, Fanout: 2, Loss: 0.1, Failed: 0.05, Level: 0.95},
	}
	const R = 2000
	t.Logf("seed %d, %d replications", testSeed, R)
	for _, cfg := range cfgs {
		name := fmt.Sprintf("%v/N=%d/k=%d/B=%d/eps=%g/phi=%g", cfg.Protocol, cfg.Nodes, cfg.Fanout, cfg.Budget, cfg.Loss, cfg.Failed)
		t.Run(name, func(t *testing.T) {
			ex, err := ExactLaw(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			bound := ex.Accuracy.Bound
			// The exact side must be exact next to the MC's standard
			// errors (≥ 1e-3 at R = 2000): 1e-6 is 1000 times smaller.
			if math.IsNaN(bound) || bound > 1e-6 {
				t.Fatalf("exact bound %g", bound)
			}
			for _, eng := range engines {
				if eng.literal && cfg.Nodes > 100 {
					continue
				}
				s, err := Simulate(context.Background(), cfg, SimSettings{Reps: R, Seed: testSeed, Literal: eng.literal})
				if err != nil {
					t.Fatal(err)
				}
				law := s.Law()
				prob := func(what string, got, want float64) {
					if !within(got, want, math.Sqrt(want*(1-want)/R)+bound/5) {
						t.Errorf("%s: %s = %.4f, exact %.4f", eng.name, what, got, want)
					}
				}
				for r := range max(len(law.PMF), len(ex.PMF)) {
					var got, want float64
					if r < len(law.PMF) {
						got = law.PMF[r]
					}
					if r < len(ex.PMF) {
						want = ex.PMF[r]
					}
					prob(fmt.Sprintf("P(T = %d)", r), got, want)
				}
				prob("Never", law.Never, ex.Never)
				prob("PMiss", law.PMiss, ex.PMiss)
				M := float64(cfg.Live())
				res, resSE := meanSE(s, func(r Replication) float64 { return float64(r.Missed) / M })
				if !within(res, ex.Residue, resSE+bound/5) {
					t.Errorf("%s: Residue = %.5f ± %.5f, exact %.5f", eng.name, res, resSE, ex.Residue)
				}
				if se := law.MessagesSD / math.Sqrt(R); !within(law.Messages, ex.Messages, se+bound/5) {
					t.Errorf("%s: Messages = %.4f ± %.4f, exact %.4f", eng.name, law.Messages, se, ex.Messages)
				}
			}
		})
	}
}

// TestSolveMonteCarlo runs Solve by the Monte Carlo and checks the answer
// it builds (Law.Answer with standard errors) against the exact chain's:
// the mean of T_1 within 5 of its standard errors, P(T_1 ≤ D) within 5 of
// its own.
func TestSolveMonteCarlo(t *testing.T) {
	cfg := Config{Nodes: 200, Protocol: PushPull, Fanout: 1, Loss: 0.2, Failed: 0.1, Level: 1, Deadline: 8}
	a, err := Solve(context.Background(), cfg, Settings{Method: MonteCarlo, Reps: 2000, Seed: testSeed})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := ExactLaw(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	e := ex.Answer(cfg)
	if a.Method != MonteCarlo || !(a.Accuracy.SEMean > 0) || !(a.Accuracy.SEPDeadline > 0) || !(a.Accuracy.SEMessages > 0) {
		t.Fatalf("answer %+v: want the Monte Carlo's, with standard errors", a)
	}
	if !within(a.Mean, e.Mean, a.Accuracy.SEMean) || !within(a.PDeadline, e.PDeadline, a.Accuracy.SEPDeadline) {
		t.Errorf("mean %.3f ± %.3f, P(T ≤ 8) %.4f ± %.4f; exact %.3f, %.4f", a.Mean, a.Accuracy.SEMean, a.PDeadline, a.Accuracy.SEPDeadline, e.Mean, e.PDeadline)
	}
}
