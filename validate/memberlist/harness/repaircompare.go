package harness

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/broadcast"
)

// MinGroup is the fewest Monte Carlo replications with a broadcast's end
// state for its conditional law to be used (RepairSample.ByEnd): a
// broadcast whose end state the Monte Carlo met less often is left out of
// the conditional comparison (RepairRow.Skipped).
const MinGroup = 30

// MaxRepairReps bounds CompareRepair's replications (memory: each keeps
// its count lacking at every point).
const MaxRepairReps = 1_000_000

// RepairModel is the repair model's configuration for a setting with
// anti-entropy on: Setting.Model at level 1 with its sync interval and its
// gossip interval in seconds (so that the Monte Carlo plays the spread and
// the syncs on one clock).
func RepairModel(s Setting) broadcast.Config {
	cfg := s.Model(1)
	cfg.SyncInterval, cfg.Interval = s.SyncInterval.Seconds(), s.IntervalOrDefault().Seconds()
	return cfg
}

// RepairRow is the share of live nodes still lacking the message at one of
// RepairPoints, measured and modelled.
type RepairRow struct {
	// Point is the time in scaled sync intervals after the queueing.
	Point float64
	// Measured is the mean share over the broadcasts with the standard
	// error of the clusters' means; MC the Monte Carlo of the rules
	// (broadcast.SimulateRepair); MeanField the mean field from the
	// Monte Carlo's end state (broadcast.RepairCurveFrom).
	Measured, MC Estimate
	MeanField    float64
	// Cond is memberlist − Monte Carlo given each broadcast's end state
	// (the mean over the broadcasts of the count lacking minus the Monte
	// Carlo's mean count for the same count lacking at the end, over M),
	// its SE the larger of the model's (the conditional variances plus
	// the Monte Carlo's own error) and the clusters'; Z = Cond/SE.
	Cond    Estimate
	Z       float64
	Skipped int
}

// RepairComparison is a run with anti-entropy on against the repair
// model (CompareRepair).
type RepairComparison struct {
	Setting Setting
	// Model is the configuration the Monte Carlo ran; Scaled its scaled
	// sync interval in seconds; Reps and Seed its replications.
	Model  broadcast.Config
	Scaled float64
	Reps   int
	Seed   uint64
	// End is the share lacking at the broadcast's end (its last
	// transmit), measured (SE the larger of the clusters' and the
	// broadcasts') and by the Monte Carlo; EndZ their z.
	End, MCEnd Estimate
	EndZ       float64
	Rows       []RepairRow
}

// CompareRepair sets a harness run with anti-entropy on against the
// repair model cfg (RepairModel(res.Setting), or a variant of it for a
// power check; of the run's N): the Monte Carlo of its rules with reps
// replications (2..MaxRepairReps) from seed, at RepairPoints.
func CompareRepair(ctx context.Context, res *Result, cfg broadcast.Config, reps int, seed uint64) (*RepairComparison, error) {
	if ctx == nil {
		return nil, errors.New("harness: nil context")
	}
	if res == nil || len(res.Outcomes) == 0 {
		return nil, errors.New("harness: CompareRepair: no outcomes")
	}
	s := res.Setting
	if err := s.Validate(); err != nil {
		return nil, err
	}
	switch {
	case s.SyncInterval == 0:
		return nil, errors.New("harness: CompareRepair: Setting.SyncInterval = 0: the run has no anti-entropy")
	case len(res.Outcomes) != s.ClustersOrDefault()*s.Broadcasts:
		return nil, fmt.Errorf("harness: CompareRepair: %d outcomes, not Setting.Clusters·Setting.Broadcasts = %d", len(res.Outcomes), s.ClustersOrDefault()*s.Broadcasts)
	case cfg.Nodes != s.Nodes:
		return nil, fmt.Errorf("harness: CompareRepair: cfg.Nodes = %d, not the run's Setting.Nodes = %d", cfg.Nodes, s.Nodes)
	case reps < 2 || reps > MaxRepairReps:
		return nil, fmt.Errorf("harness: CompareRepair: reps = %d: valid range 2..%d", reps, MaxRepairReps)
	}
	S := broadcast.PushPullScale(cfg.SyncInterval, cfg.Nodes)
	// The harness measures at RepairPoints of its own scaled interval.
	Sh := broadcast.PushPullScale(s.SyncInterval.Seconds(), s.Nodes)
	var times []float64
	for _, p := range RepairPoints {
		times = append(times, p*Sh)
	}
	mc, err := broadcast.SimulateRepair(ctx, cfg, broadcast.SimSettings{Reps: reps, Seed: seed}, times)
	if err != nil {
		return nil, fmt.Errorf("harness: %w", err)
	}
	rc, err := broadcast.RepairCurveFrom(cfg, mc.Start())
	if err != nil {
		return nil, fmt.Errorf("harness: %w", err)
	}
	k := s.ClustersOrDefault()
	out := &RepairComparison{Setting: s, Model: cfg, Scaled: S, Reps: reps, Seed: seed}
	var resid []float64
	for _, o := range res.Outcomes {
		resid = append(resid, float64(o.Live-o.Informed)/float64(o.Live))
	}
	out.End = clusterEstimate(resid, k)
	out.End.SE = math.Max(out.End.SE, estimate(resid).SE)
	out.MCEnd = Estimate{mc.Residue, mc.ResidueSE}
	out.EndZ = (out.End.Value - mc.Residue) / math.Hypot(out.End.SE, mc.ResidueSE)
	M := float64(cfg.Live())
	for j, p := range RepairPoints {
		row := RepairRow{Point: p, MC: Estimate{mc.Lack[j], mc.SE[j]}, MeanField: rc.At(times[j])}
		var x []float64
		for _, o := range res.Outcomes {
			x = append(x, float64(o.Lack[j])/float64(o.Live))
		}
		row.Measured = clusterEstimate(x, k)
		var sum, v, vmc float64
		var rx []float64
		var cl []int
		counts := map[int]int{}
		for b, o := range res.Outcomes {
			m := o.Live - o.Informed
			g, ok := mc.ByEnd[m]
			if !ok || g.Reps < MinGroup {
				row.Skipped++
				continue
			}
			r := float64(o.Lack[j]) - g.Lack[j]
			sum += r
			v += g.Var[j]
			counts[m]++
			rx = append(rx, r/float64(o.Live))
			cl = append(cl, b/s.Broadcasts)
		}
		for m, c := range counts {
			g := mc.ByEnd[m]
			vmc += float64(c*c) * g.Var[j] / float64(g.Reps)
		}
		if used := float64(len(rx)); used > 0 {
			model := math.Sqrt(v+vmc) / M / used
			row.Cond = Estimate{sum / M / used, math.Max(model, clusterSE(rx, cl, k))}
			row.Z = row.Cond.Value / row.Cond.SE
		} else {
			row.Cond, row.Z = Estimate{math.NaN(), math.NaN()}, math.NaN()
		}
		out.Rows = append(out.Rows, row)
	}
	return out, nil
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
