package broadcast

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gossipkit/gossipkit/broadcast/internal/pmf"
	"github.com/gossipkit/gossipkit/internal/parallel"
	"github.com/gossipkit/gossipkit/internal/rng"
)

// The large-N law of a budgeted push (push and push–pull with Budget > 0).
//
// The state of a round is the informed live nodes by the rounds they have
// pushed (the cohorts n_0, …, n_{R−1} of the exact chain, R = ⌈B/k⌉) and
// U, the uninformed live nodes. Given it, a given uninformed live node
// stays uninformed through the round with probability
//
//	π₁ = h(i)·(1 − a_k)^{S}·(1 − a_l)^{S_l},   a_j = j(1−ε)/(N−1),
//
// S the senders that push k peers and S_l those in their last round (l =
// B − k(R−1) peers), h the pull miss of push–pull (1 for push), i the
// informed live count; two given ones both stay uninformed with
// probability π₂ = h²·g_k^S·g_l^{S_l}, g_j = 1 − 2a_j + j(j−1)(1−ε)²/((N−1)(N−2)).
// The round's new informed count D then has mean U(1 − π₁) and variance
// Uπ₁(1 − π₁) + U(U−1)(π₂ − π₁²) exactly. For push–pull the pulled count
// is drawn first, exactly: given i the uninformed nodes' requests fail
// independently, so it is Binomial(U, 1 − h), and the pushes reach a
// uniformly random subset of the rest. The pushed count is drawn from the
// binomial with its step's exact mean and variance (the closure of
// AsymptoticLaw's start: it misses the third cumulant of a count of order
// M, an error of order 1/√M in every probability). Drawing the sum of the
// two from one such binomial instead, as the law did until December 2026,
// gets the early rounds' shape wrong (a pulled count near Poisson(1)
// beside the source's one push, drawn as Binomial(4, ½)), and with it the
// time shift of the whole run: at N = 10⁴, k 1, B 15 the chance a node was
// still uninformed at round 10 came out 27 % high.
//
// The counts are drawn this way, round by round, in lumpedRuns runs from a
// fixed seed (so the law is a function of the configuration), until at
// most lumpedWatch live nodes are uninformed (or no node can act). From
// there the pushes to come are those the cohorts have left, plus, for
// push–pull, the pulls, whose miss falls with the count left, so that
// count is carried as a distribution (pullTail). The few nodes still
// uninformed add at most lumpedWatch·B transmits, which moves each node's
// chance of escaping by a factor within lumpedWatch·B·(1−ε)/(N−1) of 1
// (stated in the accuracy). For push, each of the U* nodes left escapes
// through round t with probability q(t), the product of the rounds' π₁,
// independently given the senders; so, for the run, P(T_L ≤ t) =
// P(Binomial(U*, q(t)) ≤ M − ⌈L·M⌉),
// the chance that a given live node is missed is U*·q(∞)/M and that some
// live node is missed is 1 − (1 − q(∞))^{U*}, each computed, not sampled.
// The law is the mean of these over the runs: a conditional Monte Carlo
// whose tail values keep their digits down to the smallest probability.
//
// Where a deadline's chance of a miss (ResidueDeadline, PLate) is carried
// by too few runs (their standard errors above lumpedRunsRelErr of it), the
// law adds runs, ×4 at a time, up to lumpedMoreRuns times lumpedRuns: deep
// in push–pull's tail the value comes from the runs whose start was slow.
//
// Accuracy. DevP = 1/√M (the closure; AsymptoticLaw's constant, measured
// at most 0.35, is taken as 1) + lumpedWatch·B·(1−ε)/(N−1) + zValue
// standard errors of the runs' mean, the largest over t. The chances of a
// miss (ResidueDeadline, PLate, and Residue, PMiss where they are more
// accurate than budgetMissLaw's) carry, relative to their size, zValue
// standard errors plus ln(1/q)/√M: a relative error 1/√M in the counts
// that drive the exponent ln(1/q) of a node's escape, plus the GW chance
// of an early end divided by the value where the runs saw no early end.

const (
	// lumpedRuns is the number of runs of the law (fixed: the law is a
	// function of the configuration).
	lumpedRuns = 20_000
	// lumpedMoreRuns is the most runs a law adds, as a multiple of
	// lumpedRuns (in steps of 4), where a deadline's chance of a miss is
	// less accurate than lumpedRunsRelErr (wantsRuns).
	lumpedMoreRuns = 4
	// lumpedRunsRelErr is the runs' share (zValue standard errors,
	// relative) of a deadline's chance of a miss below which no runs are
	// added: half of the 5 % an answer aims at.
	lumpedRunsRelErr = 0.025
	// lumpedSeed is their seed.
	lumpedSeed = 0x6c756d706564
	// lumpedWatch is the count of uninformed live nodes below which a run
	// stops drawing counts and computes the rest.
	lumpedWatch = 64
	// LumpedMinLive is the smallest live count the large-N law of a
	// budgeted push covers (its closure error, 1/√M, is then at most 1 %).
	LumpedMinLive = 10_000
	// lumpedMaxRounds bounds R = ⌈B/k⌉ (the cohorts a run tracks).
	lumpedMaxRounds = 512
	// lumpedMaxT bounds the rounds of a run; mass beyond is in DevP.
	lumpedMaxT = 100_000
)

// lumpedCovers reports whether the large-N law of a budgeted push covers
// cfg (valid, with a budget), and why not.
func lumpedCovers(cfg Config) error {
	switch {
	case !cfg.Protocol.pushes() || cfg.Budget <= 0:
		return fmt.Errorf("broadcast: the large-N law of a budgeted push needs a push with a budget: %w", ErrNotCovered)
	case cfg.Live() < LumpedMinLive:
		return fmt.Errorf("broadcast: asymptotic law: a budget (%d) is covered from %d live nodes (here %d; the exact chain or the Monte Carlo answers): %w", cfg.Budget, LumpedMinLive, cfg.Live(), ErrNotCovered)
	case rounds(cfg.Budget, cfg.Fanout) > lumpedMaxRounds:
		return fmt.Errorf("broadcast: asymptotic law: a budget of more than %d rounds of pushes (here ⌈%d/%d⌉) is not covered: %w", lumpedMaxRounds, cfg.Budget, cfg.Fanout, ErrNotCovered)
	}
	return nil
}

type lumpedModel struct {
	cfg              Config
	M, n1, k, R      int
	target, allow    int
	eps              float64
	pulls            bool
	lgk, lgl, dk, dl float64 // log(1 − a_j), log(g_j/(1 − a_j)²)
	D                int     // deadline rounds (0: none)
	// runs and watch are lumpedRuns and lumpedWatch (tests change them).
	runs  int
	watch float64
	// is, if set, tilts the start (lumpedis.go).
	is *lumpedIS
}

func newLumped(cfg Config) *lumpedModel {
	m := &lumpedModel{cfg: cfg, M: cfg.Live(), n1: cfg.Nodes - 1, k: cfg.Fanout, R: rounds(cfg.Budget, cfg.Fanout),
		eps: cfg.Loss, pulls: cfg.Protocol.pulls(), target: cfg.Target(), D: deadlineRounds(cfg),
		runs: lumpedRuns, watch: lumpedWatch}
	last := cfg.Budget - m.k*(m.R-1) // the pushes of a sender's last round
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
	m.lgk, m.dk = f(m.k)
	m.lgl, m.dl = f(last)
	return m
}

// lumpedRun is what one run contributes.
type lumpedRun struct {
	F                     []float64 // P(T_L ≤ t | run), t = 0, 1, …; constant after
	late                  float64   // P(T_L > D | run)
	resD, res, miss, msgs float64
	early                 bool // the run ended with more than lumpedWatch uninformed
	// path, if not nil, receives the informed count after each of its
	// rounds; lr is the run's likelihood ratio (1 untilted); sc is the
	// tilted start's scratch.
	path []float64
	lr   float64
	sc   *isScratch
	v, w []float64 // pullTail's scratch
}

// pushLaw is the law of the pushed count of a round with Uq uninformed
// live nodes left after the pulls and S + SL senders: c + Binomial(n, p)
// (n = 0: the constant c), the binomial of the step's exact mean and
// variance (the comment at the top).
func (m *lumpedModel) pushLaw(Uq, S, SL float64) (n, p, c float64) {
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

// run draws one run from the stream r into out.
func (m *lumpedModel) run(r *rng.Rand, coh []float64, hbuf []float64, out *lumpedRun) {
	fM := float64(m.M)
	clear(coh)
	coh[0] = 1 // the source, to push in round 1
	i, U := 1.0, fM-1
	out.F = out.F[:0]
	reached := func() float64 {
		if i >= float64(m.target) {
			return 1
		}
		return 0
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
	t := 0
	llr := 0.0
	for ; U > m.watch && t < lumpedMaxT; t++ {
		S, SL := senders()
		if S+SL == 0 && !m.pulls {
			break
		}
		msgs += pullMsgs(U)
		var D float64
		if m.is != nil && t < m.is.rounds {
			var l float64
			D, l = m.isDraw(r, t, i, out.sc)
			llr += l
		} else {
			D = draw(U, S, SL, h())
		}
		age(D)
		i += D
		U -= D
		if t < len(out.path) {
			out.path[t] = i
		}
		out.F = append(out.F, reached())
		if t+1 == m.D {
			out.late, out.resD = 1-out.F[t+1], U/fM
		}
	}
	out.lr = math.Exp(llr)
	if U > m.watch || t >= lumpedMaxT {
		// No node can act (or the rounds ran out): the U left are missed.
		out.early = U > m.watch
		out.res, out.miss = U/fM, 1
		if U == 0 {
			out.miss = 0
		}
		if m.D > t {
			out.late, out.resD = 1-out.F[t], U/fM
		}
		out.msgs = (msgs + float64(m.cfg.Budget)*i) / fM
		return
	}
	if m.pulls {
		m.pullTail(U, t, msgs, senders, age, hbuf, out)
		return
	}
	// The last U* ≤ lumpedWatch: their escape chance q(t), given the
	// senders the cohorts have left.
	Us := U
	q := 1.0
	lateAt := func(q float64) float64 { return pmf.BinTail(int(Us), q, m.allow) }
	for ; t < lumpedMaxT; t++ {
		S, SL := senders()
		if S+SL == 0 {
			break
		}
		if Us == 0 || q*Us < 1e-17 {
			q = 0
			break
		}
		q *= math.Exp(S*m.lgk + SL*m.lgl)
		age(0)
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
	out.msgs = (msgs + float64(m.cfg.Budget)*(fM-Us*q)) / fM
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
// and the distribution of u is carried round by round (the pushes of the
// nodes informed meanwhile are left out, lumpedWatch·B·(1−ε)/(N−1) in
// DevP). P(T_L ≤ t), the mean count left and the chance some node is left
// are then sums over that distribution: no sampling, and every tail value
// keeps its digits.
func (m *lumpedModel) pullTail(U float64, t int, msgs float64, senders func() (float64, float64), age func(float64), hbuf []float64, out *lumpedRun) {
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
	for ; t < lumpedMaxT; t++ {
		if _, mean := stats(); mean < 1e-17 {
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
		age(0)
		late, mean := stats()
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
	out.msgs = (msgs + float64(m.cfg.Budget)*(fM-mean)) / fM
}

// lumpedSums accumulates runs: Σ F(t) and Σ F(t)² by t (with each run's
// last value carried on), and the sums and squares of the run values.
type lumpedSums struct {
	f, f2, tail, tail2    []float64
	n                     float64
	late, resD, res, miss [2]float64
	msgs, msgs2           float64
	early                 float64
}

func grow(s []float64, n int) []float64 {
	for len(s) < n {
		s = append(s, 0)
	}
	return s
}

func (s *lumpedSums) add(r *lumpedRun) {
	n := len(r.F)
	s.f, s.f2 = grow(s.f, n), grow(s.f2, n)
	s.tail, s.tail2 = grow(s.tail, n+1), grow(s.tail2, n+1)
	for t, v := range r.F {
		s.f[t] += v
		s.f2[t] += v * v
	}
	last := r.F[n-1]
	s.tail[n] += last
	s.tail2[n] += last * last
	s.n++
	acc := func(a *[2]float64, v float64) { a[0] += v; a[1] += v * v }
	acc(&s.late, r.late)
	acc(&s.resD, r.resD)
	acc(&s.res, r.res)
	acc(&s.miss, r.miss)
	s.msgs += r.msgs
	s.msgs2 += r.msgs * r.msgs
	if r.early {
		s.early++
	}
}

func (s *lumpedSums) merge(o *lumpedSums) {
	add := func(a, b []float64) []float64 {
		a = grow(a, len(b))
		for i, v := range b {
			a[i] += v
		}
		return a
	}
	s.f, s.f2, s.tail, s.tail2 = add(s.f, o.f), add(s.f2, o.f2), add(s.tail, o.tail), add(s.tail2, o.tail2)
	s.n += o.n
	for i := range 2 {
		s.late[i] += o.late[i]
		s.resD[i] += o.resD[i]
		s.res[i] += o.res[i]
		s.miss[i] += o.miss[i]
	}
	s.msgs += o.msgs
	s.msgs2 += o.msgs2
	s.early += o.early
}

// sumMeanSE is the mean of n values from their sum and sum of squares, and
// its standard error.
func sumMeanSE(sum [2]float64, n float64) (mean, se float64) {
	mean = sum[0] / n
	v := math.Max(sum[1]/n-mean*mean, 0) * n / (n - 1)
	return mean, math.Sqrt(v / n)
}

// lumpedLaw is the large-N law of a budgeted push (the comment above).
func lumpedLaw(ctx context.Context, cfg Config) (*Law, error) {
	if ctx == nil {
		return nil, errors.New("broadcast: nil context")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := lumpedCovers(cfg); err != nil {
		return nil, err
	}
	return newLumped(cfg).law(ctx)
}

// law runs the model's runs and returns the law with its accuracy.
//
// Where a deadline's chance of a miss is carried by too few runs
// (wantsRuns), the runs whose start was slow carry it: tilted runs
// (lumpedis.go) draw those often and weight them by their likelihood
// ratio, where a pilot shows their relative variance at least 2 times
// smaller; else more plain runs are added, ×4 at a time. Either estimate
// is unbiased; the answer takes the one of smaller stated error.
func (m *lumpedModel) law(ctx context.Context) (*Law, error) {
	var s lumpedSums
	done, err := m.addRuns(ctx, 0, m.runs, &s)
	if err != nil {
		return nil, err
	}
	if !m.wantsRuns(&s) {
		return m.sumsLaw(&s, nil), nil
	}
	ts, err := m.tilted(ctx, math.Max(relVar(s.resD, s.n), relVar(s.late, s.n)))
	if err != nil {
		return nil, err
	}
	if ts != nil {
		return m.sumsLaw(&s, ts), nil
	}
	for n := 4 * m.runs; ; n *= 4 {
		d, err := m.addRuns(ctx, done, n-done, &s)
		if err != nil {
			return nil, err
		}
		done += d
		if n >= m.runs*lumpedMoreRuns || !m.wantsRuns(&s) {
			return m.sumsLaw(&s, nil), nil
		}
	}
}

// wantsRuns reports whether the runs' standard error alone puts a
// deadline's chance of a miss (ResidueDeadline, PLate) beyond
// lumpedRunsRelErr of its size: its tail is carried by the runs whose
// start was slow, and only more runs shrink it.
func (m *lumpedModel) wantsRuns(s *lumpedSums) bool {
	return m.D >= 1 && beyondRunsRelErr(s.n, s.resD, s.late)
}

// beyondRunsRelErr reports whether the mean of any of the sums of n runs'
// values has zValue standard errors beyond lumpedRunsRelErr of itself.
func beyondRunsRelErr(n float64, sums ...[2]float64) bool {
	for _, sum := range sums {
		if v, se := sumMeanSE(sum, n); v > 0 && float64(zValue)*se > lumpedRunsRelErr*v {
			return true
		}
	}
	return false
}

// addRuns adds about count runs, of stream indices from first on, to s,
// and returns how many it added.
func (m *lumpedModel) addRuns(ctx context.Context, first, count int, s *lumpedSums) (int, error) {
	const blocks = 64
	per := max(count/blocks, 1)
	sums := make([]lumpedSums, blocks)
	err := parallel.For(ctx, blocks, runtime.GOMAXPROCS(0), func() func(context.Context, int) error {
		coh := make([]float64, m.R)
		hbuf := make([]float64, 0, m.k+1)
		var out lumpedRun
		return func(ctx context.Context, b int) error {
			for j := range per {
				if j%64 == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
				m.run(rng.NewStream(lumpedSeed, uint64(first+b*per+j)), coh, hbuf, &out)
				sums[b].add(&out)
			}
			return nil
		}
	}, nil)
	if err != nil {
		return 0, err
	}
	for b := range sums {
		s.merge(&sums[b])
	}
	return blocks * per, nil
}

// sumsLaw turns the sums into the Law with its stated accuracy.
func (m *lumpedModel) sumsLaw(s *lumpedSums, ts *tiltSums) *Law {
	n := s.n
	T := len(s.f)
	F := make([]float64, T)
	seMax := 0.0
	carry, carry2 := 0.0, 0.0
	for t := range T {
		carry += s.tail[t]
		carry2 += s.tail2[t]
		mean, se := sumMeanSE([2]float64{s.f[t] + carry, s.f2[t] + carry2}, n)
		F[t] = mean
		seMax = math.Max(seMax, se)
	}
	carry += s.tail[T]
	carry2 += s.tail2[T]
	fEnd, seEnd := sumMeanSE([2]float64{carry, carry2}, n)
	seMax = math.Max(seMax, seEnd)
	pmf := make([]float64, T)
	prev := 0.0
	for t, v := range F {
		pmf[t] = math.Max(v-prev, 0)
		prev = math.Max(prev, v)
	}
	for len(pmf) > 1 && pmf[len(pmf)-1] == 0 {
		pmf = pmf[:len(pmf)-1]
	}
	fM := float64(m.M)
	law := &Law{PMF: pmf, Never: math.Max(1-fEnd, 0), Accuracy: NoAccuracy()}
	law.noDeadline()
	// The chances of a miss: zValue standard errors plus the closure's
	// ln(1/q)/√M, plus the early ends the runs did not see.
	// (Push–pull has no early end: the pulls go on, and the runs whose
	// pushes died at the start are drawn as often as they happen.)
	xEarly := 0.0
	if s.early == 0 && !m.pulls {
		xEarly = extinction((1-m.eps)*(fM-1)/float64(m.n1), float64(m.cfg.Budget))
	}
	ivOfRunsN := func(sum [2]float64, n float64) interval {
		v, se := sumMeanSE(sum, n)
		if !(v > 0) {
			return interval{v, 0, math.Min(xEarly+float64(zValue)*se, 1)}
		}
		rel := float64(zValue)*se/v + math.Log(1/math.Min(v, 1-1e-16))/math.Sqrt(fM)
		lo := v * math.Max(1-rel, 0)
		hi := math.Min(v*(1+rel)+xEarly, 1)
		return interval{v, lo, hi}
	}
	ivOfRuns := func(sum [2]float64) interval { return ivOfRunsN(sum, n) }
	if m.pulls {
		// The pulls go on until every live node is informed.
		law.Residue, law.PMiss, law.ResidueRelErr, law.PMissRelErr = 0, 0, 0, 0
	} else {
		law.setResidue(ivOfRuns(s.res))
		law.setPMiss(ivOfRuns(s.miss))
		if res, pm, ok := budgetMissLaw(m.cfg); ok {
			law.setResidue(better(ivOf(law.Residue, law.ResidueRelErr), res))
			law.setPMiss(better(ivOf(law.PMiss, law.PMissRelErr), pm))
		}
	}
	if m.D >= 1 {
		resD, late := ivOfRuns(s.resD), ivOfRuns(s.late)
		if ts != nil && ts.n > 0 {
			resD, late = better(resD, ivOfRunsN(ts.resD, ts.n)), better(late, ivOfRunsN(ts.late, ts.n))
		}
		law.setResidueDeadline(resD)
		law.setPLate(late)
		law.tiltedD = ts != nil && ts.n > 0
	}
	law.Messages = s.msgs / n
	closure := 1 / math.Sqrt(fM)
	watch := m.watch * float64(m.cfg.Budget) * (1 - m.eps) / float64(m.n1)
	dev := math.Min(closure+watch+float64(zValue)*seMax+1e-12, 1)
	dm, ds := devMoments(law, m.cfg, dev)
	law.Accuracy.DevP, law.Accuracy.DevMean, law.Accuracy.DevSD = dev, dm, ds
	law.Accuracy.Note = fmt.Sprintf("large-N law of a budgeted push (the cohorts' counts drawn with the step's exact mean and variance, pulls exactly, in %d runs of a fixed seed, the last %g nodes' escape computed): every P(T_L ≤ t) within %.2g, the mean within %.2g rounds", int(s.n), m.watch, dev, dm)
	if ts != nil && ts.n > 0 {
		law.Accuracy.Note += fmt.Sprintf("; the deadline's chances of a miss also from %d runs whose first %d rounds were drawn toward slow starts and weighted by their likelihood ratio, where more accurate", int(ts.n), ts.rounds)
	}
	return law
}

func (l *Law) setResidueDeadline(iv interval) {
	l.ResidueDeadline, l.ResidueDeadlineRelErr = split(iv)
}
func (l *Law) setPLate(iv interval) { l.PLate, l.PLateRelErr = split(iv) }
