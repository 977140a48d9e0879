package exact

import (
	"math/big"
	"math/bits"
)

// Binomial sets z to the generalised binomial coefficient C(m, l) and
// returns z. For l < 0 it is 0. For m ≥ 0 it is the usual coefficient (0 when
// l > m). For negative m it follows the extension used by the paper
// (Graham, Knuth, Patashnik, Concrete Mathematics, eq. 5.14):
//
//	C(m, l) = (−1)^l · C(−m+l−1, l),   m < 0, l ≥ 0.
//
// Both cases are the polynomial m(m−1)…(m−l+1)/l! evaluated at m. The
// usual coefficient is computed from its prime factorisation (see
// binomialBig): C(2^40, 50000), 1.3 million bits, takes a fraction of a
// second, some 75 times less than big.Int.Binomial's term-by-term product
// (260 times less at C(200000, 50000); measured once, on a shared machine).
//
// A nil z is allocated. A coefficient that may have more than
// MaxBinomialBits bits (min(l, m−l)·bitlen(m) for m ≥ 0, as
// Validate bounds C(n, s)) is not computed: Binomial returns nil and leaves
// z unchanged (C(2^40, 2^30) would take hours and gigabytes).
func Binomial(z *big.Int, m, l int64) *big.Int {
	if z == nil {
		z = new(big.Int)
	}
	if l >= 0 {
		top := m
		if m < 0 {
			top = -m + l - 1
		}
		if k := min(l, max(top-l, 0)); top >= 0 && k > 0 && k > MaxBinomialBits/int64(bits.Len64(uint64(top))) {
			return nil
		}
	}
	if l < 0 {
		return z.SetInt64(0)
	}
	if m >= 0 {
		if l > m {
			return z.SetInt64(0)
		}
		return binomialBig(z, m, l)
	}
	binomialBig(z, -m+l-1, l)
	if l%2 == 1 {
		z.Neg(z)
	}
	return z
}

// MaxBinomialBits bounds the size of the coefficients Binomial computes:
// 2^26 bits (8 MiB), 32 times PDrop's MaxBits, a few seconds.
const MaxBinomialBits = 1 << 26

// binomialSmall is the k below which binomialBig multiplies term by term
// (big.Int.Binomial): the sieve does not pay for itself on a few words.
// binomialSieveMax is the k above which it does too, because the sieve's
// window of k words (32 MiB at 2^22) would be a large allocation for a
// result the exact code never asks for (PDrop's MaxBits keeps k below 2^21).
const (
	binomialSmall    = 64
	binomialSieveMax = 1 << 22
)

// binomialBig sets z to C(n, k) for 0 ≤ k ≤ n and returns z.
//
// With k ≤ n−k (by symmetry), C(n, k) = W/k! where W = (n−k+1)(n−k+2)…n is
// a window of k consecutive integers. Every prime p > k divides only W, and
// a prime p ≤ k divides C(n, k) exactly
//
//	e_p = v_p(W) − v_p(k!),   v_p(k!) = Σ_{j≥1} ⌊k/p^j⌋   (Legendre),
//
// times. So the function sieves the window: for each prime p ≤ k it divides
// p out of every multiple of p in the window, counting v_p(W). What remains
// of the window has only prime factors > k, and C(n, k) is the product of
// those remainders and of the p^{e_p}, formed by a balanced product tree:
// multiplications only, no long division.
func binomialBig(z *big.Int, n, k int64) *big.Int {
	if k > n-k {
		k = n - k
	}
	if k < binomialSmall || k > binomialSieveMax {
		return z.Binomial(n, k)
	}
	w := make([]uint64, k) // w[i] = n−k+1+i, sieved
	lo := uint64(n - k + 1)
	for i := range w {
		w[i] = lo + uint64(i)
	}
	var factors []uint64
	for _, p := range primesUpTo(int(k)) {
		p := uint64(p)
		var e int64
		for i := (p - lo%p) % p; i < uint64(k); i += p {
			for w[i]%p == 0 {
				w[i] /= p
				e++
			}
		}
		for q := uint64(k) / p; q > 0; q /= p {
			e -= int64(q)
		}
		for ; e > 0; e-- {
			factors = append(factors, p)
		}
	}
	for _, r := range w {
		if r > 1 {
			factors = append(factors, r)
		}
	}
	return productTree(z, factors)
}

// productTree sets z to the product of the factors (1 for none) and returns
// z. Factors are first packed into 64-bit words while their product fits,
// then multiplied pairwise in a balanced tree, so the large products are
// between numbers of similar size, where Karatsuba multiplication pays.
func productTree(z *big.Int, factors []uint64) *big.Int {
	var words []*big.Int
	acc := uint64(1)
	for _, f := range factors {
		if hi, _ := bits.Mul64(acc, f); hi != 0 {
			words = append(words, new(big.Int).SetUint64(acc))
			acc = 1
		}
		acc *= f
	}
	words = append(words, new(big.Int).SetUint64(acc))
	for len(words) > 1 {
		next := words[:0]
		for i := 0; i < len(words); i += 2 {
			if i+1 < len(words) {
				words[i].Mul(words[i], words[i+1])
			}
			next = append(next, words[i])
		}
		words = next
	}
	return z.Set(words[0])
}

// primesUpTo returns the primes ≤ m by the sieve of Eratosthenes.
func primesUpTo(m int) []int {
	if m < 2 {
		return nil
	}
	composite := make([]bool, m+1)
	var out []int
	for p := 2; p <= m; p++ {
		if composite[p] {
			continue
		}
		out = append(out, p)
		for q := p * p; q <= m; q += p {
			composite[q] = true
		}
	}
	return out
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
