package exact

import (
	"context"
	"math/big"
	"testing"
)

func BenchmarkPDropPoint(b *testing.B) {
	for b.Loop() {
		if _, err := PDrop(5000, 500, 100); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPDropSweep is the sweep n = 600..10000 step 100 at c = 500, s = 100.
func BenchmarkPDropSweep(b *testing.B) {
	z := new(big.Rat)
	for b.Loop() {
		f, _ := NewFormula1(500, 100)
		for n := 600; n <= 10000; n += 100 {
			f.At(z, n)
		}
	}
}

func BenchmarkPDropGammaSweep(b *testing.B) {
	for b.Loop() {
		for n := 600; n <= 10000; n += 100 {
			if _, err := PDropGamma(n, 500, 100); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkVerifyGamma(b *testing.B) {
	for b.Loop() {
		if _, mm, err := VerifyGamma(context.Background(), 24, 64, 160, nil); err != nil || mm != nil {
			b.Fatal(err, mm)
		}
	}
}
