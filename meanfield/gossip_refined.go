package meanfield

import (
	"github.com/gossipkit/gossipkit/approx"
)

// Replication is the replication model of one item as a population
// model: x is the fraction of nodes holding d. Shuffles happen at rate N per
// round; the initiator is uniform and the partner uniform among the other
// N − 1 nodes, so a pair holds d at one end with probability
// 2X(N−X)/(N(N−1)) and at both with X(X−1)/(N(N−1)). With p = P_select and
// q = P_drop, one shuffle moves X by
//
//	+1  w.p. 2p(1−q)·x(1−x)·N/(N−1)         (a copy is made)
//	−1  w.p. 2p(1−p)q·x(x − 1/N)·N/(N−1)    (one of two holders drops d)
//
// and N/(N−1) = 1 + 1/N + O(1/N²) gives β and the 1/N parts c:
//
//	β₊ = 2p(1−q)x(1−x),   c₊ = β₊
//	β₋ = 2p(1−p)q·x²,     c₋ = 2p(1−p)q(x² − x)
//
// so that C = c₊ − c₋. The rate of the last copy's loss, x(x − 1/N), is 0
// at X = 1, as in the protocol.
func Replication(m approx.Model) *Population {
	p, q := m.P, m.Q
	a := 2 * p * (1 - q)
	b := 2 * p * (1 - p) * q
	return &Population{
		Names: []string{"x"},
		Jumps: []Jump{
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
		},
	}
}

// Coverage is replication with coverage: three node types, holding d
// (fraction x), having held it (y − x) and never having held it (1 − y),
// with state (x, y). The jumps of one shuffle are listed jointly: a node that
// never held d and receives it changes both x and y.
//
//	(+1, +1)  w.p. 2p(1−q)·x(1−y)·N/(N−1)   holder and never-covered; copied
//	( 0, +1)  w.p. 2pq·x(1−y)·N/(N−1)       d moves to the never-covered node
//	(+1,  0)  w.p. 2p(1−q)·x(y−x)·N/(N−1)   copied to a node that held d before
//	(−1,  0)  w.p. 2p(1−p)q·x(x−1/N)·N/(N−1) one of two holders drops d
//
// (moving d between a holder and a formerly covered node changes neither).
// Their drift is that of approx.Model: dx/dt as in Replication,
// dy/dt = 2p·x(1−y).
func Coverage(m approx.Model) *Population {
	p, q := m.P, m.Q
	a := 2 * p * (1 - q)
	e := 2 * p * q
	b := 2 * p * (1 - p) * q
	return &Population{
		Names: []string{"x", "y"},
		Jumps: []Jump{
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
		},
	}
}
