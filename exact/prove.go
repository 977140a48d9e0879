package exact

import (
	"context"
	"fmt"
	"math/big"

	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/internal/parallel"

	"github.com/gossipkit/gossipkit/gossip"
)

// GammaProof is the outcome of ProveGamma for one exchange size.
type GammaProof struct {
	S      int
	Proved bool
	// Points is the number of grid points evaluated: (2s+1)(s+1) when the
	// identity holds, fewer when a point refutes it (Counter).
	Points  int
	Counter *gossip.Shuffle
}

// MaxProveS bounds ProveGamma's s (the work grows like s⁴ digit
// operations; s = 300 takes minutes).
const MaxProveS = 2000

// ProveGamma proves or refutes, for one s, that formula (1) equals the γ
// form (n−c)/((n−s) + 1/γ_s(n)) for every n and c with s ≤ c ≤ n, n > s.
// Theorems A and B of the package doc prove this for every s at once;
// ProveGamma is the independent, mechanical check of one s at a time,
// sharing no step with those proofs. It checks ctx for each c of its grid
// (at s = 170 one s takes about ten seconds).
//
// # The argument
//
// With the generalised binomials C(m, l) = m(m−1)…(m−l+1)/l! (polynomials
// in m of degree l), and since H(ŝ; c, s, k) has C(c, k) in its
// denominator and H(k; n, c, s) in its numerator,
//
//	A(n, c) = C(n, s)·E(n, c, s)
//	        = Σ_{k=0}^{s−1} Σ_{ŝ=0}^{k} C(n−c, s−k)·C(s, ŝ)·C(c−s, k−ŝ)·(s−k)/(s−ŝ),
//
// a polynomial in n and c: the truncated ranges of formula (1) (k ≥ s+c−n,
// ŝ ≥ s+k−c) only drop terms in which one of the binomials is 0 for
// n ≥ c ≥ s, and the k = s term is 0. Its degree in n is at most s (from
// C(n−c, s−k)) and in c at most (s−k) + (k−ŝ) ≤ s. γ_s(n) = Σ_{d<s}
// C(n, d)/(s·C(s−1, d)) has degree s−1 in n. Since γ > 0 and
// (n−s)γ + 1 > 0 for n > s, the identity E = (n−c)γ/((n−s)γ+1) is
// equivalent to P(n, c) = 0 with
//
//	P(n, c) = A(n, c)·((n−s)·γ_s(n) + 1) − (n−c)·γ_s(n)·C(n, s),
//
// and P has degree at most s + 1 + (s−1) = 2s in n and at most s in c
// (the right-hand term has degree 1 in c). A polynomial of those degrees
// that vanishes on a product grid of 2s+1 distinct n and s+1 distinct c is
// zero: for each grid c it is a polynomial in n of degree ≤ 2s with 2s+1
// roots, so each of its coefficients (polynomials in c of degree ≤ s)
// vanishes at s+1 points. So P = 0 on the grid n = 2s..4s, c = s..2s,
// evaluated exactly, proves the identity for that s and every n, c.
//
// All values are integers once scaled: L = lcm(1..s) clears 1/(s−ŝ) and
// G = lcm_d s·C(s−1, d) clears γ's denominators, so ProveGamma compares
// (L·A)·((n−s)·Γ + G) with L·(n−c)·Γ·C(n, s), Γ = G·γ_s(n), in big.Int.
// The inner sums B_k(c) = Σ_ŝ C(s,ŝ)C(c−s,k−ŝ)·L/(s−ŝ) depend on c only,
// so the grid costs O(s³) big-integer operations.
func ProveGamma(ctx context.Context, s int) (GammaProof, error) {
	if err := ctxguard.Check("exact", ctx); err != nil {
		return GammaProof{}, err
	}
	return proveGammaWith(ctx, s, nil)
}

// proveGammaWith is ProveGamma with γ's scaled coefficients perturbed by
// perturb (tests: a wrong identity must be refuted).
func proveGammaWith(ctx context.Context, s int, perturb func(coef []*big.Int)) (GammaProof, error) {
	if s < 1 || s > MaxProveS {
		return GammaProof{}, fmt.Errorf("exact: ProveGamma: s = %d: need 1 ≤ s ≤ MaxProveS = %d", s, MaxProveS)
	}
	// L = lcm(1..s); G = lcm_d s·C(s−1, d); Γ coefficients G/(s·C(s−1,d)).
	L := big.NewInt(1)
	for i := 2; i <= s; i++ {
		lcm(L, big.NewInt(int64(i)))
	}
	den := make([]*big.Int, s)
	G := big.NewInt(1)
	for d := range s {
		den[d] = new(big.Int).Mul(big.NewInt(int64(s)), new(big.Int).Binomial(int64(s-1), int64(d)))
		lcm(G, den[d])
	}
	coef := make([]*big.Int, s)
	for d := range s {
		coef[d] = new(big.Int).Quo(G, den[d])
	}
	if perturb != nil {
		perturb(coef)
	}
	Lover := make([]*big.Int, s+1) // L/(s−ŝ), ŝ = 0..s−1
	for sh := 0; sh < s; sh++ {
		Lover[sh] = new(big.Int).Quo(L, big.NewInt(int64(s-sh)))
	}
	cs := genBinomials(int64(s), s) // C(s, ŝ)
	res := GammaProof{S: s, Proved: true}
	t, lhs, rhs, gam, acc := new(big.Int), new(big.Int), new(big.Int), new(big.Int), new(big.Int)
	for c := s; c <= 2*s; c++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		ccs := genBinomials(int64(c-s), s) // C(c−s, j)
		B := make([]*big.Int, s)           // B_k(c)
		for k := range s {
			B[k] = new(big.Int)
			for sh := 0; sh <= k; sh++ {
				t.Mul(cs[sh], ccs[k-sh])
				t.Mul(t, Lover[sh])
				B[k].Add(B[k], t)
			}
		}
		for n := 2 * s; n <= 4*s; n++ {
			res.Points++
			cnc := genBinomials(int64(n-c), s) // C(n−c, j)
			acc.SetInt64(0)                    // L·A(n, c)
			for k := range s {
				t.Mul(cnc[s-k], big.NewInt(int64(s-k)))
				t.Mul(t, B[k])
				acc.Add(acc, t)
			}
			cn := genBinomials(int64(n), s) // C(n, d), d = 0..s
			gam.SetInt64(0)                 // Γ = G·γ_s(n)
			for d := range s {
				gam.Add(gam, t.Mul(cn[d], coef[d]))
			}
			lhs.Mul(gam, big.NewInt(int64(n-s)))
			lhs.Add(lhs, G)
			lhs.Mul(lhs, acc)
			rhs.Mul(L, big.NewInt(int64(n-c)))
			rhs.Mul(rhs, gam)
			rhs.Mul(rhs, cn[s])
			if lhs.Cmp(rhs) != 0 {
				res.Proved = false
				res.Counter = &gossip.Shuffle{Items: n, Cache: c, Exchange: s}
				return res, nil
			}
		}
	}
	return res, nil
}

// ProveGammaRange runs ProveGamma for s = 1..maxExchange (none for 0) on
// set.Workers goroutines, checking ctx between values of s; set.Progress
// counts values of s. The proofs are in s's order whatever the workers.
func ProveGammaRange(ctx context.Context, maxExchange int, set Settings) ([]GammaProof, error) {
	if err := ctxguard.Check("exact", ctx); err != nil {
		return nil, err
	}
	if maxExchange < 0 || maxExchange > MaxProveS {
		return nil, fmt.Errorf("exact: ProveGammaRange: maxExchange = %d: need 0 ≤ maxExchange ≤ MaxProveS = %d", maxExchange, MaxProveS)
	}
	// Largest s first: the cost grows like s³, so the long proofs start
	// early and the short ones fill the gaps (the slots keep s's order).
	out := make([]GammaProof, maxExchange)
	err := parallel.For(ctx, maxExchange, set.Workers, func() func(context.Context, int) error {
		return func(ctx context.Context, k int) error {
			p, err := ProveGamma(ctx, maxExchange-k)
			out[maxExchange-k-1] = p
			return err
		}
	}, set.Progress)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// genBinomials returns C(m, j) for j = 0..l (generalised binomials: m any
// integer), by C(m, j+1) = C(m, j)·(m−j)/(j+1), an exact division.
func genBinomials(m int64, l int) []*big.Int {
	out := make([]*big.Int, l+1)
	out[0] = big.NewInt(1)
	for j := range l {
		v := new(big.Int).Mul(out[j], big.NewInt(m-int64(j)))
		out[j+1] = v.Quo(v, big.NewInt(int64(j+1)))
	}
	return out
}

// lcm sets z to lcm(z, x) (both positive).
func lcm(z, x *big.Int) {
	g := new(big.Int).GCD(nil, nil, z, x)
	z.Mul(z, new(big.Int).Quo(x, g))
}
