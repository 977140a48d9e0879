package sim

import (
	"math"
	"math/big"
)

// RoundStats summarises one round over replications, as fractions of N.
type RoundStats struct {
	T                int
	XMean, XSD       float64
	YMean, YSD       float64
	XQ05, XQ50, XQ95 float64
	YQ05, YQ50, YQ95 float64
	// The round-snapshot coverage (Replication.YRound).
	YRMean, YRSD        float64
	YRQ05, YRQ50, YRQ95 float64
	// PExtinct is the share of replications in which d is extinct at t
	// (X(t) = 0; absorbing, so it never decreases), an estimate of
	// P(X(t) = 0); PExtinctSE its binomial standard error √(p(1−p)/R) over
	// the R replications (0 when p is 0 or 1: use more replications, or
	// the exact chain, to bound a rare extinction). Both are 0 in a
	// lossless run, where d cannot die.
	PExtinct, PExtinctSE float64
}

// powerSums are the exact integer power sums of a round's counts over
// replications: Count, Σv and Σv². They add exactly across shards, which is
// what makes a merge byte-identical to a single run: the mean Σv/Count and
// the variance (Count·Σv² − (Σv)²)/(Count(Count−1)) are computed once, from
// exact integers, whatever the order of the replications. (Chan et al.'s
// pairwise update of (count, mean, M2) computes the same in floating point;
// with integer data the power sums are exact and simpler.)
type powerSums struct {
	Count int64
	Sum   int64
	SumSq *big.Int // Σv² may exceed 2^63 for large N and R
}

// meanSD returns the mean and the sample standard deviation (0 for one
// replication), both divided by N, each rounded once from exact values.
func (m powerSums) meanSD(N int) (mean, sd float64) {
	if m.Count == 0 {
		return math.NaN(), math.NaN()
	}
	mr := new(big.Rat).SetFrac(big.NewInt(m.Sum), big.NewInt(m.Count*int64(N)))
	mean, _ = mr.Float64()
	if m.Count < 2 {
		return mean, 0
	}
	// Var = (Count·Σv² − (Σv)²) / (Count·(Count−1)), in exact integers.
	num := new(big.Int).Mul(big.NewInt(m.Count), m.SumSq)
	s := big.NewInt(m.Sum)
	num.Sub(num, s.Mul(s, s))
	den := new(big.Int).Mul(big.NewInt(m.Count), big.NewInt(m.Count-1))
	den.Mul(den, big.NewInt(int64(N)*int64(N)))
	v, _ := new(big.Rat).SetFrac(num, den).Float64()
	return mean, math.Sqrt(v)
}

func moments(vals []int32) powerSums {
	m := powerSums{Count: int64(len(vals)), SumSq: new(big.Int)}
	t := new(big.Int)
	for _, v := range vals {
		m.Sum += int64(v)
		m.SumSq.Add(m.SumSq, t.SetInt64(int64(v)*int64(v)))
	}
	return m
}

// quantile returns the p-quantile of sorted data by linear interpolation
// between order statistics (Hyndman and Fan type 7, the default of R and
// NumPy): h = (k−1)p, q = x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]).
func quantile(sorted []int32, p float64) float64 {
	k := len(sorted)
	if k == 1 {
		return float64(sorted[0])
	}
	h := float64(k-1) * p
	lo := int(math.Floor(h))
	if lo >= k-1 {
		return float64(sorted[k-1])
	}
	return float64(sorted[lo]) + (h-float64(lo))*float64(sorted[lo+1]-sorted[lo])
}

// shaped reports whether r is a result Run could have returned: at least
// one replication, 1 ≤ Nodes ≤ 2^26, and every trajectory of
// Config.Rounds + 1 counts. The methods that read the trajectories return
// no value (nil, NaN) for another.
func (r *Result) shaped() bool {
	if r == nil || len(r.Reps) == 0 || r.Config.Rounds < 0 || r.Config.Nodes < 1 || r.Config.Nodes > 1<<26 {
		return false
	}
	for i := range r.Reps {
		rep := &r.Reps[i]
		if n := r.Config.Rounds + 1; len(rep.X) != n || len(rep.Y) != n || len(rep.YRound) != n {
			return false
		}
	}
	return true
}

// Summary computes the per-round statistics of a result. It depends only on
// the multiset of replications, not on their order. It is nil for a
// result Run could not have returned (no replication, or trajectories of
// another length than Config.Rounds + 1).
func (r *Result) Summary() []RoundStats {
	if r.summarised() {
		r.sum.mu.Lock()
		defer r.sum.mu.Unlock()
		out := make([]RoundStats, len(r.sum.cols))
		for t := range out {
			out[t] = roundStats(t, r.Config.Nodes, &r.sum.cols[t])
		}
		return out
	}
	if !r.shaped() {
		return nil
	}
	T := r.Config.Rounds
	out := make([]RoundStats, T+1)
	var cols [3]column
	for i := range cols {
		cols[i].vals = make([]int32, len(r.Reps))
	}
	for t := 0; t <= T; t++ {
		for i, rep := range r.Reps {
			cols[0].vals[i], cols[1].vals[i], cols[2].vals[i] = rep.X[t], rep.Y[t], rep.YRound[t]
		}
		out[t] = roundStats(t, r.Config.Nodes, &cols)
	}
	return out
}

// Totals adds the counters of every replication (none for a nil result).
func (r *Result) Totals() Counters {
	var c Counters
	if r == nil {
		return c
	}
	if r.summarised() {
		return r.sum.tot
	}
	for i := range r.Reps {
		c.add(&r.Reps[i].Counters)
	}
	return c
}

// AliveMean returns the mean over replications of Replication.Alive, the
// distinct items other than d alive at t = 0, and its standard error (the
// replications' sd over √R; 0 for one replication). It is NaN for a run
// that does not record them (a lossless run, or the Markov models, which
// have no caches), and for a nil result.
func (r *Result) AliveMean() (mean, se float64) {
	if r == nil || r.Config.Model != Protocol || r.Config.Loss == 0 || r.Replications() == 0 {
		return math.NaN(), math.NaN()
	}
	if r.summarised() {
		if len(r.sum.alive) != r.sum.n {
			return math.NaN(), math.NaN()
		}
		v := make([]float64, len(r.sum.alive))
		for i, a := range r.sum.alive {
			v[i] = float64(a)
		}
		return aliveMeanOf(v)
	}
	v := make([]float64, len(r.Reps))
	for i := range r.Reps {
		v[i] = float64(r.Reps[i].Alive)
	}
	return aliveMeanOf(v)
}
