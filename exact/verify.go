package exact

import (
	"context"
	"fmt"
	"math/big"
)

// Point is one (n, c, s) triple.
type Point struct{ N, C, S int }

func (p Point) String() string { return fmt.Sprintf("(n=%d, c=%d, s=%d)", p.N, p.C, p.S) }

// GammaMismatch describes a point where the γ form and formula (1) differ.
type GammaMismatch struct {
	Point
	Exact, Gamma *big.Rat
}

// VerifyGamma checks the γ form against formula (1) at every point with
//
//	1 ≤ s ≤ sMax,  s ≤ c ≤ cMax,  c ≤ n ≤ nMax,  n > s,
//
// comparing the two fractions exactly by cross-multiplication. It returns the
// number of points checked and the first mismatch (in order of s, c, n), or
// nil. It stops early with ctx.Err() if ctx is cancelled; progress, if not
// nil, is called after each s with the number of s values done.
func VerifyGamma(ctx context.Context, sMax, cMax, nMax int, progress func(done, total int)) (checked int64, mismatch *GammaMismatch, err error) {
	if sMax < 1 || sMax > MaxS {
		return 0, nil, fmt.Errorf("s-max = %d: need 1 ≤ s-max ≤ %d", sMax, MaxS)
	}
	if cMax < 1 || nMax < 1 || nMax > MaxN {
		return 0, nil, fmt.Errorf("c-max and n-max must be ≥ 1 and n-max ≤ %d", MaxN)
	}
	lhs, rhs := new(big.Int), new(big.Int)
	gn, gd := new(big.Int), new(big.Int)
	for s := 1; s <= sMax && s <= cMax; s++ {
		// γ_s(n) for every n: it does not depend on c.
		gammas := make([]*big.Rat, nMax+1)
		for n := s; n <= nMax; n++ {
			gammas[n] = Gamma(new(big.Rat), n, s)
		}
		for c := s; c <= cMax && c <= nMax; c++ {
			if err := ctx.Err(); err != nil {
				return checked, nil, err
			}
			f, ferr := NewFormula1(c, s)
			if ferr != nil {
				return checked, nil, ferr
			}
			for n := c; n <= nMax; n++ {
				if n == s {
					continue
				}
				if n%4096 == 0 && ctx.Err() != nil {
					return checked, nil, ctx.Err()
				}
				num, den := f.fraction(n)
				// γ form = (n−c)·g / ((n−s)·g + h) with γ = g/h.
				g, h := gammas[n].Num(), gammas[n].Denom()
				gn.Mul(g, big.NewInt(int64(n-c)))
				gd.Mul(g, big.NewInt(int64(n-s)))
				gd.Add(gd, h)
				lhs.Mul(num, gd)
				rhs.Mul(den, gn)
				checked++
				if lhs.Cmp(rhs) != 0 {
					return checked, &GammaMismatch{
						Point: Point{N: n, C: c, S: s},
						Exact: new(big.Rat).SetFrac(num, den),
						Gamma: gammaForm(gammas[n], n, c, s),
					}, nil
				}
			}
		}
		if progress != nil {
			progress(s, min(sMax, cMax))
		}
	}
	return checked, nil, nil
}
