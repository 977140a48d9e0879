package meanfield

import (
	"math"

	"github.com/gossipkit/gossipkit/approx"
)

// lossRates are the per-shuffle chances of the population models, from
// the matrix of one shuffle T = approx.NewTransitionsLoss(p, q, ε) (a pair
// (A, B) is ordered; "10" means A holds d):
//
//	u = T(11|10) + T(11|01)   a holder and a non-holder; a copy is made
//	m = T(01|10) + T(10|01)   d moves to the non-holder
//	w = T(01|11) + T(10|11)   two holders; one drops d
//	ℓ = T(00|10) + T(00|01)   a holder and a non-holder; d is lost
//
// Without loss u = 2p(1−q), m = 2pq, w = 2p(1−p)q and ℓ = 0, written as
// before the loss existed so that every lossless value is unchanged. With
// a = 1 − ε: u = a·p(2a(1−q) + ε), m = 2a²·pq, w = a(1+a)·p(1−p)q and
// ℓ = a·ε·pq.
//
// A Model that does not validate (see Solve) has NaN chances, so that the
// Population of Replication and Coverage has NaN rates.
func lossRates(m approx.Model) (u, mv, w, l float64) {
	if checkModel(m) != nil {
		nan := math.NaN()
		return nan, nan, nan, nan
	}
	p, q, eps := m.P, m.Q, m.Loss
	if eps == 0 {
		return 2 * p * (1 - q), 2 * p * q, 2 * p * (1 - p) * q, 0
	}
	return approx.NewTransitionsLoss(p, q, eps).Summed()
}

// Replication is the replication model of one item as a population
// model: x is the fraction of nodes holding d. Shuffles happen at rate N per
// round; the initiator is uniform and the partner uniform among the other
// N − 1 nodes, so a pair holds d at one end with probability
// 2X(N−X)/(N(N−1)) and at both with X(X−1)/(N(N−1)). With the chances u,
// w, ℓ of one shuffle (without loss u = 2p(1−q), w = 2p(1−p)q, ℓ = 0;
// p = P_select, q = P_drop), one shuffle moves X by
//
//	+1  w.p. u·x(1−x)·N/(N−1)         (a copy is made)
//	−1  w.p. w·x(x − 1/N)·N/(N−1)     (one of two holders drops d)
//	−1  w.p. ℓ·x(1−x)·N/(N−1)         (the reply carrying the only copy is lost)
//
// and N/(N−1) = 1 + 1/N + O(1/N²) gives β and the 1/N parts c:
//
//	β₊ = u·x(1−x),   c₊ = β₊
//	β₋ = w·x²,       c₋ = w(x² − x)
//	βℓ = ℓ·x(1−x),   cℓ = βℓ
//
// so that C = c₊ − c₋ − cℓ. The rate of the last copy's loss by a pair of
// holders, x(x − 1/N), is 0 at X = 1, as in the protocol; under loss X = 1
// can still lose its copy (the ℓ jump), and X = 0 is absorbing, which the
// expansion in 1/N does not see (it describes the transient while the
// chance of extinction is negligible). The lossless model has no ℓ jump.
// The drift u − ℓ = f·2p(1−q), w = f·2p(1−p)q is approx.Model's. A Model
// that does not validate (see Solve) gives NaN rates.
func Replication(m approx.Model) *Population {
	a, _, b, l := lossRates(m)
	jumps := []Jump{
		{L: []float64{1},
			Rate: func(x []float64) float64 { return a * x[0] * (1 - x[0]) },
			Grad: func(x, g []float64) { g[0] = a * (1 - 2*x[0]) },
			Hess: func(_, h []float64) { h[0] = -2 * a },
			Corr: func(x []float64) float64 { return a * x[0] * (1 - x[0]) }},
		{L: []float64{-1},
			Rate: func(x []float64) float64 { return b * x[0] * x[0] },
			Grad: func(x, g []float64) { g[0] = 2 * b * x[0] },
			Hess: func(_, h []float64) { h[0] = 2 * b },
			Corr: func(x []float64) float64 { return b * (x[0]*x[0] - x[0]) }},
	}
	if l > 0 {
		jumps = append(jumps, Jump{L: []float64{-1},
			Rate: func(x []float64) float64 { return l * x[0] * (1 - x[0]) },
			Grad: func(x, g []float64) { g[0] = l * (1 - 2*x[0]) },
			Hess: func(_, h []float64) { h[0] = -2 * l },
			Corr: func(x []float64) float64 { return l * x[0] * (1 - x[0]) }})
	}
	return &Population{Names: []string{"x"}, Jumps: jumps}
}

// Coverage is replication with coverage: three node types, holding d
// (fraction x), having held it (y − x) and never having held it (1 − y),
// with state (x, y). The jumps of one shuffle are listed jointly: a node that
// never held d and receives it changes both x and y. With u, m, w, ℓ as in
// Replication (without loss u = 2p(1−q), m = 2pq, w = 2p(1−p)q, ℓ = 0):
//
//	(+1, +1)  w.p. u·x(1−y)·N/(N−1)        holder and never-covered; copied
//	( 0, +1)  w.p. m·x(1−y)·N/(N−1)        d moves to the never-covered node
//	(+1,  0)  w.p. u·x(y−x)·N/(N−1)        copied to a node that held d before
//	(−1,  0)  w.p. w·x(x−1/N)·N/(N−1)      one of two holders drops d
//	(−1,  0)  w.p. ℓ·x(1−x)·N/(N−1)        the only copy of a pair is lost
//
// (moving d between a holder and a formerly covered node changes neither;
// the lost copy's partner, covered or not, stays as it was, so y does not
// move). Their drift is that of approx.Model: dx/dt as in Replication,
// dy/dt = (u + m)·x(1−y) = f·2p·x(1−y). A Model that does not validate
// (see Solve) gives NaN rates.
func Coverage(m approx.Model) *Population {
	a, e, b, l := lossRates(m)
	jumps := []Jump{
		{L: []float64{1, 1},
			Rate: func(x []float64) float64 { return a * x[0] * (1 - x[1]) },
			Grad: func(x, g []float64) { g[0], g[1] = a*(1-x[1]), -a*x[0] },
			Hess: func(_, h []float64) { h[0], h[1], h[2], h[3] = 0, -a, -a, 0 },
			Corr: func(x []float64) float64 { return a * x[0] * (1 - x[1]) }},
		{L: []float64{0, 1},
			Rate: func(x []float64) float64 { return e * x[0] * (1 - x[1]) },
			Grad: func(x, g []float64) { g[0], g[1] = e*(1-x[1]), -e*x[0] },
			Hess: func(_, h []float64) { h[0], h[1], h[2], h[3] = 0, -e, -e, 0 },
			Corr: func(x []float64) float64 { return e * x[0] * (1 - x[1]) }},
		{L: []float64{1, 0},
			Rate: func(x []float64) float64 { return a * x[0] * (x[1] - x[0]) },
			Grad: func(x, g []float64) { g[0], g[1] = a*(x[1]-2*x[0]), a*x[0] },
			Hess: func(_, h []float64) { h[0], h[1], h[2], h[3] = -2*a, a, a, 0 },
			Corr: func(x []float64) float64 { return a * x[0] * (x[1] - x[0]) }},
		{L: []float64{-1, 0},
			Rate: func(x []float64) float64 { return b * x[0] * x[0] },
			Grad: func(x, g []float64) { g[0], g[1] = 2*b*x[0], 0 },
			Hess: func(_, h []float64) { h[0], h[1], h[2], h[3] = 2*b, 0, 0, 0 },
			Corr: func(x []float64) float64 { return b * (x[0]*x[0] - x[0]) }},
	}
	if l > 0 {
		jumps = append(jumps, Jump{L: []float64{-1, 0},
			Rate: func(x []float64) float64 { return l * x[0] * (1 - x[0]) },
			Grad: func(x, g []float64) { g[0], g[1] = l*(1-2*x[0]), 0 },
			Hess: func(_, h []float64) { h[0], h[1], h[2], h[3] = -2*l, 0, 0, 0 },
			Corr: func(x []float64) float64 { return l * x[0] * (1 - x[0]) }})
	}
	return &Population{Names: []string{"x", "y"}, Jumps: jumps}
}
