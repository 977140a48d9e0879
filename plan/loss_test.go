package plan

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/sim"
)

// twoNodes is N = 2, n = 7, c = 4, s = 2 with loss ε, covering both nodes
// (K = 1, L = 1). Derived by hand from the single-item matrix with loss
// (a = 1 − ε, p = s/c = 1/2, q = (n−c)/(n−s) = 3/5, the simplified
// P_drop): from the state (X, Y) = (1, 1) the holder meets the other node
// at every shuffle; the second node is covered by a copy (u = a·p·[2a(1−q)
// + ε]) or a move (m = 2a²pq), and the item dies (X = 0) when B held the
// only copy, sent it, dropped it and the reply was lost (ℓ = a·ε·p·q). So
// T_1 = ∞ with probability ℓ/λ, λ = u + m + ℓ = a·p·(2 − ε + ε·q), and
// given T_1 < ∞ it is Exp(λ) in continuous time (rates per round: N
// shuffles of probability (·)/N(N−1) each); P(T_1 < ∞) = (2 − ε)/(2 − ε
// + ε·q). In shuffles time a shuffle ends the wait with probability λ/2,
// so T_1 = G/2 with G geometric: P(T_1 ≤ D) = r·(1 − (1 − λ/2)^⌊2D⌋),
// mean given reach 1/λ.
type twoNodes struct{ eps float64 }

func (tn twoNodes) config() Config {
	return Config{Nodes: 2, Shuffle: gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}, Level: 1, Loss: tn.eps}
}

func (tn twoNodes) lambda() float64 {
	a, p, q := 1-tn.eps, 0.5, 0.6
	return a * p * (2 - tn.eps + tn.eps*q)
}

func (tn twoNodes) reach() float64 { return (2 - tn.eps) / (2 - tn.eps + tn.eps*0.6) }

func (tn twoNodes) cdf(tm gossip.Time, d float64) float64 {
	if tm == gossip.Shuffles {
		return tn.reach() * (1 - math.Pow(1-tn.lambda()/2, math.Floor(2*d)))
	}
	return tn.reach() * (1 - math.Exp(-tn.lambda()*d))
}

// The lumped chain's Monte Carlo with loss against the N = 2 closed forms,
// in both clocks: P(reach), the mean given reach and P(T_1 ≤ D) within 4
// standard errors (about 6·10⁻⁵ false alarms each). A sampler without the
// loss jump gives P(reach) = 1 and fails (planted and seen to fail).
func TestLossTwoNodesLumped(t *testing.T) {
	for _, tm := range []gossip.Time{gossip.Continuous, gossip.Shuffles} {
		for _, eps := range []float64{0.2, 0.5} {
			tn := twoNodes{eps}
			cfg := tn.config()
			cfg.Time, cfg.Deadline = tm, 1.3
			a, err := Solve(context.Background(), cfg, Settings{Method: MonteCarlo, Model: Lumped, Reps: 20000, Seed: 5})
			if err != nil {
				t.Fatal(err)
			}
			r := tn.reach()
			for _, c := range []struct {
				name      string
				got, want float64
				se        float64
			}{
				{"p_reach", a.PReach, r, math.Sqrt(r * (1 - r) / 20000)},
				{"mean", a.Mean, 1 / tn.lambda(), a.Accuracy.SEMean},
				{"p_deadline", a.PDeadline, tn.cdf(tm, 1.3), a.Accuracy.SEPDeadline},
			} {
				if math.Abs(c.got-c.want) > 4*c.se || !(c.se > 0) {
					t.Errorf("%v ε = %g: %s = %.5f, want %.5f ± 4·%.2g", tm, eps, c.name, c.got, c.want, c.se)
				}
			}
			// 1e-17: the code computes the same √(p(1−p)/R); se ≤ 0.0036 here, whose ulp is 4.3e-19, so any reordering is a few ulp (was 1e-15).
			if math.Abs(a.Accuracy.SEPReach-math.Sqrt(a.PReach*(1-a.PReach)/20000)) > 1e-17 {
				t.Errorf("se_p_reach %g", a.Accuracy.SEPReach)
			}
		}
	}
}

// Without loss the lumped sampler is unchanged: the same seed gives the
// same sample as before the loss jump was added (TestLumpedSampler checks
// its law), and PReach is 1.
func TestLossZeroReach(t *testing.T) {
	a, err := Solve(context.Background(), twoNodes{0}.config(), Settings{Method: MonteCarlo, Model: Lumped, Reps: 50})
	if err != nil {
		t.Fatal(err)
	}
	if a.PReach != 1 || !math.IsNaN(a.Accuracy.SEPReach) {
		t.Errorf("ε = 0: p_reach %v, se %v; want 1, NaN", a.PReach, a.Accuracy.SEPReach)
	}
}

// Methods that have no law for the configuration are refused by name
// (ErrNotCovered), and a bad loss is a field error on Config.Loss.
func TestLossCovered(t *testing.T) {
	ctx := context.Background()
	base := Config{Nodes: 50, Shuffle: gossip.Shuffle{Items: 100, Cache: 20, Exchange: 5}, Level: 0.9}
	lossy, graph := base, base
	lossy.Loss = 0.1
	graph.Topology = sim.Topology{Kind: sim.Regular, Degree: 4}
	for _, c := range []struct {
		name string
		cfg  Config
		set  Settings
	}{
		{"asymptotic loss", lossy, Settings{Method: Asymptotic}},
		{"exact topology", graph, Settings{Method: Exact}},
		{"asymptotic topology", graph, Settings{Method: Asymptotic}},
		{"lumped topology", graph, Settings{Method: MonteCarlo, Model: Lumped}},
	} {
		if _, err := Solve(ctx, c.cfg, c.set); !errors.Is(err, ErrNotCovered) {
			t.Errorf("%s: %v, want ErrNotCovered", c.name, err)
		}
	}
	for _, eps := range []float64{-0.1, 1, math.NaN(), math.Inf(1)} {
		c := base
		c.Loss = eps
		var fe *FieldError
		if err := c.Validate(); !errors.As(err, &fe) || fe.Field != "Config.Loss" {
			t.Errorf("ε = %g: %v, want a field error on Config.Loss", eps, err)
		}
	}
}

// The scan for the largest loss tolerated, at N = 2 where P(T_1 ≤ D) is
// the closed form above: at D = 4 it is 0.918 at ε = 0.15 and 0.894 at
// 0.2 and falls after; with confidence 0.905 the last feasible ε of the
// grid 0, 0.05, …, 0.3 is 0.15 (6 and 7 standard errors of the 20 000
// replications from the confidence), and no larger ε is feasible again;
// the exact chain finds the same.
func TestLossSweepTolerated(t *testing.T) {
	cfg := twoNodes{}.config()
	cfg.Deadline, cfg.Confidence = 4, 0.905
	grid := []float64{0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3}
	for i, e := range grid {
		want := (twoNodes{e}).cdf(gossip.Continuous, 4) >= 0.905
		if want != (i <= 3) {
			t.Fatalf("closed form at ε = %g: feasible %v", e, want)
		}
	}
	for _, set := range []Settings{{Method: MonteCarlo, Model: Lumped, Reps: 20000, Seed: 3}, {Method: Exact}} {
		ld, err := LossSweep(context.Background(), cfg, []int{2}, grid, set)
		if err != nil {
			t.Fatal(err)
		}
		if ld.Tolerated[0] != 0.15 || !math.IsNaN(ld.Again[0]) || ld.Most != 0 {
			t.Errorf("%v: tolerated %v, again %v, most %d; want 0.15, NaN, 0", set.Method, ld.Tolerated, ld.Again, ld.Most)
		}
	}
	if _, err := LossSweep(context.Background(), cfg, []int{2}, []float64{0.1, 0.05}, Settings{}); err == nil {
		t.Error("a descending grid was accepted")
	}
}

// A topology is covered by package sim's Monte Carlo only. regular:N−1 is
// the complete graph (every node the neighbour of every other), so there
// the mc method must agree with the exact chain's mean and sd (first-step
// analysis), within 4 standard errors plus 0.02 rounds for the Sheppard
// corrections (as TestMonteCarloMethod); a sparse graph (regular:4) slows
// the spread (its mean is larger by more than 4 standard errors), and the
// note says that no law covers it.
func TestTopologyMonteCarlo(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Nodes: 40, Shuffle: gossip.Shuffle{Items: 100, Cache: 20, Exchange: 5}, Level: 1}
	em, esd, err := exactMoments(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var means [2]float64
	for i, deg := range []int{39, 4} {
		c := cfg
		c.Topology = sim.Topology{Kind: sim.Regular, Degree: deg}
		a, err := Solve(ctx, c, Settings{Model: Markov, Reps: 400, Seed: 2}) // Auto: the Markov Monte Carlo
		if err != nil {
			t.Fatal(err)
		}
		ac := a.Accuracy
		if a.Method != MonteCarlo || !strings.Contains(ac.Note, "no exact or asymptotic law covers the topology") {
			t.Errorf("regular:%d: method %v, note %q", deg, a.Method, ac.Note)
		}
		if deg == 39 && (math.Abs(a.Mean-em) > 4*ac.SEMean+0.02 || math.Abs(a.SD-esd) > 4*ac.SESD+0.02) {
			t.Errorf("regular:39: mc mean %v ± %v, sd %v ± %v; exact (complete graph) %v, %v", a.Mean, ac.SEMean, a.SD, ac.SESD, em, esd)
		}
		if deg == 4 && !(a.Mean > means[0]+4*ac.SEMean) {
			t.Errorf("regular:4: mean %v ± %v not above the complete graph's %v", a.Mean, ac.SEMean, means[0])
		}
		means[i] = a.Mean
		t.Logf("regular:%d: mean %.3f ± %.3f, sd %.3f (exact complete graph %.3f, %.3f)", deg, a.Mean, ac.SEMean, a.SD, em, esd)
	}
}

// Auto with loss where the exact chain does not fit (a budget of one
// state-step): the asymptotic law does not cover loss, so the lumped
// chain's Monte Carlo, with at least Settings.Reps replications and as
// many more as bring two standard errors of the mean within the requested
// accuracy; the note says which method and why.
func TestLossAutoFallback(t *testing.T) {
	cfg := Config{Nodes: 300, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Level: 0.9, Loss: 0.1}
	for _, acc := range []float64{5, 1} {
		a, err := Solve(context.Background(), cfg, Settings{ExactBudget: 1, Reps: 100, Seed: 1, Accuracy: acc})
		if err != nil {
			t.Fatal(err)
		}
		ac := a.Accuracy
		if a.Method != MonteCarlo || !strings.Contains(ac.Note, "asymptotic law does not cover loss") || !strings.Contains(ac.Note, "lumped Monte Carlo") {
			t.Errorf("accuracy %g: method %v, note %q", acc, a.Method, ac.Note)
		}
		if !(2*ac.SEMean <= acc) {
			t.Errorf("accuracy %g: 2·se of the mean %.3g", acc, 2*ac.SEMean)
		}
		if !(a.PReach > 0 && a.PReach < 1) || !(ac.SEPReach > 0) {
			t.Errorf("accuracy %g: p_reach %v ± %v", acc, a.PReach, ac.SEPReach)
		}
		t.Logf("accuracy %g: mean %.3f ± %.3f, p_reach %.4f ± %.4f: %s", acc, a.Mean, ac.SEMean, a.PReach, ac.SEPReach, ac.Note)
	}
}

// The exact chain with loss against the N = 2 closed forms, in both
// clocks: P(reach) and the mean given reach exact up to rounding (1e-12);
// P(T_1 ≤ D) within the chain's bound; the median given reach, ln 2/λ in
// continuous time, within the bisection's 1e-9. TConfidence is NaN when
// P(reach) < Confidence (ε = 0.5: 5/6 < 0.95).
func TestLossTwoNodesExact(t *testing.T) {
	for _, tm := range []gossip.Time{gossip.Continuous, gossip.Shuffles} {
		for _, eps := range []float64{0.2, 0.5} {
			tn := twoNodes{eps}
			cfg := tn.config()
			cfg.Time, cfg.Deadline = tm, 1.3
			a, err := Solve(context.Background(), cfg, Settings{Method: Exact})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name           string
				got, want, tol float64
			}{
				{"p_reach", a.PReach, tn.reach(), 1e-12},
				{"mean", a.Mean, 1 / tn.lambda(), 1e-12},
				{"p_deadline", a.PDeadline, tn.cdf(tm, 1.3), a.Accuracy.Bound + 1e-12},
			} {
				if math.Abs(c.got-c.want) > c.tol {
					t.Errorf("%v ε = %g: %s = %.15g, want %.15g ± %g", tm, eps, c.name, c.got, c.want, c.tol)
				}
			}
			if want := math.Ln2 / tn.lambda(); tm == gossip.Continuous && math.Abs(a.Q50-want) > 1e-9 {
				t.Errorf("ε = %g: median %v, want %v", eps, a.Q50, want)
			}
			if eps == 0.5 && !math.IsNaN(a.TConfidence) {
				t.Errorf("ε = 0.5: t_confidence %v with P(reach) %v < 0.95", a.TConfidence, a.PReach)
			}
		}
	}
}

// The exact chain against the lumped chain's Monte Carlo with loss at N =
// 40 (n = 100, c = 20, s = 5, L = 0.9, ε = 0.15): P(reach), the mean and sd
// given reach and P(T_L ≤ D) within 4 standard errors of 4000 runs (plus
// the chain's bound).
func TestLossExactAgainstLumped(t *testing.T) {
	cfg := Config{Nodes: 40, Shuffle: gossip.Shuffle{Items: 100, Cache: 20, Exchange: 5}, Level: 0.9, Loss: 0.15, Deadline: 60}
	e, err := Solve(context.Background(), cfg, Settings{Method: Exact})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Solve(context.Background(), cfg, Settings{Method: MonteCarlo, Model: Lumped, Reps: 4000, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	ac := m.Accuracy
	for _, c := range []struct {
		name          string
		exact, mc, se float64
	}{
		{"p_reach", e.PReach, m.PReach, ac.SEPReach}, {"mean", e.Mean, m.Mean, ac.SEMean},
		{"sd", e.SD, m.SD, ac.SESD}, {"p_deadline", e.PDeadline, m.PDeadline, ac.SEPDeadline},
	} {
		if math.Abs(c.exact-c.mc) > 4*c.se+e.Accuracy.Bound || !(c.se > 0) {
			t.Errorf("%s: exact %.5f, lumped %.5f ± %.2g", c.name, c.exact, c.mc, c.se)
		}
		t.Logf("%s: exact %.5f, lumped %.5f ± %.2g", c.name, c.exact, c.mc, c.se)
	}
}

// The mc method on package sim's pairwise model with loss (Model Markov:
// messages lost as the lossy matrix says, X = 0 absorbing) against the
// exact chain at N = 40: P(reach), the mean given reach (Sheppard-
// corrected, 0.02 rounds for the correction as TestMonteCarloMethod) and
// P(T_L ≤ D) within 4 standard errors.
func TestLossMarkovAgainstExact(t *testing.T) {
	cfg := Config{Nodes: 40, Shuffle: gossip.Shuffle{Items: 100, Cache: 20, Exchange: 5}, Level: 0.9, Loss: 0.15, Deadline: 60}
	e, err := Solve(context.Background(), cfg, Settings{Method: Exact})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Solve(context.Background(), cfg, Settings{Method: MonteCarlo, Model: Markov, Reps: 1000, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	ac := m.Accuracy
	for _, c := range []struct {
		name             string
		exact, mc, slack float64
	}{
		{"p_reach", e.PReach, m.PReach, 4 * ac.SEPReach}, {"mean", e.Mean, m.Mean, 4*ac.SEMean + 0.02},
		{"p_deadline", e.PDeadline, m.PDeadline, 4*ac.SEPDeadline + e.Accuracy.Bound},
	} {
		if math.Abs(c.exact-c.mc) > c.slack || !(c.slack > 0) {
			t.Errorf("%s: exact %.5f, markov %.5f (tolerance %.2g)", c.name, c.exact, c.mc, c.slack)
		}
		t.Logf("%s: exact %.5f, markov %.5f (tolerance %.2g)", c.name, c.exact, c.mc, c.slack)
	}
	if !strings.Contains(ac.Note, "died out in") {
		t.Errorf("note %q", ac.Note)
	}
}

// Auto with loss where neither the exact chain nor the lumped Monte Carlo
// fits its budget (N = 10⁷: about 9·10¹⁰ events for 1000 runs) refuses
// before any work (gossip.ErrTooLarge); the Monte Carlo asked for by name
// runs, and honours its context inside a replication (N = 10⁹: some 4·10⁹
// events each).
func TestLossAutoTooLarge(t *testing.T) {
	cfg := Config{Nodes: 10_000_000, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Level: 0.99, Loss: 0.1}
	if _, err := Solve(context.Background(), cfg, Settings{}); !errors.Is(err, gossip.ErrTooLarge) {
		t.Errorf("auto at N = 10⁷ with loss: %v, want ErrTooLarge", err)
	}
	cfg.Nodes = 1_000_000_000
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := Solve(ctx, cfg, Settings{Method: MonteCarlo, Model: Lumped, Reps: 2}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("lumped at N = 10⁹: %v, want the context's deadline", err)
	}
	if d := time.Since(start); d > 20*time.Second { // 2^20 events take about 10 ms; 20 s even on a loaded machine
		t.Errorf("lumped at N = 10⁹ returned %v after its 100 ms deadline", d)
	}
}
