package lumped

import (
	"context"
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/broadcast/internal/pmf"
	"github.com/gossipkit/gossipkit/internal/rng"
	"github.com/gossipkit/gossipkit/internal/stats"
)

// TestLumpedTiltedStart checks the tilted start (is.go) against
// the model's own plain runs, an independent estimator of the same means:
// at N = 2,000, push–pull, k 1, B 15, D 11 (the chance a node is still
// uninformed is about 4·10⁻⁸ and that some node is 9·10⁻⁵ by the exact
// chain, TestLumpedPushPullTail; 200,000 plain runs state them within a
// few per cent) the weighted values of 20,000 tilted runs
// must agree with the plain mean within 4 standard errors of the
// difference, for both chances; and the tilt must pay: its relative
// variance below the plain runs'. P(d | i) must sum to 1 (its windows drop
// terms below 10⁻²⁵ of their modes).
func TestLumpedTiltedStart(t *testing.T) {
	ctx := context.Background()
	// broadcast.Config{Nodes: 2000, Protocol: PushPull, Fanout: 1,
	// Budget: 15, Level: 1, Deadline: 11}: M = 2,000 live, R = ⌈15/1⌉,
	// the target ⌈1·2,000⌉, D = 11 rounds.
	m := New(Params{M: 2000, N1: 1999, K: 1, R: 15, Budget: 15, Target: 2000, D: 11, Eps: 0, Z: 3, Pulls: true})
	for _, i := range []int{1, 7, 300} {
		tp := m.Transition(i)
		s := 0.0
		for _, p := range tp.p {
			s += p
		}
		if math.Abs(s-1) > 1e-12 {
			t.Errorf("P(d | %d) sums to 1 %+.2g", i, s-1)
		}
	}
	_, pl, pr, err := m.IsRuns(ctx, 77, 0, 200_000, 0)
	if err != nil {
		t.Fatal(err)
	}
	paths, l, r, err := m.IsRuns(ctx, isSeed, 0, isPilot, 8)
	if err != nil {
		t.Fatal(err)
	}
	is := FitIS(paths, l, r, 8)
	if is == nil {
		t.Fatal("no tilt fitted")
	}
	mm := *m
	mm.IS = is
	_, tl, tr, err := mm.IsRuns(ctx, isSeed, isPilot, 20_000, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name         string
		plain, tilts []float64
	}{{"residue_deadline", pr, tr}, {"p_late", pl, tl}} {
		p, sp := stats.MeanSE(c.plain)
		q, sq := stats.MeanSE(c.tilts)
		z := (q - p) / math.Hypot(sp, sq)
		rp, rq := float64(len(c.plain))*(sp/p)*(sp/p), float64(len(c.tilts))*(sq/q)*(sq/q)
		t.Logf("%s: plain %.5g ± %.2g, tilted %.5g ± %.2g (z %+.2f); relative variance %.3g plain, %.3g tilted (rounds %d, slopes %.3g)", c.name, p, sp, q, sq, z, rp, rq, is.rounds, is.b)
		if math.Abs(z) > 4 {
			t.Errorf("%s: tilted %.5g and plain %.5g are %.1f standard errors apart", c.name, q, p, z)
		}
		if !(rq < rp) {
			t.Errorf("%s: the tilt does not pay (relative variance %.3g against %.3g)", c.name, rq, rp)
		}
	}
}

// TestTiltedDraw checks tiltedDraw's weighted counts against the law of
// the same round computed by Transition (the pulled binomial, then
// pushLaw's, summed over every pulled count, not drawn): from i informed,
// every one a fresh sender, the weighted share of the draws at or below
// each count x must be P(d ≤ x) within 4 standard errors, the weights must
// average 1 within 4 standard errors, and at a count whose chance is
// 10⁻⁶–10⁻⁵ the tilted draws' standard error must be at most a fifth of
// what as many plain draws (60,000, which expect to see it once or less)
// would have: 14 and 15 times smaller on 2026-12-07.
func TestTiltedDraw(t *testing.T) {
	// Push–pull at M 12,000, k 1, B 4: from 20 informed and from 150.
	m := New(Params{M: 12000, N1: 11999, K: 1, R: 4, Budget: 4, Target: 12000, D: 14, Eps: 0, Z: 3, Pulls: true})
	for _, i := range []int{20, 150} {
		tp := m.Transition(i)
		cdf := make([]float64, len(tp.p))
		c := 0.0
		for x, p := range tp.p {
			c += p
			cdf[x] = c
		}
		rare := 0 // the largest count of chance at most 1e-5 at or below it
		for x := range cdf {
			if cdf[x] <= 1e-5 {
				rare = x
			}
		}
		if cdf[rare] > 1e-5 || cdf[rare] < 1e-6 {
			t.Fatalf("i %d: no count near the 1e-5 quantile (P(d ≤ %d) = %g)", i, tp.lo+rare, cdf[rare])
		}
		const n = 60_000
		hh := pmf.PullMiss(nil, i, m.k, m.n1, m.eps)
		var out runOut
		r := rng.NewStream(5, uint64(i))
		ds, ws := make([]float64, n), make([]float64, n)
		for j := range n {
			ds[j], ws[j] = m.tiltedDraw(r, float64(m.M-i), float64(i), 0, hh, &out)
		}
		xs := make([]float64, n)
		mean := func(f func(d, w float64) float64) (v, se float64) {
			for j := range n {
				xs[j] = f(ds[j], ws[j])
			}
			return stats.MeanSE(xs)
		}
		if w, se := mean(func(_, w float64) float64 { return w }); math.Abs(w-1) > 4*se {
			t.Errorf("i %d: mean weight %.5f ± %.2g, want 1", i, w, se)
		}
		for _, x := range []int{rare, len(cdf) / 4, len(cdf) / 2, 3 * len(cdf) / 4} {
			v, se := mean(func(d, w float64) float64 {
				if int(d)-tp.lo <= x {
					return w
				}
				return 0
			})
			t.Logf("i %d: P(d ≤ %d) %.4g, tilted %.4g ± %.2g", i, tp.lo+x, cdf[x], v, se)
			if math.Abs(v-cdf[x]) > 4*se {
				t.Errorf("i %d: P(d ≤ %d) = %.5g, the tilted draws %.5g ± %.2g", i, tp.lo+x, cdf[x], v, se)
			}
			// Plain draws' standard error there: √(P(1 − P)/n).
			if plain := math.Sqrt(cdf[x] * (1 - cdf[x]) / n); x == rare && !(se <= plain/5) {
				t.Errorf("i %d: the tilted draws state P(d ≤ %d) = %.3g with a standard error %.2g, want at most a fifth of plain draws' %.2g", i, tp.lo+x, cdf[x], se, plain)
			}
		}
	}
}

// TestStartTilted checks startTiltRuns (runs from the source whose first
// rounds are drawn toward small counts, weighted) against plain runs of
// the same model where the budget is spent in one round (R = 1), so that
// neither the fitted tilt nor DeadlineLaw applies: push–pull at N 12,000,
// k 3, B 3, D 7, P(T_L > D) about 1.0·10⁻³ and a node uninformed at D
// about 9.2·10⁻⁸. The two estimates must agree within 4 standard errors
// (combined), and the tilted runs' relative variance must be at least 4
// times smaller (measured 7 and 9 times: 106 and 154 a plain run, 15 and
// 17 tilted).
func TestStartTilted(t *testing.T) {
	ctx := context.Background()
	m := New(Params{M: 12000, N1: 11999, K: 3, R: 1, Budget: 3, Target: 12000, D: 7, Z: 3, Pulls: true})
	var s Sums
	n, err := m.addRuns(ctx, 0, 192_000, &s)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := m.startTiltRuns(ctx, 0, 40_000)
	if err != nil {
		t.Fatal(err)
	}
	pl, pr := s.Deadline()
	tl, tr := ts.Deadline()
	for _, c := range []struct {
		name         string
		plain, tilt  Est
		nPlain, nTil float64
	}{{"P(T_L > D)", pl, tl, float64(n), ts.N}, {"resD", pr, tr, float64(n), ts.N}} {
		rp, rt := estRelVar(c.plain, c.nPlain), estRelVar(c.tilt, c.nTil)
		z := (c.tilt.V - c.plain.V) / math.Hypot(c.tilt.SE, c.plain.SE)
		t.Logf("%s: plain %.5g ± %.2g (relvar %.3g), tilted %.5g ± %.2g (relvar %.3g): z %.2f", c.name, c.plain.V, c.plain.SE, rp, c.tilt.V, c.tilt.SE, rt, z)
		if !(math.Abs(z) <= 4) {
			t.Errorf("%s: tilted %.5g and plain %.5g are %.1f standard errors apart", c.name, c.tilt.V, c.plain.V, z)
		}
		if !(4*rt <= rp) {
			t.Errorf("%s: tilted relative variance %.3g, plain %.3g: want at least 4 times smaller", c.name, rt, rp)
		}
	}
}
