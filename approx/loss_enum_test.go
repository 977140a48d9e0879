package approx

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/gossip"
)

// ratMatrix is NewTransitions / NewTransitionsLoss transcribed into
// rationals, term by term (a = 1 − ε):
//
//	from 10: 11 a·p·(a(1−q) + ε), 01 a²·p·q
//	from 01: 11 a²·p·(1−q), 10 a²·p·q, 00 a·ε·p·q
//	from 11: 10 a·p(1−p)q, 01 a²·p(1−p)q
//
// the rest of each row staying; 00 stays.
func ratMatrix(p, q, eps *big.Rat) exact.Matrix {
	r := func() *big.Rat { return new(big.Rat) }
	one := big.NewRat(1, 1)
	a := r().Sub(one, eps)
	a2 := r().Mul(a, a)
	q1 := r().Sub(one, q)
	pq := r().Mul(p, q)
	ppq := r().Mul(pq, r().Sub(one, p)) // p(1−p)q
	var m exact.Matrix
	for i := range 4 {
		for j := range 4 {
			m[i][j] = r()
		}
	}
	m[S00][S00].SetInt64(1)
	m[S10][S11].Mul(a, p).Mul(m[S10][S11], r().Add(r().Mul(a, q1), eps))
	m[S10][S01].Mul(a2, pq)
	m[S01][S11].Mul(a2, r().Mul(p, q1))
	m[S01][S10].Mul(a2, pq)
	m[S01][S00].Mul(r().Mul(a, eps), pq)
	m[S11][S10].Mul(a, ppq)
	m[S11][S01].Mul(a2, ppq)
	for i := range 4 {
		rest := r().Set(one)
		for j := range 4 {
			if j != i {
				rest.Sub(rest, m[i][j])
			}
		}
		m[i][i] = rest
	}
	return m
}

// rowsEqual reports whether the rows of a and b that a has (non-nil) are
// equal, and the first difference b − a otherwise.
func rowsEqual(a, b exact.Matrix) (bool, string) {
	for i := range 4 {
		if a[i][0] == nil {
			continue
		}
		for j := range 4 {
			if a[i][j].Cmp(b[i][j]) != 0 {
				return false, fmt.Sprintf("P(%v|%v): enumerated %s, formula %s (formula − enumerated = %s)",
					State(j), State(i), a[i][j].RatString(), b[i][j].RatString(), new(big.Rat).Sub(b[i][j], a[i][j]).RatString())
			}
		}
	}
	return true, ""
}

// TestLossMatrixByEnumeration checks NewTransitionsLoss against the
// protocol's single shuffle, enumerated exhaustively in rationals
// (exact.EnumerateTransitions: every pair of caches conditioned on d's
// state, every pair of exchange buffers, every pair of drop choices, and
// the three outcomes of the two messages), for every valid (n, c, s) with
// n ≤ 7 and ε = 1/3, and with n ≤ 6 and ε = 1/10:
//
//	(a) Lossy = (1−ε)²·Lossless + (1−ε)ε·ReplyLost + ε·I exactly;
//	(b) Lossless is Fig. 1 with q = S = (n−c)/(n−s) exactly, and then Lossy
//	    is ratMatrix(s/c, S, ε), NewTransitionsLoss in rationals, exactly;
//	    and NewTransitionsLoss itself (float64) is within 4e-16 of it (a
//	    few roundings of products of numbers in [0, 1]).
//
// (b) is expected at every point: given d ∈ S_A \ S_B, the buffer S_B is a
// uniform s-subset of the items other than d whatever d's state at B, so
// Theorem A's conditioning argument (exact's doc) gives A's chance of
// dropping d as exactly S, and likewise for B (docs/MODEL.md §7). Formula
// (1), E = S·(1 − 1/C(n,s)), is not the per-item drop probability, and the
// enumeration tells the two apart wherever they differ (every c < n).
func TestLossMatrixByEnumeration(t *testing.T) {
	t.Parallel()
	one := big.NewRat(1, 1)
	points, withE := 0, 0
	for _, eps := range []*big.Rat{big.NewRat(1, 3), big.NewRat(1, 10)} {
		for n := 2; n <= 7; n++ {
			if n == 7 && eps.Cmp(big.NewRat(1, 3)) != 0 {
				continue // n = 7 costs half the test; one ε there is enough
			}
			for c := 1; c <= n; c++ {
				for s := 1; s <= c && s < n; s++ {
					sh := gossip.Shuffle{Items: n, Cache: c, Exchange: s}
					t.Run(fmt.Sprintf("ε=%s/%v", eps.RatString(), sh), func(t *testing.T) {
						en, err := exact.EnumerateTransitions(sh, eps)
						if err != nil {
							t.Fatal(err)
						}
						// (a)
						a := new(big.Rat).Sub(one, eps)
						var mix exact.Matrix
						for i := range 4 {
							if en.Lossless[i][0] == nil {
								continue
							}
							for j := range 4 {
								v := new(big.Rat).Mul(new(big.Rat).Mul(a, a), en.Lossless[i][j])
								v.Add(v, new(big.Rat).Mul(new(big.Rat).Mul(a, eps), en.ReplyLost[i][j]))
								if i == j {
									v.Add(v, eps)
								}
								mix[i][j] = v
							}
						}
						if ok, diff := rowsEqual(en.Lossy, mix); !ok {
							t.Errorf("(a) lossy ≠ the mixture of its outcomes: %s", diff)
						}
						// (b)
						p := big.NewRat(int64(s), int64(c))
						S, _ := exact.PDropSimplified(sh)
						if ok, diff := rowsEqual(en.Lossless, ratMatrix(p, S, new(big.Rat))); !ok {
							t.Fatalf("(b) lossless enumeration ≠ Fig. 1 with q = S: %s", diff)
						}
						want := ratMatrix(p, S, eps)
						if ok, diff := rowsEqual(en.Lossy, want); !ok {
							t.Errorf("(b) lossy enumeration ≠ NewTransitionsLoss in rationals: %s", diff)
						}
						pf, _ := p.Float64()
						qf, _ := S.Float64()
						ef, _ := eps.Float64()
						got := NewTransitionsLoss(pf, qf, ef)
						for i := range 4 {
							for j := range 4 {
								w, _ := want[i][j].Float64()
								if d := got[i][j] - w; d > 4e-16 || d < -4e-16 {
									t.Errorf("NewTransitionsLoss P(%v|%v) = %v, exact %v", State(j), State(i), got[i][j], want[i][j].RatString())
								}
							}
						}
						// Formula (1) as q: a different matrix wherever E ≠ S.
						E, _ := exact.PDrop(sh)
						if E.Cmp(S) != 0 {
							withE++
							if ok, _ := rowsEqual(en.Lossless, ratMatrix(p, E, new(big.Rat))); ok {
								t.Errorf("Fig. 1 with formula (1) (%s ≠ S = %s) matches the enumeration", E.RatString(), S.RatString())
							}
						}
						points++
					})
				}
			}
		}
	}
	t.Logf("%d points: lossless = Fig. 1 with q = S and lossy = NewTransitionsLoss exactly at all; formula (1) ≠ S and rejected at %d", points, withE)
}

// TestLossEnumerationMutation: the enumeration sees a wrong semantics. With
// a lost reply that also lets A drop what it sent (as if A had received),
// the mixture of outcomes no longer matches NewTransitionsLoss: checked here
// by replacing ReplyLost with Lossless in the mixture, which must differ
// from ratMatrix at ε = 1/3 for a shuffle with 0 < q < 1.
func TestLossEnumerationMutation(t *testing.T) {
	sh := gossip.Shuffle{Items: 6, Cache: 3, Exchange: 2}
	eps := big.NewRat(1, 3)
	en, err := exact.EnumerateTransitions(sh, eps)
	if err != nil {
		t.Fatal(err)
	}
	one := big.NewRat(1, 1)
	a := new(big.Rat).Sub(one, eps)
	var wrong exact.Matrix
	for i := range 4 {
		for j := range 4 {
			v := new(big.Rat).Mul(a, en.Lossless[i][j]) // (1−ε)² + (1−ε)ε = 1−ε
			if i == j {
				v.Add(v, eps)
			}
			wrong[i][j] = v
		}
	}
	S, _ := exact.PDropSimplified(sh)
	if ok, _ := rowsEqual(wrong, ratMatrix(big.NewRat(2, 3), S, eps)); ok {
		t.Error("a lost reply treated as delivered still matches NewTransitionsLoss: the comparison cannot fail")
	}
}
