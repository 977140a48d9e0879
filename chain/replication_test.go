package chain

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
)

// ReplicationTime by hand at N = 2 and N = 3 (per-shuffle clock, D =
// N(N−1)). N = 2, one copy to two: each shuffle copies with λ₁ = u·1·1/2,
// so K is geometric, E[K] = 2/u, Var K = (1 − λ₁)/λ₁². N = 3, one copy to
// three: λ₁ = λ₂ = u·2/6 = u/3, μ₂ = w·2/6 = w/3; τ₁ is geometric (mean
// 3/u) and τ₂ = (1 + μ₂·3/u)/λ₂ = 3/u + 3w/u² on average, so E[K] = 6/u
// + 3w/u².
func TestReplicationTimeByHand(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sh := gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}
	j, err := JumpsFor(approx.Simplified, sh)
	if err != nil {
		t.Fatal(err)
	}
	u, w := j.Up, j.Drop
	mean, sd, err := ReplicationTime(ctx, Config{Nodes: 2, Shuffle: sh, Time: gossip.Shuffles}, 2)
	if err != nil {
		t.Fatal(err)
	}
	l := u / 2
	if wantM, wantSD := 2/u/2, math.Sqrt((1-l)/(l*l))/2; math.Abs(mean-wantM) > 1e-12*wantM || math.Abs(sd-wantSD) > 1e-12*wantSD {
		t.Errorf("N = 2: %v ± %v rounds, want %v ± %v", mean, sd, wantM, wantSD)
	}
	mean, _, err = ReplicationTime(ctx, Config{Nodes: 3, Shuffle: sh, Time: gossip.Shuffles}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if want := (6/u + 3*w/(u*u)) / 3; math.Abs(mean-want) > 1e-12*want {
		t.Errorf("N = 3: %v rounds, want %v", mean, want)
	}
	// From holders to holders: no time.
	if mean, sd, err := ReplicationTime(ctx, Config{Nodes: 3, Shuffle: sh, Initial: 2}, 2); err != nil || mean != 0 || sd != 0 {
		t.Errorf("2 to 2 copies: %v ± %v, %v", mean, sd, err)
	}
}

// ReplicationTime against first-step analysis solved as one dense linear
// system (Gaussian elimination over the transient states 1..holders−1, a
// different algorithm from the recursion): h(x) = 1 + Σ P(x→y)·h(y),
// g(x) = 2h(x) − 1 + Σ P(x→y)·g(y), h = g = 0 at holders. N = 9, n = 12,
// c = 5, s = 2, formula (1) (approx.Gamma, where w/u depends on s), from 2 copies to 7, on both clocks.
func TestReplicationTimeAgainstLinearSolve(t *testing.T) {
	t.Parallel()
	const N, from, to = 9, 2, 7
	sh := gossip.Shuffle{Items: 12, Cache: 5, Exchange: 2}
	j, err := JumpsFor(approx.Gamma, sh)
	if err != nil {
		t.Fatal(err)
	}
	D := float64(N * (N - 1))
	k := to - 1 // unknowns x = 1..to−1 at index x−1
	solve := func(rhs func(x int) float64) []float64 {
		a := make([][]float64, k)
		for i := range a {
			a[i] = make([]float64, k+1)
			x := float64(i + 1)
			up, down := j.Up*x*(N-x)/D, j.Drop*x*(x-1)/D
			a[i][i] = up + down // 1 − P(stay)
			if i > 0 {
				a[i][i-1] = -down
			}
			if i+1 < k {
				a[i][i+1] = -up
			}
			a[i][k] = rhs(i + 1)
		}
		for p := range k { // no pivoting needed: diagonally dominant
			for r := p + 1; r < k; r++ {
				f := a[r][p] / a[p][p]
				for c := p; c <= k; c++ {
					a[r][c] -= f * a[p][c]
				}
			}
		}
		out := make([]float64, k)
		for r := k - 1; r >= 0; r-- {
			v := a[r][k]
			for c := r + 1; c < k; c++ {
				v -= a[r][c] * out[c]
			}
			out[r] = v / a[r][r]
		}
		return out
	}
	h := solve(func(int) float64 { return 1 })
	g := solve(func(x int) float64 { return 2*h[x-1] - 1 })
	ek, ek2 := h[from-1], g[from-1]
	for _, tm := range []gossip.Time{gossip.Shuffles, gossip.Continuous} {
		mean, sd, err := ReplicationTime(context.Background(), Config{Nodes: N, Shuffle: sh, Initial: from, PDrop: approx.Gamma, Time: tm}, to)
		if err != nil {
			t.Fatal(err)
		}
		wantM, wantSD := hittingStat(tm, N, ek, ek2)
		if math.Abs(mean-wantM) > 1e-11*wantM || math.Abs(sd-wantSD) > 1e-11*wantSD {
			t.Errorf("%v: %v ± %v rounds, linear solve %v ± %v", tm, mean, sd, wantM, wantSD)
		}
	}
}

// The theorem of docs/MODEL.md §4: with the simplified drop probability
// the time to any replication level is ∝ 1/u(s), u = Jumps.Up, so mean·u
// and sd·u do not depend on s (N = 1000, n = 500, c = 100, one copy to
// 180), and the fastest s is the integer argmax of P(11|10), 53.
func TestReplicationTimeScalesWithU(t *testing.T) {
	t.Parallel()
	var refM, refSD float64
	best, bestT := 0, math.Inf(1)
	for s := 1; s < 100; s++ {
		sh := gossip.Shuffle{Items: 500, Cache: 100, Exchange: s}
		j, err := JumpsFor(approx.Simplified, sh)
		if err != nil {
			t.Fatal(err)
		}
		mean, sd, err := ReplicationTime(context.Background(), Config{Nodes: 1000, Shuffle: sh}, 180)
		if err != nil {
			t.Fatal(err)
		}
		if s == 1 {
			refM, refSD = mean*j.Up, sd*j.Up
		} else if math.Abs(mean*j.Up-refM) > 1e-9*refM || math.Abs(sd*j.Up-refSD) > 1e-9*refSD {
			t.Errorf("s = %d: mean·u %v, sd·u %v; at s = 1 %v, %v", s, mean*j.Up, sd*j.Up, refM, refSD)
		}
		if mean < bestT {
			best, bestT = s, mean
		}
	}
	if si, _, _ := approx.ArgmaxP11(approx.Simplified, 500, 100); best != si || best != 53 {
		t.Errorf("fastest s %d, integer argmax of P(11|10) %d, want 53", best, si)
	}
}

func TestReplicationTimeRefuses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sh := gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}
	var fe *FieldError
	if _, _, err := ReplicationTime(ctx, Config{Nodes: 5, Shuffle: sh, Loss: 0.1}, 3); !errors.As(err, &fe) || fe.Field != "Config.Loss" {
		t.Errorf("loss: %v", err)
	}
	for _, h := range []int{0, 6} {
		if _, _, err := ReplicationTime(ctx, Config{Nodes: 5, Shuffle: sh}, h); err == nil {
			t.Errorf("holders = %d accepted", h)
		}
	}
	if _, _, err := ReplicationTime(ctx, Config{Nodes: 5, Shuffle: sh, Initial: 3}, 2); err == nil {
		t.Error("holders below Initial accepted")
	}
	//lint:ignore SA1012 a nil context is what is tested
	if _, _, err := ReplicationTime(nil, Config{Nodes: 5, Shuffle: sh}, 3); err == nil { //nolint:staticcheck
		t.Error("nil context accepted")
	}
}
