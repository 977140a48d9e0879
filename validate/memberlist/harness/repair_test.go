package harness

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"
)

// repairReps replications of the repair's Monte Carlo (about 2 s at
// N = 50): the rarest end states a harness broadcast meets (a broadcast
// that died at its source, about 0.5 %) then have about 500 of them.
const repairReps = 100_000

// TestRepairAgainstHarness runs memberlist with anti-entropy on (each
// node's push–pull state carrying the message it holds, as Serf's carries
// its user events; a node that gets it from a sync does not gossip it, as
// Serf's MergeRemoteState, which hands the events of a push–pull to
// handleUserEvent and ignores its answer, where NotifyMsg re-queues an
// event it has not seen) and compares the share of live nodes still
// lacking the message at RepairPoints with gossipkit's repair model: the
// Monte Carlo of its rules, the broadcast and the syncs on one clock
// (broadcast.SimulateRepair with the gossip interval), and the mean field
// from its end state (broadcast.RepairCurveFrom). No packet loss (the
// harness's streams are not lost); the misses come from the small budget
// (B = 2) and the failed nodes. Ten clusters of 50 broadcasts, about 40 s.
//
// Three checks, each within zLimit standard errors:
//
//  1. The end state: the share lacking the message when every queue is
//     empty (the nodes a sync reached during the spread counted as
//     holding it), against the Monte Carlo's.
//  2. The repair given the end state, at every point: each broadcast's
//     count still lacking against the Monte Carlo's mean over its
//     replications that ended with the same count lacking
//     (RepairSample.ByEnd). The standard error is the larger of the
//     model's (the conditional variances, broadcasts independent, plus
//     the Monte Carlo's own error) and the clusters' (the residuals'
//     cluster means: a cluster's phases and failed set are shared by its
//     broadcasts).
//  3. The unconditional share at 0.25, 0.5 and 1 scaled intervals
//     against the mean field, the tolerance zLimit standard errors (the
//     larger of the Monte Carlo's per-broadcast spread over √n and the
//     clusters') plus the mean field's distance from the Monte Carlo of
//     its rules in this run (its closure error: 0.4–7 % here).
//
// Why not the unconditional share at 1.5 and 2 scaled intervals: it is
// dominated by the rare broadcasts that die at their source (both of its
// two transmits to failed nodes, 4/49·3/48 ≈ 0.5 %), which the repair
// must then reach from one holder: 0.3–0.75 of the live nodes still lack
// it two scaled intervals later, so a run of 300 broadcasts holds about
// 1.5 of them and its mean at 2 scaled intervals is a Poisson count's
// noise. Under the model's own rules (1,000 runs of 300 of its
// broadcasts), 23 % of the runs hold no broadcast that died at its
// source, 11 % give 0.002 or less at 2 scaled intervals (the mean is
// 0.0058) and 12 % lie more than 4 of their own standard errors from the
// mean: the CI run of
// 2026-12-06 that measured 0.00167 ± 0.00017 (no such broadcast) and a
// run of seed 45 that measured 0.0075 (three of them, 78 of its 104
// lacking node-counts) are both draws of that law. Given the end state
// the noise is gone (check 2). Those points are logged.
//
// A broadcast whose end state the Monte Carlo met fewer than MinGroup
// times is left out of check 2 (at most 1 % of them may be; 0–3 of 500 in
// the runs below). Runs of seeds 45–49 (2026-12-06, 28–47 s each on the
// shared 2-core machine) gave conditional z between −2.64 and +1.32 at
// every point (largest |z| 1.27, 0.62, 1.05, 2.64, 1.73 by run), the end
// state within z +1.19.
//
// Power: the same conditional check against the rules without
// memberlist's scaling of the sync interval (syncs every 5 s instead of
// 10 s) must fail at some point.
//
// Before the syncs of the spread were modelled the mean field started
// them at the broadcast's end with uniform phases, which is pessimistic
// where a scaled interval ends: at N = 100, k = 2, B = 3, 10 % down it gave
// 0.0072 lacking at one scaled interval where memberlist measured
// 0.0047–0.0052 (three runs) and the Monte Carlo of the spread gives
// 0.0063; given the end states of a run of 240 broadcasts memberlist's
// 0.00517 was within 0.8 SE of the Monte Carlo's conditional 0.00556.
func TestRepairAgainstHarness(t *testing.T) {
	s := Setting{Nodes: 50, Fanout: 2, RetransmitMult: 1, Failed: 0.1, Clusters: 10, Broadcasts: 50, Seed: 45,
		SyncInterval: 25 * 200 * time.Millisecond}
	runRepair(t, s, 0.5)
}

// runRepair runs the harness at s and makes checkRepair's checks against
// the model with seed s.Seed + 1000 (powerFactor as checkRepair's).
func runRepair(t *testing.T, s Setting, powerFactor float64) {
	t.Helper()
	ctx := context.Background()
	wall := time.Now()
	res, err := Run(ctx, t, s)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("memberlist %s, harness seed %d, model seed %d: %d broadcasts in %.1f s", MemberlistVersion, s.Seed, s.Seed+1000, len(res.Outcomes), time.Since(wall).Seconds())
	checkRepair(ctx, t, res, s.Seed+1000, powerFactor)
}

// checkRepair makes the checks of TestRepairAgainstHarness on a run with
// anti-entropy on (res), the model's Monte Carlo from modelSeed
// (CompareRepair): the end state, the share lacking given each
// broadcast's end state at every point, and the unconditional share up to
// one scaled interval against the mean field, each within zLimit standard
// errors. Power: the rules with the sync interval times powerFactor must
// fail the conditional check at some point.
func checkRepair(ctx context.Context, t *testing.T, res *Result, modelSeed uint64, powerFactor float64) {
	t.Helper()
	s := res.Setting
	cfg := RepairModel(s)
	c, err := CompareRepair(ctx, res, cfg, repairReps, modelSeed)
	if err != nil {
		t.Fatal(err)
	}
	S := c.Scaled
	var ends []float64
	for _, o := range res.Outcomes {
		ends = append(ends, o.End*cfg.Interval)
	}
	// 1. The end state.
	msg := fmt.Sprintf("lacking at the end (the last transmit): memberlist %v, Monte Carlo %v (z %+.2f); mean end memberlist %v s; scaled sync interval %g s", c.End, c.MCEnd, c.EndZ, estimate(ends), S)
	if !(math.Abs(c.EndZ) <= zLimit) {
		t.Error(msg)
	} else {
		t.Log(msg)
	}
	// 2. Given the end state.
	for _, r := range c.Rows {
		if r.Skipped > len(res.Outcomes)/100 {
			t.Fatalf("%d broadcasts ended in states the Monte Carlo met fewer than %d times", r.Skipped, MinGroup)
		}
		msg := fmt.Sprintf("%g scaled intervals: memberlist %v lacking, Monte Carlo %v, mean field %.4g; given the end states memberlist − Monte Carlo = %+.4g ± %.2g (z %+.2f, %d skipped)",
			r.Point, r.Measured, r.MC, r.MeanField, r.Cond.Value, r.Cond.SE, r.Z, r.Skipped)
		if !(math.Abs(r.Z) <= zLimit) {
			t.Error(msg)
		} else {
			t.Log(msg)
		}
	}
	// 3. The unconditional share where the early deaths do not dominate.
	n := float64(len(res.Outcomes))
	for _, r := range c.Rows {
		if r.Point > 1 {
			continue
		}
		se := math.Max(r.Measured.SE, r.MC.SE*math.Sqrt(float64(c.Reps)/n))
		tol := zLimit*se + math.Abs(r.MeanField-r.MC.Value)
		msg := fmt.Sprintf("%g scaled intervals: memberlist %v lacking, mean field %.4g (tolerance %.2g: %g × %.2g + the mean field's distance from the Monte Carlo, %.2g)", r.Point, r.Measured, r.MeanField, tol, float64(zLimit), se, math.Abs(r.MeanField-r.MC.Value))
		if !(math.Abs(r.Measured.Value-r.MeanField) <= tol) {
			t.Error(msg)
		} else {
			t.Log(msg)
		}
	}
	// Power: the rules with the sync interval times powerFactor.
	un := cfg
	un.SyncInterval = cfg.SyncInterval * powerFactor
	pc, err := CompareRepair(ctx, res, un, repairReps, modelSeed+1000)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(pc.Scaled-S*powerFactor) > 1e-9*S {
		t.Fatalf("power check: syncs every %g s, want %g", pc.Scaled, S*powerFactor)
	}
	worst := 0.0
	for _, r := range pc.Rows {
		worst = math.Max(worst, math.Abs(r.Z))
	}
	if !(worst > zLimit) {
		t.Errorf("power: the rules with syncs every %g s are within %g standard errors of memberlist given the end states (largest |z| %.2f)", pc.Scaled, float64(zLimit), worst)
	} else {
		t.Logf("power: with syncs every %g s instead of %g the largest |z| given the end states is %.1f", pc.Scaled, S, worst)
	}
}

// TestRepairUnderLoss runs memberlist with anti-entropy on and 30 % of
// the packets lost, and makes the checks of TestRepairAgainstHarness
// (checkRepair) against the repair model, whose syncs the packet loss
// does not touch: memberlist's push–pull is a stream (TCP), and the
// harness's streams, like TCP's, are not lost (Network). N = 50,
// GossipNodes 2, RetransmitMult 1 (B = 2), no node down, a sync interval
// of 25 gossip intervals (scaled to 10 s), 5 clusters × 40 broadcasts
// (about 25 s on the shared 2-core machine).
//
// Power: the rules with syncs 1.5 times rarer fail the conditional check
// (the rule before, each direction of a sync lost at ε, repaired about as
// slowly at ε = 0.2: its initiator's chance (1 − ε)² = 0.64 and its
// peer's 0.8). Measured at ε = 0.2 and 0.3 over 1,000 broadcasts each
// (docs/MODEL.md §6, Syncs under packet loss): given the end states
// within 0.8 (ε = 0.2) and 1.6 (ε = 0.3) standard errors at every point,
// where the rule before lacked 16–60 standard errors more than memberlist.
func TestRepairUnderLoss(t *testing.T) {
	s := Setting{Nodes: 50, Fanout: 2, RetransmitMult: 1, Loss: 0.3, Clusters: 5, Broadcasts: 40, Seed: 51,
		SyncInterval: 25 * 200 * time.Millisecond}
	runRepair(t, s, 1.5)
}
