package broadcast

import (
	"math"

	"github.com/gossipkit/gossipkit/broadcast/internal/lumped"
)

// The source's stall in the watched runs.
//
// With pulls, while the source is the only node informed a round passes
// without a success with the chance p₀(r) = h(1)^u·P(none of the source's
// pushes of round r arrives | none at a watched node), u = M − w − 1 the
// tracked nodes and h(1) = 1 − k(1−ε)²/(N−1) the chance a tracked node's
// request misses the source; a run whose source stalls L rounds is late
// by as many, and has the chance A_L = Π_{r≤L} p₀(r) under the watched
// runs' law. Where the source's budget is spent (push–pull) or it never
// pushes (pull), p₀ is the pull's alone, about e^{−k(1−ε)²}, which decays
// more slowly than a deadline's deep tail: at N 2,000, push–pull, k 2,
// ε 0.3, φ 0.1, B 8 the stalls of four rounds and more (chance 1.05·10⁻⁵,
// 2,000,000 runs of the engine) carry 17 % of the chance a node is
// uninformed at D 13, and 1,000 runs drawing them at their own rate
// stated it as 7.47·10⁻⁶ within 4.1 % where the truth is about 9.3·10⁻⁶.
//
// So the watched runs force the stall as the large-N law does
// (lumped.Stall): half of them stall first for L₀ rounds, L₀ uniform over
// the stalls with A_L ≤ 0.05 up to the last with A_L ≥ watchStallFloor
// (at most maxCurveRounds, and the deadline where no curve is recorded),
// then go on as
// drawn, and every value of a run is weighted by the likelihood ratio of
// the stall it had (at most 2), or where the run stopped still stalled, of
// the stall it was seen to have; each mean stays unbiased. A push–pull
// without a budget stalls too: its source pushes k every round, so a
// round passes without a success with the chance about ε^k·e^{−k(1−ε)²},
// small but not negligible beside a deep tail. At N 300, k 2, ε 0.1, D 10
// (2·10⁻³ a round), a stall of two rounds leaves a run late, and 20,000
// runs drawing stalls at their own rate stated 4.76·10⁻¹³ within 11 %
// where the exact chain gives 6.4449·10⁻¹³; with the stall forced,
// 6.442·10⁻¹³ within 8 % (TestWatchedStallDeepPushPull).

// watchStallFloor is the least stall chance forced: a stall rarer than
// 10⁻²⁴ changes no chance the answers state within their accuracy (10⁻¹²)
// by more than 10⁻¹² of it.
const watchStallFloor = 1e-24

// stalls reports whether the watched runs of cfg force the source's stall.
func stalls(cfg Config) bool {
	return cfg.Protocol.pulls()
}

// watchStall is the stall forced in e's watched runs over rounds 1 to
// min(cap, maxCurveRounds) (a deadline can be 10⁹ rounds; A_L is computed
// round by round), none where stalls(e.cfg) does not hold.
func (e *engine) watchStall(cap int) lumped.Stall {
	cap = min(cap, maxCurveRounds)
	if e.stallCap == cap {
		return e.stall
	}
	e.stall, e.stallCap = lumped.Stall{}, cap
	u := e.live - 1
	if !stalls(e.cfg) || u < 1 {
		return e.stall
	}
	var p0 []float64 // the source's pushes: P(they inform nobody in round r)
	if e.cfg.Protocol.pushes() {
		_, _, _, _, p0 = e.sourceAlone(u, 0)
	}
	every := 1.0 // without a budget the source pushes k every round
	if e.cfg.Protocol.pushes() && e.R == 0 {
		every, _ = e.sourceRound(e.k, u)
	}
	lpull := float64(u)*math.Log(pullMiss(nil, 1, e.k, e.N-1, e.eps)) + math.Log(every)
	A := []float64{1}
	for r := 1; r <= cap; r++ {
		lp := lpull
		if r <= len(p0) {
			lp += math.Log(p0[r-1])
		}
		a := A[r-1] * math.Exp(lp)
		if !(a >= watchStallFloor) {
			break
		}
		A = append(A, a)
	}
	e.stall = lumped.NewStall(A)
	return e.stall
}
