package broadcast

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/gossipkit/gossipkit/internal/rng"
)

// Node states of the literal engine.
const (
	stUninformed uint8 = iota
	stInformed         // informed before the current round
	stFailed
	stFresh // informed in the current round: acts from the next
)

// Message kinds of a traced event.
const (
	evPush = iota
	evRequest
	evReply
)

// event is one one-way message of the literal engine, for the tests.
type event struct {
	round, kind, from, to int
	lost                  bool
}

// literal is the reference engine: every node, every message, as the
// package doc states the rules (SimSettings.Literal).
type literal struct {
	cfg     Config
	seed    uint64
	N, M, k int
	eps     float64
	state   []uint8
	left    []int32 // transmits left (budget only)
	senders []int32 // live informed nodes that may push, informed before the round
	fresh   []int32
	picks   []int32
	stamp   []uint32
	cur     uint32
	trace   func(event) // tests: every message, in order
}

func newLiteral(cfg Config, seed uint64) *literal {
	l := &literal{cfg: cfg, seed: seed, N: cfg.Nodes, M: cfg.Live(), k: cfg.Fanout, eps: cfg.Loss,
		state: make([]uint8, cfg.Nodes), senders: make([]int32, 0, cfg.Nodes), fresh: make([]int32, 0, cfg.Nodes),
		picks: make([]int32, 0, cfg.Fanout)}
	if cfg.Budget > 0 {
		l.left = make([]int32, cfg.Nodes)
	}
	return l
}

// peers draws t distinct peers of node v uniformly among the other N − 1
// (Floyd's algorithm on 0..N−2, then x ≥ v shifted past v) into l.picks.
func (l *literal) peers(r *rng.Rand, v, t int) {
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

func (l *literal) run(ctx context.Context, index int) (Replication, error) {
	r := rng.NewStream(l.seed, uint64(index))
	cfg := l.cfg
	lost := func() bool { return l.eps > 0 && r.Float64() < l.eps }
	st := l.state
	clear(st)
	st[0] = stInformed
	// The failed nodes: ⌊φ(N−1)⌋ distinct among 1..N−1 (Floyd).
	F, n := l.N-l.M, l.N-1
	for j := n - F; j < n; j++ {
		x := int(r.Intn(uint32(j+1))) + 1
		if st[x] == stFailed {
			x = j + 1
		}
		st[x] = stFailed
	}
	pushes, pulls := cfg.Protocol.pushes(), cfg.Protocol.pulls()
	budget := cfg.Budget
	l.senders = l.senders[:0]
	if pushes {
		l.senders = append(l.senders, 0)
		if budget > 0 {
			l.left[0] = int32(budget)
		}
	}
	cont := cfg.Protocol == Push && budget > 0
	rep := Replication{Index: index, T: -1}
	target := cfg.Target()
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
				if st[v] != stUninformed {
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
					if l.trace != nil {
						l.trace(event{round, evRequest, v, int(p), lr})
					}
					if lr || st[p] != stInformed {
						continue
					}
					msgs++
					lp := lost()
					if l.trace != nil {
						l.trace(event{round, evReply, int(p), v, lp})
					}
					if !lp {
						ok = true
					}
				}
				if ok {
					st[v] = stFresh
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
					if l.trace != nil {
						l.trace(event{round, evPush, int(s), int(p), lp})
					}
					if !lp && st[p] == stUninformed {
						st[p] = stFresh
						l.fresh = append(l.fresh, p)
					}
				}
			}
			if budget > 0 {
				l.senders = slices.DeleteFunc(l.senders, func(s int32) bool { return l.left[s] == 0 })
			}
		}
		for _, v := range l.fresh {
			st[v] = stInformed
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
