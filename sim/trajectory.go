package sim

import (
	"math"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/internal/stats"
)

// Trajectory is the mean and sd over replications of x or y per round, as
// fractions of N, at the times T = 0, 1, …, Rounds.
type Trajectory struct {
	T, Mean, SD []float64
}

// Trajectories returns the replication (x) and coverage (y) curves of the
// result's Summary.
func (r *Result) Trajectories() (x, y Trajectory) {
	for _, s := range r.Summary() {
		t := float64(s.T)
		x.T = append(x.T, t)
		x.Mean = append(x.Mean, s.XMean)
		x.SD = append(x.SD, s.XSD)
		y.T = append(y.T, t)
		y.Mean = append(y.Mean, s.YMean)
		y.SD = append(y.SD, s.YSD)
	}
	return x, y
}

// RoundCoverage returns the round-snapshot coverage curve (mean and sd of
// YRound/N), the record the paper's Fig. 8 was drawn from.
func (r *Result) RoundCoverage() Trajectory {
	var y Trajectory
	for _, s := range r.Summary() {
		y.T = append(y.T, float64(s.T))
		y.Mean = append(y.Mean, s.YRMean)
		y.SD = append(y.SD, s.YRSD)
	}
	return y
}

// Gap is the largest |model − simulated mean| over rounds and where it is.
type Gap struct {
	Max float64
	At  float64
	// WithinSD is the share of rounds at which the model lies within one
	// standard deviation of the simulated mean.
	WithinSD float64
}

// CompareTrajectory measures the gap between a model curve, evaluated at
// the trajectory's times, and the simulated mean, over the trajectory's
// times (a longer model curve, evaluated further on, is compared on its
// first len(tr.T) values). A model shorter than the trajectory, a
// trajectory whose Mean or SD is not as long as its T, or an empty one
// has no gap: every field is NaN.
func CompareTrajectory(model []float64, tr Trajectory) Gap {
	if n := len(tr.T); n == 0 || len(model) < n || len(tr.Mean) != n || len(tr.SD) != n {
		return Gap{Max: math.NaN(), At: math.NaN(), WithinSD: math.NaN()}
	}
	g := Gap{}
	within := 0
	for i := range tr.T {
		d := math.Abs(model[i] - tr.Mean[i])
		if d > g.Max {
			g.Max, g.At = d, tr.T[i]
		}
		if d <= tr.SD[i] {
			within++
		}
	}
	g.WithinSD = float64(within) / float64(len(tr.T))
	return g
}

// FirstReach returns the first time at which curve ≥ level, interpolating
// linearly between the sample times ts, or NaN if it never does (or ts
// and curve differ in length, are empty, or level is NaN).
func FirstReach(ts, curve []float64, level float64) float64 {
	if len(ts) != len(curve) {
		return math.NaN() // no time for every value: no answer
	}
	for i := range curve {
		if curve[i] >= level {
			if i == 0 {
				return ts[0]
			}
			f := (level - curve[i-1]) / (curve[i] - curve[i-1])
			return ts[i-1] + f*(ts[i]-ts[i-1])
		}
	}
	return math.NaN()
}

// TimesToCoverage returns, for each replication in order, the first round
// at which at least count nodes have held d (Y ≥ count), or NaN where that
// never happens within the rounds simulated (nil for a nil result).
func (r *Result) TimesToCoverage(count float64) []float64 {
	if r == nil {
		return nil
	}
	out := make([]float64, len(r.Reps))
	for i, rep := range r.Reps {
		out[i] = math.NaN()
		for t, y := range rep.Y {
			if float64(y) >= count {
				out[i] = float64(t)
				break
			}
		}
	}
	return out
}

// LateMean returns the mean of x over the last fifth of the rounds and all
// replications, and its standard error from the spread of the
// replications' own late means (rounds within one run are correlated, so
// they are not independent samples). NaN for a result Run could not have
// returned.
func (r *Result) LateMean() (mean, se float64) {
	if !r.shaped() {
		return math.NaN(), math.NaN()
	}
	T := r.Config.Rounds
	from := T - T/5
	means := make([]float64, len(r.Reps))
	for i, rep := range r.Reps {
		for t := from; t <= T; t++ {
			means[i] += float64(rep.X[t])
		}
		means[i] /= float64(T-from+1) * float64(r.Config.Nodes)
	}
	m, sd := stats.MeanSD(means)
	return m, sd / math.Sqrt(float64(len(means)))
}

// Measured is what a run measured of the model's probabilities, beside the
// model's values.
type Measured struct {
	PSelect, PSelectModel float64
	// PDrop is the measured drop frequency of items of S_B \ S_A; NaN for
	// the Markov model, which draws drops from the model.
	PDrop float64
	// PDropSimplified is (n−c)/(n−s); PDropFormula1 is formula (1),
	// computed exactly and rounded once (approx.PDrop with approx.Exact,
	// which picks the form); 0 where package exact refuses s.
	PDropSimplified, PDropFormula1 float64
	// Trans is the empirical P(to|from) of d's state in shuffles, NaN where
	// a state was never seen; TransModel the model's with simplified P_drop
	// and the run's loss (approx.NewTransitionsLoss; the lossless matrix at
	// Loss = 0), at the Config's n, as the paper evaluates it. A lossless
	// protocol run's network holds ItemsAfterInsertion items once d is
	// inserted (n + 1), and d's shuffles follow the matrix at that count
	// (approx.TransitionsFor with Items set to it; `gossipkit sim` and the
	// report compare with that one).
	Trans            [4][4]float64
	TransModel       approx.Transitions
	Failed, Shuffles int64
}

// Measure computes the measured probabilities from the run's counters (of
// none for a nil result).
func (r *Result) Measure() Measured {
	var c Config
	if r != nil {
		c = r.Config
	}
	tot := r.Totals()
	m := Measured{PSelectModel: approx.PSelect(c.Shuffle), Failed: tot.Failed, Shuffles: tot.Shuffles, PDrop: math.NaN()}
	m.PSelect = ratio(tot.SelectHits, tot.SelectTrials)
	if c.Model == Protocol {
		m.PDrop = ratio(tot.Drops, tot.DropCandidates)
	}
	m.PDropSimplified, _ = approx.PDrop(approx.Simplified, c.Shuffle)
	if q, err := approx.PDrop(approx.Exact, c.Shuffle); err == nil {
		m.PDropFormula1 = q
	}
	m.TransModel, _ = approx.TransitionsLossFor(approx.Simplified, c.Shuffle, c.Loss)
	for i := range 4 {
		var row int64
		for j := range 4 {
			row += tot.Transitions[i][j]
		}
		for j := range 4 {
			m.Trans[i][j] = ratio(tot.Transitions[i][j], row)
		}
	}
	return m
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}
