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
	m.stall = NewStall(nil)
	if !m.pulls || m.D < 1 || m.M < 2 {
		return
	}
	m.stall = NewStall(m.stallChances())
}

// Stall is the forced stall of a source: its proposal and the weights of
// a run by the rounds L its source stalled, from the stall chances A_L
// (A_0 = 1, non-increasing; the last is the deepest stall forced). Its
// zero value, or NewStall(nil), forces none.
type Stall struct {
	w, cum []float64 // by min(L, L_f); nil: none forced
	a      []float64 // A_L, L ≤ L_f
	pi     []float64 // the strata's chances (nil: one, all runs)
}

// NewStall is the stall forced with the chances A (see above): none where
// no A_L with L ≥ 1 is at most stallCommon.
func NewStall(A []float64) Stall {
	lf := len(A) - 1
	ls := 1
	for ls <= lf && A[ls] > stallCommon {
		ls++
	}
	if ls > lf {
		return Stall{}
	}
	q := make([]float64, lf+1)
	q[0] = 0.5
	for l := ls; l <= lf; l++ {
		q[l] = 0.5 / float64(lf-ls+1)
	}
	s := Stall{w: make([]float64, lf+1), cum: make([]float64, lf+1), a: A, pi: make([]float64, lf+1)}
	// The strata: exactly L rounds of stall for L < L_f, at least L_f.
	for l := range lf {
		s.pi[l] = A[l] - A[l+1]
	}
	s.pi[lf] = A[lf]
	sum, cum := 0.0, 0.0
	for l := range A {
		sum += q[l] / A[l]
		cum += q[l]
		s.w[l] = 1 / sum
		s.cum[l] = cum
	}
	return s
}

// Forced reports whether any stall is forced.
func (s Stall) Forced() bool { return s.w != nil }

// Draw draws the rounds a run's source is made to stall (0 where no
// stall is forced, without drawing from r).
func (s Stall) Draw(r *rng.Rand) int {
	if s.w == nil {
		return 0
	}
	f := r.Float64() * s.cum[len(s.cum)-1]
	l, _ := slices.BinarySearch(s.cum, f)
	for l < len(s.cum)-1 && s.cum[l] <= f {
		l++
	}
	return l
}

// Weight is the likelihood ratio of a run whose source stalled L rounds
// (1 where no stall is forced).
func (s Stall) Weight(L int) float64 {
	if s.w == nil {
		return 1
	}
	return s.w[min(L, len(s.w)-1)]
}

// WeightAtLeast is the likelihood ratio of a run seen to stall n rounds
// whose stall's end is not seen (the run stopped first): with the
// proposal's chance Σ_{L₀<n} q(L₀)·A_n/A_{L₀} + Σ_{L₀≥n} q(L₀) of such a
// prefix,
//
//	1 / (Σ_{L₀<n} q(L₀)/A_{L₀} + Σ_{L₀≥n} q(L₀)/A_n),
//
// Weight(L_f) from n = L_f on (1 where no stall is forced). A run's values
// up to its stop depend on that prefix alone, so weighting them by it
// keeps each mean unbiased.
func (s Stall) WeightAtLeast(n int) float64 {
	lf := len(s.w) - 1
	switch {
	case s.w == nil || n <= 0:
		return 1
	case n >= lf:
		return s.w[lf]
	}
	return 1 / (1/s.w[n-1] + (s.cum[lf]-s.cum[n-1])/s.a[n])
}

// Stratum is the stratum of a run whose source stalled L rounds.
func (s Stall) Stratum(L int) int { return min(L, max(len(s.pi), 1)-1) }

// Strata is the strata's chances: a stall of exactly L rounds for L <
// L_f, at least L_f ([1] where no stall is forced).
func (s Stall) Strata() []float64 {
	if s.pi == nil {
		return []float64{1}
	}
	return s.pi
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
