package antientropy

import (
	"github.com/gossipkit/gossipkit/broadcast/internal/ticks"
	"github.com/gossipkit/gossipkit/internal/rng"
)

// The repair's Monte Carlo with the broadcast and the syncs on one clock
// (broadcast.SimulateRepair where Config.Interval > 0). Time is in seconds from the
// source's queueing. The broadcast is the asynchronous push (broadcast's async.go): a
// node that gets the message by gossip queues it with its budget B and
// pushes at its gossip ticks, the first a uniform (0, 1] interval after
// its receipt, to k distinct peers among the N − 1 others. Every live node
// also syncs from t = 0 at its own phase, uniform in [0, S'), once per
// scaled interval S', with a peer drawn uniformly among the N − 1 others
// (a failed one: nothing), both directions, never lost (a stream: the
// packet loss ε touches only the gossip; broadcast's repair.go) unless it
// fails as a whole (Config.SyncFail). A node whose first
// receipt is a sync holds the message but does not queue it (Serf's MergeRemoteState
// hands the events of a push–pull to handleUserEvent and ignores its
// answer, where NotifyMsg re-queues an event it has not seen), and a node
// that holds the message drops a gossip copy (seen). A failed node sends
// and receives nothing.

// SpreadOutcome is one replication of Spread: the live nodes lacking
// the message at each time, and at the broadcast's end (its last gossip
// tick: every queue empty) the time and the live nodes lacking it, and
// how many of the holders then got it first from a sync.
type SpreadOutcome struct {
	Lack        []int
	End         float64
	EndLack     int
	EndBySync   int
	EndLate     int     // of the EndLack, those whose phase fell before the end: their next sync is ψ + S'
	EndInformed float64 // Σ over the live holders at the end of their first receipt's time (the source's 0 included)
}

// SpreadBuf is one worker's buffers.
type SpreadBuf struct {
	holds []bool
	left  []int32
	stamp []int32
	h     ticks.Heap // the gossip ticks
	syncs Syncs
}

// NewSpreadBuf is a worker's buffers for N = n nodes.
func NewSpreadBuf(n int) *SpreadBuf {
	return &SpreadBuf{holds: make([]bool, n), left: make([]int32, n), stamp: make([]int32, n)}
}

// Spread plays one replication (the rules above) of N nodes, M of them
// live, a push of fanout k and budget B with packet loss eps, until the
// last of times (seconds from the queueing, increasing) and the
// broadcast's end, iv the gossip interval and S the scaled sync interval
// in seconds; a sync to a live peer fails as a whole with probability fail
// (a draw only where fail > 0).
func Spread(N, M, k, B int, eps, iv, S, fail float64, r *rng.Rand, times []float64, b *SpreadBuf) SpreadOutcome {
	clear(b.holds)
	clear(b.left)
	clear(b.stamp)
	b.h = b.h[:0]
	b.syncs.Reset(M, S)
	out := SpreadOutcome{Lack: make([]int, len(times))}
	arrive := func() bool { return eps == 0 || r.Float64() >= eps }
	lack := M - 1
	b.holds[0] = true
	b.left[0] = int32(B)
	b.h.Add(ticks.Tick{T: (1 - r.Float64()) * iv, Node: 0})
	sumT := 0.0
	bySync := 0 // holders whose first copy came from a sync
	stampID := int32(0)
	k0 := 0 // the next time to record
	for {
		// The next event: a gossip tick, or a sync (a tie goes to the
		// gossip; it has probability 0).
		ts := b.syncs.Peek(r)
		isSync := b.h.Len() == 0 || ts < b.h[0].T
		next := ts
		if !isSync {
			next = b.h[0].T
		}
		// Record the times before it; stop when they are all recorded
		// (or nothing is left to repair) and the broadcast has ended.
		for k0 < len(times) && times[k0] < next {
			out.Lack[k0] = lack
			k0++
		}
		if b.h.Len() == 0 && (k0 == len(times) || lack == 0) {
			break
		}
		t := next
		if isSync {
			i := b.syncs.Pop()
			if lack == 0 {
				continue
			}
			p := int32(r.Intn(uint32(N - 1)))
			if p >= i {
				p++
			}
			if int(p) >= M || fail > 0 && r.Float64() < fail {
				continue
			}
			inI, inP := b.holds[i], b.holds[p]
			if inI && !inP {
				b.holds[p] = true
				bySync++
				sumT += t
				lack--
			}
			if inP && !inI {
				b.holds[i] = true
				bySync++
				sumT += t
				lack--
			}
			continue
		}
		// A gossip tick: push to min(k, left) distinct peers.
		i := b.h.Next().Node
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
			b.h.Add(ticks.Tick{T: t + (1-r.Float64())*iv, Node: p})
		}
		if b.left[i] > 0 {
			b.h.Add(ticks.Tick{T: t + iv, Node: i})
		}
		if b.h.Len() == 0 {
			// The end: every queue empty. The lacking nodes whose
			// phase fell before it are among the syncs drawn so far.
			out.End, out.EndLack, out.EndInformed, out.EndBySync = t, lack, sumT, bySync
			for _, pn := range b.syncs.List {
				if pn.Phase < t && !b.holds[pn.Node] {
					out.EndLate++
				}
			}
		}
	}
	for ; k0 < len(times); k0++ {
		out.Lack[k0] = lack
	}
	return out
}
