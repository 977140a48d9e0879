package exact

import (
	"context"
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// Nil targets and sizes past the limits: an allocation, a documented nil
// or an error naming the field, never a panic nor hours of work. The
// golden values are the definitions: C(5, 2) = 10, γ_2(5) = 1 + C(5,1)/C(1,1)
// ·… = (C(5,2) − 1)/(5 − 2) = 3 (Theorem B).
func TestNilAndHuge(t *testing.T) {
	if z := Binomial(nil, 5, 2); z == nil || z.Int64() != 10 {
		t.Errorf("Binomial(nil, 5, 2) = %v, want 10", z)
	}
	if z := Gamma(nil, 5, 2); z == nil || z.Cmp(big.NewRat(3, 1)) != 0 {
		t.Errorf("Gamma(nil, 5, 2) = %v, want 3", z)
	}
	z := big.NewInt(7)
	for _, tc := range []struct{ m, l int64 }{{1 << 40, 1 << 30}, {1 << 40, 1<<40 - 1<<30}, {-(1 << 40), 1 << 30}} {
		if got := Binomial(z, tc.m, tc.l); got != nil || z.Int64() != 7 {
			t.Errorf("Binomial(z, %d, %d) = %v (z = %v): want nil, z unchanged", tc.m, tc.l, got, z)
		}
	}
	// Just inside the limit at small m: C(40, 20) has 38 bits.
	if got := Binomial(nil, 40, 20); got == nil || got.Int64() != 137846528820 {
		t.Errorf("C(40, 20) = %v, want 137846528820", got)
	}
	if got := Gamma(new(big.Rat), 1<<40, 1<<40-5); got != nil {
		t.Errorf("Gamma at s = 2^40 − 5: %v, want nil", got)
	}
	// s close to n: C(n, s) is small and PDrop answers, but the γ sum has
	// s terms; PDropGamma refuses naming the field.
	p := gossip.Shuffle{Items: 1 << 40, Cache: 1<<40 - 1, Exchange: 1<<40 - 5}
	if _, err := PDrop(p); err != nil {
		t.Fatalf("PDrop: %v", err)
	}
	var fe *gossip.FieldError
	if _, err := PDropGamma(p); !errors.As(err, &fe) || fe.Field != "Shuffle.Exchange" {
		t.Errorf("PDropGamma at s = 2^40 − 5: %v, want a field error on Shuffle.Exchange", err)
	}
	if v, ok := Log10AbsDiff(nil, big.NewRat(1, 2)); ok || !math.IsNaN(v) {
		t.Errorf("Log10AbsDiff(nil, 1/2) = %v, %v; want NaN, false", v, ok)
	}
}

// Evaluate refuses more than MaxEvaluate shuffles before any work, naming
// the field (500,000 took 70 s through `gossipkit pdrop`).
func TestEvaluateRefusesHugeGrids(t *testing.T) {
	pts, _ := GridPoints([]int{10}, []int{5}, []int{2})
	many := make([]gossip.Shuffle, MaxEvaluate+1)
	for i := range many {
		many[i] = pts[0]
	}
	var fe *gossip.FieldError
	if _, err := Evaluate(context.Background(), Config{Shuffles: many}, Settings{}); !errors.As(err, &fe) || fe.Field != "Config.Shuffles" {
		t.Errorf("%d shuffles: %v, want a field error on Config.Shuffles", len(many), err)
	}
	if _, err := Evaluate(context.Background(), Config{Shuffles: many[:3]}, Settings{}); err != nil {
		t.Errorf("3 shuffles: %v", err)
	}
}
