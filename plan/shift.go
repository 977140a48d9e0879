package plan

import (
	"math"
	"sync"
)

// The finite-level time shift (package doc, "The shift at a finite level").
//
// While X ≪ N, X grows as a Yule process of rate u from K, and the level is
// reached when A = ∫X dt passes A* = (N−1)·E/(2p). Measured on the clock A,
// the Yule process is K + P(u·A), P a unit Poisson process (each holder
// gives birth at rate u per unit of A), and the time elapsed is
//
//	u·T = J(a) = ∫₀ᵃ dr/(K + P(r)),   a = u·A*.
//
// The limit law replaces J(a) by ln(1 + a/K) − u·G, exact as a → ∞. At a
// finite a the moments of J(a) are closed forms in the Poisson tails Q_j =
// P(Pois(a) ≥ j): with ℓ_j the length of [0, a] spent at P = j, E ℓ_j =
// Q_{j+1}, E ℓ_j² = 2·Q_{j+2} and E ℓ_jℓ_k = Q_{k+2} (j < k; each is the
// probability that a Gamma(j+1) and a Gamma(k−j+1) or Exp(1) variable fit
// in [0, a] together), so
//
//	E J(a)  = Σ_j Q_{j+1}/(K+j)
//	E J(a)² = Σ_j 2·Q_{j+2}/(K+j)² + 2·Σ_{j<k} Q_{k+2}/((K+j)(K+k)).

// shiftMaxA is the largest a at which yuleJ sums the series (O(a) terms);
// beyond it the corrections are extrapolated.
const shiftMaxA = 2e4

// yuleJ returns E J(a) − ln(1 + a/K) and Var J(a) for K initial copies.
func yuleJ(K int, a float64) (dmean, variance float64) {
	if !(a > 0) {
		return 0, 0
	}
	if a > shiftMaxA {
		// The mean's distance to its limit falls as 1/a, the variance's
		// as ln(a)/a (measured: a·(E J − limit) = −1.00 at a = 10⁴ and
		// 2·10⁴; a·(Var J − ψ'(K))/ln a = −2.13 and −2.12 for K = 1).
		mInf, vInf := shiftLimit(K)
		if math.IsInf(a, 1) {
			return -mInf, vInf
		}
		dm, v := yuleJAtMax(K)
		f := shiftMaxA / a
		return -mInf + (dm+mInf)*f, vInf + (v-vInf)*f*math.Log(a)/math.Log(shiftMaxA)
	}
	// Q_j for j = 0..n+2, n past the Poisson law's upper tail (12 sd),
	// summed from the top; below a − 12√a − 40 it is 1 to 1e-30.
	n := int(a + 12*math.Sqrt(a) + 40)
	q := make([]float64, n+3)
	la := math.Log(a)
	logPmf := func(j int) float64 {
		lg, _ := math.Lgamma(float64(j + 1))
		return -a + float64(j)*la - lg
	}
	if a < 50 {
		// Few terms: each pmf from its logarithm (the recurrence below
		// would start under the smallest float64 for a tiny a).
		tail := 0.0
		for j := n + 2; j >= 0; j-- {
			tail += math.Exp(logPmf(j))
			q[j] = math.Min(1, tail)
		}
	} else {
		// pmf_{j−1} = pmf_j·j/a downwards from the top, one logarithm.
		lo := max(0, int(a-12*math.Sqrt(a)-40))
		pmf, tail := math.Exp(logPmf(n+2)), 0.0
		for j := n + 2; j >= lo; j-- {
			tail += pmf
			q[j] = math.Min(1, tail)
			pmf *= float64(j) / a
		}
		for j := range lo {
			q[j] = 1
		}
	}
	fK := float64(K)
	m1, s2, cross, h := 0.0, 0.0, 0.0, 0.0
	for j := 0; j <= n; j++ {
		inv := 1 / (fK + float64(j))
		m1 += q[j+1] * inv
		s2 += 2 * q[j+2] * inv * inv
		cross += 2 * q[j+2] * inv * h // Σ_{i<j} 1/(K+i) = h
		h += inv
	}
	v := s2 + cross - m1*m1
	return m1 - math.Log1p(a/fK), math.Max(0, v)
}

// yuleJAtMax is yuleJ(K, shiftMaxA), computed once per K.
func yuleJAtMax(K int) (dmean, variance float64) {
	yuleMaxMu.Lock()
	defer yuleMaxMu.Unlock()
	if r, ok := yuleMax[K]; ok {
		return r[0], r[1]
	}
	dm, v := yuleJ(K, shiftMaxA)
	yuleMax[K] = [2]float64{dm, v}
	return dm, v
}

var (
	yuleMaxMu sync.Mutex
	yuleMax   = map[int][2]float64{}
)

// shiftLimit returns u·E[G] = ψ(K) − ln K and u²·Var G = ψ'(K).
func shiftLimit(K int) (mean, variance float64) {
	psi, psi1 := -0.57721566490153286, math.Pi*math.Pi/6
	for j := 1; j < K; j++ {
		psi += 1 / float64(j)
		psi1 -= 1 / float64(j*j)
	}
	return psi - math.Log(float64(K)), psi1
}
