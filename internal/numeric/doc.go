// Package numeric holds the few numerical rules that more than one package
// of gossipkit uses and that gonum does not provide: the tanh–sinh
// quadrature rule on (0, 1) and the bracketing and bisection of a monotone
// predicate (the inversion of a distribution function).
//
// # Tanh–sinh quadrature
//
// The substitution q(x) = (1 + tanh((π/2)·sinh x))/2 maps the real line onto
// (0, 1), with
//
//	dq/dx = (π/4)·cosh x / cosh²((π/2)·sinh x),
//
// which decays double-exponentially, like exp(−(π/2)·e^|x|), as |x| grows,
// so ∫₀¹ f(q) dq = ∫ f(q(x))·q'(x) dx has an integrand that vanishes
// double-exponentially even when f has an integrable singularity at 0 or 1
// (the quantile function of a law with an unbounded support, ln q, q^(−1/2)).
// The trapezoidal rule with step h on that integral, truncated to the
// nodes x_j = j·h, |j| ≤ n, is the tanh–sinh rule (Takahasi and Mori,
// 1974):
//
//	∫₀¹ f(q) dq ≈ Σ_{|j|≤n} w_j·f(q_j),   q_j = q(jh),   w_j = h·q'(jh).
//
// Its error has two parts. The discretisation error of the trapezoidal rule
// on an integrand analytic and decaying in the strip |Im x| < d is
// O(exp(−2πd/h)). The map is analytic for |Im x| < π/2, and for an f
// analytic on (0, 1) with at most algebraic or logarithmic singularities at
// the ends d approaches π/2 (Mori and Sugihara, 2001), so at h = 1/16 that
// part is O(e^(−π²·16)) in principle and below rounding in practice (the
// tests check polynomials, a Beta density and endpoint singularities to
// 10⁻¹³ beside the truncation). The truncation error is what lies beyond
// the last node, about ∫₀^δ |f| + ∫_{1−δ}^1 |f| with δ = 1 − q(nh + h/2),
// the mass the rule leaves out at each end: δ·max|f| for a bounded f,
// δ·(1 − ln δ) for f = −ln q, 2√δ for f = q^(−1/2). TanhSinh normalises
// the weights to sum 1, which makes the rule exact on constants and keeps
// the error of a bounded f within 4δ·max|f| (2δ of mass moved onto the
// nodes, 2δ of integral cut); Rule.Tail reports δ.
//
// The nodes are returned as pairs (q_j, 1 − q_j), each computed as
// 1/(1 + e^(∓π·sinh x)) without cancellation, so that a quantile function can
// be evaluated on the side of the median that keeps its digits: near 1 the
// node 1 − q_j is 10⁻¹¹ where q_j itself rounds to 1 − 10⁻¹¹ ± 10⁻¹⁶.
//
// # Bisection
//
// Bracket and Bisect invert a monotone predicate below(x), true left of a
// point x* and false from it on (below(x) = F(x) < p for a distribution
// function F and a probability p, which makes x* the p-quantile): Bracket
// widens a starting interval by doubling steps until it holds x*, and
// Bisect halves it until it is narrower than a relative tolerance. Both
// take a bound on their steps, never take more than MaxSteps, and stop
// when the interval no longer changes in float64.
//
// # Convention
//
// The functions take plain values, check them and never panic (a nil
// predicate gives NaN or false); TanhSinh refuses a rule it cannot build
// with an error starting "numeric: ". Errors are not field errors: the
// callers are the libraries, which state the rule they use as a constant.
//
// # Contract
//
// No function takes a context: Bisect and Bracket stop after at most
// MaxSteps halvings or moves whatever their arguments (a NaN end or tol,
// the largest step count), a nil predicate gives NaN or ok false, and
// TanhSinh refuses a zero, negative, NaN or infinite step or a size out of
// range with an error. None panics (TestContract, TestNastyValues).
package numeric
