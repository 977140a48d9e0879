package main

import (
	"context"
	"fmt"
	"math/big"

	"github.com/gossipkit/gossipkit/exact"
)

// cmdReproduce is, for now, a short demonstration of what exists.
func cmdReproduce(ctx context.Context, e *env, args []string) error {
	fs := newFlags("reproduce", e)
	if err := parseEnv(fs, e, args); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "gossipkit: exact drop probability of the shuffle protocol (MODEL.md §2)")
	for _, p := range []exact.Point{{N: 7, C: 4, S: 2}, {N: 500, C: 100, S: 50}} {
		ex, _ := exact.PDrop(p.N, p.C, p.S)
		s, _ := exact.PDropSimplified(p.N, p.C, p.S)
		ef, _ := ex.Float64()
		sf, _ := s.Float64()
		l, _ := exact.Log10AbsDiff(ex, s)
		fmt.Fprintf(e.stdout, "  %v  E = %.12f  S = %.12f  log10|E−S| = %.4f\n", p, ef, sf, l)
	}
	checked, mm, err := exact.VerifyGamma(ctx, 8, 20, 40, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "  γ form = formula (1) at %d points: %v\n", checked, mm == nil)
	en, _ := exact.PDropEnumerated(12, 6, 3)
	e1, _ := exact.PDrop(12, 6, 3)
	fmt.Fprintf(e.stdout, "  enumeration (12,6,3): per-item drop %s = S; formula (1) %s = per-shuffle mean %s\n",
		en.PerItem.RatString(), e1.RatString(), en.PerShuffle.RatString())
	_ = big.NewInt
	return nil
}
