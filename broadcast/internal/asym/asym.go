package asym

import (
	"context"
	"math"

	"github.com/gossipkit/gossipkit/broadcast/internal/pmf"
)

const (
	asymExactRows = 100
	// Cut is the default count up to which the start's chain runs.
	Cut      = 500
	asymGrid = 0.002
	asymTail = 1e-15
)

// Params are the configuration's figures the law uses: M live nodes of N
// (N1 = N − 1), fanout K, loss Eps, the live count Target to reach, and
// the protocol's pushes and pulls.
type Params struct {
	M, N1, K, Target int
	Eps              float64
	Push, Pull       bool
}

// Asym is the asymptotic law's model of one configuration.
type Asym struct {
	push, pull bool
	pbuf       []float64 // pullMissAt's buffer
	M, n1, k   int
	target     int
	cut        int
	eps        float64
	m, sigma2  float64 // branching mean and variance of offspring per round
	hbuf       []float64
	kern       [][]float64 // exactRow's sender kernels, kern[M−m] = K_m
	spreads    map[int]float64
	grid       float64 // the step of middle's grid
	bins       [][]float64
}

// New is the law's model of p, with the start's chain up to count cut.
func New(p Params, cut int) *Asym {
	a := &Asym{push: p.Push, pull: p.Pull, M: p.M, n1: p.N1, k: p.K,
		target: p.Target, eps: p.Eps}
	a.cut = min(max(cut, 2), a.M)
	// Offspring of one informed node per round while the count is small:
	// the step's mean and variance at i = 1 with U = M − 1.
	mu, v := a.step(1)
	a.m, a.sigma2 = 1+mu, v
	return a
}

// miss is π(i).
func (a *Asym) miss(i float64) float64 {
	p := 1.0
	if a.push {
		p *= pmf.PushMiss(i, a.k, a.n1, a.eps)
	}
	if a.pull {
		p *= a.pullMissAt(i)
	}
	return p
}

// step is the mean and the variance of the new count D from i informed,
// both exact: with π₁ = π(i) the chance that a given uninformed live node
// stays so and π₂ the chance that two given ones both do,
//
//	E[D] = U(1 − π₁),   Var D = U·π₁(1 − π₁) + U(U−1)(π₂ − π₁²).
//
// Pulls: the askers are independent, so they add nothing to π₂ − π₁².
// Pushes: one sender misses a given node with g₁ = 1 − a, a = k(1−ε)/(N−1),
// and two given nodes with g₂ = 1 − 2a + c, c = k(k−1)(1−ε)²/((N−1)(N−2))
// (it picks both, both arrive); senders are independent, so
// π₂ − π₁² = h²·(g₂^i − g₁^{2i}) = h²·g₁^{2i}·expm1(i·log1p((c − a²)/g₁²)),
// written so that nothing cancels while i ≪ N.
func (a *Asym) step(i int) (mu, v float64) {
	U := float64(a.M - i)
	fi := float64(i)
	h := 1.0
	if a.pull {
		if a.hbuf == nil {
			a.hbuf = make([]float64, 0, a.k+1)
		}
		h = pmf.PullMiss(a.hbuf, i, a.k, a.n1, a.eps)
	}
	pi1 := a.miss(fi)
	mu = U * (1 - pi1)
	v = U * pi1 * (1 - pi1)
	if a.push && U > 1 {
		N1, k, e := float64(a.n1), float64(a.k), a.eps
		pa := k * (1 - e) / N1
		c := 0.0
		if a.n1 > 1 {
			c = k * (k - 1) * (1 - e) * (1 - e) / (N1 * (N1 - 1))
		}
		g1 := 1 - pa
		if g1 > 0 {
			delta := h * h * math.Exp(2*fi*math.Log(g1)) * math.Expm1(fi*math.Log1p((c-pa*pa)/(g1*g1)))
			v += U * (U - 1) * delta
		} else {
			// Every sender reaches every peer (k = N−1, ε = 0): D = U.
			v = 0
		}
	}
	v = math.Min(math.Max(v, 0), mu)
	return mu, v
}

type asymRow struct {
	lo int
	p  []float64
}

// row is the law of the new count from i informed: the exact one-round
// law (ExactLaw's: the pull binomial, then the senders one by one) while
// i ≤ asymExactRows, and above it the binomial with the exact mean and
// variance (step), whose shape error falls like 1/√i.
func (a *Asym) row(i int) asymRow {
	// The exact row costs about i²k² (and k² a kernel): only for small
	// fanouts, where the step's shape matters most.
	if i <= asymExactRows && a.k <= 32 {
		return a.exactRow(i)
	}
	mu, v := a.step(i)
	if mu <= 0 {
		return asymRow{0, []float64{1}}
	}
	p := 1 - v/mu
	if p <= 0 {
		p = 1e-300
	}
	n := mu / p
	if U := float64(a.M - i); n > U {
		n = U
	}
	nn := math.Max(math.Round(n), 1)
	p = math.Min(mu/nn, 1)
	lo, w := pmf.BinWindow(nil, nn, p)
	return asymRow{lo, w}
}

// exactRow is the exact law of the new count from i informed, for any U:
// the pull binomial on its window, then the sender recursion with the
// kernels K_m computed for the m it meets.
func (a *Asym) exactRow(i int) asymRow {
	U := a.M - i
	var v []float64
	lo := 0
	if a.pull {
		h := pmf.PullMiss(a.hbuf, i, a.k, a.n1, a.eps)
		lo, v = pmf.BinWindow(nil, float64(U), 1-h)
	} else {
		v = []float64{1}
	}
	if !a.push {
		return asymRow{lo, v}
	}
	if a.bins == nil {
		a.bins = make([][]float64, a.k+1)
		for j := range a.bins {
			a.bins[j] = pmf.Bin(nil, j, 1-a.eps)
		}
	}
	// kern[M − m] is K_m, made on first use.
	kernel := func(m int) []float64 {
		idx := a.M - m
		for len(a.kern) <= idx {
			a.kern = append(a.kern, nil)
		}
		if K := a.kern[idx]; K != nil {
			return K
		}
		hy := pmf.Hyp(nil, a.k, m, a.n1)
		K := make([]float64, len(hy))
		for j, hj := range hy {
			for d, b := range a.bins[j] {
				K[d] += hj * b
			}
		}
		a.kern[idx] = K
		return K
	}
	// v[d] is P(H = lo + d).
	var w []float64
	for s := 0; s < i; s++ {
		w = pmf.Resize(w, len(v)+a.k)
		for d, p := range v {
			if p == 0 {
				continue
			}
			K := kernel(U - lo - d)
			for e, q := range K {
				w[d+e] += p * q
			}
		}
		// Trim the ends below 10⁻³⁰ (added to no bound: 10⁻³⁰ per
		// sender and row is below every stated accuracy).
		b, t := 0, len(w)-1
		for b < t && w[b] < 1e-30 {
			b++
		}
		for t > b && w[t] < 1e-30 {
			t--
		}
		lo += b
		v = append(v[:0], w[b:t+1]...)
	}
	return asymRow{lo, v}
}

// messages of a round from (real) i informed.
func (a *Asym) messages(i float64) float64 {
	m := 0.0
	U, k := float64(a.M)-i, float64(a.k)
	if a.push {
		m += i * k
	}
	if a.pull {
		m += U*k + U*k*i/float64(a.n1)*(1-a.eps)
	}
	return m
}

// Law is the law's P(T_L = t) (trimmed of a tail of zeros), its messages
// per live node, and the mass it lost (past the round caps, or dropped
// below 10⁻²⁵), which Dev adds to the stated accuracy.
func (a *Asym) Law(ctx context.Context) (law []float64, messages, lost float64, err error) {
	M, target, cut := a.M, a.target, a.cut
	var pmfAll []float64 // P(T_L = t), accumulated
	addPMF := func(t int, p float64) {
		for len(pmfAll) <= t {
			pmfAll = append(pmfAll, 0)
		}
		pmfAll[t] += p
	}
	pmfA := []float64{0} // reached in phase 1
	if target <= 1 {
		pmfA[0] = 1
	}
	msgs := 0.0
	// Phase 1.
	dist := make([]float64, cut)
	next := make([]float64, cut)
	rows := make([]asymRow, cut)
	have := make([]bool, cut)
	if target > 1 {
		dist[1] = 1
	}
	var exits []exitMass
	remaining := 1.0
	if target <= 1 {
		remaining = 0
	}
	for r := 1; remaining > asymTail; r++ {
		if err := ctx.Err(); err != nil {
			return nil, 0, 0, err
		}
		if r > 100_000 {
			lost += remaining
			break
		}
		clear(next)
		reached := 0.0
		var ex []float64
		for i := 1; i < cut; i++ {
			p := dist[i]
			if p == 0 {
				continue
			}
			if p < 1e-25 {
				lost += p
				continue
			}
			if !have[i] {
				rows[i], have[i] = a.row(i), true
			}
			msgs += p * a.messages(float64(i))
			row := rows[i]
			for d, q := range row.p {
				j := i + row.lo + d
				pq := p * q
				switch {
				case j >= target:
					reached += pq
				case j < cut:
					next[j] += pq
				default:
					for len(ex) <= j-cut {
						ex = append(ex, 0)
					}
					ex[j-cut] += pq
				}
			}
		}
		pmfA = append(pmfA, reached)
		if len(ex) > 0 {
			exits = append(exits, exitMass{r, ex})
		}
		dist, next = next, dist
		remaining = 0
		for _, p := range dist {
			remaining += p
		}
	}
	for t, p := range pmfA {
		addPMF(t, p)
	}
	// Phases 2 and 3: on a grid in log-odds.
	if len(exits) > 0 {
		if err := a.middle(ctx, exits, cut, addPMF, &msgs, &lost); err != nil {
			return nil, 0, 0, err
		}
	}
	law = pmfAll
	// Trim a tail of round-off zeros.
	for len(law) > 1 && law[len(law)-1] == 0 {
		law = law[:len(law)-1]
	}
	return law, msgs / float64(M), lost, nil
}

// exitMass is the mass leaving phase 1 in round r, by count (x[d] at
// count cut + d).
type exitMass struct {
	r int
	x []float64
}

// middle spreads each exit (r, x) over the grid in log y by the Normal law
// of log W_x, then adds, for every grid point, the end phase's CDF
// increments from round r on.
func (a *Asym) middle(ctx context.Context, exits []exitMass, cut int, addPMF func(int, float64), msgs, lost *float64) error {
	M := float64(a.M)
	xmax := 0
	rmin, rmax := exits[0].r, exits[0].r
	for _, e := range exits {
		xmax = max(xmax, cut+len(e.x)-1)
		rmin, rmax = min(rmin, e.r), max(rmax, e.r)
	}
	// The grid is in the log-odds z = log(y/(M−y)): for y ≪ M it is log y,
	// and W multiplies the count; near M it keeps the grid's relative
	// step on the uninformed count M − y, and W, whose randomness was
	// spent before the count neared M, multiplies the odds (the logistic
	// form of a time shift).
	odds := func(x float64) float64 { return math.Log(x / (M - x)) }
	smax := a.spread(float64(cut))
	// The grid's step: asymGrid, or s/16 where the spread is wide (a small
	// cut), so that a spread covers ~200 points; its error is in DevP.
	a.grid = math.Max(asymGrid, smax/16)
	g0 := odds(float64(cut)) - 7*smax - a.grid
	g1 := odds(float64(xmax)) + 7*smax + a.grid
	G := int((g1-g0)/a.grid) + 2
	mass := make([][]float64, rmax-rmin+1) // mass[r−rmin][g]
	for j := range mass {
		mass[j] = make([]float64, G)
	}
	add := func(w []float64, z, p float64) {
		f := (z - g0) / a.grid
		g := int(math.Floor(f))
		g = min(max(g, 0), G-2)
		th := math.Min(math.Max(f-float64(g), 0), 1)
		w[g] += p * (1 - th)
		w[g+1] += p * th
	}
	// First the exits on the grid (split linearly between the two
	// nearest points), then each grid point's mass spread by the Normal
	// law of log W at its count: log W ~ Normal(−s²/2, s²), on points at
	// spacing a.grid within ±6.5 s.
	raw := make([]float64, G)
	gauss := map[int][]float64{}
	for _, e := range exits {
		clear(raw)
		for d, p := range e.x {
			if p != 0 {
				add(raw, odds(float64(cut+d)), p)
			}
		}
		w := mass[e.r-rmin]
		for g, p := range raw {
			if p == 0 {
				continue
			}
			z := g0 + float64(g)*a.grid
			s := a.spread(M / (1 + math.Exp(-z)))
			if s < a.grid/4 {
				w[g] += p
				continue
			}
			// Weights of the nodes k = −n…n, memoised by s to 1 %.
			sk := int(math.Round(math.Log(s) / 0.01))
			ws, ok := gauss[sk]
			if !ok {
				sq := math.Exp(float64(sk) * 0.01)
				n := int(6.5*sq/a.grid) + 1
				ws = make([]float64, 2*n+1)
				tot := 0.0
				for k := -n; k <= n; k++ {
					u := float64(k) * a.grid / sq
					ws[k+n] = math.Exp(-u * u / 2)
					tot += ws[k+n]
				}
				for k := range ws {
					ws[k] /= tot
				}
				gauss[sk] = ws
			}
			n := (len(ws) - 1) / 2
			// All nodes share the fractional offset of the mean −s²/2.
			f := float64(g-n) - s*s/2/a.grid
			gb := int(math.Floor(f))
			th := f - float64(gb)
			for k, q := range ws {
				j := gb + k
				if j >= 0 && j+1 < G {
					w[j] += p * q * (1 - th)
					w[j+1] += p * q * th
				} else {
					add(w, g0+float64(j)*a.grid+th*a.grid, p*q)
				}
			}
		}
	}
	// The end phase from every grid point with mass.
	m0 := float64(a.M - a.target)
	for g := 0; g < G; g++ {
		if g&255 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		tot := 0.0
		for j := range mass {
			tot += mass[j][g]
		}
		if tot == 0 {
			continue
		}
		z := g0 + float64(g)*a.grid
		// F_s = P(T_L ≤ r + s | y) = P(U_s ≤ M − ⌈L·M⌉), s = 0, 1, …, with
		// U_s the uninformed live count: mean (M−y)·ρ_s, and the variance
		// of its own steps carried without the feedback of the count on π,
		// V_{s+1} = π_s²·V_s + v(i_s) (for pull the binomial variance of
		// independent escapes; for push smaller, the distinct peers of a
		// sender). Its law is the binomial with that mean and variance.
		var F []float64
		var ms []float64
		n := M / (1 + math.Exp(z)) // M − y without cancellation
		i, mu, V := M-n, n, 0.0
		for s := 0; ; s++ {
			F = append(F, pmf.UninformedCDF(mu, V, m0))
			if F[s] >= 1-1e-16 || s > 100_000 {
				break
			}
			ms = append(ms, a.messages(i))
			pi := a.miss(i)
			iw := min(max(int(math.Round(i)), 1), a.M-1)
			_, v := a.step(iw)
			v *= mu / float64(a.M-iw) // the step's variance scales with U
			mu *= pi
			V = pi*pi*V + v
			i = M - mu
		}
		for j := range mass {
			p := mass[j][g]
			if p == 0 {
				continue
			}
			r := rmin + j
			prev := 0.0
			for s, f := range F {
				addPMF(r+s, p*(f-prev))
				prev = f
				if s < len(ms) {
					*msgs += p * (1 - f) * ms[s]
				}
			}
			*lost += p * (1 - prev) // past the round cap
		}
	}
	return nil
}

// spread is the sd, in log-odds, of the randomness still to come from a
// count x that the end phase does not carry. By the linear noise
// approximation along the mean-field path i_0 = x, i_{t+1} = M − (M −
// i_t)π(i_t), to the round T at which M − i_T reaches M − ⌈L·M⌉ + 1/2, the
// noise ξ_t of step t (variance v(i_t), step) reaches i_T multiplied by
// Π_{t<u<T} J_u, J_u = ∂i_{u+1}/∂i_u = π(i_u) − (M − i_u)π'(i_u). The end
// phase's binomial already carries it multiplied by Π_{t<u<T} π(i_u) (the
// escapes without the feedback of the count on π); the rest,
//
//	V = Σ_t v(i_t)·[(Π_{t<u<T} J_u)² − (Π_{t<u<T} π(i_u))²],
//
// is put back as a change of the exit count, V/(Π_{u<T} J_u)², on the
// log-odds scale dz/dx = M/(x(M−x)). While x ≪ M (J = m, π ≈ 1,
// v = σ²·i) this is σ²/(m(m−1)x), the variance of log W_x of a
// Galton–Watson process (Athreya and Ney). Memoised on a grid of x at
// relative step 0.5 %.
func (a *Asym) spread(x float64) float64 {
	key := int(math.Round(math.Log(x) / 0.005))
	if s, ok := a.spreads[key]; ok {
		return s
	}
	M := float64(a.M)
	goal := float64(a.M-a.target) + 0.5
	var vs, js, ps []float64
	for i, t := x, 0; t < 10_000 && M-i > goal; t++ {
		pi := a.miss(i)
		dpi := a.miss(math.Min(i+0.5, M)) - a.miss(math.Max(i-0.5, 0))
		_, v := a.step(min(int(math.Round(i)), a.M-1))
		vs, js, ps = append(vs, v), append(js, pi-(M-i)*dpi), append(ps, pi)
		i = M - (M-i)*pi
	}
	A, B, V := 1.0, 1.0, 0.0
	for t := len(vs) - 1; t >= 0; t-- {
		V += vs[t] * (A*A - B*B)
		A *= js[t]
		B *= ps[t]
	}
	s := 0.0
	if A > 0 && V > 0 {
		s = M / (x * (M - x)) * math.Sqrt(V) / A
	}
	if a.spreads == nil {
		a.spreads = map[int]float64{}
	}
	a.spreads[key] = s
	return s
}

// Dev bounds every |ΔP(T_L ≤ t)| of the law pmf that lost the mass lost
// (the package comment): the closure's 1/√M, the spread's skewness, the
// grid's interpolation and lost.
func (a *Asym) Dev(pmf []float64, lost float64) float64 {
	M := float64(a.M)
	lnm := math.Log(math.Max(a.m, 1+1e-9))
	pmax := 0.0
	for _, p := range pmf {
		pmax = math.Max(pmax, p)
	}
	eClose := 1 / math.Sqrt(M)
	eSpread := 0.0
	if a.cut < a.target {
		eSpread = 2 * pmax * a.spread(float64(a.cut)) / (lnm * math.Sqrt(float64(a.cut)))
	}
	eGrid := 2 * a.grid * a.grid / (lnm * lnm) // a.grid is 0 without exits
	return math.Min(eClose+eSpread+eGrid+lost+1e-12, 1)
}

// Cut is the count up to which the start's chain runs.
func (a *Asym) Cut() int { return a.cut }

// pullMissAt is the pull miss at real i (pmf.PullMissAt).
func (a *Asym) pullMissAt(i float64) float64 {
	if a.pbuf == nil {
		a.pbuf = make([]float64, 0, a.k+1)
	}
	return pmf.PullMissAt(a.pbuf, i, a.M, a.k, a.n1, a.eps)
}
