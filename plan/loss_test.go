package plan

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

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
			if math.Abs(a.Accuracy.SEPReach-math.Sqrt(a.PReach*(1-a.PReach)/20000)) > 1e-15 {
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
// replications from the confidence), and no larger ε is feasible again.
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
	ld, err := LossSweep(context.Background(), cfg, []int{2}, grid, Settings{Method: MonteCarlo, Model: Lumped, Reps: 20000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if ld.Tolerated[0] != 0.15 || !math.IsNaN(ld.Again[0]) || ld.Most != 0 {
		t.Errorf("tolerated %v, again %v, most %d; want 0.15, NaN, 0", ld.Tolerated, ld.Again, ld.Most)
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
		a, err := Solve(ctx, c, Settings{Reps: 400, Seed: 2}) // Auto: the Markov Monte Carlo
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
