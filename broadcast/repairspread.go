package broadcast

import (
	"container/heap"

	"github.com/gossipkit/gossipkit/internal/rng"
)

// The repair's Monte Carlo with the broadcast and the syncs on one clock
// (SimulateRepair where Config.Interval > 0). Time is in seconds from the
// source's queueing. The broadcast is the asynchronous push (async.go): a
// node that gets the message by gossip queues it with its budget B and
// pushes at its gossip ticks, the first a uniform (0, 1] interval after
// its receipt, to k distinct peers among the N − 1 others. Every live node
// also syncs from t = 0 at its own phase, uniform in [0, S'), once per
// scaled interval S', with a peer drawn uniformly among the N − 1 others
// (a failed one: nothing), both directions, each lost with probability ε,
// the reply only if the request arrived. A node whose first receipt is a
// sync holds the message but does not queue it (Serf's MergeRemoteState
// hands the events of a push–pull to handleUserEvent and ignores its
// answer, where NotifyMsg re-queues an event it has not seen), and a node
// that holds the message drops a gossip copy (seen). A failed node sends
// and receives nothing.

// spreadEvent is a gossip tick (sync false) or a sync of one node.
type spreadEvent struct {
	t    float64
	node int32
	sync bool
}

type spreadHeap []spreadEvent

func (h spreadHeap) Len() int { return len(h) }
func (h spreadHeap) Less(i, j int) bool {
	if h[i].t != h[j].t {
		return h[i].t < h[j].t
	}
	return h[i].node < h[j].node
}
func (h spreadHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *spreadHeap) Push(x any)   { *h = append(*h, x.(spreadEvent)) }
func (h *spreadHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// spreadOutcome is one replication of spreadRun: the live nodes lacking
// the message at each time, and at the broadcast's end (its last gossip
// tick: every queue empty) the time and the live nodes lacking it, and
// how many of the holders then got it first from a sync.
type spreadOutcome struct {
	lack        []int
	end         float64
	endLack     int
	endBySync   int
	endLate     int     // of the endLack, those whose phase fell before the end: their next sync is ψ + S'
	endInformed float64 // Σ over the live holders at the end of their first receipt's time (the source's 0 included)
}

// spreadBuf is one worker's buffers.
type spreadBuf struct {
	holds, bySync []bool
	left          []int32
	stamp         []int32
	phase         []float64
	h             spreadHeap
}

func newSpreadBuf(n int) *spreadBuf {
	return &spreadBuf{holds: make([]bool, n), bySync: make([]bool, n), left: make([]int32, n), stamp: make([]int32, n), phase: make([]float64, n)}
}

// spreadRun plays one replication (the rules above) until the last of
// times (seconds from the queueing, increasing) and the broadcast's end,
// iv the gossip interval and S the scaled sync interval in seconds.
func spreadRun(cfg Config, iv, S float64, r *rng.Rand, times []float64, b *spreadBuf) spreadOutcome {
	N, M, k, B, eps := cfg.Nodes, cfg.Live(), cfg.Fanout, cfg.Budget, cfg.Loss
	clear(b.holds)
	clear(b.bySync)
	clear(b.left)
	clear(b.stamp)
	b.h = b.h[:0]
	out := spreadOutcome{lack: make([]int, len(times))}
	arrive := func() bool { return eps == 0 || r.Float64() >= eps }
	for i := range M {
		b.phase[i] = r.Float64() * S
		b.h = append(b.h, spreadEvent{t: b.phase[i], node: int32(i), sync: true})
	}
	heap.Init(&b.h)
	lack := M - 1
	b.holds[0] = true
	b.left[0] = int32(B)
	heap.Push(&b.h, spreadEvent{t: (1 - r.Float64()) * iv, node: 0})
	gossiping := 1 // nodes with a gossip tick in the heap
	sumT := 0.0
	stampID := int32(0)
	k0 := 0 // the next time to record
	t := 0.0
	for b.h.Len() > 0 {
		ev := b.h[0]
		// Record the times before this event; stop when they are all
		// recorded and the broadcast has ended.
		for k0 < len(times) && times[k0] < ev.t {
			out.lack[k0] = lack
			k0++
		}
		if gossiping == 0 && (k0 == len(times) || lack == 0) {
			break
		}
		heap.Pop(&b.h)
		t = ev.t
		i := ev.node
		if ev.sync {
			heap.Push(&b.h, spreadEvent{t: t + S, node: i, sync: true})
			if k0 == len(times) || lack == 0 {
				continue // nothing left to record or to repair
			}
			p := int32(r.Intn(uint32(N - 1)))
			if p >= i {
				p++
			}
			if int(p) >= M || !arrive() {
				continue
			}
			inI, inP := b.holds[i], b.holds[p]
			if inI && !inP {
				b.holds[p], b.bySync[p] = true, true
				sumT += t
				lack--
			}
			if inP && !inI && arrive() {
				b.holds[i], b.bySync[i] = true, true
				sumT += t
				lack--
			}
			continue
		}
		// A gossip tick: push to min(k, left) distinct peers.
		stampID++
		b.stamp[i] = stampID
		n := min(k, int(b.left[i]))
		b.left[i] -= int32(n)
		for range n {
			var p int32
			for {
				p = int32(r.Intn(uint32(N)))
				if b.stamp[p] != stampID {
					b.stamp[p] = stampID
					break
				}
			}
			if int(p) >= M || b.holds[p] || !arrive() {
				continue
			}
			b.holds[p] = true
			sumT += t
			lack--
			b.left[p] = int32(B)
			heap.Push(&b.h, spreadEvent{t: t + (1-r.Float64())*iv, node: p})
			gossiping++
		}
		if b.left[i] > 0 {
			heap.Push(&b.h, spreadEvent{t: t + iv, node: i})
		} else {
			gossiping--
		}
		if gossiping == 0 {
			out.end, out.endLack, out.endInformed = t, lack, sumT
			for j := range M {
				if b.bySync[j] {
					out.endBySync++
				}
				if !b.holds[j] && b.phase[j] < t {
					out.endLate++
				}
			}
		}
	}
	for ; k0 < len(times); k0++ {
		out.lack[k0] = lack
	}
	return out
}
