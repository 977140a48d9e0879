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
//
// With message loss (Config.Loss > 0) a holder paired with a non-holder
// also loses the item, with no copy made, at rate ℓ·X(N−X)/(N−1) (ℓ =
// chain.Jumps.Lose); X = 0 is absorbing, and a replication that reaches it
// before the level returns +Inf (T_L = ∞).
func lumpedSample(ctx context.Context, cfg Config, reps int, seed uint64, workers int, progress gossip.Progress) ([]float64, error) {
	return lumpedRange(ctx, cfg, 0, reps, seed, workers, progress)
}

// lumpedRange draws replications from..to−1 of lumpedSample (so that a
// sample can be extended with the same streams).
func lumpedRange(ctx context.Context, cfg Config, from, to int, seed uint64, workers int, progress gossip.Progress) ([]float64, error) {
	j, err := chain.JumpsLossFor(cfg.PDrop, cfg.Shuffle, cfg.Loss)
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	reps := to - from
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
				out[r] = lumpedOne(ctx, cfg, j, rand.New(rand.NewPCG(seed, uint64(from+r))))
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

// lumpedOne is one replication of lumpedSample; it returns NaN when ctx
// ends first (checked every 2^20 events: a replication at N = 10⁹ has
// some 4·10⁹).
func lumpedOne(ctx context.Context, cfg Config, j chain.Jumps, rng *rand.Rand) float64 {
	N, target := float64(cfg.Nodes), cfg.count()
	x, y := cfg.initial(), cfg.initial()
	t := 0.0
	shuffles := cfg.Time == gossip.Shuffles
	for ev := 1; y < target; ev++ {
		if ev&(1<<20-1) == 0 && ctx.Err() != nil {
			return math.NaN()
		}
		if x == 0 {
			return math.Inf(1) // the item died out (only with loss)
		}
		fx, fy := float64(x), float64(y)
		birth := j.Up * fx * (N - fx)
		death := j.Drop * fx * (fx - 1)
		move := j.Move * fx * (N - fy)
		lose := j.Lose * fx * (N - fx)                   // 0 without loss
		total := (birth + death + move + lose) / (N - 1) // events a round
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
		v := rng.Float64() * (birth + death + move + lose)
		switch {
		case v < birth:
			if rng.Float64()*(N-fx) < N-fy {
				y++
			}
			x++
		case v < birth+death:
			x--
		case lose > 0 && v >= birth+death+move:
			x-- // lost with no copy made
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
	a.Accuracy.Note = lumpedNote(cfg, set.Reps, set.Seed, a)
	return a, nil
}

// sampleAnswer summarises a sample of T_L observed exactly (+Inf: the item
// died out first): PReach the share that reached the level; the mean, sd
// and quantiles over those R' that did; TConfidence and P(T_L ≤ D) over
// all R, an item that died counting as late.
func sampleAnswer(times []float64, cfg Config) *Answer {
	R := float64(len(times))
	a := &Answer{PDeadline: math.NaN(), Accuracy: noAccuracy()}
	s := append([]float64(nil), times...)
	sort.Float64s(s)
	reached := sort.SearchFloat64s(s, math.Inf(1))
	Rr := float64(reached)
	a.PReach = Rr / R
	if cfg.Loss > 0 {
		a.Accuracy.SEPReach = math.Sqrt(a.PReach * (1 - a.PReach) / R)
	}
	nan := math.NaN()
	q := func(p float64) float64 {
		if reached == 0 {
			return nan
		}
		return s[max(0, int(math.Ceil(p*Rr))-1)]
	}
	a.Q05, a.Q25, a.Q50, a.Q75, a.Q95 = q(0.05), q(0.25), q(0.5), q(0.75), q(0.95)
	a.TConfidence = s[max(0, int(math.Ceil(cfg.confidence()*R))-1)]
	if math.IsInf(a.TConfidence, 1) {
		a.TConfidence = nan // P(T_L < ∞) < Confidence
	}
	m, v, m4 := 0.0, 0.0, 0.0
	for _, t := range s[:reached] {
		m += t
	}
	m /= Rr
	for _, t := range s[:reached] {
		d := (t - m) * (t - m)
		v += d
		m4 += d * d
	}
	if Rr > 1 {
		v /= Rr - 1
	}
	m4 /= Rr
	a.Mean, a.SD = m, math.Sqrt(v)
	a.Accuracy.SEMean = math.Sqrt(v / Rr)
	if v > 0 {
		// As in mcAnswer: SE(s) ≈ √(μ₄ − σ⁴)/(2σ√R).
		a.Accuracy.SESD = math.Sqrt(math.Max(0, m4-v*v)/Rr) / (2 * math.Sqrt(v))
	}
	if cfg.Deadline > 0 {
		p := float64(sort.SearchFloat64s(s, math.Nextafter(cfg.Deadline, math.Inf(1)))) / R
		a.PDeadline = p
		a.Accuracy.SEPDeadline = math.Sqrt(p * (1 - p) / R)
		a.PDeadlineLow = wilsonLow(p, int(R))
	}
	return a
}
