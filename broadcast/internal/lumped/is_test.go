package lumped

import (
	"context"
	"math"
	"testing"

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
