package plan

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// The series for the moments of J(a) = ∫₀ᵃ dr/(K + P(r)) against a direct
// simulation of the Poisson process (a different algorithm: exponential
// gaps, the holding lengths clipped at a): within 4 standard errors (the
// sample variance's standard error from the sample's fourth moment). And
// the limits: as a grows, E J(a) − ln(1 + a/K) → −(ψ(K) − ln K) and Var
// J(a) → ψ'(K) (Kendall's exponential limit of the Yule process), the
// distance falling as 1/a: at a = 10⁶ (beyond shiftMaxA, extrapolated)
// within 1e-4.
func TestYuleJ(t *testing.T) {
	for _, tc := range []struct {
		K int
		a float64
	}{{1, 0.3}, {1, 4}, {1, 15}, {5, 15}, {2, 200}} {
		t.Run(fmt.Sprintf("K=%d/a=%g", tc.K, tc.a), func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, uint64(tc.K)))
			const R = 200000
			m1, m2, m4 := 0.0, 0.0, 0.0
			xs := make([]float64, R)
			for i := range xs {
				j, pos, J := 0, 0.0, 0.0
				for {
					gap := r.ExpFloat64()
					if pos+gap >= tc.a {
						J += (tc.a - pos) / float64(tc.K+j)
						break
					}
					J += gap / float64(tc.K+j)
					pos += gap
					j++
				}
				xs[i] = J
				m1 += J
			}
			m1 /= R
			for _, x := range xs {
				d := (x - m1) * (x - m1)
				m2 += d
				m4 += d * d
			}
			m2 /= R - 1
			m4 /= R
			dm, v := yuleJ(tc.K, tc.a)
			em := dm + math.Log1p(tc.a/float64(tc.K))
			seM, seV := math.Sqrt(m2/R), math.Sqrt((m4-m2*m2)/R)
			if math.Abs(em-m1) > 4*seM || math.Abs(v-m2) > 4*seV {
				t.Errorf("E J %.5f (sim %.5f ± %.5f), Var J %.5f (sim %.5f ± %.5f)", em, m1, seM, v, m2, seV)
			}
		})
	}
	for _, K := range []int{1, 5} {
		lm, lv := shiftLimit(K)
		dm, v := yuleJ(K, 1e6)
		// 1e-4: at a = 10⁶ > shiftMaxA the mean is 1.00/a = 1e-6 from its limit and the variance 2.13·ln(a)/a ≈ 2.9e-5 (the rates measured in yuleJ's doc): 1e-5 is a margin of 10 on the mean and 1e-4 of 3.4 on the variance.
		if math.Abs(dm+lm) > 1e-5 || math.Abs(v-lv) > 1e-4 {
			t.Errorf("K=%d at a = 1e6: %v %v, limits %v %v", K, dm, v, -lm, lv)
		}
	}
}

// The two examples of the design review, against 10⁵ event-by-event runs
// of the pairwise model (an independent simulator): mean 168.4 ± 0.1 and
// sd 55.3 ± 0.1 rounds; P(T_0.99 ≤ 899.7) = 0.782 (binomial se 0.0013).
// The law must answer within its stated bound plus 3 of the reference's
// standard errors, where the limit law without the finite-level shift was
// off by 3.3 rounds in the mean, 9.5 in the sd and 0.032 in P.
func TestReviewExamples(t *testing.T) {
	a, err := Solve(context.Background(), Config{Nodes: 2000, Shuffle: gossip.Shuffle{Items: 200, Cache: 20, Exchange: 18}, Level: 0.5}, Settings{Method: Asymptotic})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(a.Mean-168.4) > a.Accuracy.DevMean+0.3 || math.Abs(a.SD-55.3) > a.Accuracy.DevSD+0.3 {
		t.Errorf("mean %.2f ± %.2f, sd %.2f ± %.2f; reference 168.4 ± 0.1, 55.3 ± 0.1", a.Mean, a.Accuracy.DevMean, a.SD, a.Accuracy.DevSD)
	}
	t.Logf("example 1: mean %.2f (bound %.2f), sd %.2f (bound %.2f)", a.Mean, a.Accuracy.DevMean, a.SD, a.Accuracy.DevSD)
	b, err := Solve(context.Background(), Config{Nodes: 2000, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 99}, Level: 0.99, Deadline: 899.7}, Settings{Method: Asymptotic})
	if err != nil {
		t.Fatal(err)
	}
	if d := b.Accuracy.DevPDeadline; !(math.Abs(b.PDeadline-0.782) <= d+3*0.0013) {
		t.Errorf("P(T ≤ 899.7) = %.4f ± %.4f; reference 0.782 ± 0.0013", b.PDeadline, d)
	}
	if !strings.Contains(b.Accuracy.Note, "P(T_L ≤ D)") {
		t.Errorf("the note does not state P's bound: %s", b.Accuracy.Note)
	}
	t.Logf("example 2: P %.4f (bound %.4f)", b.PDeadline, b.Accuracy.DevPDeadline)
}

// A confidence one ulp below 1 (the CDF cannot resolve it; the survival
// function can): the quantile is found, finite and above the 0.95-quantile,
// and the law's survival there is within a relative 1e-6 of 1 − p (the
// bisection's 1e-9 rounds times the density). It used to loop forever.
func TestConfidenceNearOne(t *testing.T) {
	p := 0.9999999999999999
	cfg := Config{Nodes: 100000, Shuffle: paper, Level: 0.99, Confidence: p}
	a, err := Solve(context.Background(), cfg, Settings{Method: Asymptotic})
	if err != nil {
		t.Fatal(err)
	}
	if !(a.TConfidence > a.Q95 && !math.IsInf(a.TConfidence, 0)) {
		t.Fatalf("t_confidence %v, q95 %v", a.TConfidence, a.Q95)
	}
	mf, _ := meanField(cfg)
	m := cfg.count()
	law := newAsymptotic(cfg.Nodes, 1, betaQuantiles(m-1, cfg.Nodes-m+1), mf)
	if s := law.sf(a.TConfidence); math.Abs(s-(1-p)) > 1e-6*(1-p) {
		t.Errorf("P(T > t_confidence) = %v, want %v", s, 1-p)
	}
}
