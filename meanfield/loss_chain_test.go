package meanfield

import (
	"context"
	"math"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/ode"
)

// chainMoments is the exact finite-N chain of (X, Y) — X nodes hold d, Y
// have held it — with message loss, solved by uniformization, independently
// of the refined mean field. With the chances u, m, w, ℓ of one shuffle
// (from the matrix tr, as in lossRates) and D = N(N−1), shuffles at rate N
// move (X, Y) by
//
//	(+1, +1) at N·u·X(N−Y)/D   (0, +1) at N·m·X(N−Y)/D   (+1, 0) at N·u·X(Y−X)/D
//	(−1, 0)  at N·(w·X(X−1) + ℓ·X(N−X))/D
//
// and X = 0 absorbs. From (X0, X0) it returns, at each time of ts, E[X/N],
// E[Y/N], Var(X/N), Var(Y/N) and P(X = 0). Uniformization: with Λ ≥ every
// state's exit rate, P = I + Q/Λ is stochastic and π(t+h) = Σ_k
// Pois(k; Λh)·π(0)Pᵏ; steps of h with Λh ≤ 8 keep the Poisson weights
// representable, and each sum stops once the weights left are below 1e-18
// (relative error of the moments ~1e-15 per step, far below the 1/N² sizes
// compared).
func chainMoments(tr approx.Transitions, N, X0 int, ts []float64) (ex, ey, vx, vy, ext []float64) {
	s00, s01, s10, s11 := approx.S00, approx.S01, approx.S10, approx.S11
	u := tr[s10][s11] + tr[s01][s11]
	mv := tr[s10][s01] + tr[s01][s10]
	w := tr[s11][s01] + tr[s11][s10]
	l := tr[s10][s00] + tr[s01][s00]
	idx := func(x, y int) int { return x*(N+1) + y } // dense (N+1)², entries with x > y unused
	S := (N + 1) * (N + 1)
	Nf := float64(N)
	D := Nf * (Nf - 1)
	type move struct {
		to   int
		rate float64
	}
	out := make([][]move, S)
	lambda := 0.0
	for x := 1; x <= N; x++ {
		for y := x; y <= N; y++ {
			X, Y := float64(x), float64(y)
			var mv2 []move
			add := func(dx, dy int, r float64) {
				if r > 0 {
					mv2 = append(mv2, move{idx(x+dx, y+dy), r})
				}
			}
			add(1, 1, Nf*u*X*(Nf-Y)/D)
			add(0, 1, Nf*mv*X*(Nf-Y)/D)
			add(1, 0, Nf*u*X*(Y-X)/D)
			add(-1, 0, Nf*(w*X*(X-1)+l*X*(Nf-X))/D)
			tot := 0.0
			for _, m := range mv2 {
				tot += m.rate
			}
			lambda = math.Max(lambda, tot)
			out[idx(x, y)] = mv2
		}
	}
	pi := make([]float64, S)
	pi[idx(X0, X0)] = 1
	step := func(v []float64) []float64 { // v·P
		r := make([]float64, S)
		for i, p := range v {
			if p == 0 {
				continue
			}
			stay := p
			for _, m := range out[i] {
				q := p * m.rate / lambda
				r[m.to] += q
				stay -= q
			}
			r[i] += stay
		}
		return r
	}
	advance := func(v []float64, h float64) []float64 {
		lh := lambda * h
		wgt := math.Exp(-lh)
		acc := make([]float64, S)
		left := 1.0
		term := v
		for k := 0; ; k++ {
			for i := range acc {
				acc[i] += wgt * term[i]
			}
			left -= wgt
			if left < 1e-18 || (k > int(lh) && wgt < 1e-18) {
				break
			}
			term = step(term)
			wgt *= lh / float64(k+1)
		}
		return acc
	}
	now := 0.0
	for _, t := range ts {
		for now < t {
			h := math.Min(t-now, 8/lambda)
			pi = advance(pi, h)
			now += h
			if t-now < 1e-12 {
				now = t
			}
		}
		var m1x, m2x, m1y, m2y, z float64
		for x := 0; x <= N; x++ {
			for y := x; y <= N; y++ {
				p := pi[idx(x, y)]
				X, Y := float64(x)/Nf, float64(y)/Nf
				m1x += p * X
				m2x += p * X * X
				m1y += p * Y
				m2y += p * Y * Y
				if x == 0 {
					z += p
				}
			}
		}
		ex, ey = append(ex, m1x), append(ey, m1y)
		vx, vy = append(vx, m2x-m1x*m1x), append(vy, m2y-m1y*m1y)
		ext = append(ext, z)
	}
	return ex, ey, vx, vy, ext
}

// TestLossRefinedAgainstChain: the refined mean field of Coverage with
// loss against the exact chain (chainMoments) at N = 40, 80, 160, x0 = 1/5,
// n = 200, c = 100, s = 50 (p = 1/2, q = 2/3, K = 1/2), ε = 0.1 and 0.3, at
// t = 2, 5, 10, 20. The expansion E[X/N] = x + V/N + O(1/N²) and
// N·Var(X/N) = W + O(1/N) hold for a fixed t as N grows; so the residuals
//
//	r_E(N) = N·(E_N − x) − V   and   r_W(N) = N·Var_N − W
//
// are O(1/N): from N to 2N they halve, while a wrong V or W (a 1/N part of
// the loss jump left out) leaves r(N) tending to that error, ratio 1, and a
// wrong drift makes r grow like N (TestLossRefinedMutation). The test asks
// |r(2N)| ≤ |r(N)|/√2, the geometric mean of the two hypotheses' ratios 1/2
// and 1 (the O(1/N²) part moves the measured ratios: 0.26–0.65). Below
// 1e-5 a residual is not compared (the integrator's rtol 1e-12 and the
// uniformization's 1e-15 are far below that, but the ratio of two tiny
// residuals says nothing).
//
// With loss X = 0 absorbs, which the expansion does not see; the times are
// chosen where the chain's extinction mass is small: at most 1.6e-4 (N = 40,
// ε = 0.3, t = 20), which moves N·E by at most N·P(X=0)·K ≈ 0.003, and
// below 1e-7 at N ≥ 80.
func TestLossRefinedAgainstChain(t *testing.T) {
	checkLossRefined(t, nil, true)
}

// chainCache keeps the exact chain's moments between
// TestLossRefinedAgainstChain and TestLossRefinedMutation (the tests of a
// package run one at a time unless they call t.Parallel, which these do
// not).
var chainCache = map[chainKey]chainResult{}

type chainKey struct {
	eps float64
	N   int
}

type chainResult struct{ ex, ey, vx, vy, ext []float64 }

// checkLossRefined runs TestLossRefinedAgainstChain's comparison on the
// Coverage population, edited by edit if not nil, and returns how many
// residual pairs failed the ratio test (reporting them when report).
func checkLossRefined(t *testing.T, edit func(*Population), report bool) int {
	t.Helper()
	sh := gossip.Shuffle{Items: 200, Cache: 100, Exchange: 50}
	ts := []float64{2, 5, 10, 20}
	Ns := []int{40, 80, 160}
	fails := 0
	lo, hi := math.Inf(1), 0.0
	for _, eps := range []float64{0.1, 0.3} {
		// res[k][j][i]: N = Ns[k], quantity j (E x, E y, Var x, Var y), time ts[i]
		res := make([][4][]float64, len(Ns))
		for k, N := range Ns {
			var cov *Refined
			X0 := N / 5
			m, err := approx.NewModel(approx.Config{Nodes: N, Shuffle: sh, Initial: X0, Loss: eps})
			if err != nil {
				t.Fatal(err)
			}
			pop := Coverage(m)
			if edit == nil {
				// Replication is Coverage's x: the same x, V_x and W_xx up
				// to the integrators' tolerance (rtol 1e-12, values ≤ 1).
				rr, err := RefinedContinuous(context.Background(), Replication(m), []float64{m.X0}, ts, ode.Settings{RTol: 1e-12, ATol: 1e-14})
				if err != nil {
					t.Fatal(err)
				}
				defer func() {
					for i := range ts {
						// 1e-10: both integrate at rtol 1e-12, ~5e-12 after DP5's ~5× global amplification (ode.TestDormandPrinceLogisticTolerance) on x ≤ 1; V and W follow linear ODEs driven by x, so their error is a few times x's: 1e-10 is a margin of 20.
						if math.Abs(rr.X[i][0]-cov.X[i][0]) > 1e-10 || math.Abs(rr.V[i][0]-cov.V[i][0]) > 1e-10 || math.Abs(rr.W[i][0]-cov.W[i][0]) > 1e-10 {
							t.Errorf("ε=%g N=%d t=%g: Replication (%v, %v, %v), Coverage's x (%v, %v, %v)", eps, N, ts[i], rr.X[i][0], rr.V[i][0], rr.W[i][0], cov.X[i][0], cov.V[i][0], cov.W[i][0])
						}
					}
				}()
			}
			if edit != nil {
				edit(pop)
			}
			ref, err := RefinedContinuous(context.Background(), pop, []float64{m.X0, m.Y0}, ts, ode.Settings{RTol: 1e-12, ATol: 1e-14})
			if err != nil {
				t.Fatal(err)
			}
			cov = ref
			ck := chainKey{eps, N}
			cm, ok := chainCache[ck]
			if !ok {
				cm.ex, cm.ey, cm.vx, cm.vy, cm.ext = chainMoments(approx.NewTransitionsLoss(m.P, m.Q, eps), N, X0, ts)
				chainCache[ck] = cm
			}
			ex, ey, vx, vy, ext := cm.ex, cm.ey, cm.vx, cm.vy, cm.ext
			Nf := float64(N)
			for i := range ts {
				if ext[i] > 2e-4 {
					t.Errorf("ε=%g N=%d t=%g: extinction mass %.2g, more than the comparison allows for", eps, N, ts[i], ext[i])
				}
				res[k][0] = append(res[k][0], Nf*(ex[i]-ref.X[i][0])-ref.V[i][0])
				res[k][1] = append(res[k][1], Nf*(ey[i]-ref.X[i][1])-ref.V[i][1])
				res[k][2] = append(res[k][2], Nf*vx[i]-ref.W[i][0])
				res[k][3] = append(res[k][3], Nf*vy[i]-ref.W[i][3])
			}
		}
		names := [4]string{"E x", "E y", "Var x", "Var y"}
		for j := range 4 {
			for i, tt := range ts {
				for k := 0; k+1 < len(Ns); k++ {
					a, b := math.Abs(res[k][j][i]), math.Abs(res[k+1][j][i])
					if a < 1e-5 {
						continue
					}
					lo, hi = math.Min(lo, b/a), math.Max(hi, b/a)
					if b > a/math.Sqrt2 {
						fails++
						if report {
							t.Errorf("ε=%g t=%g %s: residual %.3g at N=%d, %.3g at N=%d: not O(1/N)", eps, tt, names[j], a, Ns[k], b, Ns[k+1])
						}
					}
				}
			}
		}
	}
	if report {
		t.Logf("residual ratios r(2N)/r(N): %.2f to %.2f", lo, hi)
	}
	return fails
}

// TestLossRefinedMutation: the comparison sees a wrong 1/N part (the loss
// jump's Corr set to 0) and a wrong drift (the loss jump removed).
func TestLossRefinedMutation(t *testing.T) {
	if testing.Short() {
		t.Skip("the exact chain at N = 160 twice")
	}
	for name, edit := range map[string]func(*Population){
		"no 1/N part of the loss": func(p *Population) { p.Jumps[4].Corr = nil },
		"no loss jump":            func(p *Population) { p.Jumps = p.Jumps[:4] },
	} {
		if n := checkLossRefined(t, edit, false); n == 0 {
			t.Errorf("%s: the comparison does not see it", name)
		} else {
			t.Logf("%s: %d residual pairs fail", name, n)
		}
	}
}

// ruinFromOne is the exact probability that the holder count X of the
// pairwise chain with loss, started at X = 1, hits 0 before M: for a
// birth–death chain with up rates b_i and down rates d_i it is
//
//	Σ_{j=1}^{M−1} ρ_j / (1 + Σ_{j=1}^{M−1} ρ_j),   ρ_j = Π_{i=1}^{j} d_i/b_i,
//
// (Karlin and Taylor, A First Course in Stochastic Processes, §4.7), with
// d_i/b_i = (w·(i−1) + ℓ·(N−i)) / (u·(N−i)) from the jump rates of
// chainMoments (Y does not enter).
func ruinFromOne(tr approx.Transitions, N, M int) float64 {
	s00, s01, s10, s11 := approx.S00, approx.S01, approx.S10, approx.S11
	u := tr[s10][s11] + tr[s01][s11]
	w := tr[s11][s01] + tr[s11][s10]
	l := tr[s10][s00] + tr[s01][s00]
	sum, rho := 0.0, 1.0
	for i := 1; i < M; i++ {
		rho *= (w*float64(i-1) + l*float64(N-i)) / (u * float64(N-i))
		sum += rho
		if rho < 1e-300 {
			break
		}
	}
	return sum / (1 + sum)
}

// TestLossEarlyExtinction checks docs/MODEL.md §7: an item started on one
// node of N dies before reaching a tenth of the nodes with probability close
// to the linear birth–death value ℓ/u = εq/(2a(1−q) + ε), where d_i/b_i =
// ℓ/u + (w/u)(i−1)/(N−i); the sum ρ converges geometrically (ratio ≈ ℓ/u ≤
// 0.3 here), so the perturbation is of order (w/u)/N ≈ 3·10⁻⁵ at N = 10⁵
// (w/u ≈ 2.8 at ε = 0.1): 1e-3 is a margin of 30. The doc's two values at
// n = 500, c = 100, s = 50 (q = 8/9) are then checked to their digits:
// 0.039 at ε = 0.01 and 0.30 at ε = 0.1.
func TestLossEarlyExtinction(t *testing.T) {
	const N = 100000
	sh := gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}
	for _, tc := range []struct {
		eps    float64
		digits int
		doc    string
	}{{0.01, 3, "0.039"}, {0.1, 2, "0.30"}} {
		m, err := approx.NewModel(approx.Config{Nodes: N, Shuffle: sh, Loss: tc.eps})
		if err != nil {
			t.Fatal(err)
		}
		a := 1 - tc.eps
		lu := tc.eps * m.Q / (2*a*(1-m.Q) + tc.eps)
		got := ruinFromOne(approx.NewTransitionsLoss(m.P, m.Q, tc.eps), N, N/10)
		if math.Abs(got-lu) > 1e-3 {
			t.Errorf("ε=%g: P(extinct before N/10) = %.6f, ℓ/u = %.6f", tc.eps, got, lu)
		}
		if r := strconv.FormatFloat(got, 'f', tc.digits, 64); r != tc.doc {
			t.Errorf("ε=%g: %.6f rounds to %s, the doc says %s", tc.eps, got, r, tc.doc)
		}
		t.Logf("ε=%g: P(extinct before N/10) = %.6f, ℓ/u = %.6f", tc.eps, got, lu)
	}
}

// TestLossChainNTwoByHand checks the N = 2 closed forms of docs/MODEL.md §7
// against linear algebra on the chain's own rates (the per-shuffle jumps of
// chainMoments, times N = 2 shuffles a round):
//
//	P(extinction before full coverage) = ℓ/(u + m + ℓ) = εq/(2 − ε + εq),
//	T₁ = 1/ℓ + u/(2wℓ) (mean lifetime from X = 1, by a 2×2 solve),
//	θ the smaller root of θ² − (u + ℓ + 2w)θ + 2wℓ, π₂/π₁ = (u + ℓ − θ)/(2w)
//	(by gonum's eigen-decomposition of the generator on X = 1, 2).
//
// Both sides are a handful of float operations on numbers of order 1 (or
// of 1/ℓ for T₁): 1e-12 relative.
func TestLossChainNTwoByHand(t *testing.T) {
	for _, tc := range []struct {
		sh  gossip.Shuffle
		eps float64
	}{{gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}, 0.1}, {gossip.Shuffle{Items: 10, Cache: 4, Exchange: 3}, 0.5}, {gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}, 0.01}} {
		m, err := approx.NewModel(approx.Config{Nodes: 2, Shuffle: tc.sh, Loss: tc.eps})
		if err != nil {
			t.Fatal(err)
		}
		tr := approx.NewTransitionsLoss(m.P, m.Q, tc.eps)
		s00, s01, s10, s11 := approx.S00, approx.S01, approx.S10, approx.S11
		u := tr[s10][s11] + tr[s01][s11]
		mv := tr[s10][s01] + tr[s01][s10]
		w := tr[s11][s01] + tr[s11][s10]
		l := tr[s10][s00] + tr[s01][s00]
		// Rates per round at N = 2, D = 2: N·(jump probability).
		const N, D = 2.0, 2.0
		rate := func(p, X, f float64) float64 { return N * p * X * f / D }
		up11, up01, down1 := rate(u, 1, 1), rate(mv, 1, 1), rate(l, 1, 1) // from (1, 1): N−Y = 1, N−X = 1
		up1 := rate(u, 1, 1)                                              // X: 1 → 2 (from (1, 2): Y−X = 1)
		down2 := N * w * 2 * 1 / D                                        // X: 2 → 1
		q := m.Q
		pExt := down1 / (up11 + up01 + down1)
		if want := tc.eps * q / (2 - tc.eps + tc.eps*q); !scalar.EqualWithinRel(pExt, want, 1e-12) {
			t.Errorf("ε=%g %v: P(extinct first) = %v, closed form %v", tc.eps, tc.sh, pExt, want)
		}
		// Mean time to 0 from X = 1, 2: −Q_T·T = 1 on the transient states.
		QT := mat.NewDense(2, 2, []float64{-(up1 + down1), up1, down2, -down2})
		var T mat.VecDense
		negQ := mat.NewDense(2, 2, nil)
		negQ.Scale(-1, QT)
		if err := T.SolveVec(negQ, mat.NewVecDense(2, []float64{1, 1})); err != nil {
			t.Fatal(err)
		}
		if want := 1/l + u/(2*w*l); !scalar.EqualWithinRel(T.AtVec(0), want, 1e-12) {
			t.Errorf("ε=%g %v: T₁ = %v, closed form %v", tc.eps, tc.sh, T.AtVec(0), want)
		}
		// Quasi-stationary law: left eigenvector of QT for the eigenvalue
		// of largest real part (the right eigenvectors of QTᵀ).
		var eig mat.Eigen
		if !eig.Factorize(QT.T(), mat.EigenRight) {
			t.Fatal("eigen-decomposition failed")
		}
		vals := eig.Values(nil)
		var vecs mat.CDense
		eig.VectorsTo(&vecs)
		k := 0
		if real(vals[1]) > real(vals[0]) {
			k = 1
		}
		theta := -real(vals[k])
		B := u + l + 2*w
		if want := (B - math.Sqrt(B*B-8*w*l)) / 2; !scalar.EqualWithinRel(theta, want, 1e-12) {
			t.Errorf("ε=%g %v: θ = %v, closed form %v", tc.eps, tc.sh, theta, want)
		}
		ratio := real(vecs.At(1, k)) / real(vecs.At(0, k))
		if want := (u + l - theta) / (2 * w); !scalar.EqualWithinRel(ratio, want, 1e-12) {
			t.Errorf("ε=%g %v: π₂/π₁ = %v, closed form %v", tc.eps, tc.sh, ratio, want)
		}
	}
}
