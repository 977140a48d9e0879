package meanfield

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/ode"
)

// Jump is one transition of a density-dependent population model: the
// state x (a vector of proportions) moves by L/N at rate N·(β(x) + c(x)/N + o(1/N)).
// Grad and Hess give ∂β/∂x_j and ∂²β/∂x_j∂x_k (row-major d×d); Corr, if not
// nil, is c(x), the 1/N part of the rate of the finite-N process.
type Jump struct {
	L    []float64
	Rate func(x []float64) float64
	Grad func(x, g []float64)
	Hess func(x, h []float64)
	Corr func(x []float64) float64
}

// Population is a density-dependent population model (Kurtz; Gast and Van
// Houdt, "A refined mean field approximation", Proc. ACM Meas. Anal.
// Comput. Syst. 1(2), 2017) in d dimensions. From its jumps follow
//
//	F(x)  = Σ_ℓ ℓ β_ℓ(x)                  drift
//	A(x)  = DF(x)                          Jacobian, A_ij = Σ ℓ_i ∂_j β_ℓ
//	F''   = D²F(x)                         Hessian, H_ijk = Σ ℓ_i ∂_jk β_ℓ
//	Q(x)  = Σ_ℓ ℓ ℓᵀ β_ℓ(x)                 jump covariance rate
//	C(x)  = Σ_ℓ ℓ c_ℓ(x)                   1/N part of the finite-N drift
//
// Drift, Jacobian, Hessian, Q and C have no error to return. On a nil
// Population, one without names, a jump whose L does not have Dim
// components or whose function they need is nil, or an x or output
// shorter than they need (Dim, Dim², Dim³), they set every element of the
// output to NaN and return: the result is not known (Validate says what
// is wrong). They allocate nothing but Jacobian's and Hessian's scratch
// for one jump's derivatives.
type Population struct {
	Names []string
	Jumps []Jump
}

// Validate checks that p describes a model: p is not nil, it has Dim ≥ 1
// names, and every jump has Dim finite components in L and its Rate, Grad
// and Hess (Corr may be nil: no 1/N part). A problem is a *FieldError
// naming the field (Population.Jumps[2].Rate). RefinedContinuous,
// RefinedDiscrete (through SynchronousSteps.Validate) and SteadyState call
// it first.
func (p *Population) Validate() error {
	if p == nil {
		return errors.New("meanfield: nil Population")
	}
	d := len(p.Names)
	if d == 0 {
		return fielderr.New("meanfield", "Population.Names", "is empty: need one name per dimension (Dim ≥ 1)")
	}
	for k, j := range p.Jumps {
		if len(j.L) == d && j.Rate != nil && j.Grad != nil && j.Hess != nil && finite(j.L) {
			continue
		}
		field := fmt.Sprintf("Population.Jumps[%d]", k) // only on an error: Validate allocates nothing on a valid p
		switch {
		case len(j.L) != d:
			return fielderr.New("meanfield", field+".L", "has %d components: need Dim = %d", len(j.L), d)
		case j.Rate == nil:
			return fielderr.New("meanfield", field+".Rate", "is nil: need the rate β(x)")
		case j.Grad == nil:
			return fielderr.New("meanfield", field+".Grad", "is nil: need the gradient of β")
		case j.Hess == nil:
			return fielderr.New("meanfield", field+".Hess", "is nil: need the Hessian of β")
		}
		for i, l := range j.L {
			if math.IsNaN(l) || math.IsInf(l, 0) {
				return fielderr.New("meanfield", fmt.Sprintf("%s.L[%d]", field, i), "= %g: need a finite jump", l)
			}
		}
	}
	return nil
}

// finite reports whether every element of v is finite.
func finite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// nanFill sets every element of v to NaN.
func nanFill(v []float64) {
	for i := range v {
		v[i] = math.NaN()
	}
}

// maxCubeDim is the largest d whose d³ is computed without overflow.
const maxCubeDim = 1 << 20

// Dim is the dimension d, the number of names; 0 for a nil Population.
func (p *Population) Dim() int {
	if p == nil {
		return 0
	}
	return len(p.Names)
}

// Drift sets f = F(x) (NaN when it cannot; see Population).
func (p *Population) Drift(x, f []float64) {
	d := p.Dim()
	if d == 0 || len(x) < d || len(f) < d {
		nanFill(f)
		return
	}
	clear(f)
	for _, j := range p.Jumps {
		if len(j.L) != d || j.Rate == nil {
			nanFill(f)
			return
		}
		b := j.Rate(x)
		for i, l := range j.L {
			f[i] += l * b
		}
	}
}

// Jacobian sets a (d×d, row-major) to A(x) (NaN when it cannot; see Population).
func (p *Population) Jacobian(x, a []float64) { p.jacobian(x, a, nil) }

// jacobian is Jacobian with g as the scratch for one jump's gradient
// (allocated if shorter than d).
func (p *Population) jacobian(x, a, g []float64) {
	d := p.Dim()
	if d == 0 || d > maxCubeDim || len(x) < d || len(a) < d*d {
		nanFill(a)
		return
	}
	if len(g) < d {
		g = make([]float64, d)
	}
	clear(a)
	for _, j := range p.Jumps {
		if len(j.L) != d || j.Grad == nil {
			nanFill(a)
			return
		}
		j.Grad(x, g[:d])
		for i, l := range j.L {
			if l == 0 {
				continue
			}
			for k := range d {
				a[i*d+k] += l * g[k]
			}
		}
	}
}

// Hessian sets h (d×d×d, index (i·d + j)·d + k) to ∂²F_i/∂x_j∂x_k (NaN
// when it cannot; see Population).
func (p *Population) Hessian(x, h []float64) { p.hessian(x, h, nil) }

// hessian is Hessian with hb as the scratch for one jump's Hessian
// (allocated if shorter than d²).
func (p *Population) hessian(x, h, hb []float64) {
	d := p.Dim()
	if d == 0 || d > maxCubeDim || len(x) < d || len(h) < d*d*d {
		nanFill(h)
		return
	}
	if len(hb) < d*d {
		hb = make([]float64, d*d)
	}
	clear(h)
	for _, j := range p.Jumps {
		if len(j.L) != d || j.Hess == nil {
			nanFill(h)
			return
		}
		j.Hess(x, hb[:d*d])
		for i, l := range j.L {
			if l == 0 {
				continue
			}
			for jk := range d * d {
				h[i*d*d+jk] += l * hb[jk]
			}
		}
	}
}

// Q sets q (d×d) to Σ ℓ ℓᵀ β_ℓ(x) (NaN when it cannot; see Population).
func (p *Population) Q(x, q []float64) {
	d := p.Dim()
	if d == 0 || d > maxCubeDim || len(x) < d || len(q) < d*d {
		nanFill(q)
		return
	}
	clear(q)
	for _, j := range p.Jumps {
		if len(j.L) != d || j.Rate == nil {
			nanFill(q)
			return
		}
		b := j.Rate(x)
		for i := range d {
			for k := range d {
				q[i*d+k] += j.L[i] * j.L[k] * b
			}
		}
	}
}

// C sets c to Σ ℓ c_ℓ(x), skipping the jumps without Corr (NaN when it
// cannot; see Population).
func (p *Population) C(x, c []float64) {
	d := p.Dim()
	if d == 0 || len(x) < d || len(c) < d {
		nanFill(c)
		return
	}
	clear(c)
	for _, j := range p.Jumps {
		if len(j.L) != d {
			nanFill(c)
			return
		}
		if j.Corr == nil {
			continue
		}
		b := j.Corr(x)
		for i, l := range j.L {
			c[i] += l * b
		}
	}
}

// Refined is the refined mean field at output times: the classic mean
// field X, the 1/N correction V of the mean, E[X^N(t)] = X + V/N + o(1/N),
// and W, with Cov(X^N(t)) = W/N + o(1/N) (d×d row-major).
type Refined struct {
	T       []float64
	X, V, W [][]float64
	Stats   ode.Stats // integrator work (continuous time)
}

// dim is the dimension of output i of r: len(X[i]), or len(X[0]) when i
// is not an output, 0 when r holds none.
func (r *Refined) dim(i int) int {
	switch {
	case r == nil || len(r.X) == 0:
		return 0
	case i >= 0 && i < len(r.X):
		return len(r.X[i])
	}
	return len(r.X[0])
}

// Mean returns x + v/N at output i for N = nodes, one component per
// dimension. A component it cannot compute is NaN: every one when i is not
// an output of r or nodes < 1, those missing from V[i] otherwise; the
// slice is empty when r (nil, or without outputs) has no dimension.
func (r *Refined) Mean(i, nodes int) []float64 {
	m := make([]float64, r.dim(i))
	ok := len(m) > 0 && nodes >= 1 && i >= 0 && i < len(r.X) && i < len(r.V)
	for k := range m {
		if ok && k < len(r.X[i]) && k < len(r.V[i]) {
			m[k] = r.X[i][k] + r.V[i][k]/float64(nodes)
		} else {
			m[k] = math.NaN()
		}
	}
	return m
}

// SD returns √(W_kk/N), the predicted standard deviations at output i for
// N = nodes, NaN where it cannot compute them as for Mean (W[i] shorter
// than d²).
func (r *Refined) SD(i, nodes int) []float64 {
	d := r.dim(i)
	s := make([]float64, d)
	ok := d > 0 && nodes >= 1 && i >= 0 && i < len(r.X) && i < len(r.W)
	for k := range s {
		if ok && k*d+k < len(r.W[i]) {
			s[k] = math.Sqrt(math.Max(0, r.W[i][k*d+k]/float64(nodes)))
		} else {
			s[k] = math.NaN()
		}
	}
	return s
}

// MaxRefinedDim is the largest dimension the refined mean field takes
// (RefinedContinuous, RefinedDiscrete, SteadyState): its state holds the
// d×d matrix W, each evaluation costs O(d³) per jump, and SteadyState
// solves the Lyapunov equation as a dense d²×d² system, 1024×1024 at d =
// 32 (8 MB, 64 ms measured with 32 jumps). The models of this package
// have d ≤ 2.
const MaxRefinedDim = 32

// checkRefined checks the dimension d of a refined computation and its
// start x0 (len(x0) = d, finite).
func checkRefined(d int, x0 []float64, what string) error {
	if d > MaxRefinedDim {
		return fmt.Errorf("meanfield: a model of dimension %d: the refined mean field takes at most MaxRefinedDim = %d: %w", d, MaxRefinedDim, gossip.ErrTooLarge)
	}
	if len(x0) != d {
		return fmt.Errorf("meanfield: %s has %d components, the model %d", what, len(x0), d)
	}
	for i, v := range x0 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("meanfield: %s[%d] = %g: need a finite state", what, i, v)
		}
	}
	return nil
}

// RefinedContinuous integrates, for the continuous-time process,
//
//	dx/dt = F(x)
//	dV/dt = A V + ½ F''·W + C(x)          (F''·W)_i = Σ_jk H_ijk W_jk
//	dW/dt = A W + W Aᵀ + Q(x)
//
// from x(0) = x0, V(0) = 0, W(0) = 0 (a deterministic start), and returns
// them at the times ts (finite, non-decreasing, ts[0] ≥ 0). It refuses an
// invalid p (Population.Validate), a dimension above MaxRefinedDim, an x0
// without Dim finite components and an empty ts. Its work is bounded by
// set.MaxSteps (package ode; at the default 10⁶ steps a ts that ends far
// out on the plateau of the coverage model runs about 16 s before the
// integrator gives up) and by ctx, checked before the work and at every
// accepted step of the integrator (which does not change the solution):
// a nil ctx is an error, a cancelled one returns ctx.Err().
func RefinedContinuous(ctx context.Context, p *Population, x0 []float64, ts []float64, set ode.Settings) (*Refined, error) {
	if err := ctxguard.Check("meanfield", ctx); err != nil {
		return nil, err
	}
	return refinedContinuous(ctx, p, x0, ts, set)
}

// refinedContinuous is RefinedContinuous once ctx is known not to be nil.
func refinedContinuous(ctx context.Context, p *Population, x0 []float64, ts []float64, set ode.Settings) (*Refined, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	d := p.Dim()
	if err := checkRefined(d, x0, "x0"); err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return nil, errors.New("meanfield: no output times")
	}
	for i, t := range ts {
		if !(t >= 0) || math.IsInf(t, 0) || (i > 0 && t < ts[i-1]) {
			return nil, fmt.Errorf("meanfield: ts[%d] = %g: need finite, non-decreasing output times from ts[0] ≥ 0", i, t)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n := d + d + d*d
	a, h, q, c := make([]float64, d*d), make([]float64, d*d*d), make([]float64, d*d), make([]float64, d)
	g, hb := make([]float64, d), make([]float64, d*d) // scratch of jacobian and hessian
	f := func(_ float64, z, dz []float64) {
		x, v, w := z[:d], z[d:2*d], z[2*d:]
		dx, dv, dw := dz[:d], dz[d:2*d], dz[2*d:]
		p.Drift(x, dx)
		p.jacobian(x, a, g)
		p.hessian(x, h, hb)
		p.Q(x, q)
		p.C(x, c)
		meanCorrection(d, a, v, h, w, c, dv)
		for i := range d {
			for k := range d {
				s := q[i*d+k]
				for j := range d {
					s += a[i*d+j]*w[j*d+k] + w[i*d+j]*a[k*d+j]
				}
				dw[i*d+k] = s
			}
		}
	}
	z0 := make([]float64, n)
	copy(z0, x0)
	t0 := 0.0
	tEnd := ts[len(ts)-1]
	out := &Refined{T: ts}
	var sol *ode.Solution
	if tEnd > t0 {
		// A terminal event that crosses zero once ctx is done stops the
		// integration at its next accepted step; events do not change the
		// steps the integrator takes.
		done := ode.Event{G: func(float64, []float64) float64 {
			if ctx.Err() != nil {
				return 1
			}
			return -1
		}, Direction: 1, Terminal: true}
		var err error
		sol, err = ode.DormandPrince(f, t0, z0, tEnd, set, done)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			return nil, fmt.Errorf("meanfield: %w", err)
		}
		if len(sol.Hits) > 0 {
			return nil, errors.New("meanfield: integration stopped by an event")
		}
		out.Stats = sol.Stats
	}
	z := make([]float64, n)
	for _, t := range ts {
		if sol != nil && t > t0 {
			sol.At(t, z)
		} else {
			copy(z, z0)
		}
		out.X = append(out.X, append([]float64(nil), z[:d]...))
		out.V = append(out.V, append([]float64(nil), z[d:2*d]...))
		out.W = append(out.W, append([]float64(nil), z[2*d:]...))
	}
	return out, nil
}

// meanCorrection sets out = A·v + ½ H·W + c, the right-hand side of the
// continuous V equation and the discrete V recursion alike
// ((H·W)_i = Σ_jk H_ijk W_jk).
func meanCorrection(d int, a, v, h, w, c, out []float64) {
	for i := range d {
		s := c[i]
		for j := range d {
			s += a[i*d+j] * v[j]
			for k := range d {
				s += 0.5 * h[(i*d+j)*d+k] * w[j*d+k]
			}
		}
		out[i] = s
	}
}

// SteadyState returns the refined correction at a stable fixed point x* of
// the drift: W solves the Lyapunov equation A W + W Aᵀ + Q = 0 and
// V = −A⁻¹(½F”·W + C). It fails when A is singular (x* not hyperbolic),
// and refuses, as RefinedContinuous does, an invalid p, a dimension above
// MaxRefinedDim and an xs without Dim finite components, and derivatives
// at xs that are not finite.
func SteadyState(p *Population, xs []float64) (v, w []float64, err error) {
	if err := p.Validate(); err != nil {
		return nil, nil, err
	}
	d := p.Dim()
	if err := checkRefined(d, xs, "xs"); err != nil {
		return nil, nil, err
	}
	a, h, q, c := make([]float64, d*d), make([]float64, d*d*d), make([]float64, d*d), make([]float64, d)
	p.Jacobian(xs, a)
	p.Hessian(xs, h)
	p.Q(xs, q)
	p.C(xs, c)
	for _, part := range [][]float64{a, h, q, c} {
		for _, v := range part {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil, fmt.Errorf("meanfield: the derivatives of the drift at xs are not finite (%g)", v)
			}
		}
	}
	// (I⊗A + A⊗I) vec(W) = −vec(Q), with vec row-major: W_ik at i·d + k.
	// (AW)_ik = Σ_j A_ij W_jk is A⊗I and (WAᵀ)_ik = Σ_j W_ij A_kj is I⊗A.
	A := mat.NewDense(d, d, a)
	eye := mat.NewDiagDense(d, nil)
	for i := range d {
		eye.SetDiag(i, 1)
	}
	var K, IA mat.Dense
	K.Kronecker(A, eye)
	IA.Kronecker(eye, A)
	K.Add(&K, &IA)
	rhs := mat.NewVecDense(d*d, nil)
	for i := range d * d {
		rhs.SetVec(i, -q[i])
	}
	var wv mat.VecDense
	if err := wv.SolveVec(&K, rhs); err != nil {
		return nil, nil, fmt.Errorf("meanfield: Lyapunov equation: %w", err)
	}
	w = make([]float64, d*d)
	for i := range w {
		w[i] = wv.AtVec(i)
	}
	b := mat.NewVecDense(d, nil)
	for i := range d {
		s := c[i]
		for j := range d {
			for k := range d {
				s += 0.5 * h[(i*d+j)*d+k] * w[j*d+k]
			}
		}
		b.SetVec(i, -s)
	}
	var vv mat.VecDense
	if err := vv.SolveVec(A, b); err != nil {
		return nil, nil, fmt.Errorf("meanfield: singular Jacobian at the fixed point: %w", err)
	}
	v = make([]float64, d)
	for i := range v {
		v[i] = vv.AtVec(i)
	}
	return v, w, nil
}

// DiscreteModel is a synchronous discrete-time population model: in one
// step every interaction acts on the state at the step's start, the mean
// moves by Step(x) + Corr(x)/N and the step's covariance is Gamma(x)/N
// (Gast, Latella and Massink, "A refined mean field approximation of
// synchronous discrete-time population models", Perform. Eval. 126, 2018).
type DiscreteModel interface {
	Dim() int
	Step(x, f []float64)         // f(x): mean increment of one step
	StepJacobian(x, a []float64) // Df (d×d)
	StepHessian(x, h []float64)  // D²f (d×d×d)
	Gamma(x, g []float64)        // one-step covariance × N (d×d)
	StepCorr(x, c []float64)     // 1/N part of the one-step mean
}

// RefinedDiscrete iterates, from μ_0 = x0, V_0 = W_0 = 0,
//
//	μ_{t+1} = μ_t + f(μ_t)
//	V_{t+1} = A_t V_t + ½ B_t·W_t + c(μ_t)
//	W_{t+1} = A_t W_t A_tᵀ + Γ(μ_t)
//
// with A_t = I + Df(μ_t) and B_t = D²f(μ_t), and returns steps 0..T. It
// refuses a nil m, a dimension below 1 or above MaxRefinedDim, an x0
// without Dim finite components, a negative T and a T beyond its limits
// (T ≤ MaxSynchronousRounds and (T+1)·(d+1)² ≤ MaxRefinedValues, the
// values it keeps), and a model with a Validate method that fails
// (SynchronousSteps.Validate). ctx is checked every 64 steps.
func RefinedDiscrete(ctx context.Context, m DiscreteModel, x0 []float64, T int) (*Refined, error) {
	if err := ctxguard.Check("meanfield", ctx); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errors.New("meanfield: nil DiscreteModel")
	}
	if v, ok := m.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return nil, err
		}
	}
	d := m.Dim()
	if d < 1 {
		return nil, fmt.Errorf("meanfield: DiscreteModel of dimension %d: need Dim ≥ 1", d)
	}
	if err := checkRefined(d, x0, "x0"); err != nil {
		return nil, err
	}
	if T < 0 {
		return nil, fmt.Errorf("meanfield: T = %d: need T ≥ 0 steps", T)
	}
	if T > MaxSynchronousRounds || float64(T+1)*float64((d+1)*(d+1)) > MaxRefinedValues {
		return nil, fmt.Errorf("meanfield: T = %d steps of dimension %d keep %.3g values, more than MaxRefinedValues = %g (or T > MaxSynchronousRounds = %d): %w",
			T, d, float64(T+1)*float64((d+1)*(d+1)), float64(MaxRefinedValues), MaxSynchronousRounds, gossip.ErrTooLarge)
	}
	x := append([]float64(nil), x0...)
	v, w := make([]float64, d), make([]float64, d*d)
	a, h, g, c, f := make([]float64, d*d), make([]float64, d*d*d), make([]float64, d*d), make([]float64, d), make([]float64, d)
	// Every step's x, V and W in one block, each a slice of it capped at
	// its end (an append by the caller copies).
	per := 2*d + d*d
	blk := make([]float64, (T+1)*per)
	out := &Refined{T: make([]float64, 0, T+1), X: make([][]float64, 0, T+1), V: make([][]float64, 0, T+1), W: make([][]float64, 0, T+1)}
	record := func(t int) {
		b := blk[t*per : (t+1)*per : (t+1)*per]
		copy(b, x)
		copy(b[d:], v)
		copy(b[2*d:], w)
		out.T = append(out.T, float64(t))
		out.X = append(out.X, b[:d:d])
		out.V = append(out.V, b[d:2*d:2*d])
		out.W = append(out.W, b[2*d:])
	}
	record(0)
	nv, nw := make([]float64, d), make([]float64, d*d)
	// SynchronousSteps, the package's model, gets scratch for its jumps'
	// gradients and Hessians: a step allocates nothing.
	ss, direct := m.(SynchronousSteps)
	var gs, hbs []float64
	if direct {
		gs, hbs = make([]float64, d), make([]float64, d*d)
	}
	for t := 0; t < T; t++ {
		if t%64 == 63 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		m.Step(x, f)
		if direct {
			ss.stepJacobian(x, a, gs)
		} else {
			m.StepJacobian(x, a)
		}
		for i := range d {
			a[i*d+i]++ // A = I + Df
		}
		if direct {
			ss.stepHessian(x, h, hbs)
		} else {
			m.StepHessian(x, h)
		}
		m.Gamma(x, g)
		m.StepCorr(x, c)
		meanCorrection(d, a, v, h, w, c, nv)
		for i := range d {
			for k := range d {
				s := g[i*d+k]
				for j := range d {
					for l := range d {
						s += a[i*d+j] * w[j*d+l] * a[k*d+l]
					}
				}
				nw[i*d+k] = s
			}
		}
		for i := range d {
			x[i] += f[i]
		}
		copy(v, nv)
		copy(w, nw)
		record(t + 1)
	}
	return out, nil
}

// SynchronousSteps is the discrete-time counterpart of a Population whose
// jump rates are per-interaction probabilities (Σ_ℓ β_ℓ ≤ 1, at rate N per
// round): a step lasts h rounds and holds exactly hN interactions, which all
// act on the state at the step's start and are independent given it. One
// interaction moves N·x by ℓ with probability β_ℓ, so its mean is F and its
// covariance Q − F Fᵀ, and the step's mean and covariance (of x) are
//
//	f = h·F,   c = h·C,   Γ/N = h·(Q − F Fᵀ)/N.
//
// The −F Fᵀ is what a fixed number of interactions per step removes from
// the Poisson number of the continuous-time process (whose covariance rate
// is Q); it is zero at a fixed point.
//
// Its methods are those of its Population scaled by H: NaN where the
// Population's are (a nil or invalid P, a short x or output; see
// Population), and NaN or ±Inf where H is.
type SynchronousSteps struct {
	P *Population
	H float64
}

// MaxRefinedValues bounds the values RefinedDiscrete keeps, (T+1)·(d+1)²
// for T steps in d dimensions (x, V and W at every step and its time):
// 10⁸ float64 are 0.8 GB.
const MaxRefinedValues = 1e8

// Validate checks that P is a valid Population (Population.Validate; a
// field error names SynchronousSteps.P.Jumps[2].Rate) and 0 < H < +Inf.
func (s SynchronousSteps) Validate() error {
	if s.P == nil {
		return fielderr.New("meanfield", "SynchronousSteps.P", "is nil: need a Population")
	}
	if err := s.P.Validate(); err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			return fielderr.New("meanfield", "SynchronousSteps.P."+strings.TrimPrefix(fe.Field, "Population."), "%s", fe.Msg)
		}
		return err
	}
	if !(s.H > 0) || math.IsInf(s.H, 0) {
		return fielderr.New("meanfield", "SynchronousSteps.H", "= %g: need a finite step length H > 0 (rounds)", s.H)
	}
	return nil
}

// Dim is the dimension of P, 0 when P is nil.
func (s SynchronousSteps) Dim() int { return s.P.Dim() }

// Step sets f = h·F(x).
func (s SynchronousSteps) Step(x, f []float64) {
	s.P.Drift(x, f)
	for i := range f {
		f[i] *= s.H
	}
}

// StepJacobian sets a = h·A(x).
func (s SynchronousSteps) StepJacobian(x, a []float64) { s.stepJacobian(x, a, nil) }

// stepJacobian is StepJacobian with the scratch of Population.jacobian.
func (s SynchronousSteps) stepJacobian(x, a, g []float64) {
	s.P.jacobian(x, a, g)
	for i := range a {
		a[i] *= s.H
	}
}

// StepHessian sets h to h·D²F(x) (d×d×d).
func (s SynchronousSteps) StepHessian(x, h []float64) { s.stepHessian(x, h, nil) }

// stepHessian is StepHessian with the scratch of Population.hessian.
func (s SynchronousSteps) stepHessian(x, h, hb []float64) {
	s.P.hessian(x, h, hb)
	for i := range h {
		h[i] *= s.H
	}
}

// Gamma sets g (d×d) to h·(Q(x) − F(x)F(x)ᵀ).
func (s SynchronousSteps) Gamma(x, g []float64) {
	d := s.Dim()
	if d == 0 || d > maxCubeDim || len(x) < d || len(g) < d*d {
		nanFill(g)
		return
	}
	s.P.Q(x, g)
	var fb [8]float64 // F on the stack for the small models
	f := fb[:]
	if d > len(fb) {
		f = make([]float64, d)
	}
	f = f[:d]
	s.P.Drift(x, f)
	for i := range d {
		for k := range d {
			g[i*d+k] = s.H * (g[i*d+k] - f[i]*f[k])
		}
	}
}

// StepCorr sets c = h·C(x).
func (s SynchronousSteps) StepCorr(x, c []float64) {
	s.P.C(x, c)
	for i := range c {
		c[i] *= s.H
	}
}
