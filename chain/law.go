package chain

import (
	"math"
	"sync"

	"gonum.org/v1/gonum/floats"
)

// parallelMin is the live-region size (states) from which stepJoint
// splits its rows between two goroutines.
const parallelMin = 20000

// region is a live region: X in [xlo, xhi], Y in [ylo, yhi], X ≤ Y.
type region struct{ xlo, xhi, ylo, yhi int }

// law is a probability law over the chain's states, stepped by the
// uniformized chain P_Λ = I + Q/Λ (see the package doc), with the region
// that holds its mass: X in [xlo, xhi] and, for the joint chain, rows Y in
// [ylo, yhi], each row Y holding X in [lo[Y], hi[Y]] (empty where
// lo > hi) within [xlo, xhi]. Outside that region every buffer is zero.
//
// A state whose exit rate exceeds Λ would have a negative self-loop in
// P_Λ; such states lie beyond cap (cap[Y] for the joint chain, cap[0] for
// X alone) and are never written: the mass that a step sends there is
// removed and added to killed, so that P_Λ restricted to the states within
// the caps is exact for the chain killed on leaving them, and the law
// computed is below the true one by at most killed in total variation.
type law struct {
	n, w       int  // nodes; row width N+2 (joint)
	joint      bool // (X, Y) or X alone
	j          Jumps
	cu, cm, cw float64 // jump probabilities a step, up to the factor X(·)
	cl         float64 // the loss jump X → X−1 a step, up to X(N−X) (0 without loss)
	// ext holds the mass that has died (X = 0, absorbing, Y frozen): ext[Y]
	// for the joint chain, ext[0] for X alone; nil without loss, where
	// nothing dies. It is not stepped: a step only adds the flow from X = 1.
	ext        []float64
	cur, nxt   []float64
	xlo, xhi   int
	ylo, yhi   int
	ymax       int       // rows above ymax are absorbed (N unless absorbing)
	cap        []int     // the largest X of each row whose state is kept
	dropped    float64   // mass removed by trimming
	killed     float64   // mass sent beyond the caps
	rowMass    []float64 // mass of each row after the last step (joint)
	wantPx     bool      // sum the X marginal while stepping (joint)
	pxOK       bool      // px is the X marginal of cur, over [pxLo, pxHi]
	px, px2    []float64
	pxLo, pxHi int
	lo, hi     []int     // the X range of each row of cur (joint)
	nlo, nhi   []int     // the X range of each row where nxt may be nonzero
	ra, rb     []int     // scratch: the ranges stepJoint writes
	nreg       region    // the rows (joint) or X (alone) where nxt may be nonzero
	dOut       []float64 // w·X(X−1)/D (scaled)
	up, stay   []float64 // replication: u·X(N−X)/D and 1 − up − down (scaled)
	steps      int64
}

// newLaw starts the law at (initial, initial) for the uniformized chain
// of rate lambda (per round); lambda ≥ N is the per-shuffle chain itself.
func newLaw(n int, joint bool, j Jumps, initial int, lambda float64) *law {
	l := &law{n: n, w: n + 2, joint: joint, j: j,
		xlo: initial, xhi: initial, ylo: initial, yhi: initial, ymax: n}
	size := n + 2
	if joint {
		size = (n + 2) * (n + 2)
	}
	l.cur, l.nxt = make([]float64, size), make([]float64, size)
	l.cur[l.idx(initial, initial)] = 1
	if joint {
		l.rowMass = make([]float64, n+2)
		l.rowMass[initial] = 1
		l.lo, l.hi, l.nlo, l.nhi = make([]int, n+2), make([]int, n+2), make([]int, n+2), make([]int, n+2)
		l.ra, l.rb = make([]int, n+2), make([]int, n+2)
		for y := range l.lo {
			l.lo[y], l.hi[y], l.nlo[y], l.nhi[y] = 1, 0, 1, 0
		}
		l.lo[initial], l.hi[initial] = initial, initial
	}
	l.nreg = region{xlo: initial, xhi: initial, ylo: initial, yhi: initial}
	if j.Lose > 0 {
		if joint {
			l.ext = make([]float64, n+2)
		} else {
			l.ext = make([]float64, 1)
		}
	}
	l.setRate(lambda)
	return l
}

// setRate makes the law step by the chain uniformized at rate lambda per
// round: a jump of rate r per round has probability r/lambda a step (the
// per-shuffle chain for lambda ≥ N, whose probabilities are r/N).
func (l *law) setRate(lambda float64) {
	n := float64(l.n)
	d := n * (n - 1)
	f := 1.0
	if lambda < n {
		f = n / lambda
	}
	l.cu, l.cm, l.cw = f*l.j.Up/d, f*l.j.Move/d, f*l.j.Drop/d
	l.cl = f * l.j.Lose / d
	l.dOut, l.up, l.stay = nil, nil, nil
	l.setCaps(f == 1)
}

// exitProb is the probability that a step leaves (x, y) (y = N for X
// alone, whose moves to a new node do not change X and are not jumps).
// The loss term is exactly zero without loss.
func (l *law) exitProb(x, y int) float64 {
	fx := float64(x)
	if !l.joint {
		return l.cu*fx*float64(l.n-x) + l.cw*fx*float64(x-1) + l.cl*fx*float64(l.n-x)
	}
	return (l.cu+l.cm)*fx*float64(l.n-y) + l.cu*fx*float64(y-x) + l.cw*fx*float64(x-1) + l.cl*fx*float64(l.n-x)
}

// setCaps sets the largest X of each row such that every state of the row
// up to it has exit probability ≤ 1. The exit rate decreases in Y (by
// m·X per unit of Y), so the caps never decrease in Y. all keeps every
// state (the per-shuffle chain, whose exit probabilities are ≤ 1).
func (l *law) setCaps(all bool) {
	n := l.n
	if !l.joint {
		c := n
		if !all {
			for x := 1; x <= n; x++ {
				if l.exitProb(x, n) > 1 {
					c = x - 1
					break
				}
			}
		}
		l.cap = []int{c}
		return
	}
	l.cap = make([]int, n+2)
	c := 0
	for y := 1; y <= n; y++ {
		if all {
			l.cap[y] = y
			continue
		}
		for c < y && l.exitProb(c+1, y) <= 1 {
			c++
		}
		l.cap[y] = c
	}
	l.cap[n+1] = l.cap[n]
}

// fits reports whether the state (x, y) is within the caps.
func (l *law) fits(x, y int) bool {
	if !l.joint {
		return x <= l.cap[0]
	}
	return x <= l.cap[y]
}

func (l *law) idx(x, y int) int {
	if l.joint {
		return y*l.w + x
	}
	return x
}

// states is the size of the live region.
func (l *law) states() int {
	if !l.joint {
		return l.xhi - l.xlo + 1
	}
	s := 0
	for y := l.ylo; y <= l.yhi; y++ {
		s += max(0, l.hi[y]-l.lo[y]+1)
	}
	return s
}

// box sets the bounding X range [xlo, xhi] of the rows' ranges.
func (l *law) box() {
	l.xlo, l.xhi = l.n+1, 0
	for y := l.ylo; y <= l.yhi; y++ {
		if l.lo[y] <= l.hi[y] {
			l.xlo, l.xhi = min(l.xlo, l.lo[y]), max(l.xhi, l.hi[y])
		}
	}
	if l.xlo > l.xhi { // no mass left in any row
		l.xlo, l.xhi = 1, 0
	}
}

// step applies one step: cur ← cur·P_Λ.
func (l *law) step() {
	l.killed += l.killFlow()
	if l.ext != nil {
		l.die()
	}
	if l.joint {
		l.stepJoint()
	} else {
		l.stepReplication()
	}
	l.cur, l.nxt = l.nxt, l.cur
	if l.joint {
		l.lo, l.nlo = l.nlo, l.lo
		l.hi, l.nhi = l.nhi, l.hi
	}
	l.steps++
}

// advance applies one step and trims the live region (every trimEvery
// steps for X alone).
func (l *law) advance(drop float64) {
	l.step()
	if l.joint || l.steps%trimEvery == 0 {
		l.trim(drop)
	}
}

// killFlow returns the mass that the next step sends from cur beyond the
// caps. Every jump raises X by at most one, so only the states at a cap
// send mass beyond it: (x, y) with x = cap[y] by a copy to a covered node
// (to x+1 in the same row) and, where cap[y+1] = x, by a copy to a new
// node (to (x+1, y+1)).
func (l *law) killFlow() float64 {
	cur, n := l.cur, l.n
	if !l.joint {
		x := l.cap[0]
		if x < l.xlo || x > l.xhi || x >= n {
			return 0
		}
		return cur[x] * l.cu * float64(x) * float64(n-x)
	}
	s := 0.0
	for y := l.ylo; y <= l.yhi; y++ {
		x := l.cap[y]
		if x < l.lo[y] || x > l.hi[y] {
			continue
		}
		p := cur[y*l.w+x]
		if p == 0 {
			continue
		}
		fx := float64(x)
		s += p * l.cu * fx * float64(y-x)
		if y < l.ymax && l.cap[y+1] == x {
			s += p * l.cu * fx * float64(n-y)
		}
	}
	return s
}

// die adds to ext the mass that the next step sends from X = 1 to X = 0:
// cur(1, Y)·ℓ·(N−1)/D (scaled), which the step itself removes from X = 1
// (dOut[1] is that probability: the drop term w·1·0 is zero).
func (l *law) die() {
	d1 := l.dropRate()[1]
	if !l.joint {
		if l.xlo <= 1 && 1 <= l.xhi {
			l.ext[0] += l.cur[1] * d1
		}
		return
	}
	for y := l.ylo; y <= l.yhi; y++ {
		if l.lo[y] <= 1 && 1 <= l.hi[y] {
			l.ext[y] += l.cur[y*l.w+1] * d1
		}
	}
}

// extSum returns the mass that has died, in all and (joint chain, m > 0)
// with Y ≥ m.
func (l *law) extSum(m int) (total, above float64) {
	for y, p := range l.ext {
		total += p
		if m > 0 && y >= m {
			above += p
		}
	}
	return total, above
}

// extBelow returns the mass that has died with Y < m.
func (l *law) extBelow(m int) float64 {
	s := 0.0
	for y := 0; y < min(m, len(l.ext)); y++ {
		s += l.ext[y]
	}
	return s
}

// stepReplication computes nxt from cur over the grown live region:
// nxt[X] = cur[X]·stay(X) + cur[X−1]·up(X−1) + cur[X+1]·down(X+1).
func (l *law) stepReplication() {
	n := l.n
	if l.up == nil {
		l.up, l.stay = make([]float64, n+2), make([]float64, n+2)
		dn := l.dropRate()
		for x := 1; x <= n; x++ {
			l.up[x] = l.cu * float64(x) * float64(n-x)
			l.stay[x] = 1 - l.up[x] - dn[x]
		}
	}
	up, stay, dn := l.up, l.stay, l.dOut
	cur, nxt := l.cur, l.nxt
	xlo, xhi := max(1, l.xlo-1), min(n, l.xhi+1, l.cap[0])
	if r := l.nreg; r.xlo < xlo || r.xhi > xhi {
		clear(nxt[r.xlo : r.xhi+1])
	}
	// cur[0] and cur[N+1] are always zero, and so is cur beyond the cap.
	for x := xlo; x <= xhi; x++ {
		nxt[x] = cur[x]*stay[x] + cur[x-1]*up[x-1] + cur[x+1]*dn[x+1]
	}
	l.nreg = region{xlo: l.xlo, xhi: l.xhi}
	l.xlo, l.xhi = xlo, xhi
}

// stepJoint computes nxt from cur over the grown live region by pulling
// each state's five sources (itself and its four predecessors), so that
// every state is written once, and the mass of each row written. Row Y of
// nxt receives from rows Y (X ± 1) and Y−1 (X and X+1) of cur, so its
// range is theirs grown by one, within 1..min(Y, cap[Y]). cur is zero
// outside its ranges and beyond the caps, so the sources there contribute
// nothing.
func (l *law) stepJoint() {
	n, w := l.n, l.w
	cur, nxt := l.cur, l.nxt
	cu, cm := l.cu, l.cm
	ylo, yhi := l.ylo, min(l.ymax, l.yhi+1)
	ra, rb := l.ra, l.rb
	for y := ylo; y <= yhi; y++ {
		a, b := n+1, 0
		if y <= l.yhi && l.lo[y] <= l.hi[y] {
			a, b = l.lo[y]-1, l.hi[y]+1
		}
		if y-1 >= l.ylo && l.lo[y-1] <= l.hi[y-1] {
			a, b = min(a, l.lo[y-1]), max(b, l.hi[y-1]+1)
		}
		ra[y], rb[y] = max(a, 1), min(b, y, l.cap[y])
	}
	// nxt holds a law of an earlier step; clear it where it is not
	// written now.
	for y := l.nreg.ylo; y <= l.nreg.yhi; y++ {
		p, q := l.nlo[y], l.nhi[y]
		if p > q {
			continue
		}
		row := nxt[y*w : y*w+w]
		if y < ylo || y > yhi || ra[y] > rb[y] {
			clear(row[p : q+1])
		} else {
			if p < ra[y] {
				clear(row[p : min(q, ra[y]-1)+1])
			}
			if q > rb[y] {
				clear(row[max(p, rb[y]+1) : q+1])
			}
		}
		l.nlo[y], l.nhi[y] = 1, 0
	}
	dOut := l.dropRate()
	// With wantPx, the X marginal of the new law is summed as its rows are
	// written (each goroutine into its own buffer), from the row just
	// written, still in cache.
	var pxA, pxB []float64
	if l.wantPx {
		if l.px == nil {
			l.px, l.px2 = make([]float64, n+2), make([]float64, n+2)
		}
		clear(l.px[l.pxLo : l.pxHi+1])
		pxA, pxB = l.px, l.px2
	}
	rows := func(ya, yb int, px []float64) {
		for y := ya; y <= yb; y++ {
			xa, xe := ra[y], rb[y]
			l.nlo[y], l.nhi[y] = xa, xe
			if xe < xa {
				l.rowMass[y] = 0
				continue
			}
			abOut := (cu + cm) * float64(n-y)                // per holder: to a new node
			aIn, bIn := cu*float64(n-y+1), cm*float64(n-y+1) // from row y−1 (Y ≥ X ≥ 1, so y−1 ≥ 0)
			c0 := cur[y*w : y*w+w]
			cp := cur[(y-1)*w : y*w]
			out := nxt[y*w : y*w+w]
			fx, fyx := float64(xa), float64(y-xa)
			cPrev := cu * (fx - 1) * (fyx + 1) // (X−1, Y) → (X, Y): copied to a covered node
			sum := 0.0
			for x := xa; x <= xe; x++ {
				cOut := cu * fx * fyx
				// Column 0 and column N+1 are always zero, so x−1 and x+1
				// need no guard.
				v := c0[x]*(1-abOut*fx-cOut-dOut[x]) +
					c0[x-1]*cPrev + // (X−1, Y): copied to a covered node
					c0[x+1]*dOut[x+1] + // (X+1, Y): one of two holders dropped d
					cp[x-1]*aIn*(fx-1) + // (X−1, Y−1): copied to a new node
					cp[x]*bIn*fx // (X, Y−1): moved to a new node
				out[x] = v
				sum += v
				cPrev = cOut
				fx++
				fyx--
			}
			l.rowMass[y] = sum
			if px != nil {
				floats.Add(px[xa:xe+1], out[xa:xe+1])
			}
		}
	}
	// Each row of nxt reads rows y and y−1 of cur only, so two halves of
	// the rows can be computed at once; every state is computed the same
	// way, so the result does not depend on the split. Below parallelMin
	// states the goroutine costs more than it saves.
	cells := func(y int) int { return max(0, rb[y]-ra[y]+1) }
	total := 0
	for y := ylo; y <= yhi; y++ {
		total += cells(y)
	}
	if total < parallelMin {
		rows(ylo, yhi, pxA)
	} else {
		// Split where half the states lie.
		mid, acc := ylo, cells(ylo)
		for mid < yhi-1 && 2*acc < total {
			mid++
			acc += cells(mid)
		}
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); rows(mid+1, yhi, pxB) }()
		rows(ylo, mid, pxA)
		wg.Wait()
		if pxB != nil {
			xa, xb := max(1, l.xlo-1), min(n, l.xhi+1)
			floats.Add(pxA[xa:xb+1], pxB[xa:xb+1])
			clear(pxB[xa : xb+1])
		}
	}
	l.nreg = region{ylo: l.ylo, yhi: l.yhi}
	l.ylo, l.yhi = ylo, yhi
	l.xlo, l.xhi = max(1, l.xlo-1), min(n, l.xhi+1) // a bound; box makes it tight
	l.pxOK = l.wantPx
	if l.pxOK {
		l.pxLo, l.pxHi = l.xlo, l.xhi
	}
}

// dropRate returns the probability of X → X−1 a step, w·X(X−1)/D +
// ℓ·X(N−X)/D for X = 0..N+1 (scaled), computed once; the loss term is
// left out without loss (so the values are those of the lossless chain,
// bit for bit) and for X = N+1 (no state).
func (l *law) dropRate() []float64 {
	if l.dOut == nil {
		l.dOut = make([]float64, l.n+2)
		for x := range l.dOut {
			l.dOut[x] = l.cw * float64(x) * float64(x-1)
			if l.cl != 0 && x <= l.n {
				l.dOut[x] += l.cl * float64(x) * float64(l.n-x)
			}
		}
	}
	return l.dOut
}

// trim drops cells at both ends of the live rows (and of X alone) while
// the mass dropped, in all, stays below drop, and adds it to l.dropped. It
// returns the mass dropped.
func (l *law) trim(drop float64) float64 {
	cur := l.cur
	used := 0.0
	if !l.joint {
		for l.xlo < l.xhi && used+cur[l.xlo] < drop {
			used += cur[l.xlo]
			cur[l.xlo] = 0
			l.xlo++
		}
		for l.xhi > l.xlo && used+cur[l.xhi] < drop {
			used += cur[l.xhi]
			cur[l.xhi] = 0
			l.xhi--
		}
		l.dropped += used
		return used
	}
	for y := l.ylo; y <= l.yhi; y++ {
		row := cur[y*l.w : y*l.w+l.w]
		a, b := l.lo[y], l.hi[y]
		before := used
		for a <= b && used+row[a] < drop {
			used += row[a]
			if l.pxOK {
				l.px[a] -= row[a]
			}
			row[a] = 0
			a++
		}
		for b >= a && used+row[b] < drop {
			used += row[b]
			if l.pxOK {
				l.px[b] -= row[b]
			}
			row[b] = 0
			b--
		}
		l.lo[y], l.hi[y] = a, b
		l.rowMass[y] -= used - before
	}
	for l.ylo < l.yhi && l.lo[l.ylo] > l.hi[l.ylo] {
		l.ylo++
	}
	for l.yhi > l.ylo && l.lo[l.yhi] > l.hi[l.yhi] {
		l.yhi--
	}
	l.box()
	l.dropped += used
	return used
}

// absorb removes the rows Y ≥ m and stops the region below them: their
// mass has reached the level and never comes back (Y never decreases).
// It is not an error: the mass with Y < m is what is still followed.
func (l *law) absorb(m int) {
	for y := max(m, l.ylo); y <= l.yhi; y++ {
		if l.lo[y] <= l.hi[y] {
			clear(l.cur[y*l.w+l.lo[y] : y*l.w+l.hi[y]+1])
		}
		l.lo[y], l.hi[y] = 1, 0
		l.rowMass[y] = 0
	}
	l.pxOK = false
	l.ymax = m - 1
	l.yhi = min(l.yhi, m-1)
	if l.yhi < l.ylo { // nothing left below m
		l.ylo, l.yhi = m-1, m-1
	}
	l.box()
}

// each calls f for every live state with nonzero mass.
func (l *law) each(f func(x, y int, p float64)) {
	if !l.joint {
		for x := l.xlo; x <= l.xhi; x++ {
			if p := l.cur[x]; p != 0 {
				f(x, 0, p)
			}
		}
		return
	}
	for y := l.ylo; y <= l.yhi; y++ {
		for x := l.lo[y]; x <= l.hi[y]; x++ {
			if p := l.cur[y*l.w+x]; p != 0 {
				f(x, y, p)
			}
		}
	}
}

// below returns the mass of the states with Y < m (joint chain), summed
// afresh.
func (l *law) below(m int) float64 {
	s := 0.0
	for y := l.ylo; y <= min(l.yhi, m-1); y++ {
		for x := l.lo[y]; x <= l.hi[y]; x++ {
			s += l.cur[y*l.w+x]
		}
	}
	return s
}

// belowRows returns the mass of the rows Y < m from the row masses of the
// last step (the trim keeps them), with no pass over the states.
func (l *law) belowRows(m int) float64 {
	s := 0.0
	for y := l.ylo; y <= min(l.yhi, m-1); y++ {
		s += l.rowMass[y]
	}
	return s
}

// marginals adds the joint law's marginals of X and Y to px and py and
// returns the mass with Y ≥ m (m > 0) and the total mass.
func (l *law) marginals(px, py []float64, m int) (above, total float64) {
	for y := l.ylo; y <= l.yhi; y++ {
		row := l.cur[y*l.w : y*l.w+l.w]
		s := 0.0
		for x := l.lo[y]; x <= l.hi[y]; x++ {
			p := row[x]
			px[x] += p
			s += p
		}
		py[y] += s
		total += s
		if m > 0 && y >= m {
			above += s
		}
	}
	return above, total
}

// window is the part of a mixture of the stepped laws that makes one law:
// weights w[k−lo] for steps k = lo..lo+len(w)−1, and tail, an upper bound
// on the total-variation error of using them (the weights left out, twice
// since the kept ones are renormalised, and their rounding).
type window struct {
	lo   int
	w    []float64
	tail float64
}

func (w window) hi() int { return w.lo + len(w.w) - 1 }

// poisson returns the window of the Poisson(λ) law, cut where a weight
// falls below tol·1e-6 of the mode's. The weights are built from the mode
// by the ratios w(k+1)/w(k) = λ/(k+1) and renormalised, so they are
// accurate to a few ulps per weight even for λ of 10⁹ (lgamma of such
// arguments loses ~10⁻⁷ relative).
func poisson(lambda, tol float64) window {
	if lambda == 0 {
		return window{w: []float64{1}}
	}
	mode := int(math.Floor(lambda))
	return ratioWindow(mode, 0, math.MaxInt, tol,
		func(k int) float64 { return lambda / float64(k+1) }, // w(k+1)/w(k)
		func(k int) float64 { return float64(k) / lambda })   // w(k−1)/w(k)
}

// binomial returns the window of the Binomial(k, α) law, cut as poisson.
func binomial(k int, alpha, tol float64) window {
	if k == 0 || alpha == 0 {
		return window{w: []float64{1}}
	}
	if alpha >= 1 {
		return window{lo: k, w: []float64{1}}
	}
	r := alpha / (1 - alpha)
	mode := min(k, int(math.Floor(float64(k+1)*alpha)))
	return ratioWindow(mode, 0, k, tol,
		func(i int) float64 { return float64(k-i) / float64(i+1) * r },
		func(i int) float64 { return float64(i) / float64(k-i+1) / r })
}

// ratioWindow builds a unimodal window from its mode by the ratios of
// consecutive weights (up(i) = w(i+1)/w(i), down(i) = w(i−1)/w(i), both
// decreasing away from the mode), within [min, max].
func ratioWindow(mode, lo, hi int, tol float64, up, down func(int) float64) window {
	cut := tol * 1e-6
	var left, right []float64 // relative weights below and above the mode
	v, k := 1.0, mode
	for k > lo {
		v *= down(k)
		if v < cut {
			break
		}
		left = append(left, v)
		k--
	}
	v, k = 1.0, mode
	for k < hi {
		v *= up(k)
		if v < cut {
			break
		}
		right = append(right, v)
		k++
	}
	start := mode - len(left)
	w := make([]float64, 0, len(left)+1+len(right))
	for i := len(left) - 1; i >= 0; i-- {
		w = append(w, left[i])
	}
	w = append(w, 1)
	w = append(w, right...)
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	// The weights left out: geometric tails from each end (the ratios keep
	// decreasing away from the mode), relative to the sum kept.
	tail := 0.0
	if end := start + len(w) - 1; end < hi {
		if r := up(end); r < 1 {
			tail += w[len(w)-1] * r / (1 - r)
		} else {
			tail = math.Inf(1)
		}
	}
	if start > lo {
		if r := down(start); r < 1 {
			tail += w[0] * r / (1 - r)
		} else {
			tail = math.Inf(1)
		}
	}
	for i := range w {
		w[i] /= sum
	}
	return window{lo: start, w: w, tail: 2*tail/sum + float64(2*len(w)+4)*0x1p-52}
}

// rowSums recomputes the mass of every live row (joint chain).
func (l *law) rowSums() {
	if !l.joint {
		return
	}
	for y := l.ylo; y <= l.yhi; y++ {
		s := 0.0
		for x := l.lo[y]; x <= l.hi[y]; x++ {
			s += l.cur[y*l.w+x]
		}
		l.rowMass[y] = s
	}
}

// mixer accumulates Σ w_k·law_k into a buffer with its own live region.
type mixer struct {
	acc                []float64
	xlo, xhi, ylo, yhi int
	lo, hi             []int // the X range of each row (joint)
	ext                []float64
	empty              bool
}

func (l *law) newMixer() *mixer {
	m := &mixer{acc: make([]float64, len(l.cur)), empty: true}
	if l.ext != nil {
		m.ext = make([]float64, len(l.ext))
	}
	if l.joint {
		m.lo, m.hi = make([]int, l.n+2), make([]int, l.n+2)
		for y := range m.lo {
			m.lo[y], m.hi[y] = 1, 0
		}
	}
	return m
}

// add adds w times the current law.
func (m *mixer) add(l *law, w float64) {
	if m.empty {
		m.xlo, m.xhi, m.ylo, m.yhi, m.empty = l.xlo, l.xhi, l.ylo, l.yhi, false
	} else {
		m.xlo, m.xhi = min(m.xlo, l.xlo), max(m.xhi, l.xhi)
		m.ylo, m.yhi = min(m.ylo, l.ylo), max(m.yhi, l.yhi)
	}
	if m.ext != nil {
		floats.AddScaled(m.ext, w, l.ext)
	}
	if !l.joint {
		floats.AddScaled(m.acc[l.xlo:l.xhi+1], w, l.cur[l.xlo:l.xhi+1])
		return
	}
	for y := l.ylo; y <= l.yhi; y++ {
		a, b := l.lo[y], l.hi[y]
		if a > b {
			continue
		}
		if m.lo[y] > m.hi[y] {
			m.lo[y], m.hi[y] = a, b
		} else {
			m.lo[y], m.hi[y] = min(m.lo[y], a), max(m.hi[y], b)
		}
		floats.AddScaled(m.acc[y*l.w+a:y*l.w+b+1], w, l.cur[y*l.w+a:y*l.w+b+1])
	}
}

// install makes the mixture the law's current state and empties the mixer.
func (m *mixer) install(l *law) {
	l.each(func(x, y int, _ float64) { l.cur[l.idx(x, y)] = 0 })
	l.cur, m.acc = m.acc, l.cur
	if m.ext != nil {
		l.ext, m.ext = m.ext, l.ext
		clear(m.ext)
	}
	l.xlo, l.xhi, l.ylo, l.yhi = m.xlo, m.xhi, m.ylo, m.yhi
	if !l.joint {
		l.ylo, l.yhi = 0, 0
	} else {
		for y := range l.lo {
			l.lo[y], l.hi[y] = m.lo[y], m.hi[y]
			m.lo[y], m.hi[y] = 1, 0
		}
		l.box()
	}
	l.rowSums()
	l.pxOK = false
	m.empty = true
}

// snapshot is a copy of a law's live region, to run a segment again.
type snapshot struct {
	reg             region
	lo, hi          []int
	data            []float64
	ext             []float64
	dropped, killed float64
}

func (l *law) snapshot() *snapshot {
	s := &snapshot{reg: region{l.xlo, l.xhi, l.ylo, l.yhi}, dropped: l.dropped, killed: l.killed}
	if l.ext != nil {
		s.ext = append(s.ext, l.ext...)
	}
	if !l.joint {
		s.data = append(s.data, l.cur[l.xlo:l.xhi+1]...)
		return s
	}
	s.lo, s.hi = append([]int(nil), l.lo...), append([]int(nil), l.hi...)
	for y := l.ylo; y <= l.yhi; y++ {
		if l.lo[y] <= l.hi[y] {
			s.data = append(s.data, l.cur[y*l.w+l.lo[y]:y*l.w+l.hi[y]+1]...)
		}
	}
	return s
}

// restore puts the law back as it was at the snapshot. nxt is left as it
// is (its ranges still say where it may hold mass).
func (l *law) restore(s *snapshot) {
	l.each(func(x, y int, _ float64) { l.cur[l.idx(x, y)] = 0 })
	l.xlo, l.xhi, l.ylo, l.yhi = s.reg.xlo, s.reg.xhi, s.reg.ylo, s.reg.yhi
	l.dropped, l.killed = s.dropped, s.killed
	l.pxOK = false
	if s.ext != nil {
		copy(l.ext, s.ext)
	}
	if !l.joint {
		copy(l.cur[l.xlo:l.xhi+1], s.data)
		return
	}
	copy(l.lo, s.lo)
	copy(l.hi, s.hi)
	i := 0
	for y := l.ylo; y <= l.yhi; y++ {
		if l.lo[y] <= l.hi[y] {
			i += copy(l.cur[y*l.w+l.lo[y]:y*l.w+l.hi[y]+1], s.data[i:])
		}
	}
	l.rowSums()
}
