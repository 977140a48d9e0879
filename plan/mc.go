package plan

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/sim"
)

// solveMC runs Settings.Reps replications of package sim (the pairwise
// model event by event, or the protocol) for 10 % more rounds than the
// asymptotic law's (1 − 10⁻⁶)-quantile (and at least to the deadline), and reads T_L from
// sim.TimesToCoverage. sim records coverage after whole rounds, so each
// replication gives ⌈T_L⌉: P(T_L ≤ k) is estimated without bias at whole
// k, the quantiles interpolate that CDF linearly between whole rounds, and
// the mean and sd carry Sheppard's corrections (E⌈T⌉ − 1/2,
// √(Var⌈T⌉ − 1/12)), exact when the fractional part of T_L is uniform.
func solveMC(ctx context.Context, cfg Config, set Settings, asym *asymptotic) (*Answer, error) {
	rounds := int(math.Ceil(math.Max(cfg.Deadline, 1.1*asym.Quantile(1-1e-6)))) + 5
	sc := sim.Config{Model: sim.Markov, Nodes: cfg.Nodes, Shuffle: cfg.Shuffle,
		Rounds: rounds, Reps: set.Reps, Seed: set.Seed, Initial: cfg.initial(), Schedule: sim.Continuous, PDrop: cfg.PDrop}
	if set.Model == Protocol {
		sc.Model, sc.Warmup = sim.Protocol, sim.DefaultConfig().Warmup
	}
	if cfg.Time == gossip.Shuffles {
		sc.Schedule = sim.Rounds
	}
	if err := sc.Validate(); err != nil {
		return nil, fmt.Errorf("plan: Monte Carlo: %w", err)
	}
	res, err := sim.Run(ctx, sc, sim.Settings{Workers: set.Workers, Progress: set.Progress})
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	times := res.TimesToCoverage(float64(cfg.count()))
	a := mcAnswer(times, rounds, cfg)
	a.Accuracy.Note = fmt.Sprintf("Monte Carlo (%v, %d replications, seed %d): standard errors mean %.2g, sd %.2g rounds; coverage observed after whole rounds (Sheppard-corrected mean and sd, quantiles interpolated between whole rounds)",
		set.Model, set.Reps, set.Seed, a.Accuracy.SEMean, a.Accuracy.SESD)
	return a, nil
}

// mcAnswer summarises the whole-round hitting times (NaN: not reached
// within rounds).
func mcAnswer(times []float64, rounds int, cfg Config) *Answer {
	R := len(times)
	a := &Answer{PDeadline: math.NaN(), Accuracy: noAccuracy()}
	sorted := append([]float64(nil), times...)
	censored := 0
	for i, t := range sorted {
		if math.IsNaN(t) {
			sorted[i] = math.Inf(1)
			censored++
		}
	}
	sort.Float64s(sorted)
	// F(k) = #{⌈T⌉ ≤ k}/R at k = 0..rounds.
	ts := make([]float64, rounds+1)
	ps := make([]float64, rounds+1)
	j := 0
	for k := 0; k <= rounds; k++ {
		for j < R && sorted[j] <= float64(k) {
			j++
		}
		ts[k], ps[k] = float64(k), float64(j)/float64(R)
	}
	q := func(p float64) float64 {
		// T_L lies in (k−1, k] when ⌈T_L⌉ = k: interpolate from k−1.
		return gridQuantile(ts, ps, p)
	}
	a.Q05, a.Q25, a.Q50, a.Q75, a.Q95 = q(0.05), q(0.25), q(0.5), q(0.75), q(0.95)
	a.TConfidence = q(cfg.confidence())
	a.Mean, a.SD = math.NaN(), math.NaN()
	if censored == 0 {
		m, v, m4 := 0.0, 0.0, 0.0
		for _, t := range sorted {
			m += t
		}
		m /= float64(R)
		for _, t := range sorted {
			d := (t - m) * (t - m)
			v += d
			m4 += d * d
		}
		v /= float64(R - 1)
		m4 /= float64(R)
		a.Mean, a.SD = m-0.5, math.Sqrt(math.Max(0, v-1.0/12))
		a.Accuracy.SEMean = math.Sqrt(v / float64(R))
		// Var s² ≈ (μ₄ − σ⁴)/R, so SE(s) ≈ √(μ₄ − σ⁴)/(2σ√R): T_L is
		// skewed (excess kurtosis about 2.4 for K = 1), and the normal
		// value σ/√(2R) would understate it by a third.
		if v > 0 {
			a.Accuracy.SESD = math.Sqrt(math.Max(0, m4-v*v)/float64(R)) / (2 * math.Sqrt(v))
		}
	}
	if cfg.Deadline > 0 {
		// P(T ≤ D) = P(⌈T⌉ ≤ ⌊D⌋).
		k := min(int(math.Floor(cfg.Deadline)), rounds)
		a.PDeadline = ps[k]
		a.Accuracy.SEPDeadline = math.Sqrt(ps[k] * (1 - ps[k]) / float64(R))
	}
	a.Accuracy.Grid = 1
	return a
}
