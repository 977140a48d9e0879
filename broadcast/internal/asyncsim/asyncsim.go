package asyncsim

import (
	"container/heap"
	"context"
	"math"

	"github.com/gossipkit/gossipkit/broadcast/internal/ticks"
	"github.com/gossipkit/gossipkit/internal/rng"
)

// Params are the configuration's figures a replication uses: N nodes, M
// of them live, fanout K, budget B (0: none), loss Eps, the protocol's
// pushes and pulls, the live count Target to reach, Targets those of
// broadcast.AsyncLevels, and the Deadline in intervals (0: none).
type Params struct {
	N, M, K, B int
	Eps        float64
	Push, Pull bool
	Target     int
	Targets    [3]int
	Deadline   float64
}

// Rep is one replication: T_L and the times to each of Targets (−1:
// never), the time of the last informing, the one-way messages, the live
// nodes never informed (push with a budget; else 0) and those not
// informed by the deadline (0 without one).
type Rep struct {
	T                        float64
	Levels                   [3]float64
	End                      float64
	Messages                 int64
	Missed, MissedByDeadline int
}

// Engine holds one worker's buffers.
type Engine struct {
	Informed []bool
	Left     []int32 // transmits left (budget), per node
	Stamp    []int32 // distinct peers of one tick: those marked ID
	ID       int32
	H        ticks.Heap
}

// StartTick begins node i's tick: a fresh mark for the distinct peers it
// draws (stamp[p] == id), i itself marked, as no node is its own peer.
func (a *Engine) StartTick(i int32) {
	a.ID++
	if a.ID == math.MaxInt32 {
		clear(a.Stamp)
		a.ID = 1
	}
	a.Stamp[i] = a.ID
}

// Peer draws a peer of the tick, uniform among the N nodes not yet
// marked (by rejection), and marks it.
func (a *Engine) Peer(r *rng.Rand, N int) int32 {
	for {
		p := int32(r.Intn(uint32(N)))
		if a.Stamp[p] != a.ID {
			a.Stamp[p] = a.ID
			return p
		}
	}
}

// Transmits is what informed node i pushes at this tick, taken from its
// budget: k, or with a budget B what it has left of it, at most k.
func (a *Engine) Transmits(i int32, k, B int) int {
	if B == 0 {
		return k
	}
	n := min(k, int(a.Left[i]))
	a.Left[i] -= int32(n)
	return n
}

// New is a worker's buffers for N nodes.
func New(N int) *Engine {
	return &Engine{Informed: make([]bool, N), Left: make([]int32, N), Stamp: make([]int32, N)}
}

// Run plays replication index of p, from stream index of seed (its rules:
// broadcast's SimulateAsync); on a cancelled ctx it returns ctx's error
// and the replication so far.
func (a *Engine) Run(ctx context.Context, p Params, seed uint64, index int) (Rep, error) {
	r := rng.NewStream(seed, uint64(index))
	N, M, k, B, eps := p.N, p.M, p.K, p.B, p.Eps
	push, pull := p.Push, p.Pull
	rep := Rep{T: -1, Levels: [3]float64{-1, -1, -1}}
	targets := p.Targets
	target := p.Target
	clear(a.Informed)
	clear(a.Stamp)
	a.ID = 0
	a.H = a.H[:0]
	count := 1
	a.Informed[0] = true
	byD := 1 // informed by the deadline
	D := p.Deadline
	mark := func(t float64) {
		if target <= count && rep.T < 0 {
			rep.T = t
		}
		for i, tg := range targets {
			if tg <= count && rep.Levels[i] < 0 {
				rep.Levels[i] = t
			}
		}
	}
	mark(0)
	if push {
		a.Left[0] = int32(B)
	}
	if pull {
		for i := 0; i < M; i++ {
			a.H = append(a.H, ticks.Tick{T: r.Float64(), Node: int32(i)})
		}
		heap.Init(&a.H) // container/heap's order, as push and pop keep it
	} else {
		a.H = append(a.H, ticks.Tick{T: 1 - r.Float64(), Node: 0}) // U in (0, 1]
	}
	var msgs, pushMsgs int64
	events := 0
	var (
		i int32
		t float64
	)
	draw := func() int32 { return a.Peer(r, N) }
	inform := func(p int32) {
		a.Informed[p] = true
		count++
		rep.End = t
		if D > 0 && t <= D {
			byD++
		}
		mark(t)
		if push {
			a.Left[p] = int32(B)
			if !pull { // its phase is drawn now: next tick t + U
				a.H.Add(ticks.Tick{T: t + 1 - r.Float64(), Node: p})
			}
		}
	}
	for a.H.Len() > 0 {
		if events++; events%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return rep, err
			}
		}
		if count == M && (B == 0 || !push) {
			break // every live node informed; nothing left to count
		}
		ev := a.H.Next()
		i, t = ev.Node, ev.T
		// The peers of this tick: k distinct among the N − 1 others, drawn
		// as needed by rejection (draw).
		a.StartTick(i)
		if a.Informed[i] {
			if !push {
				continue
			}
			n := a.Transmits(i, k, B)
			if rep.T < 0 || B > 0 {
				pushMsgs += int64(n)
			}
			for range n {
				p := draw()
				if int(p) >= M || a.Informed[p] || eps > 0 && r.Float64() < eps {
					continue
				}
				inform(p)
			}
			if B == 0 || a.Left[i] > 0 {
				a.H.Add(ticks.Tick{T: t + 1, Node: i})
			}
			continue
		}
		// An uninformed live node's tick: pull from k peers.
		msgs += int64(k)
		got := false
		for range k {
			p := draw()
			if int(p) >= M || !a.Informed[p] || eps > 0 && r.Float64() < eps {
				continue
			}
			msgs++ // the reply
			if eps > 0 && r.Float64() < eps {
				continue
			}
			got = true
		}
		if got {
			inform(i)
		}
		a.H.Add(ticks.Tick{T: t + 1, Node: i})
	}
	rep.Messages = msgs + pushMsgs
	rep.Missed = M - count
	if D > 0 {
		rep.MissedByDeadline = M - byD
	}
	return rep, nil
}
