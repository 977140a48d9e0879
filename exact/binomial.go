package exact

import (
	"math/big"
)

// Binomial sets z to the generalised binomial coefficient C(m, l) and
// returns z. For l < 0 it is 0. For m ≥ 0 it is the usual coefficient (0 when
// l > m). For negative m it follows the extension used by the paper
// (Graham, Knuth, Patashnik, Concrete Mathematics, eq. 5.14):
//
//	C(m, l) = (−1)^l · C(−m+l−1, l),   m < 0, l ≥ 0.
func Binomial(z *big.Int, m, l int64) *big.Int {
	if l < 0 {
		return z.SetInt64(0)
	}
	if m >= 0 {
		if l > m {
			return z.SetInt64(0)
		}
		return z.Binomial(m, l)
	}
	z.Binomial(-m+l-1, l)
	if l%2 == 1 {
		z.Neg(z)
	}
	return z
}

// binomialRow returns C(m, j) for j = 0..jmax (m ≥ 0), computed by the ratio
// recurrence C(m, j+1) = C(m, j)·(m−j)/(j+1), each division exact.
func binomialRow(m, jmax int) []*big.Int {
	row := make([]*big.Int, jmax+1)
	row[0] = big.NewInt(1)
	t := new(big.Int)
	for j := 0; j < jmax; j++ {
		row[j+1] = new(big.Int)
		if j >= m {
			continue // C(m, j+1) = 0 for j+1 > m ≥ 0
		}
		row[j+1].Mul(row[j], t.SetInt64(int64(m-j)))
		row[j+1].Quo(row[j+1], t.SetInt64(int64(j+1)))
	}
	return row
}

// lcmUpTo returns lcm(1, 2, ..., s).
func lcmUpTo(s int) *big.Int {
	l := big.NewInt(1)
	g, t := new(big.Int), new(big.Int)
	for i := 2; i <= s; i++ {
		t.SetInt64(int64(i))
		g.GCD(nil, nil, l, t)
		l.Mul(l, t.Quo(t, g))
	}
	return l
}
