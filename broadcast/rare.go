package broadcast

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/broadcast/internal/lumped"
	"github.com/gossipkit/gossipkit/internal/parallel"
	"github.com/gossipkit/gossipkit/internal/rng"
	"github.com/gossipkit/gossipkit/internal/stats"
)

// Rare misses: the chance that a given live node is missed.
//
// Plain replications see a miss of probability 10⁻⁷ once in ten million
// runs, so they cannot state it. The watched runs estimate it directly.
// Watch w = 1 or 2 live nodes other than the source, and run the protocol
// conditioned on no message ever arriving at them: in every round each
// sender of t transmits draws its peers given that none of its pushes
// arrives at a watched node, and each watched node's own requests (pull)
// fail; the run's weight W multiplies the chance of each such condition:
//
//	q(t) = Σ_j Hyp(j; t, w, N−1)·ε^j   (a sender: j watched peers, each push lost),
//	h(i) = Σ_j Hyp(j; k, i, N−1)·(1 − (1−ε)²)^j   (a watched asker, i informed).
//
// Given the condition, j watched nodes are among the sender's peers with
// probability Hyp(j; t, w, N−1)·ε^j/q(t), and its other t − j peers are
// distinct and uniform among the N − 1 − w others that are not watched;
// the other nodes act as in Simulate. This is sequential importance
// sampling with the conditional law as proposal, so E[W] is exactly the
// chance that no watched node is ever informed (every factor is the
// probability of the condition it replaces, given the past): the value of
// one run is a probability, between 0 and 1 (times the forced stall's
// likelihood ratio, at most 2, for pulls; stalls.go), whose spread across
// runs comes only from the spread of the informed counts, which is small
// at large N.
//
// W₁ (one watched node) gives the chance p₁ that a given live node other
// than the source is missed; the source never is, so the residue is
// (M−1)/M·p₁. W₂ gives p₂, the chance that two given ones both are, and
// Bonferroni's inequalities bracket the chance that some live node is:
//
//	S₁ − S₂ ≤ P(miss) ≤ S₁,   S₁ = (M−1)·p₁,   S₂ = C(M−1, 2)·p₂.
//
// By the deadline D (rounds) the same runs, stopped after round ⌊D⌋, give
// the chance that a given live node is not yet informed and bracket P(T₁ >
// D), the chance that some live node is not.
//
// Push alone with a budget: a run in which the source informs nobody in
// its whole life (its ⌈B/k⌉ rounds) is rare, its weight is large (the
// source alone sent to the watched node), and it would be missed by the
// sample. So the source's first generation is stratified: its chance
// P_ext = Π_r P(the source informs nobody in round r) is computed, the
// run is drawn given that the source informs someone (the round of its
// first success and that round's delivered count from their conditional
// laws), and the value is P_ext·W_ext + (1 − P_ext)·W.

// watchSeed is the seed of the runs with w watched nodes: streams apart
// from the plain runs' and from each other's.
func watchSeed(seed uint64, w int) uint64 {
	return rng.SplitMix64(seed ^ (0x9e3779b97f4a7c15 * uint64(w+1)))
}

// newWatchEngine is the engine of the runs with w watched nodes.
func newWatchEngine(cfg Config, seed uint64, w int) *engine {
	e := newEngine(cfg, watchSeed(seed, w))
	e.watch, e.live, e.pool, e.cont = w, e.M-w, e.N-1-w, false
	e.qlog = make([]float64, e.k+1)
	e.qmix = make([][]float64, e.k+1)
	for t := 1; t <= e.k; t++ {
		h := hypPMF(nil, t, w, e.N-1)
		mix := make([]float64, len(h))
		miss := 0.0 // 1 − q(t), summed without cancellation
		for j, hj := range h {
			ej := 1.0
			switch {
			case j == 0:
			case e.eps == 0:
				ej = 0
			default:
				ej = math.Exp(float64(j) * math.Log(e.eps))
			}
			mix[j] = hj * ej
			if j > 0 {
				if e.eps == 0 {
					miss += hj
				} else {
					miss += hj * -math.Expm1(float64(j)*math.Log(e.eps))
				}
			}
		}
		q := 1 - miss
		if q > 0 {
			for j := range mix {
				mix[j] /= q
			}
		}
		e.qlog[t] = math.Log1p(-miss)
		e.qmix[t] = mix
	}
	return e
}

// pushWatched runs c senders of t transmits given that none informs a
// watched node: the law of a sender's delivered count is the mixture over
// the watched peers j of the laws for t − j peers among the pool.
func (e *engine) pushWatched(c, t, u int) {
	mix := e.qmix[t]
	if t <= maxTable {
		e.tailMix = resize(e.tailMix, t+2)
		for j, pj := range mix {
			if pj == 0 {
				continue
			}
			e.pushTable(t-j, u, e.pool)
			for d, v := range e.tail {
				e.tailMix[d] += pj * v
			}
		}
		e.tail = append(e.tail[:0], e.tailMix...)
		e.pushByTable(c, t, u)
		return
	}
	for range c {
		if !e.spend(2 * t) {
			return
		}
		j, f := 0, e.r.Float64()
		for j < len(mix)-1 && f >= mix[j] {
			f -= mix[j]
			j++
		}
		if a := e.more(0, t-j, 0, u, e.pool); a > 0 {
			e.deliver(a, u)
		}
	}
}

// transmits is the transmits of a sender in round r of its life (1-based),
// with a budget: k, or the last round's.
func (e *engine) transmits(r int) int {
	if r == e.R {
		return e.last
	}
	return e.k
}

// sourceAlone computes, for the source pushing alone against u tracked
// uninformed nodes, the chance pExt that it informs nobody in its life,
// the chance succ = 1 − pExt (summed without cancellation), the log
// weights of its whole life and of its first min(D, R) rounds, and the
// chances p0[r−1] that it informs nobody in round r.
func (e *engine) sourceAlone(u, D int) (pExt, succ, lwEnd, lwD float64, p0 []float64) {
	pExt = 1
	for r := 1; r <= e.R; r++ {
		t := e.transmits(r)
		none, some := e.sourceRound(t, u)
		succ += pExt * some
		pExt *= none
		p0 = append(p0, none)
		lwEnd += e.qlog[t]
		if r <= D {
			lwD += e.qlog[t]
		}
	}
	return pExt, succ, lwEnd, lwD, p0
}

// sourceRound is the chance that the source's t pushes of a round,
// drawn as the watched runs draw them (none at a watched node), inform
// none of u tracked uninformed nodes, and the chance they inform some
// (summed apart, without cancellation).
func (e *engine) sourceRound(t, u int) (none, some float64) {
	for j, pj := range e.qmix[t] {
		if pj == 0 {
			continue
		}
		e.pushTable(t-j, u, e.pool)
		some += pj * e.tail[1]
		none += pj * (1 - e.tail[1])
	}
	return none, some
}

// sourceFirst draws the source's first successful round given that it
// informs someone in its life (its rounds have the chances p0 of
// informing nobody; succ is the chance of some success).
func (e *engine) sourceFirst(p0 []float64, succ float64) int {
	return firstSuccess(p0, e.r.Float64()*succ)
}

// firstSuccess is the round r of the first success by inversion of f, a
// uniform number on [0, P(some success)): r has the chance Π_{l<r} p0[l−1]
// · (1 − p0[r−1]) (the last round takes what rounding leaves).
func firstSuccess(p0 []float64, f float64) int {
	pre := 1.0
	for r := 1; r <= len(p0); r++ {
		m := pre * (1 - p0[r-1])
		if f < m || r == len(p0) {
			return r
		}
		f -= m
		pre *= p0[r-1]
	}
	return len(p0)
}

// sourceDraw informs the source's delivered count in round r given that it
// is at least 1: the watched peers j from their law given success, then
// the count by inversion.
func (e *engine) sourceDraw(r, u int) {
	f := e.r.Float64()
	e.place(e.sourceCount(r, u, f, e.r.Float64()), u)
}

// sourceCount is the source's delivered count in round r given that it is
// at least 1, from two uniform numbers f and g in [0, 1): f picks the
// watched peers j from their law given success, g the count by inversion.
func (e *engine) sourceCount(r, u int, f, g float64) int {
	t := e.transmits(r)
	mix := e.qmix[t]
	tot := 0.0
	for j, pj := range mix {
		if pj > 0 {
			e.pushTable(t-j, u, e.pool)
			tot += pj * e.tail[1]
		}
	}
	f *= tot
	j := 0
	for ; j < len(mix); j++ {
		if mix[j] == 0 {
			continue
		}
		e.pushTable(t-j, u, e.pool)
		if m := mix[j] * e.tail[1]; f < m || j == len(mix)-1 {
			break
		} else {
			f -= m
		}
	}
	e.pushTable(t-j, u, e.pool)
	return largest(e.tail, g*e.tail[1])
}

// runWatched is replication index of the watched runs (e.watch ≥ 1): the
// value of the chance that no watched node is ever informed (end; NaN
// where the protocol informs every live node eventually) and that none is
// informed by the end of round D (byD; D = 0: none asked). With
// e.curveOn it also records in e.curve that chance by the end of every
// round t = 1, 2, … (curvesum.go): until the run ends (its last value
// then holds at every later round), or until the chance falls below
// curveFloor (a last 0 then holds), or for maxCurveRounds rounds
// (e.curveCapped). The draws of a round do not depend on D or on the
// curve, so every value is the one a run with that deadline gives — save
// the forced stall's (stalls.go): with a curve its proposal reaches
// maxCurveRounds, without one the deadline, so the same index may differ
// between the two (each unbiased).
func (e *engine) runWatched(ctx context.Context, index, D int) (end, byD float64, err error) {
	e.r = rng.NewStream(e.seed, uint64(index))
	e.ctx, e.err, e.work = ctx, nil, checkEvery
	pulls := e.cfg.Protocol.pulls()
	stops := e.R > 0 && !pulls // push alone with a budget stops by itself
	u := e.live - 1
	e.startCohorts()
	strat := stops && u > 0
	var pExt, succ, lwExtEnd, lwExtD float64
	var p0 []float64
	first := 0
	if strat {
		pExt, succ, lwExtEnd, lwExtD, p0 = e.sourceAlone(u, D)
		if succ > 0 {
			first = e.sourceFirst(p0, succ)
		} else {
			strat = false
		}
	}
	// forced is the rounds the source is made to stall (stalls.go), stall
	// the rounds it did, stalled whether it still does.
	var st lumped.Stall
	forced, stall, stalled := 0, 0, u > 0
	if pulls && (D > 0 || e.curveOn) {
		cap := D
		if e.curveOn {
			cap = maxCurveRounds
		}
		st = e.watchStall(cap)
		forced = st.Draw(e.r)
	}
	lw, lwD := 0.0, math.NaN()
	uD := u // the tracked nodes uninformed after round D
	e.curve, e.curveCapped = e.curve[:0], false
	e.lateCurve = e.lateCurve[:0]
	recording := e.curveOn
	cut := math.Log(curveFloor)
	lwExt := 0.0 // the stratum's log weight by the end of round r
	for r := 1; ; r++ {
		full, lastG := e.senders(r, u)
		if stops && full+lastG == 0 || !stops && r > D && !recording || math.IsInf(lw, -1) || !stops && lw < minLogWeight {
			break
		}
		if (r%64 == 0 || e.N > 1<<12) && ctx.Err() != nil {
			return 0, 0, ctx.Err()
		}
		// The weights of the round, from the state at its start.
		if full > 0 {
			lw += float64(full) * e.qlog[e.k]
		}
		if lastG > 0 {
			lw += float64(lastG) * e.qlog[e.last]
		}
		if pulls {
			lw += float64(e.watch) * math.Log(pullMiss(e.hbuf, e.live-u, e.k, e.N-1, e.eps))
		}
		clear(e.hit[:(u+63)/64])
		e.newly = 0
		if u > 0 && !math.IsInf(lw, -1) {
			switch {
			case r <= forced: // the stall forced: nobody informed
			case strat && r < first: // the source informs nobody: the condition drawn
			case strat && r == first:
				e.sourceDraw(r, u)
			default:
				if pulls {
					e.pull(u)
				}
				if full > 0 {
					e.push(full, e.k, u)
				}
				if lastG > 0 {
					e.push(lastG, e.last, u)
				}
			}
		}
		if e.err != nil {
			return 0, 0, e.err
		}
		u -= e.newly
		if stalled && e.newly == 0 {
			stall++
		} else {
			stalled = false
		}
		e.endRound(r)
		if r == D {
			lwD, uD = lw, u
		}
		if recording {
			v := math.Exp(lw)
			l := v * e.lateShare(u)
			if strat {
				if r <= e.R {
					lwExt += e.qlog[e.transmits(r)]
				}
				ext := pExt * math.Exp(lwExt)
				v, l = ext+succ*v, ext*e.lateShare(e.live-1)+succ*l
			}
			switch {
			case !(math.Log(v) >= cut):
				e.curve, e.lateCurve = append(e.curve, 0), append(e.lateCurve, 0)
				recording = false
			case r == maxCurveRounds:
				e.curve, e.lateCurve = append(e.curve, v), append(e.lateCurve, l)
				e.curveCapped, recording = !stops || full+lastG > 0, false
			default:
				e.curve, e.lateCurve = append(e.curve, v), append(e.lateCurve, l)
			}
		}
	}
	if math.IsNaN(lwD) {
		lwD, uD = lw, u // stopped (or weight 0) before the deadline
	}
	end, byD = math.NaN(), math.Exp(lwD)
	e.lateD, e.missEnd = byD*e.lateShare(uD), math.NaN()
	if stops {
		end = math.Exp(lw)
		e.missEnd = end * e.missShare(u)
	}
	if strat {
		ext, extEnd := pExt*math.Exp(lwExtD), pExt*math.Exp(lwExtEnd)
		end, e.missEnd = extEnd+succ*end, extEnd*e.missShare(e.live-1)+succ*e.missEnd
		byD, e.lateD = ext+succ*byD, ext*e.lateShare(e.live-1)+succ*e.lateD
	}
	e.stallSeen, e.stallEnded = stall, !stalled
	if st.Forced() {
		// The stall's likelihood ratio (stalls.go), for every value.
		wt := st.Weight(stall)
		if stalled {
			wt = st.WeightAtLeast(stall)
		}
		end, byD, e.lateD, e.missEnd = end*wt, byD*wt, e.lateD*wt, e.missEnd*wt
		for i := range e.curve {
			e.curve[i] *= wt
			e.lateCurve[i] *= wt
			if e.curve[i] < curveFloor && e.curve[i] > 0 {
				// Below the floor once weighted (a weight can be as
				// small as A_{L_f}): a last 0, as for an unweighted one.
				e.curve, e.curveCapped = append(e.curve[:i], 0), false
				e.lateCurve = append(e.lateCurve[:i], 0)
				break
			}
		}
	}
	if D <= 0 {
		byD, e.lateD = math.NaN(), math.NaN()
	}
	return end, byD, nil
}

// lateShare turns a watched run's chance that its watched node is
// uninformed into its share of the chance that the level is not reached,
// given u of the run's tracked nodes uninformed (one watched node): with U
// = 1 + u the uninformed live nodes but the source, T_L > t exactly when U
// ≥ a = M − target + 1, and summing 1{v uninformed}·1{U ≥ a}/U over the
// M − 1 nodes v other than the source gives 1{U ≥ a}, so
//
//	P(T_L > t) = (M − 1)·E[1{w uninformed}·1{U ≥ a}/U]
//
// for a node w other than the source (they are exchangeable), and the
// watched runs, whose weight W is the chance that w is uninformed given
// what they drew, estimate it by (M − 1)·W·1{1 + u ≥ a}/(1 + u), at any
// level. The share returned is 1{1 + u ≥ a}/(1 + u) (at most 1; the
// factor M − 1 is applied to the mean). Unlike the Bonferroni bracket,
// whose S₂ grows with the runs in which many nodes are uninformed
// together (a stall), this is a point estimate, with the variance of
// the chance a node is uninformed where misses are single (at N 3,000,
// push–pull, k 2, ε 0.1, D 10, the bracket's 57 % from 64,000 runs).
// 0 for runs of two watched nodes (not used). With a = 1 the same share
// of a run's value at its end estimates P(miss) (missShare).
func (e *engine) lateShare(u int) float64 {
	return e.shareAt(u, e.M-e.cfg.Target()+1)
}

// missShare is lateShare for the chance that some live node is never
// informed: U ≥ 1.
func (e *engine) missShare(u int) float64 { return e.shareAt(u, 1) }

func (e *engine) shareAt(u, a int) float64 {
	if e.watch != 1 {
		return 0
	}
	U := 1 + u
	if U < a {
		return 0
	}
	return 1 / float64(U)
}

// minLogWeight ends a watched run of a protocol that does not stop by
// itself once its weight is 0 in float64 (below the smallest subnormal):
// the later rounds only lower it, so its values by every later deadline
// are 0 as well. A deadline of 10⁹ rounds at
// loss 0.9 (pull, N 3) ran for minutes where the weight was 0 after about
// 7,000.
const minLogWeight = -746

// zValue is the number of standard errors of a Monte Carlo interval: 3,
// about 99.73 % for a Normal estimate.
const zValue = 3

// interval is an estimate v of a probability with the interval [lo, hi]
// it is claimed to lie in.
type interval struct{ v, lo, hi float64 }

// relErr is the interval's relative half-width about v, the larger side:
// 0 for an exact v (lo = v = hi), +Inf for v = 0 with hi > 0, NaN for NaN.
func (iv interval) relErr() float64 {
	if iv.lo == iv.v && iv.hi == iv.v {
		return 0
	}
	return math.Max(iv.hi-iv.v, iv.v-iv.lo) / iv.v
}

// better is the interval of smaller relative error (a if tied or b is
// NaN), or where both reach 0 the one with the smaller upper end.
func better(a, b interval) interval {
	if a.lo == 0 && b.lo == 0 && a.hi != b.hi && !math.IsNaN(a.hi) && !math.IsNaN(b.hi) {
		// Both reach 0, so both relative errors are 1 or more: the one
		// with the smaller upper end says more (push–pull at N 2000, D 12:
		// the asymptotic law's [0, 0.027] against the underflowed watched
		// runs' [0, 1e-320]).
		if b.hi < a.hi {
			return b
		}
		return a
	}
	if rb := b.relErr(); rb < a.relErr() || math.IsNaN(a.relErr()) && !math.IsNaN(rb) {
		return b
	}
	return a
}

// wilson is the Wilson score interval at z = zValue of x successes in n
// trials, about the point estimate x/n: unlike x/n ± z·se it does not
// shrink to a point when x = 0 or x = n (at x = 0 its upper end is about
// z²/n).
func wilson(x, n int) interval {
	if n <= 0 {
		return interval{math.NaN(), math.NaN(), math.NaN()}
	}
	p := float64(x) / float64(n)
	lo, hi := stats.Wilson(p, n, zValue)
	return interval{p, lo, hi}
}

// meanIv is the mean of x with mean ± z·se, clipped to [0, 1] (x are
// probabilities).
func meanIv(x []float64) (interval, float64) {
	n := float64(len(x))
	if n == 0 {
		return interval{math.NaN(), math.NaN(), math.NaN()}, math.NaN()
	}
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= n
	ss := 0.0
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	se := 0.0
	if n > 1 {
		se = math.Sqrt(ss / (n - 1) / n)
	}
	return interval{m, math.Max(m-zValue*se, 0), math.Min(m+zValue*se, 1)}, se
}

// bracket is the chance that some live node (of M, the source always
// informed) is missed, from p₁ and p₂ and their standard errors, by
// Bonferroni: S₁ − S₂ ≤ P ≤ S₁. The estimate is the middle of the bracket;
// the interval adds z standard errors to each end. NaN when p₁ is NaN.
func bracket(M int, p1, se1, p2, se2 float64) interval {
	m1 := float64(M - 1)
	s1, sd1 := m1*p1, m1*se1
	s2, sd2 := 0.0, 0.0
	if M >= 3 {
		c2 := m1 * float64(M-2) / 2
		s2, sd2 = c2*p2, c2*se2
	}
	hi := math.Min(s1, 1)
	lo := min(missLower(s1, s2), hi)
	v := (lo + hi) / 2
	if M == 3 {
		// Two live nodes besides the source: S₁ − S₂ is the chance
		// itself (inclusion–exclusion is complete), not a lower end.
		v = math.Min(math.Max(s1-s2, 0), 1)
	}
	lo1, s2hi := math.Max(s1-zValue*sd1, 0), s2+zValue*sd2
	return interval{v, min(math.Max(missLower(lo1, s2hi)-zValue*math.Hypot(sd1, sd2)*b2(s1, s2), 0), v), math.Min(hi+zValue*sd1, 1)}
}

// bracketThree is bracket narrowed by the chance p₃ that three given live
// nodes are all missed (with its standard error): Bonferroni's third
// inequality P ≤ S₁ − S₂ + S₃, S₃ = C(M−1, 3)·p₃, bounds P from above
// more tightly than S₁ once S₂ is not negligible (S₁ of about 0.05 to 1,
// where S₁ − S₂ ≤ P ≤ S₁ is wider than MaxRelErr). b2 and b3 bound the
// part of p₂ and p₃ that the sample may lack (runs of weight at most 1
// and small chance, earlyEnd): they widen the ends only upwards, where
// a larger S₂ lowers the lower end and a larger S₃ raises the upper end.
// The upper end adds z standard errors of S₁ − S₂ + S₃ (the three come
// from independent runs).
func bracketThree(M int, p1, se1, p2, se2, b2, p3, se3, b3 float64) interval {
	iv := bracket(M, p1, se1, p2+b2, se2)
	if M < 4 || math.IsNaN(p3) {
		return iv
	}
	m1 := float64(M - 1)
	c2 := m1 * float64(M-2) / 2
	c3 := c2 * float64(M-3) / 3
	s1, s2, s3 := m1*p1, c2*p2, c3*p3
	lo := missLower(s1, s2)
	hi := math.Max(math.Min(math.Min(s1-s2+s3, s1), 1), lo)
	v := (lo + hi) / 2
	hi3 := s1 - s2 + s3 + c3*b3 + zValue*math.Sqrt(m1*se1*m1*se1+c2*se2*c2*se2+c3*se3*c3*se3)
	return interval{v, math.Min(iv.lo, v), math.Max(math.Min(hi3, iv.hi), v)}
}

// missLower is the larger of two lower bounds on P(X > 0), X the number of
// missed live nodes, E[X] = S₁ and E[X(X−1)] = 2S₂: Bonferroni's S₁ − S₂
// (tight when misses are rare) and the second-moment bound E[X]²/E[X²] =
// S₁²/(S₁ + 2S₂) (Chung and Erdős; tight when they are many).
func missLower(s1, s2 float64) float64 {
	lo := math.Max(s1-s2, 0)
	if s1 > 0 {
		lo = math.Max(lo, s1*s1/(s1+2*s2))
	}
	return math.Min(lo, 1)
}

// b2 is 1 where Bonferroni's bound is the larger (its ends already carry
// the standard errors through S₁ − S₂), else 0: the second-moment bound's
// end was taken at the unfavourable ends of S₁ and S₂.
func b2(s1, s2 float64) float64 {
	if s1-s2 >= s1*s1/(s1+2*s2) {
		return 1
	}
	return 0
}

// split is the interval's estimate and relative error.
func split(iv interval) (v, rel float64) { return iv.v, iv.relErr() }

func (l *Law) setResidue(iv interval) { l.Residue, l.ResidueRelErr = split(iv) }
func (l *Law) setPMiss(iv interval)   { l.PMiss, l.PMissRelErr = split(iv) }

// ivOf is the interval a value and its relative error state.
func ivOf(v, rel float64) interval {
	if math.IsNaN(v) || math.IsNaN(rel) {
		return interval{math.NaN(), math.NaN(), math.NaN()}
	}
	return interval{v, math.Max(v*(1-rel), 0), math.Min(v*(1+rel), 1)}
}

// runValues are the watched runs' values, one a run: the chances that
// one and two watched nodes are never informed (w1, w2; 0 where unused)
// and not informed by the deadline (w1D, w2D), and the first run's share
// of the chance that the level is not reached by then (late; lateShare)
// and of the chance that some live node is never informed (miss;
// missShare, push with a budget).
type runValues struct{ w1, w2, w1D, w2D, late, miss []float64 }

// watchedRuns runs the watched runs 0..reps−1 of seed, with one and two
// watched nodes, and returns their values (rare.go's doc).
func watchedRuns(ctx context.Context, cfg Config, reps int, seed uint64, workers int, progress func(done, total int64)) (v runValues, err error) {
	v = runValues{make([]float64, reps), make([]float64, reps), make([]float64, reps), make([]float64, reps), make([]float64, reps), make([]float64, reps)}
	D := deadlineRounds(cfg)
	err = parallel.For(ctx, reps, workers, func() func(context.Context, int) error {
		e1 := newWatchEngine(cfg, seed, 1)
		var e2 *engine
		if cfg.Live() >= 3 {
			e2 = newWatchEngine(cfg, seed, 2)
		}
		return func(ctx context.Context, j int) error {
			var rep Replication
			err := rep.watched(ctx, e1, e2, j, D)
			v.w1[j], v.w2[j], v.w1D[j], v.w2D[j], v.late[j], v.miss[j] = rep.W1, rep.W2, rep.W1Deadline, rep.W2Deadline, rep.W1Late, rep.W1Miss
			return err
		}
	}, progress)
	return v, err
}

// improve sets each of l's answers on misses to the watched runs'
// estimate where that is more accurate (smaller relative error) than
// the one l has.
//
// With a budget on push alone, a run whose rumour dies out after the
// source's first generation (the source informs a few nodes that inform
// nobody) has a weight near 1 against a typical σ ≪ 1, and a chance that
// can be far below 1/R: a sample that holds none states a spread that is
// too small. Its share of the variance, at most x_rest·1², where x_rest is
// the chance of such an early end beyond the stratified first generation
// (earlyEnd), is added to each standard error.
func (l *Law) improve(cfg Config, v runValues) {
	l.improveThree(cfg, v, nil, nil)
}

// improveThree is improve with the values of runs with three watched nodes
// as well (nil: none), which narrow the bracket of the chance that some
// live node is missed by the third Bonferroni inequality (bracketThree).
func (l *Law) improveThree(cfg Config, v runValues, w3, w3D []float64) {
	w1, w2, w1D, w2D := v.w1, v.w2, v.w1D, v.w2D
	M := cfg.Live()
	share := float64(M-1) / float64(M)
	scale := func(iv interval) interval { return interval{iv.v * share, iv.lo * share, iv.hi * share} }
	floor := 0.0
	if cfg.Protocol == Push && cfg.Budget > 0 {
		floor = earlyEnd(cfg)
		p1, se1 := meanIvFloor(w1, floor+unseenMiss(cfg, w1))
		p2, se2 := meanIvFloor(w2, floor+4*unseenMiss(cfg, w2))
		l.setResidue(better(ivOf(l.Residue, l.ResidueRelErr), scale(p1)))
		// Bonferroni on the runs in which the source informs someone: the
		// chance pe that it informs nobody, exact, is a part of every p_w
		// and of P(miss) (then every other live node is missed), and
		// left in the p_w it would make S₂ and S₃ of the order of
		// C(M−1, 2)·pe, and the bracket vacuous.
		pe := sourceNobody(cfg)
		br := bracket(M, p1.v-pe, se1, p2.v-pe, se2)
		if w3 != nil {
			// The early end's chance (floor) enters p₂ and p₃, which are
			// far smaller than p₁, as the bias it can cause (runs of weight
			// at most 1 that the sample may lack), not as a spread.
			q2, sq2 := meanIvFloor(w2, 4*unseenMiss(cfg, w2))
			p3, se3 := meanIvFloor(w3, 9*unseenMiss(cfg, w3))
			br = bracketThree(M, p1.v-pe, se1, q2.v-pe, sq2, floor, p3.v-pe, se3, floor)
		}
		br = interval{math.Min(br.v+pe, 1), math.Min(br.lo+pe, 1), math.Min(br.hi+pe, 1)}
		// The runs' shares (missShare): a point estimate, with the first
		// run's variance floors; pe is in every run's value.
		if miss, ok := lateInterval(M, v.miss, floor+unseenMiss(cfg, w1)); ok {
			br = better(br, miss)
		}
		l.setPMiss(better(ivOf(l.PMiss, l.PMissRelErr), br))
	}
	if D := deadlineRounds(cfg); D >= 1 && !l.deadlineKept(cfg) {
		// The end's variance floors hold by the deadline too (a run that
		// misses another node by D weighs more, and the weights' logs
		// round): without them residue_deadline at N 3000, B 20, D 30,
		// past every run's end, was stated within 1e-12 where the same
		// runs' residue is within 5.9e-6.
		un1, un2 := roundingVar(w1D), roundingVar(w2D)
		if cfg.Protocol == Push && cfg.Budget > 0 {
			un1, un2 = unseenMiss(cfg, w1D), 4*unseenMiss(cfg, w2D)
		}
		p1, se1 := meanIvFloor(w1D, floor+un1)
		p2, se2 := meanIvFloor(w2D, floor+un2)
		br := bracket(M, p1.v, se1, p2.v, se2)
		if w3D != nil {
			q2, sq2 := meanIvFloor(w2D, 0)
			p3, se3 := meanIvFloor(w3D, 0)
			br = bracketThree(M, p1.v, se1, q2.v, sq2, floor, p3.v, se3, floor)
		}
		// Every run's weight 0: the products of the miss chances fell
		// below the smallest float64 (the chance is below it, not 0).
		p1, under := underflowed(cfg, p1, 1)
		l.underflowD = l.underflowD || under
		br, _ = underflowed(cfg, br, float64(M))
		l.ResidueDeadline, l.ResidueDeadlineRelErr = split(better(ivOf(l.ResidueDeadline, l.ResidueDeadlineRelErr), scale(p1)))
		// At the level 1 P(T_L > D) is the better of the law's (or the
		// count's), the bracket and the runs' shares (lateShare). Below it
		// the count (or the law) stands, as the CDF lists it (the shares
		// are of one deadline, the CDF of every round).
		late, haveLate := lateInterval(M, v.late, floor+un1)
		if cfg.Target() == M {
			cur := ivOf(l.PLate, l.PLateRelErr)
			if math.IsNaN(cur.v) {
				cur = ivOf(l.late(cfg.Deadline))
			}
			cur = better(cur, br)
			if haveLate {
				cur = better(cur, late)
			}
			l.PLate, l.PLateRelErr = split(cur)
			l.PLateFloor = 0 // the watched runs resolve any chance
			if l.PLate == 0 && l.PLateRelErr != 0 {
				l.PLateFloor = cur.hi
			}
		} else if l.Reps > 0 && l.PLate == 0 && math.IsInf(l.PLateRelErr, 1) {
			// No plain run was late: Markov's bound from the watched
			// runs' upper end, where below Wilson's floor. (Not the
			// shares' interval: below the level 1 few runs have a share,
			// and at N 40, pull, level 0.9, D 10 the upper end of 200
			// runs' was 0.00247 where the exact chance is 0.00277.)
			if mk := markovLate(M, cfg.Target(), scale(p1).hi); mk < l.PLateFloor {
				if !l.lateMarkov {
					l.Accuracy.Note += markovNote
				}
				l.PLateFloor, l.lateMarkov = mk, true
			}
		}
	}
}

// minShares is the fewest runs with a positive share for lateInterval to
// state an interval: with fewer, the mean of a sum of rare terms is too
// skewed for its standard error to hold its spread.
const minShares = 10

// lateInterval is P(T_L > D)'s (or P(miss)'s) interval from the runs'
// shares x (lateShare, missShare): M − 1 times their mean, with zValue
// standard errors and the variance floor floorVar of the chance a node
// is uninformed (meanIvFloor's; a share is at most that chance). ok is
// false without shares or with fewer than minShares positive ones (no
// run, or a few, with enough nodes uninformed: that says little of the
// chance, not that it is 0).
func lateInterval(M int, x []float64, floorVar float64) (iv interval, ok bool) {
	if len(x) == 0 || M < 2 {
		return interval{}, false
	}
	pos := 0
	for _, v := range x {
		if v > 0 {
			pos++
		}
	}
	if pos < minShares {
		return interval{}, false
	}
	p, se := meanIvFloor(x, floorVar)
	if math.IsNaN(p.v) {
		return interval{}, false
	}
	return sharesInterval(M, p.v, se), true
}

// sharesInterval is the interval of M − 1 times the runs' mean share p
// (lateShare, missShare) with its standard error se: zValue of them, the
// mean's ends clipped to [0, 1] and then the chance's.
func sharesInterval(M int, p, se float64) interval {
	m1 := float64(M - 1)
	return interval{math.Min(p*m1, 1), math.Min(math.Max(p-zValue*se, 0)*m1, 1), math.Min(math.Min(p+zValue*se, 1)*m1, 1)}
}

// markovNote is the accuracy note of markovLate's floor.
const markovNote = "; no plain run late: P(T_L > D) ≤ M·r/(M − target + 1) (Markov's inequality, r the upper end of the watched runs' residue_deadline)"

// markovLate bounds P(T_L > D) below the level 1 by Markov's inequality
// on the count X of live nodes uninformed at D: T_L > D means X ≥ a =
// M − target + 1, and E[X] = M·r, r the chance a given live node is
// uninformed at D, so P(T_L > D) ≤ M·r/a (hi, the upper end of r's
// interval, for r; at most 1). Where no plain run was late this is often
// far below Wilson's z²/(R + z²): at N 1,000, k 2, ε 0.3, φ 0.1, B 8,
// level 0.99, D 12, 900·1.7e-5/10 = 1.5e-3 against 0.0089 (TestMarkovLate).
func markovLate(M, target int, hi float64) float64 {
	return math.Min(float64(M)*hi/float64(M-target+1), 1)
}

// underflowed is iv, or where its every value is 0 (each watched run's
// weight, a product of miss chances, fell below the smallest float64:
// the truth is below n such weights, not 0), [0, n·SmallestNonzeroFloat64]
// about 0, whose relative error is unbounded rather than 0 ("exact"); and
// whether it was. Where cfg lets a miss chance be exactly 0
// (certainZeros), a weight of 0 need not have underflowed, and an
// all-zero sample says nothing of the chance: [0, 1] about 0.
func underflowed(cfg Config, iv interval, n float64) (interval, bool) {
	if iv.v == 0 && iv.hi == 0 {
		if certainZeros(cfg) {
			iv.hi = 1
			return iv, false
		}
		iv.hi = n * math.SmallestNonzeroFloat64
		return iv, true
	}
	return iv, false
}

// certainZeros reports whether a watched run's weight can be exactly 0,
// a factor of it 0 rather than a product too small for a float64: where
// nothing is lost and no node is down, a watched node's pull of a
// population all informed succeeds for certain (push–pull at N 500, k 1,
// B 4, D 12: every one of 64,000 runs had weight 0 by the deadline, and
// P(T_L > 12) was stated below 2.5e-321), as does a push of a sender that
// reaches every peer (k ≥ N − 1).
func certainZeros(cfg Config) bool {
	return cfg.Loss == 0 && (cfg.Protocol.pulls() && cfg.Live() == cfg.Nodes || cfg.Protocol.pushes() && cfg.Fanout >= cfg.Nodes-1)
}

// unseenMiss is a second floor on a run's variance: a run in which m
// other live nodes are missed has a weight larger by g^{−m} ≈ 1 + γm (γ =
// −ln g ≈ B(1−ε)/(N−1), the log of one informed node's miss chance), and
// such runs have a chance of about S₁ = (M−1)·p₁, which can be below 1/R
// (every run of the sample informs every other node, and its weights are
// equal to the last bit). Their variance is at most S₁·(γ·p₁)²·E[m²]
// with E[m²] ≤ 4 for the rare misses; plus (p₁·10⁻¹³)² for the rounding
// of the weights' logarithms.
func unseenMiss(cfg Config, w1 []float64) float64 {
	p1, _ := meanIv(w1)
	return unseenMissAt(cfg, p1)
}

// roundingVar is (p·10⁻¹³)², p the mean of x: the floor on a run's
// variance from the rounding of the weights' logarithms (unseenMiss's
// last term), which keeps runs of equal weights to the last bit from
// stating their mean as exact.
func roundingVar(x []float64) float64 {
	p, _ := meanIv(x)
	return (p.v * 1e-13) * (p.v * 1e-13)
}

// unseenMissAt is unseenMiss for a mean p1 of the runs' values.
func unseenMissAt(cfg Config, p1 interval) float64 {
	M := float64(cfg.Live())
	gamma := float64(cfg.Budget) * (1 - cfg.Loss) / float64(cfg.Nodes-1)
	s1 := math.Min((M-1)*p1.v, 1)
	return 4*s1*(gamma*p1.v)*(gamma*p1.v) + (p1.v*1e-13)*(p1.v*1e-13)
}

// meanIvFloor is meanIv with floorVar/n added to the variance of the mean.
func meanIvFloor(x []float64, floorVar float64) (interval, float64) {
	iv, se := meanIv(x)
	if floorVar > 0 && len(x) > 0 {
		se = math.Sqrt(se*se + floorVar/float64(len(x)))
		iv.lo, iv.hi = math.Max(iv.v-zValue*se, 0), math.Min(iv.v+zValue*se, 1)
	}
	return iv, se
}

// earlyEnd bounds the chance that a budgeted push's rumour dies out after
// the source has informed someone (runWatched stratifies the case where it
// informs nobody): x − f(0) for the Galton–Watson process in which each
// informed node informs Binomial(B, p) others, x its extinction chance
// (the smallest root of x = f(x), f(s) = (1 − p + p·s)^B) and f(0) = (1 −
// p)^B the chance that the source informs nobody, p = (1−ε)(M−2)/(N−1)
// the chance that one transmit informs a new live node while few are
// informed. The pushes that meet an already informed node in the first
// generations make the true chance a little larger (by a share O(B·I/M));
// the bound is 4·(x − f(0)).
func earlyEnd(cfg Config) float64 {
	M, N1, B := float64(cfg.Live()), float64(cfg.Nodes-1), float64(cfg.Budget)
	p := (1 - cfg.Loss) * math.Max(M-2, 0) / N1
	return 4 * math.Max(extinction(p, B)-math.Pow(1-p, B), 0)
}

// extinction is the extinction chance of the Galton–Watson process with
// Binomial(B, p) offspring: the smallest root of x = (1 − p + p·x)^B,
// iterated from 0 (the iteration increases to it) until a step changes x
// by at most 10⁻¹⁷ of itself.
func extinction(p, B float64) float64 {
	x := 0.0
	for range 100_000 {
		nx := math.Pow(1-p+p*x, B)
		if nx-x <= 1e-17*nx {
			return nx
		}
		x = nx
	}
	return x
}

// supplement adds the watched runs' estimates to a computed law (exact or
// asymptotic) where they are more accurate: the asymptotic law states its
// probabilities within an absolute DevP, which says nothing of a chance
// of 10⁻⁷.
func supplement(ctx context.Context, cfg Config, set Settings, law *Law) (*Law, error) {
	if law.accurate(cfg, MaxRelErr) || !watchAffordable(cfg, set.Reps) {
		return law, nil
	}
	v, err := watchedRuns(ctx, cfg, set.Reps, set.Seed, set.Workers, nil)
	if err != nil {
		return nil, err
	}
	law.improve(cfg, v)
	law.Accuracy.Note += fmt.Sprintf("; the chances of a miss from %d watched runs where more accurate (conditional Monte Carlo, %d standard errors)", set.Reps, zValue)
	return law, nil
}

// maxWatchWork bounds the work, in live nodes times runs, that Auto spends
// on watched runs (about 10⁻⁸ s each: about 20 s on one core).
const maxWatchWork = 2e9

// watchAffordable reports whether reps watched runs of each kind fit in
// maxWatchWork and the engine's size.
func watchAffordable(cfg Config, reps int) bool {
	return cfg.Nodes <= MaxSimNodes && 2*float64(reps)*float64(cfg.Live()) <= maxWatchWork
}

// MaxRelErr is the relative error that Auto aims at for the chances of a
// miss (Residue, PMiss, ResidueDeadline, PLate): where the first watched
// runs state more, it runs more of them, up to maxRefine times the
// replications asked.
const MaxRelErr = 0.05

// maxRefine bounds the growth of the watched runs in refine.
const maxRefine = 64

// accurate reports whether every answer on misses that cfg asks is
// within rel, or is one that the watched runs would leave as it is
// (deadlineKept).
func (l *Law) accurate(cfg Config, rel float64) bool { return l.within(cfg, rel, true) }

// within reports whether every answer on misses that cfg asks is within
// rel; with kept, the deadline's chances that deadlineKept leaves count as
// within.
func (l *Law) within(cfg Config, rel float64, kept bool) bool {
	ok := func(r float64) bool { return r <= rel }
	if cfg.Protocol == Push && cfg.Budget > 0 && !(ok(asked(l.Residue, l.ResidueRelErr)) && ok(l.askedPMiss(cfg))) {
		return false
	}
	if deadlineRounds(cfg) >= 1 && !(kept && l.deadlineKept(cfg)) {
		if l.underflowD {
			// Below the smallest float64 (underflowed): no run resolves more.
			ok = func(r float64) bool { return r <= rel || math.IsInf(r, 1) }
		}
		return ok(l.askedD()) && (ok(l.lateRelErr(cfg)) || cfg.Target() < cfg.Live())
	}
	return true
}

// asked is the relative error r of a chance v as far as more runs or a
// costlier method are asked to narrow it: r, or 0 where v's claimed upper
// end is below curveFloorAsked (10⁻¹², the answers' range). The error
// stated stays r, true as before; a chance of 10⁻²⁶ is not refined to
// MaxRelErr (push–pull at N 300, k 1–4, ε 0.1, D 30: residue_deadline
// 10⁻²⁶–10⁻¹¹⁹ made refine run 64,000 watched runs, 10.6 s, for values no
// operator reads beyond their order).
func asked(v, r float64) float64 { return askedBelow(v, r, curveFloorAsked) }

// askedBelow is asked with the line at floor: a target below 10⁻¹² lowers
// it to the target (askedTarget), so that a chance near the target is
// still refined until it is decided.
func askedBelow(v, r, floor float64) float64 {
	if v*(1+r) < floor { // false for NaN, and for 0·∞
		return 0
	}
	return r
}

// askedTarget is the line below which a chance with the target t (0:
// none) is not refined: 10⁻¹², or t where smaller (--max-miss 10⁻¹³
// judges p_miss near 10⁻¹³ on its interval's upper end).
func askedTarget(t float64) float64 {
	if t > 0 {
		return math.Min(curveFloorAsked, t)
	}
	return curveFloorAsked
}

// runsFloor is the line below which the large-N law's runs do not refine
// a chance of a miss (lumped.Model.Floor): askedTarget of cfg's smaller
// target, MaxMiss or, with a deadline, 1 − Confidence. (At N 10⁶,
// push–pull, k 3, budgets 8–40, D 10, refining chances of 2·10⁻¹⁷ from
// 2.9 % to 0.65 % doubled the sweep's time.)
func runsFloor(cfg Config) float64 {
	t := cfg.MaxMiss
	if c := lateTarget(cfg); c > 0 && (!(t > 0) || c < t) {
		t = c
	}
	return askedTarget(t)
}

// lateTarget is the target on P(T_L > D): 1 − Confidence with a deadline,
// else 0 (none).
func lateTarget(cfg Config) float64 {
	if cfg.Deadline > 0 {
		return 1 - cfg.ConfidenceOrDefault()
	}
	return 0
}

// askedPMiss is asked for PMiss, against cfg's MaxMiss.
func (l *Law) askedPMiss(cfg Config) float64 {
	return askedBelow(l.PMiss, l.PMissRelErr, askedTarget(cfg.MaxMiss))
}

// askedD is asked for ResidueDeadline, which may have a proved upper end
// (residueDHi: the exact chain's dropped mass under a 0, or boundTail's):
// push–pull at N 3000, k 3, D 30 has 0 within 3.9e-21, for which Auto ran
// 64,000 watched runs (15 s), every weight of them 0.
func (l *Law) askedD() float64 {
	if l.residueDHi > 0 && l.residueDHi < curveFloorAsked {
		return 0
	}
	return asked(l.ResidueDeadline, l.ResidueDeadlineRelErr)
}

// deadlineKept reports whether the watched runs leave the deadline's
// chances of a miss as they are: those of the tilted or computed-start law
// (tiltedD) of a protocol with pulls, where the runs' weights are
// heavy-tailed (Law.tiltedD), or of a budgeted push (not measured). For a
// push alone without a budget they replace them where more accurate, as
// elsewhere: at N 12,000, k 2, ε 0.1, D 20 and 22
// (live counts where the law states more than 5 %), 8,000 watched runs
// state 4.730e-9 and 1.2922e-10 within 2.3 % (the largest weight 0.27 %
// of their sum), the law 4.693e-9 within 6.4 % and 1.281e-10 within 7.3 %.
func (l *Law) deadlineKept(cfg Config) bool {
	return l.tiltedD && (cfg.Protocol.pulls() || cfg.Budget > 0)
}

// refine runs more watched runs where the answers on misses are not yet
// within MaxRelErr: as many as the largest relative error asks (it falls
// like 1/√R), with a margin, up to maxRefine times Reps. Where the chance
// that some live node is missed is still wider than MaxRelErr, which the
// Bonferroni bracket's own width causes once S₂ is not negligible, it runs
// watched runs of three nodes (bracketThree) and then, for a chance that
// is common (its bracket is vacuous above S₁ ≈ 1), more plain
// replications, whose count states it within MaxRelErr at about
// 4,700·(1 − p)/p of them.
func refine(ctx context.Context, cfg Config, set Settings, law *Law) (*Law, error) {
	// First the curves (level 1), by a rule that does not look at the
	// deadline, so that the CDF every deadline reads stays one list.
	if err := law.refineCurves(ctx, cfg, set); err != nil {
		return nil, err
	}
	if law.accurate(cfg, MaxRelErr) {
		return law, nil
	}
	// A common miss (the count of plain replications that states it
	// within MaxRelErr is affordable) is counted first: at N 1000, ε 0.3,
	// φ 0.2, B 16 (P(miss) ≈ 0.1) the watched runs' passes took 27 s to
	// bracket what 42,000 plain runs count in about 3 s.
	counted, enough, err := law.countCommon(ctx, cfg, set, true)
	if err != nil {
		return nil, err
	}
	// A relative error falls like 1/√R only once the sample holds the
	// runs that make the spread, so the growth is measured again after
	// each pass (at most three).
	reps, ran := set.Reps, 0
	for pass := 0; pass < 3 && !law.accurate(cfg, MaxRelErr); pass++ {
		worst := 0.0
		res, resD := asked(law.Residue, law.ResidueRelErr), law.askedD()
		errs := []float64{res, law.askedPMiss(cfg), resD, law.lateRelErr(cfg)}
		if enough { // the count answered P(miss) and P(T_L > D)
			errs = []float64{res, resD}
		}
		for _, r := range errs {
			if r > MaxRelErr && !math.IsInf(r, 1) {
				worst = math.Max(worst, r)
			}
		}
		if enough && worst == 0 {
			break // what is left wide is the counted chance
		}
		next := moreRuns(cfg, reps, set.Reps, worst)
		if next <= reps {
			break
		}
		reps = next
		v, err := watchedRuns(ctx, cfg, reps, set.Seed, set.Workers, nil)
		if err != nil {
			return nil, err
		}
		law.improve(cfg, v)
		ran = reps
	}
	if ran > 0 {
		law.Accuracy.Note += fmt.Sprintf("; %d watched runs for the chances of a miss (to bring them within %g)", ran, MaxRelErr)
	}
	if enough || !law.someMissWide(cfg) || cfg.Live() < 4 {
		return law, nil
	}
	reps = max(reps, set.Reps)
	if !watchAffordable(cfg, 2*reps) {
		return law, nil
	}
	v, err := watchedRuns(ctx, cfg, reps, set.Seed, set.Workers, nil)
	if err != nil {
		return nil, err
	}
	w3, w3D, err := watchedThree(ctx, cfg, reps, set.Seed, set.Workers)
	if err != nil {
		return nil, err
	}
	law.improveThree(cfg, v, w3, w3D)
	law.Accuracy.Note += fmt.Sprintf("; %d watched runs of three live nodes (the third Bonferroni inequality) for the chance that some live node is missed", reps)
	if !law.someMissWide(cfg) {
		return law, nil
	}
	// A common miss: the count of plain replications (unless it ran).
	if !counted {
		if _, _, err := law.countCommon(ctx, cfg, set, false); err != nil {
			return nil, err
		}
	}
	return law, nil
}

// someMissWide reports whether a chance that some live node is missed
// that cfg asks (P(miss) with a budget on push, P(T₁ > D) at level 1 with
// a deadline) is stated wider than MaxRelErr.
func (l *Law) someMissWide(cfg Config) bool {
	if cfg.Protocol == Push && cfg.Budget > 0 && l.askedPMiss(cfg) > MaxRelErr {
		return true
	}
	if deadlineRounds(cfg) < 1 || cfg.Target() != cfg.Live() {
		return false
	}
	return l.lateRelErr(cfg) > MaxRelErr
}

// lateRelErr is the relative error of P(T_L > D) that more runs could
// narrow: the law's (or its count's), or 0 where the curves state it
// (Law.curveAt: Answer reads it off them, whatever the watched runs of
// the deadline give, so that it is the CDF's value), where the watched
// runs underflowed, or where it is below the answers' range (asked).
func (l *Law) lateRelErr(cfg Config) float64 {
	if l.lateHi > 0 && l.lateHi < curveFloorAsked && l.lateHi <= 1-cfg.ConfidenceOrDefault() {
		return 0 // proved below the answers' range and the target (boundTail)
	}
	if _, ok := l.curveAt(cfg.Deadline); ok || l.underflowD {
		// Read off the curves, or below what any watched run resolves
		// (their every weight by D underflowed): at push–pull's N 300, D
		// 12 refine ran 64,000 watched runs of two and of three nodes for
		// the exact chain's 3e-15 ± 707×.
		return 0
	}
	p, late := l.PLate, l.PLateRelErr
	if math.IsNaN(p) {
		p, late = l.late(cfg.Deadline)
	}
	return askedBelow(p, late, askedTarget(lateTarget(cfg)))
}

// sourceNobody is, for push alone with a budget, the chance that the
// source informs no live node in its whole life (runWatched's stratum,
// P_ext times the chance that it misses the watched nodes: the same for
// any watched set); 0 for the other protocols.
//
// Each round the source pushes to t distinct peers, j of them live with
// chance Hyp(j; t, M−1, N−1), and informs none with chance ε^j; its
// rounds are independent, so the chance is none(k)^(R−1)·none(last).
func sourceNobody(cfg Config) float64 {
	if cfg.Protocol != Push || cfg.Budget == 0 || cfg.Live() < 2 {
		return 0
	}
	logNone := func(t int) float64 {
		s := 0.0
		for j, h := range hypPMF(nil, t, cfg.Live()-1, cfg.Nodes-1) {
			switch {
			case j == 0:
				s += h
			case cfg.Loss > 0:
				s += h * math.Exp(float64(j)*math.Log(cfg.Loss))
			}
		}
		return math.Log(s)
	}
	R := rounds(cfg.Budget, cfg.Fanout)
	last := cfg.Budget - cfg.Fanout*(R-1)
	l := logNone(last)
	if R > 1 { // logNone(k) is −∞ without loss and failed nodes, and 0·−∞ is NaN
		l += float64(R-1) * logNone(cfg.Fanout)
	}
	return math.Exp(l)
}

// watchedThree runs the watched runs 0..reps−1 of seed with three watched
// nodes and returns their values at the end and by the deadline.
func watchedThree(ctx context.Context, cfg Config, reps int, seed uint64, workers int) (w3, w3D []float64, err error) {
	w3, w3D = make([]float64, reps), make([]float64, reps)
	D := deadlineRounds(cfg)
	err = parallel.For(ctx, reps, workers, func() func(context.Context, int) error {
		e := newWatchEngine(cfg, seed, 3)
		return func(ctx context.Context, j int) error {
			end, byD, err := e.runWatched(ctx, j, D)
			w3[j], w3D[j] = end, byD
			if math.IsNaN(end) {
				w3[j] = 0
			}
			if math.IsNaN(byD) {
				w3D[j] = 0
			}
			return err
		}
	}, nil)
	return w3, w3D, err
}

// countCommon counts plain replications for the chance that some live
// node is missed (P(miss) for push with a budget, else P(T_L > D)) where
// it is wider than MaxRelErr and common enough that a count states it
// within MaxRelErr at an affordable size: R = 1.3·z²(1−p)/(p·MaxRelErr²)
// runs (the relative error of a proportion, 1.3 for the estimate of p),
// at most maxRefine·set.Reps and within maxWatchWork. It reports whether
// it counted, and whether the count had the size it needed.
// With curves, the first call (refine's, before any run that depends on
// the deadline) also reads the curves against this count; a later call
// does not, as what leads to it depends on the deadline asked.
func (law *Law) countCommon(ctx context.Context, cfg Config, set Settings, curves bool) (counted, enough bool, err error) {
	if !law.someMissWide(cfg) {
		return false, false, nil
	}
	p := law.PMiss
	if cfg.Protocol != Push || cfg.Budget == 0 || law.PMissRelErr <= MaxRelErr {
		p = law.PLate
	}
	if !(p > 0) || p >= 1 {
		return false, false, nil
	}
	z2 := float64(zValue * zValue)
	need := math.Ceil(1.3 * z2 * (1 - p) / (p * MaxRelErr * MaxRelErr))
	R := int(math.Min(need, float64(maxRefine*set.Reps)))
	for R > set.Reps && !watchAffordable(cfg, R) {
		R /= 2
	}
	// A count that would hold fewer than 10 missing runs states nothing
	// (its relative error is 3/√10 ≈ 95 % or more): at push–pull's 3e-15
	// (the exact chain's noise at N 300, D 12) it ran 64,000 runs for it.
	if R <= set.Reps || p*float64(R) < 10 {
		return false, false, nil
	}
	s, err := Simulate(ctx, cfg, SimSettings{Reps: R, Seed: set.Seed, Workers: set.Workers, SkipWatched: true})
	if err != nil {
		return false, false, err
	}
	count := s.Law()
	if curves && law.curveLate != nil && !law.curveExact {
		// The curves' count of late runs at every round, from these runs:
		// their number depends on P(miss), not on the deadline, so the
		// CDF stays the one every deadline reads.
		hist := make([]int, 0)
		never := 0
		for _, r := range s.Reps {
			if r.T < 0 {
				never++
				continue
			}
			for len(hist) <= r.T {
				hist = append(hist, 0)
			}
			hist[r.T]++
		}
		law.setCurves(cfg, &law.curves, hist, never, len(s.Reps))
		law.Accuracy.Note += fmt.Sprintf("; P(T_L ≤ t) from the watched runs' curves against the count of %d plain replications", R)
	}
	if cfg.Protocol == Push && cfg.Budget > 0 {
		law.setPMiss(better(ivOf(law.PMiss, law.PMissRelErr), ivOf(count.PMiss, count.PMissRelErr)))
	}
	if deadlineRounds(cfg) >= 1 && cfg.Target() == cfg.Live() {
		law.PLate, law.PLateRelErr = split(better(ivOf(law.PLate, law.PLateRelErr), ivOf(count.PLate, count.PLateRelErr)))
	}
	law.Accuracy.Note += fmt.Sprintf("; the count of %d plain replications where it states the chance that some live node is missed more accurately", R)
	return true, float64(R) >= need, nil
}

// The large-N law of a budgeted push's misses.
//
// A watched node is missed when no informed node's pushes reach it: each
// informed node, in its life of ⌈B/k⌉ rounds, misses it with probability
// g = Π_r q(t_r), so P(missed) = E[g^I], I the informed live nodes other
// than the watched one at the end. As N → ∞ the rumour either dies out
// early, with the extinction chance x of the Galton–Watson process whose
// offspring is Binomial(B, p), p = (1−ε)(M−1)/(N−1) (I stays O(1) and
// g^I → 1), or reaches a share 1 − σ of the live nodes, where σ, the
// chance that a given one is missed, solves
//
//	σ = g^{1 + (M−2)(1−σ)} = exp(−γ(1 + (M−2)(1−σ))),   γ = −ln g,
//
// the final-size equation of an epidemic with a fixed infectious
// pressure (Demers et al. 1987; s = exp(−λ(1−s)) as λ = γM stays fixed).
// So p₁ = x + (1−x)·σ, and with g₂ = Π_r q₂(t_r) for two watched nodes,
// p₂ = x + (1−x)·exp(−γ₂(1 + (M−3)(1−σ))).
//
// Accuracy. Three terms bound |p₁ − p₁(law)|/p₁: the error of the mean
// informed count E[I] in the exponent, stated as at most 3 nodes (3γ; the
// Monte Carlo measures about 0.4, TestBudgetMissLaw); the spread of I,
// γ²·Var(I)/2 with Var(I) ≤ M·σ(1−σ)/(1−λσ)² (the final-size central
// limit theorem of the branching approximation, λ = γ(M−2)); and the
// extinction chance's error from the nodes an early generation has
// already informed, (x/p₁)·2(B² + B)/M. p₂ gets twice the first two.

// budgetMissLaw is the law above for push alone with a budget: the residue
// and the Bonferroni interval of P(miss), each widened by its bound.
// ok is false where the fixed point is not found (near λ = 1).
func budgetMissLaw(cfg Config) (res, pmiss interval, ok bool) {
	M, N1 := cfg.Live(), cfg.Nodes-1
	k, B, eps := cfg.Fanout, cfg.Budget, cfg.Loss
	R := rounds(B, k)
	last := B - k*(R-1)
	lq := func(w, t int) float64 { // log q_w(t)
		h := hypPMF(nil, t, w, N1)
		miss := 0.0
		for j := 1; j < len(h); j++ {
			if eps == 0 {
				miss += h[j]
			} else {
				miss += h[j] * -math.Expm1(float64(j)*math.Log(eps))
			}
		}
		return math.Log1p(-miss)
	}
	g1 := -(float64(R-1)*lq(1, k) + lq(1, last))
	g2 := 0.0
	if M >= 3 {
		g2 = -(float64(R-1)*lq(2, k) + lq(2, last))
	}
	fM := float64(M)
	sigma := 0.0
	conv := false
	for range 100_000 {
		next := math.Exp(-g1 * (1 + (fM-2)*(1-sigma)))
		if math.Abs(next-sigma) <= 1e-15*next {
			sigma, conv = next, true
			break
		}
		sigma = next
	}
	if !conv || math.IsInf(g1, 1) {
		return interval{}, interval{}, false
	}
	p := (1 - eps) * (fM - 1) / float64(N1)
	fB := float64(B)
	// The rumour dies out either at the source (it informs no live node:
	// pe, exact, sourceNobody) or later (xs: the Galton–Watson extinction
	// x less its first generation's (1−p)^B). Every live node is missed
	// with pe, so Bonferroni is applied to the events "missed, and the
	// source informed someone" (as in improveThree): left in p₂, pe would
	// make S₂ of the order of C(M−1, 2)·pe and the bracket vacuous (at
	// N 10⁴, ε 0.3, φ 0.2, B 20 the interval was 0–0.11 around 0.056).
	pe := sourceNobody(cfg)
	xs := math.Max(extinction(p, fB)-math.Pow(1-p, fB), 0)
	a1 := xs + (1-pe-xs)*sigma
	a2 := xs + (1-pe-xs)*math.Exp(-g2*(1+(fM-3)*(1-sigma)))
	lam := g1 * (fM - 2)
	v := fM * sigma * (1 - sigma) / ((1 - lam*sigma) * (1 - lam*sigma))
	if lam*sigma >= 1 {
		return interval{}, interval{}, false
	}
	rel1 := math.Expm1(3*g1+g1*g1*v/2) + xs/a1*2*(fB*fB+fB)/fM
	rel2 := math.Expm1(6*g1+g1*g1*v) + xs/a2*2*(fB*fB+fB)/fM
	share := (fM - 1) / fM
	p1 := pe + a1
	res = interval{share * p1, share * (pe + a1*math.Max(1-rel1, 0)), math.Min(share*(pe+a1*(1+rel1)), 1)}
	s1 := (fM - 1) * a1
	s2 := (fM - 1) * (fM - 2) / 2 * a2
	hi := math.Min(pe+s1*(1+rel1), 1)
	lo := missLower(s1*(1-rel1), s2*(1+rel2))
	if s1*(1-rel1)-s2*(1+rel2) < lo { // the second-moment bound: S₁ low, S₂ high in both places
		lo = math.Min(lo, s1*(1-rel1)*s1*(1-rel1)/(s1*(1+rel1)+2*s2*(1+rel2)))
	}
	lo = math.Min(pe+lo, 1)
	mid := math.Min(pe+(missLower(s1, s2)+math.Min(s1, 1))/2, 1)
	pmiss = interval{min(max(mid, lo), hi), min(lo, hi), hi}
	return res, pmiss, true
}

// Miss is a budgeted push's chance of missing live nodes: Residue (a
// given live node is never informed) and PMiss (some live node is), each
// with the relative error it is claimed to be within, and the method.
type Miss struct {
	Residue, ResidueRelErr float64
	PMiss, PMissRelErr     float64
	// Method is "exact" (the count chain), "large-N law" (budgetMissLaw's
	// doc) or "watched runs" (conditional Monte Carlo, rare.go).
	Method string
}

// MissChance computes Miss for push with a budget at any N up to
// MaxNodes: by the exact chain where ExactCost fits set.ExactBudget, else
// by the large-N law where its bound is within MaxRelErr, else by the
// watched runs (set.Reps of each kind, more where needed to bring the
// errors within MaxRelErr, as Auto does), keeping whichever of the law and
// the runs is more accurate. cfg's level and deadline are ignored.
func MissChance(ctx context.Context, cfg Config, set Settings) (*Miss, error) {
	return missChance(ctx, cfg, set, true)
}

// missChance is MissChance; without refinement (a search over budgets)
// the watched runs are set.Reps of each kind, and only where they cost at
// most a tenth of maxWatchWork (else the law answers).
func missChance(ctx context.Context, cfg Config, set Settings, refining bool) (*Miss, error) {
	if ctx == nil {
		return nil, errors.New("broadcast: nil context")
	}
	// Who is informed in the end does not depend on the clock (async.go:
	// every informed node's pushes go to peers drawn as in the rounds), so
	// the rounds' methods answer for Async too.
	cfg.Deadline, cfg.MaxMiss, cfg.Time = 0, 0, Rounds
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Protocol != Push || cfg.Budget == 0 {
		return nil, fmt.Errorf("broadcast: miss chance: push with a budget only (have %v, budget %d): %w", cfg.Protocol, cfg.Budget, ErrNotCovered)
	}
	set = set.withDefaults()
	if ExactCost(cfg) <= set.ExactBudget {
		l, err := ExactLaw(ctx, cfg)
		if err != nil {
			return nil, err
		}
		return &Miss{l.Residue, l.ResidueRelErr, l.PMiss, l.PMissRelErr, "exact"}, nil
	}
	res, pm, ok := budgetMissLaw(cfg)
	lawMiss := &Miss{res.v, res.relErr(), pm.v, pm.relErr(), "large-N law"}
	affordable := watchAffordable(cfg, set.Reps)
	if !refining {
		affordable = affordable && 20*float64(set.Reps)*float64(cfg.Live()) <= maxWatchWork
	}
	if ok && res.relErr() <= MaxRelErr && pm.relErr() <= MaxRelErr || !affordable {
		if !ok {
			return nil, fmt.Errorf("broadcast: miss chance: N = %d is beyond the watched runs and the large-N law has no fixed point here: %w", cfg.Nodes, ErrNotCovered)
		}
		return lawMiss, nil
	}
	v, err := watchedRuns(ctx, cfg, set.Reps, set.Seed, set.Workers, nil)
	if err != nil {
		return nil, err
	}
	nan := math.NaN()
	l := &Law{Residue: nan, ResidueRelErr: nan, PMiss: nan, PMissRelErr: nan}
	l.improve(cfg, runValues{w1: v.w1, w2: v.w2, miss: v.miss})
	if refining {
		if l, err = refine(ctx, cfg, set, l); err != nil {
			return nil, err
		}
	}
	m := &Miss{l.Residue, l.ResidueRelErr, l.PMiss, l.PMissRelErr, "watched runs"}
	if ok && pm.relErr() < m.PMissRelErr {
		return lawMiss, nil
	}
	return m, nil
}

// moreRuns is how many watched runs (from runs) bring a relative error
// worst to MaxRelErr, as it falls like 1/√R, with a margin of 1.3 (worst 0:
// an error that no run states, maxRefine times): at most maxRefine times
// reps, the replications asked, and MaxReps, halved towards runs until
// affordable (watchAffordable); runs where no growth of an eighth is.
func moreRuns(cfg Config, runs, reps int, worst float64) int {
	grow := float64(maxRefine)
	if worst > 0 {
		grow = math.Ceil(1.3 * (worst / MaxRelErr) * (worst / MaxRelErr))
	}
	next := int(math.Min(math.Min(float64(runs)*math.Max(grow, 1), float64(maxRefine*reps)), MaxReps))
	for next > runs && !watchAffordable(cfg, next) {
		next = (next + runs) / 2
		if next-runs < runs/8 {
			next = runs
		}
	}
	return next
}

// curveFloorAsked and curveCeilAsked bound the P(T_L > t) refineCurves
// brings within MaxRelErr: down to 10⁻¹² (the answers' range), and below
// 10⁻², where p_deadline is stated as 1 − q with q's relative error (above
// it, as p with an absolute interval, which the count states; there the
// bracket is vacuous and no watched run narrows it: at N 3000, B 24,
// the count's 6.7 % at P(T_L > 9) = 0.67 made it run 64 times the runs
// for nothing).
const (
	curveFloorAsked = 1e-12
	curveCeilAsked  = 1e-2
)

// refineCurves runs more watched runs with their curves where some round's
// P(T_L > t), from 10⁻¹² to 10⁻², is stated wider than MaxRelErr: as many as
// the widest asks (the error falls like 1/√R), at most maxRefine times
// the replications and within maxWatchWork, in up to three passes. The
// new runs are those of the next indices of the same streams; their sums
// add to the sample's, exactly. The rule reads every round of the curves
// and none of the deadline, so the CDF stays the list every deadline
// reads (a deadline's own refinement, refine, would make it depend on
// the deadline asked).
func (l *Law) refineCurves(ctx context.Context, cfg Config, set Settings) error {
	if l.curveLate == nil || l.curveExact {
		return nil
	}
	ran := l.curves.Runs
	for pass := 0; pass < 3; pass++ {
		worst := 0.0
		for _, iv := range l.curveLate {
			if iv.v >= curveFloorAsked && iv.v < curveCeilAsked {
				if r := iv.relErr(); r > MaxRelErr && !math.IsInf(r, 1) {
					worst = math.Max(worst, r)
				}
			}
		}
		if worst == 0 {
			break
		}
		runs := l.curves.Runs
		next := moreRuns(cfg, runs, set.Reps, worst)
		if next <= runs {
			break
		}
		more, err := watchedCurves(ctx, cfg, runs, next, set.Seed, set.Workers)
		if err != nil {
			return err
		}
		l.curves.Merge(more) // the law's own copy (setCurves)
		l.setCurves(cfg, &l.curves, l.curveCount, l.curveNever, l.curveR)
	}
	if l.curves.Runs > ran {
		l.Accuracy.Note += fmt.Sprintf("; P(T_L ≤ t) from the curves of %d watched runs (to bring every round's within %g down to %g)", l.curves.Runs, MaxRelErr, curveFloorAsked)
	}
	return nil
}

// watchedCurves runs the watched runs from..to−1 of seed with their
// curves and returns their sums (Curves).
func watchedCurves(ctx context.Context, cfg Config, from, to int, seed uint64, workers int) (*Curves, error) {
	var sums curveWorkers
	err := parallel.For(ctx, to-from, workers, func() func(context.Context, int) error {
		e1 := newWatchEngine(cfg, seed, 1)
		var e2 *engine
		if cfg.Live() >= 3 {
			e2 = newWatchEngine(cfg, seed, 2)
		}
		sum := sums.add(e1, e2)
		return func(ctx context.Context, j int) error {
			var rep Replication
			if err := rep.watched(ctx, e1, e2, from+j, 0); err != nil {
				return err
			}
			addRunOf(sum, e1, e2)
			return nil
		}
	}, nil)
	if err != nil {
		return nil, err
	}
	return sums.total(), nil
}
