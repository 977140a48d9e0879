package broadcast

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/gossipkit/gossipkit/broadcast/internal/pmf"
	"github.com/gossipkit/gossipkit/gossip"
)

// The exact count chain.
//
// Without a budget the state at the start of a round is i, the informed
// live nodes (the source included); U = M − i are uninformed and live,
// F = N − M are down. Given i, the round's new informed count D has the
// following law (every node acts on the state at the start of the round,
// and a node informed in round r acts from r + 1, so i is all the chain
// needs).
//
// Pull. An uninformed live node asks k distinct peers among the N − 1
// others; the informed among them are Hypergeometric(k; i, N−1) (all i
// informed nodes are among its others), and a request to one of them
// brings the rumour back with probability (1−ε)² (request and reply). It
// therefore stays uninformed with probability
//
//	h(i) = Σ_j Hyp(j; k, i, N−1)·(1 − (1−ε)²)^j,
//
// and, the askers choosing and losing independently, D ~ Binomial(U, 1−h(i)).
//
// Push. The i senders choose independently, but each chooses k distinct
// peers, so the events "node v is hit" are not independent (an occupancy
// law). Take the senders one at a time and let H be the number of
// uninformed live nodes that have received at least one push so far. A
// sender's k distinct peers contain Hypergeometric(k; U−H, N−1) nodes that
// are uninformed, live and not yet reached, and each push to one arrives
// with probability 1 − ε independently, so its new hits have the law
//
//	K_m(d) = Σ_j Hyp(j; k, m, N−1)·Binomial(d; j, 1−ε),   m = U − H,
//
// and H after all i senders is D. The recursion H ← H + d has only
// nonnegative terms (the inclusion–exclusion form, P(a set A of uninformed
// nodes is all missed) = g(|A|)^i with g a hypergeometric generating
// function, alternates and is used only as an independent check in exact
// rationals, exact_test.go).
//
// Push–pull. Given i, the requests and the pushes are independent, and the
// set of nodes that pulled the rumour is, by symmetry, a uniform subset of
// its size; so the sender recursion starts from H ~ Binomial(U, 1−h(i))
// instead of H = 0.
//
// Budget B (push, push–pull). A node pushes for R = ⌈B/k⌉ rounds after it
// is informed, k peers in each of the first R − 1 and B − k(R−1) in the
// last. Its remaining transmits are a function of its age, so the state is
// (n_0, …, n_{R−1}, e): the informed live nodes by the rounds they have
// pushed, and e those done. Senders with different fanouts fit the same
// recursion (one kernel for each fanout). The state space grows like the
// compositions of M into R + 1 parts, so this chain is for small N; the
// answer's Note says so. The chain stops where no node can act (push alone
// with every informed node done, or everyone informed): the mass stopped
// below the level is Never, and the final uninformed share gives Residue
// and PMiss.
//
// Messages in a round on the paths that have not reached the level at its
// start (those with T_L ≥ r): i·k pushes (with a budget, k from each
// sender and B − k(R−1) from a sender in its last round), U·k requests and,
// in expectation, U·k·(i/(N−1))·(1−ε) replies (a request reaches an
// informed peer with probability i/(N−1) and arrives with probability
// 1 − ε).
//
// Accuracy. The chain is run until the mass that has neither reached the
// level nor stopped is below exactTail (or maxExactRounds rounds); states
// with mass below exactDrop are dropped, and the ends of a recursion's
// vector below exactTrim are cut. All that mass is added to Accuracy.Bound.
// Rounding: every probability is a sum of products of nonnegative factors
// computed with relative error u = 2⁻⁵³ each, so its relative error is at
// most n·u/(1 − n·u), n the longest chain of operations that produced it:
// at most U + i(k+2) + 4k + 10 ≤ M(k+3) + 10 per round (the binomial from
// its mode, the senders, the kernel and the normalisation). The rounding
// part of Bound is rounds·(M(k+3) + 10)·1.2·10⁻¹⁶, a total variation bound
// since the probabilities sum to at most 1.

const (
	exactTail      = 1e-14
	exactDrop      = 1e-22
	exactTrim      = 1e-30
	maxExactRounds = 200_000
)

// ExactCost estimates the work of ExactLaw for cfg, in the units of
// Settings.ExactBudget (about a nanosecond each; +Inf where the chain is
// out of reach). Without a budget: the kernels, M·k·min(k, M), plus the
// sender recursion over every state, Σ_i i·(M−i)·(k+1) ≈ M³(k+1)/6 for
// push, M² for pull, plus M per state and round. With a budget: the states
// (compositions of M into R+1 parts) times M per state and round, plus
// the rows.
func ExactCost(cfg Config) float64 {
	if cfg.Validate() != nil {
		return math.Inf(1)
	}
	M, k := float64(cfg.Live()), float64(cfg.Fanout)
	rounds := expectedRounds(cfg)
	cost := 0.0
	if cfg.Protocol.pushes() {
		cost += M*k*min(k, M) + M*M*M*(k+1)/6
	}
	cost += M*M + M*rounds*4
	if cfg.Budget > 0 {
		R := float64(rounds2(cfg))
		states := math.Exp(pmf.LChoose(M+R+1, R+1))
		cost = cost*R + states*M*math.Min(rounds, M*R)*20
	}
	return cost
}

func rounds2(cfg Config) int { return rounds(cfg.Budget, cfg.Fanout) }

// expectedRounds is a rough count of the rounds the chain runs: the
// mean-field growth to M plus the tail to exactTail.
func expectedRounds(cfg Config) float64 {
	M, N1, k := float64(cfg.Live()), float64(cfg.Nodes-1), float64(cfg.Fanout)
	eps := cfg.Loss
	g := 0.0 // per-round growth rate of the count while it is small
	if cfg.Protocol.pushes() {
		g += k * (1 - eps) * M / N1
	}
	if cfg.Protocol.pulls() {
		g += k * (1 - eps) * (1 - eps) * M / N1
	}
	// The last node is missed with probability at most about exp(−g) a
	// round once the others are informed; with a budget, once the pushes
	// are spent only the pulls remain.
	tail := g
	if cfg.Budget > 0 && cfg.Protocol.pulls() {
		tail = k * (1 - eps) * (1 - eps) * M / N1
	}
	return math.Log(M)/math.Log1p(g) + 32*math.Ln10/math.Max(tail, 1e-300) + 10
}

// ExactLaw is the law of T_L from the count chain described above (exact
// up to Accuracy.Bound, in total variation). It returns an error wrapping
// ErrNotCovered where the chain would not finish in reasonable time
// (ExactCost beyond 10¹³, or 10¹¹ with a budget; ExactCost overestimates
// the budgeted chain, whose reachable states are far fewer than the
// compositions it counts).
func ExactLaw(ctx context.Context, cfg Config) (*Law, error) {
	return exactLaw(ctx, cfg, nil)
}

// exactLaw is ExactLaw reporting progress (Settings.Progress) in
// thousandths of ExactCost's estimate as rows and rounds are done.
func exactLaw(ctx context.Context, cfg Config, progress gossip.Progress) (*Law, error) {
	if ctx == nil {
		return nil, errors.New("broadcast: nil context")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := roundsOnly(cfg, "exact law"); err != nil {
		return nil, err
	}
	limit := 1e13 // hours: beyond it the chain is not run
	if cfg.Budget > 0 {
		limit = 1e11 // the budgeted chain's map of states is slower per unit
	}
	if c := ExactCost(cfg); c > limit {
		return nil, fmt.Errorf("broadcast: exact law: cost %.3g beyond %.0e (N = %d, budget %d): %w", c, limit, cfg.Nodes, cfg.Budget, ErrNotCovered)
	}
	if cfg.Target() <= 1 && cfg.Budget == 0 && !cfg.Protocol.pulls() && deadlineRounds(cfg) == 0 {
		law := (&Law{PMF: []float64{1}, Accuracy: NoAccuracy()}).noDeadline()
		law.Accuracy.Bound = 0
		law.Accuracy.Note = "exact: the source alone meets the level (T_L = 0)"
		return law, nil
	}
	ch := newExactChain(cfg)
	ch.progress, ch.cost = progress, ExactCost(cfg)
	run := ch.law
	if cfg.Budget > 0 {
		run = ch.budgetLaw
	}
	law, err := run(ctx)
	if err == nil && progress != nil {
		progress(1000, 1000)
	}
	return law, err
}

// advance counts units of ExactCost's work as done and reports the share
// to ch.progress in thousandths, at most 999 before the end (ExactCost is
// an estimate).
func (ch *exactChain) advance(units float64) {
	if ch.progress == nil {
		return
	}
	ch.done += units
	ch.progress(int64(min(1000*ch.done/ch.cost, 999)), 1000)
}

type exactChain struct {
	n1, M, k, kl, R, target int
	B, D                    int // the budget and ⌊deadline⌋ (0: none)
	eps                     float64
	push, pull              bool
	kern, kernL             [][]float64 // kern[m][d]: new hits of one sender, m unreached
	miss                    []float64   // miss[i]: h(i), pull
	rows                    map[[3]int]exactRow
	buf, buf2               []float64
	progress                gossip.Progress // nil: none
	done, cost              float64         // work done and ExactCost, for progress
}

type exactRow struct {
	lo   int       // p[d] is P(D = lo + d)
	p    []float64 // the law of the new count D
	lost float64   // the mass cut off
}

func newExactChain(cfg Config) *exactChain {
	ch := &exactChain{n1: cfg.Nodes - 1, M: cfg.Live(), k: cfg.Fanout, target: cfg.Target(), eps: cfg.Loss, B: cfg.Budget, D: deadlineRounds(cfg),
		push: cfg.Protocol.pushes(), pull: cfg.Protocol.pulls(), rows: map[[3]int]exactRow{}}
	if cfg.Budget > 0 {
		ch.R = rounds(cfg.Budget, cfg.Fanout)
		ch.kl = cfg.Budget - cfg.Fanout*(ch.R-1)
	}
	if ch.push {
		ch.kern = senderKernels(ch.M, ch.k, ch.n1, ch.eps)
		if ch.kl > 0 && ch.kl != ch.k {
			ch.kernL = senderKernels(ch.M, ch.kl, ch.n1, ch.eps)
		} else {
			ch.kernL = ch.kern
		}
	}
	if ch.pull {
		ch.miss = make([]float64, ch.M+1)
		var buf []float64
		for i := range ch.miss {
			ch.miss[i] = pmf.PullMiss(buf, i, ch.k, ch.n1, ch.eps)
		}
	}
	return ch
}

// senderKernels is K_m(d) for m = 0, …, M−1: the new hits of one sender of
// k pushes when m uninformed live nodes are not yet reached.
func senderKernels(M, k, n1 int, eps float64) [][]float64 {
	bins := make([][]float64, k+1) // bins[j][d] = Binomial(d; j, 1−ε)
	for j := range bins {
		bins[j] = pmf.Bin(nil, j, 1-eps)
	}
	kern := make([][]float64, M)
	var h []float64
	for m := range kern {
		h = pmf.Hyp(h, k, m, n1)
		K := make([]float64, len(h))
		for j, hj := range h {
			if hj == 0 {
				continue
			}
			for d, b := range bins[j] {
				K[d] += hj * b
			}
		}
		kern[m] = K
	}
	return kern
}

// row is the law of the new count from i informed, full senders pushing k
// and last senders pushing kl (both 0 for pull).
func (ch *exactChain) row(ctx context.Context, i, full, last int) (exactRow, error) {
	key := [3]int{i, full, last}
	if r, ok := ch.rows[key]; ok {
		return r, nil
	}
	U := ch.M - i
	v := pmf.Resize(ch.buf, U+1)
	lo, hi := 0, 0
	if ch.pull && U > 0 {
		b := pmf.Bin(ch.buf2, U, 1-ch.miss[i])
		copy(v, b)
		ch.buf2 = b
		hi = U
	} else {
		v[0] = 1
	}
	lost := 0.0
	w := pmf.Resize(nil, U+1)
	trim := func() {
		for lo < hi && v[lo] < exactTrim {
			lost += v[lo]
			v[lo] = 0
			lo++
		}
		for hi > lo && v[hi] < exactTrim {
			lost += v[hi]
			v[hi] = 0
			hi--
		}
	}
	trim()
	step := func(kern [][]float64) {
		nhi := hi
		for h := lo; h <= hi; h++ {
			p := v[h]
			if p == 0 {
				continue
			}
			K := kern[U-h]
			for d, q := range K {
				w[h+d] += p * q
			}
			nhi = max(nhi, h+len(K)-1)
		}
		for h := lo; h <= hi; h++ {
			v[h] = 0
		}
		hi = nhi
		v, w = w, v
		trim()
	}
	if ch.push && U > 0 {
		for s := 0; s < full+last; s++ {
			if s&63 == 63 {
				if err := ctx.Err(); err != nil {
					return exactRow{}, err
				}
			}
			if s < full {
				step(ch.kern)
			} else {
				step(ch.kernL)
			}
		}
	}
	r := exactRow{lo: lo, p: append([]float64(nil), v[lo:hi+1]...), lost: lost}
	ch.buf = v
	ch.rows[key] = r
	ch.advance(float64((full+last)*(ch.k+1)*U + U)) // ExactCost's terms of this row
	return r, nil
}

// pushMessages and pullMessages are the expected one-way messages of a
// round from i informed with the given senders.
func (ch *exactChain) pushMessages(full, last int) float64 {
	if !ch.push {
		return 0
	}
	return float64(full*ch.k + last*ch.kl)
}

func (ch *exactChain) pullMessages(i int) float64 {
	if !ch.pull {
		return 0
	}
	U, k := float64(ch.M-i), float64(ch.k)
	return U*k + U*k*float64(i)/float64(ch.n1)*(1-ch.eps)
}

func (ch *exactChain) rounding(rounds int) float64 {
	return float64(rounds) * (float64(ch.M)*float64(ch.k+3) + 10) * 1.2e-16
}

// law runs the chain without a budget: on the counts below the target for
// T_L and its pushes, and with pulls on to M, for the requests and
// replies that go on until every live node is informed.
func (ch *exactChain) law(ctx context.Context) (*Law, error) {
	M, target := ch.M, ch.target
	top := target // the counts the chain follows: below top
	if ch.pull || ch.D >= 1 {
		top = M
	}
	dist := make([]float64, M+1)
	next := make([]float64, M+1)
	dist[1] = 1
	pmf := []float64{0}
	if target <= 1 {
		pmf[0] = 1 // the source alone meets the level
	}
	lost, msgs, remaining, residueD := 0.0, 0.0, 1.0, 0.0
	r := 0
	for ; (remaining >= exactTail || r <= ch.D) && r < maxExactRounds; r++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		clear(next)
		ch.advance(4 * float64(M)) // ExactCost's share of a round
		reached := 0.0
		if r+1 == ch.D+1 && ch.D >= 1 {
			// dist is the law after round D.
			for i, p := range dist {
				residueD += p * float64(M-i) / float64(M)
			}
		}
		for i := 1; i < top; i++ {
			p := dist[i]
			if p == 0 {
				continue
			}
			if p < exactDrop {
				lost += p
				continue
			}
			senders := 0
			if ch.push {
				senders = i
			}
			row, err := ch.row(ctx, i, senders, 0)
			if err != nil {
				return nil, err
			}
			msgs += p * ch.pullMessages(i)
			if i < target {
				msgs += p * ch.pushMessages(senders, 0)
			}
			lost += p * row.lost
			dst := next[i+row.lo:]
			for d, q := range row.p {
				dst[d] += p * q
				if i < target && i+row.lo+d >= target {
					reached += p * q
				}
			}
		}
		pmf = append(pmf, reached)
		next[M] = 0 // every live node informed: the chain stops
		remaining = 0
		for i, p := range next {
			if i >= top {
				next[i] = 0
				continue
			}
			remaining += p
		}
		dist, next = next, dist
	}
	law := (&Law{PMF: pmf, Messages: msgs / float64(M), Accuracy: NoAccuracy()}).noDeadline()
	law.Accuracy.Bound = lost + remaining + ch.rounding(r)
	if top < M && ch.D >= 1 {
		residueD = math.NaN() // the counts above the target were not followed
	}
	law.setExact(ch.D, residueD)
	law.Accuracy.Note = fmt.Sprintf("exact count chain; truncation (%.1e) and rounding: every probability within %.1e", lost+remaining, law.Accuracy.Bound)
	return law, nil
}

// budgetLaw runs the chain on the informed counts by age (push with a
// budget), until no node can act.
func (ch *exactChain) budgetLaw(ctx context.Context) (*Law, error) {
	M, R, target := ch.M, ch.R, ch.target
	type state struct {
		ages []int // ages[a] informed live nodes that have pushed a rounds, a < R; ages[R] done
		p    float64
	}
	key := func(ages []int) string {
		var b []byte
		for _, a := range ages {
			b = binary.AppendUvarint(b, uint64(a))
		}
		return string(b)
	}
	start := make([]int, R+1)
	start[0] = 1
	cur := map[string]*state{key(start): {ages: start, p: 1}}
	pmf := []float64{0}
	if target <= 1 {
		pmf[0] = 1
	}
	lost, msgs, never, residue, pmiss, informedEnd, residueD := 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
	D := ch.D
	remaining := 1.0
	r := 0
	for ; len(cur) > 0 && remaining >= exactTail && r < maxExactRounds; r++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		next := map[string]*state{}
		reached := 0.0
		// In key order, so that the sums, and the answer's last bits, do
		// not depend on the map's order.
		for n, kk := range slices.Sorted(maps.Keys(cur)) {
			if n&1023 == 1023 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			s := cur[kk]
			ch.advance(20 * float64(M)) // ExactCost's share of a state and round
			if s.p < exactDrop {
				lost += s.p
				continue
			}
			i, full := 0, 0
			for a, n := range s.ages {
				i += n
				if a < R-1 {
					full += n
				}
			}
			last := s.ages[R-1]
			row, err := ch.row(ctx, i, full, last)
			if err != nil {
				return nil, err
			}
			msgs += s.p * ch.pullMessages(i)
			lost += s.p * row.lost
			for d, q := range row.p {
				if q == 0 {
					continue
				}
				D := row.lo + d
				ages := make([]int, R+1)
				ages[0] = D
				copy(ages[1:R], s.ages[:R-1])
				ages[R] = s.ages[R] + s.ages[R-1]
				p := s.p * q
				ni := i + D
				if i < target && ni >= target {
					reached += p
				}
				if ni == M || (!ch.pull && ages[R] == ni) {
					// No node can act: stopped.
					if ni < target {
						never += p
					}
					residue += p * float64(M-ni) / float64(M)
					informedEnd += p * float64(ni)
					if ni < M {
						pmiss += p
					}
					continue
				}
				kk := key(ages)
				if t, ok := next[kk]; ok {
					t.p += p
				} else {
					next[kk] = &state{ages: ages, p: p}
				}
			}
		}
		pmf = append(pmf, reached)
		remaining = 0
		uncovered := 0.0 // Σ p·(M − i) over the states going on
		for _, kk := range slices.Sorted(maps.Keys(next)) {
			s := next[kk]
			remaining += s.p
			i := 0
			for _, n := range s.ages {
				i += n
			}
			uncovered += s.p * float64(M-i) / float64(M)
		}
		if r+1 == D {
			residueD = residue + uncovered
		}
		cur = next
	}
	if D > r {
		residueD = residue // stopped before the deadline
	}
	// Every informed live node spends its whole budget B.
	msgs += float64(ch.B) * informedEnd
	law := (&Law{PMF: pmf, Never: never, Residue: residue, PMiss: pmiss, Messages: msgs / float64(M), Accuracy: NoAccuracy()}).noDeadline()
	law.Accuracy.Bound = lost + remaining + ch.rounding(r)
	law.setExact(D, residueD)
	law.Accuracy.Note = fmt.Sprintf("exact chain on the informed counts by transmits left (small N only); truncation (%.1e) and rounding: every probability within %.1e", lost+remaining, law.Accuracy.Bound)
	return law, nil
}

// setExact states the chain's answers on misses: Residue and PMiss within
// Bound (relative errors Bound/value, 0 for a value the protocol makes
// exactly 0), ResidueDeadline within Bound where it was computed (D ≥ 1;
// NaN otherwise), and PLate left to Answer (from the PMF and Bound).
func (l *Law) setExact(D int, residueD float64) {
	b := l.Accuracy.Bound
	rel := func(v float64) float64 {
		if v == 0 {
			return 0
		}
		return b / v
	}
	l.ResidueRelErr, l.PMissRelErr = rel(l.Residue), rel(l.PMiss)
	if D >= 1 && !math.IsNaN(residueD) {
		l.ResidueDeadline, l.ResidueDeadlineRelErr = residueD, rel(residueD)
	}
}
