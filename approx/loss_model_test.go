package approx

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// TestLossFactor: f = (1−ε)(1−ε/2) by hand at a few ε, and exactly 1 at
// ε = 0, so that the lossless model is multiplied by 1.0 only.
func TestLossFactor(t *testing.T) {
	for _, tc := range []struct{ eps, want float64 }{
		{0, 1},
		{0.5, 0.375},       // 0.5 · 0.75
		{0.25, 0.65625},    // 0.75 · 0.875 = 21/32
		{0.75, 0.15625},    // 0.25 · 0.625 = 5/32
		{0.125, 0.8203125}, // 0.875 · 0.9375 = 105/128
	} {
		// Dyadic ε: the factors and their product are exact in float64.
		if got := LossFactor(tc.eps); got != tc.want {
			t.Errorf("LossFactor(%g) = %v, want %v", tc.eps, got, tc.want)
		}
	}
}

// TestLossTimeChange: with loss the model is the lossless one on a clock
// slowed by f: Rate is f times the lossless rate (for dyadic f exactly),
// Drift is f times the lossless drift, x_ε(t) = x_0(f·t) and y_ε(t) =
// y_0(f·t), and TimeToReplication/Coverage are the lossless times over f.
// The two sides round differently (k·f·t against k·(f·t); ∫x scaled by f
// against the time change): a few ulp of kt, amplified by kt up to
// ln(K/x0) ≤ ln 500 ≈ 6 here, so about 20 ulp (5e-15) at most, and the
// times a few ulp; 1e-13 relative leaves a margin above 10.
func TestLossTimeChange(t *testing.T) {
	const rel = 1e-13
	for _, v := range Variants {
		for _, eps := range []float64{0.125, 0.25, 0.5, 0.75} {
			for _, p := range []struct{ N, n, c, s, init int }{{2500, 500, 100, 50, 1}, {100, 200, 100, 30, 20}, {2, 1000, 10, 5, 1}} {
				t.Run(fmt.Sprint(v, eps, p), func(t *testing.T) {
					cfg := Config{Nodes: p.N, Shuffle: gossip.Shuffle{Items: p.n, Cache: p.c, Exchange: p.s}, PDrop: v, Initial: p.init}
					m0, err := NewModel(cfg)
					if err != nil {
						t.Fatal(err)
					}
					cfg.Loss = eps
					m, err := NewModel(cfg)
					if err != nil {
						t.Fatal(err)
					}
					f := LossFactor(eps)
					if m.Rate() != f*m0.Rate() || m.Steady() != m0.Steady() {
						t.Errorf("Rate %v Steady %v, lossless %v %v, f = %v", m.Rate(), m.Steady(), m0.Rate(), m0.Steady(), f)
					}
					for _, xy := range [][2]float64{{0.01, 0.3}, {0.1, 0.9}, {0.2, 0.2}} {
						dx, dy := m.Drift(xy[0], xy[1])
						dx0, dy0 := m0.Drift(xy[0], xy[1])
						if !close(dx, f*dx0, rel) || !close(dy, f*dy0, rel) {
							t.Errorf("Drift%v = (%v, %v), f × lossless (%v, %v)", xy, dx, dy, f*dx0, f*dy0)
						}
					}
					for _, tt := range []float64{0, 1, 10, 100, 1000} {
						if !close(m.X(tt), m0.X(f*tt), rel) || !close(m.Y(tt), m0.Y(f*tt), rel) {
							t.Errorf("t = %g: (x, y) = (%v, %v), lossless at f·t (%v, %v)", tt, m.X(tt), m.Y(tt), m0.X(f*tt), m0.Y(f*tt))
						}
					}
					for _, level := range []float64{0.5, 0.9, 0.99} {
						if got, want := m.TimeToCoverage(level), m0.TimeToCoverage(level)/f; !close(got, want, rel) {
							t.Errorf("TimeToCoverage(%g) = %v, lossless/f %v", level, got, want)
						}
						lx := level * m.Steady()
						if got, want := m.TimeToReplication(lx), m0.TimeToReplication(lx)/f; !close(got, want, rel) {
							t.Errorf("TimeToReplication(%g) = %v, lossless/f %v", lx, got, want)
						}
					}
				})
			}
		}
	}
}

// close reports |a − b| ≤ rel·max(|a|, |b|), or both are the same
// infinity.
func close(a, b, rel float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}

// TestLossClosedFormsAgainstReference: the float64 closed forms with loss
// against the 256-bit reference, which forms f and k in 256 bits from the
// same float64 ε. Beyond TestClosedFormsAgainstReference's 16 ulp, f =
// (1−ε)(1−ε/2) and f·k add up to about 2 ulp of relative error to k, which
// e^{−kt} amplifies by kt while it dominates x's denominator, that is up to
// kt ≈ ln(K/x0) ≈ 12 (N = 10⁶, K = 0.2): 16 + 2·12 = 40 ulp. Measured: 13.8
// (ε = 0.1, N = 10⁶, n = 500, kt = 9.5).
func TestLossClosedFormsAgainstReference(t *testing.T) {
	t.Parallel()
	worst := 0.0
	for _, eps := range []float64{0.1, 0.5, 0.999} {
		for _, N := range []int{2, 100, 1000000} {
			for _, p := range [][3]int{{500, 100, 50}, {1000000, 10, 5}, {101, 100, 1}, {200, 100, 99}} {
				m, err := NewModel(Config{Nodes: N, Shuffle: gossip.Shuffle{Items: p[0], Cache: p[1], Exchange: p[2]}, Initial: 1, Loss: eps})
				if err != nil {
					t.Fatal(err)
				}
				for _, tt := range []float64{0, 0.5, 1, 10, 100, 1000, 1e4, 1e5} {
					x, y, err := m.Reference(tt)
					if err != nil {
						t.Fatal(err)
					}
					ux, uy := ulps(m.X(tt), x), ulps(m.Y(tt), y)
					if ux > 40 || uy > 40 {
						t.Errorf("ε = %g N = %d %v t = %g: x %v (%.1f ulp), y %v (%.1f ulp)", eps, N, p, tt, m.X(tt), ux, m.Y(tt), uy)
					}
					worst = math.Max(worst, math.Max(ux, uy))
				}
			}
		}
	}
	t.Logf("largest error with loss: %.1f ulp", worst)
}

// TestLossReferenceTimeChange: the 256-bit reference with loss ε at t
// equals the lossless reference at f·t (f = 3/8 at ε = 1/2, t dyadic, so
// f·t is exact in float64): the two evaluate k·t differently (f·k times t
// against k times f·t) and scale ∫x by f against not, so they agree to the
// reference's own precision, ~2^−240 after a few dozen roundings.
func TestLossReferenceTimeChange(t *testing.T) {
	cfg := Config{Nodes: 1000, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, Initial: 3}
	m0, _ := NewModel(cfg)
	cfg.Loss = 0.5
	m, _ := NewModel(cfg)
	for _, tt := range []float64{0, 1, 8, 64, 512} {
		x, y, err := m.Reference(tt)
		if err != nil {
			t.Fatal(err)
		}
		x0, y0, err := m0.Reference(0.375 * tt)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range [][2]*big.Float{{x, x0}, {y, y0}} {
			diff := new(big.Float).Sub(d[0], d[1])
			diff.Abs(diff)
			if diff.Cmp(new(big.Float).SetMantExp(big.NewFloat(1), -230)) > 0 {
				t.Errorf("t = %g: with loss %v, lossless at f·t %v", tt, d[0], d[1])
			}
		}
	}
}
