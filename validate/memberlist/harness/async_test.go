package harness

import (
	"context"
	"math"
	"testing"
)

// asyncSlack is the part of the time tolerance that is not sampling
// error: 0.1 interval. The standard errors treat the broadcasts as
// independent, but those of one cluster share its tickers' phases, so
// the measured SE understates the spread between clusters; the issue's
// goal for the model is ±0.2 interval.
const asyncSlack = 0.1

// TestAsyncModelTimes runs one setting with the real memberlist and
// checks its times to 50, 99 and 100 % of the live nodes against the
// asynchronous model (AsyncModel): within zLimit standard errors plus
// asyncSlack, for every level at least 30 broadcasts reached. The same
// measured times against the synchronous-rounds model must fail the
// check at every such level: it can tell the clocks apart (the rounds
// model is 1.5–2.3 times memberlist's, docs/memberlist-validation.md).
func TestAsyncModelTimes(t *testing.T) {
	s := Setting{Nodes: 100, Fanout: 3, RetransmitMult: 2, Loss: 0.1, Clusters: 3, Broadcasts: 150, Seed: 44}
	ctx := context.Background()
	res, err := Run(ctx, t, s)
	if err != nil {
		t.Fatal(err)
	}
	checkOutcomes(t, res)
	async, err := Compare(ctx, res, modelReps, s.Seed+1000, AsyncModel(modelReps, s.Seed+2000))
	if err != nil {
		t.Fatal(err)
	}
	rounds, err := Compare(ctx, res, modelReps, s.Seed+1000, RoundsModel(modelReps, s.Seed+2000))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, l := range Levels {
		r, q := async.Row(QTime(l)), rounds.Row(QTime(l))
		if r == nil || r.Reached < 30 {
			continue
		}
		checked++
		tol := func(p Estimate) float64 { return zLimit*math.Hypot(r.Measured.SE, p.SE) + asyncSlack }
		if d := r.Measured.Value - r.Predicted.Value; !(math.Abs(d) <= tol(r.Predicted)) {
			t.Errorf("time to %g %%: memberlist %v, async model %v: off by %+.3f, beyond %.3f", 100*l, r.Measured, r.Predicted, d, tol(r.Predicted))
		} else {
			t.Logf("time to %g %%: memberlist %v (%d reached), async model %v: %+.3f (tolerance %.3f)", 100*l, r.Measured, r.Reached, r.Predicted, d, tol(r.Predicted))
		}
		if math.Abs(q.Measured.Value-q.Predicted.Value) <= tol(q.Predicted) {
			t.Errorf("time to %g %%: the rounds model's %v is within the tolerance of memberlist's %v: the check cannot tell the clocks", 100*l, q.Predicted, q.Measured)
		}
	}
	if checked == 0 {
		t.Fatal("no level reached by 30 broadcasts")
	}
}
