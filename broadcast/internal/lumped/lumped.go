package lumped

import (
	"context"
	"math"
	"runtime"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gossipkit/gossipkit/broadcast/internal/pmf"
	"github.com/gossipkit/gossipkit/internal/parallel"
	"github.com/gossipkit/gossipkit/internal/rng"
)

const (
	// lumpedRuns is the number of runs of the law (fixed: the law is a
	// function of the configuration).
	lumpedRuns = 20_000
	// lumpedMoreRuns is the most runs a law adds ×4 at a time, as a
	// multiple of lumpedRuns, where a deadline's chance of a miss is
	// less accurate than lumpedRunsRelErr (wantsRuns, nextRuns). At 4 (80,000
	// runs) deep deadlines were left with 3 standard errors of 6 % of
	// the chance; at 16 (up to 320,000 runs) they halve.
	lumpedMoreRuns = 16
	// lumpedMaxRuns bounds, as a multiple of lumpedRuns, the one pass
	// past lumpedMoreRuns that brings a deadline's chance within the 5 %
	// an answer aims at where the closure leaves the runs less than their
	// usual share (nextRuns): up to 1,280,000 runs, about 12 s.
	lumpedMaxRuns = 64
	// lumpedRunsRelErr is the runs' share (zValue standard errors,
	// relative) of a deadline's chance of a miss below which no runs are
	// added: half of the 5 % an answer aims at, or less where the closure
	// leaves less (runsRel).
	lumpedRunsRelErr = 0.025
	// lumpedSeed is their seed.
	lumpedSeed = 0x6c756d706564
	// lumpedWatch is the count of uninformed live nodes below which a run
	// stops drawing counts and computes the rest.
	lumpedWatch = 64
	// tailHandover and tailMaxU: a run of a protocol with pulls hands its
	// U ≤ tailMaxU uninformed to the pulls' chain (pullTail) once the
	// round's expected count left is at most Watch/tailHandover, so
	// that the chain's counts after that round stay within Watch (the
	// count left is then about Poisson(8) at most, beyond 64 with a chance
	// below 10⁻³⁰; the chain drops the counts below 10⁻²⁰ of its mass), and
	// with it the range of the nodes it has push at their mean count
	// (WatchErr). The chain's first round costs U.
	tailHandover = 8
	tailMaxU     = 1 << 16
	// MaxRounds bounds R = ⌈B/k⌉ (the cohorts a run tracks).
	MaxRounds = 512
	// lumpedMaxT bounds the rounds of a run; mass beyond is in DevP.
	lumpedMaxT = 100_000
)

// Params are the configuration's figures the model uses: M live nodes
// of N (N1 = N − 1), fanout K, budget B in R = ⌈B/K⌉ rounds of pushes,
// loss Eps, pulls as well (push–pull), the live count Target to reach, D
// deadline rounds (0: none) and Z, the standard errors a stated interval
// spans.
type Params struct {
	M, N1, K, R, Budget, Target, D int
	Eps, Z                         float64
	Pulls                          bool
	// NoPushes makes the model a pull alone (Pulls set): no node pushes,
	// whatever K and Budget (K is then the pull fanout; Budget 0).
	NoPushes bool
}

// Model is the large-N law's model of one configuration.
type Model struct {
	M, n1, k, R      int
	budget           int
	z                float64
	target, allow    int
	eps              float64
	pulls            bool
	lgk, lgl, dk, dl float64 // log(1 − a_j), log(g_j/(1 − a_j)²)
	D                int     // deadline rounds (0: none)
	// Runs and Watch are lumpedRuns and lumpedWatch (tests change them).
	Runs  int
	Watch float64
	// Floor: a chance whose runs' upper end (the value, z standard errors
	// and the hole) is below it is not refined by more runs (0: every one
	// is); the answers' range, 10⁻¹², or a target below it.
	Floor float64
	// Closure and Extra are what the answer adds to the runs' error of a
	// deadline's chance of a miss q: the factor e^{±Closure·ln(1/q)} and
	// the relative Extra (0, 0: none). Where they leave less than the
	// runs' share of the 5 % an answer aims at, the runs go on until
	// they fit what is left (runsRel).
	Closure, Extra float64
	// IS, if set, tilts the start (is.go).
	IS *IS
	// entrySeed is DeadlineLaw's seed (entrySeedBase; tests vary it).
	entrySeed uint64
	// Seed, if not 0, is mixed into the seed of every run the model
	// draws (Law's, the tilted runs', DeadlineLaw's): an answer is a
	// function of the configuration, so only the tests that measure an
	// estimate's spread over seeds set it.
	Seed uint64
	// stall, with pulls and a deadline, is the source's forced stall
	// (stall.go).
	stall Stall
}

// New is the model of p.
func New(p Params) *Model {
	m := &Model{M: p.M, n1: p.N1, k: p.K, R: p.R, budget: p.Budget, z: p.Z,
		eps: p.Eps, pulls: p.Pulls, target: p.Target, D: p.D,
		Runs: lumpedRuns, Watch: lumpedWatch, entrySeed: entrySeedBase}
	last := p.Budget - m.k*(m.R-1) // the pushes of a sender's last round
	m.allow = m.M - m.target
	N1 := float64(m.n1)
	f := func(j int) (lg, d float64) {
		fj := float64(j)
		a := fj * (1 - m.eps) / N1
		c := 0.0
		if m.n1 > 1 {
			c = fj * (fj - 1) * (1 - m.eps) * (1 - m.eps) / (N1 * (N1 - 1))
		}
		g1 := 1 - a
		return math.Log1p(-a), math.Log1p((c - a*a) / (g1 * g1))
	}
	if !p.NoPushes {
		m.lgk, m.dk = f(m.k)
		m.lgl, m.dl = f(last)
	}
	m.setStall()
	return m
}

// WatchErr is the relative error, e^{w²/8} − 1, that the pushes of the
// last nodes, taken at their mean count, put in a node's chance of
// escaping, where w = Watch·B·(1−ε)/(N−1) bounds those pushes' exponent
// (the push tail's comment in run).
func WatchErr(w float64) float64 { return math.Expm1(w * w / 8) }

// runOut is what one run contributes.
type runOut struct {
	F                     []float64 // P(T_L ≤ t | run), t = 0, 1, …; constant after
	late                  float64   // P(T_L > D | run)
	resD, res, miss, msgs float64
	early                 bool // the run ended with more than lumpedWatch uninformed
	// forced is whether the source's stall was forced, stratum its
	// stall's stratum (stall.go).
	forced  bool
	stratum int
	// startT and startI, where startI > 0, start the run at the end of
	// round startT with startI informed (entry.go), all of them fresh
	// senders, or, where startCoh is set, in those cohorts (coh's).
	startT   int
	startI   float64
	startCoh []float64
	// path, if not nil, receives the informed count after each of its
	// rounds; lr is the run's likelihood ratio (1 untilted); sc is the
	// tilted start's scratch.
	path []float64
	lr   float64
	sc   *isScratch
	v, w []float64 // pullTail's scratch
	// tiltStart draws the run's first tiltRounds rounds toward slow
	// outcomes (tiltedDraw); qw is the weight its values carry (1 where
	// nothing is tilted).
	tiltStart bool
	qw        float64
	win       []float64 // tiltedDraw's scratch
	// entryStall is the forced stall of a run from a computed start
	// (startI > 0) whose source is still alone there (none else).
	entryStall Stall
}

// pushLaw is the law of the pushed count of a round with Uq uninformed
// live nodes left after the pulls and S + SL senders: c + Binomial(n, p)
// (n = 0: the constant c), the binomial of the step's exact mean and
// variance (the comment at the top).
func (m *Model) pushLaw(Uq, S, SL float64) (n, p, c float64) {
	pi1 := math.Exp(S*m.lgk + SL*m.lgl)
	mu := Uq * (1 - pi1)
	v := Uq*pi1*(1-pi1) + Uq*(Uq-1)*pi1*pi1*math.Expm1(S*m.dk+SL*m.dl)
	v = math.Min(math.Max(v, 0), mu)
	switch {
	case mu <= 0:
		return 0, 0, 0
	case v <= 0:
		return 0, 0, math.Round(mu)
	}
	q := 1 - v/mu
	if n := math.Min(math.Round(mu/q), Uq); n >= 1 {
		return n, math.Min(mu/n, 1), 0
	}
	return 0, 0, 0
}

// tiltLambda, tiltPower and tiltRounds: tiltedDraw's density of a
// quantile u is g(u) = λ + (1 − λ)·a·u^{a−1}, a share λ uniform (so that
// a weight 1/g is at most 1/λ) and the rest drawn as V^{1/a}, V uniform,
// which puts a quantile below 10⁻⁵ (a count met once in 10⁵ runs) in one
// run of 350; it draws the first tiltRounds rounds after the computed
// start, and every round with no sender left while fewer than
// EntryCount are informed (a stall, but the source's alone, whose stall
// is forced). Chosen over 18 combinations (a 0.1–0.65, 1–4 rounds) at the two
// settings in tiltedDraw's comment, where 320,000 runs stated 2.1–2.7 %
// and 1.4–7 %; one round of a 0.2 left 8.8 % and 10.5 %, three of a 0.1
// made it worse (16–27 %).
const (
	tiltLambda = 0.1
	tiltPower  = 0.5
	tiltRounds = 2
)

// tiltedDraw is draw's count (the pulled Binomial(U, 1 − hh), then
// pushLaw's) with each binomial inverted at a quantile u drawn from the
// density g above rather than uniformly, and the weight Π 1/g(u) that
// makes the run's values unbiased (E_g[f(u)/g(u)] = ∫ f for any f). A
// lower quantile is a smaller count, and a deep deadline's value falls
// steeply with the count: after a
// computed start that stops at the round before the first sender's last
// (entry.go), that round's draw explained 91 % of P(T_L > D)'s variance
// at N 12,000, k 1, B 4, D 14, and all of the chance a node is uninformed
// at D at N 12,000, k 3, φ 0.05, B 5, D 8, where one run in 200,000, its
// count 4 against a median of 42, carried 56 % of the mean. Each binomial
// is inverted on pmf.BinWindow's window (terms above 10⁻²⁵ of the mode).
func (m *Model) tiltedDraw(r *rng.Rand, U, S, SL, hh float64, out *runOut) (d, w float64) {
	w = 1
	inv := func(n, p float64) float64 {
		u := r.Float64()
		if r.Float64() >= tiltLambda {
			u = math.Pow(r.Float64(), 1/tiltPower)
		}
		w /= tiltLambda + (1-tiltLambda)*tiltPower*math.Pow(u, tiltPower-1)
		lo, pm := pmf.BinWindow(out.win, n, p)
		out.win = pm
		x := 0
		for c := pm[0]; c < u && x < len(pm)-1; {
			x++
			c += pm[x]
		}
		return float64(lo + x)
	}
	Dp := 0.0
	if hh < 1 && U > 0 {
		Dp = inv(U, 1-hh)
	}
	n, p, c := m.pushLaw(U-Dp, S, SL)
	if n >= 1 {
		return Dp + c + inv(n, p), w
	}
	return Dp + c, w
}

// run draws one run from the stream r into out.
func (m *Model) run(r *rng.Rand, coh []float64, hbuf []float64, out *runOut) {
	fM := float64(m.M)
	clear(coh)
	coh[0] = 1 // the source, to push in round 1
	i, U := 1.0, fM-1
	if out.startI > 0 {
		// A run from a count entered at round startT (entry.go): every
		// node informed is a sender yet.
		coh[0], i, U = out.startI, out.startI, fM-out.startI
		if out.startCoh != nil {
			copy(coh, out.startCoh)
		}
	}
	out.F = out.F[:0]
	reached := func() float64 {
		if i >= float64(m.target) {
			return 1
		}
		return 0
	}
	for range out.startT {
		out.F = append(out.F, 0)
	}
	out.F = append(out.F, reached())
	out.late, out.resD, out.early = math.NaN(), math.NaN(), false
	msgs := 0.0
	senders := func() (S, SL float64) {
		for a := 0; a < m.R-1; a++ {
			S += coh[a]
		}
		return S, coh[m.R-1]
	}
	age := func(D float64) {
		copy(coh[1:], coh[:m.R-1])
		coh[0] = D
	}
	h := func() float64 {
		if !m.pulls {
			return 1
		}
		return pmf.PullMiss(hbuf, int(i), m.k, m.n1, m.eps)
	}
	pullMsgs := func(U float64) float64 {
		if !m.pulls {
			return 0
		}
		return U * float64(m.k) * (1 + i/float64(m.n1)*(1-m.eps))
	}
	bin := distuv.Binomial{Src: r}
	// draw is the count of the U uninformed live nodes that a round with
	// S + SL senders and pull miss hh informs. The pulls first, drawn
	// exactly: given i, each uninformed node's requests fail independently
	// of the others' (probability hh), so the pulled count is
	// Binomial(U, 1 − hh); the pushes then reach the U − Dp left, a
	// uniformly random subset of that size, drawn with the binomial of the
	// step's exact mean and variance.
	draw := func(U, S, SL, hh float64) float64 {
		Dp := 0.0
		if hh < 1 && U > 0 {
			bin.N, bin.P = U, 1-hh
			Dp = bin.Rand()
		}
		n, p, c := m.pushLaw(U-Dp, S, SL)
		if n >= 1 {
			bin.N, bin.P = n, p
			return Dp + c + bin.Rand()
		}
		return Dp + c
	}
	t := out.startT
	llr := 0.0
	out.qw = 1
	// forced is the round until which the source is made to stall
	// (stall.go), stall the rounds it did stall, so far. A run from a
	// computed start (startI > 0) stalls by its own law, entryStall, from
	// that start: the source still alone there (entry.go).
	st := m.stall
	if out.startI > 0 {
		st = out.entryStall
	}
	forced, stall := 0, 0
	if st.Forced() {
		forced = out.startT + st.Draw(r)
	}
	handover := false // the pulls' chain takes over above Watch
	for ; U > m.Watch && t < lumpedMaxT; t++ {
		S, SL := senders()
		if S+SL == 0 && !m.pulls {
			break
		}
		open := st.Forced() && i == 1 // the stall's stratum still open
		hh := -1.0                    // the round's pull miss h(), once computed
		if m.pulls && !open && t >= forced && (m.IS == nil || t >= m.IS.rounds) && U <= tailMaxU {
			hh = h()
		}
		if hh >= 0 && U*hh*math.Exp(S*m.lgk+SL*m.lgl) <= m.Watch/tailHandover {
			// Few of the U are expected to be left after this round:
			// the chain takes them from here (pullTail), their count
			// after it carried as its law rather than drawn. A drawn
			// count there decides a deep deadline's value: at N 20,000,
			// k 1, D 14 the count left at the round the chain took over
			// explained all of P(T_L > D)'s variance across runs, the
			// rare runs left with 2–4 at round 12 carrying most of it,
			// and 1.3·10⁶ runs stated it within 18 %.
			handover = true
			break
		}
		msgs += pullMsgs(U)
		var D float64
		rb := false // the deadline's values are the round's conditional ones
		switch {
		case t < forced:
		case m.IS != nil && t < m.IS.rounds && !open:
			var l float64
			D, l = m.isDraw(r, t, i, out.sc)
			llr += l
		default:
			if hh < 0 {
				hh = h()
			}
			if t+1 == m.D && !open {
				// The deadline's round: given the state, each of the U
				// escapes it with the chance p = h·π₁ (the model's own
				// mean), so the chance a given node is uninformed at D is
				// U·p/M exactly and P(T_L > D) is the binomial end's
				// P(Binomial(U, p) > U − ⌈L·M⌉), computed rather than
				// read off the draw: a drawn U at D sees a node's escape
				// of 10⁻⁷ once in 10⁷ runs (push–pull at N 1,000, k 3,
				// φ 0.02, D 6 was 41 % low). Not where the stall's
				// stratum is still open (its round decides it).
				p := hh * math.Exp(S*m.lgk+SL*m.lgl)
				if U-float64(m.allow) <= 1e5 {
					out.late, out.resD, rb = pmf.BinTail(int(U), p, m.allow), U*p/fM, true
				}
			}
			if out.tiltStart && !open && (t < out.startT+tiltRounds || S+SL == 0 && i < float64(m.EntryCount())) {
				var w float64
				D, w = m.tiltedDraw(r, U, S, SL, hh, out)
				out.qw *= w
			} else {
				D = draw(U, S, SL, hh)
			}
		}
		if i == 1 && D == 0 {
			stall++
		}
		age(D)
		i += D
		U -= D
		if t < len(out.path) {
			out.path[t] = i
		}
		out.F = append(out.F, reached())
		if t+1 == m.D && !rb {
			out.late, out.resD = 1-out.F[t+1], U/fM
		}
	}
	out.lr = math.Exp(llr) * st.Weight(stall)
	out.forced, out.stratum = forced > 0, st.Stratum(stall)
	if !handover && (U > m.Watch || t >= lumpedMaxT) {
		// No node can act (or the rounds ran out): the U left are missed.
		out.early = U > m.Watch
		out.res, out.miss = U/fM, 1
		if U == 0 {
			out.miss = 0
		}
		if m.D > t {
			out.late, out.resD = 1-out.F[t], U/fM
		}
		out.msgs = (msgs + float64(m.budget)*i) / fM
		return
	}
	if m.pulls {
		m.pullTail(U, t, msgs, senders, age, hbuf, out)
		return
	}
	// The last U* ≤ lumpedWatch: their escape chance q(t), given the
	// senders the cohorts have left and those the others of the U* become
	// once informed, at their mean count (U* − 1)·(q(t−1) − q(t)): a
	// node's escape is e^{−Y}, Y the others' pushes at it, Y in [0, w] with
	// w = U*·B(1−ε)/(N−1), so by Jensen and Hoeffding's lemma E[e^{−Y}] is
	// e^{−E[Y]} times a factor in [1, e^{w²/8}] (WatchErr).
	Us := U
	q := 1.0
	lateAt := func(q float64) float64 { return pmf.BinTail(int(Us), q, m.allow) }
	for ; t < lumpedMaxT; t++ {
		S, SL := senders()
		if S+SL < 1e-12 {
			break
		}
		if Us == 0 || q*Us < 1e-17 && t >= m.D { // on to D, as pullTail
			q = 0
			break
		}
		q0 := q
		q *= math.Exp(S*m.lgk + SL*m.lgl)
		age((Us - 1) * (q0 - q))
		out.F = append(out.F, 1-lateAt(q))
		if t+1 == m.D {
			out.late, out.resD = lateAt(q), Us*q/fM
		}
	}
	if m.D > t {
		out.late, out.resD = lateAt(q), Us*q/fM
	}
	out.res = Us * q / fM
	out.miss = -math.Expm1(Us * math.Log1p(-q))
	out.msgs = (msgs + float64(m.budget)*(fM-Us*q)) / fM
}

// pullTail ends a push–pull run from round t with the last U ≤
// lumpedWatch live nodes uninformed, the cohorts' pushes as they are and
// msgs the messages so far. Its pulls cannot be taken at the informed
// count reached: each node's pull miss h falls with the count left (for
// lossless k = 1 it is about u/(N−1) with u left), so the last nodes'
// escapes compound and a count frozen at the watch overstates the tail
// (at N 2,000, k 1, D 11–12 by 5 and 7,000 times against the exact chain).
// So the count left, u, is followed exactly as a chain on 0…U: given u,
// each of the u escapes the round independently with probability
// h(M − u)·(1 − a_k)^S·(1 − a_l)^{S_l} (pulls independent given the
// count; pushes to distinct peers nearly so, the closure of the counts),
// and the distribution of u is carried round by round (the nodes
// informed meanwhile push from the next round at their mean count, as in
// run's push tail: WatchErr). P(T_L ≤ t), the mean count left and the chance some node is left
// are then sums over that distribution: no sampling, and every tail value
// keeps its digits.
func (m *Model) pullTail(U float64, t int, msgs float64, senders func() (float64, float64), age func(float64), hbuf []float64, out *runOut) {
	fM := float64(m.M)
	top := int(U)
	v := grow(out.v[:0], top+1)
	w := grow(out.w[:0], top+1)
	out.v, out.w = v, w
	clear(v)
	v[top] = 1
	kf, n1 := float64(m.k), float64(m.n1)
	stats := func() (late, mean float64) {
		for u := top; u >= 1; u-- {
			if u > m.allow {
				late += v[u]
			}
			mean += float64(u) * v[u]
		}
		return late, mean
	}
	_, mean0 := stats()
	for ; t < lumpedMaxT; t++ {
		// On to D at least: a value carried past the round it stopped at
		// is that round's, not D's (at N 12,000, k 1, B 4, ε 0, p_late
		// stayed 4.538e-19 from D 16 to D 21).
		if mean0 < 1e-17 && t >= m.D {
			break
		}
		S, SL := senders()
		push := math.Exp(S*m.lgk + SL*m.lgl)
		clear(w[:top+1])
		w[0] = v[0]
		for u := 1; u <= top; u++ {
			if v[u] == 0 {
				continue
			}
			fu := float64(u)
			i := m.M - u
			msgs += v[u] * fu * kf * (1 + float64(i)/n1*(1-m.eps))
			p := pmf.PullMiss(hbuf, i, m.k, m.n1, m.eps) * push // a node's escape
			if p >= 1 {
				w[u] += v[u]
				continue
			}
			// Binomial(u, p) by the ratio of its terms: positive
			// products, so each keeps its relative digits.
			pmf := v[u] * math.Exp(fu*math.Log1p(-p))
			r := p / (1 - p)
			for j := 0; j <= u; j++ {
				w[j] += pmf
				pmf *= (fu - float64(j)) / float64(j+1) * r
			}
		}
		v, w = w, v
		// Counts whose chance is below 1e-20 of the mean count's and of
		// the chance of any miss change neither beyond that share: drop
		// them, or the chain's cost stays top² a round long after the
		// mass has moved down.
		total := 0.0
		for u := 1; u <= top; u++ {
			total += v[u]
		}
		for top > 0 && float64(top)*v[top] <= 1e-20*total {
			total -= v[top]
			v[top] = 0
			top--
		}
		// The nodes informed this round push from the next, at their
		// mean count (the push tail's comment above).
		late, mean := stats()
		age(math.Max(mean0-mean, 0))
		mean0 = mean
		out.F = append(out.F, 1-late)
		if t+1 == m.D {
			out.late, out.resD = late, mean/fM
		}
	}
	late, mean := stats()
	if m.D > t {
		out.late, out.resD = late, mean/fM
	}
	out.res, out.miss = mean/fM, 0
	for u := 1; u <= top; u++ {
		out.miss += v[u]
	}
	out.msgs = (msgs + float64(m.budget)*(fM-mean)) / fM
}

// Sums accumulates runs: Σ F(t) and Σ F(t)² by t (with each run's
// last value carried on), and the sums and squares of the run values, of
// the runs whose source's stall was not forced (all where none is:
// stall.go) in N; and the deadline's chances of a miss of every run, by
// its stall's stratum (Deadline).
type Sums struct {
	F, F2, Tail, Tail2 []float64
	N                  float64
	Res, Miss          [2]float64
	Msgs, Msgs2        float64
	Early              float64
	// Runs counts every run, forced or not.
	Runs float64
	// By stratum L: the runs, and the sums of late and resD.
	sn          []float64
	sLate, sRes [][2]float64
	pi          []float64 // the strata's chances (the model's stall.Strata())
}

// Est is an estimate of a mean: its value V, its standard error SE and
// Hole, the chance of the strata too thin to estimate (at most two runs),
// whose values, each in [0, 1], are left out of V.
type Est struct{ V, SE, Hole float64 }

// upper is the estimate's upper end at z standard errors, the hole
// included.
func (e Est) upper(z float64) float64 { return e.V + z*e.SE + e.Hole }

// Deadline is the deadline's chances of a miss (P(T_L > D) and the chance
// a given live node is uninformed at D): Σ_L π_L·(the mean over the runs
// of stratum L), stratified sampling with the strata's chances known
// (stall.go), and its standard error √(Σ π_L²·s_L²/n_L).
func (s *Sums) Deadline() (late, resD Est) {
	est := func(sums [][2]float64) Est {
		var e Est
		v := 0.0
		for L, pi := range s.pi {
			if L >= len(s.sn) || s.sn[L] < 2 {
				e.Hole += pi
				continue
			}
			m, se := MeanSE(sums[L], s.sn[L])
			e.V += pi * m
			v += pi * pi * se * se
		}
		e.SE = math.Sqrt(v)
		return e
	}
	return est(s.sLate), est(s.sRes)
}

func grow(s []float64, n int) []float64 {
	for len(s) < n {
		s = append(s, 0)
	}
	return s
}

// add adds the run r: its deadline's chances to its stratum, the rest
// only where its stall was not forced.
func (s *Sums) add(r *runOut) {
	s.Runs++
	L := r.stratum
	for len(s.sn) <= L {
		s.sn = append(s.sn, 0)
		s.sLate = append(s.sLate, [2]float64{})
		s.sRes = append(s.sRes, [2]float64{})
	}
	acc := func(a *[2]float64, v float64) { a[0] += v; a[1] += v * v }
	s.sn[L]++
	acc(&s.sLate[L], r.late)
	acc(&s.sRes[L], r.resD)
	if r.forced {
		return
	}
	n := len(r.F)
	s.F, s.F2 = grow(s.F, n), grow(s.F2, n)
	s.Tail, s.Tail2 = grow(s.Tail, n+1), grow(s.Tail2, n+1)
	for t, v := range r.F {
		s.F[t] += v
		s.F2[t] += v * v
	}
	last := r.F[n-1]
	s.Tail[n] += last
	s.Tail2[n] += last * last
	s.N++
	acc(&s.Res, r.res)
	acc(&s.Miss, r.miss)
	s.Msgs += r.msgs
	s.Msgs2 += r.msgs * r.msgs
	if r.early {
		s.Early++
	}
}

func (s *Sums) merge(o *Sums) {
	add := func(a, b []float64) []float64 {
		a = grow(a, len(b))
		for i, v := range b {
			a[i] += v
		}
		return a
	}
	s.F, s.F2, s.Tail, s.Tail2 = add(s.F, o.F), add(s.F2, o.F2), add(s.Tail, o.Tail), add(s.Tail2, o.Tail2)
	s.N += o.N
	s.Runs += o.Runs
	for i := range 2 {
		s.Res[i] += o.Res[i]
		s.Miss[i] += o.Miss[i]
	}
	s.sn = add(s.sn, o.sn)
	for len(s.sLate) < len(o.sLate) {
		s.sLate = append(s.sLate, [2]float64{})
		s.sRes = append(s.sRes, [2]float64{})
	}
	for L := range o.sLate {
		for i := range 2 {
			s.sLate[L][i] += o.sLate[L][i]
			s.sRes[L][i] += o.sRes[L][i]
		}
	}
	s.Msgs += o.Msgs
	s.Msgs2 += o.Msgs2
	s.Early += o.Early
}

// MeanSE is the mean of n values from their sum and sum of squares, and
// its standard error.
func MeanSE(sum [2]float64, n float64) (mean, se float64) {
	mean = sum[0] / n
	v := math.Max(sum[1]/n-mean*mean, 0) * n / (n - 1)
	return mean, math.Sqrt(v / n)
}

// PMF is the law of T_L from the sums (each run's F carried on past its
// end, negative increments of the mean clipped), the mean of P(T_L < ∞)
// and the largest standard error of a P(T_L ≤ t).
func (s *Sums) PMF() (pmf []float64, fEnd, seMax float64) {
	n := s.N
	T := len(s.F)
	F := make([]float64, T)
	carry, carry2 := 0.0, 0.0
	for t := range T {
		carry += s.Tail[t]
		carry2 += s.Tail2[t]
		mean, se := MeanSE([2]float64{s.F[t] + carry, s.F2[t] + carry2}, n)
		F[t] = mean
		seMax = math.Max(seMax, se)
	}
	carry += s.Tail[T]
	carry2 += s.Tail2[T]
	var seEnd float64
	fEnd, seEnd = MeanSE([2]float64{carry, carry2}, n)
	seMax = math.Max(seMax, seEnd)
	pmf = make([]float64, T)
	prev := 0.0
	for t, v := range F {
		pmf[t] = math.Max(v-prev, 0)
		prev = math.Max(prev, v)
	}
	for len(pmf) > 1 && pmf[len(pmf)-1] == 0 {
		pmf = pmf[:len(pmf)-1]
	}
	return pmf, fEnd, seMax
}

// Law runs the model's runs and returns their sums, and those of the
// tilted runs where they are used (nil otherwise).
//
// Where a deadline's chance of a miss is carried by too few runs
// (wantsRuns), the runs whose start was slow carry it: tilted runs
// (is.go) draw those often and weight them by their likelihood
// ratio, where a pilot shows their relative variance at least 2 times
// smaller (where the budget is spent in one round, R = 1, startTilted's
// runs); else more plain runs are added, ×4 at a time. Either
// estimate is unbiased; the answer takes the one of smaller stated error.
func (m *Model) Law(ctx context.Context) (*Sums, *TiltSums, error) {
	var s Sums
	done, err := m.addRuns(ctx, 0, m.Runs, &s)
	if err != nil {
		return nil, nil, err
	}
	if !m.wantsRuns(&s) {
		return &s, nil, nil
	}
	late, resD := s.Deadline()
	ts, err := m.tilted(ctx, relVarOf(s.Runs, late, resD))
	if err != nil {
		return nil, nil, err
	}
	if ts != nil {
		return &s, ts, nil
	}
	for n := 4 * m.Runs; ; {
		d, err := m.addRuns(ctx, done, n-done, &s)
		if err != nil {
			return nil, nil, err
		}
		done += d
		late, resD := s.Deadline()
		next := m.nextRuns(n, done, m.runsRel(lumpedRunsRelErr, late, resD), late, resD)
		if next <= n {
			return &s, nil, nil
		}
		n = next
	}
}

// wantsRuns reports whether the runs' standard error alone puts a
// deadline's chance of a miss (ResidueDeadline, PLate) beyond
// lumpedRunsRelErr of its size: its tail is carried by the runs whose
// start was slow, and only more runs shrink it.
func (m *Model) wantsRuns(s *Sums) bool {
	if m.D < 1 {
		return false
	}
	late, resD := s.Deadline()
	return beyond(m.z, m.runsRel(lumpedRunsRelErr, late, resD), m.Floor, late, resD)
}

// aimRelErr is the relative error an answer's deadline chances aim at
// (broadcast's MaxRelErr, 5 %), less a share for the product of the
// runs' error and the closure's factor.
const aimRelErr = 0.049

// runsRel is the runs' share (z standard errors plus the hole, relative)
// below which no runs are added to the deadline's chances late and resD:
// rel, or less where the closure and Extra leave less of aimRelErr
// (aimLeft) — what they leave, if at least aimRelErr/10 (else no count
// of runs brings the answer within it).
func (m *Model) runsRel(rel float64, late, resD Est) float64 {
	if left := m.aimLeft(late, resD); left < rel && left >= aimRelErr/10 {
		return left
	}
	return rel
}

// aimLeft is what the closure's factor e^{Closure·ln(1/q)} − 1 (q the
// smaller positive chance, whose exponent is the larger) and Extra leave
// of aimRelErr.
func (m *Model) aimLeft(late, resD Est) float64 {
	q := 1.0
	for _, e := range []Est{late, resD} {
		if e.V > 0 {
			q = math.Min(q, e.V)
		}
	}
	return aimRelErr - math.Expm1(m.Closure*math.Log(1/q)) - m.Extra
}

// nextRuns is the count of runs to have after n (the count asked so far;
// ran, those run, may be a few more), of which late and resD are the
// estimates, where z of their standard errors (plus the hole) exceed rel
// of a chance: ×4 up to lumpedMoreRuns·Runs; then, once, and only where
// the answer would otherwise miss aimRelErr (the runs' share beyond
// aimLeft, which leaves at least aimRelErr/10), the count that the
// square-root law says brings them within what is left, with a tenth
// more — none where that is beyond lumpedMaxRuns·Runs (the answer then
// states what the runs have). It returns n where no more runs are to be
// run.
func (m *Model) nextRuns(n, ran int, rel float64, late, resD Est) int {
	if !beyond(m.z, rel, m.Floor, late, resD) {
		return n
	}
	if n < m.Runs*lumpedMoreRuns {
		return min(4*n, m.Runs*lumpedMoreRuns)
	}
	left := m.aimLeft(late, resD)
	if n > m.Runs*lumpedMoreRuns || left < aimRelErr/10 || !beyond(m.z, left, m.Floor, late, resD) {
		return n
	}
	f := 0.0
	for _, e := range []Est{late, resD} {
		if e.V > 0 && e.upper(m.z) >= m.Floor {
			room := left - e.Hole/e.V
			if room <= 0 {
				return n
			}
			f = math.Max(f, math.Pow(m.z*e.SE/e.V/room, 2))
		}
	}
	need := int(math.Ceil(1.1 * f * float64(ran)))
	if need <= n || need > m.Runs*lumpedMaxRuns {
		return n
	}
	return need
}

// beyond reports whether any of the estimates at or above floor (its
// upper end) has z standard errors (plus its hole) beyond rel of itself.
func beyond(z, rel, floor float64, es ...Est) bool {
	for _, e := range es {
		if e.V > 0 && z*e.SE+e.Hole > rel*e.V && e.upper(z) >= floor {
			return true
		}
	}
	return false
}

// addRuns adds about count runs, of stream indices from first on, to s,
// and returns how many it added.
func (m *Model) addRuns(ctx context.Context, first, count int, s *Sums) (int, error) {
	const blocks = 64
	per := max(count/blocks, 1)
	sums := make([]Sums, blocks)
	err := parallel.For(ctx, blocks, runtime.GOMAXPROCS(0), func() func(context.Context, int) error {
		coh := make([]float64, m.R)
		hbuf := make([]float64, 0, m.k+1)
		var out runOut
		return func(ctx context.Context, b int) error {
			for j := range per {
				if j%64 == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
				m.run(rng.NewStream(lumpedSeed^m.Seed, uint64(first+b*per+j)), coh, hbuf, &out)
				sums[b].add(&out)
			}
			return nil
		}
	}, nil)
	if err != nil {
		return 0, err
	}
	s.pi = m.stall.Strata()
	for b := range sums {
		s.merge(&sums[b])
	}
	return blocks * per, nil
}
