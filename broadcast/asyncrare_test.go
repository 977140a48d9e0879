package broadcast

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestAsyncWatchedAgainstPlain checks the asynchronous watched runs
// (asyncrare.go) against plain replications of SimulateAsync, an
// independent estimator (it counts the missed nodes of unconditioned
// runs), at settings where misses are common enough to count: the chance
// that a given live node other than the source is not informed by D, and
// never (push with a budget), must agree within 4 standard errors of the
// difference (the test makes 10 such comparisons: at 4 SE a true model
// fails one of them with probability below 10⁻³). The seeds are fixed.
func TestAsyncWatchedAgainstPlain(t *testing.T) {
	cases := []Config{
		{Protocol: Push, Nodes: 60, Fanout: 2, Budget: 4, Loss: 0.1, Deadline: 3},
		{Protocol: Push, Nodes: 40, Fanout: 1, Budget: 6, Loss: 0.2, Failed: 0.1, Deadline: 5.5},
		{Protocol: Push, Nodes: 60, Fanout: 1, Loss: 0.2, Deadline: 4.5},
		{Protocol: Pull, Nodes: 60, Fanout: 1, Loss: 0.1, Deadline: 4},
		{Protocol: PushPull, Nodes: 50, Fanout: 1, Budget: 2, Loss: 0.2, Failed: 0.1, Deadline: 3.2},
	}
	for _, cfg := range cases {
		cfg.Time, cfg.Level = Async, 1
		t.Run(fmt.Sprintf("%v/N%d/k%d/B%d/D%g", cfg.Protocol, cfg.Nodes, cfg.Fanout, cfg.Budget, cfg.Deadline), func(t *testing.T) {
			const plainReps, watchReps = 20000, 4000
			s, err := SimulateAsync(context.Background(), cfg, SimSettings{Reps: plainReps, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			// The plain estimate of the chance for one given live node
			// other than the source: the missed share among the M − 1.
			M := float64(cfg.Live())
			var xd, xe []float64
			for _, r := range s.Reps {
				xd = append(xd, float64(r.MissedByDeadline)/(M-1))
				xe = append(xe, float64(r.Missed)/(M-1))
			}
			w1, _, w1D, _, err := asyncWatchedRuns(context.Background(), cfg, watchReps, 11, 2)
			if err != nil {
				t.Fatal(err)
			}
			check := func(what string, plain, watched []float64) {
				p, sp := sliceMeanSE(plain)
				q, sq := sliceMeanSE(watched)
				d := math.Abs(p - q)
				t.Logf("%s: plain %.5g ± %.2g, watched %.5g ± %.2g (%.1f SE)", what, p, sp, q, sq, d/math.Hypot(sp, sq))
				if !(d <= 4*math.Hypot(sp, sq)) {
					t.Errorf("%s: plain %.5g ± %.2g, watched %.5g ± %.2g: %.1f SE apart", what, p, sp, q, sq, d/math.Hypot(sp, sq))
				}
			}
			check("by D", xd, w1D)
			if cfg.Protocol == Push && cfg.Budget > 0 {
				check("never", xe, w1)
			}
		})
	}
}

// sliceMeanSE is the mean of x and its standard error (meanIv's).
func sliceMeanSE(x []float64) (m, se float64) {
	iv, se := meanIv(x)
	return iv.v, se
}

// TestAsyncRareMissAgainstExact checks Solve's asynchronous answers on
// misses where no plain run sees one, against the exact chain of the
// rounds (ExactLaw, an independent algorithm): who is informed in the end
// does not depend on the clock, and with the deadline after every budget
// is spent (a node informed by t makes its last push before t + ⌈B/k⌉,
// and the last is informed within about 5 intervals here, D = 14), the
// chance a given live node is not informed by D is the residue and P(T_L
// > D) is P(miss). Each must be within its stated relative error, be
// positive (a Monte Carlo that saw no miss never states 0), and keep the
// order that holds for the truth: residue ≤ residue_deadline and p_miss ≤
// p_late. At a deadline before the end (D = 2.5, misses common) the order
// must hold as well.
func TestAsyncRareMissAgainstExact(t *testing.T) {
	for _, cfg := range []Config{
		{Protocol: Push, Nodes: 20, Fanout: 3, Budget: 12, Deadline: 14},
		{Protocol: Push, Nodes: 16, Fanout: 2, Budget: 8, Loss: 0.1, Failed: 0.1, Deadline: 14},
		{Protocol: Push, Nodes: 40, Fanout: 3, Budget: 4, Deadline: 2.5},
	} {
		cfg.Level = 1
		t.Run(fmt.Sprintf("k%d/B%d/eps%g/D%g", cfg.Fanout, cfg.Budget, cfg.Loss, cfg.Deadline), func(t *testing.T) {
			law, err := ExactLaw(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			ac := cfg
			ac.Time = Async
			a, err := Solve(context.Background(), ac, Settings{Seed: 3, Reps: 1000})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("exact residue %.4g p_miss %.4g; async residue %.4g (%.2g) p_miss %.4g (%.2g) residue_deadline %.4g (%.2g) p_late %.4g (%.2g)",
				law.Residue, law.PMiss, a.Residue, a.ResidueRelErr, a.PMiss, a.PMissRelErr, a.ResidueDeadline, a.ResidueDeadlineRelErr, a.PLate, a.PLateRelErr)
			if !(a.ResidueDeadline >= a.Residue && a.PLate >= a.PMiss && a.ResidueDeadline > 0 && a.PLate > 0) {
				t.Errorf("order: residue %g ≤ residue_deadline %g, p_miss %g ≤ p_late %g, both > 0: false", a.Residue, a.ResidueDeadline, a.PMiss, a.PLate)
			}
			if cfg.Deadline < 10 {
				return
			}
			within := func(what string, v, rel, truth float64) {
				if !(rel <= MaxRelErr || strings.HasPrefix(what, "watched")) || !(math.Abs(v-truth) <= rel*v) {
					t.Errorf("%s = %.5g (rel err %.2g), exact %.5g: off by %.2g of itself", what, v, rel, truth, math.Abs(v-truth)/v)
				}
			}
			within("residue_deadline", a.ResidueDeadline, a.ResidueDeadlineRelErr, law.Residue)
			within("p_late", a.PLate, a.PLateRelErr, law.PMiss)
			// The watched runs' own intervals (their claim, whatever its
			// size), before Solve keeps the order with the rounds' residue
			// and p_miss.
			w1, w2, w1D, w2D, err := asyncWatchedRuns(context.Background(), ac, 4000, 9, 2)
			if err != nil {
				t.Fatal(err)
			}
			nan := math.NaN()
			b := Answer{Residue: nan, ResidueRelErr: nan, PMiss: nan, PMissRelErr: nan, ResidueDeadline: nan, ResidueDeadlineRelErr: nan, PLate: nan, PLateRelErr: nan}
			b.asyncWatched(ac, w1, w2, w1D, w2D)
			t.Logf("watched alone: residue %.6g (%.2g) p_miss %.6g (%.2g) residue_deadline %.6g (%.2g) p_late %.6g (%.2g)",
				b.Residue, b.ResidueRelErr, b.PMiss, b.PMissRelErr, b.ResidueDeadline, b.ResidueDeadlineRelErr, b.PLate, b.PLateRelErr)
			within("watched residue", b.Residue, b.ResidueRelErr, law.Residue)
			within("watched p_miss", b.PMiss, b.PMissRelErr, law.PMiss)
			within("watched residue_deadline", b.ResidueDeadline, b.ResidueDeadlineRelErr, law.Residue)
			within("watched p_late", b.PLate, b.PLateRelErr, law.PMiss)
		})
	}
}

// TestSeShare checks the standard error of a share at its ends against
// Wilson's closed form there: with x = n successes the interval's lower
// end is n/(n + z²) (and with x = 0 the upper end z²/(n + z²)), so the
// stated error is z²/(n + z²)/z = 9/1009/3 at n = 1000, z = 3; inside,
// the binomial √(p(1−p)/n).
func TestSeShare(t *testing.T) {
	for _, c := range []struct {
		p    float64
		n    int
		want float64
	}{
		{1, 1000, 9.0 / 1009 / 3},
		{0, 1000, 9.0 / 1009 / 3},
		{0.5, 100, 0.05},
		{0.2, 400, 0.02},
	} {
		if got := seShare(c.p, c.n); math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("seShare(%g, %d) = %.15g, want %.15g", c.p, c.n, got, c.want)
		}
	}
	if !math.IsNaN(seShare(0.5, 0)) {
		t.Error("seShare(0.5, 0) is not NaN")
	}
}
