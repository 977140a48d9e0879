package plan

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/stats"
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
	// With loss the mean-field clock runs f times slower (package doc).
	rounds := int(math.Ceil(math.Max(cfg.Deadline, 1.1*asym.Quantile(1-1e-6)/slowdown(cfg.Loss)))) + 5
	res, times, open, err := runSim(ctx, cfg, set, rounds)
	if err == nil && open > 0 && !res.Connected {
		// The graph falls apart: runs that have not reached the level
		// may never do, and no law of T_L is read from them.
		return nil, disconnected(cfg, set, open)
	}
	if err == nil && open > 0 && cfg.Topology.Kind != sim.Full {
		// The complete graph's law does not bound the time on another
		// graph: once more with 4× the rounds.
		rounds = 4*rounds + 5
		res, times, open, err = runSim(ctx, cfg, set, rounds)
	}
	if err != nil {
		return nil, err
	}
	a := mcAnswer(times, rounds, cfg)
	a.Accuracy.Note = fmt.Sprintf("Monte Carlo (%v, %d replications, seed %d): standard errors mean %.2g, sd %.2g rounds; coverage observed after whole rounds (Sheppard-corrected mean and sd, quantiles interpolated between whole rounds)",
		set.Model, set.Reps, set.Seed, a.Accuracy.SEMean, a.Accuracy.SESD)
	if cfg.Topology.Kind != sim.Full {
		a.Accuracy.Note += fmt.Sprintf("; topology %v", cfg.Topology)
		if !res.Connected {
			a.Accuracy.Note += " (not connected: some nodes cannot be reached)"
		}
	}
	if cfg.Loss > 0 {
		a.Accuracy.Note += fmt.Sprintf("; with loss ε = %g the item died out in %.4g of the runs (T_L = ∞), se of P(reach) %.2g; mean, sd and quantiles given T_L < ∞",
			cfg.Loss, 1-a.PReach-float64(open)/float64(len(times)), a.Accuracy.SEPReach)
	}
	if m, se := res.AliveMean(); !math.IsNaN(m) {
		a.Accuracy.Note += fmt.Sprintf("; items other than d alive at t = 0 (after the warm-up, whose lost replies overwrite some): %.4g ± %.2g of n = %d", m, se, cfg.Shuffle.Items)
	}
	if open > 0 {
		a.Accuracy.Note += fmt.Sprintf("; %d runs neither reached the level nor lost the item within %d rounds (counted as not reaching it)", open, rounds)
	}
	return a, nil
}

// runSim runs package sim for rounds and returns each replication's
// whole-round T_L: NaN if the level was not reached within rounds, +Inf if
// the item died out (X = 0 at the last round: with loss X = 0 is
// absorbing), and how many are NaN.
func runSim(ctx context.Context, cfg Config, set Settings, rounds int) (*sim.Result, []float64, int, error) {
	sc := sim.Config{Model: set.Model, Nodes: cfg.Nodes, Shuffle: cfg.Shuffle,
		Rounds: rounds, Reps: set.Reps, Seed: set.Seed, Initial: cfg.initial(), Schedule: sim.Continuous, PDrop: cfg.PDrop,
		Loss: cfg.Loss, Topology: cfg.Topology}
	if set.Model == Protocol {
		sc.Warmup = sim.DefaultConfig().Warmup
	}
	if cfg.Time == gossip.Shuffles {
		sc.Schedule = sim.Rounds
	}
	if err := sc.Validate(); err != nil {
		return nil, nil, 0, fmt.Errorf("plan: Monte Carlo: %w", err)
	}
	res, err := sim.Run(ctx, sc, sim.Settings{Workers: set.Workers, Progress: set.Progress})
	if err != nil {
		return nil, nil, 0, fmt.Errorf("plan: %w", err)
	}
	times := res.TimesToCoverage(float64(cfg.count()))
	open := 0
	for i, t := range times {
		if !math.IsNaN(t) {
			continue
		}
		if x := res.Reps[i].X; len(x) > 0 && x[len(x)-1] == 0 {
			times[i] = math.Inf(1)
		} else {
			open++
		}
	}
	return res, times, open, nil
}

// mcAnswer summarises the whole-round hitting times (NaN: not reached
// within rounds; +Inf: the item died out first). Without loss every
// replication reaches the level, and one that has not within rounds leaves
// the mean and sd NaN. With loss the law is read given T_L < ∞ over the
// replications that reached the level (PReach their share; one that
// neither reached it nor lost the item within rounds counts as not
// reaching: the caller says how many).
func mcAnswer(times []float64, rounds int, cfg Config) *Answer {
	R := len(times)
	a := &Answer{PDeadline: math.NaN(), Accuracy: noAccuracy()}
	sorted := append([]float64(nil), times...)
	censored := 0
	for i, t := range sorted {
		if math.IsNaN(t) || math.IsInf(t, 1) {
			sorted[i] = math.Inf(1)
			censored++
		}
	}
	sort.Float64s(sorted)
	reached := R - censored
	reach := 1.0
	if cfg.Loss > 0 {
		reach = float64(reached) / float64(R)
		a.PReach, a.Accuracy.SEPReach = reach, math.Sqrt(reach*(1-reach)/float64(R))
	}
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
		// Given T_L < ∞: the p·reach-quantile of the defective CDF.
		return gridQuantile(ts, ps, p*reach)
	}
	a.Q05, a.Q25, a.Q50, a.Q75, a.Q95 = q(0.05), q(0.25), q(0.5), q(0.75), q(0.95)
	a.TConfidence = gridQuantile(ts, ps, cfg.confidence())
	a.Mean, a.SD = math.NaN(), math.NaN()
	if censored == 0 || cfg.Loss > 0 && reached > 1 {
		n := float64(reached)
		m, v, m4 := 0.0, 0.0, 0.0
		for _, t := range sorted[:reached] {
			m += t
		}
		m /= n
		for _, t := range sorted[:reached] {
			d := (t - m) * (t - m)
			v += d
			m4 += d * d
		}
		v /= n - 1
		m4 /= n
		a.Mean, a.SD = m-0.5, math.Sqrt(math.Max(0, v-1.0/12))
		a.Accuracy.SEMean = math.Sqrt(v / n)
		// Var s² ≈ (μ₄ − σ⁴)/R, so SE(s) ≈ √(μ₄ − σ⁴)/(2σ√R): T_L is
		// skewed (excess kurtosis about 2.4 for K = 1), and the normal
		// value σ/√(2R) would understate it by a third.
		if v > 0 {
			a.Accuracy.SESD = math.Sqrt(math.Max(0, m4-v*v)/n) / (2 * math.Sqrt(v))
		}
	}
	if cfg.Deadline > 0 {
		// P(T ≤ D) = P(⌈T⌉ ≤ ⌊D⌋).
		k := min(int(math.Floor(cfg.Deadline)), rounds)
		a.PDeadline = ps[k]
		a.Accuracy.SEPDeadline = math.Sqrt(ps[k] * (1 - ps[k]) / float64(R))
		a.PDeadlineLow = wilsonLow(ps[k], R)
	}
	a.Accuracy.Grid = 1
	return a
}

// disconnected is the error of a Monte Carlo on a graph that is not
// connected where open of the runs did not reach the level: the nodes
// beyond the item's component cannot be reached, so T_L may be infinite
// without loss, and neither P(reach) nor the law given T_L < ∞ is known.
func disconnected(cfg Config, set Settings, open int) error {
	return fieldErr("Config.Topology", "%v with N = %d: the graph drawn from seed %d is not connected, and %d of %d runs did not reach the level %g (%d nodes): nodes outside the item's component are never reached; use a connected topology (a larger degree or radius) or a lower Config.Level",
		cfg.Topology, cfg.Nodes, set.Seed, open, set.Reps, cfg.Level, cfg.count())
}

// wilsonLow is the lower end of Wilson's score interval at z = 3 for a
// share p of n runs: unlike p − 3·se it stays below 1 when every run
// succeeded (n/(n + 9)), the most that n runs can show.
func wilsonLow(p float64, n int) float64 {
	lo, _ := stats.Wilson(p, n, 3)
	return lo
}
