package exact

import (
	"context"
	"math/big"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// The closed form (PDrop) against formula (1)'s double sum (PDropDoubleSum)
// at s = 2000: `go test -bench 'PDrop(Closed|DoubleSum)2000' ./exact`.
var bench2000 = gossip.Shuffle{Items: 8000, Cache: 4000, Exchange: 2000}

func BenchmarkPDropClosed2000(b *testing.B) {
	for b.Loop() {
		if _, err := PDrop(bench2000); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPDropDoubleSum2000(b *testing.B) {
	for b.Loop() {
		if _, err := PDropDoubleSum(context.Background(), bench2000); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPDropClosed is PDrop at s = 5000 and 50,000 and at the largest
// shuffle that MaxBits admits at n = gossip.MaxItems.
func BenchmarkPDropClosed(b *testing.B) {
	for _, bc := range []struct {
		name string
		p    gossip.Shuffle
	}{
		{"s=5000", gossip.Shuffle{Items: 20000, Cache: 10000, Exchange: 5000}},
		{"s=50000", gossip.Shuffle{Items: 200000, Cache: 100000, Exchange: 50000}},
		{"limit", gossip.Shuffle{Items: gossip.MaxItems, Cache: gossip.MaxItems / 2, Exchange: 51150}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := PDrop(bc.p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPDropGamma50000 is the γ form with γ from its sum by binary
// splitting, at s = 50,000.
func BenchmarkPDropGamma50000(b *testing.B) {
	p := gossip.Shuffle{Items: 200000, Cache: 100000, Exchange: 50000}
	for b.Loop() {
		if _, err := PDropGamma(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPDropSweep is the double sum's sweep n = 600..10000 step 100 at
// c = 500, s = 100.
func BenchmarkPDropSweep(b *testing.B) {
	z := new(big.Rat)
	for b.Loop() {
		f, _ := NewFormula1(context.Background(), 500, 100)
		for n := 600; n <= 10000; n += 100 {
			if _, err := f.At(z, n); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkPDropGammaSweep(b *testing.B) {
	for b.Loop() {
		for n := 600; n <= 10000; n += 100 {
			if _, err := PDropGamma(gossip.Shuffle{Items: n, Cache: 500, Exchange: 100}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkVerifyGamma(b *testing.B) {
	for b.Loop() {
		if _, mm, err := VerifyGamma(context.Background(), Grid{MaxItems: 160, MaxCache: 64, MaxExchange: 24}, Settings{}); err != nil || mm != nil {
			b.Fatal(err, mm)
		}
	}
}
