package harness

import (
	"context"
	"math"
	"testing"
)

// zLimit is the claimed rows' tolerance: |z| ≤ 4. Each setting makes 3
// claims and the suite 3 settings, so if memberlist follows the model a
// false alarm has probability about 9·P(|Z| > 4) = 9·6.3e-5 ≈ 6e-4 a run
// (the Normal approximation of means over 600 broadcasts and 20,000 model
// replications). memberlist draws its peers from its own source, so the
// verdict is reproducible in law, not bit for bit; the seeds of the
// harness's own draws are in the settings and logged.
const zLimit = 4

// modelReps replications of the model: its SE is √(600/20000) ≈ 0.17 of
// the harness's.
const modelReps = 20000

// The settings of the suite, each 3 clusters × 200 broadcasts (2–5 s of
// CPU each), chosen so that every claimed quantity is informative:
// residue and transmits far from 0 and 1 (rows a, b), p_miss near 0.6
// (row c: N = 50, B = 4 without loss gives λ = 4, s ≈ 0.020, M·s ≈ 1).
var suite = []struct {
	name string
	s    Setting
}{
	{"a N100 k3 B3 loss0.2 failed0.1", Setting{Nodes: 100, Fanout: 3, RetransmitMult: 1, Loss: 0.2, Failed: 0.1, Clusters: 3, Broadcasts: 200, Seed: 41}},
	{"b N60 k2 B4 loss0.3 failed0.05", Setting{Nodes: 60, Fanout: 2, RetransmitMult: 2, Loss: 0.3, Failed: 0.05, Clusters: 3, Broadcasts: 200, Seed: 42}},
	{"c N50 k3 B4", Setting{Nodes: 50, Fanout: 3, RetransmitMult: 2, Clusters: 3, Broadcasts: 200, Seed: 43}},
}

// TestAgainstModel runs each setting of the suite with the real memberlist
// and checks who gets the message and what it costs against the model:
// the residue, p_miss and transmits per live node within zLimit standard
// errors, and every informed node's transmits equal to the budget (the
// rule the model counts). Times are logged against the rounds model, not
// judged (the model is synchronous; the library is not). The same run
// against the model with the budget one lower must fail the claims:
// the check can tell.
func TestAgainstModel(t *testing.T) {
	for _, tc := range suite {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := tc.s
			t.Logf("seed %d, model seed %d", s.Seed, s.Seed+1000)
			res, err := Run(context.Background(), t, s)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(res.Outcomes), s.ClustersOrDefault()*s.Broadcasts; got != want {
				t.Fatalf("%d outcomes, want %d", got, want)
			}
			checkOutcomes(t, res)
			ctx := context.Background()
			c, err := Compare(ctx, res, modelReps, s.Seed+1000, RoundsModel(modelReps, s.Seed+2000))
			if err != nil {
				t.Fatal(err)
			}
			if lo, hi := c.TransmitsPerInformed[0], c.TransmitsPerInformed[1]; lo != float64(c.Budget) || hi != float64(c.Budget) {
				t.Errorf("transmits per informed node %g–%g, want exactly the budget %d", lo, hi, c.Budget)
			}
			for _, r := range c.Rows {
				if r.Claim {
					if !(math.Abs(r.Z) <= zLimit) {
						t.Errorf("%s: memberlist %v, model %v: z = %.2f, beyond ±%d", r.Quantity, r.Measured, r.Predicted, r.Z, zLimit)
					} else {
						t.Logf("%s: memberlist %v, model %v: z = %+.2f", r.Quantity, r.Measured, r.Predicted, r.Z)
					}
				} else {
					t.Logf("%s: memberlist %v (sd %.3g, %d reached), %s %v, ratio %.2f", r.Quantity, r.Measured, r.SD, r.Reached, c.TimeModel, r.Predicted, r.Ratio)
				}
			}
			// Power: the same check rejects the model with the budget one
			// lower.
			cfg := s.Model(1)
			cfg.Budget--
			resid, _, err := modelEnd(ctx, cfg, modelReps, s.Seed+3000)
			if err != nil {
				t.Fatal(err)
			}
			r := c.Row(QResidue)
			m := r.Measured
			_, _, sd := meanSE(resid)
			m.SE = max(m.SE, sd/math.Sqrt(float64(c.Broadcasts)))
			if zw := z(m, estimate(resid)); !(math.Abs(zw) > zLimit) {
				t.Errorf("memberlist's residue %v is within %.2f SE of the model's at budget %d, %v: the check cannot tell the budget", r.Measured, zw, cfg.Budget, estimate(resid))
			} else {
				t.Logf("power: the model at budget %d has residue %v, z = %+.1f", cfg.Budget, estimate(resid), zw)
			}
		})
	}
}

// checkOutcomes checks each broadcast's own consistency: the informed
// count in 1..M, the times increasing with the level, and a time present
// exactly when the informed count reaches the level's target.
func checkOutcomes(t *testing.T, res *Result) {
	t.Helper()
	for i, o := range res.Outcomes {
		if o.Informed < 1 || o.Informed > o.Live {
			t.Fatalf("broadcast %d: %d informed of %d live", i, o.Informed, o.Live)
		}
		prev := 0.0
		for j, l := range Levels {
			reached := o.Informed >= res.Setting.Model(l).Target()
			if reached != (o.Times[j] >= 0) {
				t.Fatalf("broadcast %d: level %g reached = %v, time %g", i, l, reached, o.Times[j])
			}
			if reached {
				if o.Times[j] < prev {
					t.Fatalf("broadcast %d: time to %g %% = %g before the previous level's %g", i, 100*l, o.Times[j], prev)
				}
				prev = o.Times[j]
			}
		}
	}
}
