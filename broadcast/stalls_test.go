package broadcast

import (
	"context"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/broadcast/internal/lumped"
)

// watchedMean is the mean and standard error (meanIv's) of the chance
// by D of n watched runs of e (one watched node).
func watchedMean(t *testing.T, e *engine, n, D int) (mean, se float64) {
	t.Helper()
	v := make([]float64, n)
	for i := range n {
		var err error
		if _, v[i], err = e.runWatched(context.Background(), i, D); err != nil {
			t.Fatal(err)
		}
	}
	iv, se := meanIv(v)
	return iv.v, se
}

// TestWatchedStallUnbiased checks the forced stall of the watched runs
// (stalls.go) against the same runs with none forced, an estimator that
// does not use A_L: where the source's stalls are common (N 300) both see
// them, so the means of 40,000 forced and 120,000 plain runs must agree within 4 standard
// errors of the difference. The stalls that are forced carry 84 % (pull,
// D 14), 48 % (push–pull, B 4, D 11) and, of two rounds or more, 52 %
// (push–pull without a budget, k 1, ε 0.5, D 16) of the chance (20,000
// runs of seed 3), so a wrong A_L or weight moves the forced mean by as
// much (A_L without the source's pushes: z +74).
func TestWatchedStallUnbiased(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"pull", Config{Nodes: 300, Protocol: Pull, Fanout: 2, Loss: 0.2, Failed: 0.1, Level: 1, Deadline: 14}},
		{"push-pull B4", Config{Nodes: 300, Protocol: PushPull, Fanout: 2, Loss: 0.3, Failed: 0.1, Budget: 4, Level: 1, Deadline: 11}},
		{"push-pull", Config{Nodes: 300, Protocol: PushPull, Fanout: 1, Loss: 0.5, Failed: 0.1, Level: 1, Deadline: 16}},
	} {
		t.Run(c.name, func(t *testing.T) {
			D := deadlineRounds(c.cfg)
			forced := newWatchEngine(c.cfg, 7, 1)
			if !forced.watchStall(D).Forced() {
				t.Fatal("no stall forced")
			}
			plain := newWatchEngine(c.cfg, 8, 1)
			plain.stall, plain.stallCap = lumped.Stall{}, D
			mf, sf := watchedMean(t, forced, 40_000, D)
			mp, sp := watchedMean(t, plain, 120_000, D)
			z := (mf - mp) / math.Hypot(sf, sp)
			t.Logf("forced %.5g ± %.2g, plain %.5g ± %.2g (z %+.2f)", mf, sf, mp, sp, z)
			if !(math.Abs(z) <= 4) {
				t.Errorf("forced %.5g and plain %.5g are %.1f standard errors apart", mf, mp, z)
			}
		})
	}
}

// TestWatchedStallReach checks that the watched runs see the long stalls
// they are meant to: at N 2,000, push–pull, k 2, ε 0.3, φ 0.1, B 8, D 13
// the source stalls four rounds or more with the chance A₄ ≈ 1.02e-5
// (TestUnseenStall's hand value for the large-N law, 1.0215e-5; the
// watched runs' differs by the one watched node, O(1/N)), which 4,000
// runs drawing stalls at their own rate would see with the chance 4 %.
// The weighted share of the forced runs that stalled at least four rounds
// must estimate A₄ within 3 standard errors and 10 %, and the chance by
// D must be at least that stall's share of it, about 17 % (stalls.go).
func TestWatchedStallReach(t *testing.T) {
	cfg := Config{Nodes: 2000, Protocol: PushPull, Fanout: 2, Loss: 0.3, Failed: 0.1, Budget: 8, Level: 1, Deadline: 13}
	D := deadlineRounds(cfg)
	e := newWatchEngine(cfg, 3, 1)
	st := e.watchStall(D)
	const n = 4000
	var s, s2, vs, vl float64
	for i := range n {
		_, v, err := e.runWatched(context.Background(), i, D)
		if err != nil {
			t.Fatal(err)
		}
		vs += v
		if e.stallSeen >= 4 {
			w := st.Weight(e.stallSeen)
			if !e.stallEnded {
				w = st.WeightAtLeast(e.stallSeen)
			}
			s += w
			s2 += w * w
			vl += v
		}
	}
	a4 := s / n
	se := math.Sqrt(math.Max(s2/n-a4*a4, 0) / (n - 1))
	const hand = 1.0215e-5
	t.Logf("A4 %.5g ± %.2g (hand, large-N law's: %.5g); chance by D %.4g, of it the stalls ≥ 4: %.3g", a4, se, hand, vs/n, vl/vs)
	if !(math.Abs(a4-hand) <= 3*se) || !(math.Abs(a4/hand-1) <= 0.1) {
		t.Errorf("A4 %.5g ± %.2g, want %.5g", a4, se, hand)
	}
	if !(vl/vs >= 0.1) {
		t.Errorf("the stalls of four rounds and more carry %.3g of the chance by D, want about 0.17", vl/vs)
	}
}

// TestBudgetPushPullLawDeep checks the stated interval of the large-N law
// of a budgeted push–pull whose budget binds by D (its runs from the
// source, closureKappa; lumped.go) where it is weakest, few live nodes
// and a deep deadline: N 1,000, k 2, ε 0.2, φ 0.05, B 4, D 20, where the
// chance a node is uninformed is about 8e-11 (the long scan,
// TestClosureScanBudgetPushPull: the law 8.297e-11, 20,000 watched runs
// of seed 11 8.02e-11 ± 3.4 %). 20,000 watched runs of another seed (an
// independent estimator, the source's stall forced) must lie in the
// law's interval widened by their own 3 standard errors.
func TestBudgetPushPullLawDeep(t *testing.T) {
	cfg := Config{Nodes: 1000, Protocol: PushPull, Fanout: 2, Loss: 0.2, Failed: 0.05, Budget: 4, Level: 1, Deadline: 20}
	law, err := lumpedModelLaw(context.Background(), cfg, newLumped(cfg))
	if err != nil {
		t.Fatal(err)
	}
	iv := ivOf(law.ResidueDeadline, law.ResidueDeadlineRelErr)
	D := deadlineRounds(cfg)
	m, se := watchedMean(t, newWatchEngine(cfg, 21, 1), 20_000, D)
	share := float64(cfg.Live()-1) / float64(cfg.Live())
	m, se = m*share, se*share
	t.Logf("law %.4g within %.3g [%.4g, %.4g]; watched runs %.4g ± %.2g", iv.v, law.ResidueDeadlineRelErr, iv.lo, iv.hi, m, se)
	if !(m >= iv.lo-3*se && m <= iv.hi+3*se) {
		t.Errorf("the watched runs' %.4g ± %.2g lie outside the law's [%.4g, %.4g]", m, se, iv.lo, iv.hi)
	}
	if !(law.ResidueDeadlineRelErr < 0.5) {
		t.Errorf("the law states %.3g", law.ResidueDeadlineRelErr)
	}
}

// TestWatchedStallCurves checks the curves' exact sums (fixsum, which
// keeps the level-1 curves) against the plain mean of the same weighted
// curves: a forced stall's weight reaches 2 (1/q(0)), and the sums once
// clipped every value to 1 (pull, N 300, k 2, ε 0.2, φ 0.1: round 1's
// mean 0.510 against 0.991). 4,000 runs, rounds 1–12, within 1e-9
// relative (the sums truncate each term below 2⁻²⁵⁶).
func TestWatchedStallCurves(t *testing.T) {
	cfg := Config{Nodes: 300, Protocol: Pull, Fanout: 2, Loss: 0.2, Failed: 0.1, Level: 1, Deadline: 14}
	e := newWatchEngine(cfg, 5, 1)
	e.curveOn = true
	var c Curves
	const n, rounds = 4000, 12
	raw := make([]float64, rounds+1)
	for i := range n {
		if _, _, err := e.runWatched(context.Background(), i, 0); err != nil {
			t.Fatal(err)
		}
		c.AddRun(e.curve, nil, e.lateCurve, e.lateShare(e.live-1), e.curveCapped)
		last := 1.0
		for r := 1; r <= rounds; r++ {
			if r-1 < len(e.curve) {
				last = e.curve[r-1]
			}
			raw[r] += last
		}
	}
	if !e.watchStall(maxCurveRounds).Forced() {
		t.Fatal("no stall forced")
	}
	for r := 1; r <= rounds; r++ {
		m, _, ok := c.Moments(1, r)
		want := raw[r] / n
		if !ok || !(math.Abs(m/want-1) <= 1e-9) {
			t.Errorf("round %d: the sums' mean %.9g, the runs' %.9g", r, m, want)
		}
	}
}

// TestWatchedStallDeepPushPull checks the watched runs of a push–pull
// without a budget deep in its deadline's tail against the exact chain:
// N 300, k 2, ε 0.1, D 10, where the chance a node is uninformed is
// 6.4449e-13 (ExactLaw, within 6e-10 of it: countchain's relative
// bound, checked against the chain in rationals). The source stalls with
// the chance ε^k·h(1)^u ≈ 2e-3 a round, and a stall of two rounds leaves
// the run late: 1,000 runs drawing stalls at their own rate stated 4.38e-13
// within 22 % (a third low). 20,000 runs with the stall forced must agree
// within 3 standard errors and state it within 10 %.
func TestWatchedStallDeepPushPull(t *testing.T) {
	cfg := Config{Nodes: 300, Protocol: PushPull, Fanout: 2, Loss: 0.1, Level: 1, Deadline: 10}
	ex, err := ExactLaw(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !(ex.ResidueDeadlineRelErr < 1e-6) {
		t.Fatalf("exact %.5g within %.2g: no reference", ex.ResidueDeadline, ex.ResidueDeadlineRelErr)
	}
	D := deadlineRounds(cfg)
	m, se := watchedMean(t, newWatchEngine(cfg, 5, 1), 20_000, D)
	t.Logf("watched %.5g ± %.2g, exact %.5g", m, se, ex.ResidueDeadline)
	if !(math.Abs(m-ex.ResidueDeadline) <= 3*se) || !(3*se <= 0.1*m) {
		t.Errorf("watched %.5g ± %.2g, exact %.5g", m, se, ex.ResidueDeadline)
	}
}
