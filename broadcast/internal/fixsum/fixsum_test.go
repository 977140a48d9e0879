package fixsum

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestSumExact: the fixed-point sum is the exact sum of the terms
// truncated to multiples of 2⁻²⁵⁶, checked against math/big's exact
// rational sum of the same truncations, and the same to the bit in any
// order and any split into partial sums (the property the merge of
// shards rests on).
func TestSumExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var xs []float64
	for range 2000 {
		// Values across the range: near 1, tiny, subnormal-free powers.
		xs = append(xs, r.Float64(), math.Ldexp(r.Float64(), -r.IntN(270)), 1)
	}
	xs = append(xs, 0, math.SmallestNonzeroFloat64, 0x1p-256, 0x1p-257, 1e-40, 1e-60)
	var z Sum
	want := new(big.Int)
	for _, x := range xs {
		z.Add(x)
		// The term times 2²⁵⁶, truncated: an exact big.Float product floored.
		f := new(big.Float).SetPrec(2000).SetFloat64(x)
		f.SetMantExp(f, scale)
		i, _ := f.Int(nil)
		want.Add(want, i)
	}
	if z.Int().Cmp(want) != 0 {
		t.Fatalf("sum %v, want %v", z.Int(), want)
	}
	for trial := range 5 {
		perm := r.Perm(len(xs))
		var a, b Sum
		for i, j := range perm {
			if i%(trial+2) == 0 {
				a.Add(xs[j])
			} else {
				b.Add(xs[j])
			}
		}
		a.Plus(&b)
		if a != z {
			t.Fatalf("trial %d: a permuted, split sum differs: %x, want %x", trial, a, z)
		}
	}
	// Text round trip.
	txt, _ := z.MarshalText()
	var back Sum
	if err := back.UnmarshalText(txt); err != nil || back != z {
		t.Fatalf("round trip of %s: %x, %v", txt, back, err)
	}
	for _, bad := range []string{"", "1.2", "1.2.3.4", "x.0.0", "10000000000000000.0.0.0.0", "1.2.3.4.5.6"} {
		if err := back.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("UnmarshalText(%q) accepted", bad)
		}
	}
}
