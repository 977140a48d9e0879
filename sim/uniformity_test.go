package sim

import (
	"context"
	"errors"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/rng"
)

// The zero-truncated binomial at N = 2 by hand: P(K = 1) = 2π(1−π)/z,
// P(K = 2) = π²/z, z = 1 − (1−π)² = 2π − π², so the mean is
// (2π(1−π) + 2π²)/z = 2/(2 − π). A mean of 1.5 gives π = 2/3, and then
// z = 8/9, P(1) = (4/9)/(8/9) = 1/2, P(2) = 1/2, variance 1/4.
func TestTruncatedBinomialByHand(t *testing.T) {
	pi, ok := truncatedPi(1.5, 2)
	// 1e-14: π comes from a bisection run to adjacent floats on m(π) (expm1/log1p, a few ulp; m' = 9/8 at 2/3), so π is within ~1e-15 of 2/3, and the pmf and variance are a few operations on it.
	if !ok || math.Abs(pi-2.0/3) > 1e-14 {
		t.Fatalf("π = %v (%v), want 2/3", pi, ok)
	}
	pmf, v := truncatedPMF(2, pi, 1, 2)
	// 1e-14: as for π above.
	if math.Abs(pmf[0]-0.5) > 1e-14 || math.Abs(pmf[1]-0.5) > 1e-14 || math.Abs(v-0.25) > 1e-14 {
		t.Errorf("pmf %v, variance %v; want [1/2 1/2] and 1/4", pmf, v)
	}
	for _, kbar := range []float64{1, 2, 0.5, math.NaN()} { // no spread, or impossible
		if _, ok := truncatedPi(kbar, 2); ok {
			t.Errorf("mean %v accepted at N = 2", kbar)
		}
	}
}

// binomialCounts draws n counts from Bin(N, π) (sums of Bernoulli draws).
func binomialCounts(r *rng.Rand, n, N int, pi float64) []int32 {
	c := make([]int32, n)
	for i := range c {
		for range N {
			if r.Float64() < pi {
				c[i]++
			}
		}
	}
	return c
}

// TestCountStatsOnBinomialCounts: counts drawn exactly from Bin(N, π),
// the dead (zero) ones left out as the study does, must give a variance
// ratio of 1 and uniform p-values. 300 snapshots of 400 items; the mean
// ratio within 4 standard errors of 1 (the snapshots independent), and the
// p-values' Kolmogorov distance to the uniform law below 1.95/√300 (its
// 0.1 % critical value). N·π = 20 (truncation invisible) and N·π = 2
// (12 % of the items dead: the truncated law matters; the untruncated
// variance would give a ratio of about 0.8). Seed 5.
func TestCountStatsOnBinomialCounts(t *testing.T) {
	for _, tc := range []struct {
		N  int
		pi float64
	}{{200, 0.1}, {20, 0.1}} {
		r := rng.NewStream(5, uint64(tc.N))
		const snaps = 300
		ratios, ps := make([]float64, snaps), make([]float64, snaps)
		for i := range snaps {
			s := countStats(binomialCounts(r, 400, tc.N, tc.pi), tc.N, nil)
			ratios[i], ps[i] = s.ratio, chiSurvival(s.chi, s.df)
		}
		m, sd := meanSD(ratios)
		se := sd / math.Sqrt(snaps)
		slices.Sort(ps)
		ks := 0.0
		for i, p := range ps {
			ks = math.Max(ks, math.Max(math.Abs(float64(i+1)/snaps-p), math.Abs(p-float64(i)/snaps)))
		}
		t.Logf("N=%d π=%g: ratio %.4f ± %.4f, KS distance of the p-values %.4f", tc.N, tc.pi, m, se, ks)
		if math.Abs(m-1) > 4*se {
			t.Errorf("N=%d π=%g: variance ratio %.4f ± %.4f on binomial counts", tc.N, tc.pi, m, se)
		}
		if ks > 1.95/math.Sqrt(snaps) {
			t.Errorf("N=%d π=%g: p-values not uniform (KS distance %.3f)", tc.N, tc.pi, ks)
		}
	}
}

// TestCountStatsRejects: counts that are not binomial are rejected. Too
// regular: every count N·π or N·π + 1 (variance ≤ 1/4 against N·π(1−π) =
// 18). Overdispersed: half the items from Bin(N, π/2) and half from
// Bin(N, 3π/2) (variance 18 + (N·π/2)² = 118 against ≈ 18). Both at
// N = 200, π = 0.1, 400 items, one snapshot.
func TestCountStatsRejects(t *testing.T) {
	r := rng.NewStream(6, 0)
	regular := make([]int32, 400)
	for i := range regular {
		regular[i] = 20 + int32(i%2)
	}
	over := append(binomialCounts(r, 200, 200, 0.05), binomialCounts(r, 200, 200, 0.15)...)
	for _, tc := range []struct {
		name   string
		counts []int32
		lo, hi float64 // where the ratio must lie
	}{{"too regular", regular, 0, 0.05}, {"overdispersed", over, 4, 9}} {
		s := countStats(tc.counts, 200, nil)
		p := chiSurvival(s.chi, s.df)
		t.Logf("%s: ratio %.3f, χ² %.1f on %d df, p = %.3g", tc.name, s.ratio, s.chi, s.df, p)
		if !(s.ratio >= tc.lo && s.ratio <= tc.hi) || !(p < 1e-6) {
			t.Errorf("%s: ratio %.3f (want %g..%g), p = %.3g (want < 1e-6)", tc.name, s.ratio, tc.lo, tc.hi, p)
		}
	}
}

func smallUniformity() UniformityConfig {
	return UniformityConfig{Nodes: 200, Shuffle: gossip.Shuffle{Items: 60, Cache: 12, Exchange: 5},
		Warmup: 50, Snapshots: 3, Spacing: 20, Reps: 4, Seed: 3}
}

// TestUniformitySmallRun: a small real run is deterministic across
// workers; its histogram holds every alive item of every snapshot; the
// lossless run keeps all n items alive (N·c = 2400 copies of 60 items,
// none can die), the lossy one at N = 6 does not; descriptors set n = N.
func TestUniformitySmallRun(t *testing.T) {
	cfg := smallUniformity()
	a, err := Uniformity(context.Background(), cfg, UniformitySettings{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Uniformity(context.Background(), cfg, UniformitySettings{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the result depends on the workers")
	}
	t.Logf("N=200 n=60 c=12 s=5: ratio %.3f ± %.3f, p %.3g, first p %.3g, Fisher %.3g, lag-1 corr %.3f", a.VarRatio, a.VarRatioSE, a.PValue, a.FirstPValue, a.FisherP, a.Lag1Corr)
	if a.Alive != 60 || !(a.VarRatio > 0) || !(a.VarRatioSE > 0) || a.DF <= 0 || len(a.Histogram) == 0 {
		t.Errorf("implausible result %+v", a)
	}
	var items int64
	for _, h := range a.Histogram {
		items += h.Observed
	}
	if want := int64(60 * cfg.Snapshots * cfg.Reps); items != want {
		t.Errorf("histogram holds %d items, want %d", items, want)
	}
	cfg.Nodes, cfg.Loss = 6, 0.3
	l, err := Uniformity(context.Background(), cfg, UniformitySettings{})
	if err != nil {
		t.Fatal(err)
	}
	if !(l.Alive < 60) {
		t.Errorf("ε = 0.3 at N = 6: %v items alive, want deaths", l.Alive)
	}
	d := smallUniformity()
	d.Descriptors, d.Shuffle.Items, d.Nodes = true, 0, 100
	res, err := Uniformity(context.Background(), d, UniformitySettings{Workers: 2})
	if err != nil || res.Items != 100 || res.Alive != 100 {
		t.Errorf("descriptors: %v, items %d alive %v", err, res.Items, res.Alive)
	}
}

func TestUniformityRefuses(t *testing.T) {
	for _, tc := range []struct {
		field string
		edit  func(c *UniformityConfig)
	}{
		{"UniformityConfig.Nodes", func(c *UniformityConfig) { c.Nodes = 1 }},
		{"UniformityConfig.Shuffle.Exchange", func(c *UniformityConfig) { c.Shuffle.Exchange = 13 }},
		{"UniformityConfig.Snapshots", func(c *UniformityConfig) { c.Snapshots = 0 }},
		{"UniformityConfig.Spacing", func(c *UniformityConfig) { c.Spacing = 0 }},
		{"UniformityConfig.Reps", func(c *UniformityConfig) { c.Reps = 0 }},
		{"UniformityConfig.Loss", func(c *UniformityConfig) { c.Loss = math.NaN() }},
		{"UniformityConfig.Shuffle.Items", func(c *UniformityConfig) { c.Descriptors = true }},
		{"UniformityConfig.Topology", func(c *UniformityConfig) { c.Topology = Topology{Kind: Regular, Degree: 3}; c.Nodes = 201 }},
	} {
		t.Run(tc.field, func(t *testing.T) {
			cfg := smallUniformity()
			tc.edit(&cfg)
			_, err := Uniformity(context.Background(), cfg, UniformitySettings{})
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || fe.Pkg != "sim" {
				t.Errorf("err = %v, want a field error on %s", err, tc.field)
			}
		})
	}
	//lint:ignore SA1012 a nil context is what is tested
	if _, err := Uniformity(nil, smallUniformity(), UniformitySettings{}); err == nil {
		t.Error("nil context accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Uniformity(ctx, smallUniformity(), UniformitySettings{}); err != context.Canceled {
		t.Errorf("cancelled: err = %v", err)
	}
	if _, err := Uniformity(context.Background(), smallUniformity(), UniformitySettings{Workers: -1}); err == nil {
		t.Error("Workers = -1 accepted")
	}
}
