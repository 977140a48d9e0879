package exact

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ALTree/bigfloat"
)

// MaxS is the largest exchange size accepted by PDrop and NewFormula1. The
// inner-sum table of formula (1) holds s big integers of about
// s·log2(c) + log2(lcm(1..s)) bits and costs O(s²) multiplications to build;
// at s = 5000 that is already tens of seconds, so larger s is refused.
const MaxS = 5000

// MaxN is the largest number of items accepted. C(n, s) has about
// s·log2(n) bits; the bound keeps n inside int64 arithmetic everywhere.
const MaxN = 1 << 40

// ErrUndefined reports a quantity that is 0/0 at the given point, such as
// S(n,c,s) = (n−c)/(n−s) at n = c = s.
var ErrUndefined = errors.New("undefined (0/0) at this point")

// Validate reports whether (n, c, s) is a valid shuffle that formula (1)
// takes: ValidShuffle and s ≤ MaxS.
func Validate(n, c, s int) error {
	if err := ValidShuffle(n, c, s); err != nil {
		return err
	}
	if s > MaxS {
		return fmt.Errorf("s = %d: need s ≤ %d", s, MaxS)
	}
	return nil
}

// ValidShuffle reports whether (n, c, s) is a shuffle at all: 1 ≤ s ≤ c ≤ n
// and n ≤ MaxN (the float forms of package approx take any such s).
func ValidShuffle(n, c, s int) error {
	switch {
	case s < 1:
		return fmt.Errorf("s = %d: need s ≥ 1", s)
	case s > c:
		return fmt.Errorf("s = %d: need s ≤ c = %d", s, c)
	case c > n:
		return fmt.Errorf("c = %d: need c ≤ n = %d", c, n)
	case n > MaxN:
		return fmt.Errorf("n = %d: need n ≤ %d", n, MaxN)
	}
	return nil
}

// Formula1 evaluates formula (1) for fixed (c, s) and any n ≥ c. Building it
// does the work that does not depend on n, so a sweep over n costs O(s)
// big-integer multiplications per point.
//
// Writing both hypergeometric weights out, the C(c,k) cancel and
//
//	E(n,c,s) = Σ_{k=0}^{s−1} C(n−c, s−k)·(s−k)·U_k / (C(n,s)·L),
//	U_k      = Σ_{ŝ=0}^{k} C(s,ŝ)·C(c−s,k−ŝ)·L/(s−ŝ),   L = lcm(1..s),
//
// so every term is an integer and one reduction ends the computation. The
// binomial rows come from ratio recurrences, and k runs only where
// C(n−c, s−k) ≠ 0, i.e. k ≥ max(0, s+c−n), as in the paper's case split.
type Formula1 struct {
	c, s int
	l    *big.Int   // lcm(1..s)
	u    []*big.Int // U_k, k = 0..s−1
}

// NewFormula1 prepares formula (1) for cache size c and exchange size s,
// 1 ≤ s ≤ c, s ≤ MaxS.
func NewFormula1(c, s int) (*Formula1, error) {
	return NewFormula1Context(context.Background(), c, s)
}

// NewFormula1Context is NewFormula1 checking ctx between the s rows of its
// O(s²) big-integer sums (s = 5000 with c − s ≥ s takes over a minute).
func NewFormula1Context(ctx context.Context, c, s int) (*Formula1, error) {
	if err := Validate(c, c, s); err != nil {
		return nil, err
	}
	l := lcmUpTo(s)
	bs := binomialRow(s, s)   // C(s, ŝ)
	bc := binomialRow(c-s, s) // C(c−s, j), j ≤ s
	w := make([]*big.Int, s)  // C(s,ŝ)·L/(s−ŝ)
	t := new(big.Int)
	for sh := 0; sh < s; sh++ {
		w[sh] = new(big.Int).Quo(l, t.SetInt64(int64(s-sh)))
		w[sh].Mul(w[sh], bs[sh])
	}
	u := make([]*big.Int, s)
	for k := 0; k < s; k++ {
		if k%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		acc := new(big.Int)
		for sh := 0; sh <= k; sh++ {
			if bc[k-sh].Sign() == 0 {
				continue
			}
			acc.Add(acc, t.Mul(w[sh], bc[k-sh]))
		}
		u[k] = acc
	}
	return &Formula1{c: c, s: s, l: l, u: u}, nil
}

// fraction returns E(n,c,s) as an unreduced numerator and denominator.
func (f *Formula1) fraction(n int) (num, den *big.Int) {
	s, m := f.s, n-f.c
	num = new(big.Int)
	t := new(big.Int)
	bin := big.NewInt(1) // C(m, j), j = s−k, from j = 0 upwards
	for j := 1; j <= s && j <= m; j++ {
		bin.Mul(bin, t.SetInt64(int64(m-j+1)))
		bin.Quo(bin, t.SetInt64(int64(j)))
		k := s - j
		t.Mul(bin, f.u[k])
		num.Add(num, t.Mul(t, big.NewInt(int64(j))))
	}
	den = new(big.Int).Binomial(int64(n), int64(s))
	den.Mul(den, f.l)
	return num, den
}

// At sets z to E(n, c, s) and returns z. It panics if n < c.
func (f *Formula1) At(z *big.Rat, n int) *big.Rat {
	if n < f.c || n > MaxN {
		panic(fmt.Sprintf("exact: Formula1.At: n = %d outside [c, MaxN] = [%d, %d]", n, f.c, MaxN))
	}
	num, den := f.fraction(n)
	return z.SetFrac(num, den)
}

// PDrop returns formula (1), E(n, c, s), the paper's "accurate" expected drop
// probability, as a reduced fraction.
func PDrop(n, c, s int) (*big.Rat, error) {
	if err := Validate(n, c, s); err != nil {
		return nil, err
	}
	f, err := NewFormula1(c, s)
	if err != nil {
		return nil, err
	}
	return f.At(new(big.Rat), n), nil
}

// PDropSimplified returns S(n,c,s) = (n−c)/(n−s). It is ErrUndefined at
// n = s (which forces n = c = s).
func PDropSimplified(n, c, s int) (*big.Rat, error) {
	if err := Validate(n, c, s); err != nil {
		return nil, err
	}
	if n == s {
		return nil, ErrUndefined
	}
	return big.NewRat(int64(n-c), int64(n-s)), nil
}

// Gamma sets z to
//
//	γ_s(n) = Σ_{d=0}^{s−1} C(n,d) / (s·C(s−1,d))
//
// for n ≥ 0, s ≥ 1, and returns z. Terms with C(n,d) = 0 (d > n) are
// skipped. The sum has s terms, so the γ form costs O(s) where formula (1)
// costs O(s²).
func Gamma(z *big.Rat, n, s int) *big.Rat {
	if s < 1 || n < 0 {
		panic(fmt.Sprintf("exact: Gamma(n=%d, s=%d): need n ≥ 0, s ≥ 1", n, s))
	}
	cn := binomialRow(n, s-1)
	cs := binomialRow(s-1, s-1)
	z.SetInt64(0)
	term := new(big.Rat)
	den := new(big.Int)
	for d := 0; d < s; d++ {
		if cn[d].Sign() == 0 {
			break // C(n, d) = 0 for all larger d too
		}
		den.Mul(cs[d], big.NewInt(int64(s)))
		term.SetFrac(cn[d], den)
		z.Add(z, term)
	}
	return z
}

// PDropGamma returns the γ-corrected closed form
//
//	(n−c) / ((n−s) + 1/γ_s(n)) = (n−c)·γ / ((n−s)·γ + 1),
//
// which needs O(s) terms instead of formula (1)'s O(s²).
func PDropGamma(n, c, s int) (*big.Rat, error) {
	if err := Validate(n, c, s); err != nil {
		return nil, err
	}
	g := Gamma(new(big.Rat), n, s)
	return gammaForm(g, n, c, s), nil
}

func gammaForm(g *big.Rat, n, c, s int) *big.Rat {
	num := new(big.Rat).Mul(g, big.NewRat(int64(n-c), 1))
	den := new(big.Rat).Mul(g, big.NewRat(int64(n-s), 1))
	den.Add(den, big.NewRat(1, 1))
	return num.Quo(num, den)
}

// Ecs returns the paper's e_{c,s}(n) = (E(n,c,s)^{−1} − S(n,c,s)^{−1})^{−1},
// computed from formula (1) by its definition. It is ErrUndefined when n = c
// (E = S = 0) and when E = S. docs/MODEL.md §2 states e_{c,s}(n) = (n−c)·γ_s(n);
// the tests check that against this definition.
func Ecs(n, c, s int) (*big.Rat, error) {
	e, err := PDrop(n, c, s)
	if err != nil {
		return nil, err
	}
	if n == c {
		return nil, ErrUndefined
	}
	simp := big.NewRat(int64(n-c), int64(n-s))
	ie := new(big.Rat).Inv(e)
	is := new(big.Rat).Inv(simp)
	ie.Sub(ie, is)
	if ie.Sign() == 0 {
		return nil, ErrUndefined
	}
	return ie.Inv(ie), nil
}

// log10Prec is the precision, in bits, at which Log10AbsDiff works: the
// difference is rounded to it once (relative error ≤ 2⁻¹²⁸), and
// bigfloat's Log and the division by ln 10 add a few ulp of it, far below
// float64's 2⁻⁵³. It stays below the ~960 bits above which bigfloat's Log
// shares a cache unsafely between goroutines.
const log10Prec = 128

// ln10 is ln 10 at log10Prec bits.
var ln10 = bigfloat.Log(new(big.Float).SetPrec(log10Prec).SetInt64(10))

// Log10AbsDiff returns log10|a − b| and true, or 0 and false when a = b.
// The exact difference is rounded to a 128-bit big.Float, whose exponent
// range (±2³¹ binary digits) holds differences far below float64's 1e-308,
// and its logarithm is taken with github.com/ALTree/bigfloat. The result
// is within one ulp of the exact log10|a − b| (TestLog10AbsDiff checks
// 10^−k, 7·10^−5000 and 4/21 to that accuracy).
func Log10AbsDiff(a, b *big.Rat) (float64, bool) {
	d := new(big.Rat).Sub(a, b)
	if d.Sign() == 0 {
		return 0, false
	}
	l := bigfloat.Log(new(big.Float).SetPrec(log10Prec).SetRat(d.Abs(d)))
	v, _ := l.Quo(l, ln10).Float64()
	return v, true
}
