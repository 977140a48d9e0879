package approx

import (
	"math"
	"testing"
)

// TestTransitionsLossByHand checks NewTransitionsLoss against the cases of
// one shuffle written out by hand: with probability ε the request is lost
// (nothing moves), with (1−ε)ε the reply is lost (only B's side of the
// shuffle happens), with (1−ε)² the shuffle is whole (Fig. 1).
func TestTransitionsLossByHand(t *testing.T) {
	const tol = 1e-15 // a few roundings of products of numbers in [0, 1]
	for _, tc := range []struct{ p, q, eps float64 }{
		{0.5, 0.9, 0}, {0.5, 0.9, 0.1}, {0.1, 0.99, 0.5}, {1, 0.3, 0.999}, {0.25, 0, 0.3},
	} {
		whole := NewTransitions(tc.p, tc.q)
		// B's side alone: B receives S_A and drops from S_B \ S_A; A keeps
		// its cache. From 10, B gets d when A sends it; from 01, B drops d
		// (sent, not received) with p·q; from 11, B drops d with p(1−p)q.
		var half Transitions
		p, q := tc.p, tc.q
		half[S00][S00] = 1
		half[S10][S11], half[S10][S10] = p, 1-p
		half[S01][S00], half[S01][S01] = p*q, 1-p*q
		half[S11][S10], half[S11][S11] = p*(1-p)*q, 1-p*(1-p)*q
		var want Transitions
		e, a := tc.eps, 1-tc.eps
		for i := range 4 {
			for j := range 4 {
				want[i][j] = a*a*whole[i][j] + a*e*half[i][j]
			}
			want[i][i] += e
		}
		got := NewTransitionsLoss(tc.p, tc.q, tc.eps)
		for i := range 4 {
			for j := range 4 {
				if math.Abs(got[i][j]-want[i][j]) > tol {
					t.Errorf("p=%g q=%g ε=%g: P(%v|%v) = %g, by cases %g", tc.p, tc.q, tc.eps, State(j), State(i), got[i][j], want[i][j])
				}
			}
		}
		if err := got.CheckLoss(tol); err != nil {
			t.Errorf("ε=%g: %v", tc.eps, err)
		}
		if tc.eps == 0 && got != whole {
			t.Errorf("ε=0: %v, want NewTransitions %v", got, whole)
		}
		if tc.eps > 0 && tc.q > 0 && got.Check(tol) == nil {
			t.Errorf("ε=%g: Check accepted a matrix that loses d", tc.eps)
		}
	}
}

// TestSummed: the orientation sums of Fig. 1 by hand, 2p(1−q), 2pq,
// 2p(1−p)q and 0 without loss, and with loss the sums docs/MODEL.md §7
// derives: a·p(2a(1−q) + ε), 2a²pq, a(2−ε)p(1−p)q and a·ε·pq.
func TestSummed(t *testing.T) {
	const tol = 1e-15 // a few roundings of products of numbers in [0, 1]
	p, q := 0.5, 0.9
	for _, eps := range []float64{0, 0.3} {
		a := 1 - eps
		up, move, drop, lose := NewTransitionsLoss(p, q, eps).Summed()
		want := [4]float64{a * p * (2*a*(1-q) + eps), 2 * a * a * p * q, a * (2 - eps) * p * (1 - p) * q, a * eps * p * q}
		for i, got := range [4]float64{up, move, drop, lose} {
			if math.Abs(got-want[i]) > tol {
				t.Errorf("ε=%g: sum %d = %g, by hand %g", eps, i, got, want[i])
			}
		}
	}
}
