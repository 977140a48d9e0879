package meanfield

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/ode"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"

	"github.com/gossipkit/gossipkit/approx"
)

// birthDeath is the linear birth–death process: +1 at rate λX, −1 at μX.
func birthDeath(lambda, mu float64) *Population {
	return &Population{Names: []string{"x"}, Jumps: []Jump{
		{L: []float64{1}, Rate: func(x []float64) float64 { return lambda * x[0] },
			Grad: func(_, g []float64) { g[0] = lambda }, Hess: func(_, h []float64) { h[0] = 0 }},
		{L: []float64{-1}, Rate: func(x []float64) float64 { return mu * x[0] },
			Grad: func(_, g []float64) { g[0] = mu }, Hess: func(_, h []float64) { h[0] = 0 }},
	}}
}

// TestBirthDeathExact: for the linear birth–death process with r = λ − μ,
// E[X(t)] = X0·e^{rt} exactly, so the refined correction V is exactly 0, and
// Var X(t) = X0·(λ+μ)/r·e^{rt}(e^{rt} − 1) (Bailey, The Elements of
// Stochastic Processes, 1964, §8.6), so W(t) = x0(λ+μ)/r·e^{rt}(e^{rt} − 1).
func TestBirthDeathExact(t *testing.T) {
	lambda, mu, x0 := 1.3, 0.5, 0.2
	r := lambda - mu
	ts := []float64{0, 0.5, 1, 2, 3}
	ref, err := RefinedContinuous(context.Background(), birthDeath(lambda, mu), []float64{x0}, ts, ode.Settings{RTol: 1e-12, ATol: 1e-14})
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range ts {
		e := math.Exp(r * tt)
		if ref.V[i][0] != 0 {
			t.Errorf("t=%v: V = %v, want exactly 0", tt, ref.V[i][0])
		}
		// rtol 1e-12 with the ~5× global amplification measured elsewhere.
		if !scalar.EqualWithinRel(ref.X[i][0], x0*e, 1e-10) {
			t.Errorf("t=%v: x = %v, want %v", tt, ref.X[i][0], x0*e)
		}
		if want := x0 * (lambda + mu) / r * e * (e - 1); !scalar.EqualWithinAbsOrRel(ref.W[i][0], want, 1e-12, 1e-10) {
			t.Errorf("t=%v: W = %v, want %v", tt, ref.W[i][0], want)
		}
	}
}

// TestBirthDeathDiscrete: with synchronous steps of h, μ_{t+1} = (1 + hr)μ_t
// is linear, so V = 0 again and the mean is x0(1+hr)^t exactly.
func TestBirthDeathDiscrete(t *testing.T) {
	lambda, mu, x0, h := 1.3, 0.5, 0.2, 0.1
	ref, err := RefinedDiscrete(context.Background(), SynchronousSteps{P: birthDeath(lambda, mu), H: h}, []float64{x0}, 30)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ref.T {
		if ref.V[i][0] != 0 {
			t.Fatalf("step %d: V = %v", i, ref.V[i][0])
		}
		// 1e-13 relative: 30 steps of one multiply each against one math.Pow (< 1 ulp): at most ~31 roundings of 1.1e-16 = 3.4e-15; 1e-14 is that with a margin of 3.
		if want := x0 * math.Pow(1+h*(lambda-mu), float64(i)); !scalar.EqualWithinRel(ref.X[i][0], want, 1e-14) {
			t.Fatalf("step %d: μ = %v, want %v", i, ref.X[i][0], want)
		}
	}
	// W_{t+1} = a²W_t + Γ with a = 1 + hr and Γ = h(Q − F²): check one step by hand.
	a := 1 + h*(lambda-mu)
	x1 := x0 * a
	g0 := h * ((lambda+mu)*x0 - (lambda-mu)*(lambda-mu)*x0*x0)
	g1 := h * ((lambda+mu)*x1 - (lambda-mu)*(lambda-mu)*x1*x1)
	if want := a*a*g0 + g1; !scalar.EqualWithinRel(ref.W[2][0], want, 1e-13) {
		t.Errorf("W_2 = %v, want %v", ref.W[2][0], want)
	}
}

// TestGossipDerivatives checks the analytic Jacobians and Hessians against
// central finite differences (gonum diff/fd), and the drift against
// approx.Model.Drift, without loss and with ε = 0.3 (the loss jump and the
// asymmetric rows).
func TestGossipDerivatives(t *testing.T) {
	type tc struct {
		m   approx.Model
		pop *Population
	}
	var cases []tc
	for _, loss := range []float64{0, 0.3} {
		m, err := approx.NewModel(approx.Config{Nodes: 100, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, PDrop: approx.Simplified, Initial: 5, Loss: loss})
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, tc{m, Replication(m)}, tc{m, Coverage(m)})
	}
	for _, c := range cases {
		m, pop := c.m, c.pop
		d := pop.Dim()
		for _, x := range [][]float64{{0.05, 0.3}, {0.15, 0.9}, {0.2, 1}} {
			x = x[:d]
			a := make([]float64, d*d)
			pop.Jacobian(x, a)
			h := make([]float64, d*d*d)
			pop.Hessian(x, h)
			for i := range d {
				fi := func(z []float64) float64 {
					f := make([]float64, d)
					pop.Drift(z, f)
					return f[i]
				}
				g := fd.Gradient(nil, fi, x, &fd.Settings{Formula: fd.Central})
				for j := range d {
					// Central differences of a quadratic: exact up to rounding.
					// 1e-9: gonum's Central step h = 6e-6 is exact on a quadratic but for rounding, ε·|f|/h ≈ 2.2e-16/6e-6 ≈ 4e-11 with |f| ≤ 1 here: a margin of 25.
					if !scalar.EqualWithinAbs(a[i*d+j], g[j], 1e-9) {
						t.Errorf("%v x=%v: A[%d][%d] = %v, fd %v", pop.Names, x, i, j, a[i*d+j], g[j])
					}
				}
				hs := mat.NewSymDense(d, nil)
				fd.Hessian(hs, fi, x, nil)
				for j := range d {
					for k := range d {
						// 1e-6: fd.Hessian's default mixed forward difference (step √2e-8 ≈ 1.4e-4) is exact on a quadratic but for rounding, 4ε·|f|/h² ≈ 4.4e-8 with |f| ≤ 1: a margin of 20.
						if !scalar.EqualWithinAbs(h[(i*d+j)*d+k], hs.At(j, k), 1e-6) {
							t.Errorf("%v x=%v: H[%d][%d][%d] = %v, fd %v", pop.Names, x, i, j, k, h[(i*d+j)*d+k], hs.At(j, k))
						}
					}
				}
			}
			if d == 2 {
				f := make([]float64, 2)
				pop.Drift(x, f)
				dx, dy := m.Drift(x[0], x[1])
				// 1e-15: the same drift in two groupings of a few products of numbers ≤ 2, a few ulp of 1 (as in TestLossPopulationDrift).
				if !scalar.EqualWithinAbs(f[0], dx, 1e-15) || !scalar.EqualWithinAbs(f[1], dy, 1e-15) {
					t.Errorf("drift %v, model (%v, %v)", f, dx, dy)
				}
			}
		}
	}
}

// gillespie simulates the replication model's exact finite-N process
// (initiator uniform, partner uniform among the others, shuffles at rate N)
// and returns X(t_k)/N for each output time.
func gillespie(r *rand.Rand, N, X0 int, p, q float64, ts []float64) []float64 {
	out := make([]float64, len(ts))
	X, t := X0, 0.0
	k := 0
	Nf := float64(N)
	for k < len(ts) {
		up := Nf * 2 * float64(X) * float64(N-X) / (Nf * (Nf - 1)) * p * (1 - q)
		down := Nf * float64(X) * float64(X-1) / (Nf * (Nf - 1)) * 2 * p * (1 - p) * q
		tot := up + down
		dt := math.Inf(1)
		if tot > 0 {
			dt = r.ExpFloat64() / tot
		}
		for k < len(ts) && t+dt > ts[k] {
			out[k] = float64(X) / Nf
			k++
		}
		t += dt
		if r.Float64()*tot < up {
			X++
		} else {
			X--
		}
	}
	return out
}

// TestRefinedAgainstSimulation: the logistic replication model at N = 50
// from 5 copies (x0 = 0.1, growing to K = 0.2). Over 40000 exact
// simulations the mean of x at t = 1..30 must match x + V/N within 4
// standard errors plus 1/N² (the o(1/N) remainder, taken as one more
// order) at every t, and the refined mean's largest error over the
// horizon must be smaller than the classic one's. (Pointwise the classic
// value can be closer where the correction changes sign, as at t ≈ 20.)
func TestRefinedAgainstSimulation(t *testing.T) {
	const N, X0, runs = 50, 5, 40000
	m, _ := approx.NewModel(approx.Config{Nodes: N, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, PDrop: approx.Simplified, Initial: X0})
	var ts []float64
	for t := 1; t <= 30; t++ {
		ts = append(ts, float64(t))
	}
	ref, err := RefinedContinuous(context.Background(), Replication(m), []float64{m.X0}, ts, ode.Settings{RTol: 1e-10, ATol: 1e-13})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 8))
	sum, sum2 := make([]float64, len(ts)), make([]float64, len(ts))
	for range runs {
		for k, v := range gillespie(r, N, X0, m.P, m.Q, ts) {
			sum[k] += v
			sum2[k] += v * v
		}
	}
	worstRefined, worstClassic := 0.0, 0.0
	for k, tt := range ts {
		mean := sum[k] / runs
		sd := math.Sqrt(sum2[k]/runs - mean*mean)
		se := sd / math.Sqrt(runs)
		refined := ref.Mean(k, N)[0]
		classic := ref.X[k][0]
		if k%5 == 4 {
			t.Logf("t=%v: simulated %.5f ± %.5f, classic %.5f, refined %.5f; sd simulated %.4f, predicted %.4f", tt, mean, se, classic, refined, sd, ref.SD(k, N)[0])
		}
		if math.Abs(mean-refined) > 4*se+1.0/(N*N) {
			t.Errorf("t=%v: refined %.5f vs simulated %.5f ± %.5f", tt, refined, mean, se)
		}
		worstRefined = math.Max(worstRefined, math.Abs(mean-refined))
		worstClassic = math.Max(worstClassic, math.Abs(mean-classic))
	}
	t.Logf("largest error over t = 1..30: classic %.5f, refined %.5f", worstClassic, worstRefined)
	if worstRefined >= worstClassic/2 {
		t.Errorf("refined largest error %.5f is not below half the classic %.5f", worstRefined, worstClassic)
	}
}

func TestSteadyState(t *testing.T) {
	// Replication at x* = K = c/n: the steady state of the refined
	// equations must equal the long-time limit of their integration.
	m, _ := approx.NewModel(approx.Config{Nodes: 100, Shuffle: gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, PDrop: approx.Simplified, Initial: 20})
	pop := Replication(m)
	v, w, err := SteadyState(pop, []float64{m.Steady()})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := RefinedContinuous(context.Background(), pop, []float64{m.Steady()}, []float64{400}, ode.Settings{RTol: 1e-12, ATol: 1e-15})
	if err != nil {
		t.Fatal(err)
	}
	// At x* = K the correction of the mean vanishes: ½F''W + C =
	// −(a+b)K(1−K) + (a+b)K(1−K) = 0 with a = 2p(1−q), b = 2p(1−p)q and
	// W = K(1−K), so V is zero up to rounding.
	if !scalar.EqualWithinAbs(v[0], 0, 1e-14) || !scalar.EqualWithinAbs(ref.V[0][0], 0, 1e-12) || !scalar.EqualWithinRel(w[0], ref.W[0][0], 1e-8) {
		t.Errorf("steady state V=%v W=%v, integration V=%v W=%v", v[0], w[0], ref.V[0][0], ref.W[0][0])
	}
	// 1-D check by hand: A = F'(K) = −k, Q = β₊ + β₋ = 2β₊(K), so W = Q/(2k).
	k := m.Rate()
	K := m.Steady()
	Q := 2 * 2 * m.P * (1 - m.Q) * K * (1 - K)
	if !scalar.EqualWithinRel(w[0], Q/(2*k), 1e-12) {
		t.Errorf("W = %v, want Q/(2k) = %v", w[0], Q/(2*k))
	}
}
