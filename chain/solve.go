package chain

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/gossipkit/gossipkit/gossip"
)

// trimEvery is the number of shuffles between trims of the live region.
const trimEvery = 16

// Solve computes the law of X(t)/N (and Y(t)/N) at t = 0, Dt, …, TMax and,
// with a Level, the law of the time to that coverage. ctx is checked every
// few thousand shuffles.
func Solve(ctx context.Context, cfg Config, set Settings) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	set = set.withDefaults()
	j, err := JumpsFor(cfg.PDrop, cfg.Shuffle)
	if err != nil {
		return nil, err
	}
	N := cfg.Nodes
	initial := max(cfg.Initial, 1)
	joint := !cfg.ReplicationOnly
	m := 0 // coverage count of the level
	if cfg.Level > 0 {
		m = levelCount(cfg.Level, N)
	}
	res := &Result{Config: cfg}
	ts := grid(cfg.TMax, cfg.Dt)
	l := newLaw(N, joint, j, initial)
	total := int64(math.Round(float64(N) * cfg.TMax))
	// tick follows l.advance: it records the live region's size after each
	// trim and reports progress and cancellation.
	tick := func() error {
		if l.steps%trimEvery == 0 {
			res.Stats.MaxStates = max(res.Stats.MaxStates, l.states())
		}
		if l.steps%4096 == 0 {
			if set.Progress != nil {
				set.Progress(l.steps, total)
			}
			return ctx.Err()
		}
		return nil
	}
	var sk []float64 // S_k = P(Y_k < m), Shuffles pass
	record := func(t float64, poissonLost float64) {
		res.Rows = append(res.Rows, l.row(t, m))
		res.Bound = l.dropped + poissonLost
	}
	switch cfg.Time {
	case gossip.Shuffles:
		// One pass: the law after round(N·t) shuffles, and S_k on the way.
		if m > 0 {
			sk = append(sk, l.below(m))
		}
		for _, t := range ts {
			target := int64(math.Round(float64(N) * t))
			for l.steps < target {
				if m > 0 {
					sk = append(sk, l.advanceLevel(m, sk[len(sk)-1], set.Drop))
				} else {
					l.advance(set.Drop)
				}
				if err := tick(); err != nil {
					return nil, err
				}
			}
			record(t, 0)
		}
	case gossip.Continuous:
		lost := 0.0
		mix := l.newMixer()
		prev := 0.0
		for _, t := range ts {
			if t > prev {
				lo, w, tail := poisson(float64(N)*(t-prev), set.Tol)
				for k := 0; k < lo+len(w); k++ {
					if k >= lo {
						mix.add(l, w[k-lo])
					}
					if k < lo+len(w)-1 {
						l.advance(set.Drop)
						if err := tick(); err != nil {
							return nil, err
						}
					}
				}
				mix.install(l)
				lost += tail
			}
			record(t, lost)
			prev = t
		}
	}
	res.Stats.Steps = l.steps
	res.Missing = 1 - l.mass()
	if res.Missing > res.Bound+1e-9 || res.Missing < -1e-9 {
		return nil, fmt.Errorf("%w: missing %g, bound %g", ErrMass, res.Missing, res.Bound)
	}
	if m > 0 {
		// In Shuffles time the per-shuffle chain goes on from where TMax
		// left it; in Continuous time the first pass made no S_k, so a
		// fresh chain starts.
		from := l
		if cfg.Time == gossip.Continuous {
			from, sk = newLaw(N, true, j, initial), nil
		}
		before := from.steps
		lt, err := levelTime(ctx, cfg, set, j, initial, m, from, sk)
		if err != nil {
			return nil, err
		}
		res.Stats.Steps += from.steps - before
		res.Level = lt
	}
	return res, nil
}

func (l *law) mass() float64 {
	s := 0.0
	l.each(func(_, _ int, p float64) { s += p })
	return s
}

// row summarises the current law at time t.
func (l *law) row(t float64, m int) Row {
	n := l.n
	px := make([]float64, n+1)
	var py []float64
	if l.joint {
		py = make([]float64, n+1)
	}
	total, above := 0.0, 0.0
	l.each(func(x, y int, p float64) {
		px[x] += p
		if py != nil {
			py[y] += p
			if m > 0 && y >= m {
				above += p
			}
		}
		total += p
	})
	r := Row{T: t, X: stat(px, total, n)}
	if py != nil {
		r.Y = stat(py, total, n)
	}
	if m > 0 {
		r.PLevel = above / total
	}
	return r
}

// stat summarises a law over 0..n (normalised by total) as fractions of n.
func stat(p []float64, total float64, n int) Stat {
	mean, sq := 0.0, 0.0
	for v, pv := range p {
		mean += float64(v) * pv
	}
	mean /= total
	for v, pv := range p {
		d := float64(v) - mean
		sq += d * d * pv
	}
	q := func(level float64) float64 {
		acc := 0.0
		for v, pv := range p {
			acc += pv
			if acc >= level*total {
				return float64(v) / float64(n)
			}
		}
		return 1
	}
	return Stat{Mean: mean / float64(n), SD: math.Sqrt(sq/total) / float64(n), Q05: q(0.05), Q50: q(0.5), Q95: q(0.95)}
}

// levelTime computes the law of the time to coverage count m: the mean
// and sd by HittingMoments, the quantiles from S_k = P(Y_k < m) of the
// per-shuffle chain l, stepped on from S_0..S_k in sk until S_k < Tol.
func levelTime(ctx context.Context, cfg Config, set Settings, j Jumps, initial, m int, l *law, sk []float64) (*LevelTime, error) {
	N := cfg.Nodes
	if len(sk) == 0 {
		sk = append(sk, l.below(m))
	}
	for sk[len(sk)-1] >= set.Tol {
		if l.steps > int64(MaxSteps) {
			return nil, fmt.Errorf("chain: coverage %g not reached within %g shuffles", cfg.Level, float64(MaxSteps))
		}
		sk = append(sk, l.advanceLevel(m, sk[len(sk)-1], set.Drop))
		if l.steps%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
	}
	// The mean and sd come from first-step analysis (HittingMoments), with
	// no truncation; the quantiles from S_k.
	ek, ek2, err := HittingMoments(ctx, N, initial, m, j)
	if err != nil {
		return nil, err
	}
	n := float64(N)
	lt := &LevelTime{Level: cfg.Level, Count: m}
	lt.Mean, lt.SD = hittingStat(cfg.Time, N, ek, ek2)
	cdfK := func(k int) float64 { // P(K ≤ k)
		if k >= len(sk) {
			return 1
		}
		return 1 - sk[k]
	}
	if cfg.Time == gossip.Shuffles {
		q := func(level float64) float64 {
			k := sort.Search(len(sk), func(k int) bool { return cdfK(k) >= level })
			return float64(k) / n
		}
		lt.Q05, lt.Q50, lt.Q95 = q(0.05), q(0.5), q(0.95)
		return lt, nil
	}
	// P(T ≤ t) = Σ_k Pois(k; N t) P(K ≤ k).
	cdfT := func(t float64) float64 {
		lo, w, _ := poisson(n*t, set.Tol)
		s := 0.0
		for i, wk := range w {
			s += wk * cdfK(lo+i)
		}
		return s
	}
	hi := (float64(len(sk)) + 40*math.Sqrt(float64(len(sk))) + 100) / n
	q := func(level float64) float64 {
		a, b := 0.0, hi
		for range 60 {
			mid := (a + b) / 2
			if cdfT(mid) >= level {
				b = mid
			} else {
				a = mid
			}
		}
		return b
	}
	lt.Q05, lt.Q50, lt.Q95 = q(0.05), q(0.5), q(0.95)
	return lt, nil
}

// levelCount is ⌈L·N⌉, with a margin for the rounding of L·N.
func levelCount(level float64, N int) int { return int(math.Ceil(level*float64(N) - 1e-9)) }

// grid returns the output times 0, dt, 2dt, …, tMax (round(tMax/dt) + 1
// points, the last clipped to tMax).
func grid(tMax, dt float64) []float64 {
	ts := make([]float64, int(math.Round(tMax/dt))+1)
	for i := range ts {
		ts[i] = math.Min(float64(i)*dt, tMax)
	}
	return ts
}
