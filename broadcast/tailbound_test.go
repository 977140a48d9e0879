package broadcast

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/broadcast/internal/pmf"
)

// TestPullTailBoundAgainstExact: pullTailBound's upper ends of P(T_L > D)
// and of the chance a given live node is uninformed at D are at least the
// exact chain's values (less their stated relative error: the lowest the
// truth can be), for pull and push–pull with loss, failed nodes, a level
// below 1 and a budget, at deadlines in T_L's tail; and below 10⁻² there,
// so that a wrong bound could fail (measured 2026-12-07: pull 7–20 times
// the exact chance, push–pull, whose start the bound gives to the pulls
// alone, up to 10¹² times). A bound that did not hold (the coupling or
// the Chernoff chain wrong) fails here.
func TestPullTailBoundAgainstExact(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		cfg Config
		Ds  []int
	}{
		{Config{Nodes: 2000, Protocol: Pull, Fanout: 2, Level: 1}, []int{14, 20, 30}},
		{Config{Nodes: 2000, Protocol: Pull, Fanout: 2, Loss: 0.1, Failed: 0.1, Level: 1}, []int{20, 30}},
		{Config{Nodes: 1000, Protocol: Pull, Fanout: 1, Level: 1}, []int{25, 40}},
		{Config{Nodes: 1000, Protocol: Pull, Fanout: 2, Level: 0.9}, []int{12, 14}},
		{Config{Nodes: 2000, Protocol: PushPull, Fanout: 2, Loss: 0.1, Level: 1}, []int{14}},
		{Config{Nodes: 3000, Protocol: PushPull, Fanout: 3, Level: 1}, []int{10}},
	} {
		for _, D := range c.Ds {
			cfg := c.cfg
			cfg.Deadline = float64(D)
			t.Run(fmt.Sprintf("%v_N%d_k%d_eps%g_phi%g_L%g_D%d", cfg.Protocol, cfg.Nodes, cfg.Fanout, cfg.Loss, cfg.Failed, cfg.Level, D), func(t *testing.T) {
				late, res, ok := pullTailBound(cfg, D)
				if !ok {
					t.Fatal("no bound")
				}
				l, err := ExactLaw(ctx, cfg)
				if err != nil {
					t.Fatal(err)
				}
				a := l.Answer(cfg)
				low := func(v, rel float64) float64 {
					if math.IsInf(rel, 1) || math.IsNaN(rel) {
						return 0
					}
					return v * math.Max(1-rel, 0)
				}
				if lo := low(a.PLate, a.PLateRelErr); !(late >= lo) {
					t.Errorf("P(T_L > D) ≤ %.4g claimed; the exact chain has %.6g (rel err %.2g)", late, a.PLate, a.PLateRelErr)
				}
				if lo := low(a.ResidueDeadline, a.ResidueDeadlineRelErr); !(res >= lo) {
					t.Errorf("residue_deadline ≤ %.4g claimed; the exact chain has %.6g (rel err %.2g)", res, a.ResidueDeadline, a.ResidueDeadlineRelErr)
				}
				if !(late < 1e-2) {
					t.Errorf("P(T_L > D) ≤ %.3g: vacuous here (exact %.3g)", late, a.PLate)
				}
				t.Logf("P(T_L > D): bound %.3g, exact %.3g; residue_deadline: bound %.3g, exact %.3g", late, a.PLate, res, a.ResidueDeadline)
			})
		}
	}
}

// TestPullTailBoundDeep: at N 10⁵, push–pull, k 3, D 30 the bound is what
// Auto states (the watched runs weigh 0 without loss, and the asymptotic
// law's accuracy is 0.004 absolute): below 10⁻¹², with the deadline met at
// confidence 1 − 10⁻⁶; with loss 0.1 it is at least the large-N law's
// lower end (an independent computation: the start computed, the rest
// drawn), which Auto keeps as the tighter statement.
func TestPullTailBoundDeep(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Nodes: 100_000, Protocol: PushPull, Fanout: 3, Level: 1, Deadline: 30, Confidence: 1 - 1e-6}
	a, err := Solve(ctx, cfg, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if !(a.PLate == 0 && a.PLateFloor > 0 && a.PLateFloor < 1e-12) || !a.Feasible {
		t.Errorf("P(T_L > 30) = %g (floor %g), feasible %v: want 0 within a proved bound below 1e-12, feasible", a.PLate, a.PLateFloor, a.Feasible)
	}
	if c := residueDeadlineCell(*a); !(a.residueDHi > 0 && a.residueDHi < 1e-12) || c != "0 (≤ "+g2(a.residueDHi)+")" {
		t.Errorf("residue_deadline cell %q (bound %g)", c, a.residueDHi)
	}
	// The machine formats carry the bounds (p_late_hi, residue_deadline_hi).
	if lateUpper(*a) != a.PLateFloor || residueDUpper(*a) != a.residueDHi {
		t.Errorf("upper ends %g, %g, want the bounds %g, %g", lateUpper(*a), residueDUpper(*a), a.PLateFloor, a.residueDHi)
	}
	cfg.Loss = 0.1
	late, res, _ := pullTailBound(cfg, 30)
	b, err := Solve(ctx, cfg, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if lo := b.PLate * (1 - b.PLateRelErr); !(late >= lo) || !(b.PLate*(1+b.PLateRelErr) <= late) {
		t.Errorf("loss 0.1: bound %.3g, large-N law %.3g (rel err %.2g): want the law inside the bound", late, b.PLate, b.PLateRelErr)
	}
	if lo := b.ResidueDeadline * (1 - b.ResidueDeadlineRelErr); !(res >= lo) {
		t.Errorf("loss 0.1: residue bound %.3g, large-N law %.3g (rel err %.2g)", res, b.ResidueDeadline, b.ResidueDeadlineRelErr)
	}
}

// TestPullTailBoundRefuses: no bound without pulls, without a deadline,
// or with fewer than three live nodes (the pulls' chain starts below its
// hand-over count of at least 2).
func TestPullTailBoundRefuses(t *testing.T) {
	for _, c := range []struct {
		cfg Config
		D   int
	}{
		{Config{Nodes: 100, Protocol: Push, Fanout: 2, Level: 1}, 10},
		{Config{Nodes: 100, Protocol: Pull, Fanout: 2, Level: 1}, 0},
		{Config{Nodes: 2, Protocol: PushPull, Fanout: 1, Level: 1}, 5},
		{Config{Nodes: 10, Protocol: Pull, Fanout: 1, Failed: 0.9, Level: 1}, 5},
	} {
		if l, r, ok := pullTailBound(c.cfg, c.D); ok {
			t.Errorf("%+v, D %d: bound %g, %g", c.cfg, c.D, l, r)
		}
	}
}

// TestChernoffThreshold: the threshold is the least t whose bound
// exp(−u·KL(t/u ‖ q)) is at most δ, checked by brute force.
func TestChernoffThreshold(t *testing.T) {
	for _, c := range []struct {
		u    int
		q, d float64
	}{{1000, 0.5, 1e-20}, {50, 0.01, 1e-30}, {5, 0.9, 1e-3}, {1, 1e-5, 1e-3}, {100000, 1e-4, 1e-60}} {
		t0, ok := chernoffThreshold(c.u, c.d, c.q, 1-c.q)
		want, wok := 0, false
		for t := 1; t <= c.u; t++ {
			a := float64(t) / float64(c.u)
			if a <= c.q {
				continue
			}
			kl := a * math.Log(a/c.q)
			if a < 1 {
				kl += (1 - a) * math.Log((1-a)/(1-c.q))
			}
			if -float64(c.u)*kl <= math.Log(c.d) {
				want, wok = t, true
				break
			}
		}
		if ok != wok || ok && t0 != want {
			t.Errorf("u %d, q %g, δ %g: %d %v, want %d %v", c.u, c.q, c.d, t0, ok, want, wok)
		}
	}
}

// TestMarkovLateBound: below the level 1, P(T_L > D) ≤ M·residue_deadline/
// (M − ⌈LM⌉ + 1) (Markov on the uninformed count), which Answer states
// where tighter than the method's own: a Monte Carlo of 1,000 runs that
// saw no late one said P(T_L > D) ≤ 9/1009 (Wilson); with its watched
// runs' residue_deadline the bound is 6,800 times smaller. It is
// loose (the exact chain's P(T_L > 9) is 2.1e-48, and 0 from D 10 on, its
// truncation): the check against the chain is only that it holds.
func TestMarkovLateBound(t *testing.T) {
	ctx := context.Background()
	for _, D := range []float64{12} { // 11 too took 2.9 s more for the same check
		cfg := Config{Nodes: 3000, Protocol: Push, Fanout: 3, Level: 0.99, Deadline: D}
		a, err := Solve(ctx, cfg, Settings{Method: MonteCarlo, Reps: 1000, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		l, err := ExactLaw(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		ex := l.Answer(cfg)
		M, A := float64(cfg.Live()), float64(cfg.Live()-cfg.Target())
		want := a.ResidueDeadline * (1 + a.ResidueDeadlineRelErr) * M / (A + 1)
		if !(a.PLate == 0 && math.Abs(a.PLateFloor-want) <= 1e-12*want) {
			t.Errorf("D %g: P(T_L > D) = %g within %g, floor %g: want 0 within %g", D, a.PLate, a.PLateRelErr, a.PLateFloor, want)
		}
		if !(want < 1e-3 && ex.PLate <= want) {
			t.Errorf("D %g: bound %g, exact P(T_L > D) %g", D, want, ex.PLate)
		}
		t.Logf("D %g: P(T_L > D) ≤ %.3g (Markov), exact %.3g; residue_deadline %.4g ± %.2g %%", D, want, ex.PLate, a.ResidueDeadline, 100*a.ResidueDeadlineRelErr)
	}
}

// TestPullTailBoundEdges: where the bound is below the smallest float64
// (pull at N 40 with k 38: q is 0 once 2 are informed, and the source
// stays alone for 30 rounds with (1/39)^(38·30)) it is stated as 10⁻³⁰⁰,
// not 0, which would be no bound and had replaced the exact chain's (the
// mass it dropped by D, 1.5e-23) and made the note say "≤ 0"; and the pulls' chance to succeed keeps its digits
// at N 2⁴⁰: with one informed node, k/(N − 1)·(1 − ε)² (closed form, the
// hypergeometric's single term), where 1 − PullMiss lost five.
func TestPullTailBoundEdges(t *testing.T) {
	cfg := Config{Nodes: 40, Protocol: Pull, Fanout: 38, Level: 1, Deadline: 30}
	law, err := ExactLaw(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	before := law.residueDHi
	law.boundTail(cfg)
	if !(law.residueDHi > 0 && law.residueDHi <= before && law.lateHi > 0) || strings.Contains(law.Accuracy.Note, "≤ 0 ") || strings.Contains(law.Accuracy.Note, "≤ 0,") {
		t.Errorf("residueDHi %g (was %g), lateHi %g, note %q", law.residueDHi, before, law.lateHi, law.Accuracy.Note)
	}
	n1 := 1<<40 - 1
	for _, eps := range []float64{0, 0.1, 0.5} {
		miss, hit := pmf.PullMiss(nil, 1, 3, n1, eps), pmf.PullHit(nil, 1, 3, n1, eps)
		want := 3 / float64(n1) * (1 - eps) * (1 - eps)
		if math.Abs(hit-want) > 1e-14*want || math.Abs(miss+hit-1) > 1e-15 {
			t.Errorf("ε %g: hit %.17g, want %.17g; miss + hit − 1 = %g", eps, hit, want, miss+hit-1)
		}
	}
}
