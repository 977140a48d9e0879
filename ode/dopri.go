package ode

import (
	"errors"
	"fmt"
	"math"
)

// Func computes dy/dt = f(t, y) into dydt. It must not keep y or dydt.
type Func func(t float64, y, dydt []float64)

// Settings control DormandPrince. The zero value of a field means its
// default.
type Settings struct {
	RTol float64 // relative tolerance, default 1e-6; in [1e-14, 1) (ode.RTol)
	ATol float64 // absolute tolerance, default RTol·1e-3; in [0, 1] (ode.ATol)
	// InitialStep is the first step; 0 chooses it (Hairer's heuristic).
	InitialStep float64
	// MaxStep bounds |h|; 0 means the length of the interval.
	MaxStep float64
	// MaxSteps bounds the number of attempted steps; default 1e6 (0);
	// a negative value is an error (ode.MaxSteps).
	MaxSteps int
	// FixedStep > 0 disables error control: every step has this size (the
	// last one is shortened to land on t1). Used to measure the order.
	FixedStep float64
}

// Stats counts the work of an integration.
type Stats struct {
	Evaluations int // calls of f
	Accepted    int // accepted steps
	Rejected    int // rejected steps
}

// Event is a function g(t, y) whose sign changes are located on the dense
// output.
type Event struct {
	G func(t float64, y []float64) float64
	// Direction: +1 only rising zero crossings, −1 only falling, 0 both.
	Direction int
	// Terminal stops the integration at the first crossing.
	Terminal bool
}

// Hit is a located event.
type Hit struct {
	Event int       // index into the events passed
	T     float64   // time of the crossing, to within 1e-12·max(1, |T|)
	Y     []float64 // state at T (from the dense output)
}

// Solution is the result of DormandPrince: the dense output over
// [T0, TEnd] and what happened along the way.
type Solution struct {
	T0, TEnd float64
	Stats    Stats
	Hits     []Hit
	dim      int
	ts       []float64   // step start times; step i covers [ts[i], ts[i+1]]
	cont     [][]float64 // 5·dim coefficients of each step's interpolant
}

// DormandPrince integrates y' = f(t, y) from (t0, y0) to t1 (t1 > t0), with
// optional events, and returns the dense output.
func DormandPrince(f Func, t0 float64, y0 []float64, t1 float64, set Settings, events ...Event) (*Solution, error) {
	switch {
	case f == nil:
		return nil, fmt.Errorf("ode: nil Func")
	case len(y0) == 0:
		return nil, fmt.Errorf("ode: y0 is empty: nothing to integrate")
	case math.IsInf(t0, 0) || math.IsInf(t1, 0):
		return nil, fmt.Errorf("ode: need a finite interval, got [%g, %g]", t0, t1)
	}
	if !(t1 > t0) {
		return nil, fmt.Errorf("ode: need t1 > t0, got [%g, %g]", t0, t1)
	}
	if err := set.Validate(); err != nil {
		return nil, err
	}
	if set.RTol == 0 {
		set.RTol = 1e-6
	}
	if set.ATol == 0 {
		set.ATol = set.RTol * 1e-3
	}
	set.MaxSteps = set.StepLimit()
	for _, h := range []struct {
		name string
		v    float64
	}{{"MaxStep", set.MaxStep}, {"FixedStep", set.FixedStep}} {
		// A step that cannot reach t1 within MaxSteps is refused before
		// any work (it would take MaxSteps steps and fail).
		if h.v > 0 && !((t1-t0)/h.v <= float64(set.MaxSteps)) {
			return nil, fmt.Errorf("ode: Settings.%s = %g needs %g steps to reach t1, more than MaxSteps = %d", h.name, h.v, (t1-t0)/h.v, set.MaxSteps)
		}
	}
	hmax := set.MaxStep
	if hmax <= 0 {
		hmax = t1 - t0
	}
	d := len(y0)
	sol := &Solution{T0: t0, TEnd: t0, dim: d}
	y := append([]float64(nil), y0...)
	k := make([][]float64, 7)
	for i := range k {
		k[i] = make([]float64, d)
	}
	ynew, ytmp, errv := make([]float64, d), make([]float64, d), make([]float64, d)
	eval := func(t float64, y, dy []float64) {
		f(t, y, dy)
		sol.Stats.Evaluations++
	}
	t := t0
	eval(t, y, k[0])
	h := set.FixedStep
	if h <= 0 {
		h = set.InitialStep
		if h <= 0 {
			h = initialStep(eval, t, y, k[0], t1-t0, set.RTol, set.ATol, hmax)
		}
	}
	const (
		safety = 0.9
		beta   = 0.04
		expo1  = 0.2 - beta*0.75
		facMin = 0.2 // step may shrink to a fifth
		facMax = 10.0
	)
	facOld := 1e-4
	rejectedLast := false
	gPrev := make([]float64, len(events))
	for i, ev := range events {
		gPrev[i] = ev.G(t, y)
	}
	for steps := 0; ; steps++ {
		if steps >= set.MaxSteps {
			return sol, fmt.Errorf("ode: more than %d steps before t = %g (stopped at t = %g)", set.MaxSteps, t1, t)
		}
		h = math.Min(h, hmax)
		last := false
		if t+h >= t1 || (t1-t-h) <= 1e-13*math.Abs(t1) {
			h = t1 - t
			last = true
		}
		if h <= 16*math.Abs(t)*eps {
			return sol, fmt.Errorf("ode: step size %g too small at t = %g", h, t)
		}
		// Stages 2..7.
		for s := 1; s < 7; s++ {
			for i := range d {
				acc := y[i]
				for j := 0; j < s; j++ {
					acc += h * a[s][j] * k[j][i]
				}
				ytmp[i] = acc
			}
			if s == 6 {
				copy(ynew, ytmp) // a[6] = b: the 5th-order solution
			}
			eval(t+c[s]*h, ytmp, k[s])
		}
		// Error estimate.
		accept := true
		var errNorm float64
		if set.FixedStep <= 0 {
			for i := range d {
				e := 0.0
				for j := range 7 {
					e += e5[j] * k[j][i]
				}
				errv[i] = h * e
				sk := set.ATol + set.RTol*math.Max(math.Abs(y[i]), math.Abs(ynew[i]))
				errNorm += (errv[i] / sk) * (errv[i] / sk)
			}
			errNorm = math.Sqrt(errNorm / float64(d))
			if math.IsNaN(errNorm) {
				return sol, errors.New("ode: the solution became NaN")
			}
			accept = errNorm <= 1
		}
		if !accept {
			sol.Stats.Rejected++
			fac11 := math.Pow(errNorm, expo1)
			h /= math.Min(1/facMin, fac11/safety)
			rejectedLast = true
			continue
		}
		sol.Stats.Accepted++
		// Dense output coefficients (contd5).
		cont := make([]float64, 5*d)
		for i := range d {
			ydiff := ynew[i] - y[i]
			bspl := h*k[0][i] - ydiff
			cont[i] = y[i]
			cont[d+i] = ydiff
			cont[2*d+i] = bspl
			cont[3*d+i] = ydiff - h*k[6][i] - bspl
			acc := 0.0
			for j := range 7 {
				acc += dc[j] * k[j][i]
			}
			cont[4*d+i] = h * acc
		}
		sol.ts = append(sol.ts, t)
		sol.cont = append(sol.cont, cont)
		tNew := t + h
		if last {
			tNew = t1
		}
		sol.TEnd = tNew
		// Events on this step.
		stop := false
		for i, ev := range events {
			g1 := ev.G(tNew, ynew)
			g0 := gPrev[i]
			gPrev[i] = g1
			if !crosses(g0, g1, ev.Direction) {
				continue
			}
			te := sol.locate(len(sol.ts)-1, t, tNew, g0, g1, ev.G)
			ye := sol.At(te, nil)
			sol.Hits = append(sol.Hits, Hit{Event: i, T: te, Y: ye})
			if ev.Terminal {
				stop = true
				sol.TEnd = te
			}
		}
		// FSAL: k7 is f at the new point.
		copy(y, ynew)
		k[0], k[6] = k[6], k[0]
		t = tNew
		if stop || last {
			return sol, nil
		}
		if set.FixedStep > 0 {
			continue
		}
		fac11 := math.Pow(errNorm, expo1)
		fac := fac11 / math.Pow(facOld, beta)
		fac = math.Max(1/facMax, math.Min(1/facMin, fac/safety))
		hNew := h / fac
		if rejectedLast {
			hNew = math.Min(hNew, h)
		}
		facOld = math.Max(errNorm, 1e-4)
		rejectedLast = false
		h = hNew
	}
}

const eps = 0x1p-52

func crosses(g0, g1 float64, dir int) bool {
	switch {
	case dir >= 0 && g0 < 0 && g1 >= 0:
		return true
	case dir <= 0 && g0 > 0 && g1 <= 0:
		return true
	}
	return false
}

// locate finds the zero of g on step i's interpolant by the Illinois variant
// of regula falsi, to 1e-12 relative.
func (s *Solution) locate(i int, ta, tb, ga, gb float64, g func(float64, []float64) float64) float64 {
	y := make([]float64, s.dim)
	side := 0
	for it := 0; it < 200; it++ {
		if tb-ta <= 1e-12*math.Max(1, math.Abs(tb)) {
			break
		}
		tm := tb - gb*(tb-ta)/(gb-ga)
		if !(tm > ta && tm < tb) {
			tm = 0.5 * (ta + tb)
		}
		s.interp(i, tm, y)
		gm := g(tm, y)
		switch {
		case gm == 0:
			return tm
		case (gm > 0) == (gb > 0):
			tb, gb = tm, gm
			if side == -1 {
				ga /= 2
			}
			side = -1
		default:
			ta, ga = tm, gm
			if side == 1 {
				gb /= 2
			}
			side = 1
		}
	}
	return tb
}

func (s *Solution) interp(i int, t float64, y []float64) {
	d := s.dim
	t0 := s.ts[i]
	t1 := s.TEnd
	if i+1 < len(s.ts) {
		t1 = s.ts[i+1]
	}
	c := s.cont[i]
	h := t1 - t0
	th := (t - t0) / h
	th1 := 1 - th
	for j := range d {
		y[j] = c[j] + th*(c[d+j]+th1*(c[2*d+j]+th*(c[3*d+j]+th1*c[4*d+j])))
	}
}

// At evaluates the dense output at t ∈ [T0, TEnd] into y (allocated if
// shorter than the dimension) and returns y. The interpolant is of order 4
// and continuous. Outside [T0, TEnd] (or for a nil or zero Solution, which
// has no interval) every component is NaN: the solution is not known there.
func (s *Solution) At(t float64, y []float64) []float64 {
	if s == nil {
		return nanFill(y)
	}
	if len(y) < s.dim {
		y = make([]float64, s.dim)
	}
	if !(t >= s.T0 && t <= s.TEnd) || len(s.ts) == 0 || len(s.cont) == 0 {
		return nanFill(y)
	}
	// Binary search for the step containing t.
	lo, hi := 0, len(s.ts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if s.ts[mid] <= t {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	s.interp(lo, t, y)
	return y
}

// nanFill sets every element of y to NaN and returns y.
func nanFill(y []float64) []float64 {
	for i := range y {
		y[i] = math.NaN()
	}
	return y
}

// initialStep is Hairer's heuristic (Solving ODEs I, Sec. II.4): a step whose
// Euler error estimate is about the tolerance.
func initialStep(f Func, t float64, y, f0 []float64, span, rtol, atol, hmax float64) float64 {
	d := len(y)
	var dnf, dny float64
	for i := range d {
		sk := atol + rtol*math.Abs(y[i])
		dnf += (f0[i] / sk) * (f0[i] / sk)
		dny += (y[i] / sk) * (y[i] / sk)
	}
	h := 0.01 * math.Sqrt(dny/dnf)
	if dnf <= 1e-10 || dny <= 1e-10 {
		h = 1e-6
	}
	h = math.Min(h, hmax)
	y1, f1 := make([]float64, d), make([]float64, d)
	for i := range d {
		y1[i] = y[i] + h*f0[i]
	}
	f(t+h, y1, f1)
	var der2 float64
	for i := range d {
		sk := atol + rtol*math.Abs(y[i])
		der2 += ((f1[i] - f0[i]) / sk) * ((f1[i] - f0[i]) / sk)
	}
	der2 = math.Sqrt(der2) / h
	der12 := math.Max(math.Abs(der2), math.Sqrt(dnf))
	var h1 float64
	if der12 <= 1e-15 {
		h1 = math.Max(1e-6, math.Abs(h)*1e-3)
	} else {
		h1 = math.Pow(0.01/der12, 1.0/5)
	}
	return math.Min(math.Min(100*h, h1), math.Min(hmax, span))
}

// Dormand–Prince coefficients.
var (
	c = [7]float64{0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1}
	a = [7][6]float64{
		{},
		{1.0 / 5},
		{3.0 / 40, 9.0 / 40},
		{44.0 / 45, -56.0 / 15, 32.0 / 9},
		{19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
		{9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
		{35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84},
	}
	// e5 = b(5th order) − b̂(4th order).
	e5 = [7]float64{71.0 / 57600, 0, -71.0 / 16695, 71.0 / 1920, -17253.0 / 339200, 22.0 / 525, -1.0 / 40}
	// Dense output (Shampine's continuous extension as in DOPRI5).
	dc = [7]float64{-12715105075.0 / 11282082432, 0, 87487479700.0 / 32700410799, -10690763975.0 / 1880347072,
		701980252875.0 / 199316789632, -1453857185.0 / 822651844, 69997945.0 / 29380423}
)

// MaxRK4Steps bounds the steps RK4 takes (about a minute of a
// two-dimensional system).
const MaxRK4Steps = 1e9

// RK4 integrates y' = f(t, y) from (t0, y0) with the classical fourth-order
// Runge–Kutta method and fixed step h, calling out(t, y) at t0 and after
// every step (the last step is shortened to land on t1). It returns the
// number of evaluations of f.
func RK4(f Func, t0 float64, y0 []float64, t1, h float64, out func(t float64, y []float64)) (int, error) {
	if !(t1 > t0) || !(h > 0) || math.IsInf(t1-t0, 0) {
		return 0, fmt.Errorf("ode: RK4 needs finite t1 > t0 and h > 0")
	}
	if f == nil || len(y0) == 0 {
		return 0, fmt.Errorf("ode: RK4 needs a Func and a non-empty y0")
	}
	if n := (t1 - t0) / h; !(n <= MaxRK4Steps) {
		return 0, fmt.Errorf("ode: RK4 with (t1 − t0)/h = %g steps: at most %g", n, float64(MaxRK4Steps))
	}
	d := len(y0)
	y := append([]float64(nil), y0...)
	k1, k2, k3, k4, tmp := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
	n := 0
	if out != nil {
		out(t0, y)
	}
	steps := int(math.Ceil((t1 - t0) / h * (1 - 1e-12)))
	for i := 0; i < steps; i++ {
		t := t0 + float64(i)*h
		hh := math.Min(h, t1-t)
		f(t, y, k1)
		for j := range d {
			tmp[j] = y[j] + hh/2*k1[j]
		}
		f(t+hh/2, tmp, k2)
		for j := range d {
			tmp[j] = y[j] + hh/2*k2[j]
		}
		f(t+hh/2, tmp, k3)
		for j := range d {
			tmp[j] = y[j] + hh*k3[j]
		}
		f(t+hh, tmp, k4)
		n += 4
		for j := range d {
			y[j] += hh / 6 * (k1[j] + 2*k2[j] + 2*k3[j] + k4[j])
		}
		if out != nil {
			out(t+hh, y)
		}
	}
	return n, nil
}

// MaxGrid is the most intervals Grid makes (8·10⁸ bytes of times).
const MaxGrid = 1e8

// Grid returns the output times 0, dt, 2dt, …, tMax (round(tMax/dt) + 1
// points, the last clipped to tMax).
func Grid(tMax, dt float64) []float64 {
	if !(dt > 0) || !(tMax >= 0) || math.IsInf(tMax, 0) || tMax/dt > MaxGrid {
		return nil // out of range: no grid (Grid(1, 0), NaN, more than MaxGrid points)
	}
	ts := make([]float64, int(math.Round(tMax/dt))+1)
	for i := range ts {
		ts[i] = math.Min(float64(i)*dt, tMax)
	}
	return ts
}
