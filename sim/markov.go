package sim

import (
	"github.com/gossipkit/gossipkit/internal/rng"

	"github.com/gossipkit/gossipkit/approx"
)

// modelTransitions returns the transition matrix of one shuffle that the
// Markov and Lumped models apply: the matrix of docs/MODEL.md §3 for
// cfg.PDrop and cfg.Shuffle, with each message lost with probability
// cfg.Loss (approx.TransitionsLossFor; at Loss = 0 exactly
// approx.TransitionsFor). With loss a pair 01 can become 00 (the only
// copy dropped, the reply that carried it lost): X can reach 0, after
// which no shuffle changes anything and the coverage stays as it is.
func modelTransitions(cfg Config) (approx.Transitions, error) {
	return approx.TransitionsLossFor(cfg.PDrop, cfg.Shuffle, cfg.Loss)
}

// markovState is the pairwise-Markov model of one item: node v holds d or
// not, and a shuffle of a and b moves the pair's state ab by the transition
// matrix of docs/MODEL.md §3.
type markovState struct {
	has      []bool
	covered  []bool
	xCount   int
	yCount   int
	snap     snapshotCoverage
	cum      [4][4]float64 // cumulative transition rows
	tracking bool
	cnt      Counters
}

func newMarkovState(N int, tr approx.Transitions) *markovState {
	st := &markovState{has: make([]bool, N), covered: make([]bool, N), snap: newSnapshotCoverage(N)}
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
	ha, hb := st.has[a], st.has[b]
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
	if h == st.has[v] {
		return
	}
	st.has[v] = h
	if h {
		st.snap.gain(v)
		st.xCount++
		if !st.covered[v] {
			st.covered[v] = true
			st.yCount++
		}
	} else {
		st.snap.lose(v)
		st.xCount--
	}
}
