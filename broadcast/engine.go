package broadcast

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/gossipkit/gossipkit/internal/rng"
)

// engine is the default Monte Carlo engine (Simulate's doc): between rounds
// a replication is the number u of uninformed live nodes and the cohorts
// (the nodes informed in each round); within a round the uninformed live
// nodes are positions 0..u−1 and hit marks those informed in the round.
type engine struct {
	cfg       Config
	seed      uint64
	N, M, k   int
	R, last   int // rounds a node pushes (0: no budget), transmits of its last
	eps       float64
	cont      bool // push with a budget: run on past T_L for the residue
	r         *rng.Rand
	ctx       context.Context
	err       error
	hit       []uint64
	newly     int
	picks     []int
	stamp     []uint32
	cur       uint32
	cum       []float64
	cohort    []int
	pre       []int
	sinceTick int
}

func newEngine(cfg Config, seed uint64) *engine {
	M := cfg.Live()
	e := &engine{cfg: cfg, seed: seed, N: cfg.Nodes, M: M, k: cfg.Fanout, eps: cfg.Loss,
		cont: cfg.Protocol == Push && cfg.Budget > 0, hit: make([]uint64, (M+63)/64), picks: make([]int, 0, 16)}
	if cfg.Budget > 0 {
		e.R = rounds(cfg.Budget, cfg.Fanout)
		e.last = cfg.Budget - cfg.Fanout*(e.R-1)
	}
	return e
}

// tickEvery is the number of senders (askers) between two checks of ctx
// inside a round.
const tickEvery = 1 << 12

// tick counts n senders and checks ctx every tickEvery of them.
func (e *engine) tick(n int) bool {
	e.sinceTick += n
	if e.sinceTick < tickEvery {
		return e.err == nil
	}
	e.sinceTick = 0
	if err := e.ctx.Err(); err != nil && e.err == nil {
		e.err = err
	}
	return e.err == nil
}

func (e *engine) run(ctx context.Context, index int) (Replication, error) {
	e.r = rng.NewStream(e.seed, uint64(index))
	e.ctx, e.err, e.sinceTick = ctx, nil, 0
	cfg := e.cfg
	rep := Replication{Index: index, T: -1}
	target := cfg.Target()
	u := e.M - 1
	e.cohort = append(e.cohort[:0], 1) // cohort[c]: the nodes informed in round c
	e.pre = append(e.pre[:0], 0, 1)    // pre[c] = Σ_{i<c} cohort[i]
	if target <= 1 {
		rep.T = 0
	}
	pushes, pulls := cfg.Protocol.pushes(), cfg.Protocol.pulls()
	for r := 1; ; r++ {
		if rep.T >= 0 && !e.cont || u == 0 {
			break
		}
		// The senders: every informed node without a budget; with one,
		// cohorts r−R+1..r−1 send k and cohort r−R its last transmits.
		full, lastG := 0, 0
		if pushes {
			if e.R == 0 {
				full = e.M - u
			} else {
				full = e.pre[r] - e.pre[max(0, r-e.R+1)]
				if r-e.R >= 0 {
					lastG = e.cohort[r-e.R]
				}
			}
		}
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
			msgs += int64(full) * int64(e.k)
			e.push(full, e.k, u)
		}
		if lastG > 0 {
			msgs += int64(lastG) * int64(e.last)
			e.push(lastG, e.last, u)
		}
		if e.err != nil {
			return rep, e.err
		}
		if rep.T < 0 {
			if rep.Messages > math.MaxInt64-msgs {
				return rep, fmt.Errorf("broadcast: replication %d: the message count passes 2^63", index)
			}
			rep.Messages += msgs
		}
		u -= e.newly
		e.cohort = append(e.cohort, e.newly)
		e.pre = append(e.pre, e.pre[r]+e.newly)
		if rep.T < 0 && e.M-u >= target {
			rep.T = r
		}
	}
	if e.cont {
		rep.Missed = u
	}
	return rep, nil
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
func (e *engine) push(c, t, u int) {
	if u == 0 {
		return
	}
	pool := e.N - 1
	lq0, p1 := noHit(t, u, pool)
	if p1 >= sparse || c < 16 {
		for i := 0; i < c; i++ {
			if i&(tickEvery-1) == 0 && !e.tick(tickEvery) {
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
		if !e.tick(1) {
			return
		}
		j := e.first()
		e.deliver(e.more(j+1, t, 1, u, pool), u)
	}
}

// deliver sends a sender's a messages that go to uninformed nodes: each
// arrives with probability 1 − ε, and those that arrive reach a uniform set
// of distinct positions (Floyd's algorithm).
func (e *engine) deliver(a, u int) {
	d := a
	if e.eps > 0 {
		for range a {
			if e.r.Float64() < e.eps {
				d--
			}
		}
	}
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
	pool, good := e.N-1, e.M-u
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
			if i&(tickEvery-1) == 0 && !e.tick(tickEvery) {
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
		if !e.tick(1) {
			return replies
		}
		j := e.first()
		ask(i, e.more(j+1, e.k, 1, good, pool))
	}
}
