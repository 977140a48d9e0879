package plan

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/gossip"
)

// lumpedSample draws reps samples of T_L from the pairwise model on its
// lumped state (X, Y), event by event (package doc: births u·X(N−X)/(N−1),
// a share (N−Y)/(N−X) of them to nodes that never held the item; deaths
// w·X(X−1)/(N−1); moves to such nodes m·X(N−Y)/(N−1); a move to a node
// that held the item before changes neither X nor Y). The lumped chain is
// the pairwise model's own law of (X, Y), so the sample is exact in law;
// it is written from the rates alone, independently of package sim, of
// package chain's solvers and of the limit law, and costs O(N) events a
// replication (about 4N at n = 500, c = 100), so N = 10⁴…10⁶ are cheap.
//
// In Continuous time the wait to the next event is exponential with the
// total rate; in Shuffles time each shuffle is an event with probability
// total/N (the chain's per-shuffle jump probabilities), so the wait is a
// geometric number of shuffles, 1/N of a round each. Replication r draws
// from its own stream (PCG seeded with seed and r), so the sample does not
// depend on workers.
func lumpedSample(ctx context.Context, cfg Config, reps int, seed uint64, workers int, progress gossip.Progress) ([]float64, error) {
	j, err := chain.JumpsFor(cfg.PDrop, cfg.Shuffle)
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	out := make([]float64, reps)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range min(workers, reps) {
		wg.Go(func() {
			for {
				r := int(next.Add(1) - 1)
				if r >= reps || ctx.Err() != nil {
					return
				}
				out[r] = lumpedOne(cfg, j, rand.New(rand.NewPCG(seed, uint64(r))))
				d := done.Add(1)
				if progress != nil {
					mu.Lock()
					progress(d, int64(reps))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// lumpedOne is one replication of lumpedSample.
func lumpedOne(cfg Config, j chain.Jumps, rng *rand.Rand) float64 {
	N, target := float64(cfg.Nodes), cfg.count()
	x, y := cfg.initial(), cfg.initial()
	t := 0.0
	shuffles := cfg.Time == gossip.Shuffles
	for y < target {
		fx, fy := float64(x), float64(y)
		birth := j.Up * fx * (N - fx)
		death := j.Drop * fx * (fx - 1)
		move := j.Move * fx * (N - fy)
		total := (birth + death + move) / (N - 1) // events a round
		if shuffles {
			// P(event in one shuffle) = total/N ≤ 1; shuffles until the
			// next event ~ Geometric, ⌈ln U / ln(1 − p)⌉.
			p := total / N
			k := 1.0
			if p < 1 {
				k = math.Max(1, math.Ceil(math.Log(1-rng.Float64())/math.Log1p(-p)))
			}
			t += k / N
		} else {
			t += rng.ExpFloat64() / total
		}
		v := rng.Float64() * (birth + death + move)
		switch {
		case v < birth:
			if rng.Float64()*(N-fx) < N-fy {
				y++
			}
			x++
		case v < birth+death:
			x--
		default:
			y++
		}
	}
	return t
}

// solveLumped is the Monte Carlo method on the lumped chain: mean, sd,
// empirical quantiles (the smallest sample t with F̂(t) ≥ p) and P(T_L ≤
// D), with their standard errors.
func solveLumped(ctx context.Context, cfg Config, set Settings) (*Answer, error) {
	times, err := lumpedSample(ctx, cfg, set.Reps, set.Seed, set.Workers, set.Progress)
	if err != nil {
		return nil, err
	}
	a := sampleAnswer(times, cfg)
	a.Accuracy.Note = fmt.Sprintf("Monte Carlo of the pairwise model on its lumped state (X, Y), exact in law (%d replications, seed %d): standard errors mean %.2g, sd %.2g rounds",
		set.Reps, set.Seed, a.Accuracy.SEMean, a.Accuracy.SESD)
	return a, nil
}

// sampleAnswer summarises a sample of T_L observed exactly.
func sampleAnswer(times []float64, cfg Config) *Answer {
	R := float64(len(times))
	a := &Answer{PDeadline: math.NaN(), Accuracy: noAccuracy()}
	s := append([]float64(nil), times...)
	sort.Float64s(s)
	q := func(p float64) float64 { return s[max(0, int(math.Ceil(p*R))-1)] }
	a.Q05, a.Q25, a.Q50, a.Q75, a.Q95 = q(0.05), q(0.25), q(0.5), q(0.75), q(0.95)
	a.TConfidence = q(cfg.confidence())
	m, v, m4 := 0.0, 0.0, 0.0
	for _, t := range s {
		m += t
	}
	m /= R
	for _, t := range s {
		d := (t - m) * (t - m)
		v += d
		m4 += d * d
	}
	if R > 1 {
		v /= R - 1
	}
	m4 /= R
	a.Mean, a.SD = m, math.Sqrt(v)
	a.Accuracy.SEMean = math.Sqrt(v / R)
	if v > 0 {
		// As in mcAnswer: SE(s) ≈ √(μ₄ − σ⁴)/(2σ√R).
		a.Accuracy.SESD = math.Sqrt(math.Max(0, m4-v*v)/R) / (2 * math.Sqrt(v))
	}
	if cfg.Deadline > 0 {
		p := float64(sort.SearchFloat64s(s, math.Nextafter(cfg.Deadline, math.Inf(1)))) / R
		a.PDeadline = p
		a.Accuracy.SEPDeadline = math.Sqrt(p * (1 - p) / R)
	}
	return a
}
