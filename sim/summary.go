package sim

import (
	"context"
	"math"
	"math/big"
	"slices"
	"sync"

	"github.com/gossipkit/gossipkit/internal/parallel"
	"github.com/gossipkit/gossipkit/internal/stats"
)

// column is one round's counts of one quantity (x, y or y_round) over the
// replications: the values themselves, or, where N + 1 is fewer than the
// replications, how many replications had each value 0..N. Both give the
// same power sums, zero count and order statistics, so the statistics
// computed from either are the same, bit for bit.
type column struct {
	vals []int32
	hist []uint32
}

func newColumn(N, reps int) column {
	if N+1 < reps {
		return column{hist: make([]uint32, N+1)}
	}
	return column{vals: make([]int32, 0, reps)}
}

func (c *column) add(v int32) {
	if c.hist != nil {
		c.hist[v]++
		return
	}
	c.vals = append(c.vals, v)
}

// count, moments, zeros and quantiles of the column.
func (c *column) stats(N float64) (ps powerSums, zeros int64, q05, q50, q95 float64) {
	if c.hist == nil {
		slices.Sort(c.vals)
		ps = moments(c.vals)
		for _, v := range c.vals {
			zeros += b2i64(v == 0)
		}
		return ps, zeros, quantile(c.vals, 0.05) / N, quantile(c.vals, 0.5) / N, quantile(c.vals, 0.95) / N
	}
	ps.SumSq = new(big.Int)
	t := new(big.Int)
	for v, n := range c.hist {
		if n == 0 {
			continue
		}
		ps.Count += int64(n)
		ps.Sum += int64(v) * int64(n)
		t.SetInt64(int64(v) * int64(v))
		ps.SumSq.Add(ps.SumSq, t.Mul(t, big.NewInt(int64(n))))
	}
	zeros = int64(c.hist[0])
	return ps, zeros, c.quantile(ps.Count, 0.05) / N, c.quantile(ps.Count, 0.5) / N, c.quantile(ps.Count, 0.95) / N
}

// quantile is quantile's type 7 on the histogram of k values: the order
// statistics x[lo] and x[lo+1] read from the cumulative counts.
func (c *column) quantile(k int64, p float64) float64 {
	at := func(i int64) float64 { // the i-th smallest value, 0-based
		var cum int64
		for v, n := range c.hist {
			cum += int64(n)
			if cum > i {
				return float64(v)
			}
		}
		return float64(len(c.hist) - 1)
	}
	if k == 1 {
		return at(0)
	}
	h := float64(k-1) * p
	lo := int64(math.Floor(h))
	if lo >= k-1 {
		return at(k - 1)
	}
	a, b := at(lo), at(lo+1)
	return a + (h-float64(lo))*(b-a)
}

func b2i64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// summary is what RunSummary keeps of the replications: per round the
// three columns, the counters' totals and, for a lossy protocol run, the
// replications' Alive by position (AliveMean's order).
type summary struct {
	mu    sync.Mutex
	n     int
	cols  [][3]column
	tot   Counters
	alive []int32
}

func newSummary(cfg Config, reps int) *summary {
	s := &summary{cols: make([][3]column, cfg.Rounds+1)}
	for t := range s.cols {
		for i := range 3 {
			s.cols[t][i] = newColumn(cfg.Nodes, reps)
		}
	}
	if cfg.Model == Protocol && cfg.Loss > 0 {
		s.alive = make([]int32, reps)
	}
	return s
}

func (s *summary) add(k int, rep *Replication) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	for t := range s.cols {
		s.cols[t][0].add(rep.X[t])
		s.cols[t][1].add(rep.Y[t])
		s.cols[t][2].add(rep.YRound[t])
	}
	s.tot.add(&rep.Counters)
	if s.alive != nil {
		s.alive[k] = int32(rep.Alive)
	}
}

// roundStats are the statistics of round t from its three columns, as
// Summary computes them.
func roundStats(t, nodes int, cols *[3]column) RoundStats {
	N := float64(nodes)
	s := RoundStats{T: t}
	var ps [3]powerSums
	var dead int64
	ps[0], dead, s.XQ05, s.XQ50, s.XQ95 = cols[0].stats(N)
	ps[1], _, s.YQ05, s.YQ50, s.YQ95 = cols[1].stats(N)
	ps[2], _, s.YRQ05, s.YRQ50, s.YRQ95 = cols[2].stats(N)
	s.XMean, s.XSD = ps[0].meanSD(nodes)
	s.YMean, s.YSD = ps[1].meanSD(nodes)
	s.YRMean, s.YRSD = ps[2].meanSD(nodes)
	s.PExtinct = float64(dead) / float64(ps[0].Count)
	s.PExtinctSE = math.Sqrt(s.PExtinct * (1 - s.PExtinct) / float64(ps[0].Count))
	return s
}

// SummaryMemoryEstimate is MemoryEstimate for RunSummary: the replications
// in flight as MemoryEstimate counts them, and instead of every
// replication, per round and quantity 4·min(N + 1, R) bytes (a histogram
// over 0..N or the values), and for a lossy protocol run 4 bytes of Alive
// per replication. These are live while each replication, once added, is
// garbage, and Go's collector lets garbage grow to the live heap before it
// runs (GOGC = 100): so they count twice, up to what the replications
// allocate (R·repBytes). Measured (peak resident memory, the runtime
// included): lumped, N = 10^6, 10^6 replications of 20 rounds, 515 MB
// against 252 MB estimated before the collector's share, 504 MB with it
// (TestSimMemoryPeak). It does not grow with the replications beyond
// N + 1. Like MemoryEstimate it does not validate c (negative fields and
// workers count as 0).
func (c Config) SummaryMemoryEstimate(workers int) uint64 {
	kept := c
	kept.Reps = 0
	reps := uint64(max(c.Reps, 0))
	cols := uint64(max(c.Rounds, 0)+1) * 3 * 4 * min(uint64(max(c.Nodes, 0))+1, reps)
	var alive uint64
	if c.Model == Protocol && c.Loss > 0 {
		alive = 4 * reps
	}
	return kept.MemoryEstimate(workers) + cols + alive + min(cols+alive, reps*repBytes(c.Rounds))
}

// RunSummary is Run without keeping the replications: each is added to
// the statistics as it ends and dropped, so memory is bounded by the
// replications in flight and SummaryMemoryEstimate, whatever Config.Reps.
// The result's Reps is nil; its Summary, Totals, Measure, AliveMean and
// Replications are those of Run's result, bit for bit (the statistics
// depend only on the multiset of replications, and the quantiles, read
// from a histogram of the counts where N + 1 < R, are the same order
// statistics). Settings.Indices runs a subset, as in Run; a nil ctx, an
// invalid cfg or set are refused as Run refuses them.
func RunSummary(ctx context.Context, cfg Config, set Settings) (*Result, error) {
	set, g, connected, tr, err := prepare(ctx, cfg, set)
	if err != nil {
		return nil, err
	}
	n := cfg.Reps
	index := func(k int) int { return k }
	if set.Indices != nil {
		n = len(set.Indices)
		index = func(k int) int { return set.Indices[k] }
	}
	var warm []*warmState
	if cfg.Model == Protocol && cfg.WarmStates > 0 {
		idx := make([]int, n)
		for k := range idx {
			idx[k] = index(k)
		}
		if warm, err = warmUps(ctx, cfg, g, idx, set.Workers, set.Warm); err != nil {
			return nil, err
		}
	}
	sum := newSummary(cfg, n)
	err = parallel.For(ctx, n, set.Workers, func() func(context.Context, int) error {
		sc := new(scratch)
		return func(ctx context.Context, k int) error {
			var w *warmState
			if warm != nil {
				w = warm[warmIndex(index(k), cfg.WarmStates)]
			}
			rep, err := runOne(ctx, cfg, g, tr, index(k), w, sc)
			if err == nil {
				sum.add(k, rep)
			}
			return err
		}
	}, set.Progress)
	if err != nil {
		return nil, err
	}
	return &Result{Config: cfg, Connected: connected, sum: sum}, nil
}

// Replications returns the number of replications the result holds or
// summarises (0 for a nil result).
func (r *Result) Replications() int {
	switch {
	case r == nil:
		return 0
	case len(r.Reps) == 0 && r.sum != nil:
		return r.sum.n
	}
	return len(r.Reps)
}

// AliveCounts returns each replication's Alive, in the order of Reps (of
// the replications run, for RunSummary's result), or nil for a run that
// does not record them (AliveMean's NaN).
func (r *Result) AliveCounts() []int {
	if r == nil || r.Config.Model != Protocol || r.Config.Loss == 0 {
		return nil
	}
	if r.summarised() {
		out := make([]int, len(r.sum.alive))
		for i, a := range r.sum.alive {
			out[i] = int(a)
		}
		return out
	}
	out := make([]int, len(r.Reps))
	for i := range r.Reps {
		out[i] = r.Reps[i].Alive
	}
	return out
}

// summarised reports whether r holds RunSummary's statistics instead of
// replications.
func (r *Result) summarised() bool {
	return r != nil && len(r.Reps) == 0 && r.sum != nil && r.sum.n > 0 && len(r.sum.cols) == r.Config.Rounds+1 &&
		r.Config.Nodes >= 1 && r.Config.Nodes <= 1<<26
}

// aliveMeanOf is AliveMean's mean and standard error of the values v.
func aliveMeanOf(v []float64) (mean, se float64) {
	m, sd := stats.MeanSD(v)
	if len(v) < 2 {
		return m, 0
	}
	return m, sd / math.Sqrt(float64(len(v)))
}

// CheckSummaryMemory is CheckMemory for RunSummary: the need is
// SummaryMemoryEstimate, which does not grow with the replications beyond
// N + 1.
func (c Config) CheckSummaryMemory(workers int, avail uint64) error {
	return c.checkMemory(workers, avail, Config.SummaryMemoryEstimate)
}

// FitSummaryWorkers is FitWorkers for RunSummary (SummaryMemoryEstimate).
func (c Config) FitSummaryWorkers(workers int, budget uint64) int {
	return c.fitWorkers(workers, budget, Config.SummaryMemoryEstimate)
}
