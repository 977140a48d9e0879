package approx

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// ulps is |got − ref| in units of the last place of ref's float64 value.
func ulps(got float64, ref *big.Float) float64 {
	r, _ := ref.Float64()
	ulp := math.Nextafter(math.Abs(r), math.Inf(1)) - math.Abs(r)
	d := new(big.Float).SetPrec(RefPrec).Sub(new(big.Float).SetPrec(RefPrec).SetFloat64(got), ref)
	df, _ := d.Float64()
	return math.Abs(df) / ulp
}

// The float64 closed forms against the 256-bit reference over a grid with
// extreme n/c (10⁶/10, and c = n − 1), x0 above and below K, large t and
// y next to 1. Each float64 form rounds its parameters (K, k, x0) once and
// then a handful of operations; exp amplifies a relative error ε of its
// argument kt by kt, but where kt is large e^{−kt} no longer matters. So a
// few ulp are expected; 16 is the bound (measured: 5.5 for x, 3.3 for y).
// Before x(t) was rewritten without cancellation it was 15 172 ulp off at
// N = 2, n = 10⁶, c = 10, t = 1.
func TestClosedFormsAgainstReference(t *testing.T) {
	t.Parallel()
	worstX, worstY := 0.0, 0.0
	for _, N := range []int{2, 100, 2500, 1000000} {
		for _, p := range [][3]int{{500, 100, 50}, {1000000, 10, 5}, {101, 100, 1}, {200, 100, 99}, {1000000, 999999, 1}, {3, 2, 1}} {
			m, err := NewModel(Config{Nodes: N, Shuffle: gossip.Shuffle{Items: p[0], Cache: p[1], Exchange: p[2]}, PDrop: Simplified, Initial: 1})
			if err != nil {
				t.Fatal(err)
			}
			t.Run(fmt.Sprint(N, p), func(t *testing.T) {
				for _, tt := range []float64{0, 0.5, 1, 10, 100, 1000, 1e4, 1e5, 1e6} {
					x, y, err := m.Reference(tt)
					if err != nil {
						t.Fatal(err)
					}
					ux, uy := ulps(m.X(tt), x), ulps(m.Y(tt), y)
					if ux > 16 || uy > 16 {
						t.Errorf("t = %g: x %v (%.1f ulp), y %v (%.1f ulp)", tt, m.X(tt), ux, m.Y(tt), uy)
					}
					worstX, worstY = math.Max(worstX, ux), math.Max(worstY, uy)
				}
			})
		}
	}
	t.Logf("largest error: x %.1f ulp, y %.1f ulp", worstX, worstY)
}

// The reference itself, against values known in closed form: x(0) = y(0)
// = 1/N, x(∞) = c/n, and for c/n = 1/2, x0 = 1/2 (K = x0) x(t) = 1/2 for
// all t.
func TestReferenceKnownValues(t *testing.T) {
	m, _ := NewModel(Config{Nodes: 4, Shuffle: gossip.Shuffle{Items: 4, Cache: 2, Exchange: 1}, PDrop: Simplified, Initial: 2}) // K = 1/2 = x0
	for _, tt := range []float64{0, 3, 50} {
		x, _, _ := m.Reference(tt)
		if x.Cmp(big.NewFloat(0.5)) != 0 {
			// 256-bit rounding of K/x0 = 1 exactly: no error at all.
			t.Errorf("t = %g: x = %v, want exactly 1/2", tt, x)
		}
	}
	m, _ = NewModel(Config{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, PDrop: Simplified, Initial: 1})
	x, y, _ := m.Reference(0)
	if xf, _ := x.Float64(); xf != 1.0/2500 {
		t.Errorf("x(0) = %v", x)
	}
	if yf, _ := y.Float64(); yf != 1.0/2500 {
		t.Errorf("y(0) = %v", y)
	}
	x, _, _ = m.Reference(1e4)
	if xf, _ := x.Float64(); xf != 0.2 {
		t.Errorf("x(∞) = %v, want c/n = 0.2", x)
	}
	if _, _, err := (Model{Config: Config{PDrop: Gamma}}).Reference(1); err == nil {
		t.Error("the γ variant has no exact parameters, but Reference accepted it")
	}
}

// TestReferenceFarTimes: beyond kt = refFar Reference no longer calls
// bigfloat's Exp on kt (at t = 1e308 that ran for hours). Either side of
// the switch the values must be the same bits: there e^{−kt} < 2^{−1477}
// is below RefPrec bits of what it is added to, so the full formulas round
// to x = K and y = 1 as the far branch states them. Two models: the
// paper's (u = −1.8·kt, y's exponent also far) and one with c/(c−s) near
// 1 and K/x0 large, where u ≈ −(kt − 17) lies just inside −refFar, so
// the far branch still evaluates exp(u).
func TestReferenceFarTimes(t *testing.T) {
	for _, cfg := range []Config{
		{Nodes: 2500, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, PDrop: Simplified, Initial: 1},
		{Nodes: 10_000_000, Shuffle: gossip.Shuffle{Items: 1000, Cache: 1000 - 1, Exchange: 1}, PDrop: Simplified, Initial: 1},
	} {
		t.Run(fmt.Sprintf("N=%d,c=%d", cfg.Nodes, cfg.Shuffle.Cache), func(t *testing.T) {
			m, err := NewModel(cfg)
			if err != nil {
				t.Fatal(err)
			}
			// kt = 1023 and 1025: either side of the switch, both far
			// enough from it that k's float64 rounding cannot matter.
			k := m.Rate()
			below, above := (refFar-1)/k, (refFar+1)/k
			x0, y0, _ := m.Reference(below)
			x1, y1, _ := m.Reference(above)
			if x0.Cmp(x1) != 0 || y0.Cmp(y1) != 0 {
				t.Errorf("across kt = %d: x %v → %v, y %v → %v", refFar, x0, x1, y0, y1)
			}
			x, y, err := m.Reference(1e308)
			if err != nil || x.Cmp(x1) != 0 || y.Cmp(big.NewFloat(1)) != 0 {
				t.Errorf("t = 1e308: x = %v, y = %v, %v; want x = K, y = 1", x, y, err)
			}
		})
	}
}
