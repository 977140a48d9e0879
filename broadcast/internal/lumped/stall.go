package lumped

import (
	"math"
	"slices"

	"github.com/gossipkit/gossipkit/broadcast/internal/pmf"
	"github.com/gossipkit/gossipkit/internal/rng"
)

// The source's stall, drawn often and weighted.
//
// With pulls, a deadline deep in the tail is missed mostly in the runs
// whose source stalls: while it is the only node informed, a round passes
// without a success with the chance p₀(t) = h(1)^U·P(no push gets
// through | the source's pushes in round t + 1) — h(1) the pull miss with
// one node informed, U = M − 1 — and L such rounds cost Π_{t<L} p₀(t),
// which decays more slowly than the end's own tail once p₀ is above the
// end's decay per round (pull at N 3,000, k 3, φ 0.02: p₀ ≈ 0.053, and the
// chance a node is still uninformed at D 12 is 2.27·10⁻⁸ by the exact
// chain, about p₀⁶). Plain runs draw a stall of six rounds once in 5·10⁷;
// the law from 20,000 of them said 1.6·10⁻¹⁴. (For a push alone the end
// decays by about e^{−k(1−ε)} a round, faster than any stall, ε^k, can
// carry it, so push's runs are left as they were.)
//
// So half the runs are made to stall first for L₀ rounds, L₀ uniform on
// [L_s, L_f], and then go on as drawn (a forced run may stall longer). p₀
// depends on t alone (the source's cohort), so the chance of a run whose
// source stalled L rounds is known under both laws: with A_L = Π_{t<L}
// p₀(t) and the proposal q(0) = ½, q(L₀) = ½/(L_f − L_s + 1), its
// likelihood ratio is
//
//	W_L = A_L / Σ_{L₀ ≤ L} q(L₀)·A_L/A_{L₀} = 1 / Σ_{L₀ ≤ L} q(L₀)/A_{L₀},
//
// which depends on min(L, L_f) alone and is at most 1/q(0) = 2; every value
// of the run is weighted by it, so each mean stays unbiased (importance
// sampling with a defensive mixture, as the tilted start). L_s is the
// first L with A_L ≤ stallCommon (shorter stalls are drawn often enough
// unforced) and L_f the last L ≤ D with A_L ≥ stallFloor (rarer ones
// weigh nothing against the chances stated). The tilted start does not
// tilt the source's own rounds where the stall is forced, so that its
// rounds are drawn from the model's law, as W assumes.

const (
	// stallCommon is the stall chance A_L from which stalls are forced.
	stallCommon = 0.05
	// stallFloor is the stall chance A_L below which none is forced.
	stallFloor = 1e-40
)

// setStall sets the forced stall's weights and proposal, with pulls and a
// deadline (none otherwise).
func (m *Model) setStall() {
	m.stallW, m.stallCum, m.stallPi = nil, nil, []float64{1}
	if !m.pulls || m.D < 1 || m.M < 2 {
		return
	}
	A := m.stallChances()
	lf := len(A) - 1
	ls := 1
	for ls <= lf && A[ls] > stallCommon {
		ls++
	}
	if ls > lf {
		return
	}
	q := make([]float64, lf+1)
	q[0] = 0.5
	for l := ls; l <= lf; l++ {
		q[l] = 0.5 / float64(lf-ls+1)
	}
	// The strata: exactly L rounds of stall for L < L_f, at least L_f.
	m.stallPi = make([]float64, lf+1)
	for l := range lf {
		m.stallPi[l] = A[l] - A[l+1]
	}
	m.stallPi[lf] = A[lf]
	m.stallW = make([]float64, lf+1)
	m.stallCum = make([]float64, lf+1)
	sum, cum := 0.0, 0.0
	for l := range A {
		sum += q[l] / A[l]
		cum += q[l]
		m.stallW[l] = 1 / sum
		m.stallCum[l] = cum
	}
}

// stallChances is A_L = P(the source stalls its first L rounds) for L =
// 0, 1, … up to D, while at least stallFloor.
func (m *Model) stallChances() []float64 {
	U := float64(m.M - 1)
	lh := math.Log(pmf.PullMiss(nil, 1, m.k, m.n1, m.eps)) * U
	A := []float64{1}
	for t := 0; t < m.D; t++ {
		S, SL := 0.0, 0.0
		switch {
		case t < m.R-1:
			S = 1
		case t == m.R-1:
			SL = 1
		}
		a := A[t] * math.Exp(lh) * m.noPush(U, S, SL)
		if !(a >= stallFloor) {
			break
		}
		A = append(A, a)
	}
	return A
}

// UnseenStall is the chance that the source stalls for at least L*
// rounds, L* the first L ≤ D with reps·A_L < 1: the stalls that reps runs
// drawing them at their own rate are not expected to have drawn (0
// without pulls or a deadline, or where reps runs expect every stall up
// to D). A chance at D that such runs state leaves out at most this.
func (m *Model) UnseenStall(reps int) float64 {
	if !m.pulls || m.D < 1 || m.M < 2 {
		return 0
	}
	for _, a := range m.stallChances() {
		if float64(reps)*a < 1 {
			return a
		}
	}
	return 0
}

// noPush is the chance that a round's pushes by S + SL senders inform
// none of Uq uninformed nodes, under pushLaw, as run draws them.
func (m *Model) noPush(Uq, S, SL float64) float64 {
	n, p, c := m.pushLaw(Uq, S, SL)
	switch {
	case c > 0:
		return 0
	case n >= 1:
		return math.Exp(n * math.Log1p(-p))
	}
	return 1
}

// forcedStall draws the rounds a run's source is made to stall (0 where
// no stall is forced, without drawing from r).
func (m *Model) forcedStall(r *rng.Rand) int {
	if m.stallW == nil {
		return 0
	}
	f := r.Float64() * m.stallCum[len(m.stallCum)-1]
	l, _ := slices.BinarySearch(m.stallCum, f)
	for l < len(m.stallCum)-1 && m.stallCum[l] <= f {
		l++
	}
	return l
}

// stratum is the stratum of a run whose source stalled L rounds.
func (m *Model) stratum(L int) int { return min(L, len(m.stallPi)-1) }

// stallWeight is the likelihood ratio of a run whose source stalled L
// rounds (1 where no stall is forced).
func (m *Model) stallWeight(L int) float64 {
	if m.stallW == nil {
		return 1
	}
	return m.stallW[min(L, len(m.stallW)-1)]
}
