package sim

import (
	"context"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/gossip"
)

// lossSample is one simulated path: X and Y at t = 0..T.
type lossSample struct{ x, y []int32 }

// The exact chain with loss against two Monte Carlo samplers of the same
// continuous-time process, at N = 10, 100 and 1000 (n = 100, c = 50,
// s = 25), both through Run: the Lumped model (class counts, Gillespie)
// and the node-by-node Markov model under the continuous schedule. At t = 1, 2, 4, T/2 and T:
// P(X(t) = 0) and E[X/N], and for N = 10 and 100 (the joint chain) E[Y/N]
// and P(Y(t) ≥ ⌈0.9·N⌉) (= P(T_L ≤ t), T_L = ∞ for a dead d whose Y stayed
// below). At N = 1000 the joint chain's level tail would cost ~30 s, so X
// alone is solved and PReach (first-step analysis, O(N·m)) is compared
// with the share of runs with Y(T) ≥ m at T = 60 rounds, 2.3 times
// E[T_L | T_L < ∞] = 26: a run alive with Y < m at T would bias that share
// down, and the test requires there be none (so its probability is
// below ~3/R, far inside the standard error).
//
// Each sample mean must lie within 4 standard errors of the exact value,
// the standard error from the exact law (σ/√R, or √(p(1−p)/R) for a
// probability), plus the chain's Bound. 4 SE: a normal deviation passes it
// with probability 6.3·10⁻⁵; over the 2·(2·5·4 + 5·2 + 1) = 102 checks a
// correct sampler with another seed fails with probability below 1 %,
// while a wrong rule (the mutations tried: ℓ halved, the 01 → 00 outcome
// dropped, the lossless matrix passed by Run) moves these means by tens
// of SE. Seeds are fixed (7 + N).
func TestLossChainAgainstMonteCarlo(t *testing.T) {
	sh := gossip.Shuffle{Items: 100, Cache: 50, Exchange: 25}
	for _, tc := range []struct {
		N, T, R int
		eps     float64
		joint   bool
	}{{10, 12, 20000, 0.2, true}, {100, 30, 2000, 0.1, true}, {1000, 60, 400, 0.05, false}} {
		ccfg := chain.Config{Nodes: tc.N, Shuffle: sh, Time: gossip.Continuous, TMax: float64(tc.T), Dt: 1, Loss: tc.eps}
		if tc.joint {
			ccfg.Level = 0.9
		} else {
			ccfg.ReplicationOnly = true
		}
		ex, err := chain.Solve(context.Background(), ccfg, chain.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		lcfg := ccfg
		lcfg.ReplicationOnly, lcfg.Level = false, 0.9
		reach, err := chain.ReachProbability(context.Background(), lcfg)
		if err != nil {
			t.Fatal(err)
		}
		m := int32(math.Ceil(0.9*float64(tc.N) - 1e-9))
		cfg := DefaultConfig()
		cfg.Model, cfg.Schedule, cfg.Nodes, cfg.Initial = Lumped, Continuous, tc.N, 1
		cfg.Shuffle, cfg.Rounds, cfg.Reps, cfg.Seed, cfg.Loss, cfg.Warmup = sh, tc.T, tc.R, uint64(7+tc.N), tc.eps, 0
		for _, model := range []string{"lumped", "markov"} {
			t.Run(fmt.Sprint("N=", tc.N, "/", model), func(t *testing.T) {
				c := cfg
				if model == "markov" {
					c.Model = Markov
				}
				res, err := Run(context.Background(), c, Settings{Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				samples := make([]lossSample, tc.R)
				for i, rp := range res.Reps {
					samples[i] = lossSample{rp.X, rp.Y}
				}
				R := float64(tc.R)
				n := float64(tc.N)
				pse := func(p float64) float64 { return math.Sqrt(p * (1 - p) / R) }
				worst := 0.0
				check := func(tt int, name string, got, exact, se float64) {
					t.Helper()
					if se > 0 {
						worst = math.Max(worst, math.Abs(got-exact)/se)
					}
					if d := math.Abs(got - exact); d > 4*se+ex.Bound+1e-12 {
						t.Errorf("t=%d %s: simulated %.5f, exact %.5f (se %.2g, %.1f se)", tt, name, got, exact, se, d/se)
					}
				}
				for _, tt := range []int{1, 2, 4, tc.T / 2, tc.T} {
					row := ex.Rows[tt]
					var dead, x, y, lev float64
					for _, s := range samples {
						if s.x[tt] == 0 {
							dead++
						}
						if s.y[tt] >= m {
							lev++
						}
						x += float64(s.x[tt]) / n
						y += float64(s.y[tt]) / n
					}
					check(tt, "P(X=0)", dead/R, row.PExtinct, pse(row.PExtinct))
					check(tt, "E[X/N]", x/R, row.X.Mean, row.X.SD/math.Sqrt(R))
					if tc.joint {
						check(tt, "E[Y/N]", y/R, row.Y.Mean, row.Y.SD/math.Sqrt(R))
						check(tt, "P(Y≥m)", lev/R, row.PLevel, pse(row.PLevel))
					}
				}
				if !tc.joint {
					var reached, stuck float64
					for _, s := range samples {
						switch {
						case s.y[tc.T] >= m:
							reached++
						case s.x[tc.T] > 0:
							stuck++
						}
					}
					if stuck > 0 {
						t.Errorf("%g runs alive below the level at T = %d: T too short for PReach", stuck, tc.T)
					}
					check(tc.T, "PReach", reached/R, reach, pse(reach))
				}
				last := ex.Rows[tc.T]
				t.Logf("exact at t=%d: P(X=0) %.4f, E[X/N] %.4f, E[Y/N] %.4f, P(Y≥m) %.4f; PReach %.4f; largest deviation %.2f se", tc.T, last.PExtinct, last.X.Mean, last.Y.Mean, last.PLevel, reach, worst)
			})
		}
	}
}

// The quasi-stationary law against long Lumped runs conditioned on
// survival: at N = 10 and 30 (n = 50, c = 10, s = 5), the empirical law of
// X(T) over the R' runs alive at T against chain.QuasiStationary, in total
// variation. Given R', the survivors are R' independent draws from the law
// of X(T) given X(T) > 0. That law is computed here, independently of
// QuasiStationary (the per-shuffle birth–death matrix built from
// chain.JumpsLossFor, mixed over the Poisson(N·T) number of shuffles), and
// must be within 10⁻⁴ of ν: T is long enough for the conditioned law to
// have settled (measured: 4·10⁻⁹ and 2·10⁻⁷). The empirical distance to it
// has mean at most ½·Σ_x √(p(x)(1−p(x))/R') and, changing by at most 1/R'
// with any one draw, exceeds that mean by s with probability at most
// e^{−2R's²} (McDiarmid); s = √(ln 10⁴/(2R')) makes the false-alarm rate
// 10⁻⁴. The bound on TV(empirical, ν) is their sum plus 10⁻⁴. (Returning
// the law of the chain reflected at X = 1, θ ignored, is 0.08 away at
// N = 10 and fails.)
func TestQuasiStationaryAgainstMonteCarlo(t *testing.T) {
	sh := gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5}
	for _, tc := range []struct {
		N, T, R int
		eps     float64
	}{{10, 120, 60000, 0.2}, {30, 200, 40000, 0.3}} {
		t.Run(fmt.Sprint("N=", tc.N), func(t *testing.T) {
			ccfg := chain.Config{Nodes: tc.N, Shuffle: sh, Loss: tc.eps}
			nu, err := chain.QuasiStationary(context.Background(), ccfg)
			if err != nil {
				t.Fatal(err)
			}
			cond := conditionedLaw(t, tc.N, tc.T, sh, tc.eps)
			delta := 0.0
			for x := 1; x <= tc.N; x++ {
				delta += math.Abs(cond[x]-nu[x]) / 2
			}
			cfg := DefaultConfig()
			cfg.Model, cfg.Schedule, cfg.Nodes, cfg.Initial = Lumped, Continuous, tc.N, 1
			cfg.Shuffle, cfg.Rounds, cfg.Reps, cfg.Seed, cfg.Loss, cfg.Warmup = sh, tc.T, tc.R, uint64(11+tc.N), tc.eps, 0
			res, err := Run(context.Background(), cfg, Settings{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			counts := make([]float64, tc.N+1)
			alive := 0.0
			for _, rp := range res.Reps {
				if x := rp.X[tc.T]; x > 0 {
					counts[x]++
					alive++
				}
			}
			tv, mean := 0.0, 0.0
			for x := 1; x <= tc.N; x++ {
				tv += math.Abs(counts[x]/alive - nu[x])
				mean += math.Sqrt(cond[x] * (1 - cond[x]) / alive)
			}
			tv /= 2
			if delta > 1e-4 {
				t.Errorf("TV(law of X(T) given X(T) > 0, quasi-stationary) = %.3g > 1e-4", delta)
			}
			bound := mean/2 + math.Sqrt(math.Log(1e4)/(2*alive)) + 1e-4
			t.Logf("%g of %d runs alive at T = %d; TV %.4f, bound %.4f (δ_T = %.2g)", alive, tc.R, tc.T, tv, bound, delta)
			if alive < 500 {
				t.Fatalf("only %g survivors", alive)
			}
			if tv > bound {
				t.Errorf("TV(empirical | alive, quasi-stationary) = %.4f > %.4f", tv, bound)
			}
		})
	}
}

// conditionedLaw returns the law of X(T) given X(T) > 0, from X(0) = 1 in
// continuous time:
// the per-shuffle birth–death matrix (up u·X(N−X)/D, down
// w·X(X−1)/D + ℓ·X(N−X)/D) applied k times, mixed with Poisson(N·T)
// weights (those below 10⁻³⁰ relative to the mode left out).
func conditionedLaw(t *testing.T, N, T int, sh gossip.Shuffle, eps float64) []float64 {
	t.Helper()
	j, err := chain.JumpsLossFor(approx.Simplified, sh, eps)
	if err != nil {
		t.Fatal(err)
	}
	D := float64(N) * float64(N-1)
	up, down := make([]float64, N+2), make([]float64, N+2)
	for x := 1; x <= N; x++ {
		fx := float64(x)
		up[x] = j.Up * fx * float64(N-x) / D
		down[x] = (j.Drop*fx*float64(x-1) + j.Lose*fx*float64(N-x)) / D
	}
	lam := float64(N * T)
	pois := distuv.Poisson{Lambda: lam}
	mode := pois.LogProb(lam) // N·T is a whole number: the mode
	v, nv := make([]float64, N+2), make([]float64, N+2)
	v[1] = 1
	law := make([]float64, N+2)
	for k := 0; k < int(lam+60*math.Sqrt(lam)); k++ {
		if lp := pois.LogProb(float64(k)); lp-mode > -69 {
			w := math.Exp(lp)
			for x := 1; x <= N; x++ {
				law[x] += w * v[x]
			}
		}
		for x := 1; x <= N; x++ {
			nv[x] = v[x]*(1-up[x]-down[x]) + v[x-1]*up[x-1] + v[x+1]*down[x+1]
		}
		v, nv = nv, v
	}
	s := 0.0
	for x := 1; x <= N; x++ {
		s += law[x]
	}
	for x := range law {
		law[x] /= s
	}
	return law[:N+1]
}
