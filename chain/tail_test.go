package chain

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// The level's tail with loss, cut into pieces at lower rates, against the
// same law computed in one piece at the rate of the last segment (the
// computation without loss, which the pieces leave alone): at every time
// the two distribution functions agree within the sum of their bounds
// (each bound is that of a law computed independently of the other; the
// sum bounds their distance). The pieces are checked every 64 steps here
// so that the small chains (N = 12, 40) lower their rate several times:
// the test fails unless they did (Stats.Retunes), and it fails if a
// piece's law is installed one shuffle off its time (tried: P(T ≤ t)
// moves by up to 10⁻⁴).
// tailCases are the lossy chains whose level tails the tests cut into
// pieces: two clocks, three losses, at N small enough to solve in one piece
// too.
var tailCases = []struct {
	name string
	cfg  Config
}{
	{"N=40/eps=0.3", Config{Nodes: 40, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Time: gossip.Continuous, TMax: 20, Dt: 1, Level: 0.9, Loss: 0.3}},
	{"N=40/eps=0.1/shuffles", Config{Nodes: 40, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Time: gossip.Shuffles, TMax: 20, Dt: 1, Level: 0.9, Loss: 0.1}},
	{"N=12/eps=0.5", Config{Nodes: 12, Shuffle: gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5}, Time: gossip.Continuous, TMax: 5, Dt: 0.5, Level: 1, Loss: 0.5}},
}

func TestTailPiecesAgainstOnePiece(t *testing.T) {
	for _, tc := range tailCases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			got, err := Solve(ctx, tc.cfg, Settings{retuneEvery: 64})
			if err != nil {
				t.Fatal(err)
			}
			want, err := Solve(ctx, tc.cfg, Settings{retuneEvery: -1})
			if err != nil {
				t.Fatal(err)
			}
			if got.Stats.Retunes == 0 || want.Stats.Retunes != 0 {
				t.Fatalf("retunes %d and %d, want > 0 and 0", got.Stats.Retunes, want.Stats.Retunes)
			}
			gl, wl := got.Level, want.Level
			tol := gl.Bound + wl.Bound
			if gl.Mean != wl.Mean || gl.SD != wl.SD || gl.PReach != wl.PReach {
				t.Errorf("first-step moments differ: %+v, want %+v", gl.Stat, wl.Stat)
			}
			// The rows to TMax are computed before the tail: the same bits.
			for i := range got.Rows {
				if got.Rows[i] != want.Rows[i] {
					t.Errorf("row %d: %+v, want %+v", i, got.Rows[i], want.Rows[i])
				}
			}
			worst := 0.0
			for x := 0.0; x <= 40*wl.Q95; x += wl.Q95 / 97 {
				g, w := gl.CDF(x), wl.CDF(x)
				worst = math.Max(worst, math.Abs(g-w))
				if math.Abs(g-w) > tol {
					t.Errorf("P(T ≤ %g) = %.17g, want %.17g ± %.1e", x, g, w, tol)
				}
			}
			for _, p := range []float64{0.05, 0.5, 0.95, 0.999} {
				// Quantile(p) of one law is within the other's quantiles
				// at p ± tol.
				q := gl.Quantile(p * wl.PReach)
				lo, hi := wl.Quantile(p*wl.PReach-tol), wl.Quantile(p*wl.PReach+tol)
				if q < lo || q > hi {
					t.Errorf("quantile %g: %g, want in [%g, %g]", p, q, lo, hi)
				}
			}
			t.Logf("%d pieces, rate %.4g → %.4g, bounds %.2e and %.2e, killed %.1e, largest difference %.1e, steps %d and %d",
				got.Stats.Retunes+1, want.Stats.Rate, got.Stats.Rate, gl.Bound, wl.Bound, got.Stats.Killed, worst, got.Stats.Steps, want.Stats.Steps)
		})
	}
}

// With loss, Solve's rates (the start rate from the reflected law's 10⁻¹⁶
// point, lossReach, and the tail's lower rates) against the chain
// uniformized at the fixed rate N, which covers every state's exit rate
// and so kills nothing and is never cut into pieces: every law reported and
// the distribution function of T_L agree within the sum of the two bounds
// (variances within 6 times it: X/N and Y/N lie in [0, 1], so E[Z] and
// E[Z²] move by at most 2·bound each and E[Z]² by 4·bound). A piece
// stepped at the lowered rate but read at the rate before fails it (tried:
// P(T ≤ t) off by up to 10⁻²).
func TestLossRatesAgainstFixedRate(t *testing.T) {
	sh := gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}
	for _, eps := range []float64{0.1, 0.3} {
		cfg := Config{Nodes: 40, Shuffle: sh, Time: gossip.Continuous, TMax: 30, Dt: 1, Level: 0.9, Loss: eps}
		t.Run(fmt.Sprint("eps=", eps), func(t *testing.T) {
			ctx := context.Background()
			got, err := Solve(ctx, cfg, Settings{retuneEvery: 64})
			if err != nil {
				t.Fatal(err)
			}
			want, err := Solve(ctx, cfg, Settings{rate: float64(cfg.Nodes)})
			if err != nil {
				t.Fatal(err)
			}
			if !(got.Stats.Rate < want.Stats.Rate) || got.Stats.Retunes == 0 {
				t.Fatalf("rate %g (%d retunes), want below %g and lowered", got.Stats.Rate, got.Stats.Retunes, want.Stats.Rate)
			}
			tol := got.Bound + want.Bound
			for i, r := range got.Rows {
				w := want.Rows[i]
				for _, c := range []struct {
					name      string
					g, w, tol float64
				}{
					{"X mean", r.X.Mean, w.X.Mean, 2 * tol},
					{"Y mean", r.Y.Mean, w.Y.Mean, 2 * tol},
					{"X var", r.X.SD * r.X.SD, w.X.SD * w.X.SD, 6 * tol},
					{"Y var", r.Y.SD * r.Y.SD, w.Y.SD * w.Y.SD, 6 * tol},
					{"P(extinct)", r.PExtinct, w.PExtinct, tol},
					{"P(level)", r.PLevel, w.PLevel, tol},
				} {
					if math.Abs(c.g-c.w) > c.tol {
						t.Errorf("t = %g: %s %.17g, want %.17g ± %.1e", r.T, c.name, c.g, c.w, c.tol)
					}
				}
			}
			gl, wl := got.Level, want.Level
			tl := gl.Bound + wl.Bound
			for x := 0.0; x <= 40*wl.Q95; x += wl.Q95 / 97 {
				if g, w := gl.CDF(x), wl.CDF(x); math.Abs(g-w) > tl {
					t.Errorf("P(T ≤ %g) = %.17g, want %.17g ± %.1e", x, g, w, tl)
				}
			}
			t.Logf("rate %.4g (%d retunes) against %g, bounds %.2e and %.2e, killed %.1e", got.Stats.Rate, got.Stats.Retunes, want.Stats.Rate, got.Bound, want.Bound, got.Stats.Killed)
		})
	}
}

// ε = 1 − 2⁻⁵³: every rate is about 10⁻¹⁶ a round, and a piece of the
// tail would end more than 2⁶³ shuffles away. pieceEnd's shuffle count
// overflowed an int and the window of the piece's end was built without
// end (found by plan's TestNastyValues: Solve ran on past its context).
// Now the piece goes on, and Solve returns at once.
func TestTailNearTotalLoss(t *testing.T) {
	cfg := Config{Nodes: 30, Shuffle: gossip.Shuffle{Items: 60, Cache: 10, Exchange: 3}, Level: 0.9, TMax: 20, Dt: 1, Loss: 0.9999999999999999}
	res, err := Solve(context.Background(), cfg, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if lt := res.Level; !(lt.PReach >= 0 && lt.PReach <= 1 && lt.Bound < 1e-9) {
		t.Errorf("PReach %g, bound %g", lt.PReach, lt.Bound)
	}
}
