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

// law is a probability law over the chain's states, with the region that
// holds its mass: X in [xlo, xhi] and, for the joint chain, Y in
// [ylo, yhi] with X ≤ Y. Outside that region every buffer is zero.
type law struct {
	n, w       int  // nodes; row width N+2 (joint)
	joint      bool // (X, Y) or X alone
	cu, cm, cw float64
	cur, nxt   []float64
	xlo, xhi   int
	ylo, yhi   int
	dropped    float64   // mass removed by trimming
	nreg       region    // where nxt may be nonzero (joint chain)
	dOut       []float64 // w·X(X−1)/D
	up, stay   []float64 // replication: u·X(N−X)/D and 1 − up − down
	steps      int64
}

func newLaw(n int, joint bool, j Jumps, initial int) *law {
	d := float64(n) * float64(n-1)
	l := &law{n: n, w: n + 2, joint: joint, cu: j.Up / d, cm: j.Move / d, cw: j.Drop / d,
		xlo: initial, xhi: initial, ylo: initial, yhi: initial}
	size := n + 2
	if joint {
		size = (n + 2) * (n + 2)
	}
	l.cur, l.nxt = make([]float64, size), make([]float64, size)
	l.cur[l.idx(initial, initial)] = 1
	l.nreg = region{xlo: initial, xhi: initial, ylo: initial, yhi: initial}
	return l
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
		s += max(0, min(l.xhi, y)-l.xlo+1)
	}
	return s
}

// step applies one shuffle: cur ← cur·P.
func (l *law) step() {
	if l.joint {
		l.stepJoint()
	} else {
		l.stepReplication()
	}
	l.cur, l.nxt = l.nxt, l.cur
	l.steps++
}

// advance applies one shuffle and trims the live region every trimEvery
// shuffles; it reports whether it trimmed.
func (l *law) advance(drop float64) bool {
	l.step()
	if l.steps%trimEvery != 0 {
		return false
	}
	l.trim(drop)
	return true
}

// advanceLevel is advance for the joint chain that also carries
// s = P(Y < m) from before the shuffle to after it: less the mass that
// crossed from row m−1 to row m, and summed anew after every trim, so that
// rounding does not accumulate.
func (l *law) advanceLevel(m int, s, drop float64) float64 {
	c := l.crossing(m)
	if l.advance(drop) {
		return l.below(m)
	}
	return math.Max(s-c, 0)
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
	xlo, xhi := max(1, l.xlo-1), min(n, l.xhi+1)
	if r := l.nreg; r.xlo < xlo || r.xhi > xhi {
		clear(nxt[r.xlo : r.xhi+1])
	}
	// cur[0] and cur[N+1] are always zero.
	for x := xlo; x <= xhi; x++ {
		nxt[x] = cur[x]*stay[x] + cur[x-1]*up[x-1] + cur[x+1]*dn[x+1]
	}
	l.nreg = region{xlo: l.xlo, xhi: l.xhi}
	l.xlo, l.xhi = xlo, xhi
}

// stepJoint computes nxt from cur over the grown live region by pulling
// each state's five sources (itself and its four predecessors), so that
// every state is written once. cur is zero outside its region, so the
// sources outside it contribute nothing.
func (l *law) stepJoint() {
	n, w := l.n, l.w
	cur, nxt := l.cur, l.nxt
	cu, cm := l.cu, l.cm
	ylo, yhi := l.ylo, min(n, l.yhi+1)
	xlo, xhi := max(1, l.xlo-1), min(n, l.xhi+1)
	// nxt holds a law of an earlier step; where its region reaches beyond
	// the one written now (after a trim), clear it.
	if r := l.nreg; r.ylo < ylo || r.yhi > yhi || r.xlo < xlo || r.xhi > xhi {
		for y := r.ylo; y <= r.yhi; y++ {
			clear(nxt[y*w+r.xlo : y*w+min(r.xhi, y)+1])
		}
	}
	dOut := l.dropRate()
	rows := func(ya, yb int) {
		for y := ya; y <= yb; y++ {
			xe := min(xhi, y)
			if xe < xlo {
				continue
			}
			abOut := (cu + cm) * float64(n-y)                // per holder: to a new node
			aIn, bIn := cu*float64(n-y+1), cm*float64(n-y+1) // from row y−1 (Y ≥ X ≥ 1, so y−1 ≥ 0)
			c0 := cur[y*w : y*w+w]
			cp := cur[(y-1)*w : y*w]
			out := nxt[y*w : y*w+w]
			fx, fyx := float64(xlo), float64(y-xlo)
			cPrev := cu * (fx - 1) * (fyx + 1) // (X−1, Y) → (X, Y): copied to a covered node
			for x := xlo; x <= xe; x++ {
				cOut := cu * fx * fyx
				// Column 0 and column N+1 are always zero, so x−1 and x+1
				// need no guard.
				out[x] = c0[x]*(1-abOut*fx-cOut-dOut[x]) +
					c0[x-1]*cPrev + // (X−1, Y): copied to a covered node
					c0[x+1]*dOut[x+1] + // (X+1, Y): one of two holders dropped d
					cp[x-1]*aIn*(fx-1) + // (X−1, Y−1): copied to a new node
					cp[x]*bIn*fx // (X, Y−1): moved to a new node
				cPrev = cOut
				fx++
				fyx--
			}
		}
	}
	// Each row of nxt reads rows y and y−1 of cur only, so two halves of
	// the rows can be computed at once; every state is computed the same
	// way, so the result does not depend on the split. Below parallelMin
	// states the goroutine costs more than it saves.
	if (yhi-ylo+1)*(xhi-xlo+1) < parallelMin {
		rows(ylo, yhi)
	} else {
		// Split where half the states lie (rows hold min(xhi, y) − xlo + 1).
		cells := func(y int) int { return max(0, min(xhi, y)-xlo+1) }
		total := 0
		for y := ylo; y <= yhi; y++ {
			total += cells(y)
		}
		mid, acc := ylo, cells(ylo)
		for mid < yhi-1 && 2*acc < total {
			mid++
			acc += cells(mid)
		}
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); rows(mid+1, yhi) }()
		rows(ylo, mid)
		wg.Wait()
	}
	l.nreg = region{xlo: l.xlo, xhi: l.xhi, ylo: l.ylo, yhi: l.yhi}
	l.ylo, l.yhi, l.xlo, l.xhi = ylo, yhi, xlo, xhi
}

// dropRate returns w·X(X−1)/D for X = 0..N+1, computed once.
func (l *law) dropRate() []float64 {
	if l.dOut == nil {
		l.dOut = make([]float64, l.n+2)
		for x := range l.dOut {
			l.dOut[x] = l.cw * float64(x) * float64(x-1)
		}
	}
	return l.dOut
}

// trimEdges moves lo up and hi down past edges (rows or columns) whose
// mass, added to used, stays below drop, clearing them; it returns the mass
// used so far.
func trimEdges(lo, hi *int, used, drop float64, sum func(int) float64, clear func(int)) float64 {
	for *lo < *hi {
		m := sum(*lo)
		if used+m >= drop {
			break
		}
		used += m
		clear(*lo)
		*lo++
	}
	for *hi > *lo {
		m := sum(*hi)
		if used+m >= drop {
			break
		}
		used += m
		clear(*hi)
		*hi--
	}
	return used
}

// trim drops the edges of the live region whose mass, in all, is below
// drop, and adds what it dropped to l.dropped. It returns the mass dropped.
func (l *law) trim(drop float64) float64 {
	cur := l.cur
	if !l.joint {
		s := trimEdges(&l.xlo, &l.xhi, 0, drop, func(x int) float64 { return cur[x] }, func(x int) { cur[x] = 0 })
		l.dropped += s
		return s
	}
	rowSum := func(y int) float64 {
		s := 0.0
		for x := l.xlo; x <= min(l.xhi, y); x++ {
			s += cur[y*l.w+x]
		}
		return s
	}
	clearRow := func(y int) {
		for x := l.xlo; x <= min(l.xhi, y); x++ {
			cur[y*l.w+x] = 0
		}
	}
	colSum := func(x int) float64 {
		s := 0.0
		for y := max(l.ylo, x); y <= l.yhi; y++ {
			s += cur[y*l.w+x]
		}
		return s
	}
	clearCol := func(x int) {
		for y := max(l.ylo, x); y <= l.yhi; y++ {
			cur[y*l.w+x] = 0
		}
	}
	s := trimEdges(&l.ylo, &l.yhi, 0, drop, rowSum, clearRow)
	s = trimEdges(&l.xlo, &l.xhi, s, drop, colSum, clearCol)
	// Rows above yhi never hold mass; cells with x > xhi in rows < yhi
	// were cleared with their column.
	l.xhi = min(l.xhi, l.yhi)
	l.dropped += s
	return s
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
		for x := l.xlo; x <= min(l.xhi, y); x++ {
			if p := l.cur[y*l.w+x]; p != 0 {
				f(x, y, p)
			}
		}
	}
}

// below returns the mass of the states with Y < m (joint chain).
func (l *law) below(m int) float64 {
	s := 0.0
	for y := l.ylo; y <= min(l.yhi, m-1); y++ {
		for x := l.xlo; x <= min(l.xhi, y); x++ {
			s += l.cur[y*l.w+x]
		}
	}
	return s
}

// crossing returns the mass that the next step moves from row Y = m−1 to
// row m.
func (l *law) crossing(m int) float64 {
	y := m - 1
	if y < l.ylo || y > l.yhi {
		return 0
	}
	ny := float64(l.n - y)
	s := 0.0
	for x := l.xlo; x <= min(l.xhi, y); x++ {
		s += l.cur[y*l.w+x] * float64(x) * ny * (l.cu + l.cm)
	}
	return s
}

// mixer accumulates Σ w_k·law_k into a buffer with its own live region.
type mixer struct {
	acc                []float64
	xlo, xhi, ylo, yhi int
	empty              bool
}

func (l *law) newMixer() *mixer { return &mixer{acc: make([]float64, len(l.cur)), empty: true} }

// add adds w times the current law.
func (m *mixer) add(l *law, w float64) {
	if m.empty {
		m.xlo, m.xhi, m.ylo, m.yhi, m.empty = l.xlo, l.xhi, l.ylo, l.yhi, false
	} else {
		m.xlo, m.xhi = min(m.xlo, l.xlo), max(m.xhi, l.xhi)
		m.ylo, m.yhi = min(m.ylo, l.ylo), max(m.yhi, l.yhi)
	}
	if !l.joint {
		floats.AddScaled(m.acc[l.xlo:l.xhi+1], w, l.cur[l.xlo:l.xhi+1])
		return
	}
	for y := l.ylo; y <= l.yhi; y++ {
		if xe := min(l.xhi, y); xe >= l.xlo {
			floats.AddScaled(m.acc[y*l.w+l.xlo:y*l.w+xe+1], w, l.cur[y*l.w+l.xlo:y*l.w+xe+1])
		}
	}
}

// install makes the mixture the law's current state and empties the mixer.
func (m *mixer) install(l *law) {
	l.each(func(x, y int, _ float64) { l.cur[l.idx(x, y)] = 0 })
	l.cur, m.acc = m.acc, l.cur
	l.xlo, l.xhi, l.ylo, l.yhi = m.xlo, m.xhi, m.ylo, m.yhi
	if !l.joint {
		l.ylo, l.yhi = 0, 0
	}
	m.empty = true
}

// poisson returns the Poisson(λ) probabilities w[k−lo] for k = lo..hi,
// cut where they fall below tol·e^−10, and an upper bound on the mass
// left out (the tail actually missing plus the rounding of the sum).
func poisson(lambda, tol float64) (lo int, w []float64, tail float64) {
	if lambda == 0 {
		return 0, []float64{1}, 0
	}
	logw := func(k int) float64 {
		lg, _ := math.Lgamma(float64(k) + 1)
		return -lambda + float64(k)*math.Log(lambda) - lg
	}
	cut := math.Log(tol) - 10
	mode := int(math.Floor(lambda))
	lo, hi := mode, mode
	for lo > 0 && logw(lo-1) >= cut {
		lo--
	}
	for logw(hi+1) >= cut {
		hi++
	}
	w = make([]float64, hi-lo+1)
	sum := 0.0
	for k := lo; k <= hi; k++ {
		w[k-lo] = math.Exp(logw(k))
		sum += w[k-lo]
	}
	tail = math.Max(0, 1-sum) + float64(len(w)+1)*0x1p-52
	return lo, w, tail
}
