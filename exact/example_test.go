package exact_test

import (
	"context"
	"fmt"
	"math/big"

	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/gossip"
)

func ExamplePDrop() {
	p := gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}
	e, _ := exact.PDrop(p)                                // S·(1 − 1/C(7,2)) = (3/5)·(20/21)
	d, _ := exact.PDropDoubleSum(context.Background(), p) // formula (1) term by term
	g, _ := exact.PDropGamma(p)
	s, _ := exact.PDropSimplified(p)
	fmt.Println(e, d, g, s)
	// Output: 4/7 4/7 4/7 3/5
}

func ExamplePDrop_large() {
	// s = 50,000: E = S·(1 − 1/C(n,s)) with S = 2/3 and C(200000, 50000)
	// near 2^(n·H(1/4)) = 2^162,256 (H the binary entropy), a fraction of
	// some 100,000 digits, in milliseconds.
	// It differs from S by S/C(n,s), far below float64's resolution.
	e, _ := exact.PDrop(gossip.Shuffle{Items: 200000, Cache: 100000, Exchange: 50000})
	gap := new(big.Rat).Sub(big.NewRat(2, 3), e)
	c := exact.Binomial(new(big.Int), 200000, 50000)
	f, _ := e.Float64()
	fmt.Println(gap.Cmp(new(big.Rat).SetFrac(big.NewInt(2), c.Mul(c, big.NewInt(3)))) == 0, f)
	// Output: true 0.6666666666666666
}

func ExampleGamma() {
	// γ_2(6) = 1/2 + 6/2 = 7/2 = (C(6,2) − 1)/(6 − 2).
	fmt.Println(exact.Gamma(new(big.Rat), 6, 2))
	// Output: 7/2
}

func ExamplePDropEnumerated() {
	en, _ := exact.PDropEnumerated(gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2})
	fmt.Println("per item:", en.PerItem, "per shuffle:", en.PerShuffle,
		"per non-empty shuffle:", en.PerNonEmptyShuffle, "S_A = S_B:", en.EmptyShare)
	// Output: per item: 3/5 per shuffle: 4/7 per non-empty shuffle: 3/5 S_A = S_B: 1/21
}
