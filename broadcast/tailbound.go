package broadcast

import (
	"fmt"
	"math"
	"strings"

	"github.com/gossipkit/gossipkit/broadcast/internal/pmf"
)

// A proved upper bound on the deadline's chances of a miss of a protocol
// with pulls (pullTailBound), for the deep tails that no run resolves.
//
// Once the rest of the live nodes are informed, an uninformed node's pull
// succeeds surely without loss: push–pull's watched runs then weigh
// exactly 0, and a chance of 10⁻³⁰ was printed "0 (rel err unbounded)"
// and P(T_L ≤ D) "1 (≥ 1 − 0.005)", the asymptotic law's absolute
// accuracy, so that --confidence 0.999999 was refused at N 10⁵, k 3, D 30,
// a deadline met but for 10⁻²⁰. The bound has three parts:
//
//   - Domination by the pulls alone. Couple the protocol with the process
//     in which only the pulls inform (the same peers asked, the same
//     losses): by induction its informed set stays inside the protocol's
//     (a pull that succeeds there asks a peer informed in both), so the
//     protocol's uninformed count is at most that process's. There an
//     uninformed node is missed with h(i) = PullMiss(i) given i informed,
//     independently of the others, so its count is a Markov chain, U′ ~
//     Binomial(U, h(M − U)), computed exactly while fewer than c nodes are
//     informed: the law of the round E at which the count reaches c.
//   - From any state with at least c informed, a Chernoff chain of the
//     protocol itself. Given the state, the nodes that stay uninformed are
//     negatively associated (a sender's k distinct targets are; the pulls
//     and losses are independent; each node's indicator decreases in its
//     own coordinates), each with chance q(i) = h(i)·PushMiss(i) (pushes
//     counted without a budget, where every informed node pushes), so
//     P(U′ ≥ t) ≤ exp(−U·KL(t/U ‖ q)) (Dubhashi and Ranjan 1998). The
//     bound increases with U (and q(M − U) with it), so thresholds
//     u_{r+1} = the least t with that bound ≤ δ, from u = M − c, hold each
//     round with all but δ. From a round j on, U never grows, so E[U_D on
//     those rounds' success] ≤ u_j·q(M − u_j)^{D−j}: P(U_D > M − T) ≤
//     Σδ + u_j·q^{D−j}/(M − T + 1) (Markov), and the chance a given node
//     is uninformed, E[U_D]/M, ≤ Σδ + u_j·q^{D−j}/M. Every j and a few δ
//     are tried; the least bound is kept.
//   - The two joined at E (a stopping time of the coupled pair, at which
//     the protocol has at least c informed): P(T_L > D) ≤ Σ_τ P(E = τ)·
//     B(D − τ) + P(E > D), and the chance a node is uninformed at D the
//     same with the pulls' own chance where E > D.
//
// Floats only add rounding, kept on the bound's side (pullTailBound's
// closing comment): complements near 0 summed directly, the mass left
// below c raised, a relative margin and an absolute 10⁻³⁰⁰.

// tailBoundDeltas are the per-round failure chances the Chernoff chain
// tries, and tailBoundRounds the most rounds it follows.
var tailBoundDeltas = []float64{1e-3, 1e-6, 1e-10, 1e-15, 1e-20, 1e-30, 1e-45, 1e-60, 1e-90, 1e-150, 1e-250}

const tailBoundRounds = 512

// pullTailBound returns upper bounds on P(T_L > D) and on the chance
// that a given live node is uninformed at the end of round D, for a
// protocol with pulls and D ≥ 1 (else ok is false).
func pullTailBound(cfg Config, D int) (late, resD float64, ok bool) {
	M, N1, k, eps := cfg.Live(), cfg.Nodes-1, cfg.Fanout, cfg.Loss
	if !cfg.Protocol.pulls() || D < 1 || M < 2 || N1 < 1 {
		return 0, 0, false
	}
	// Both chances fall with D (informed nodes stay informed), so a bound
	// at an earlier round holds at D: the work is kept to 512 rounds.
	D = min(D, tailBoundRounds)
	A := M - cfg.Target() // uninformed live nodes a success allows
	pushes := cfg.Protocol.pushes() && cfg.Budget == 0
	type miss struct{ h, hit float64 }
	hMemo := map[int]miss{}
	h := func(i int) miss { // the pulls' chance to miss and its complement
		v, ok := hMemo[i]
		if !ok {
			v = miss{pmf.PullMiss(nil, i, k, N1, eps), pmf.PullHit(nil, i, k, N1, eps)}
			hMemo[i] = v
		}
		return v
	}
	// q is the protocol's chance a node stays uninformed given i informed,
	// with its complement summed directly (both keep their digits).
	q := func(i int) (q, notQ float64) {
		m := h(i)
		if !pushes {
			return m.h, m.hit
		}
		s := float64(i)
		return m.h * pmf.PushMiss(s, k, N1, eps), m.hit + m.h*pmf.PushHit(s, k, N1, eps)
	}
	c := tailBoundCount(M)
	if c < 2 { // the chain below starts from one informed node
		return 0, 0, false
	}
	// The pulls alone from the source, while fewer than c are informed:
	// v[i] the chance of i informed, pE[τ] the chance of reaching c in
	// round τ.
	const up = 1 + 1e-9
	v, w := make([]float64, c), make([]float64, c)
	v[1] = 1
	pE := make([]float64, D+1)
	for t := 1; t <= D; t++ {
		clear(w)
		for i := 1; i < c; i++ {
			if v[i] == 0 {
				continue
			}
			U := M - i
			m := h(i) // an uninformed node's pulls succeed with m.hit
			if m.h == 0 {
				if i+U < c {
					w[i+U] += v[i]
				} else {
					pE[t] += v[i]
				}
				continue
			}
			// Binomial(U, m.hit) by its ratio recurrence, in logs where
			// its first term would underflow (U·m.hit > 700; the logs
			// cost 10 times the products). Each term is
			// raised by up, more than its rounding (at most 200 steps of
			// about 10⁻¹³ each), so that the mass left below c is never
			// less than its own and the mass that reaches c, the
			// complement, never more: the rounding of 1 − below would
			// otherwise move up to 10⁻¹⁶ a round to the entry, which
			// the bounds of 10⁻²⁸ cannot absorb.
			below := 0.0
			lpd, lr := float64(U)*math.Log(m.h), math.Log(m.hit/m.h)
			if m.hit < 0.5 {
				lpd = float64(U) * math.Log1p(-m.hit)
			}
			linear := lpd > -700 // else the terms by their logs
			pd, r := math.Exp(lpd), m.hit/m.h
			for d := 0; i+d < c && d <= U; d++ {
				if !linear {
					pd = math.Exp(lpd)
					lpd += math.Log(float64(U-d)/float64(d+1)) + lr
				}
				w[i+d] += v[i] * pd * up
				below += pd * up
				if linear {
					pd *= float64(U-d) / float64(d+1) * r
				}
			}
			pE[t] += v[i] * math.Max(1-below, 0)
		}
		v, w = w, v
	}
	lateB, resB := chernoffChain(M, c, A, D, q)
	for t := 1; t <= D; t++ {
		late += pE[t] * lateB[D-t]
		resD += pE[t] * resB[D-t]
	}
	for i := 1; i < c; i++ {
		if i < cfg.Target() {
			late += v[i]
		}
		resD += v[i] * float64(M-i) / float64(M)
	}
	// Rounding: relative, about 10⁻¹³ at most over the sums and products
	// above (margin; the mass below c is raised, up); and terms below the
	// smallest float64 counted as reached c, at most c·10⁻³⁰⁸ a round
	// (slack).
	const margin, slack = 1 + 1e-9, 1e-300
	return math.Min(late*margin+slack, 1), math.Min(resD*margin+slack, 1), true
}

// chernoffChain returns, for s = 0, …, D rounds from a state with at
// least c of M live nodes informed, the bounds on P(more than A
// uninformed after s rounds) and on the chance a given node is (the
// comment at the top), q(i) the chance a node stays uninformed given i
// informed.
func chernoffChain(M, c, A, D int, q func(int) (float64, float64)) (late, res []float64) {
	late, res = make([]float64, D+1), make([]float64, D+1)
	for s := range late {
		late[s], res[s] = 1, 1
	}
	u := make([]int, D+1)
	acc := make([]float64, D+1)
	for _, delta := range tailBoundDeltas {
		u[0], acc[0] = M-c, 0
		for r := 1; r <= D; r++ {
			u[r], acc[r] = u[r-1], acc[r-1]
			if u[r-1] == 0 {
				continue
			}
			qv, notQ := q(M - u[r-1])
			if t, ok := chernoffThreshold(u[r-1], delta, qv, notQ); ok {
				u[r], acc[r] = t-1, acc[r-1]+delta
			}
		}
		for j := 0; j <= D; j++ {
			if u[j] == 0 { // certain from j on, but for acc[j]
				for s := j; s <= D; s++ {
					late[s], res[s] = math.Min(late[s], acc[j]), math.Min(res[s], acc[j])
				}
				break
			}
			qj, _ := q(M - u[j])
			for s := j; s <= D; s++ {
				e := float64(u[j]) * math.Pow(qj, float64(s-j)) // E[U_s] on success, at most
				l := acc[j] + e/float64(A+1)
				if s == j && u[j] <= A {
					l = acc[j]
				}
				late[s] = math.Min(late[s], l)
				res[s] = math.Min(res[s], acc[j]+e/float64(M))
			}
		}
	}
	return late, res
}

// chernoffThreshold is the least t ≥ 1 with exp(−u·KL(t/u ‖ q)) ≤ delta,
// the Chernoff bound on P(X ≥ t) for a sum X of u negatively associated
// indicators of chance q (notQ = 1 − q, given so that it keeps its
// digits); ok is false where none up to u has it.
func chernoffThreshold(u int, delta, q, notQ float64) (int, bool) {
	if u <= 0 {
		return 0, false
	}
	ld := math.Log(delta)
	bound := func(t int) float64 { // log of the bound on P(X ≥ t)
		a := float64(t) / float64(u)
		if a <= q {
			return 0
		}
		kl := a * math.Log(a/q)
		if a < 1 {
			kl += (1 - a) * (math.Log1p(-a) - math.Log(notQ))
		}
		return -float64(u) * kl
	}
	if bound(u) > ld {
		return 0, false
	}
	lo, hi := 0, u // bound(hi) ≤ ld; the least such t in (lo, hi]
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if bound(mid) <= ld {
			hi = mid
		} else {
			lo = mid
		}
	}
	return max(hi, 1), true
}

// boundTail sets the law's proved upper ends of the deadline's chances of a
// miss (lateHi, residueDHi) from pullTailBound where they are below the
// answers' range (curveFloorAsked): there they answer a chance no run
// resolves, and spare the runs that would try. Once per law; it returns l.
func (l *Law) boundTail(cfg Config) *Law {
	if l == nil || l.tailBounded {
		return l
	}
	l.tailBounded = true
	late, res, ok := pullTailBound(cfg, deadlineRounds(cfg))
	if !ok {
		return l
	}
	// A bound of 0 (below the smallest float64) is no bound: the chance is
	// positive.
	var said []string
	if late > 0 && late < curveFloorAsked && tightenHi(&l.lateHi, late) {
		said = append(said, fmt.Sprintf("P(T_L > D) ≤ %.2g", late))
	}
	if res > 0 && res < curveFloorAsked && tightenHi(&l.residueDHi, res) {
		said = append(said, fmt.Sprintf("residue_deadline ≤ %.2g", res))
	}
	if len(said) > 0 {
		l.Accuracy.Note += fmt.Sprintf("; proved: %s (the pulls alone to a count of %d, then a Chernoff chain), stated where below the method's own", strings.Join(said, ", "), tailBoundCount(cfg.Live()))
	}
	return l
}

// tightenHi sets the upper end *b (residueDHi, lateHi; 0: none yet) to
// hi where that is lower, and reports whether it did.
func tightenHi(b *float64, hi float64) bool {
	if *b == 0 || hi < *b {
		*b = hi
		return true
	}
	return false
}

// tailBoundCount is the count c at which pullTailBound hands the pulls'
// chain over to the Chernoff chain, for M live nodes.
func tailBoundCount(M int) int { return min(max(2, min(200, M/20)), M-1) }
