package meanfield

import (
	"errors"
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/ode"

	"gonum.org/v1/gonum/mat"
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
type Population struct {
	Names []string
	Jumps []Jump
}

// Dim is the dimension d.
func (p *Population) Dim() int { return len(p.Names) }

// Drift sets f = F(x).
func (p *Population) Drift(x, f []float64) {
	clear(f)
	for _, j := range p.Jumps {
		b := j.Rate(x)
		for i, l := range j.L {
			f[i] += l * b
		}
	}
}

// Jacobian sets a (d×d, row-major) to A(x).
func (p *Population) Jacobian(x, a []float64) {
	d := p.Dim()
	clear(a)
	g := make([]float64, d)
	for _, j := range p.Jumps {
		j.Grad(x, g)
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

// Hessian sets h (d×d×d, index (i·d + j)·d + k) to ∂²F_i/∂x_j∂x_k.
func (p *Population) Hessian(x, h []float64) {
	d := p.Dim()
	clear(h)
	hb := make([]float64, d*d)
	for _, j := range p.Jumps {
		j.Hess(x, hb)
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

// Q sets q (d×d) to Σ ℓ ℓᵀ β_ℓ(x).
func (p *Population) Q(x, q []float64) {
	d := p.Dim()
	clear(q)
	for _, j := range p.Jumps {
		b := j.Rate(x)
		for i := range d {
			for k := range d {
				q[i*d+k] += j.L[i] * j.L[k] * b
			}
		}
	}
}

// C sets c to Σ ℓ c_ℓ(x).
func (p *Population) C(x, c []float64) {
	clear(c)
	for _, j := range p.Jumps {
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

// Mean returns x + v/N at output i for N = nodes.
func (r *Refined) Mean(i, nodes int) []float64 {
	m := make([]float64, len(r.X[i]))
	for k := range m {
		m[k] = r.X[i][k] + r.V[i][k]/float64(nodes)
	}
	return m
}

// SD returns √(W_kk/N), the predicted standard deviations at output i for
// N = nodes.
func (r *Refined) SD(i, nodes int) []float64 {
	d := len(r.X[i])
	s := make([]float64, d)
	for k := range s {
		s[k] = math.Sqrt(math.Max(0, r.W[i][k*d+k]/float64(nodes)))
	}
	return s
}

// RefinedContinuous integrates, for the continuous-time process,
//
//	dx/dt = F(x)
//	dV/dt = A V + ½ F''·W + C(x)          (F''·W)_i = Σ_jk H_ijk W_jk
//	dW/dt = A W + W Aᵀ + Q(x)
//
// from x(0) = x0, V(0) = 0, W(0) = 0 (a deterministic start), and returns
// them at the times ts (increasing, ts[0] ≥ 0).
func RefinedContinuous(p *Population, x0 []float64, ts []float64, set ode.Settings) (*Refined, error) {
	d := p.Dim()
	if len(x0) != d {
		return nil, fmt.Errorf("meanfield: x0 has %d components, the model %d", len(x0), d)
	}
	n := d + d + d*d
	a, h, q, c := make([]float64, d*d), make([]float64, d*d*d), make([]float64, d*d), make([]float64, d)
	f := func(_ float64, z, dz []float64) {
		x, v, w := z[:d], z[d:2*d], z[2*d:]
		dx, dv, dw := dz[:d], dz[d:2*d], dz[2*d:]
		p.Drift(x, dx)
		p.Jacobian(x, a)
		p.Hessian(x, h)
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
		var err error
		if sol, err = ode.DormandPrince(f, t0, z0, tEnd, set); err != nil {
			return nil, err
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
// V = −A⁻¹(½F”·W + C). It fails when A is singular (x* not hyperbolic).
func SteadyState(p *Population, xs []float64) (v, w []float64, err error) {
	d := p.Dim()
	a, h, q, c := make([]float64, d*d), make([]float64, d*d*d), make([]float64, d*d), make([]float64, d)
	p.Jacobian(xs, a)
	p.Hessian(xs, h)
	p.Q(xs, q)
	p.C(xs, c)
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
// with A_t = I + Df(μ_t) and B_t = D²f(μ_t), and returns steps 0..T.
func RefinedDiscrete(m DiscreteModel, x0 []float64, T int) (*Refined, error) {
	d := m.Dim()
	if len(x0) != d {
		return nil, errors.New("meanfield: x0 has the wrong dimension")
	}
	x := append([]float64(nil), x0...)
	v, w := make([]float64, d), make([]float64, d*d)
	a, h, g, c, f := make([]float64, d*d), make([]float64, d*d*d), make([]float64, d*d), make([]float64, d), make([]float64, d)
	out := &Refined{}
	record := func(t int) {
		out.T = append(out.T, float64(t))
		out.X = append(out.X, append([]float64(nil), x...))
		out.V = append(out.V, append([]float64(nil), v...))
		out.W = append(out.W, append([]float64(nil), w...))
	}
	record(0)
	nv, nw := make([]float64, d), make([]float64, d*d)
	for t := 0; t < T; t++ {
		m.Step(x, f)
		m.StepJacobian(x, a)
		for i := range d {
			a[i*d+i]++ // A = I + Df
		}
		m.StepHessian(x, h)
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
type SynchronousSteps struct {
	P *Population
	H float64
}

func (s SynchronousSteps) Dim() int { return s.P.Dim() }

func (s SynchronousSteps) Step(x, f []float64) {
	s.P.Drift(x, f)
	for i := range f {
		f[i] *= s.H
	}
}

func (s SynchronousSteps) StepJacobian(x, a []float64) {
	s.P.Jacobian(x, a)
	for i := range a {
		a[i] *= s.H
	}
}

func (s SynchronousSteps) StepHessian(x, h []float64) {
	s.P.Hessian(x, h)
	for i := range h {
		h[i] *= s.H
	}
}

func (s SynchronousSteps) Gamma(x, g []float64) {
	d := s.Dim()
	s.P.Q(x, g)
	f := make([]float64, d)
	s.P.Drift(x, f)
	for i := range d {
		for k := range d {
			g[i*d+k] = s.H * (g[i*d+k] - f[i]*f[k])
		}
	}
}

func (s SynchronousSteps) StepCorr(x, c []float64) {
	s.P.C(x, c)
	for i := range c {
		c[i] *= s.H
	}
}
