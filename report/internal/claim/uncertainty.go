package claim

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/internal/rng"
	"github.com/gossipkit/gossipkit/sim"
)

// The uncertainty of the verdicts that rest on Monte Carlo. A verdict
// compares one measured quantity with thresholds; the quantity carries an
// interval (bootstrap over the replications, or mean ± ZSignificant
// standard errors over seeds), and the verdict is decided only where the
// whole interval lies on one side of every threshold. Where it Straddles
// one, the verdict is undecided at this scale, and the measured column
// names the replications that would decide it.

// Undecided is the verdict of a claim whose interval Straddles a threshold.
const Undecided = "undecided at this scale"

// ZDecide sets the level of every verdict's interval: that of ZDecide
// normal standard errors, 2Φ(3) − 1 = 99.73 %. A report judges about 15
// claims and its verdicts must not change with the seed; at 95 % one claim
// in twenty would be decided by the noise of its seed (a Bonferroni
// argument: 15 claims × 5 seeds at 0.27 % each leave about one chance in
// five of one flip where a quantity sits right at a threshold, and far less
// elsewhere).
const ZDecide = 3

// Bootstrap: bootResamples resamples of the replications (with
// replacement, each case resampled on its own), a two-sided percentile
// interval of level bootLevel (ZDecide). 4000 resamples leave about 5.4 of
// them beyond each end (0.135 %), enough to place it to within a few
// resamples' spread. bootStream is the stream of the study's seed the
// resampling draws from (the simulations use streams 0..Reps−1 of their
// own configurations; this one is the report's, fixed).
const (
	bootResamples = 4000
	bootStream    = 1<<62 + 7
)

// bootLevel is the level of the bootstrap intervals, 2Φ(ZDecide) − 1.
var bootLevel = 2*distuv.UnitNormal.CDF(ZDecide) - 1

// MinBootReps is the fewest replications the bootstrap resamples: 5
// replications have only 126 distinct resamples, and the percentile
// interval of so few is known to be too narrow; below it the share's
// interval is all of [0, 1] (undecided).
const MinBootReps = 10

// Interval is a two-sided interval of a measured quantity at its level.
type Interval struct{ Lo, Hi float64 }

// Straddles reports whether the interval holds values on both sides of
// threshold t (a value equal to t counts as at or above it).
func (iv Interval) Straddles(t float64) bool { return iv.Lo < t && iv.Hi >= t }

// ShareCase is one n of a take-off share: each replication's curve (counts
// of nodes per round), the model curve (a fraction of Nodes) and the
// window's rounds [from, to]; tol is the half-node tolerance.
type ShareCase struct {
	reps     [][]int32
	model    []float64
	from, to int
	nodes    int
	tol      float64
	// groups, if not nil, are the replications (indices into reps) that
	// share a warm state (sim.Config.WarmStates): the bootstrap resamples
	// whole groups, since replications of one warm state may be
	// correlated. nil: independent replications, resampled one by one.
	groups [][]int
}

// share is the case's take-off share over the replications idx: the share
// of the window's rounds at which |model − mean| ≤ sd + tol (sample sd,
// divisor len(idx) − 1, as sim.Result.Summary), NaN for an empty window.
func (c ShareCase) Share(idx []int) float64 {
	if c.from < 0 || c.to < c.from {
		return math.NaN()
	}
	N := float64(c.nodes)
	in := 0
	for t := c.from; t <= c.to; t++ {
		mean := 0.0
		for _, i := range idx {
			mean += float64(c.reps[i][t])
		}
		mean /= float64(len(idx))
		ss := 0.0
		for _, i := range idx {
			d := float64(c.reps[i][t]) - mean
			ss += d * d
		}
		sd := 0.0
		if len(idx) > 1 {
			sd = math.Sqrt(ss/float64(len(idx)-1)) / N
		}
		if math.Abs(c.model[t]-mean/N) <= sd+c.tol {
			in++
		}
	}
	return float64(in) / float64(c.to-c.from+1)
}

// BootstrapMinShare is the percentile bootstrap interval of the smallest
// take-off share over the cases: every resample draws each case's
// replications with replacement (the cases are independent simulations;
// replications that share a warm state are drawn as a group)
// and takes the smallest share; seed fixes the resamples.
func BootstrapMinShare(cases []ShareCase, seed uint64) Interval {
	for _, c := range cases {
		if len(c.reps) < MinBootReps || c.groups != nil && len(c.groups) < MinBootReps {
			return Interval{0, 1} // too few replications (or warm states) to resample: no bound
		}
	}
	r := rng.NewStream(seed, bootStream)
	mins := make([]float64, 0, bootResamples)
	idx := []int{}
	for range bootResamples {
		m := math.Inf(1)
		for _, c := range cases {
			R := len(c.reps)
			idx = idx[:0]
			if c.groups != nil {
				// The cluster bootstrap: as many warm states as there
				// are, drawn with replacement, each with all its
				// replications.
				for range c.groups {
					idx = append(idx, c.groups[r.Intn(uint32(len(c.groups)))]...)
				}
			} else {
				for range R {
					idx = append(idx, int(r.Intn(uint32(R))))
				}
			}
			s := c.Share(idx)
			if math.IsNaN(s) {
				return Interval{math.NaN(), math.NaN()}
			}
			m = math.Min(m, s)
		}
		mins = append(mins, m)
	}
	slices.Sort(mins)
	a := (1 - bootLevel) / 2
	return Interval{percentile(mins, a), percentile(mins, 1-a)}
}

// percentile is the p-quantile of sorted data (type 7, linear
// interpolation between order statistics).
func percentile(sorted []float64, p float64) float64 {
	h := float64(len(sorted)-1) * p
	lo := int(math.Floor(h))
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// gradeInterval grades a quantity with interval iv against the thresholds
// hold ≥ qual (holds at or above hold, holds with a qualification at or
// above qual, else does not hold): decided only where iv lies within one
// grade; undecided otherwise, with the threshold it Straddles (the one
// nearest the estimate v if both).
func gradeInterval(v float64, iv Interval, hold, qual float64) (verdict string, straddled float64) {
	switch {
	case math.IsNaN(v) || math.IsNaN(iv.Lo):
		return Unchecked, math.NaN()
	case iv.Straddles(hold) && iv.Straddles(qual):
		if math.Abs(v-hold) < math.Abs(v-qual) {
			return Undecided, hold
		}
		return Undecided, qual
	case iv.Straddles(hold):
		return Undecided, hold
	case iv.Straddles(qual):
		return Undecided, qual
	case iv.Lo >= hold:
		return Holds, math.NaN()
	case iv.Lo >= qual:
		return Qualified, math.NaN()
	}
	return Fails, math.NaN()
}

// maxRepsToDecide bounds the replications worth naming.
const maxRepsToDecide = 100000

// RepsToDecide is the replications at which an interval of half-width
// (hi − lo)/2 with R replications, shrinking as 1/√R, would leave the
// estimate v clear of threshold t: R·(half-width / |v − t|)², rounded up
// (at least R + 1; +Inf beyond maxRepsToDecide or when v = t).
func repsToDecide(R int, v float64, iv Interval, t float64) float64 {
	half := (iv.Hi - iv.Lo) / 2
	d := math.Abs(v - t)
	if d == 0 {
		return math.Inf(1)
	}
	// Rounded up, forgiving the last bits of the float subtractions (an
	// exact 40 must not become 41).
	n := math.Ceil(float64(R)*(half/d)*(half/d) - 1e-9)
	n = math.Max(n, float64(R+1))
	if n > maxRepsToDecide {
		return math.Inf(1)
	}
	return n
}

// DecideText names the scale that would decide an undecided verdict.
func DecideText(n float64, unit string) string {
	if math.IsInf(n, 1) {
		return fmt.Sprintf("more than %d %s would be needed to decide it", maxRepsToDecide, unit)
	}
	return fmt.Sprintf("about %.0f %s would decide it", n, unit)
}

// IntervalText writes an interval of shares in whole percent.
func IntervalText(iv Interval) string {
	return fmt.Sprintf("%.0f–%.0f %%", 100*iv.Lo, 100*iv.Hi)
}

// ShareCases are the bootstrap cases of one n's three take-off windows
// (wx, wy, wyr): x, per-event y and round-snapshot y of the replications
// of res against the ODE's x (mx) and y (my).
func ShareCases(res *sim.Result, mx, my []float64, wx, wy, wyr Window, tol float64) (x, y, yr ShareCase) {
	var xs, ys, yrs [][]int32
	for _, rep := range res.Reps {
		xs, ys, yrs = append(xs, rep.X), append(ys, rep.Y), append(yrs, rep.YRound)
	}
	N := res.Config.Nodes
	var groups [][]int // replications by warm state, if they share some
	if k := res.Config.WarmStates; k > 0 && res.Config.Model == sim.Protocol {
		at := map[int]int{}
		for i, rep := range res.Reps {
			j, ok := at[rep.Index%k]
			if !ok {
				j = len(groups)
				at[rep.Index%k] = j
				groups = append(groups, nil)
			}
			groups[j] = append(groups[j], i)
		}
	}
	return ShareCase{reps: xs, model: mx, from: wx.From, to: wx.To, nodes: N, tol: tol, groups: groups},
		ShareCase{reps: ys, model: my, from: wy.From, to: wy.To, nodes: N, tol: tol, groups: groups},
		ShareCase{reps: yrs, model: my, from: wyr.From, to: wyr.To, nodes: N, tol: tol, groups: groups}
}

// The growth of replication: the rounds x takes from growthLo to ReplGrowthHi
// of its plateau K = c/n. The ODE's x is logistic with rate k, so this
// time is ln((ReplGrowthHi/(1−ReplGrowthHi))·((1−growthLo)/growthLo))/k = ln 81/k,
// ∝ 1/k as every replication time of the mean field is; unlike a time from
// the single initial copy, it leaves out the random delay of the first
// copies (whose sd, of order 1/k, would swamp differences between
// neighbouring s with a few runs).
const (
	growthLo     = 0.1
	ReplGrowthHi = 0.9
)

// GrowthRow is the protocol's growth time of replication at exchange size
// S: mean and sd over Runs runs.
type GrowthRow struct {
	S        int
	Mean, SD float64
	Runs     int
}

// GrowthTimes returns the rounds from X ≥ growthLo·K·N to X ≥ ReplGrowthHi·K·N
// (first passages) of each run that reaches both levels: a run whose item
// died out while few copies existed has no growth to time.
func GrowthTimes(res *sim.Result, K float64) []float64 {
	N := float64(res.Config.Nodes)
	first := func(x []int32, level float64) float64 {
		for t, v := range x {
			if float64(v) >= level {
				return float64(t)
			}
		}
		return math.NaN()
	}
	var out []float64
	for _, rep := range res.Reps {
		if g := first(rep.X, ReplGrowthHi*K*N) - first(rep.X, growthLo*K*N); !math.IsNaN(g) {
			out = append(out, g)
		}
	}
	return out
}

// ReplicationGain is the gain of the exchange size S over s*'s integer
// argmax in growth time, in % of the time at the argmax, with its interval
// (± TCrit standard errors of the difference of two means).
type ReplicationGain struct {
	S            int
	GainPct      float64
	Lo, Hi       float64
	RunsToDecide float64 // NaN when decided
}

// ReplicationGains measures every simulated s other than sInt against it;
// ok is false when sInt was not simulated.
func ReplicationGains(rows []GrowthRow, sInt int) (gains []ReplicationGain, ok bool) {
	i := slices.IndexFunc(rows, func(r GrowthRow) bool { return r.S == sInt })
	if i < 0 {
		return nil, false
	}
	ref := rows[i]
	for _, r := range rows {
		if r.S == sInt {
			continue
		}
		se := math.Sqrt(r.SD*r.SD/float64(r.Runs) + ref.SD*ref.SD/float64(ref.Runs))
		g := ReplicationGain{S: r.S, GainPct: 100 * (ref.Mean - r.Mean) / ref.Mean, RunsToDecide: math.NaN()}
		// Student's t with the fewer runs' degrees of freedom (a
		// conservative Welch interval).
		h := 100 * TCrit(ZDecide, min(r.Runs, ref.Runs)) * se / ref.Mean
		g.Lo, g.Hi = g.GainPct-h, g.GainPct+h
		if iv := (Interval{g.Lo, g.Hi}); iv.Straddles(OptGainPct) {
			g.RunsToDecide = repsToDecide(min(r.Runs, ref.Runs), g.GainPct, iv, OptGainPct)
		}
		gains = append(gains, g)
	}
	return gains, true
}

func ReplicationRuleText() string {
	return fmt.Sprintf("on the paper's model, the exact pairwise chain: the s with the smallest mean time from one copy to %g %% of the plateau c/n within %g of s* holds; better than s* by ≥ %g %% of the time and ≥ %g standard errors with the protocol runs of this scale does not hold; otherwise holds with a qualification (near-optimal). The protocol's growth times (%g %% to %g %% of the plateau) at each simulated s are shown beside, not graded: a gain of %g %% between neighbouring s needs about 200 runs per s at 99.73 %%, beyond this scale's time",
		100*ReplGrowthHi, OptSlack, OptGainPct, float64(ZSignificant), 100*growthLo, 100*ReplGrowthHi, OptGainPct)
}

// TCrit is the critical value of a two-sided interval of the level that
// z standard errors give a normal law, for a mean of n values whose
// standard error is estimated from them: the Student t quantile with n − 1
// degrees of freedom (12.7 for 2 values at z = 2, 2.32 for 10, → z as n
// grows). With z standard errors alone, a mean of 2 or 5 seeds would
// claim a precision its own sd cannot show. NaN for n < 2.
func TCrit(z float64, n int) float64 {
	if n < 2 {
		return math.NaN()
	}
	level := 2*distuv.UnitNormal.CDF(z) - 1
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(1 - (1-level)/2)
}

// TransitionsByRep compares the measured transitions of d with the
// model's P(to | from) (model) as sim.TransitionZ does, but with the standard error
// of each pooled frequency f = Σ c_r / Σ m_r (c_r the count of the target,
// m_r of the state, in replication r) taken from the spread between the R
// replications, the ratio estimator's R/(R−1)·Σ (c_r − f·m_r)² / (Σ m_r)²:
// one item's successive shuffles within a run are not independent trials,
// so the binomial standard error understates the noise. Targets of model
// probability 0 or 1, states never seen, and state 00 are skipped.
func TransitionsByRep(res *sim.Result, model approx.Transitions) sim.TransitionTest {
	R := float64(len(res.Reps))
	var t sim.TransitionTest
	if R < 2 {
		return sim.TransitionTest{MaxDiff: math.NaN(), MaxZ: math.NaN()}
	}
	for i := 1; i < 4; i++ {
		var M float64
		for _, rep := range res.Reps {
			for j := range 4 {
				M += float64(rep.Transitions[i][j])
			}
		}
		for j := range 4 {
			p := model[i][j]
			if M == 0 || p <= 0 || p >= 1 {
				continue
			}
			var C float64
			for _, rep := range res.Reps {
				C += float64(rep.Transitions[i][j])
			}
			f := C / M
			var ss float64
			for _, rep := range res.Reps {
				var m float64
				for k := range 4 {
					m += float64(rep.Transitions[i][k])
				}
				d := float64(rep.Transitions[i][j]) - f*m
				ss += d * d
			}
			se := math.Sqrt(R/(R-1)*ss) / M
			diff := math.Abs(f - p)
			t.MaxDiff = math.Max(t.MaxDiff, diff)
			if se > 0 {
				t.MaxZ = math.Max(t.MaxZ, diff/se)
			}
		}
	}
	return t
}
