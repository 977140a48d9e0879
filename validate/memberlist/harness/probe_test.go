package harness

import (
	"context"
	"math"
	"testing"
	"time"
)

// TestProbePiggyback runs one setting with probing off and on
// (ProbeInterval 1 s, gossip every 200 ms): memberlist piggybacks queued
// broadcasts on its pings and acks (sendMsg), which draw on the same
// retransmit limit, so every informed node still makes exactly B
// transmits and the residue does not move (within zLimit standard errors
// of the difference), while the time to 50 % falls: by more than zLimit
// standard errors of the difference. Measured over 2,000 broadcasts each
// (docs/MODEL.md §6, Probing): 1.435 ± 0.008 intervals off, 1.274 ± 0.008
// on; here 2 × 300 broadcasts give a standard error of the difference of
// about 0.03, so the expected fall is about 5 of them. N = 50, k = 3,
// RetransmitMult 2 (B = 4), no loss; about 4 s.
func TestProbePiggyback(t *testing.T) {
	ctx := context.Background()
	base := Setting{Nodes: 50, Fanout: 3, RetransmitMult: 2, Clusters: 2, Broadcasts: 300, Seed: 61}
	var res [2]*Result
	for i, p := range []time.Duration{0, time.Second} {
		s := base
		s.ProbeInterval = p
		r, err := Run(ctx, t, s)
		if err != nil {
			t.Fatal(err)
		}
		checkOutcomes(t, r)
		B := int64(s.Budget())
		for j, o := range r.Outcomes {
			if o.Transmits != B*int64(o.Informed) {
				t.Fatalf("probing %v, broadcast %d: %d transmits by %d informed nodes, want %d each", p, j, o.Transmits, o.Informed, B)
			}
		}
		res[i] = r
	}
	mean := func(r *Result, f func(Outcome) float64) Estimate {
		var x []float64
		for _, o := range r.Outcomes {
			x = append(x, f(o))
		}
		return estimate(x)
	}
	resid := func(o Outcome) float64 { return float64(o.Live-o.Informed) / float64(o.Live) }
	t50 := func(o Outcome) float64 { return o.Times[0] }
	ro, rn := mean(res[0], resid), mean(res[1], resid)
	if zr := z(rn, ro); !(math.Abs(zr) <= zLimit) {
		t.Errorf("residue: probing off %v, on %v (z %+.2f)", ro, rn, zr)
	} else {
		t.Logf("residue: probing off %v, on %v (z %+.2f)", ro, rn, zr)
	}
	to, tn := mean(res[0], t50), mean(res[1], t50)
	if zt := z(tn, to); !(zt < -zLimit) {
		t.Errorf("time to 50 %%: probing off %v, on %v (z %+.2f): the piggybacked copies did not shorten it", to, tn, zt)
	} else {
		t.Logf("time to 50 %%: probing off %v, on %v (z %+.2f); packets off %d, on %d", to, tn, zt, res[0].Packets, res[1].Packets)
	}
}
