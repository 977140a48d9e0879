package chain

import (
	"context"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// birthDeath returns the per-shuffle probabilities of X → X+1, λ(X) =
// u·X(N−X)/D, and of X → X−1, μ(X) = w·X(X−1)/D + ℓ·X(N−X)/D, for
// X = 0..N+1 (zero at 0 and N+1; λ(N) = 0).
func birthDeath(N int, j Jumps) (lam, mu []float64) {
	d := float64(N) * float64(N-1)
	lam, mu = make([]float64, N+2), make([]float64, N+2)
	for x := 1; x <= N; x++ {
		fx := float64(x)
		lam[x] = j.Up / d * fx * float64(N-x)
		mu[x] = j.Drop/d*fx*float64(x-1) + j.Lose/d*fx*float64(N-x)
	}
	return lam, mu
}

// replicationConfig validates cfg as a chain of X alone (Y, Level, TMax and
// Dt are not used) and returns its jumps.
func replicationConfig(cfg Config) (Jumps, error) {
	c := cfg
	c.ReplicationOnly, c.Level, c.TMax, c.Dt = true, 0, 1, 1
	if err := c.Validate(); err != nil {
		return Jumps{}, err
	}
	return c.jumps()
}

// Lifetime returns the mean and standard deviation, in rounds, of the
// lifetime of d: the time T_0 until X = 0, from X = Initial (0 means 1),
// with loss cfg.Loss. Without loss d never dies and both are +Inf; they
// are +Inf too where they pass the largest float64. Only X matters: Y,
// Level, TMax and Dt are not used, and Nodes may go up to
// MaxNodesReplication. The law's distribution function is
// P(T_0 ≤ t) = P(X(t) = 0), Row.PExtinct of Solve.
//
// X is a birth–death chain absorbed at 0, with per-shuffle probabilities
// λ(X) = u·X(N−X)/D up and μ(X) = w·X(X−1)/D + ℓ·X(N−X)/D down. The
// shuffles K_k that take X from k to k−1 for the first time are
// independent for k = Initial, …, 1 (strong Markov property), and by
// first-step analysis (from k: down w.p. μ, up w.p. λ, then K_{k+1} + K_k',
// else K_k') their means m_k and variances v_k satisfy, with λ(N) = 0,
//
//	m_k = (1 + λ_k·m_{k+1}) / μ_k
//	v_k = (m_k − 1 + λ_k·(v_{k+1} + m_{k+1}·(m_{k+1} + m_k))) / μ_k
//
// (every term positive: no cancellation), computed from k = N down. Then
// E[K] = Σ_{k≤Initial} m_k, Var K = Σ v_k, and in rounds E[T_0] = E[K]/N
// and SD = √Var K/N in shuffles time, √(E[K] + Var K)/N in continuous
// time (the K-th event of a Poisson process of rate N), as for the time to
// a level. The work is O(N); ctx is checked every 2¹⁶ states.
func Lifetime(ctx context.Context, cfg Config) (mean, sd float64, err error) {
	if err := ctxguard.Check("chain", ctx); err != nil {
		return 0, 0, err
	}
	j, err := replicationConfig(cfg)
	if err != nil {
		return 0, 0, err
	}
	if j.Lose == 0 {
		return math.Inf(1), math.Inf(1), nil
	}
	N, initial := cfg.Nodes, max(cfg.Initial, 1)
	lam, mu := birthDeath(N, j)
	var ek, vk, mNext, vNext float64
	for k := N; k >= 1; k-- {
		if k == N || k%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, err
			}
		}
		m := (1 + lam[k]*mNext) / mu[k]
		v := (m - 1 + lam[k]*(vNext+mNext*(mNext+m))) / mu[k]
		if k <= initial {
			ek += m
			vk += v
		}
		mNext, vNext = m, v
	}
	n := float64(N)
	mean = ek / n
	if cfg.Time == gossip.Shuffles {
		sd = math.Sqrt(vk) / n
	} else {
		sd = math.Sqrt(ek+vk) / n
	}
	if math.IsNaN(mean) || math.IsNaN(sd) { // Inf − Inf or Inf·0 on the way
		return math.Inf(1), math.Inf(1), nil
	}
	return mean, sd, nil
}

// QSTol bounds the total-variation error of QuasiStationary's law (the
// convergence of its iteration; rounding adds about N·10⁻¹⁶ relative).
const QSTol = 1e-11

// qsWork bounds QuasiStationary's work, in states × iterations (about a
// second of CPU).
const qsWork = 2e8

// QuasiStationary returns the quasi-stationary law of the number of
// holders X, the law of X given survival in the long run, as ν[X] for
// X = 0..N (ν[0] = 0): the left Perron eigenvector of the generator
// restricted to X = 1..N, νQ = −θν, with θ = μ(1)·ν(1) the rate at which d
// dies from that law (Darroch and Seneta 1967). Without loss it is the
// stationary law (Stationary). Only Nodes, Shuffle, PDrop and Loss are
// used; Nodes may go up to MaxNodesReplication.
//
// It is computed by inverse iteration, ν ← ν·A⁻¹ normalised, A = −Q on
// X = 1..N, which converges geometrically at the ratio θ/θ₂ of the two
// smallest eigenvalues of A (tiny when d lives long). For a birth–death
// chain ν·A = b needs no matrix algebra: the flow out of {x, …, N} is
// ν(x)μ(x) − ν(x−1)λ(x−1) = B(x) = Σ_{y≥x} b(y), so
//
//	ν(1) = B(1)/μ(1),   ν(x) = (B(x) + λ(x−1)·ν(x−1)) / μ(x),
//
// a recursion of positive terms (no cancellation), run with a binary
// exponent kept apart (ν spans far more than float64's range when d lives
// long). It stops when the estimated distance to the limit, δ·ρ/(1 − ρ)
// (δ the total-variation change of the last iteration, ρ its ratio to the
// one before), is below QSTol; it refuses (gossip.ErrTooLarge) after
// 2·10⁸/N iterations or 10⁴, whichever is fewer. Its work is O(N) an
// iteration, a few iterations where d lives long: about 2 s of CPU at
// N = 10⁷. It checks ctx between iterations and returns ctx.Err() soon
// after a cancel; a nil ctx is an error ("chain: nil context").
func QuasiStationary(ctx context.Context, cfg Config) ([]float64, error) {
	if err := ctxguard.Check("chain", ctx); err != nil {
		return nil, err
	}
	j, err := replicationConfig(cfg)
	if err != nil {
		return nil, err
	}
	if j.Lose == 0 {
		c := cfg
		c.Loss = 0
		return Stationary(c)
	}
	if !(j.Up > 0) || !(j.Drop > 0) {
		// s = c: two holders never drop d (P(01|11) = 0), so X = N
		// absorbs as well and the law given survival is a point mass there.
		return nil, fielderr.New("chain", "Config.Shuffle.Exchange", "= %d: the quasi-stationary law needs copies made and dropped (here up %g, drop %g); with s = c two holders never drop d and X = N absorbs: need s < c = %d",
			cfg.Shuffle.Exchange, j.Up, j.Drop, cfg.Shuffle.Cache)
	}
	N := cfg.Nodes
	lam, mu := birthDeath(N, j)
	// Start from the stationary law of the chain reflected at 1 (ℓ kept
	// in μ, the killing from X = 1 left out), the limit itself when θ is
	// negligible.
	nu := make([]float64, N+2)
	copy(nu, reflected(N, j))
	maxIter := min(10000, int(qsWork/float64(N)))
	mant, expo := make([]float64, N+2), make([]int, N+2)
	next := make([]float64, N+2)
	prev := math.Inf(1)
	for it := 1; it <= maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Tails B(x) of the current law, then the recursion.
		tail := 0.0
		for x := N; x >= 1; x-- {
			tail += nu[x]
			next[x] = tail // B(x) for now
		}
		// ν(x) = mant[x]·2^expo[x]; the exponent changes only when the
		// mantissa leaves [2⁻⁵⁰⁰, 2⁵⁰⁰], so the powers of two are cached
		// and the largest mantissa is tracked per exponent.
		e, scale := 0, 1.0 // scale = 2^−e
		v, vmax := 0.0, 0.0
		topE := math.MinInt
		fold := func() {
			if vmax > 0 {
				_, ex := math.Frexp(vmax)
				topE = max(topE, e+ex)
			}
			vmax = 0
		}
		for x := 1; x <= N; x++ {
			if x == 1 {
				v = next[1] / mu[1]
			} else {
				b := next[x] // B(x)·2^−e
				switch {
				case e == 0 || b == 0:
				case e > -1000:
					b *= scale
				default: // 2^−e would overflow
					b = math.Ldexp(b, -e)
				}
				v = (b + lam[x-1]*v) / mu[x]
			}
			if v != 0 && (v > 0x1p500 || v < 0x1p-500) {
				fold()
				fr, ex := math.Frexp(v)
				v, e = fr, e+ex
				scale = math.Ldexp(1, -e)
			}
			mant[x], expo[x] = v, e
			vmax = math.Max(vmax, v)
		}
		fold()
		sum := 0.0
		pe, ps := math.MinInt, 0.0
		for x := 1; x <= N; x++ {
			if expo[x] != pe {
				pe, ps = expo[x], math.Ldexp(1, expo[x]-topE)
			}
			next[x] = mant[x] * ps
			sum += next[x]
		}
		delta := 0.0
		for x := 1; x <= N; x++ {
			next[x] /= sum
			delta += math.Abs(next[x] - nu[x])
		}
		delta /= 2
		nu, next = next, nu
		rho := delta / prev
		// The ratio needs two iterations (the first's δ says nothing of
		// the rate).
		if delta == 0 || it > 1 && delta <= QSTol && rho < 1 && delta*rho/(1-rho) <= QSTol {
			nu[0], nu[N+1] = 0, 0
			return nu[:N+1], nil
		}
		prev = delta
	}
	return nil, fmt.Errorf("chain: the quasi-stationary law for Config.Nodes = %d did not converge to %g in %d iterations: %w", N, QSTol, maxIter, gossip.ErrTooLarge)
}
