package plan

import (
	"math"

	"gonum.org/v1/gonum/mathext"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/internal/numeric"
)

// asymptotic is the limit law of T_L (see the package doc):
//
//	T_L = ρ·(τ − G),   τ = t(B),   B ~ Beta(m−K, N−m+1),   G = ln(W/K)/u,   W ~ Gamma(K, 1),
//
// with B and G independent and ρ = (N−1)/N. The law of τ is held as its
// values at the nodes of a tanh–sinh quadrature (rule) over its quantile q ∈ (0, 1),
// so that E[h(τ)] = Σ_j w_j·h(τ_j); the law of G is closed-form.
type asymptotic struct {
	tau, w []float64 // τ_j (mean-field rounds) and their weights (Σ w = 1)
	k      int       // K, the initial copies
	u      float64   // growth rate of the Yule phase, per mean-field round
	rho    float64   // real rounds per mean-field round, (N−1)/N
	zero   bool      // the level is met at t = 0
	// gm, gs: mean and sd of the shift G at each node, at the node's
	// finite Yule clock a_j (shift.go); gmInf, gsInf: their limits.
	gm, gs       []float64
	gmInf, gsInf float64
	// The scales of the stated bound (deviation.go): M, the mean-field
	// holders when the level is reached (at the median of B); C = x∞·N,
	// the holders at equilibrium.
	copies, capacity float64
}

// rule is the tanh–sinh quadrature over B's quantile q ∈ (0, 1) (package
// internal/numeric): step h = 1/16, nodes j·h for |j| ≤ 44, the outermost
// at 2.75, 1/(1 + e^{π sinh 2.75}) = 2.4·10⁻¹¹ from 0 and 1; the rule leaves
// out a mass δ = 1.1·10⁻¹¹ at each end (Rule.Tail), so it integrates the
// bounded integrands used here (probabilities of G given τ) to within
// 4δ < 10⁻¹⁰ (TestQuadrature checks the unbounded −ln(1 − B) against a
// closed form).
var rule = func() numeric.Rule {
	r, err := numeric.TanhSinh(1.0/16, 44)
	if err != nil {
		panic(err) // constants: checked by every test of the package
	}
	return r
}()

// betaQuantiles returns, at every quadrature node q, −ln(1 − B_q) for B ~
// Beta(a, b): the coverage exponent E = −ln(1 − B) at which the a-th of
// a+b−1 uniform activation levels is passed. b = 1 (every node) is
// closed-form, B_q = q^{1/a}; otherwise gonum's InvRegIncBeta, on the side
// of the median that keeps the tail probability exact.
func betaQuantiles(a, b int) []float64 {
	e := make([]float64, len(rule.X))
	fa, fb := float64(a), float64(b)
	for i := range rule.X {
		if b == 1 {
			// 1 − q^{1/a} = −expm1(ln q / a)
			lq := math.Log(rule.X[i])
			if rule.X[i] > 0.5 {
				lq = math.Log1p(-rule.XC[i])
			}
			e[i] = -math.Log(-math.Expm1(lq / fa))
			continue
		}
		if rule.X[i] <= 0.5 {
			x := mathext.InvRegIncBeta(fa, fb, rule.X[i])
			e[i] = -math.Log1p(-x)
		} else {
			// 1 − B ~ Beta(b, a), at 1 − q
			e[i] = -math.Log(mathext.InvRegIncBeta(fb, fa, rule.XC[i]))
		}
	}
	return e
}

// newAsymptotic builds the law for N nodes, K initial copies, the level
// count m (K < m ≤ N) and the mean-field model mf. e holds the coverage
// exponents of Beta(m−K, N−m+1) at the quadrature nodes (betaQuantiles),
// which depend on N, K and m only and so are shared across exchange sizes.
func newAsymptotic(N, K int, e []float64, mf approx.Model) *asymptotic {
	a := &asymptotic{k: K, w: rule.W, rho: float64(N-1) / float64(N), u: mf.Rate()}
	a.tau = make([]float64, len(e))
	for i, ei := range e {
		a.tau[i] = coverageTime(mf, ei)
	}
	m, v := shiftLimit(K)
	a.gmInf, a.gsInf = m/a.u, math.Sqrt(v)/a.u
	a.copies = float64(N) * mf.X(a.tau[len(a.tau)/2])
	a.capacity = float64(N) * mf.Steady()
	a.gm, a.gs = make([]float64, len(e)), make([]float64, len(e))
	for i, ei := range e {
		a.gm[i], a.gs[i] = a.gmInf, a.gsInf
		if finiteShift {
			// a_j = u·A*, A* = (N−1)·E/(2p): the Yule clock at the level.
			dm, vj := yuleJ(K, a.u*float64(N-1)*ei/(2*mf.P))
			a.gm[i], a.gs[i] = -dm/a.u, math.Sqrt(vj)/a.u
		}
	}
	return a
}

// finiteShift switches on the finite-level shift (shift.go); a variable so
// that the validation can measure the law without it.
var finiteShift = true

// coverageTime returns the mean-field time at which a node that did not
// hold d at t = 0 has held it with probability 1 − e^{−E}:
// 2p·∫₀ᵗ x = E, with ∫₀ᵗ x = (K∞/k)·ln(1 + (x0/K∞)·expm1(kt)) (package
// approx), so
//
//	t = ln(1 + (K∞/x0)·expm1(k·E/(2p·K∞))) / k,
//
// in logarithms where the exponent is large.
func coverageTime(mf approx.Model, E float64) float64 {
	k, K, x0 := mf.Rate(), mf.Steady(), mf.X0
	v := k * E / (2 * mf.P * K)
	if v < 700 {
		return math.Log1p(K/x0*math.Expm1(v)) / k
	}
	// ln(1 + (K/x0)(e^v − 1)) = v + ln(K/x0) + ln(1 − e^{−v} + (x0/K)e^{−v})
	return (v + math.Log(K/x0) + math.Log1p((x0/K-1)*math.Exp(-v))) / k
}

// survGAt returns P(G_j ≥ g) for the shift at node j: the limit law of G
// moved and scaled to the node's mean gm[j] and sd gs[j].
func (a *asymptotic) survGAt(j int, g float64) float64 {
	if a.gs[j] == a.gsInf && a.gm[j] == a.gmInf {
		return a.survG(g)
	}
	if !(a.gs[j] > 1e-12*a.gsInf) {
		if g <= a.gm[j] {
			return 1
		}
		return 0
	}
	return a.survG(a.gmInf + (g-a.gm[j])*a.gsInf/a.gs[j])
}

// survG returns P(G ≥ g) = P(W ≥ K·e^{u·g}) for W ~ Gamma(K, 1).
func (a *asymptotic) survG(g float64) float64 {
	z := a.u * g
	if z > 700 {
		return 0
	}
	x := float64(a.k) * math.Exp(z)
	if a.k == 1 {
		return math.Exp(-x)
	}
	return mathext.GammaIncRegComp(float64(a.k), x)
}

// CDF returns P(T_L ≤ t), t in rounds.
func (a *asymptotic) CDF(t float64) float64 {
	if a.zero {
		if t >= 0 {
			return 1
		}
		return 0
	}
	if t < 0 {
		return 0 // T_L ≥ 0; the limit law puts mass e^{−O(N)} below 0
	}
	s := t / a.rho
	p := 0.0
	for i, tj := range a.tau {
		p += a.w[i] * a.survGAt(i, tj-s)
	}
	return math.Min(1, math.Max(0, p))
}

// shiftMoments returns E[G] and Var G: ln W has mean ψ(K) and variance
// ψ'(K), and for whole K ψ(K) = −γ + Σ_{j<K} 1/j, ψ'(K) = π²/6 − Σ_{j<K} 1/j².
func (a *asymptotic) shiftMoments() (mean, variance float64) {
	psi, psi1 := -0.57721566490153286, math.Pi*math.Pi/6
	for j := 1; j < a.k; j++ {
		psi += 1 / float64(j)
		psi1 -= 1 / float64(j*j)
	}
	return (psi - math.Log(float64(a.k))) / a.u, psi1 / (a.u * a.u)
}

// Moments returns the mean and standard deviation of T_L: E[τ] − E[G] and
// Var τ + Var G, times ρ.
func (a *asymptotic) Moments() (mean, sd float64) {
	if a.zero {
		return 0, 0
	}
	// T/ρ = τ_j − G_j at node j: E = Σ w_j (τ_j − gm_j), Var = Σ w_j
	// ((τ_j − gm_j − E)² + gs_j²).
	m1, m2 := 0.0, 0.0
	for i, tj := range a.tau {
		m1 += a.w[i] * (tj - a.gm[i])
	}
	for i, tj := range a.tau {
		d := tj - a.gm[i] - m1
		m2 += a.w[i] * (d*d + a.gs[i]*a.gs[i])
	}
	return a.rho * m1, a.rho * math.Sqrt(m2)
}

// sf returns P(T_L > t), t in rounds, summed from the lower tails of the
// shifts so that it keeps its digits where the CDF rounds to 1.
func (a *asymptotic) sf(t float64) float64 {
	if a.zero {
		if t >= 0 {
			return 0
		}
		return 1
	}
	if t < 0 {
		return 1
	}
	s := t / a.rho
	p := 0.0
	for i, tj := range a.tau {
		p += a.w[i] * a.cdfGAt(i, tj-s)
	}
	return math.Min(1, math.Max(0, p))
}

// cdfGAt returns P(G_j < g) (see survGAt).
func (a *asymptotic) cdfGAt(j int, g float64) float64 {
	if !(a.gs[j] > 1e-12*a.gsInf) {
		if g > a.gm[j] {
			return 1
		}
		return 0
	}
	z := a.u * (a.gmInf + (g-a.gm[j])*a.gsInf/a.gs[j])
	if z > 700 {
		return 1
	}
	x := float64(a.k) * math.Exp(z)
	if a.k == 1 {
		return -math.Expm1(-x)
	}
	return mathext.GammaIncReg(float64(a.k), x)
}

// quantileSteps bounds the bracket's doublings and the bisection's halvings:
// 200 doublings of 1/u reach any time a float64 holds, and 200 halvings
// any width; neither can then loop on a p that the law's CDF cannot
// resolve (p within an ulp of 1).
const quantileSteps = 200

// Quantile returns the smallest t with P(T_L ≤ t) ≥ p, by bisection to
// 1e-9 rounds (relative above 1) on a bracket that holds it, widened from
// the nodes' range by steps of 1/u, 2/u, 4/u, … (numeric.Bracket,
// numeric.Bisect): on the CDF for p ≤ 1/2, on the survival function 1 − p
// for p > 1/2, which resolves p up to the last ulp below 1.
func (a *asymptotic) Quantile(p float64) float64 {
	if a.zero {
		return 0
	}
	below := func(t float64) bool { return a.CDF(t) < p } // t is left of the quantile
	if p > 0.5 {
		q := 1 - p
		below = func(t float64) bool { return a.sf(t) > q }
	}
	lo, hi := a.tau[0], a.tau[len(a.tau)-1]
	lo, hi, ok := numeric.Bracket(below, a.rho*(lo-1), a.rho*(hi+1), 1/a.u, quantileSteps)
	if !ok {
		return math.Inf(1)
	}
	return numeric.Bisect(below, lo, hi, 1e-9, quantileSteps)
}

// devP is the stated bound on the error of P(T_L ≤ D): if every quantile
// of the law is within DevQuantile of the exact one, the exact CDF at D
// lies between the law's at D − Δ and D + Δ, Δ the largest DevQuantile
// over the probabilities in between (one refinement from p = F(D)).
func (a *asymptotic) devP(D float64, acc Accuracy) float64 {
	F := a.CDF(D)
	d := acc.DevQuantile(F)
	lo, hi := a.CDF(D-d), a.CDF(D+d)
	d = math.Max(d, math.Max(acc.DevQuantile(lo), acc.DevQuantile(hi)))
	lo, hi = a.CDF(D-d), a.CDF(D+d)
	return math.Max(hi-F, F-lo)
}
