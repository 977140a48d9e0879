package broadcast

import (
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"
)

// answerAlloc returns the bytes Answer allocates for l (runtime.MemStats'
// TotalAlloc around one call) and the answer.
func answerAlloc(l *Law, cfg Config) (uint64, Answer) {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	a := l.Answer(cfg)
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc, a
}

// sparseLaw is a law of n rounds with its mass on rounds 3 and n − 1: a
// computed law (Bound 1e-9), a Monte Carlo law of 10,000 replications, or
// a law that states no accuracy.
func sparseLaw(kind string, n int) *Law {
	pmf := make([]float64, n)
	pmf[3], pmf[n-1] = 0.9991, 0.0009
	acc := NoAccuracy()
	l := &Law{PMF: pmf, Accuracy: acc}
	switch kind {
	case "computed":
		l.Accuracy.Bound = 1e-9
	case "mc":
		l.Reps = 10000
	case "no accuracy":
		pmf[3], pmf[n-1] = 0.5, 0.5 // the CDF lists every round from 3
	}
	return l.noDeadline()
}

// TestAnswerSparseLawMemory: Answer's memory on a law of 2^22 rounds (2^16
// with -short) with mass on two rounds is bounded by the rounds with mass
// and the CDF's listed range, not the PMF's length. Measured before (the
// dense curves and bands): 24 bytes a round (100.7 MB at 2^22) for the
// computed and Monte Carlo laws; for the law without accuracy, whose CDF
// lists every round, 109 bytes a round and 11.5 s at 2^16 (the CDF summed
// from round 0 at every round). After: 240 bytes and 5.6 kB in all; the
// law without accuracy 16.1 bytes a round (its listed CDF, 16 a round) in
// 0.03 s. Bounds: 64 kB plus 16 bytes a listed round plus 64 a round
// with mass.
func TestAnswerSparseLawMemory(t *testing.T) {
	n := 1 << 16
	if !testing.Short() {
		n = 1 << 22
	}
	cfg := Config{Deadline: 100, Confidence: 0.99}
	for _, kind := range []string{"computed", "mc", "no accuracy"} {
		l := sparseLaw(kind, n)
		b, a := answerAlloc(l, cfg)
		t.Logf("%s, %d rounds: %d bytes (%.2f a round), CDF of %d rounds", kind, n, b, float64(b)/float64(n), len(a.CDF))
		if limit := 64<<10 + 16*len(a.CDF) + 64*2; b > uint64(limit) {
			t.Errorf("%s, %d rounds: Answer allocated %d bytes, want ≤ %d (its listed CDF of %d rounds and 2 rounds with mass)", kind, n, b, limit, len(a.CDF))
		}
		if a.Q05 != 3 || a.Spread[0] != [2]float64{3, 3} {
			t.Errorf("%s: Q05 %v, spread %v; want 3, [3 3]", kind, a.Q05, a.Spread[0])
		}
	}
}

// TestDistributionSparseMatchesDense: Distribution and spread, which work
// on the rounds with mass, give the bits the dense computation (every
// round; the code they replaced, kept here as the reference) gives, on
// random laws of up to 300 rounds, most of them 0: computed (Bound, some
// mass missing or Never), without accuracy, and Monte Carlo.
func TestDistributionSparseMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 1))
	for i := range 3000 {
		n := 1 + rng.IntN(300)
		pmf := make([]float64, n)
		for r := range pmf {
			if rng.Float64() < 0.15 {
				pmf[r] = rng.Float64()
			}
		}
		if rng.IntN(4) == 0 {
			pmf[0] = 0
		}
		kind := i % 3
		var tot float64
		for _, p := range pmf {
			tot += p
		}
		l := &Law{PMF: pmf, Accuracy: NoAccuracy()}
		keep := 1.0 - 0.3*rng.Float64()*float64(rng.IntN(2))
		for r := range pmf {
			if tot > 0 {
				pmf[r] *= keep / tot
			}
		}
		switch kind {
		case 0:
			l.Accuracy.Bound = []float64{0, 1e-9, 1e-3, 0.05}[rng.IntN(4)]
			l.Never = (1 - keep) * rng.Float64()
		case 2:
			R := 1 + rng.IntN(5000)
			l.Reps = R
			// Shares of counts, as a Monte Carlo's are.
			left := R
			for r := range pmf {
				c := int(math.Round(pmf[r] * float64(R)))
				c = min(c, left)
				left -= c
				pmf[r] = float64(c) / float64(R)
			}
			l.Never = float64(left) / float64(R)
		}
		l.noDeadline()
		cfg := Config{Confidence: []float64{0.5, 0.9, 0.99, 0.999999}[rng.IntN(4)]}
		a := l.Answer(cfg)
		if want := refDistribution(l); !reflect.DeepEqual(bitsOf(a.CDF), bitsOf(want)) {
			t.Fatalf("law %d (%d rounds, kind %d): CDF %v, dense %v", i, n, kind, a.CDF, want)
		}
		if want := refSpread(l, a, cfg.ConfidenceOrDefault()); !reflect.DeepEqual(spreadBits(a.Spread), spreadBits(want)) {
			t.Fatalf("law %d (%d rounds, kind %d): spread %v, dense %v", i, n, kind, a.Spread, want)
		}
		for _, p := range []float64{0, 1e-9, 0.05, 0.5, 0.95, 1} {
			if got, want := l.quantile(p), refQuantile(l, p); math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("law %d: quantile(%v) = %v, dense %v", i, p, got, want)
			}
		}
	}
}

func bitsOf(c [][2]float64) [][2]uint64 {
	if c == nil {
		return nil
	}
	out := make([][2]uint64, len(c))
	for i, v := range c {
		out[i] = [2]uint64{math.Float64bits(v[0]), math.Float64bits(v[1])}
	}
	return out
}

func spreadBits(s [6][2]float64) (out [6][2]uint64) {
	for i, v := range s {
		out[i] = [2]uint64{math.Float64bits(v[0]), math.Float64bits(v[1])}
	}
	return out
}

// The dense reference: Distribution, bands, spread and quantile as they
// were before they skipped the rounds without mass (commit 58a889e).

func refDistribution(l *Law) [][2]float64 {
	if l == nil || len(l.PMF) == 0 {
		return nil
	}
	var p []float64
	if l.curveLate != nil {
		p = make([]float64, len(l.curveLate))
		for t, iv := range l.curveLate {
			p[t] = 1 - iv.v
		}
	} else {
		n := len(l.PMF)
		p = make([]float64, n)
		if pl, _ := l.late(0); l.Reps > 0 {
			R, on := float64(l.Reps), 0
			for t, q := range l.PMF {
				on += int(math.Round(q * R))
				p[t] = 1 - float64(l.Reps-on)/R
			}
		} else if math.IsNaN(pl) {
			for t := range p {
				p[t] = l.CDF(float64(t))
			}
		} else {
			tot := l.Never
			for _, q := range l.PMF {
				tot += q
			}
			suffix := l.Never
			for t := n - 1; t >= 0; t-- {
				x := suffix
				if tot < 1 {
					x += 1 - tot
				}
				p[t] = 1 - min(x, 1)
				suffix += l.PMF[t]
			}
		}
	}
	var out [][2]float64
	for t, v := range p {
		if v > 0.001 || len(out) > 0 {
			out = append(out, [2]float64{float64(t), v})
		}
		if v > 0.999 {
			break
		}
	}
	return out
}

func refSpread(l *Law, a Answer, conf float64) [6][2]float64 {
	lo, hi := make([]float64, len(l.PMF)), make([]float64, len(l.PMF))
	abs, R := l.floor(), float64(l.Reps)
	on, c := 0, 0.0
	for t, p := range l.PMF {
		if l.Reps > 0 {
			on += int(math.Round(p * R))
			iv := wilson(on, l.Reps)
			lo[t], hi[t] = iv.lo, iv.hi
			continue
		}
		c = math.Min(c+p, 1)
		lo[t], hi[t] = math.Max(c-abs, 0), math.Min(c+abs, 1)
	}
	var out [6][2]float64
	vals := []float64{a.Q05, a.Q25, a.Q50, a.Q75, a.Q95, a.TConfidence}
	levels := []float64{0.05 * a.PReach, 0.25 * a.PReach, 0.5 * a.PReach, 0.75 * a.PReach, 0.95 * a.PReach, conf}
	for i, v := range vals {
		out[i] = [2]float64{math.NaN(), math.NaN()}
		if math.IsNaN(v) {
			continue
		}
		p := levels[i] * (1 - 1e-12)
		first := func(x []float64) float64 {
			for t, y := range x {
				if y >= p {
					return float64(t)
				}
			}
			return math.NaN()
		}
		out[i][0], out[i][1] = math.Min(first(hi), v), first(lo)
		if !math.IsNaN(out[i][1]) {
			out[i][1] = math.Max(out[i][1], v)
		}
	}
	return out
}

func refQuantile(l *Law, p float64) float64 {
	s := 0.0
	for r, q := range l.PMF {
		s += q
		if s >= p*(1-1e-12) {
			return float64(r)
		}
	}
	return math.NaN()
}
