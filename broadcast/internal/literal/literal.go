package literal

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/gossipkit/gossipkit/internal/rng"
)

// Node states of the literal engine.
const (
	StUninformed uint8 = iota
	StInformed         // informed before the current round
	StFailed
	StFresh // informed in the current round: acts from the next
)

// Message kinds of a traced event.
const (
	EvPush = iota
	EvRequest
	EvReply
)

// Event is one one-way message of the literal engine, for the tests.
type Event struct {
	Round, Kind, From, To int
	Lost                  bool
}

// Engine is the reference engine of one configuration: every node, every
// message, as broadcast's package doc states the rules.
type Engine struct {
	p       Params
	seed    uint64
	N, M, k int
	eps     float64
	State   []uint8 // each node's state after a run (St*)
	left    []int32 // transmits left (budget only)
	senders []int32 // live informed nodes that may push, informed before the round
	fresh   []int32
	picks   []int32
	stamp   []uint32
	cur     uint32
	Trace   func(Event) // tests: every message, in order
}

// Params are the configuration's figures the engine uses: N nodes, M of
// them live, fanout K, budget (0: none), the live count Target to reach,
// loss Eps, and the protocol's pushes and pulls.
type Params struct {
	N, M, K, Budget, Target int
	Eps                     float64
	Push, Pull              bool
}

// Rep is one replication: T_L in rounds (−1 for ∞), the one-way messages
// of rounds 1..T_L (every round until no node can act when T_L = ∞), and
// the live nodes never informed (push with a budget; else 0).
type Rep struct {
	T        int
	Messages int64
	Missed   int
}

// New is the engine of p; replication r draws from stream r of seed.
func New(p Params, seed uint64) *Engine {
	l := &Engine{p: p, seed: seed, N: p.N, M: p.M, k: p.K, eps: p.Eps,
		State: make([]uint8, p.N), senders: make([]int32, 0, p.N), fresh: make([]int32, 0, p.N),
		picks: make([]int32, 0, p.K)}
	if p.Budget > 0 {
		l.left = make([]int32, p.N)
	}
	return l
}

// peers draws t distinct peers of node v uniformly among the other N − 1
// (Floyd's algorithm on 0..N−2, then x ≥ v shifted past v) into l.picks.
func (l *Engine) peers(r *rng.Rand, v, t int) {
	p := l.picks[:0]
	n := l.N - 1
	if t > 16 {
		if l.stamp == nil {
			l.stamp = make([]uint32, l.N)
		}
		if l.cur++; l.cur == 0 {
			clear(l.stamp)
			l.cur = 1
		}
	}
	for j := n - t; j < n; j++ {
		x := int32(r.Intn(uint32(j + 1)))
		if t > 16 {
			if l.stamp[x] == l.cur {
				x = int32(j)
			}
			l.stamp[x] = l.cur
		} else if slices.Contains(p, x) {
			x = int32(j)
		}
		p = append(p, x)
	}
	for i, x := range p {
		if int(x) >= v {
			p[i] = x + 1
		}
	}
	l.picks = p
}

// Run plays replication index (the stream of its draws); on a cancelled
// ctx it returns ctx's error and the replication so far.
func (l *Engine) Run(ctx context.Context, index int) (Rep, error) {
	r := rng.NewStream(l.seed, uint64(index))
	lost := func() bool { return l.eps > 0 && r.Float64() < l.eps }
	st := l.State
	clear(st)
	st[0] = StInformed
	// The failed nodes: ⌊φ(N−1)⌋ distinct among 1..N−1 (Floyd).
	F, n := l.N-l.M, l.N-1
	for j := n - F; j < n; j++ {
		x := int(r.Intn(uint32(j+1))) + 1
		if st[x] == StFailed {
			x = j + 1
		}
		st[x] = StFailed
	}
	pushes, pulls := l.p.Push, l.p.Pull
	budget := l.p.Budget
	l.senders = l.senders[:0]
	if pushes {
		l.senders = append(l.senders, 0)
		if budget > 0 {
			l.left[0] = int32(budget)
		}
	}
	cont := pushes && !pulls && budget > 0
	rep := Rep{T: -1}
	target := l.p.Target
	if target <= 1 {
		rep.T = 0
	}
	u := l.M - 1
	work := checkEvery // draws, about, before the next check of ctx
	for round := 1; ; round++ {
		// Go on while a rule still sends (package doc): pulls until every
		// live node is informed, a budget until it is spent, pushes
		// without a budget until T_L.
		asking := pulls && u > 0
		spending := budget > 0 && len(l.senders) > 0
		if !asking && !spending && (rep.T >= 0 || len(l.senders) == 0) {
			break
		}
		if (round%64 == 0 || l.N > 1<<12) && ctx.Err() != nil {
			return rep, ctx.Err()
		}
		l.fresh = l.fresh[:0]
		var msgs int64
		if pulls {
			for v := range l.N {
				if st[v] != StUninformed {
					continue
				}
				if work -= l.k; work < 0 {
					if work = checkEvery; ctx.Err() != nil {
						return rep, ctx.Err()
					}
				}
				l.peers(r, v, l.k)
				ok := false
				for _, p := range l.picks {
					msgs++
					lr := lost()
					if l.Trace != nil {
						l.Trace(Event{round, EvRequest, v, int(p), lr})
					}
					if lr || st[p] != StInformed {
						continue
					}
					msgs++
					lp := lost()
					if l.Trace != nil {
						l.Trace(Event{round, EvReply, int(p), v, lp})
					}
					if !lp {
						ok = true
					}
				}
				if ok {
					st[v] = StFresh
					l.fresh = append(l.fresh, int32(v))
				}
			}
		}
		if pushes {
			for _, s := range l.senders {
				if work -= l.k; work < 0 {
					if work = checkEvery; ctx.Err() != nil {
						return rep, ctx.Err()
					}
				}
				t := l.k
				if budget > 0 {
					t = min(t, int(l.left[s]))
					l.left[s] -= int32(t)
				}
				l.peers(r, int(s), t)
				for _, p := range l.picks {
					if budget > 0 || rep.T < 0 {
						msgs++
					}
					lp := lost()
					if l.Trace != nil {
						l.Trace(Event{round, EvPush, int(s), int(p), lp})
					}
					if !lp && st[p] == StUninformed {
						st[p] = StFresh
						l.fresh = append(l.fresh, p)
					}
				}
			}
			if budget > 0 {
				l.senders = slices.DeleteFunc(l.senders, func(s int32) bool { return l.left[s] == 0 })
			}
		}
		for _, v := range l.fresh {
			st[v] = StInformed
			if pushes {
				l.senders = append(l.senders, v)
				if budget > 0 {
					l.left[v] = int32(budget)
				}
			}
		}
		if rep.Messages > math.MaxInt64-msgs {
			return rep, fmt.Errorf("broadcast: replication %d: the message count passes 2^63", index)
		}
		rep.Messages += msgs
		u -= len(l.fresh)
		if rep.T < 0 && l.M-u >= target {
			rep.T = round
		}
	}
	if cont {
		rep.Missed = u
	}
	return rep, nil
}

// checkEvery is the work (draws, about) between two checks of ctx inside
// a round, as in broadcast's engine.
const checkEvery = 1 << 16
