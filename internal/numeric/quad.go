package numeric

import (
	"fmt"
	"math"
)

// Rule is a tanh–sinh quadrature rule on (0, 1) (package doc): nodes X,
// their complements XC = 1 − X (each computed without cancellation) and
// weights W summing to 1, in increasing order of the nodes.
type Rule struct {
	X, XC, W []float64
	// Step is h and N the largest |j|: the nodes are at x = j·h, |j| ≤ N.
	Step float64
	N    int
}

// MaxRuleNodes bounds N (2·N + 1 nodes, three float64 each); MaxReach
// bounds N·Step: beyond 6 the node 1 − q underflows towards 0 (1 −
// q(6) ≈ 10⁻²⁷⁵, and q(6.2) rounds to 0), where an integrand with an
// endpoint singularity would be evaluated at the singularity.
const (
	MaxRuleNodes = 1 << 16
	MaxReach     = 6.0
)

// TanhSinh returns the rule of step h with the nodes x_j = j·h, |j| ≤ n:
//
//	q_j = 1/(1 + e^(−π·sinh x_j)),   1 − q_j = 1/(1 + e^(π·sinh x_j)),
//	w_j = (π/2)·h·cosh x_j / cosh²((π/2)·sinh x_j) / 2,
//
// then every w_j divided by Σ w (summed in increasing j), so that the rule
// integrates constants exactly (package doc). h must be positive and
// finite, 0 ≤ n ≤ MaxRuleNodes and n·h ≤ MaxReach.
func TanhSinh(h float64, n int) (Rule, error) {
	switch {
	case !(h > 0) || math.IsInf(h, 0):
		return Rule{}, fmt.Errorf("numeric: tanh–sinh step %g: need 0 < h < ∞", h)
	case n < 0 || n > MaxRuleNodes:
		return Rule{}, fmt.Errorf("numeric: tanh–sinh nodes %d: need 0 ≤ n ≤ %d", n, MaxRuleNodes)
	case float64(n)*h > MaxReach:
		return Rule{}, fmt.Errorf("numeric: tanh–sinh reach n·h = %g: need at most %g (the outer nodes would round to 0 and 1)", float64(n)*h, MaxReach)
	}
	r := Rule{Step: h, N: n, X: make([]float64, 0, 2*n+1), XC: make([]float64, 0, 2*n+1), W: make([]float64, 0, 2*n+1)}
	sum := 0.0
	for j := -n; j <= n; j++ {
		x := float64(j) * h
		s := math.Pi / 2 * math.Sinh(x)
		c := math.Cosh(s)
		r.X = append(r.X, 1/(1+math.Exp(-2*s)))
		r.XC = append(r.XC, 1/(1+math.Exp(2*s)))
		// The order of the operations is part of the rule: package plan's
		// answers are reproducible to the bit from it.
		wt := math.Pi / 2 * h * math.Cosh(x) / (c * c) / 2
		r.W = append(r.W, wt)
		sum += wt
	}
	for i := range r.W {
		r.W[i] /= sum
	}
	return r, nil
}

// Integrate returns Σ_j w_j·f(q_j, 1 − q_j), in increasing order of the
// nodes: ∫₀¹ f(q) dq within the error of the package doc. f gets each node
// with its complement, so that it can work on the side where the node
// keeps its digits. A nil f or an empty rule gives NaN.
func (r Rule) Integrate(f func(x, xc float64) float64) float64 {
	if f == nil || len(r.W) == 0 || len(r.X) != len(r.W) || len(r.XC) != len(r.W) {
		return math.NaN()
	}
	s := 0.0
	for i, w := range r.W {
		s += w * f(r.X[i], r.XC[i])
	}
	return s
}

// Tail returns δ = 1 − q((N + 1/2)·h) = 1/(1 + e^(π·sinh((N+1/2)·h))), the
// mass of (0, 1) the rule leaves out at each end (package doc: the
// truncation error); NaN for the zero Rule.
func (r Rule) Tail() float64 {
	if !(r.Step > 0) {
		return math.NaN()
	}
	return 1 / (1 + math.Exp(math.Pi*math.Sinh((float64(r.N)+0.5)*r.Step)))
}
