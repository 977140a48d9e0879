package pmf

import (
	"math"
	"testing"
)

// TestByHand checks the laws against values worked by hand:
// Hyp(k=2, K=3, n=5) = C(3,j)·C(2,2−j)/C(5,2) = 1/10, 6/10, 3/10;
// Bin(3, 1/2) = 1/8, 3/8, 3/8, 1/8; PullMiss with one informed peer
// among N−1 = 4 and k = 2, ε = 0: the chance neither request goes to it,
// C(3,2)/C(4,2) = 1/2; PushMiss(s=2, k=1, N−1=4, ε=0) = (3/4)² = 9/16;
// BinTail(3, 1/2, 1) = P(Bin(3, 1/2) > 1) = 1/2.
func TestByHand(t *testing.T) {
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-15 {
			t.Errorf("%s = %.17g, want %.17g", name, got, want)
		}
	}
	for j, w := range []float64{0.1, 0.6, 0.3} {
		near("Hyp", Hyp(nil, 2, 3, 5)[j], w)
	}
	for j, w := range []float64{0.125, 0.375, 0.375, 0.125} {
		near("Bin", Bin(nil, 3, 0.5)[j], w)
	}
	near("PullMiss", PullMiss(nil, 1, 2, 4, 0), 0.5)
	near("PushMiss", PushMiss(2, 1, 4, 0), 9.0/16)
	// The complements: 1/2, 7/16; with ε = 1/2 (a request and its reply
	// both arrive with 1/4), PullHit = Hyp(1; 2, 1, 4)·1/4 = 1/2·1/4 and
	// PushHit(2, 1, 4, 1/2) = 1 − (7/8)² = 15/64.
	near("PullHit", PullHit(nil, 1, 2, 4, 0), 0.5)
	near("PushHit", PushHit(2, 1, 4, 0), 7.0/16)
	near("PullHit ε", PullHit(nil, 1, 2, 4, 0.5), 0.125)
	near("PushHit ε", PushHit(2, 1, 4, 0.5), 15.0/64)
	near("BinTail", BinTail(3, 0.5, 1), 0.5)
	near("BinCDF", BinCDF(3, 0.5, 1), 0.5)
	lo, w := BinWindow(nil, 3, 0.5)
	if lo != 0 || len(w) != 4 {
		t.Fatalf("BinWindow(3, 1/2) = %d, %v", lo, w)
	}
	near("BinWindow", w[1], 0.375)
}
