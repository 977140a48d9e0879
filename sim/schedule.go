package sim

import (
	"github.com/gossipkit/gossipkit/internal/hugepage"
	"github.com/gossipkit/gossipkit/internal/rng"
)

// driver feeds one round of shuffles to a state. Implementations differ in
// schedule only; the state decides what a shuffle does.
type shuffler interface {
	// shuffle lets initiator a exchange with partner b.
	shuffle(r *rng.Rand, a, b int32)
}

// scheduler runs one round of a schedule on a state and returns the number
// of failed attempts (Async only). For Continuous, it advances the clock.
type scheduler struct {
	kind   Schedule
	g      *graph
	ticks  int
	perm   []int32
	phase  []int32   // Async: each node's tick within a round
	byTick [][]int32 // Async: nodes grouped by phase
	busy   []uint32  // Async: tick stamp of the last shuffle of each node
	stamp  uint32
	clock  float64 // Continuous: time of the next event, in rounds
	now    float64 // Continuous: end of the last completed round
	// live, if not nil, lists the nodes still taking part (after failures);
	// they initiate, and choose partners, among themselves only.
	live []int32
}

// fail removes the given nodes from the schedule (full topology).
func (s *scheduler) fail(dead []bool) {
	s.live = make([]int32, 0, len(dead))
	for v, d := range dead {
		if !d {
			s.live = append(s.live, int32(v))
		}
	}
	if s.perm != nil { // the rounds schedule's permutation, of the live nodes now
		s.perm = s.perm[:len(s.live)]
	}
}

// partner draws a partner for a, the node at index ai of live; after
// failures, uniform among the other live nodes.
func (s *scheduler) partner(r *rng.Rand, a int32, ai int) int32 {
	if s.live == nil {
		return s.g.partner(r, a)
	}
	j := int(r.Intn(uint32(len(s.live) - 1)))
	if j >= ai {
		j++
	}
	return s.live[j]
}

func newScheduler(kind Schedule, g *graph, ticks int, r *rng.Rand) *scheduler {
	return newSchedulerBuf(kind, g, ticks, r, nil)
}

// newSchedulerBuf is newScheduler with buf, if it holds g.n values, as the
// rounds schedule's permutation (a worker's, reused from one replication to
// the next: round overwrites it every round). Only the rounds schedule has
// a permutation.
func newSchedulerBuf(kind Schedule, g *graph, ticks int, r *rng.Rand, buf []int32) *scheduler {
	return newSchedulerIn(kind, g, ticks, r, buf, nil)
}

// asyncArrays are the async schedule's per-node arrays and tick lists, a
// worker's, reused from one replication to the next (12N bytes and the
// lists' spare capacity new each replication were garbage that let Go's
// collector double the heap: 267 MB peak for 178 MB estimated at N = 4·10^6).
type asyncArrays struct {
	phase  []int32
	busy   []uint32
	byTick [][]int32
}

// newSchedulerIn is newSchedulerBuf with as, if not nil, as the async
// schedule's arrays (taken when they fit, else allocated and left in as).
func newSchedulerIn(kind Schedule, g *graph, ticks int, r *rng.Rand, buf []int32, as *asyncArrays) *scheduler {
	s := &scheduler{kind: kind, g: g, ticks: ticks}
	switch kind {
	case Rounds:
		if len(buf) == g.n {
			s.perm = buf
		} else {
			s.perm = make([]int32, g.n)
			hugepage.Advise(s.perm) // shuffled at random every round
		}
	case Async:
		if as != nil && len(as.phase) == g.n && len(as.byTick) == ticks {
			// The worker's arrays: busy cleared as a new one would be,
			// the tick lists emptied and refilled in node order, as
			// fresh ones would be, so the draws and the order are the
			// same.
			s.phase, s.busy, s.byTick = as.phase, as.busy, as.byTick
			clear(s.busy)
			for t := range s.byTick {
				s.byTick[t] = s.byTick[t][:0]
			}
		} else {
			s.phase = make([]int32, g.n)
			s.byTick = make([][]int32, ticks)
			s.busy = make([]uint32, g.n)
			if as != nil {
				as.phase, as.busy, as.byTick = s.phase, s.busy, s.byTick
			}
		}
		for v := range g.n {
			s.phase[v] = int32(r.Intn(uint32(ticks)))
			s.byTick[s.phase[v]] = append(s.byTick[s.phase[v]], int32(v))
		}
	case Continuous:
		s.clock = r.Exp() / float64(g.n)
	}
	return s
}

// round runs one round and returns (shuffles done, attempts failed).
func (s *scheduler) round(r *rng.Rand, st shuffler) (done, failed int64) {
	n := s.g.n
	switch s.kind {
	case Rounds:
		r.Perm(s.perm)
		if s.live != nil {
			for _, i := range s.perm {
				st.shuffle(r, s.live[i], s.partner(r, s.live[i], int(i)))
			}
			return int64(len(s.perm)), 0
		}
		for _, a := range s.perm {
			st.shuffle(r, a, s.g.partner(r, a))
		}
		return int64(n), 0
	case Async:
		// Within a tick every shuffle involves two nodes that are free in
		// that tick, so no node takes part in two shuffles of one tick and
		// the order of the tick's shuffles does not matter: each acts on the
		// state at the tick's start.
		for t := 0; t < s.ticks; t++ {
			s.stamp++
			if s.stamp == 0 { // wrapped: clear the stamps
				clear(s.busy)
				s.stamp = 1
			}
			group := s.byTick[t]
			for i := len(group) - 1; i > 0; i-- { // random order within the tick
				j := r.Intn(uint32(i + 1))
				group[i], group[j] = group[j], group[i]
			}
			for _, a := range group {
				if s.busy[a] == s.stamp {
					failed++ // a is already in a shuffle it was chosen for
					continue
				}
				b := s.g.partner(r, a)
				if s.busy[b] == s.stamp {
					failed++
					continue
				}
				s.busy[a], s.busy[b] = s.stamp, s.stamp
				st.shuffle(r, a, b)
				done++
			}
		}
		return done, failed
	case Continuous:
		end := s.now + 1
		if s.live != nil {
			n = len(s.live)
		}
		for s.clock < end {
			if s.live != nil {
				i := int(r.Intn(uint32(n)))
				st.shuffle(r, s.live[i], s.partner(r, s.live[i], i))
			} else {
				a := int32(r.Intn(uint32(n)))
				st.shuffle(r, a, s.g.partner(r, a))
			}
			done++
			s.clock += r.Exp() / float64(n)
		}
		s.now = end
		return done, 0
	}
	panic("unknown schedule")
}
