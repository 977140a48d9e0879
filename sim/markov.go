package sim

import (
	"github.com/gossipkit/gossipkit/internal/rng"

	"github.com/gossipkit/gossipkit/approx"
)

// markovState is the pairwise-Markov model of one item: node v holds d or
// not, and a shuffle of a and b moves the pair's state ab by the transition
// matrix of docs/MODEL.md §3 (with Config.Loss, the lossy matrix of
// approx.TransitionsLossFor, which Run passes). With loss a pair 01 can
// become 00 (the only copy dropped, the reply carrying it lost): X can
// reach 0, after which no shuffle changes anything and the coverage stays
// as it is.
//
// Its per-node state is three bitsets, 3N/8 bytes: who holds d (snap.holds,
// which the snapshot record reads anyway), who ever held it (covered) and
// who held it at a snapshot (snap.seen). A worker keeps one markovState
// for all its replications (reset clears it), so a run allocates it once
// a worker, not once a replication.
type markovState struct {
	covered  bitset
	xCount   int
	yCount   int
	snap     snapshotCoverage
	cum      [4][4]float64 // cumulative transition rows
	tracking bool
	cnt      Counters
}

func newMarkovState(N int, tr approx.Transitions) *markovState {
	st := &markovState{covered: newBitset(N), snap: newSnapshotCoverage(N)}
	for i := range 4 {
		acc := 0.0
		for j := range 4 {
			acc += tr[i][j]
			st.cum[i][j] = acc
		}
		st.cum[i][3] = 1 // guard against rounding: the last state takes the rest
	}
	return st
}

func (st *markovState) shuffle(r *rng.Rand, a, b int32) {
	if st.tracking {
		st.cnt.Shuffles++
	}
	ha, hb := st.snap.holds.get(a), st.snap.holds.get(b)
	if !ha && !hb {
		return
	}
	from := b2i(ha)<<1 | b2i(hb)
	u := r.Float64()
	to := 0
	for to < 3 && u >= st.cum[from][to] {
		to++
	}
	if st.tracking {
		st.cnt.Transitions[from][to]++
	}
	st.set(a, to&2 != 0)
	st.set(b, to&1 != 0)
}

func (st *markovState) set(v int32, h bool) {
	if h == st.snap.holds.get(v) {
		return
	}
	if h {
		st.snap.gain(v)
		st.xCount++
		if !st.covered.get(v) {
			st.covered.set(v)
			st.yCount++
		}
	} else {
		st.snap.lose(v)
		st.xCount--
	}
}

// reset returns the state to no node holding d, for a new replication of
// the same configuration (the transition rows stay).
func (st *markovState) reset() {
	clear(st.covered)
	st.snap.reset()
	st.xCount, st.yCount = 0, 0
	st.tracking = false
	st.cnt = Counters{}
}
