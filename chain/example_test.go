package chain_test

import (
	"context"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/gossip"
)

// The stationary share of holders is c/n: with the simplified P_drop the
// stationary law of X is Bin(N, c/n) conditioned on X ≥ 1 (package doc),
// so for N = 2500, n = 500, c = 100 its mean is 0.2 and its sd
// √(0.2·0.8/2500) = 0.008 (P(X = 0) = 0.8^2500 is negligible).
func ExampleStationary() {
	pi, _ := chain.Stationary(chain.Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, PDrop: approx.Simplified})
	mean, sq := 0.0, 0.0
	for x, p := range pi {
		mean += float64(x) * p / 2500
		sq += float64(x) * float64(x) * p / 2500 / 2500
	}
	fmt.Printf("mean %.4f, sd %.4f\n", mean, math.Sqrt(sq-mean*mean))
	// Output: mean 0.2000, sd 0.0080
}

// Two nodes, n = 7, c = 4, s = 2: in continuous time X jumps 1 → 2 at rate
// α = 2p(1−q) = 0.4 and 2 → 1 at β = 4p(1−p)q = 0.6, so E[X/2] at t = 1
// is (1 + 0.4·(1 − e^{−1}))/2 = 0.626424.
func ExampleSolve() {
	res, _ := chain.Solve(context.Background(), chain.Config{Nodes: 2, Shuffle: gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}, TMax: 1, Dt: 1}, chain.Settings{})
	fmt.Printf("E[X(1)/N] = %.6f\n", res.Rows[1].X.Mean)
	// Output: E[X(1)/N] = 0.626424
}

// Two nodes, n = 7, c = 4, s = 2: the second node first holds d when a
// shuffle sends it, at rate 2p = 1 a round (either node initiates at rate
// 1 and sends d w.p. p = 1/2 either way), so the time to full coverage is
// Exp(1): P(T ≤ 1) = 1 − e^{−1} = 0.632121, median ln 2 = 0.693147.
func ExampleTimeToLevel() {
	lt, _ := chain.TimeToLevel(context.Background(), chain.Config{Nodes: 2, Shuffle: gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}, Level: 1}, chain.Settings{})
	fmt.Printf("P(T ≤ 1) = %.6f, median %.6f, mean %.6f\n", lt.CDF(1), lt.Quantile(0.5), lt.Mean)
	// Output: P(T ≤ 1) = 0.632121, median 0.693147, mean 1.000000
}

// Two nodes, n = 7, c = 4, s = 2 (p = 1/2, q = 3/5), each message lost with
// probability ε = 1/2: d dies before the second node is covered with
// probability ε·q/(2 − ε(1−q)) = 1/6, and lives (1 + u/(2w))/ℓ = 80/3
// rounds on average, with u = 0.225, w = 0.1125, ℓ = 0.075 (package doc,
// "Message loss").
func ExampleLifetime() {
	cfg := chain.Config{Nodes: 2, Shuffle: gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}, Level: 1, Loss: 0.5}
	reach, _ := chain.ReachProbability(context.Background(), cfg)
	mean, _, _ := chain.Lifetime(context.Background(), cfg)
	fmt.Printf("P(extinction first) = %.6f, E[lifetime] = %.4f rounds\n", 1-reach, mean)
	// Output: P(extinction first) = 0.166667, E[lifetime] = 26.6667 rounds
}

// Replication in the pairwise model is one process on a clock that s sets
// (docs/MODEL.md §4): the time from one copy to 180 of N = 1000 (90 % of
// the plateau c/n = 0.2) is ∝ 1/P(11|10), and P(11|10) = (s/c)(c−s)/(n−s)
// is 53·47/447 = 5.5727 at s = 53 and 50·50/450 = 5.5556 at s = 50 (in
// units of 1/c² = 10⁻⁴): s = 50 is 5.5727/5.5556 = 1.0031 times slower.
func ExampleReplicationTime() {
	at := func(s int) float64 {
		mean, _, _ := chain.ReplicationTime(context.Background(), chain.Config{Nodes: 1000, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: s}}, 180)
		return mean
	}
	fmt.Printf("s = 50 / s = 53: %.4f\n", at(50)/at(53))
	// Output: s = 50 / s = 53: 1.0031
}
