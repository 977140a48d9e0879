package harness

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/gossipkit/gossipkit/broadcast"
)

// repairReps replications of the repair's Monte Carlo (about 2 s at
// N = 50): the rarest end states a harness broadcast meets (a broadcast
// that died at its source, about 0.5 %) then have about 500 of them.
const repairReps = 100_000

// minGroup is the fewest Monte Carlo replications with a broadcast's end
// state for its conditional law to be used (RepairSample.ByEnd).
const minGroup = 30

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
// A broadcast whose end state the Monte Carlo met fewer than minGroup
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
	ctx := context.Background()
	wall := time.Now()
	res, err := Run(ctx, t, s)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("memberlist %s, harness seed %d, model seed %d: %d broadcasts in %.1f s", MemberlistVersion, s.Seed, s.Seed+1000, len(res.Outcomes), time.Since(wall).Seconds())
	cfg := s.Model(1)
	cfg.SyncInterval, cfg.Interval = s.SyncInterval.Seconds(), s.IntervalOrDefault().Seconds()
	S := broadcast.PushPullScale(cfg.SyncInterval, cfg.Nodes)
	var times []float64
	for _, p := range RepairPoints {
		times = append(times, p*S)
	}
	mc, err := broadcast.SimulateRepair(ctx, cfg, broadcast.SimSettings{Reps: repairReps, Seed: s.Seed + 1000}, times)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := broadcast.RepairCurveFrom(cfg, mc.Start())
	if err != nil {
		t.Fatal(err)
	}
	k := s.ClustersOrDefault()
	n := float64(len(res.Outcomes))

	// 1. The end state.
	var resid []float64
	for _, o := range res.Outcomes {
		resid = append(resid, float64(o.Live-o.Informed)/float64(o.Live))
	}
	r0 := clusterEstimate(resid, k)
	r0.SE = math.Max(r0.SE, estimate(resid).SE)
	zr := (r0.Value - mc.Residue) / math.Hypot(r0.SE, mc.ResidueSE)
	var ends []float64
	for _, o := range res.Outcomes {
		ends = append(ends, o.End*cfg.Interval)
	}
	t.Logf("lacking at the end (the last transmit): memberlist %v, Monte Carlo %.4g ± %.2g (z %+.2f); mean end memberlist %v s, Monte Carlo %.3g s; scaled sync interval %g s", r0, mc.Residue, mc.ResidueSE, zr, estimate(ends), mc.End, S)
	if !(math.Abs(zr) <= zLimit) {
		t.Errorf("lacking at the end: memberlist %v, Monte Carlo %.4g ± %.2g (z %+.2f)", r0, mc.Residue, mc.ResidueSE, zr)
	}

	// 2. Given the end state.
	cond := func(ms *broadcast.RepairSample, j int) (d, se float64, skipped int) {
		var sum, v, vmc float64
		var x []float64
		var cl []int
		counts := map[int]int{}
		for b, o := range res.Outcomes {
			m := o.Live - o.Informed
			if ms.ByEnd[m].Reps < minGroup {
				skipped++
				continue
			}
			g := ms.ByEnd[m]
			r := float64(o.Lack[j]) - g.Lack[j]
			sum += r
			v += g.Var[j]
			counts[m]++
			x = append(x, r/float64(o.Live))
			cl = append(cl, b/s.Broadcasts)
		}
		for m, c := range counts {
			g := ms.ByEnd[m]
			vmc += float64(c*c) * g.Var[j] / float64(g.Reps)
		}
		used := float64(len(x))
		M := float64(cfg.Live())
		model := math.Sqrt(v+vmc) / M / used
		return sum / M / used, math.Max(model, clusterSE(x, cl, k)), skipped
	}
	for j, p := range RepairPoints {
		d, se, skipped := cond(mc, j)
		if skipped > len(res.Outcomes)/100 {
			t.Fatalf("%d broadcasts ended in states the Monte Carlo met fewer than %d times", skipped, minGroup)
		}
		var x []float64
		for _, o := range res.Outcomes {
			x = append(x, float64(o.Lack[j])/float64(o.Live))
		}
		m := clusterEstimate(x, k)
		msg := fmt.Sprintf("%g scaled intervals: memberlist %v lacking, Monte Carlo %.4g ± %.2g, mean field %.4g; given the end states memberlist − Monte Carlo = %+.4g ± %.2g (z %+.2f, %d skipped)",
			p, m, mc.Lack[j], mc.SE[j], rc.At(p*S), d, se, d/se, skipped)
		if !(math.Abs(d) <= zLimit*se) {
			t.Error(msg)
		} else {
			t.Log(msg)
		}
	}

	// 3. The unconditional share where the early deaths do not dominate.
	for j, p := range RepairPoints {
		if p > 1 {
			continue
		}
		var x []float64
		for _, o := range res.Outcomes {
			x = append(x, float64(o.Lack[j])/float64(o.Live))
		}
		m := clusterEstimate(x, k)
		se := math.Max(m.SE, mc.SE[j]*math.Sqrt(float64(mc.Reps)/n))
		mf := rc.At(p * S)
		tol := zLimit*se + math.Abs(mf-mc.Lack[j])
		msg := fmt.Sprintf("%g scaled intervals: memberlist %v lacking, mean field %.4g (tolerance %.2g: %g × %.2g + the mean field's distance from the Monte Carlo, %.2g)", p, m, mf, tol, float64(zLimit), se, math.Abs(mf-mc.Lack[j]))
		if !(math.Abs(m.Value-mf) <= tol) {
			t.Error(msg)
		} else {
			t.Log(msg)
		}
	}

	// Power: the rules without memberlist's scaling (the configured
	// interval halved, so that its scaled value is the unscaled one).
	un := cfg
	un.SyncInterval = cfg.SyncInterval / 2
	ms, err := broadcast.SimulateRepair(ctx, un, broadcast.SimSettings{Reps: repairReps, Seed: s.Seed + 2000}, times)
	if err != nil {
		t.Fatal(err)
	}
	if ms.Scaled != S/2 {
		t.Fatalf("power check: syncs every %g s, want %g", ms.Scaled, S/2)
	}
	worst := 0.0
	for j := range RepairPoints {
		d, se, _ := cond(ms, j)
		worst = math.Max(worst, math.Abs(d/se))
	}
	if !(worst > zLimit) {
		t.Errorf("power: the rules with syncs every %g s are within %g standard errors of memberlist given the end states (largest |z| %.2f)", S/2, float64(zLimit), worst)
	} else {
		t.Logf("power: with syncs every %g s instead of %g the largest |z| given the end states is %.1f", S/2, S, worst)
	}
}

// clusterSE is the standard error of the mean of x from the means of its
// k clusters (cl[i] the cluster of x[i], any number each): the spread of
// the cluster means about the overall mean, weighted by the clusters'
// sizes (the ratio estimator's): √(k/(k − 1)·Σ_c (Σ_{i∈c} xᵢ − n_c·x̄)²)/n,
// for clusters of one size the standard error of the k cluster means.
func clusterSE(x []float64, cl []int, k int) float64 {
	if k < 2 || len(x) == 0 {
		return 0
	}
	sum, cnt := make([]float64, k), make([]float64, k)
	var tot float64
	for i, v := range x {
		sum[cl[i]] += v
		cnt[cl[i]]++
		tot += v
	}
	mean := tot / float64(len(x))
	var ss float64
	for c := range k {
		d := sum[c] - cnt[c]*mean
		ss += d * d
	}
	return math.Sqrt(ss*float64(k)/float64(k-1)) / float64(len(x))
}

// clusterEstimate is the mean of x (the outcomes of k clusters in order,
// the same number each) with the standard error of the k clusters' means.
func clusterEstimate(x []float64, k int) Estimate {
	if k < 2 || len(x)%k != 0 {
		return estimate(x)
	}
	per := len(x) / k
	means := make([]float64, k)
	for c := range k {
		for _, v := range x[c*per : (c+1)*per] {
			means[c] += v / float64(per)
		}
	}
	return estimate(means)
}
