package chain

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
)

// Two nodes, by hand, with loss ε (a = 1 − ε), n = 7, c = 4, s = 2
// (simplified P_drop: p = 1/2, q = 3/5). From the shuffle's three cases
// (request lost; request delivered, reply lost; both delivered):
//
//	u = T(11|10) + T(11|01) = a·p·(a(1−q) + ε) + a²·p·(1−q)
//	m = T(01|10) + T(10|01) = 2a²·p·q
//	w = T(01|11) + T(10|11) = a·p(1−p)q + a²·p(1−p)q
//	ℓ = T(00|10) + T(00|01) = a·ε·p·q
//
// With N = 2 (D = 2, two shuffles a round) the lone holder's pair is
// holder/non-holder in one of two orders, so per round (continuous time)
// from (X, Y) = (1, 1): the other node is covered at rate u + m (a copy or
// a move) and d dies at rate ℓ; the time to leave is Exp(u + m + ℓ) and
// independent of the exit taken. Hence
//
//	P(extinction before the other node is covered) = ℓ/(u + m + ℓ)
//	  = ε·q / (2 − ε(1 − q))   (dividing by a·p: u+m+ℓ = a·p·(2a + ε(1+q)))
//
// and T_1 = T_L (L = 1) given T_L < ∞ is Exp(u + m + ℓ): mean = sd =
// 1/(u + m + ℓ). For the lifetime only X matters: from X = 1, up at rate u
// (the single ordered pair holder/non-holder of either orientation, per
// round N·u·1·1/D = u), death at rate ℓ; from X = 2, down at rate
// N·w·2·1/D = 2w. Each visit to X = 1 lasts Exp(u + ℓ) and ends in death
// w.p. ℓ/(u + ℓ), so the number G of excursions to X = 2 is geometric,
// P(G = g) = (u/(u+ℓ))^g·ℓ/(u+ℓ), E G = u/ℓ, Var G = u(u+ℓ)/ℓ², and the
// lifetime is G + 1 holds Exp(u + ℓ) plus G holds Exp(2w):
//
//	E T_0   = (E G + 1)/(u+ℓ) + E G/(2w) = (1 + u/(2w))/ℓ
//	Var T_0 = (E G + 1)/(u+ℓ)² + E G/(2w)² + Var G·(1/(u+ℓ) + 1/(2w))²
//
// All are a few operations: 1e-12 relative covers their rounding and the
// solver's.
func TestLossTwoNodesByHand(t *testing.T) {
	sh := gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}
	p, q := 0.5, 0.6
	for _, eps := range []float64{1e-3, 0.1, 0.5, 0.9} {
		t.Run(fmt.Sprint("eps=", eps), func(t *testing.T) {
			a := 1 - eps
			u := a*p*(a*(1-q)+eps) + a*a*p*(1-q)
			m := 2 * a * a * p * q
			w := a*p*(1-p)*q + a*a*p*(1-p)*q
			l := a * eps * p * q
			pExt := eps * q / (2 - eps*(1-q))
			// 1e-15: the two forms are a handful of operations on numbers ≤ 1, a few ulp apart.
			if math.Abs(pExt-l/(u+m+l)) > 1e-15 {
				t.Fatalf("the two forms differ: %v %v", pExt, l/(u+m+l))
			}
			meanL := 1 / (u + m + l)
			eg, vg := u/l, u*(u+l)/(l*l)
			life := (1 + u/(2*w)) / l
			lifeVar := (eg+1)/((u+l)*(u+l)) + eg/(4*w*w) + vg*math.Pow(1/(u+l)+1/(2*w), 2)
			near := func(name string, got, want float64) {
				t.Helper()
				if math.Abs(got-want) > 1e-12*math.Abs(want) {
					t.Errorf("%s = %.15g, want %.15g", name, got, want)
				}
			}
			cfg := Config{Nodes: 2, Shuffle: sh, TMax: 4, Dt: 1, Level: 1, Loss: eps}
			lt, err := TimeToLevel(context.Background(), cfg, Settings{})
			if err != nil {
				t.Fatal(err)
			}
			near("1 − PReach", 1-lt.PReach, pExt)
			near("E[T_L | T_L < ∞]", lt.Mean, meanL)
			near("sd(T_L | T_L < ∞)", lt.SD, meanL)
			// The defective law: P(T_L ≤ t) = PReach·(1 − e^{−(u+m+ℓ)t}),
			// within the bound; the median given T_L < ∞ is ln 2/(u+m+ℓ).
			for _, tt := range []float64{0.5, 2, 10} {
				want := (1 - pExt) * (1 - math.Exp(-tt/meanL))
				if got := lt.CDF(tt); math.Abs(got-want) > lt.Bound+1e-12 {
					t.Errorf("P(T_L ≤ %g) = %.15g, want %.15g", tt, got, want)
				}
			}
			// 1e-11 relative: Quantile bisects to adjacent floats, so Q50's error is the CDF's (Bound + rounding, ≲ 1e-14 with Tol = 1e-14) over the density at the median, (1 − pExt)/(2·meanL): ~2·1e-14 relative, with a margin for the CDF's rounding (was 1e-9).
			if math.Abs(lt.Q50-math.Ln2*meanL) > 1e-11*meanL {
				t.Errorf("median given T_L < ∞ %.12g, want %.12g", lt.Q50, math.Ln2*meanL)
			}
			// Far past the last step the CDF is PReach (the dead paths'
			// T_L = ∞), in both clocks.
			for _, tm := range []gossip.Time{gossip.Continuous, gossip.Shuffles} {
				c := cfg
				c.Time = tm
				lt2, err := TimeToLevel(context.Background(), c, Settings{})
				if err != nil {
					t.Fatal(err)
				}
				// the solver's stated Bound plus 1e-12 for rounding in the few operations of the closed form P(reach).
				if got := lt2.CDF(1e9); math.Abs(got-lt.PReach) > lt2.Bound+1e-12 {
					t.Errorf("%v: P(T_L ≤ 1e9) = %.15g, want PReach %.15g", tm, got, lt.PReach)
				}
			}
			if got := lt.Quantile(1 - pExt/2); !math.IsInf(got, 1) {
				t.Errorf("Quantile(%g) = %g beyond PReach, want +Inf", 1-pExt/2, got)
			}
			mean, sd, err := Lifetime(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			near("E T_0", mean, life)
			near("sd T_0", sd, math.Sqrt(lifeVar))
			j, err := JumpsLossFor(approx.Simplified, sh, eps)
			if err != nil {
				t.Fatal(err)
			}
			got := [4]float64{j.Up, j.Move, j.Drop, j.Lose}
			for i, want := range [4]float64{u, m, w, l} {
				near(fmt.Sprint("jump ", i), got[i], want)
			}
		})
	}
}

// denseAbsorb solves first-step analysis on the dense chain d: with T the
// live states below the level (X ≥ 1, Y < m; all X ≥ 1 when m = 0) and
// F = (I − P_TT)⁻¹ the fundamental matrix, it returns from the start
// r = P(reach Y ≥ m) (1 − P(X = 0 first); with m = 0, P(X = 0 ever)),
// E[K·1{reach}] = F·r and E[K²·1{reach}] = F·(2h − r): an O(S³) dense
// solve, a different algorithm from hitting.go's row-by-row Thomas sweep
// and lifetime.go's birth–death sums.
func denseAbsorb(t *testing.T, d *dense) (r, h, g float64) {
	t.Helper()
	var live []int
	for i := range d.x {
		if d.x[i] >= 1 && (d.m == 0 || d.y[i] < d.m) {
			live = append(live, i)
		}
	}
	S := len(live)
	A := mat.NewDense(S, S, nil)
	b := mat.NewVecDense(S, nil)
	for a, i := range live {
		for c, k := range live {
			v := -d.P.At(i, k)
			if a == c {
				v++
			}
			A.Set(a, c, v)
		}
		s := 0.0
		for k := range d.x {
			if d.m > 0 && d.y[k] >= d.m || d.m == 0 && d.x[k] == 0 {
				s += d.P.At(i, k)
			}
		}
		b.SetVec(a, s)
	}
	var rv, hv, gv, rhs mat.VecDense
	if err := rv.SolveVec(A, b); err != nil {
		t.Fatal(err)
	}
	if err := hv.SolveVec(A, &rv); err != nil {
		t.Fatal(err)
	}
	rhs.ScaleVec(2, &hv)
	rhs.SubVec(&rhs, &rv)
	if err := gv.SolveVec(A, &rhs); err != nil {
		t.Fatal(err)
	}
	for a, i := range live {
		if i == d.start {
			return rv.AtVec(a), hv.AtVec(a), gv.AtVec(a)
		}
	}
	t.Fatal("start state not live")
	return
}

// The solver with loss against the dense reference (the matrix written
// out from the package doc's formulas with the states X = 0 in it): at
// N = 6 with a small and a large loss, both clocks, the joint chain and X
// alone, every output law's E[X/N], sd(X/N), E[Y/N], sd(Y/N), P(Y ≥ m) and
// P(X = 0); the defective law of T_L inside TMax and past it; PReach and
// the moments of T_L given T_L < ∞ (dense first-step analysis); and the
// lifetime's mean and sd (dense fundamental matrix of X alone).
//
// Tolerances as TestUniformizedAgainstDense: a probability or a mean of
// X/N, Y/N within 2·Bound + 1e-12, a sd within max(1e-12, √(6·Bound)); the
// first-step quantities, solved two ways up to rounding on ≤ 28 states,
// within 1e-10 relative.
func TestLossAgainstDense(t *testing.T) {
	const N, T = 6, 12
	sh := gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}
	for _, eps := range []float64{0.05, 0.4} {
		j, err := JumpsLossFor(approx.Simplified, sh, eps)
		if err != nil {
			t.Fatal(err)
		}
		for _, joint := range []bool{true, false} {
			for _, tm := range []gossip.Time{gossip.Continuous, gossip.Shuffles} {
				t.Run(fmt.Sprint("eps=", eps, "/joint=", joint, "/", tm), func(t *testing.T) {
					cfg := Config{Nodes: N, Shuffle: sh, TMax: T, Dt: 0.5, Time: tm, Loss: eps, ReplicationOnly: !joint, Initial: 1}
					m := 0
					if joint {
						cfg.Level = 0.8
						m = levelCount(cfg.Level, N)
					}
					res, err := Solve(context.Background(), cfg, Settings{})
					if err != nil {
						t.Fatal(err)
					}
					d := newDense(N, j, joint, 1, m)
					law := func(tt float64) []float64 {
						if tm == gossip.Shuffles {
							return d.after(int(math.Round(N * tt)))
						}
						return d.at(tt)
					}
					tolMean := 2*res.Bound + 1e-12
					tolSD := math.Max(1e-12, math.Sqrt(6*res.Bound))
					for _, r := range res.Rows {
						pl := law(r.T)
						want := d.summary(pl)
						p0 := 0.0
						for i, p := range pl {
							if d.x[i] == 0 {
								p0 += p
							}
						}
						got := [6]float64{r.X.Mean, r.X.SD, r.Y.Mean, r.Y.SD, r.PLevel, r.PExtinct}
						wantAll := [6]float64{want[0], want[1], want[2], want[3], want[4], p0}
						for i := range got {
							if !joint && (i == 2 || i == 3 || i == 4) {
								continue
							}
							tol := tolMean
							if i == 1 || i == 3 {
								tol = tolSD
							}
							if math.Abs(got[i]-wantAll[i]) > tol {
								t.Errorf("t=%g: summary %d = %.15g, dense %.15g", r.T, i, got[i], wantAll[i])
							}
						}
					}
					if r := res.Rows[len(res.Rows)-1]; !(r.PExtinct > 0.01) {
						t.Errorf("P(X(%g) = 0) = %g: the test needs deaths", r.T, r.PExtinct)
					}
					if joint {
						lt := res.Level
						for _, tt := range []float64{0.5, 3.7, 11.9, 20, 45, 200} {
							p := d.at(tt)
							if tm == gossip.Shuffles {
								p = d.after(int(math.Floor(N * tt)))
							}
							if got, want := lt.CDF(tt), d.summary(p)[4]; math.Abs(got-want) > tolMean {
								t.Errorf("P(T_L ≤ %g) = %.15g, dense %.15g", tt, got, want)
							}
						}
						r, h, g := denseAbsorb(t, d)
						mean, sd := hittingStat(tm, N, h/r, g/r)
						for _, c := range [][3]float64{{lt.PReach, r}, {lt.Mean, mean}, {lt.SD, sd}} {
							if math.Abs(c[0]-c[1]) > 1e-10*c[1] {
								t.Errorf("PReach, mean, sd: %.15g, dense %.15g", c[0], c[1])
							}
						}
						for _, pp := range []float64{0.05, 0.5, 0.95} {
							q := lt.Quantile(pp * lt.PReach)
							step := 1e-9
							if tm == gossip.Shuffles {
								step = 1.0 / N
							}
							if lt.CDF(q) < pp*lt.PReach || lt.CDF(q-step) >= pp*lt.PReach {
								t.Errorf("quantile %g given T_L < ∞ = %g: CDF %g there", pp, q, lt.CDF(q))
							}
						}
						return
					}
					// Lifetime: X alone, m = 0: r = 1, h = E[K], g = E[K²].
					r, h, g := denseAbsorb(t, d)
					if math.Abs(r-1) > 1e-12 {
						t.Errorf("P(death) = %v", r)
					}
					mean, sd := hittingStat(tm, N, h, g)
					gm, gsd, err := Lifetime(context.Background(), cfg)
					if err != nil {
						t.Fatal(err)
					}
					if math.Abs(gm-mean) > 1e-10*mean || math.Abs(gsd-sd) > 1e-10*sd {
						t.Errorf("lifetime %.15g ± %.15g, dense %.15g ± %.15g", gm, gsd, mean, sd)
					}
				})
			}
		}
	}
}

// qsPower is the quasi-stationary law by plain power iteration on the
// per-shuffle matrix of X alone restricted to X = 1..N, built from the
// jump formulas (no detailed balance, no flux recursion): v ← v·P_TT,
// renormalised, until an iteration changes v by less than 1e-15 in total
// variation, for at most 10⁶ iterations.
func qsPower(t *testing.T, N int, j Jumps) []float64 {
	t.Helper()
	D := float64(N) * float64(N-1)
	up, down := make([]float64, N+2), make([]float64, N+2)
	for x := 1; x <= N; x++ {
		fx := float64(x)
		up[x] = j.Up * fx * float64(N-x) / D
		down[x] = (j.Drop*fx*float64(x-1) + j.Lose*fx*float64(N-x)) / D
	}
	v, nv := make([]float64, N+2), make([]float64, N+2)
	v[1] = 1
	for it := 0; it < 1e6; it++ {
		sum := 0.0
		for x := 1; x <= N; x++ {
			nv[x] = v[x]*(1-up[x]-down[x]) + v[x-1]*up[x-1]
			if x < N {
				nv[x] += v[x+1] * down[x+1]
			}
			sum += nv[x]
		}
		diff := 0.0
		for x := 1; x <= N; x++ {
			nv[x] /= sum
			diff += math.Abs(nv[x] - v[x])
		}
		v, nv = nv, v
		if diff/2 < 1e-15 && it > 100 {
			return v[:N+1]
		}
	}
	t.Fatalf("power iteration did not converge")
	return nil
}

// QuasiStationary against plain power iteration (N = 10, 20, 30, small to
// large loss), against the transient law of Solve conditioned on survival
// long after the start, and at ε = 0 against Stationary. Power iteration
// stops at a change below 1e-15 a step; the change shrinks by at most
// 0.998 a step on these chains (measured: 0.987 at N = 10, 0.998 at
// N = 30), so it stops within 1e-15·0.998/0.002 = 5e-13 of its limit;
// QuasiStationary is within QSTol = 1e-11 of its own; 1e-10 in total
// variation covers both (measured: at most 1.6e-12).
func TestQuasiStationaryAgainstPowerIteration(t *testing.T) {
	sh := gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5}
	for _, tc := range []struct {
		N   int
		eps float64
	}{{10, 0.01}, {10, 0.5}, {20, 0.2}, {30, 0.05}, {30, 0.9}} {
		t.Run(fmt.Sprint(tc), func(t *testing.T) {
			cfg := Config{Nodes: tc.N, Shuffle: sh, Loss: tc.eps}
			nu, err := QuasiStationary(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			j, _ := cfg.jumps()
			ref := qsPower(t, tc.N, j)
			if tv := tvDist(nu, ref); tv > 1e-10 {
				t.Errorf("TV to power iteration %.3g: %v vs %v", tv, nu, ref)
			}
		})
	}
	t.Run("eps=0 is Stationary", func(t *testing.T) {
		cfg := Config{Nodes: 20, Shuffle: sh}
		nu, err := QuasiStationary(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		pi, _ := Stationary(cfg)
		if tv := tvDist(nu, pi); tv != 0 {
			t.Errorf("TV %g", tv)
		}
	})
}

// The law of X(t) given X(t) > 0 tends to the quasi-stationary law. At
// N = 20, ε = 0.3 (n = 50, c = 10, s = 5), from X = 4, at t = 300 rounds
// the per-shuffle law (stepped with no trimming), conditioned on survival,
// is within 1e-10 of QuasiStationary in total variation: the conditioned
// law approaches its limit as e^{−(θ₂−θ)t}, measured to fall by a factor
// ~7.5 every 20 rounds (7e-7 at t = 100, 3e-11 at t = 200, 2e-13 — rounding
// — from t = 240 on), while P(X(300) > 0) ≈ 0.03 is still large enough to
// condition on. Solve's continuous-time law gives E[X | X > 0] within
// 1e-8 (its bound, ~1e-13, divided by the survivors' mass 0.03, and the
// conditioned law's distance to its limit).
func TestQuasiStationaryAgainstLongTransient(t *testing.T) {
	sh := gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5}
	cfg := Config{Nodes: 20, Shuffle: sh, Loss: 0.3, ReplicationOnly: true, Initial: 4, TMax: 300, Dt: 100}
	nu, err := QuasiStationary(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Solve(context.Background(), cfg, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	// Solve reports summaries only; the law itself comes from the same
	// stepping (newLaw at rate N, no trimming) over 300·N shuffles.
	l := newLaw(cfg.Nodes, false, mustJumps(t, cfg), cfg.Initial, float64(cfg.Nodes))
	for range 300 * cfg.Nodes {
		l.step()
	}
	surv := 0.0
	for x := 1; x <= cfg.Nodes; x++ {
		surv += l.cur[x]
	}
	cond := make([]float64, cfg.Nodes+1)
	for x := 1; x <= cfg.Nodes; x++ {
		cond[x] = l.cur[x] / surv
	}
	last := res.Rows[len(res.Rows)-1]
	t.Logf("P(X(300) > 0): shuffles-time stepping %.6g, Solve (continuous) %.6g; ν(1) = %.4g", surv, 1-last.PExtinct, nu[1])
	if !(surv > 1e-3) {
		t.Fatalf("survival %g: too small to condition on", surv)
	}
	if tv := tvDist(nu, cond); tv > 1e-10 {
		t.Errorf("TV(QSD, law at t=300 given survival) = %.3g", tv)
	}
	// The mean of the conditioned Solve law (continuous time) too: E[X | X > 0]/N
	// = X.Mean/(1 − PExtinct).
	qm := 0.0
	for x, p := range nu {
		qm += float64(x) * p / float64(cfg.Nodes)
	}
	if got := last.X.Mean / (1 - last.PExtinct); math.Abs(got-qm) > 1e-8 {
		t.Errorf("E[X/N | X > 0] at t=300: %.12g, quasi-stationary %.12g", got, qm)
	}
}

func mustJumps(t *testing.T, cfg Config) Jumps {
	t.Helper()
	j, err := cfg.jumps()
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func tvDist(a, b []float64) float64 {
	s := 0.0
	for i := range max(len(a), len(b)) {
		var x, y float64
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		s += math.Abs(x - y)
	}
	return s / 2
}

// P(X(t) = 0) → 0 as ε → 0: it increases with ε, and it is below a bound
// derived from the model. d dies only from X = 1, at rate N·ℓ·1·(N−1)/D =
// ℓ a round (continuous time), so P(X(t) = 0) ≤ ℓ·E[time at X = 1 before
// t] ≤ ℓ·t, with ℓ = (1−ε)·ε·p·q ≤ ε·p·q. At ε = 10⁻⁶, N = 50, t = 20 that
// is ≤ 10⁻⁶·p·q·20. And P(X(t) = 0)/ε tends to a limit (the first-order
// term): it changes by less than 1 % between ε = 10⁻⁶ and 10⁻⁵.
func TestExtinctionVanishesWithLoss(t *testing.T) {
	sh := gossip.Shuffle{Items: 500, Cache: 100, Exchange: 50}
	p := approx.PSelect(sh)
	tr, _ := approx.TransitionsFor(approx.Simplified, sh)
	q := tr[approx.S10][approx.S01] / p // T(01|10) = p·q without loss
	const N, T = 50, 20
	prev, prevRatio := -1.0, 0.0
	for _, eps := range []float64{1e-6, 1e-5, 1e-3, 0.05, 0.2, 0.5} {
		cfg := Config{Nodes: N, Shuffle: sh, TMax: T, Dt: T, Loss: eps}
		res, err := Solve(context.Background(), cfg, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		pe := res.Rows[len(res.Rows)-1].PExtinct
		t.Logf("ε = %g: P(X(%d) = 0) = %.6g (bound ε·p·q·t = %.3g)", eps, T, pe, eps*p*q*T)
		if !(pe > prev) {
			t.Errorf("ε = %g: P(X(t) = 0) = %g, not above %g at the smaller ε", eps, pe, prev)
		}
		if pe > eps*p*q*T+res.Bound {
			t.Errorf("ε = %g: P(X(t) = 0) = %g above the bound ε·p·q·t = %g", eps, pe, eps*p*q*T)
		}
		ratio := pe / eps
		// 1e-3: P = aε + bε² + …, so P/ε moves by |b/a|·9e-6 between ε = 1e-6 and 1e-5; b/a ≈ −3.6 (from the ε = 1e-3 row, 3.7305 against 3.7439), measured 3.2e-5 relative: a margin of 30, while a P ∝ √ε would move it by a factor 3 (was 0.01).
		if eps == 1e-5 && math.Abs(ratio-prevRatio) > 1e-3*prevRatio {
			t.Errorf("P/ε = %g at 1e-5, %g at 1e-6: not first order", ratio, prevRatio)
		}
		prev, prevRatio = pe, ratio
	}
}

// The new fields are validated and Stationary refuses a loss.
func TestLossValidate(t *testing.T) {
	sh := gossip.Shuffle{Items: 50, Cache: 10, Exchange: 5}
	for _, eps := range []float64{-0.1, 1, math.NaN(), math.Inf(1)} {
		err := Config{Nodes: 10, Shuffle: sh, TMax: 1, Dt: 1, Loss: eps}.Validate()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != "Config.Loss" {
			t.Errorf("Loss %g: %v", eps, err)
		}
		if _, _, err := Lifetime(context.Background(), Config{Nodes: 10, Shuffle: sh, Loss: eps}); !errors.As(err, &fe) || fe.Field != "Config.Loss" {
			t.Errorf("Lifetime, Loss %g: %v", eps, err)
		}
		if _, err := QuasiStationary(context.Background(), Config{Nodes: 10, Shuffle: sh, Loss: eps}); !errors.As(err, &fe) || fe.Field != "Config.Loss" {
			t.Errorf("QuasiStationary, Loss %g: %v", eps, err)
		}
	}
	var fe *FieldError
	if _, err := Stationary(Config{Nodes: 10, Shuffle: sh, Loss: 0.1}); !errors.As(err, &fe) || fe.Field != "Config.Loss" {
		t.Errorf("Stationary with loss: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := QuasiStationary(ctx, Config{Nodes: 10, Shuffle: sh, Loss: 0.1}); !errors.Is(err, context.Canceled) {
		t.Errorf("QuasiStationary, cancelled: %v", err)
	}
	if _, _, err := Lifetime(ctx, Config{Nodes: 10, Shuffle: sh, Loss: 0.1}); !errors.Is(err, context.Canceled) {
		t.Errorf("Lifetime, cancelled: %v", err)
	}
	m, sd, err := Lifetime(context.Background(), Config{Nodes: 10, Shuffle: sh})
	if err != nil || !math.IsInf(m, 1) || !math.IsInf(sd, 1) {
		t.Errorf("lifetime without loss: %g %g %v, want +Inf", m, sd, err)
	}
}

// FuzzLossSolve feeds arbitrary values with a loss to Validate and, on a
// tiny accepted chain (N ≤ 6, TMax ≤ 4), to Solve, Lifetime and
// QuasiStationary: none may panic; Solve must succeed, PExtinct must be a
// probability, and the quasi-stationary law must sum to 1 (or be refused
// where the drop probability is 0, s = c).
func FuzzLossSolve(f *testing.F) {
	f.Add(4, 10, 4, 2, 1, 0.1, false, 3.0, 0.5)
	f.Add(2, 7, 4, 2, 2, 0.9, true, 1.0, 0.0)
	f.Add(6, 5, 5, 5, 0, 1e-9, false, 4.0, 1.0)
	f.Fuzz(func(t *testing.T, nodes, items, cache, exchange, initial int, eps float64, replOnly bool, tMax, level float64) {
		cfg := Config{Nodes: nodes, Shuffle: gossip.Shuffle{Items: items, Cache: cache, Exchange: exchange}, Initial: initial,
			ReplicationOnly: replOnly, TMax: tMax, Dt: tMax / 2, Level: level, Loss: eps}
		if cfg.Validate() != nil || nodes > 6 || !(tMax <= 4) || items > 50 {
			return
		}
		res, err := Solve(context.Background(), cfg, Settings{})
		if err != nil {
			t.Fatalf("%+v: Validate accepted, Solve: %v", cfg, err)
		}
		for _, r := range res.Rows {
			if !(r.PExtinct >= 0 && r.PExtinct <= 1) {
				t.Fatalf("PExtinct %g", r.PExtinct)
			}
		}
		if _, _, err := Lifetime(context.Background(), cfg); err != nil {
			t.Fatalf("Lifetime: %v", err)
		}
		nu, err := QuasiStationary(context.Background(), cfg)
		if err != nil {
			return // s = c: no drop, no law given survival to speak of
		}
		s := 0.0
		for _, p := range nu {
			s += p
		}
		// 1e-12: a sum of at most N + 1 ≤ 7 probabilities (the fuzz keeps N ≤ 6) of a law normalised to QSTol, each addition rounding ≤ 1.1e-16: far below 1e-12 (the solver's convergence, not rounding, is the margin).
		if math.Abs(s-1) > 1e-12 {
			t.Fatalf("quasi-stationary law sums to %v", s)
		}
	})
}
