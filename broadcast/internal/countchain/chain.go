package countchain

import (
	"context"
	"encoding/binary"
	"maps"
	"math"
	"slices"

	"github.com/gossipkit/gossipkit/broadcast/internal/pmf"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/parallel"
)

// BinUnits is the work of one term of a row's pull law (a binomial from
// its mode: a product, two divisions, the normalisation and the copy) in
// the units of Result.Work, in which a multiply–add counts 1.
const BinUnits = 8

const (
	exactTail      = 1e-14
	exactDrop      = 1e-22
	exactTrim      = 1e-30
	maxExactRounds = 200_000
)

// Params are the configuration's figures the chain uses: M live nodes of
// N (N1 = N − 1), fanout K, budget B in R = ⌈B/K⌉ rounds of pushes (0:
// none), loss Eps, the live count Target to reach, D deadline rounds (0:
// none), and the protocol's pushes and pulls.
type Params struct {
	M, N1, K, Budget, R, Target, D int
	Eps                            float64
	Push, Pull                     bool
}

// Result is what a run of the chain computes: P(T_L = t), the chance the
// chain stopped below the level (Never), the uninformed share at its end
// (Residue) and the chance some live node stays uninformed (PMiss) where
// it stops (a budget), the messages per live node, the mass dropped (Lost)
// and still running at the end (Remaining), Bound (those two plus the
// rounding: every probability is within it), and the expected uninformed
// share after round D (ResidueD; NaN where not followed, 0 without D).
//
// The chances of a miss are sums of nonnegative terms, so their rounding
// error is relative (RelRounding), and what the chain dropped can only
// add to them. Late[t] = P(T_L > t) (T_L = ∞ counted as late), at every
// round t of the PMF, lies within [v·(1 − ρ), v·(1 + ρ) + LostBy[t]], ρ
// = RelBy[t] and LostBy[t] the mass dropped by the end of round t; so
// does ResidueD (NaN where not followed) with RelD and LostD, those of
// round D; Residue and PMiss within [v·(1 − ρ), v·(1 + ρ) + Lost +
// Remaining], ρ = RelEnd. A deep chance, far below Bound, is thus still
// held to a few parts in 10¹⁰ (push–pull at N 300, k 2, ε 0.1, D 10:
// ResidueD 6.4449e-13 where Bound is 2.2e-12; Late[12] 6.83e-15, which
// the PMF's tail summed to 1.5e-14).
type Result struct {
	PMF                              []float64
	Never, Residue, PMiss, Messages  float64
	Lost, Remaining, Bound, ResidueD float64
	LostD, RelD, RelEnd              float64
	Late, LostBy, RelBy              []float64
	// ResidueBy[t] is the expected uninformed share after round t, at
	// every round of Late, within the same bounds as Late[t]; nil where
	// the counts above the target were not followed (no pull and no D)
	// or with a budget.
	ResidueBy []float64
	// Work is the work the run did, in multiply–adds (broadcast.ExactCost
	// estimates it): each row's pull law (BinUnits a term) and its
	// senders' steps over the band of counts kept, the rows applied to the
	// counts held, and 4M for each round of the chain.
	Work float64
}

// uninformed is the expected uninformed share of the law dist on the
// informed counts 0 … M.
func uninformed(dist []float64) float64 {
	M := len(dist) - 1
	u := 0.0
	for i, p := range dist {
		u += p * float64(M-i)
	}
	return u / float64(M)
}

// setLate appends P(T_L > t) = late after round t = len(res.Late) and
// its error's parts, lost the mass dropped so far.
func (ch *Chain) setLate(res *Result, late, lost float64) {
	t := len(res.Late)
	res.Late = append(res.Late, late)
	res.LostBy = append(res.LostBy, lost)
	res.RelBy = append(res.RelBy, ch.RelRounding(t))
}

// advance counts units of ExactCost's work as done and reports the share
// to ch.Progress in thousandths, at most 999 before the end (ExactCost is
// an estimate).
func (ch *Chain) advance(units float64) {
	ch.work += units
	if ch.Progress == nil {
		return
	}
	ch.done += units
	ch.Progress(int64(min(1000*ch.done/ch.Cost, 999)), 1000)
}

// Chain is the exact count chain of one configuration.
type Chain struct {
	n1, M, k, kl, R, target int
	B, D                    int // the budget and ⌊deadline⌋ (0: none)
	eps                     float64
	push, pull              bool
	kern, kernL             [][]float64 // kern[d][M−m] = K_m(d): new hits d of one sender, m unreached (0 where d > m)
	miss                    []float64   // miss[i]: h(i), pull
	rows                    map[[3]int]Row
	bufs                    rowBufs
	// Workers is the goroutines that compute the rows of the chain
	// without a budget (0 or 1: Row computes each as it is first needed).
	// The answer does not depend on it: each row is computed alone, and
	// the rounds use them in order.
	Workers int
	// Progress, if not nil, is told the work done in thousandths of Cost
	// (broadcast.ExactCost's estimate).
	Progress gossip.Progress
	Cost     float64
	done     float64 // work done, for Progress
	work     float64 // work done (Result.Work)
}

// Row is the law of a round's new count D.
type Row struct {
	Lo   int       // P[d] is P(D = Lo + d)
	P    []float64 // the law of the new count D
	Lost float64   // the mass cut off
}

// New is the chain of p.
func New(p Params) *Chain {
	ch := &Chain{n1: p.N1, M: p.M, k: p.K, target: p.Target, eps: p.Eps, B: p.Budget, D: p.D,
		push: p.Push, pull: p.Pull, rows: map[[3]int]Row{}}
	if p.Budget > 0 {
		ch.R = p.R
		ch.kl = p.Budget - p.K*(ch.R-1)
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

// senderKernels is K_m(d) for m = 0, …, M−1 and d = 0, …, k: the new hits
// of one sender of k pushes when m uninformed live nodes are not yet
// reached, stored as kern[d][M−m] (0 where d > m), so that in a row from
// i informed, where m = U − h = M − i − h, the kernel of count h is
// kern[d][i+h]: one slice per d that the step runs along with the law.
func senderKernels(M, k, n1 int, eps float64) [][]float64 {
	bins := make([][]float64, k+1) // bins[j][d] = Binomial(d; j, 1−ε)
	for j := range bins {
		bins[j] = pmf.Bin(nil, j, 1-eps)
	}
	kern := make([][]float64, k+1)
	for d := range kern {
		kern[d] = make([]float64, M+1)
	}
	var h []float64
	for m := range M {
		h = pmf.Hyp(h, k, m, n1)
		for j, hj := range h {
			if hj == 0 {
				continue
			}
			for d, b := range bins[j] {
				kern[d][M-m] += hj * b
			}
		}
	}
	return kern
}

// rowKey is the key under which ch.rows keeps Row(i, full, last).
func rowKey(i, full, last int) [3]int { return [3]int{i, full, last} }

// Row is the law of the new count from i informed, full senders pushing
// k and last senders pushing kl (both 0 for pull).
func (ch *Chain) Row(ctx context.Context, i, full, last int) (Row, error) {
	key := rowKey(i, full, last)
	if r, ok := ch.rows[key]; ok {
		return r, nil
	}
	r, work, err := ch.row(ctx, &ch.bufs, i, full, last)
	if err != nil {
		return Row{}, err
	}
	ch.rows[key] = r
	ch.advance(work)
	return r, nil
}

// rowBufs are the vectors a row's computation reuses.
type rowBufs struct{ v, bin, w []float64 }

// row computes Row with the buffers b, and its work (Result.Work). It
// reads the chain's kernels and writes nothing else of it, so rows may be
// computed at once by several goroutines, each with its own buffers.
func (ch *Chain) row(ctx context.Context, b *rowBufs, i, full, last int) (Row, float64, error) {
	U := ch.M - i
	kmax := max(len(ch.kern)-1, 0) // the most new hits of one sender
	// v and w have room for a step's writes past U, which are zeros.
	v := pmf.Resize(b.v, U+kmax+1)[:U+1]
	w := pmf.Resize(b.w, U+kmax+1)
	defer func() { b.v, b.w = v, w }()
	lo, hi := 0, 0
	if ch.pull && U > 0 {
		b.bin = pmf.Bin(b.bin, U, 1-ch.miss[i])
		copy(v, b.bin)
		hi = U
	} else {
		v[0] = 1
	}
	lost := 0.0
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
	work := float64(U + 1) // v's clearing
	if ch.pull {
		work *= BinUnits // the pull law
	}
	// step applies one sender: w[h+d] += v[h]·K_{U−h}(d). Taking d from
	// the largest down adds the terms of each w[x] in the order of h, as
	// a loop over h would, but each pass is a plain loop over the band.
	step := func(kern [][]float64) {
		vv := v[lo : hi+1]
		work += float64(len(vv) * len(kern))
		for d := len(kern) - 1; d >= 0; d-- {
			kd := kern[d][i+lo : i+hi+1]
			wd := w[lo+d : hi+d+1]
			for j, p := range vv {
				wd[j] += p * kd[j]
			}
		}
		clear(vv)
		hi = min(hi+len(kern)-1, U) // K_{U−h}(d) = 0 for h + d > U
		v, w = w[:U+1], v[:U+kmax+1]
		trim()
	}
	if ch.push && U > 0 {
		for s := 0; s < full+last; s++ {
			if s&63 == 63 {
				if err := ctx.Err(); err != nil {
					return Row{}, 0, err
				}
			}
			if s < full {
				step(ch.kern)
			} else {
				step(ch.kernL)
			}
		}
	}
	return Row{Lo: lo, P: append([]float64(nil), v[lo:hi+1]...), Lost: lost}, work, nil
}

// prefetch computes, on ch.Workers goroutines (parallel.For), the rows of the counts i
// in [1, top) that dist holds with at least exactDrop and that are not
// yet kept, senders(i) pushing k each; Row then finds them. The rows and
// the work counted are those of Row one at a time, in any order.
func (ch *Chain) prefetch(ctx context.Context, dist []float64, top int, senders func(int) int) error {
	var need []int
	for i := 1; i < top; i++ {
		if dist[i] >= exactDrop {
			if _, ok := ch.rows[rowKey(i, senders(i), 0)]; !ok {
				need = append(need, i)
			}
		}
	}
	if min(ch.Workers, len(need)) <= 1 {
		return nil // Row computes them as it goes
	}
	rows := make([]Row, len(need))
	work := make([]float64, len(need))
	err := parallel.For(ctx, len(need), ch.Workers, func() func(context.Context, int) error {
		var b rowBufs
		return func(ctx context.Context, n int) (err error) {
			i := need[n]
			rows[n], work[n], err = ch.row(ctx, &b, i, senders(i), 0)
			return err
		}
	}, nil)
	if err != nil {
		return err
	}
	for n, i := range need {
		ch.rows[rowKey(i, senders(i), 0)] = rows[n]
		ch.advance(work[n])
	}
	return nil
}

// pushMessages and pullMessages are the expected one-way messages of a
// round from i informed with the given senders.
func (ch *Chain) pushMessages(full, last int) float64 {
	if !ch.push {
		return 0
	}
	return float64(full*ch.k + last*ch.kl)
}

func (ch *Chain) pullMessages(i int) float64 {
	if !ch.pull {
		return 0
	}
	U, k := float64(ch.M-i), float64(ch.k)
	return U*k + U*k*float64(i)/float64(ch.n1)*(1-ch.eps)
}

func (ch *Chain) rounding(rounds int) float64 {
	return float64(rounds) * (float64(ch.M)*float64(ch.k+3) + 10) * 1.2e-16
}

// RelRounding is the relative rounding error of a sum over the states
// after the given rounds of nonnegative terms (a chance of a miss): n·u/(1
// − n·u), u = 2⁻⁵³, n = rounds·(M(k+3) + 10) operations for each state's
// probability (doc.go) plus M + 2 for the term and the sum (+Inf where
// n·u ≥ 1/2, never for the chains ExactCost lets run).
func (ch *Chain) RelRounding(rounds int) float64 {
	n := float64(rounds)*(float64(ch.M)*float64(ch.k+3)+10) + float64(ch.M) + 2
	nu := n * 0x1p-53
	if nu >= 0.5 {
		return math.Inf(1)
	}
	return nu / (1 - nu)
}

// Law runs the chain without a budget: on the counts below the target for
// T_L and its pushes, and with pulls on to M, for the requests and
// replies that go on until every live node is informed.
func (ch *Chain) Law(ctx context.Context) (*Result, error) {
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
	lost, msgs, remaining, residueD, lostD := 0.0, 0.0, 1.0, 0.0, math.NaN()
	res := &Result{}
	// below is P(T_L > r): the mass of the counts below the target after
	// round r (dist).
	below := func() float64 {
		s := 0.0
		for _, p := range dist[:max(min(target, M+1), 0)] {
			s += p
		}
		return s
	}
	senders := func(i int) int { // every informed node pushes
		if ch.push {
			return i
		}
		return 0
	}
	r := 0
	for ; (remaining >= exactTail || r <= ch.D) && r < maxExactRounds; r++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		clear(next)
		ch.advance(4 * float64(M))   // ExactCost's share of a round
		reached, applied := 0.0, 0.0 // applied: the rows' terms added this round
		ch.setLate(res, below(), lost)
		if top == M {
			res.ResidueBy = append(res.ResidueBy, uninformed(dist))
		}
		if r+1 == ch.D+1 && ch.D >= 1 {
			// dist is the law after round D.
			lostD, residueD = lost, uninformed(dist)
		}
		if err := ch.prefetch(ctx, dist, top, senders); err != nil {
			return nil, err
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
			row, err := ch.Row(ctx, i, senders(i), 0)
			if err != nil {
				return nil, err
			}
			msgs += p * ch.pullMessages(i)
			if i < target {
				msgs += p * ch.pushMessages(senders(i), 0)
			}
			lost += p * row.Lost
			applied += float64(len(row.P))
			dst := next[i+row.Lo:]
			for d, q := range row.P {
				dst[d] += p * q
				if i < target && i+row.Lo+d >= target {
					reached += p * q
				}
			}
		}
		ch.advance(applied)
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
	ch.setLate(res, below(), lost)
	if top == M {
		res.ResidueBy = append(res.ResidueBy, uninformed(dist))
	}
	res.PMF, res.Messages, res.Lost, res.Remaining = pmf, msgs/float64(M), lost, remaining
	res.Work = ch.work
	res.Bound = lost + remaining + ch.rounding(r)
	if top < M && ch.D >= 1 {
		residueD = math.NaN() // the counts above the target were not followed
	}
	if ch.D >= 1 && math.IsNaN(lostD) {
		residueD = math.NaN() // the chain ended (maxExactRounds) before D
	}
	res.ResidueD, res.LostD = residueD, lostD
	res.RelD, res.RelEnd = ch.RelRounding(min(ch.D, r)), ch.RelRounding(r)
	return res, nil
}

// BudgetLaw runs the chain on the informed counts by age (push with a
// budget), until no node can act.
func (ch *Chain) BudgetLaw(ctx context.Context) (*Result, error) {
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
	lostD := math.NaN()
	res := &Result{}
	ch.setLate(res, 1-pmf[0], 0)
	r := 0
	// On to D at least, so that its chances are not cut at exactTail.
	for ; len(cur) > 0 && (remaining >= exactTail || r < D) && r < maxExactRounds; r++ {
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
			row, err := ch.Row(ctx, i, full, last)
			if err != nil {
				return nil, err
			}
			msgs += s.p * ch.pullMessages(i)
			lost += s.p * row.Lost
			for d, q := range row.P {
				if q == 0 {
					continue
				}
				D := row.Lo + d
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
		below := 0.0     // Σ p over the states going on below the target
		for _, kk := range slices.Sorted(maps.Keys(next)) {
			s := next[kk]
			remaining += s.p
			i := 0
			for _, n := range s.ages {
				i += n
			}
			uncovered += s.p * float64(M-i) / float64(M)
			if i < target {
				below += s.p
			}
		}
		ch.setLate(res, never+below, lost)
		if r+1 == D {
			residueD, lostD = residue+uncovered, lost
		}
		cur = next
	}
	if D > r {
		// Stopped before the deadline, or cut at maxExactRounds.
		residueD, lostD = residue, lost
		if len(cur) > 0 {
			residueD = math.NaN()
		}
	}
	// Every informed live node spends its whole budget B.
	msgs += float64(ch.B) * informedEnd
	res.PMF, res.Never, res.Residue, res.PMiss, res.Messages, res.Lost, res.Remaining = pmf, never, residue, pmiss, msgs/float64(M), lost, remaining
	res.Work = ch.work
	res.Bound = lost + remaining + ch.rounding(r)
	res.ResidueD, res.LostD = residueD, lostD
	res.RelD, res.RelEnd = ch.RelRounding(min(D, r)), ch.RelRounding(r)
	return res, nil
}
