package sim

import (
	"context"
	"slices"

	"github.com/gossipkit/gossipkit/internal/parallel"
	"github.com/gossipkit/gossipkit/internal/rng"
)

// streamWarm is the stream of warm state 0 (Config.WarmStates); warm state
// j draws from stream streamWarm + j of the seed. Replications use streams
// 0..Reps−1 < 10^7 and the topology stream 2^62, so the warm-ups' streams
// are distinct from every other stream of the run.
const streamWarm = 1 << 63

// warmState is the network after the warm-up: the caches (a
// *protocolState[uint16] or *protocolState[int32]) and the scheduler (its
// Async phases and tick order, its Continuous clock). A replication copies
// it (clone) and never writes to the original.
type warmState struct {
	st    any
	sched *scheduler
}

// WarmUps returns the number of warm-ups a run of the replications
// `indices` (nil: all of 0..Reps−1) makes: one per replication when
// WarmStates = 0 (or for a model without caches, none), else the number of
// distinct warm states r mod WarmStates among them. A run's protocol
// shuffles are (WarmUps·Warmup + replications·Rounds)·Nodes under the
// rounds schedule. It does not validate: negative Reps or WarmStates count
// as 0, and indices are counted as given (Settings.Validate refuses those
// out of range).
func (c Config) WarmUps(indices []int) int {
	if c.Model != Protocol {
		return 0
	}
	if indices == nil {
		if c.WarmStates <= 0 {
			return max(c.Reps, 0)
		}
		return max(min(c.WarmStates, c.Reps), 0)
	}
	if c.WarmStates <= 0 {
		return len(indices)
	}
	return len(neededWarm(indices, c.WarmStates))
}

// warmIndex is the warm state replication `index` starts from: index mod k
// (in 0..k−1 for any index, so that WarmUps never panics on indices Run
// would refuse).
func warmIndex(index, k int) int {
	j := index % k
	if j < 0 {
		j += k
	}
	return j
}

// neededWarm lists, in increasing order, the warm states the replications
// idx start from: a shard computes only those. Its memory is that of idx,
// whatever k.
func neededWarm(idx []int, k int) []int {
	seen := make(map[int]bool, len(idx))
	var out []int
	for _, i := range idx {
		if j := warmIndex(i, k); !seen[j] {
			seen[j] = true
			out = append(out, j)
		}
	}
	slices.Sort(out)
	return out
}

// warmUps computes the warm states the replications idx need, on `workers`
// goroutines (one slot per warm state, so the states do not depend on the
// workers), taking from cache (if not nil) those it holds and putting there
// those it computes. The result is indexed by warm state; unneeded ones are
// nil.
func warmUps(ctx context.Context, cfg Config, g *graph, idx []int, workers int, cache *WarmCache) ([]*warmState, error) {
	out := make([]*warmState, cfg.WarmStates)
	var need []int
	for _, j := range neededWarm(idx, cfg.WarmStates) {
		if out[j] = cache.get(cfg, j); out[j] == nil {
			need = append(need, j)
		}
	}
	err := parallel.For(ctx, len(need), workers, func() func(context.Context, int) error {
		return func(ctx context.Context, k int) error {
			j := need[k]
			var w *warmState
			var err error
			if narrowItems(cfg.Shuffle.Items) {
				w, err = warmUp[uint16](ctx, cfg, g, j)
			} else {
				w, err = warmUp[int32](ctx, cfg, g, j)
			}
			out[j] = w
			return err
		}
	}, nil)
	if err != nil {
		return nil, err
	}
	for _, j := range need {
		cache.put(cfg, j, out[j])
	}
	return out, nil
}

// warmUp runs warm-up j: the initial placement, the scheduler's set-up and
// Warmup rounds, all from stream streamWarm + j.
func warmUp[T item](ctx context.Context, cfg Config, g *graph, j int) (w *warmState, err error) {
	defer invariantAsError(&err, "warm state", j)
	r := rng.NewStream(cfg.Seed, streamWarm+uint64(j))
	sched := newScheduler(cfg.Schedule, g, cfg.Ticks, r)
	st := newProtocolState[T](cfg, r)
	if err := warmRounds(ctx, cfg, r, sched, st); err != nil {
		return nil, err
	}
	return &warmState{st: st, sched: sched}, nil
}

// warmRounds runs the cfg.Warmup rounds of mixing before d's insertion.
func warmRounds[T item](ctx context.Context, cfg Config, r *rng.Rand, sched *scheduler, st *protocolState[T]) error {
	for w := 0; w < cfg.Warmup; w++ {
		if (w%16 == 0 || cfg.Nodes > bigRound) && ctx.Err() != nil {
			return ctx.Err()
		}
		sched.round(r, st)
	}
	return nil
}

// clone returns a deep copy of the state: no slice is shared, so a
// replication's shuffles never touch the warm state it started from
// (TestCloneSharesNothing checks every slice field by reflection, so a field
// added to protocolState and not copied here fails it).
func (st *protocolState[T]) clone() *protocolState[T] { return st.cloneIn(nil) }

// cloneIn is clone with the caches copied into buf when it holds as many
// items (a worker's, reused from one replication to the next).
func (st *protocolState[T]) cloneIn(buf []T) *protocolState[T] {
	c := *st
	if len(buf) == len(st.cache) {
		copy(buf, st.cache)
		c.cache = buf
	} else {
		c.cache = slices.Clone(st.cache)
	}
	c.markA, c.markB = slices.Clone(st.markA), slices.Clone(st.markB)
	c.newA, c.newB = slices.Clone(st.newA), slices.Clone(st.newB)
	c.candA, c.candB = slices.Clone(st.candA), slices.Clone(st.candB)
	c.covered = slices.Clone(st.covered)
	c.snap = snapshotCoverage{holds: slices.Clone(st.snap.holds), seen: slices.Clone(st.snap.seen), count: st.snap.count}
	c.copies, c.before = slices.Clone(st.copies), slices.Clone(st.before)
	c.existed, c.seen, c.held = slices.Clone(st.existed), slices.Clone(st.seen), slices.Clone(st.held)
	return &c
}

// clone returns a deep copy of the scheduler; the graph, read-only, is
// shared.
func (s *scheduler) clone() *scheduler {
	c := *s
	c.perm, c.phase, c.busy, c.live = slices.Clone(s.perm), slices.Clone(s.phase), slices.Clone(s.busy), slices.Clone(s.live)
	if s.byTick != nil {
		c.byTick = make([][]int32, len(s.byTick))
		for i, g := range s.byTick {
			c.byTick[i] = slices.Clone(g)
		}
	}
	return &c
}

// warmBytes is the memory of one warm state: the caches (sizeof(T) bytes
// an entry), the two stamp arrays and the per-node flags and scheduler
// arrays (at most 4·4 + 3 bytes a node: perm, Async's phase, tick lists
// and stamps; the flags of covered and the snapshot).
func (c Config) warmBytes() uint64 {
	N, n := uint64(c.Nodes), uint64(c.Shuffle.Items)
	size := uint64(4)
	if narrowItems(c.Shuffle.Items) {
		size = 2
	}
	b := N*uint64(c.Shuffle.Cache)*size + 8*(n+1) + 19*N + 2*uint64(c.Shuffle.Exchange)*(size+4) + 4*uint64(c.Shuffle.Cache)
	if c.Check { // the copy counts and scratch of Check mode
		b += 10*(n+1) + 2*uint64(c.Shuffle.Cache)*size
	}
	return b
}
