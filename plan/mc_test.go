package plan

import (
	"context"
	"fmt"
	"math"
	"sort"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// lumped samples T_L of the pairwise model on its lumped state (package
// code, lumpedSample; checked against the exact chain by TestLumpedSampler).
func lumped(cfg Config, reps int, seed uint64) []float64 {
	out, err := lumpedSample(context.Background(), cfg, reps, seed, 0, nil)
	if err != nil {
		panic(err)
	}
	return out
}

// checkAgainstSample compares an asymptotic answer with a sample of T_L:
// mean and sd within 4 standard errors plus the law's stated deviation,
// and the sample's CDF at the law's 5, 50 and 95 % quantiles within 4
// binomial standard errors plus the stated deviation turned into
// probability (density × shift; T_L's density is below 0.5/sd, the
// Gumbel law's maximum being π/(√6·e) = 0.47 per sd). 4 standard errors:
// about 6·10⁻⁵ false alarms per check.
func checkAgainstSample(t *testing.T, name string, a *Answer, sample []float64) {
	t.Helper()
	R := float64(len(sample))
	m, v, m4 := 0.0, 0.0, 0.0
	for _, x := range sample {
		m += x
	}
	m /= R
	for _, x := range sample {
		d := (x - m) * (x - m)
		v += d
		m4 += d * d
	}
	v /= R - 1
	m4 /= R
	sd := math.Sqrt(v)
	seMean, seSD := sd/math.Sqrt(R), math.Sqrt((m4-v*v)/R)/(2*sd)
	dm, ds := a.Accuracy.DevMean, a.Accuracy.DevSD
	if math.Abs(a.Mean-m) > 4*seMean+dm || math.Abs(a.SD-sd) > 4*seSD+ds {
		t.Errorf("%s: asymptotic mean %.3f sd %.3f; sample %.3f ± %.3f, %.3f ± %.3f", name, a.Mean, a.SD, m, seMean, sd, seSD)
	}
	sorted := append([]float64(nil), sample...)
	sort.Float64s(sorted)
	for _, q := range []struct{ p, t float64 }{{0.05, a.Q05}, {0.5, a.Q50}, {0.95, a.Q95}} {
		f := float64(sort.SearchFloat64s(sorted, q.t)) / R
		tol := 4*math.Sqrt(q.p*(1-q.p)/R) + 0.5*(dm+2*ds)/a.SD
		if math.Abs(f-q.p) > tol {
			t.Errorf("%s: sample CDF at the law's %g-quantile %.3f is %.4f (tolerance %.4f)", name, q.p, q.t, f, tol)
		}
	}
	t.Logf("%s: Δmean %+.3f (se %.3f), Δsd %+.3f (se %.3f)", name, a.Mean-m, seMean, a.SD-sd, seSD)
}

// The lumped sampler itself, against the exact chain's mean and sd at N =
// 200 (first-step analysis), in both clocks: within 4 standard errors.
// The sample sd's standard error is √(μ₄ − σ⁴)/(2σ√R) ≤ 0.7·σ/√R for T_L's
// kurtosis (below 5 here).
func TestLumpedSampler(t *testing.T) {
	for _, tm := range []gossip.Time{gossip.Continuous, gossip.Shuffles} {
		cfg := Config{Nodes: 200, Shuffle: paper, Level: 0.99, Time: tm}
		s := lumped(cfg, 4000, 1)
		em, esd, _ := exactMoments(context.Background(), cfg)
		m, sd := 0.0, 0.0
		for _, x := range s {
			m += x
		}
		m /= float64(len(s))
		for _, x := range s {
			sd += (x - m) * (x - m)
		}
		sd = math.Sqrt(sd / float64(len(s)-1))
		if math.Abs(m-em) > 4*sd/math.Sqrt(4000) || math.Abs(sd-esd) > 4*0.7*sd/math.Sqrt(4000) {
			t.Errorf("%v: sampler mean %v sd %v; exact %v %v", tm, m, sd, em, esd)
		}
	}
}

// The sample does not depend on the number of workers.
func TestLumpedWorkers(t *testing.T) {
	cfg := Config{Nodes: 300, Shuffle: paper, Level: 1}
	a, _ := lumpedSample(context.Background(), cfg, 50, 7, 1, nil)
	b, _ := lumpedSample(context.Background(), cfg, 50, 7, 3, nil)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("replication %d: %v with 1 worker, %v with 3", i, a[i], b[i])
		}
	}
}

// The mc method with Model Lumped summarises the sample: P(T ≤ D) against
// the exact chain's law at N = 100 within 4 binomial standard errors.
func TestLumpedMethod(t *testing.T) {
	cfg := Config{Nodes: 100, Shuffle: paper, Level: 0.99, Deadline: 50}
	a, err := Solve(context.Background(), cfg, Settings{Method: MonteCarlo, Model: Lumped, Reps: 4000, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	e, err := Solve(context.Background(), cfg, Settings{Method: Exact})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(a.PDeadline-e.PDeadline) > 4*a.Accuracy.SEPDeadline+e.Accuracy.Bound || math.Abs(a.Mean-e.Mean) > 4*a.Accuracy.SEMean {
		t.Errorf("lumped P(T ≤ 50) %v ± %v, mean %v ± %v; exact %v, %v", a.PDeadline, a.Accuracy.SEPDeadline, a.Mean, a.Accuracy.SEMean, e.PDeadline, e.Mean)
	}
	if !(a.Q05 <= a.Q25 && a.Q25 <= a.Q50 && a.Q50 <= a.Q75 && a.Q75 <= a.Q95) {
		t.Errorf("quantiles out of order: %+v", a)
	}
}

// The asymptotic law against Monte Carlo of the pairwise model at N = 10⁴
// (three configurations; -long: all 18 of s ∈ {20, 50, 80}, K ∈ {1, 5}, L
// ∈ {0.9, 0.99, 1} with more replications, and N = 10⁵).
func TestAsymptoticAgainstMonteCarlo(t *testing.T) {
	type point struct {
		N, s, K int
		L       float64
	}
	pts := []point{{10_000, 50, 1, 0.99}, {10_000, 20, 5, 1}, {10_000, 80, 1, 0.9}}
	reps := 300
	if *long {
		pts = nil
		for _, N := range []int{10_000, 100_000} {
			for _, s := range []int{20, 50, 80} {
				for _, K := range []int{1, 5} {
					for _, L := range []float64{0.9, 0.99, 1} {
						if N == 100_000 && (K == 5 || L == 0.9) {
							continue
						}
						pts = append(pts, point{N, s, K, L})
					}
				}
			}
		}
		reps = 2000
	}
	for i, p := range pts {
		sh := paper
		sh.Exchange = p.s
		cfg := Config{Nodes: p.N, Shuffle: sh, Initial: p.K, Level: p.L}
		a, err := Solve(context.Background(), cfg, Settings{Method: Asymptotic})
		if err != nil {
			t.Fatal(err)
		}
		r := reps
		if p.N == 100_000 {
			r = reps / 4
		}
		checkAgainstSample(t, fmt.Sprintf("N=%d s=%d K=%d L=%g", p.N, p.s, p.K, p.L), a, lumped(cfg, r, uint64(i+1)))
	}
}

// The mc method (package sim, event by event, coverage after whole rounds)
// against the exact chain at N = 1000: the Sheppard-corrected mean and sd
// within 4 of their stated standard errors, plus the corrections' own
// error (zero when T_L's fractional part is uniform; 0.02 rounds allowed).
func TestMonteCarloMethod(t *testing.T) {
	cfg := Config{Nodes: 1000, Shuffle: paper, Level: 0.99, Deadline: 80}
	a, err := Solve(context.Background(), cfg, Settings{Method: MonteCarlo, Model: Markov, Reps: 200, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	em, esd, _ := exactMoments(context.Background(), cfg)
	ac := a.Accuracy
	if a.Method != MonteCarlo || math.Abs(a.Mean-em) > 4*ac.SEMean+0.02 || math.Abs(a.SD-esd) > 4*ac.SESD+0.02 {
		t.Errorf("mc mean %v ± %v, sd %v ± %v; exact %v, %v", a.Mean, ac.SEMean, a.SD, ac.SESD, em, esd)
	}
	if !(ac.SEPDeadline > 0) || a.PDeadline < 0 || a.PDeadline > 1 {
		t.Errorf("p_deadline %v ± %v", a.PDeadline, ac.SEPDeadline)
	}
}

// In Shuffles time the limit law is the same (package doc): the exact
// chain's sd in the two clocks differs by less than 0.03 rounds at N = 100.
func TestShufflesTimeSameLaw(t *testing.T) {
	for _, s := range []int{20, 50, 80} {
		sh := paper
		sh.Exchange = s
		c := Config{Nodes: 100, Shuffle: sh, Level: 1}
		_, sdC, _ := exactMoments(context.Background(), c)
		c.Time = gossip.Shuffles
		_, sdS, _ := exactMoments(context.Background(), c)
		// 0.03 bounds an offset, not rounding: the continuous clock's T_L is K holds Exp(N) (K the shuffle count), so Var_C − Var_S = E[T_L]/N exactly (measured equal to 9 digits: 1.162469785 at s = 20) and sd_C − sd_S = E[T_L]/(N·(sd_C + sd_S)) = 0.0216, 0.0201, 0.0167 at s = 20, 50, 80.
		if math.Abs(sdC-sdS) > 0.03 {
			t.Errorf("s=%d: sd %v continuous, %v shuffles", s, sdC, sdS)
		}
	}
}
