package chain

import "math"

// The level's tail with loss is long: P(Y < m) decays at about u − ℓ a
// round (the items that have not yet taken off), against u without loss,
// from a larger mass at TMax. Meanwhile the live law leaves the states of
// large exit rate (large X, small Y: the items taking off early), so that a
// lower uniformization rate suffices. With loss, levelTail therefore cuts
// the tail into pieces: every retuneEvery steps it finds the lowest rate
// whose caps leave out live states holding at most retuneMass·Tol in all;
// if that is at most retuneGain times the current rate, the piece ends at a time t1 whose
// Poisson (binomial) window starts after the current step, the law at t1 is
// mixed whole (as at a segment's end), the states beyond the lower rate's
// caps are killed (their mass counted in Stats.Killed and in the bound) and
// the next piece runs at the lower rate. The mass killed while a piece runs
// is bounded as in every segment (more than Tol runs it again at a 30 %
// higher rate). Every piece is a segment of the law of T_L, with its own
// rate, as the segments before TMax are: CDF and Quantile read them as they
// read those. Without loss the tail is one piece at the rate of the last
// segment, as it always was, so that every output is the same to the bit.
const (
	retuneEvery = 1024
	retuneGain  = 0.95
	retuneMass  = 1e-2
	retuneBins  = 512
)

// levelTail steps the law below the level from the last output time until
// P(Y < m) < Tol, in pieces (see above).
func (s *solver) levelTail() error {
	t0 := s.ts[len(s.ts)-1]
	s.lowerRate()
	for {
		var t1 float64
		if err := s.retry(func() (err error) {
			t1, err = s.tailPiece(t0)
			return err
		}); err != nil {
			return err
		}
		if t1 < 0 {
			return nil
		}
		t0 = t1
		s.lowerRate()
	}
}

// retune reports whether the tail is cut into pieces at lower rates.
func (s *solver) retune() bool {
	return s.j.Lose > 0 && s.l.joint && !s.fixed && s.set.retuneEvery >= 0
}

// every is the number of steps between the checks for a lower rate.
func (s *solver) every() int {
	if s.set.retuneEvery > 0 {
		return s.set.retuneEvery
	}
	return retuneEvery
}

// tailPiece runs one piece of the level's tail from time t0 at the current
// rate, and returns the time t1 at which the next piece starts (the law at
// t1 installed), or −1 if P(Y < m) fell below Tol.
func (s *solver) tailPiece(t0 float64) (float64, error) {
	l, tol, N := s.l, s.set.Tol, s.N
	k0 := int(math.Round(float64(N) * t0))
	var (
		below, dead []float64
		end         *window
		t1          = -1.0
		killed0     = l.killed
		dropped0    = l.dropped
	)
	for k := 0; ; k++ {
		if end != nil && k >= end.lo {
			s.mix.add(l, end.w[k-end.lo])
		}
		below = append(below, l.belowRows(s.m))
		if l.ext != nil {
			dead = append(dead, l.extBelow(s.m))
		}
		if end != nil && k == end.hi() || end == nil && below[k] < tol {
			break
		}
		if end == nil && k > 0 && k%s.every() == 0 && s.retune() {
			if r := s.tailRate(); r < retuneGain*s.lambda {
				t1, end = s.pieceEnd(t0, k0, k)
				if end != nil && s.mix == nil {
					s.mix = l.newMixer()
				}
			}
		}
		if err := s.checkRun(killed0, end != nil); err != nil {
			return 0, err
		}
		l.wantPx = false
		l.advance(s.set.Drop)
		if err := s.stepDone(); err != nil {
			return 0, err
		}
	}
	s.keepRun(t0, end, true, dropped0, killed0, below, dead)
	return t1, nil
}

// pieceEnd picks the end t1 of a piece at step k: the first time (a whole
// number of shuffles after t0, so that both clocks can use it) whose
// window starts after step k, and returns it with its window; or −1 and
// nil where that time is more than 2⁵² shuffles away (a rate so small,
// ε near 1, that a shuffle count would overflow: the piece goes on).
func (s *solver) pieceEnd(t0 float64, k0, k int) (float64, *window) {
	n := float64(s.N)
	lam := float64(k) + 12*math.Sqrt(float64(k)) + 16
	for {
		Kf := math.Ceil(lam * n / s.lambda)
		if !(float64(k0)+Kf <= 1<<52) {
			return -1, nil
		}
		K := int(Kf)
		t1 := float64(k0+K) / n
		w := s.window(t0, t1)
		if w.lo > k {
			return t1, &w
		}
		lam += 4*math.Sqrt(lam) + 16
	}
}

// tailRate returns the lowest rate at which the live states beyond the
// caps hold at most retuneMass·Tol in all: the exit rates of the live
// states, binned (retuneBins bins up to the current rate), are taken from
// the top while the mass above stays within that budget.
func (s *solver) tailRate() float64 {
	l := s.l
	var mass [retuneBins + 1]float64
	l.each(func(x, y int, p float64) {
		b := min(retuneBins, int(l.exitProb(x, y)*retuneBins))
		mass[b] += p
	})
	budget, acc := retuneMass*s.set.Tol, 0.0
	b := retuneBins
	for ; b > 0; b-- {
		if acc+mass[b] > budget {
			break
		}
		acc += mass[b]
	}
	// The states of bin b stay: the rate must cover its top edge.
	return s.lambda * float64(b+1) / retuneBins
}

// lowerRate lowers the rate to tailRate's where that gains at least
// 1 − retuneGain, if the mass then beyond the caps is within the budget,
// and kills that mass (Stats.Killed).
func (s *solver) lowerRate() {
	r := s.tailRate()
	if !(r < retuneGain*s.lambda) {
		return
	}
	l := s.l
	old := s.lambda
	l.setRate(r)
	if m := l.beyondCaps(false); m > retuneMass*s.set.Tol {
		l.setRate(old)
		return
	}
	cut := l.beyondCaps(true)
	l.killed += cut
	if s.set.ledger != nil {
		s.set.ledger.cuts = append(s.set.ledger.cuts, cut)
	}
	s.lambda = r
	s.res.Stats.Retunes++
}

// beyondCaps returns the mass of the live states beyond the caps and, with
// cut, removes them from the law (joint chain: the tail is joint).
func (l *law) beyondCaps(cut bool) float64 {
	m := 0.0
	for y := l.ylo; y <= l.yhi; y++ {
		c := l.cap[y]
		if l.hi[y] <= c || l.lo[y] > l.hi[y] {
			continue
		}
		a := max(l.lo[y], c+1)
		row := l.cur[y*l.w : y*l.w+l.w]
		s := 0.0
		for x := a; x <= l.hi[y]; x++ {
			s += row[x]
		}
		m += s
		if cut {
			clear(row[a : l.hi[y]+1])
			l.hi[y] = a - 1
			l.rowMass[y] -= s
		}
	}
	if cut {
		l.pxOK = false
		for l.ylo < l.yhi && l.lo[l.ylo] > l.hi[l.ylo] {
			l.ylo++
		}
		for l.yhi > l.ylo && l.lo[l.yhi] > l.hi[l.yhi] {
			l.yhi--
		}
		l.box()
	}
	return m
}
