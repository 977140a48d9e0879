package broadcast

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/broadcast/internal/lumped"
)

// TestLumpedAgainstMonteCarlo checks the large-N law of a budgeted push
// against the Monte Carlo of every node (an independent implementation:
// the engine draws each sender's peers) at the smallest N the law covers,
// where its closure is weakest: every P(T_L ≤ t) within DevP plus 3
// standard errors of the Monte Carlo's (√(F(1−F)/R)), the mean within
// DevMean plus 3 SE, the messages within 3 SE plus 10⁻³ relative (the
// law's runs' own error), and the chances of a miss within the sum of the
// two intervals (each side's stated relative error).
func TestLumpedAgainstMonteCarlo(t *testing.T) {
	ctx := context.Background()
	cases := []Config{
		{Nodes: 12_000, Protocol: Push, Fanout: 3, Loss: 0.1, Failed: 0.1, Budget: 6, Level: 1, Deadline: 13},
		{Nodes: 11_000, Protocol: Push, Fanout: 1, Loss: 0.3, Budget: 4, Level: 0.5, Deadline: 20},
		{Nodes: 12_000, Protocol: PushPull, Fanout: 2, Loss: 0.2, Failed: 0.1, Budget: 3, Level: 1, Deadline: 12},
	}
	const reps = 1000
	for _, cfg := range cases {
		t.Run(cfgName(cfg), func(t *testing.T) {
			law, err := AsymptoticLaw(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Simulate(ctx, cfg, SimSettings{Reps: reps, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			mc := s.Law()
			F1, F2, worst := 0.0, 0.0, 0.0
			for r := 0; r < max(len(law.PMF), len(mc.PMF)); r++ {
				if r < len(law.PMF) {
					F1 += law.PMF[r]
				}
				if r < len(mc.PMF) {
					F2 += mc.PMF[r]
				}
				se := math.Sqrt(math.Max(F2*(1-F2), 1/float64(reps)) / reps)
				worst = math.Max(worst, math.Abs(F1-F2)/(law.Accuracy.DevP+3*se))
			}
			if worst > 1 {
				t.Errorf("P(T_L ≤ t): |ΔF| is %.2f of its allowance (DevP %.3g)", worst, law.Accuracy.DevP)
			}
			a, b := law.Answer(cfg), mc.Answer(cfg)
			if d := math.Abs(a.Mean - b.Mean); d > law.Accuracy.DevMean+3*b.Accuracy.SEMean {
				t.Errorf("mean %v, Monte Carlo %v ± %v (DevMean %v)", a.Mean, b.Mean, b.Accuracy.SEMean, law.Accuracy.DevMean)
			}
			if d := math.Abs(a.Messages - b.Messages); d > 3*b.Accuracy.SEMessages+1e-3*a.Messages {
				t.Errorf("messages %v, Monte Carlo %v ± %v", a.Messages, b.Messages, b.Accuracy.SEMessages)
			}
			for _, q := range []struct {
				name         string
				x, rx, y, ry float64
			}{
				{"residue", a.Residue, a.ResidueRelErr, b.Residue, b.ResidueRelErr},
				{"p_miss", a.PMiss, a.PMissRelErr, b.PMiss, b.PMissRelErr},
				{"residue_deadline", a.ResidueDeadline, a.ResidueDeadlineRelErr, b.ResidueDeadline, b.ResidueDeadlineRelErr},
				{"p_late", a.PLate, a.PLateRelErr, b.PLate, b.PLateRelErr},
			} {
				if math.IsNaN(q.x) || math.IsInf(q.ry, 1) {
					t.Errorf("%s: law %v (±%v), Monte Carlo %v (±%v): nothing to compare", q.name, q.x, q.rx, q.y, q.ry)
					continue
				}
				if d := math.Abs(q.x - q.y); d > q.x*q.rx+q.y*q.ry {
					t.Errorf("%s: law %.4g (±%.2g rel), Monte Carlo %.4g (±%.2g rel)", q.name, q.x, q.rx, q.y, q.ry)
				}
			}
		})
	}
}

// TestLumpedClosure tests the closure alone (the binomial with the step's
// mean and variance) where it is weakest, at small N, against the exact
// chain: every P(T_L ≤ t) within 1/√M plus 3 standard errors of the
// runs (the runs draw counts to the end: watch 0).
func TestLumpedClosure(t *testing.T) {
	ctx := context.Background()
	for _, cfg := range []Config{
		{Nodes: 40, Protocol: Push, Fanout: 2, Loss: 0.2, Budget: 4, Level: 1},
		{Nodes: 60, Protocol: Push, Fanout: 3, Failed: 0.2, Budget: 3, Level: 0.8},
		{Nodes: 50, Protocol: PushPull, Fanout: 1, Loss: 0.1, Budget: 2, Level: 1},
	} {
		t.Run(cfgName(cfg), func(t *testing.T) {
			ex, err := ExactLaw(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			m := newLumped(cfg)
			m.Runs, m.Watch = 20_000, 0
			law, err := lumpedModelLaw(ctx, cfg, m)
			if err != nil {
				t.Fatal(err)
			}
			F1, F2, worst := 0.0, 0.0, 0.0
			closure := 1 / math.Sqrt(float64(cfg.Live()))
			for r := 0; r < max(len(law.PMF), len(ex.PMF)); r++ {
				if r < len(law.PMF) {
					F1 += law.PMF[r]
				}
				if r < len(ex.PMF) {
					F2 += ex.PMF[r]
				}
				se := math.Sqrt(math.Max(F2*(1-F2), 1e-4) / float64(m.Runs))
				worst = math.Max(worst, math.Abs(F1-F2)/(closure+3*se))
			}
			t.Logf("largest |ΔF| / (1/√M + 3 se) = %.3f", worst)
			if worst > 1 {
				t.Errorf("closure: |ΔF| is %.2f of 1/√M + 3 se", worst)
			}
			if cfg.Protocol == Push {
				a, b := law.Answer(cfg), ex.Answer(cfg)
				// The runs' residue within 3 se plus 1/√M relative of the exact one.
				if d := math.Abs(a.Residue-b.Residue) / b.Residue; d > closure+a.ResidueRelErr {
					t.Errorf("residue %v, exact %v", a.Residue, b.Residue)
				}
			}
		})
	}
}

func TestLumpedCovers(t *testing.T) {
	ctx := context.Background()
	for _, cfg := range []Config{
		{Nodes: LumpedMinLive - 1, Fanout: 3, Budget: 6, Level: 1},
		{Nodes: 1e6, Fanout: 1, Budget: lumped.MaxRounds + 1, Level: 1},
	} {
		if _, err := AsymptoticLaw(ctx, cfg); !errors.Is(err, ErrNotCovered) {
			t.Errorf("%s: %v, want ErrNotCovered", cfgName(cfg), err)
		}
	}
	// The largest N: a law of total mass 1 (PMF and Never) with a stated
	// accuracy, and the residue of the large-N law.
	cfg := Config{Nodes: MaxNodes, Protocol: Push, Fanout: 3, Loss: 0.1, Failed: 0.1, Budget: 40, Level: 1}
	l, err := AsymptoticLaw(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tot := l.Never
	for _, p := range l.PMF {
		tot += p
	}
	if math.Abs(tot-1) > 1e-9 || !(l.Accuracy.DevP < 0.01) || !(l.ResidueRelErr < MaxRelErr) {
		t.Errorf("N = 2^40: mass %v, DevP %v, residue %v ± %v", tot, l.Accuracy.DevP, l.Residue, l.ResidueRelErr)
	}
	c, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := AsymptoticLaw(c, cfg); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// BenchmarkLumped1e7 is one budgeted setting at N = 10⁷ (the target: at
// most 1 s; the Monte Carlo of every node takes about 150 s CPU there).
func BenchmarkLumped1e7(b *testing.B) {
	for _, p := range []Protocol{Push, PushPull} {
		cfg := Config{Nodes: 10_000_000, Protocol: p, Fanout: 3, Loss: 0.05, Failed: 0.02, Budget: 28, Level: 1, Deadline: 20}
		b.Run(p.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := AsymptoticLaw(context.Background(), cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestLumpedPushPullTail tests the budgeted push–pull law's chances of a
// miss by a deadline where they are weakest, deep in the tail, at N =
// 2,000 (below LumpedMinLive, so the law's stated errors are at their
// widest and the last lumpedWatch nodes carry most of the tail), against
// the exact chain. The budget is B = 15 with fanout 1, and every deadline
// D ≤ 15: a node pushes in each of the first 15 rounds after it is
// informed, so by round D no node has spent its budget and the process
// through round D is unlimited push–pull's, which the exact chain solves
// at this N. Each stated interval (value ± value·rel err) must hold the
// exact value. Before the last nodes' pulls were followed as a chain on
// the count left (pullTail), the law froze their pull miss at the count
// reached when lumpedWatch were left: at D = 11 it said 2.35e-7 (± 42 %)
// against the exact 4.38e-8, and at D = 12 1.7e-9 against 2.5e-13. At N =
// 10⁴ (one run, too slow for the suite: 100–270 s a deadline) the exact
// chain gives 0.21700, 0.030727, 8.8922e-4, 2.2580e-6, 1.1350e-10 at D =
// 9…13, and the law 0.21657, 0.030662, 8.8291e-4, 2.179e-6, 1.1806e-10,
// each within its stated error (2.6 %, 5.9 %, 9.8 %, 24 %, 69 %); the old
// law's 0.039159 at D = 10 was 27 % high, with 7 % stated.
func TestLumpedPushPullTail(t *testing.T) {
	ctx := context.Background()
	for _, D := range []float64{8, 10, 11, 12} {
		cfg := Config{Nodes: 2000, Protocol: PushPull, Fanout: 1, Budget: 15, Level: 1, Deadline: D}
		t.Run(cfgName(cfg), func(t *testing.T) {
			law, err := lumpedModelLaw(ctx, cfg, newLumped(cfg))
			if err != nil {
				t.Fatal(err)
			}
			unlimited := cfg
			unlimited.Budget = 0
			ex, err := ExactLaw(ctx, unlimited)
			if err != nil {
				t.Fatal(err)
			}
			a, b := law.Answer(cfg), ex.Answer(unlimited)
			for _, q := range []struct {
				name     string
				x, rx, y float64
			}{
				{"residue_deadline", a.ResidueDeadline, a.ResidueDeadlineRelErr, b.ResidueDeadline},
				{"p_late", a.PLate, a.PLateRelErr, b.PLate},
			} {
				t.Logf("%s: law %.5g (rel err %.3g), exact %.5g", q.name, q.x, q.rx, q.y)
				// The exact chain's own error (Bound) is below 1e-9 of
				// these values' size here; the law's is its statement.
				if math.Abs(q.x-q.y) > q.x*q.rx {
					t.Errorf("%s: law %.4g ± %.2g relative does not hold the exact %.4g", q.name, q.x, q.rx, q.y)
				}
			}
		})
	}
}

// TestSolveDeepDeadline checks what Solve states deep in push–pull's tail
// at N = 10⁴ (k 1, B 15, which does not bind by D ≤ 15), where the
// watched runs' weights are heavy-tailed, against the exact chain of the
// unlimited process (values from exact.go's chain, one run per deadline,
// 100–270 s each, too slow for the suite; quoted in
// TestLumpedPushPullTail's comment): 8.8922e-4, 2.2580e-6, 1.1350e-10 at D
// = 11, 12, 13. Each stated interval must hold the exact value. Before the
// watched runs were kept from replacing the tilted law, D = 12 stated
// 2.049e-6 within 8.4 %, 9.3 % from the truth.
func TestSolveDeepDeadline(t *testing.T) {
	for _, c := range []struct{ D, exact float64 }{{11, 8.8922e-4}, {12, 2.2580e-6}, {13, 1.1350e-10}} {
		cfg := Config{Nodes: 10000, Protocol: PushPull, Fanout: 1, Budget: 15, Level: 1, Deadline: c.D}
		a, err := Solve(context.Background(), cfg, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("D %g: residue_deadline %.5g (rel err %.3g), exact %.5g", c.D, a.ResidueDeadline, a.ResidueDeadlineRelErr, c.exact)
		if !(math.Abs(a.ResidueDeadline-c.exact) <= a.ResidueDeadline*a.ResidueDeadlineRelErr) {
			t.Errorf("D %g: %.5g ± %.3g relative does not hold the exact %.5g", c.D, a.ResidueDeadline, a.ResidueDeadlineRelErr, c.exact)
		}
	}
}

// TestLumpedUnlimited checks the deadline's chances of a miss that the
// large-N law gives a broadcast without a budget (setLumpedDeadline: the
// same broadcast with a budget that does not bind by D) against the exact
// chain of the unlimited process, an independent computation (exact.go's
// count chain, its own error below 1e-9 of these values), at a live count
// far below LumpedMinLive, where the stated closure error is widest but
// the runs' value must still be within it, at a deadline near the mean
// and deep in the tail (P(T_L > D) at L 0.9, D 17: 5.8152e-12 exact; before
// the start was computed no run saw it). For pull and push–pull the deep tails are carried
// by the runs whose source stalls (stall.go in internal/lumped); before
// they were forced and weighed, pull at N 3000, k 3, φ 0.02, D 12 said
// 1.6e-14 within 268 % against the exact 2.2686e-8, and push–pull at N
// 1000, D 6 2.2e-11 within 82 % against 1.3466e-10 (and 41 % low until
// the deadline's round was computed rather than drawn). Those two must
// now be within 5 % and 10 % of the exact value, well inside what they
// state: the push–pull's law is 6.8 % and 5.2 % high, stated within
// 19 % (the closure's 7·ln(1/q)/M at 980 live nodes is most of it); over
// 40 seeds of its runs the law's model is 6.7 % high (3 standard errors
// 0.7 %), so the bias is the closure's, not the runs'.
func TestLumpedUnlimited(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		cfg   Config
		close float64 // the most the value may be off, relative (0: its statement)
	}{
		{Config{Nodes: 1000, Protocol: Push, Fanout: 2, Loss: 0.2, Failed: 0.02, Level: 1, Deadline: 14}, 0},
		{Config{Nodes: 1000, Protocol: Push, Fanout: 2, Loss: 0.2, Failed: 0.02, Level: 1, Deadline: 18}, 0},
		{Config{Nodes: 1000, Protocol: Push, Fanout: 2, Loss: 0.2, Failed: 0.02, Level: 0.9, Deadline: 17}, 0},
		{Config{Nodes: 3000, Protocol: Pull, Fanout: 3, Failed: 0.02, Level: 1, Deadline: 8}, 0},
		{Config{Nodes: 3000, Protocol: Pull, Fanout: 3, Failed: 0.02, Level: 1, Deadline: 12}, 0.05},
		{Config{Nodes: 3000, Protocol: Pull, Fanout: 1, Loss: 0.3, Failed: 0.1, Level: 0.99, Deadline: 30}, 0},
		{Config{Nodes: 1000, Protocol: PushPull, Fanout: 3, Failed: 0.02, Level: 1, Deadline: 5}, 0},
		{Config{Nodes: 1000, Protocol: PushPull, Fanout: 3, Failed: 0.02, Level: 1, Deadline: 6}, 0.1},
		{Config{Nodes: 2000, Protocol: PushPull, Fanout: 2, Loss: 0.1, Failed: 0.02, Level: 1, Deadline: 8}, 0},
		// The case that needed the largest closure constant of the
		// 1,096 of closureKappa's first scan (13 % low at 6.3e-14 with
		// its runs then: a draw that missed the rare low entry counts;
		// now 7.7 % high, stated within 56 %).
		{Config{Nodes: 1000, Protocol: PushPull, Fanout: 3, Failed: 0.05, Level: 1, Deadline: 7}, 0},
	} {
		cfg := c.cfg
		t.Run(cfgName(cfg), func(t *testing.T) {
			ex, err := ExactLaw(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			law := (&Law{Accuracy: NoAccuracy()}).noDeadline()
			if err := law.lumpedDeadline(ctx, cfg, int(cfg.Deadline)); err != nil {
				t.Fatal(err)
			}
			b := ex.Answer(cfg)
			for _, q := range []struct {
				name     string
				x, rx, y float64
			}{
				{"residue_deadline", law.ResidueDeadline, law.ResidueDeadlineRelErr, b.ResidueDeadline},
				{"p_late", law.PLate, law.PLateRelErr, b.PLate},
			} {
				t.Logf("%s: law %.5g (rel err %.3g), exact %.5g, off by %.2g relative", q.name, q.x, q.rx, q.y, math.Abs(q.x-q.y)/q.y)
				if !(math.Abs(q.x-q.y) <= q.x*q.rx) {
					t.Errorf("%s: law %.4g ± %.2g relative does not hold the exact %.4g", q.name, q.x, q.rx, q.y)
				}
				if c.close > 0 && !(math.Abs(q.x-q.y) <= c.close*q.y) {
					t.Errorf("%s: law %.4g is off the exact %.4g by more than %g relative", q.name, q.x, q.y, c.close)
				}
			}
		})
	}
}

// TestLumpedLatePushes checks the last nodes' pushes, taken at their mean
// count (internal/lumped, run's push tail), where they weigh most: push
// without a budget at N 1000, k 2, ε 0.2, φ 0.02, D 14 and 18 with all 64
// last nodes computed (w = 64·30·0.8/999 = 1.54 at D 14, so Hoeffding's
// factor e^{w²/8} − 1 would allow 34 %), against the exact chain. When
// those pushes were left out the law was 16 % high at D 14; with them it
// must be within 2 %, what the runs' own standard errors allow here.
func TestLumpedLatePushes(t *testing.T) {
	ctx := context.Background()
	for _, D := range []int{14, 18} {
		cfg := Config{Nodes: 1000, Protocol: Push, Fanout: 2, Loss: 0.2, Failed: 0.02, Level: 1, Deadline: float64(D)}
		ex, err := ExactLaw(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		b := ex.Answer(cfg)
		m := lumped.New(lumped.Params{M: cfg.Live(), N1: cfg.Nodes - 1, K: cfg.Fanout, R: D + 1, Budget: cfg.Fanout * (D + 1),
			Eps: cfg.Loss, Target: cfg.Target(), D: D, Z: zValue})
		if m.Watch != 64 {
			t.Fatalf("watch %v, want 64", m.Watch)
		}
		late, resD, _, err := m.DeadlineLaw(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []struct {
			name string
			x    lumped.Est
			y    float64
		}{{"residue_deadline", resD, b.ResidueDeadline}, {"p_late", late, b.PLate}} {
			off := math.Abs(q.x.V-q.y) / q.y
			t.Logf("D %d %s: law %.5g ± %.2g, exact %.5g: off by %.2g", D, q.name, q.x.V, q.x.SE, q.y, off)
			if !(off <= 0.02) {
				t.Errorf("D %d %s: law %.5g is %.1f %% off the exact %.5g", D, q.name, q.x.V, 100*off, q.y)
			}
		}
	}
}

// TestGuardStalls: below the level 1 a Monte Carlo of a budgeted push–pull
// states P(T_L > D) from its plain runs, which draw the source's stalls
// at their own rate, so its upper end must hold the chance of the stalls
// they are not expected to draw (guardStalls); at the level 1 the watched
// runs force the stalls (stalls.go) and their chances are left as they
// are; and Auto answers the chance a node is uninformed at D from the
// more accurate of the runs and the law's strata. N 1,000, k 2, ε 0.3,
// φ 0.1, B 8, D 12: a stall of four rounds or more has a chance of about
// 1e-5, below 1/1,000. (Where no run was late the upper end is the floor,
// and the row stays feasible: the guard once made it NaN.)
func TestGuardStalls(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Nodes: 1000, Protocol: PushPull, Fanout: 2, Loss: 0.3, Failed: 0.1, Budget: 8, Level: 0.99, Deadline: 12}
	hi := func(v, rel float64) float64 { return v * (1 + rel) }
	for _, c := range []struct{ level, D float64 }{{0.99, 12}, {0.99, 10}, {1, 12}} {
		level := c.level
		cfg.Level, cfg.Deadline = c.level, c.D
		u := newLumped(cfg).UnseenStall(DefaultReps)
		if !(u > 0) {
			t.Fatalf("UnseenStall %g: no stall left unseen", u)
		}
		s, err := Simulate(ctx, cfg, SimSettings{Reps: DefaultReps, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		pl := s.Law()
		plain := pl.Answer(cfg)
		// Below the level 1 with no late run the floor is Markov's bound
		// from the watched runs where smaller than Wilson's (level 0.99,
		// D 12: 900·r/10), and is not widened by the stalls (the watched
		// runs force them); at D 10, 2 runs of 1,000 are late, and that
		// interval is widened.
		if level < 1 && plain.PLate == 0 {
			wilsonHi := wilson(0, DefaultReps).hi
			mk := markovLate(cfg.Live(), cfg.Target(), ivOf(plain.ResidueDeadline, plain.ResidueDeadlineRelErr).hi)
			t.Logf("level %g: Wilson's floor %.4g, Markov's %.4g (used %v)", level, wilsonHi, mk, pl.lateMarkov)
			if pl.lateMarkov != (mk < wilsonHi) || pl.lateMarkov && !(math.Abs(plain.PLateFloor/mk-1) < 1e-9) {
				t.Errorf("level %g: floor %.6g (Markov %v), want the smaller of Wilson's %.6g and Markov's %.6g", level, plain.PLateFloor, pl.lateMarkov, wilsonHi, mk)
			}
		}
		mc, err := Solve(ctx, cfg, Settings{Method: MonteCarlo, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("level %g: runs alone p_late %.4g (rel err %.3g), residue_deadline %.4g (%.3g); guarded %.4g (%.3g), %.4g (%.3g); unseen stalls %.3g", level,
			plain.PLate, plain.PLateRelErr, plain.ResidueDeadline, plain.ResidueDeadlineRelErr, mc.PLate, mc.PLateRelErr, mc.ResidueDeadline, mc.ResidueDeadlineRelErr, u)
		// The upper end of p_late: the floor where no run was late.
		upper := func(a Answer) float64 {
			if a.PLate == 0 && math.IsInf(a.PLateRelErr, 1) {
				return a.PLateFloor
			}
			return hi(a.PLate, a.PLateRelErr)
		}
		wantLate := upper(plain)
		if level < 1 && !pl.lateMarkov {
			wantLate = math.Min(wantLate+u, 1)
		}
		if got := upper(*mc); !(math.Abs(got-wantLate) <= 1e-9*wantLate) {
			t.Errorf("level %g: p_late's upper end %.6g, want %.6g", level, got, wantLate)
		}
		// 1 − the upper end is above the confidence 0.95 (the runs saw
		// at most 7 late of 1,000 at either level).
		if !mc.Feasible {
			t.Errorf("level %g: infeasible with p_late %.4g (rel err %.3g, floor %.3g)", level, mc.PLate, mc.PLateRelErr, mc.PLateFloor)
		}
		if mc.ResidueDeadline != plain.ResidueDeadline || mc.ResidueDeadlineRelErr != plain.ResidueDeadlineRelErr {
			t.Errorf("level %g: residue_deadline %.6g (%.3g) changed from the watched runs' %.6g (%.3g)", level, mc.ResidueDeadline, mc.ResidueDeadlineRelErr, plain.ResidueDeadline, plain.ResidueDeadlineRelErr)
		}
	}
	// Auto's step (solveOne, after its refinement): the runs, then the
	// law where more accurate.
	l, err := simulateLaw(ctx, cfg, Settings{Reps: DefaultReps, Seed: 1}, false)
	if err != nil {
		t.Fatal(err)
	}
	runs := l.Answer(cfg)
	if err := l.guardStalls(ctx, cfg, true); err != nil {
		t.Fatal(err)
	}
	auto := l.Answer(cfg)
	law, err := lumpedModelLaw(ctx, cfg, newLumped(cfg))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("auto: %.4g (rel err %.3g); the runs %.4g (%.3g); the law's strata %.4g (rel err %.3g)", auto.ResidueDeadline, auto.ResidueDeadlineRelErr, runs.ResidueDeadline, runs.ResidueDeadlineRelErr, law.ResidueDeadline, law.ResidueDeadlineRelErr)
	if want := math.Min(runs.ResidueDeadlineRelErr, law.ResidueDeadlineRelErr); auto.ResidueDeadlineRelErr != want {
		t.Errorf("auto within %.3g, want the more accurate of the runs (%.3g) and the law (%.3g)", auto.ResidueDeadlineRelErr, runs.ResidueDeadlineRelErr, law.ResidueDeadlineRelErr)
	}
}

// TestSolveDeepPushLarge checks what Solve states for a push without a
// budget just above LumpedMinLive, where the large-N law's closure term
// stated as 0.25·ln(1/q)/√M passed 5 % for a chance q near 1e-10 and the
// watched runs refined it (7–20 s); as 7·ln(1/q)/M (closureKappa) it is
// 1.5 %, and the law alone states it: N 10,500, k 2, ε 0.1, D 22, against
// the exact chain (exact.go's, another algorithm; one run of about 100 s,
// too slow for the suite, quoted): residue_deadline 1.0207677e-10, p_late
// 1.0713322e-6. Each must be stated within 5 % and hold the exact value.
// Before the watched runs refined it the law stated 7.3 %. (At D 18 the
// exact chain gives 1.3674859e-7 and 1.4341499e-3.)
func TestSolveDeepPushLarge(t *testing.T) {
	solveDeepExact(t, Config{Nodes: 10500, Protocol: Push, Fanout: 2, Loss: 0.1, Level: 1, Deadline: 22}, 1.0207677e-10, 1.0713322e-6, Settings{})
}

// TestSolveDeepPushPullLarge checks what Solve states for push–pull
// without a budget just above LumpedMinLive, deep in a deadline's tail,
// where the exact chain took 47 s (N 12,000) and the law stated 9.6 %, and
// from about N 15,500 on, where the chain did not run, 5–8 % (N 18,000:
// 7.6 %): k 2, ε 0.1, D 12, against the exact chain (exact.go's, another
// algorithm; runs of 51 s and 106 s, too slow for the suite, quoted).
// Each chance must be stated within 5 % and hold the exact value.
func TestSolveDeepPushPullLarge(t *testing.T) {
	for _, c := range []struct {
		N          int
		resD, late float64 // the exact chain's
	}{
		{12000, 8.222017652513526e-12, 9.69554329712751e-08},
		{18000, 3.313872577292412e-11, 5.808030261609767e-07},
	} {
		solveDeepExact(t, Config{Nodes: c.N, Protocol: PushPull, Fanout: 2, Loss: 0.1, Level: 1, Deadline: 12}, c.resD, c.late, Settings{})
	}
}

// TestLawDeepPushPullK1 checks the large-N law where its runs' values
// were heaviest-tailed: push–pull with one push and one pull a round, no
// loss, N 12,000, D 14, against the exact chain (exact.go's, 126 s, too
// slow for the suite; quoted: residue_deadline 2.871e-16, p_late
// 3.445e-12, each within 1.1e-4). The law stated 7.6 % before the pulls'
// chain took over the last drawn count (3.1 % after); each chance must be
// within MaxRelErr and hold the exact value.
func TestLawDeepPushPullK1(t *testing.T) {
	cfg := Config{Nodes: 12000, Protocol: PushPull, Fanout: 1, Level: 1, Deadline: 14}
	solveDeepExact(t, cfg, 2.871e-16, 3.445e-12, Settings{Method: Asymptotic})
}

// solveDeepExact checks that Solve (with set) states cfg's
// residue_deadline and p_late within MaxRelErr, each interval holding the
// exact value given.
func solveDeepExact(t *testing.T, cfg Config, resD, late float64, set Settings) {
	t.Helper()
	a, err := Solve(context.Background(), cfg, set)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct {
		name       string
		v, rel, ex float64
	}{
		{"residue_deadline", a.ResidueDeadline, a.ResidueDeadlineRelErr, resD},
		{"p_late", a.PLate, a.PLateRelErr, late},
	} {
		t.Logf("%s %s: %.6g (rel err %.3g, %s), exact %.6g", cfgName(cfg), q.name, q.v, q.rel, a.Method, q.ex)
		if !(q.rel <= MaxRelErr) || !(math.Abs(q.v-q.ex) <= q.v*q.rel) {
			t.Errorf("%s %s: %.6g ± %.3g relative, want within %g holding the exact %.6g", cfgName(cfg), q.name, q.v, q.rel, MaxRelErr, q.ex)
		}
	}
}

// TestMarkovLate checks markovLate's bound on P(T_L > D) below the level
// 1 where plain runs count that chance (it is common): from the watched
// runs' residue_deadline, the bound must lie above the lower end of the
// plain runs' Wilson interval (z 3) — a bound below it would be false.
// Pull (N 300, k 2, ε 0.2, φ 0.1) and budgeted push–pull (B 4, ε 0.3),
// levels 0.9 and 0.99, deadlines where 4,000 runs see late ones.
func TestMarkovLate(t *testing.T) {
	ctx := context.Background()
	for _, cfg := range []Config{
		{Nodes: 300, Protocol: Pull, Fanout: 2, Loss: 0.2, Failed: 0.1, Level: 0.9, Deadline: 10},
		{Nodes: 300, Protocol: Pull, Fanout: 2, Loss: 0.2, Failed: 0.1, Level: 0.99, Deadline: 12},
		{Nodes: 300, Protocol: PushPull, Fanout: 2, Loss: 0.3, Failed: 0.1, Budget: 4, Level: 0.9, Deadline: 8},
		{Nodes: 300, Protocol: PushPull, Fanout: 2, Loss: 0.3, Failed: 0.1, Budget: 4, Level: 0.99, Deadline: 10},
	} {
		s, err := Simulate(ctx, cfg, SimSettings{Reps: 4000, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		a := s.Law().Answer(cfg)
		late := 0
		for _, r := range s.Reps {
			if r.T < 0 || float64(r.T) > cfg.Deadline {
				late++
			}
		}
		w := wilson(late, len(s.Reps))
		mk := markovLate(cfg.Live(), cfg.Target(), ivOf(a.ResidueDeadline, a.ResidueDeadlineRelErr).hi)
		t.Logf("%s D %g: %d late of %d, Wilson [%.4g, %.4g]; Markov's bound %.4g", cfgName(cfg), cfg.Deadline, late, len(s.Reps), w.lo, w.hi, mk)
		if late < 10 {
			t.Errorf("%s: %d late runs, too few to check the bound", cfgName(cfg), late)
		}
		if !(mk >= w.lo) {
			t.Errorf("%s: Markov's bound %.4g below the runs' lower end %.4g", cfgName(cfg), mk, w.lo)
		}
	}
}

// TestUnseenDeadlineBounded checks that a deadline's chance of a miss that
// no run of the large-N law saw is not stated as 0: push–pull at N 10⁵,
// k 3, B 8, no loss, informs every live node by round 11 in every run (a
// last node's pulls cannot miss), so from there on each run's
// residue_deadline and P(T_L > D) are 0 (the precondition: some deadline
// from 9 to 13 unseen, checked), which was printed "0 (exact)" (from D 9
// on, before the pulls' chain took the last counts over). The chance is
// positive, so an answer must be "0 (≤ b)" with b > 0, and b at D at most
// the upper end stated at D − 1 (both chances fall with D,
// boundUnseenDeadline).
func TestUnseenDeadlineBounded(t *testing.T) {
	ctx := context.Background()
	prevRes, prevLate := math.Inf(1), math.Inf(1)
	unseen := 0
	for D := 9.0; D <= 13; D++ {
		cfg := Config{Nodes: 100000, Protocol: PushPull, Fanout: 3, Budget: 8, Level: 1, Deadline: D}
		raw, err := lumpedRunsLaw(ctx, cfg, newLumped(cfg))
		if err != nil {
			t.Fatal(err)
		}
		if !(raw.ResidueDeadline > 0) {
			unseen++
		}
		a, err := Solve(ctx, cfg, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		res, late := residueDUpper(*a), lateUpper(*a)
		t.Logf("D %g: the runs' residue_deadline %g; stated %g (rel err %g, ≤ %g), p_late %g (rel err %g, ≤ %g)", D, raw.ResidueDeadline, a.ResidueDeadline, a.ResidueDeadlineRelErr, res, a.PLate, a.PLateRelErr, late)
		if a.ResidueDeadlineRelErr == 0 || a.PLateRelErr == 0 {
			t.Errorf("D %g: a chance of a miss stated exact", D)
		}
		if !(res > 0 && res <= prevRes) || !(late > 0 && late <= prevLate) {
			t.Errorf("D %g: upper ends %g and %g, want positive and at most D − 1's %g and %g", D, res, late, prevRes, prevLate)
		}
		prevRes, prevLate = res, late
	}
	if unseen == 0 {
		t.Fatal("the runs saw a miss at every deadline: the premise no longer holds")
	}
}

// TestLawOneRoundBudget checks the large-N law where the budget is spent
// in one round of pushes (B = k, R = 1), which neither the fitted tilt nor
// DeadlineLaw covers: push–pull at N 12,000, k 3, B 3, D 7, where a node
// is uninformed at D with a chance of about 9.2·10⁻⁸ and, at the level 1,
// P(T_L > D) is about 1.0·10⁻³. The plain runs stated them within 8.9 %
// and 6.2 %, and at the level 0.99 (P(T_L > D) then 0 in every run, which
// made the tilted runs' comparison +Inf against +Inf) the 8.9 % stayed;
// with the start-tilted runs (lumped's startTilted) each must be within
// MaxRelErr, and the two levels' chance of a node uninformed at D, the
// same chance, must agree within their stated errors.
func TestLawOneRoundBudget(t *testing.T) {
	var res []interval
	for _, L := range []float64{1, 0.99} {
		cfg := Config{Nodes: 12000, Protocol: PushPull, Fanout: 3, Budget: 3, Level: L, Deadline: 7}
		law, err := lumpedModelLaw(context.Background(), cfg, newLumped(cfg))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s D 7: residue_deadline %.5g (rel err %.3g), p_late %.5g (rel err %.3g)", cfgName(cfg), law.ResidueDeadline, law.ResidueDeadlineRelErr, law.PLate, law.PLateRelErr)
		if !(law.ResidueDeadlineRelErr <= MaxRelErr) {
			t.Errorf("%s: residue_deadline %.5g stated within %.3g, want at most %g", cfgName(cfg), law.ResidueDeadline, law.ResidueDeadlineRelErr, MaxRelErr)
		}
		if L == 1 && !(law.PLateRelErr <= MaxRelErr) {
			t.Errorf("%s: p_late %.5g stated within %.3g, want at most %g", cfgName(cfg), law.PLate, law.PLateRelErr, MaxRelErr)
		}
		res = append(res, ivOf(law.ResidueDeadline, law.ResidueDeadlineRelErr))
	}
	if res[0].lo > res[1].hi || res[1].lo > res[0].hi {
		t.Errorf("residue_deadline at the levels 1 and 0.99: [%.4g, %.4g] and [%.4g, %.4g] do not meet", res[0].lo, res[0].hi, res[1].lo, res[1].hi)
	}
}
