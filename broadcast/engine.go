package broadcast

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/gossipkit/gossipkit/broadcast/internal/lumped"
	"github.com/gossipkit/gossipkit/internal/rng"
)

// engine is the default Monte Carlo engine (Simulate's doc): between rounds
// a replication is the number u of uninformed live nodes and the cohorts
// (the nodes informed in each round); within a round the uninformed live
// nodes are positions 0..u−1 and hit marks those informed in the round.
type engine struct {
	cfg     Config
	seed    uint64
	N, M, k int
	R, last int // rounds a node pushes (0: no budget), transmits of its last
	// watch is the number of watched live nodes (runWatched; 0 in run):
	// they are never informed and are not among the positions, so live =
	// M − watch nodes are tracked and a push draws its peers among the
	// pool = N − 1 − watch others that are not watched.
	watch, live, pool int
	qlog              []float64   // qlog[t]: log q(t), the chance a sender of t transmits informs no watched node
	qmix              [][]float64 // qmix[t][j]: P(j watched nodes among its t peers | none informed)
	tailMix, hbuf     []float64
	eps               float64
	cont              bool // push with a budget: run on past T_L for the residue
	r                 *rng.Rand
	ctx               context.Context
	err               error
	hit               []uint64
	newly             int
	picks             []int
	stamp             []uint32
	cur               uint32
	cum               []float64
	tail              []float64
	cohort            []int // with a budget: cohort[c mod (R+1)], the nodes informed in round c
	win               int   // with a budget: the nodes that push k in the coming round
	work              int   // draws left before the next check of ctx
	// curveOn: runWatched records its curve (curvesum.go) in curve;
	// curveCapped reports that it reached maxCurveRounds without ending.
	curveOn, curveCapped bool
	curve                []float64
	// lateCurve and lateD are the last watched run's values of the
	// chance that the level is not reached (lateShare, rare.go): at each
	// round of curve, and by the deadline (NaN without one).
	lateCurve []float64
	lateD     float64
	// missEnd is its value's share of the chance that some live node is
	// never informed (missShare; NaN where the run does not stop).
	missEnd float64
	// stall is the source's stall forced in the watched runs (stalls.go)
	// for the rounds stallCap (−1: not yet set).
	stall    lumped.Stall
	stallCap int
	// stallSeen is the rounds the last watched run's source stalled, and
	// stallEnded whether the run saw the stall end.
	stallSeen  int
	stallEnded bool
}

func newEngine(cfg Config, seed uint64) *engine {
	M := cfg.Live()
	e := &engine{cfg: cfg, seed: seed, N: cfg.Nodes, M: M, k: cfg.Fanout, eps: cfg.Loss, live: M, pool: cfg.Nodes - 1,
		cont: cfg.Protocol == Push && cfg.Budget > 0, hit: make([]uint64, (M+63)/64), picks: make([]int, 0, 16),
		stallCap: -1}
	if cfg.Budget > 0 {
		e.R = rounds(cfg.Budget, cfg.Fanout)
		e.last = cfg.Budget - cfg.Fanout*(e.R-1)
	}
	return e
}

// checkEvery is the work (draws, about) between two checks of ctx inside
// a round: a round can be 10^6 senders, or fewer senders of a wide fanout.
const checkEvery = 1 << 16

// spend counts n draws of work and checks ctx every checkEvery of them;
// it reports whether to go on.
func (e *engine) spend(n int) bool {
	if e.work -= n; e.work < 0 {
		return e.check()
	}
	return true
}

// check checks ctx (once an error is seen, every later spend checks).
//
//go:noinline
func (e *engine) check() bool {
	e.work = checkEvery
	if err := e.ctx.Err(); err != nil {
		e.err, e.work = err, 0
	}
	return e.err == nil
}

func (e *engine) run(ctx context.Context, index int) (Replication, error) {
	e.r = rng.NewStream(e.seed, uint64(index))
	e.ctx, e.err, e.work = ctx, nil, checkEvery
	cfg := e.cfg
	rep := Replication{Index: index, T: -1}
	target := cfg.Target()
	u := e.M - 1
	e.startCohorts()
	if target <= 1 {
		rep.T = 0
	}
	pulls := cfg.Protocol.pulls()
	// Messages by the stopping rules (package doc): every pull request
	// and reply until each live node is informed, the pushes of a budget
	// all (B from each informed node, added at the end), and without a
	// budget the pushes of rounds 1..T_L.
	var pushMsgs int64
	for r := 1; ; r++ {
		if u == 0 || rep.T >= 0 && !e.cont && !pulls {
			break
		}
		full, lastG := e.senders(r, u)
		if !pulls && full+lastG == 0 {
			break // no node can act
		}
		if (r%64 == 0 || e.N > 1<<12) && ctx.Err() != nil {
			return rep, ctx.Err()
		}
		clear(e.hit[:(u+63)/64])
		e.newly = 0
		var msgs int64
		if pulls {
			msgs += int64(u)*int64(e.k) + e.pull(u)
		}
		if full > 0 {
			if e.R == 0 && rep.T < 0 {
				pushMsgs += int64(full) * int64(e.k)
			}
			e.push(full, e.k, u)
		}
		if lastG > 0 {
			e.push(lastG, e.last, u)
		}
		if e.err != nil {
			return rep, e.err
		}
		if rep.Messages > math.MaxInt64/2-msgs || pushMsgs > math.MaxInt64/2 {
			return rep, fmt.Errorf("broadcast: replication %d: the message count passes 2^62", index)
		}
		rep.Messages += msgs
		u -= e.newly
		e.endRound(r)
		if rep.T < 0 && e.M-u >= target {
			rep.T = r
		}
	}
	if e.cont {
		rep.Missed = u
	}
	if e.R > 0 {
		// Every informed live node spends its whole budget.
		pushMsgs = int64(e.M-u) * int64(e.cfg.Budget)
	}
	rep.Messages += pushMsgs
	return rep, nil
}

// startCohorts starts a replication's cohorts (with a budget): the
// senders of round r are the cohorts r−R+1..r−1 (win, k transmits each)
// and r−R (its last transmits); a ring of the last R+1 cohorts keeps the
// memory bounded however long the run. Round 1's only sender is cohort 0,
// the source.
func (e *engine) startCohorts() {
	e.win = 0
	if e.R > 0 {
		e.cohort = append(e.cohort[:0], make([]int, e.R+1)...)
		e.cohort[0] = 1
		if e.R >= 2 {
			e.win = 1
		}
	}
}

func (e *engine) ring(c int) *int { return &e.cohort[c%(e.R+1)] }

// senders are round r's pushers with u tracked nodes uninformed: every
// informed tracked node without a budget (full); with one, cohorts
// r−R+1..r−1 send k (full) and cohort r−R its last transmits (last).
// None where the protocol does not push.
func (e *engine) senders(r, u int) (full, last int) {
	switch {
	case !e.cfg.Protocol.pushes():
		return 0, 0
	case e.R == 0:
		return e.live - u, 0
	case r-e.R >= 0:
		return e.win, *e.ring(r - e.R)
	}
	return e.win, 0
}

// endRound records round r's newly informed nodes as cohort r and moves
// the window to round r+1's cohorts r−R+2..r.
func (e *engine) endRound(r int) {
	if e.R == 0 {
		return
	}
	*e.ring(r) = e.newly
	if e.R >= 2 {
		if r-e.R+1 >= 0 {
			e.win -= *e.ring(r - e.R + 1)
		}
		e.win += e.newly
	}
}

// mark informs uninformed position x in this round (once).
func (e *engine) mark(x int) {
	w, b := x>>6, uint64(1)<<(x&63)
	if e.hit[w]&b == 0 {
		e.hit[w] |= b
		e.newly++
	}
}

// lost draws whether one message is lost.
func (e *engine) lost() bool { return e.eps > 0 && e.r.Float64() < e.eps }

// noHit returns log q₀, q₀ = ∏_{j<t} (1 − good/(pool−j)), the probability
// that t distinct uniform peers among pool include none of good nodes, and
// p₁ = 1 − q₀ (both by log1p and expm1, accurate when p₁ is tiny).
func noHit(t, good, pool int) (lq0, p1 float64) {
	for j := range t {
		if good >= pool-j {
			return math.Inf(-1), 1
		}
		lq0 += math.Log1p(-float64(good) / float64(pool-j))
	}
	return lq0, -math.Expm1(lq0)
}

// more counts the good peers among the sequential distinct draws
// j0..t−1 of a sender that has a good ones so far: draw j is good with
// probability (good − a)/(pool − j), the share of good nodes among those
// not yet drawn.
func (e *engine) more(j0, t, a, good, pool int) int {
	for j := j0; j < t && a < good; j++ {
		if int(e.r.Intn(uint32(pool-j))) < good-a {
			a++
		}
	}
	return a
}

// firstTable fills cum[j] = Σ_{i≤j} P(the first good draw is draw i), for
// j < t: s_i·good/(pool−i) with s_i = ∏_{l<i} (1 − good/(pool−l)).
func (e *engine) firstTable(t, good, pool int) {
	e.cum = e.cum[:0]
	s, c := 1.0, 0.0
	for i := range t {
		p := float64(good) / float64(pool-i)
		c += s * p
		e.cum = append(e.cum, c)
		s *= 1 - p
	}
}

// first draws the first good draw's position given that there is one.
func (e *engine) first() int {
	w := e.r.Float64() * e.cum[len(e.cum)-1]
	if len(e.cum) <= 8 {
		for j, c := range e.cum {
			if c > w {
				return j
			}
		}
		return len(e.cum) - 1
	}
	j, _ := slices.BinarySearch(e.cum, w)
	for j < len(e.cum)-1 && e.cum[j] <= w {
		j++
	}
	return j
}

// sparse is the share p₁ of useful senders below which they are reached by
// geometric jumps rather than sender by sender (speed only; the law is the
// same either way).
const sparse = 0.25

// skip returns the number of useless senders before the next useful one,
// a geometric variate with P(≥ g) = q₀^g, as a float (possibly +Inf).
func (e *engine) skip(lq0 float64) float64 { return math.Log(1-e.r.Float64()) / lq0 }

// push runs c senders of t transmits each against u uninformed positions.
// For t ≤ maxTable it draws each sender's delivered count D from its law
// (pushTable), else peer by peer (more); either way the senders with none
// are jumped over when they are most.
func (e *engine) push(c, t, u int) {
	if u == 0 {
		return
	}
	pool := e.pool
	if e.watch > 0 {
		e.pushWatched(c, t, u)
		return
	}
	if t <= maxTable {
		e.pushTable(t, u, pool)
		e.pushByTable(c, t, u)
		return
	}
	lq0, p1 := noHit(t, u, pool)
	if p1 >= sparse || c < 16 {
		for range c {
			if !e.spend(2 * t) {
				return
			}
			if a := e.more(0, t, 0, u, pool); a > 0 {
				e.deliver(a, u)
			}
		}
		return
	}
	e.firstTable(t, u, pool)
	for i := -1; ; {
		g := e.skip(lq0)
		if g >= float64(c-1-i) {
			return
		}
		i += int(g) + 1
		if !e.spend(2 * t) {
			return
		}
		j := e.first()
		e.deliver(e.more(j+1, t, 1, u, pool), u)
	}
}

// pushByTable runs c senders of t transmits whose delivered count D has
// the law e.tail (pushTable): each draws D by inversion, and when most
// deliver nothing they are jumped over by geometric draws.
func (e *engine) pushByTable(c, t, u int) {
	tail := e.tail
	if tail[1] >= sparse || c < 16 {
		for range c {
			if !e.spend(1) {
				return
			}
			if f := e.r.Float64(); f < tail[1] {
				e.place(largest(tail, f), u)
			}
		}
		return
	}
	lq0 := math.Log1p(-tail[1])
	for i := -1; ; {
		g := e.skip(lq0)
		if g >= float64(c-1-i) {
			return
		}
		i += int(g) + 1
		if !e.spend(1 + t) {
			return
		}
		e.place(largest(tail, e.r.Float64()*tail[1]), u)
	}
}

// maxTable is the largest fanout whose push draws use pushTable.
const maxTable = 16

// pushTable fills e.tail[d] = P(D ≥ d), d = 0..t+1 (tail[t+1] = 0), the law
// of the number D of one sender's messages that reach an uninformed node:
// its t distinct peers among pool include A ~ Hypergeometric(pool, good, t)
// uninformed ones, P(A = a) = C(t, a)·∏_{i<a} (good−i)/(pool−i)·
// ∏_{i<t−a} (bad−i)/(pool−a−i), a product of ratios ≤ 1 (no overflow), and
// D ~ Binomial(A, 1 − ε). The tails are summed from the top, so that
// P(D ≥ 1) keeps its relative precision when it is tiny.
func (e *engine) pushTable(t, good, pool int) {
	bad := pool - good
	pd := make([]float64, t+1)
	for a := max(0, t-bad); a <= min(t, good); a++ {
		h := 1.0
		for i := range a {
			h *= float64(good-i) / float64(pool-i) * float64(t-i) / float64(i+1)
		}
		for i := range t - a {
			h *= float64(bad-i) / float64(pool-a-i)
		}
		// Binomial(a, 1 − ε) thinning, from the end whose term cannot
		// underflow: P(D = a) = (1−ε)^a for ε < 1/2, else P(D = 0) = ε^a
		// (at least 2^−16); the ratios of neighbouring terms lead to the
		// others (terms that underflow are below 10^−300).
		if e.eps < 0.5 {
			b := math.Pow(1-e.eps, float64(a))
			for d := a; d >= 0; d-- {
				pd[d] += h * b
				b *= float64(d) / float64(a-d+1) * e.eps / (1 - e.eps)
			}
		} else {
			b := math.Pow(e.eps, float64(a))
			for d := 0; d <= a; d++ {
				pd[d] += h * b
				b *= float64(a-d) / float64(d+1) * (1 - e.eps) / e.eps
			}
		}
	}
	e.tail = append(e.tail[:0], make([]float64, t+2)...)
	for d := t; d >= 0; d-- {
		e.tail[d] = e.tail[d+1] + pd[d]
	}
}

// largest is the largest d ≥ 1 with tail[d] > f, for f < tail[1]: the
// draw of D given D ≥ 1 by inversion.
func largest(tail []float64, f float64) int {
	d := 1
	for tail[d+1] > f {
		d++
	}
	return d
}

// deliver sends a sender's a messages that go to uninformed nodes: each
// arrives with probability 1 − ε (place takes those that do).
func (e *engine) deliver(a, u int) {
	d := a
	if e.eps > 0 {
		for range a {
			if e.r.Float64() < e.eps {
				d--
			}
		}
	}
	e.place(d, u)
}

// place informs a uniform set of d distinct positions among 0..u−1
// (Floyd's algorithm).
func (e *engine) place(d, u int) {
	switch {
	case d == 0:
	case d == 1:
		e.mark(int(e.r.Intn(uint32(u))))
	case d <= 16:
		p := e.picks[:0]
		for j := u - d; j < u; j++ {
			x := int(e.r.Intn(uint32(j + 1)))
			if slices.Contains(p, x) {
				x = j
			}
			p = append(p, x)
			e.mark(x)
		}
		e.picks = p
	default:
		if e.stamp == nil {
			e.stamp = make([]uint32, e.M)
		}
		if e.cur++; e.cur == 0 {
			clear(e.stamp)
			e.cur = 1
		}
		for j := u - d; j < u; j++ {
			x := int(e.r.Intn(uint32(j + 1)))
			if e.stamp[x] == e.cur {
				x = j
			}
			e.stamp[x] = e.cur
			e.mark(x)
		}
	}
}

// pull runs the u askers (positions 0..u−1) against the M − u informed
// nodes and returns the replies sent.
func (e *engine) pull(u int) int64 {
	pool, good := e.N-1, e.live-u
	var replies int64
	ask := func(i, a int) {
		ok := false
		for range a {
			if e.lost() {
				continue // the request
			}
			replies++
			if !e.lost() {
				ok = true
			}
		}
		if ok {
			e.mark(i)
		}
	}
	lq0, p1 := noHit(e.k, good, pool)
	if p1 >= sparse || u < 16 {
		for i := 0; i < u; i++ {
			if !e.spend(e.k) {
				return replies
			}
			if a := e.more(0, e.k, 0, good, pool); a > 0 {
				ask(i, a)
			}
		}
		return replies
	}
	e.firstTable(e.k, good, pool)
	for i := -1; ; {
		g := e.skip(lq0)
		if g >= float64(u-1-i) {
			return replies
		}
		i += int(g) + 1
		if !e.spend(e.k) {
			return replies
		}
		j := e.first()
		ask(i, e.more(j+1, e.k, 1, good, pool))
	}
}
