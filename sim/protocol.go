package sim

import (
	"github.com/gossipkit/gossipkit/internal/rng"

	"fmt"
	"slices"
)

// Counters are the integer tallies of one replication; they add exactly
// across replications and shards.
type Counters struct {
	Shuffles int64 `json:"shuffles"` // shuffles during observation
	Failed   int64 `json:"failed"`   // failed attempts (Async) during observation
	// SelectTrials counts (node holding d, shuffle) pairs; SelectHits those
	// in which d was in the node's exchange buffer. Protocol only.
	SelectTrials int64 `json:"select_trials"`
	SelectHits   int64 `json:"select_hits"`
	// DropCandidates sums |S_B \ S_A| (and |S_A \ S_B|) over shuffles; Drops
	// the items actually overwritten. Their ratio is the per-item P_drop.
	// Protocol only.
	DropCandidates int64 `json:"drop_candidates"`
	Drops          int64 `json:"drops"`
	// Transitions[from][to] counts d's state changes (states ab as in
	// approx.State) over shuffles in which A or B held d, including, under
	// loss, the shuffles whose request was lost (from = to).
	Transitions [4][4]int64 `json:"transitions"`
}

func (c *Counters) add(o *Counters) {
	c.Shuffles += o.Shuffles
	c.Failed += o.Failed
	c.SelectTrials += o.SelectTrials
	c.SelectHits += o.SelectHits
	c.DropCandidates += o.DropCandidates
	c.Drops += o.Drops
	for i := range 4 {
		for j := range 4 {
			c.Transitions[i][j] += o.Transitions[i][j]
		}
	}
}

// item is the type of an item identifier: uint16 while n + 1 ≤ 65536, which
// halves the cache footprint (the paper's N = 2500, c = 100 caches then fit
// in a core's L2), int32 beyond.
type item interface{ ~uint16 | ~int32 }

// narrowItems reports whether the n items and d fit a uint16 identifier
// (n + 1 ≤ 65536): the one rule that picks a protocol state's item type.
func narrowItems(n int) bool { return n+1 <= 1<<16 }

// protocolState is the network of docs/MODEL.md §1: N caches of c distinct items
// out of n + 1 (the n items plus d = n). Memory: cache N·c·sizeof(T) bytes
// (at most 4) and two stamp arrays of n + 1 words. Membership is not stored
// per node: each shuffle stamps the two caches it touches (markA, markB), so
// "does B hold x" is one comparison, and no per-node index has to be kept
// up to date (which cost chains of dependent read-modify-writes).
type protocolState[T item] struct {
	N, n, c, s   int
	cache        []T      // cache[v*c : v*c+c] is node v's cache, in no order
	markA        []uint32 // markA[x] ≥ epoch iff x ∈ C_A; = epoch+1 iff x ∈ S_A
	markB        []uint32 // likewise for B, in the current shuffle
	epoch        uint32
	newA, newB   []T     // received items a side lacks
	candA, candB []int32 // slots of a side's buffer it may overwrite
	d            T       // the tracked item
	tracking     bool
	xCount       int
	covered      bitset
	yCount       int
	snap         snapshotCoverage
	cnt          Counters
	// loss is ε, lossReply = 1 − (1−ε)² the chance that the request or
	// the reply is lost: one uniform u per shuffle, drawn only when ε > 0,
	// decides (u < ε: request lost; u < lossReply: reply lost).
	loss, lossReply float64
	check           bool
	copies          []int32 // Check mode: copies of each item in the network
	before          []T     // Check mode: the two caches before the shuffle
	existed         []bool  // Check mode: items that must not vanish
	seen            []int32 // Check mode: scratch for the distinctness test
	held            []bool  // Check mode: scratch, items held before the shuffle
}

// outcome is what became of a shuffle's two messages.
type outcome int

const (
	delivered   outcome = iota // both messages arrived: the lossless shuffle
	replyLost                  // B did its part; A's cache is unchanged
	requestLost                // nothing happened
)

func newProtocolState[T item](cfg Config, r *rng.Rand) *protocolState[T] {
	return newProtocolStateIn[T](cfg, r, nil)
}

// newProtocolStateIn is newProtocolState with buf, if it holds N·c items,
// as the caches (a worker's, reused from one replication to the next: the
// initial placement overwrites every slot).
func newProtocolStateIn[T item](cfg Config, r *rng.Rand, buf []T) *protocolState[T] {
	N, n, c, s := cfg.Nodes, cfg.Shuffle.Items, cfg.Shuffle.Cache, cfg.Shuffle.Exchange
	if len(buf) != N*c {
		buf = make([]T, N*c)
	}
	st := &protocolState[T]{
		N: N, n: n, c: c, s: s,
		cache: buf,
		markA: make([]uint32, n+1), markB: make([]uint32, n+1),
		newA: make([]T, s), newB: make([]T, s),
		candA: make([]int32, s), candB: make([]int32, s),
		d: T(n), covered: newBitset(N), snap: newSnapshotCoverage(N), check: cfg.Check,
		loss: cfg.Loss, lossReply: cfg.Loss * (2 - cfg.Loss),
	}
	// Initial placement: slot j of node v holds item π((v·c + j) mod n) for
	// a random permutation π. c consecutive residues are distinct (c ≤ n), so
	// caches hold distinct items, and the N·c slots cover the residues
	// evenly, so every item has ⌊cN/n⌋ or ⌈cN/n⌉ copies.
	pi := make([]int32, n)
	r.Perm(pi)
	for v := range N {
		for j := range c {
			x := T(pi[(v*c+j)%n])
			st.cache[v*c+j] = x
		}
	}
	if st.check {
		st.copies = make([]int32, n+1)
		st.existed = make([]bool, n+1)
		st.seen = make([]int32, n+1)
		st.held = make([]bool, n+1)
		st.before = make([]T, 2*c)
		for _, x := range st.cache {
			st.copies[x]++
			st.existed[x] = true
		}
	}
	return st
}

// selectBuffer moves a uniform random s-subset of the c slots of cache (or
// of any list) to its first s slots: a partial Fisher–Yates shuffle, run
// from whichever end needs fewer draws (m = min(s, c−s)).
//
// The draws are those of r.Fill into a buffer of m raw 32-bit draws (two per
// 64-bit output, the low half first) each mapped by r.Bounded, made on the
// fly from a copy of the state (which stays in a register) rather than
// stored and read back. Bounded's rare redraw (probability < c/2^32 a draw)
// takes, as after Fill, the outputs that follow the whole batch: redraw
// finds them. selectBufferFill in the tests is the Fill version;
// TestSelectBufferMatchesFill checks the two agree, redraws included.
func selectBuffer[T item](r *rng.Rand, cache []T, s int) {
	c := len(cache)
	w := *r
	var late lateDraws
	if 2*s <= c {
		late.start(r, (s+1)/2)
		// i < s ≤ c and i ≤ j < c: bounded returns a value below c − i.
		i := 0
		for ; i+1 < s; i += 2 {
			v := w.Uint64()
			m := uint64(uint32(v)) * uint64(c-i)
			if uint32(m) < uint32(c-i) {
				m = late.redraw(m, uint32(c-i))
			}
			j := i + int(m>>32)
			pi, pj := at(cache, i), at(cache, j)
			*pi, *pj = *pj, *pi
			m = (v >> 32) * uint64(c-i-1)
			if uint32(m) < uint32(c-i-1) {
				m = late.redraw(m, uint32(c-i-1))
			}
			j = i + 1 + int(m>>32)
			pi, pj = at(cache, i+1), at(cache, j)
			*pi, *pj = *pj, *pi
		}
		if i < s {
			m := uint64(uint32(w.Uint64())) * uint64(c-i)
			if uint32(m) < uint32(c-i) {
				m = late.redraw(m, uint32(c-i))
			}
			j := i + int(m>>32)
			pi, pj := at(cache, i), at(cache, j)
			*pi, *pj = *pj, *pi
		}
	} else {
		// Choose the c−s items left out, from the end: the k-th draw puts
		// slot j ≤ i = c−1−k at i; 0 ≤ j ≤ i < c.
		m := c - s
		late.start(r, (m+1)/2)
		k := 0
		for ; k+1 < m; k += 2 {
			v := w.Uint64()
			i := c - 1 - k
			m := uint64(uint32(v)) * uint64(i+1)
			if uint32(m) < uint32(i+1) {
				m = late.redraw(m, uint32(i+1))
			}
			j := int(m >> 32)
			pi, pj := at(cache, i), at(cache, j)
			*pi, *pj = *pj, *pi
			m = (v >> 32) * uint64(i)
			if uint32(m) < uint32(i) {
				m = late.redraw(m, uint32(i))
			}
			j = int(m >> 32)
			pi, pj = at(cache, i-1), at(cache, j)
			*pi, *pj = *pj, *pi
		}
		if k < m {
			i := c - 1 - k
			m := uint64(uint32(w.Uint64())) * uint64(i+1)
			if uint32(m) < uint32(i+1) {
				m = late.redraw(m, uint32(i+1))
			}
			j := int(m >> 32)
			pi, pj := at(cache, i), at(cache, j)
			*pi, *pj = *pj, *pi
		}
	}
	*r = late.end(w)
}

// lateDraws supplies Bounded's redraws for a batch of draws made from a copy
// of a stream: the outputs that follow the batch, as if the batch had been
// drawn by Fill.
type lateDraws struct {
	r       *rng.Rand // the stream at the start of the batch
	skip    int       // the batch's 64-bit outputs
	redrawn bool      // whether next holds the stream after some redraws
	next    rng.Rand
}

func (l *lateDraws) start(r *rng.Rand, skip int) { l.r, l.skip, l.redrawn = r, skip, false }

// redraw finishes r.Bounded(u, n) (Lemire's method) for a product
// m = u·n whose low half is below n, which selectBuffer checks inline: it
// draws afresh while the low half is below 2^32 mod n and returns the
// product whose high half is the result.
//
//go:noinline
func (l *lateDraws) redraw(m uint64, n uint32) uint64 {
	t := -n % n
	for uint32(m) < t {
		if !l.redrawn {
			l.next = *l.r
			for range l.skip {
				l.next.Uint64()
			}
			l.redrawn = true
		}
		m = uint64(uint32(l.next.Uint64())) * uint64(n)
	}
	return m
}

// end returns the stream after the batch: w, the copy that made the batch,
// or the stream after the redraws if there were any.
func (l *lateDraws) end(w rng.Rand) rng.Rand {
	if l.redrawn {
		return l.next
	}
	return w
}

// shuffle performs one shuffle of docs/MODEL.md §1 between initiator a and
// partner b. Both sides act on the caches as they were before the shuffle:
// each side's new items and drop candidates are worked out first, from the
// unchanged caches, and only then applied.
//
// Each side's cache is stamped first: markA[x] = epoch for x ∈ C_A \ S_A and
// epoch+1 for x ∈ S_A (likewise markB). For B, the received items it lacks
// are those of S_A with markB[x] < epoch, and the items it may overwrite are
// those of S_B with markA[x] ≠ epoch+1 (S_B \ S_A). Likewise for A.
//
// Under loss (ε > 0) one uniform draw first decides the fate of the two
// messages (docs/MODEL.md, "The shuffle protocol under loss"): the request
// is lost with probability ε and nothing happens; else the reply is lost
// with probability ε, and B does its whole part (it takes S_A's new items
// and overwrites items of S_B \ S_A) while A's cache stays as it was; else
// the shuffle is the lossless one. At ε = 0 nothing is drawn, so a
// lossless run is the same stream of draws as before loss existed.
func (st *protocolState[T]) shuffle(r *rng.Rand, a, b int32) {
	c, s := st.c, st.s
	ca := st.cache[int(a)*c : int(a)*c+c]
	cb := st.cache[int(b)*c : int(b)*c+c]
	if st.check {
		copy(st.before, ca)
		copy(st.before[c:], cb)
	}
	out := delivered
	if st.loss > 0 {
		switch u := r.Float64(); {
		case u < st.loss:
			out = requestLost
		case u < st.lossReply:
			out = replyLost
		}
	}
	if out == requestLost {
		st.lostRequest(a, b)
		return
	}
	st.epoch += 2
	if st.epoch < 2 { // wrapped: old stamps could look current
		clear(st.markA)
		clear(st.markB)
		st.epoch = 2
	}
	inC, inS := st.epoch, st.epoch+1
	markA, markB := st.markA, st.markB
	selectBuffer(r, ca, s)
	selectBuffer(r, cb, s)
	sa, sb := ca[:s], cb[:s]
	stamp(markA, ca[s:], inC)
	stamp(markB, cb[s:], inC)
	stamp(markA, sa, inS)
	stamp(markB, sb, inS)
	d := st.d
	aHad, bHad := markA[d] >= inC, markB[d] >= inC
	na, nb, shared := scanNew(sa, sb, markA, markB, st.newA, st.newB, inC)
	newB, newA := st.newB[:nb], st.newA[:na]
	if st.tracking {
		if aHad {
			st.cnt.SelectTrials++
			st.cnt.SelectHits += int64(1 - notEqual(markA[d], inS))
		}
		if bHad {
			st.cnt.SelectTrials++
			st.cnt.SelectHits += int64(1 - notEqual(markB[d], inS))
		}
		// |S_A \ S_B| + |S_B \ S_A| = 2(s − ŝ), ŝ = |S_A ∩ S_B|, drop
		// candidates; only B's s − ŝ, and B's drops, when the reply was
		// lost (A dropped nothing).
		if out == replyLost {
			st.cnt.Drops += int64(nb)
			st.cnt.DropCandidates += int64(s - shared)
		} else {
			st.cnt.Drops += int64(na + nb)
			st.cnt.DropCandidates += int64(2 * (s - shared))
		}
		st.cnt.Shuffles++
	}
	// len(new) ≤ len(cand) below: the side received s items of which k
	// are duplicates, and the ŝ items of its buffer that it also received
	// are among those k, so s − k ≤ s − ŝ.
	var lostA, lostB bool // d overwritten at A, at B
	if 2*s <= c {
		// selectBuffer drew each buffer slot by slot, so each buffer is in
		// uniformly random order, independent of the other side's choice:
		// the first m slots of S_B not in S_A (in buffer order) are a
		// uniform m-subset of S_B \ S_A. No candidate list, no extra draws.
		//
		// d is overwritten at a side that sent it and did not also receive
		// it, if its slot comes before the drops run out: find the slot
		// before the drops (rarely needed: only d's holders look).
		posA, posB := -1, -1
		if aHad && markA[d] == inS && markB[d] != inS {
			posA = slices.Index(sa, d)
		}
		if bHad && markB[d] == inS && markA[d] != inS {
			posB = slices.Index(sb, d)
		}
		endB := dropInOrder(sb, markA, inC, newB)
		lostB = posB >= 0 && posB < endB
		if out == delivered {
			endA := dropInOrder(sa, markB, inC, newA)
			lostA = posA >= 0 && posA < endA
		}
	} else {
		candB, candA := st.candB[:s], st.candA[:s]
		kb, ka := 0, 0
		for i, x := range sb { // kb ≤ i < s = len(candB)
			*at(candB, kb) = int32(i)
			kb += below(*at(markA, int(x)), inS)
		}
		for i, x := range sa {
			*at(candA, ka) = int32(i)
			ka += below(*at(markB, int(x)), inS)
		}
		lostB = st.replace(r, cb, candB[:kb], newB)
		if out == delivered {
			lostA = st.replace(r, ca, candA[:ka], newA)
		}
	}
	if aHad || bHad {
		// d arrives where it was sent and new; it stays where it was held
		// unless the drop overwrote it. A receives nothing when the reply
		// is lost (and then lostA is false: A overwrote nothing).
		aHas := (aHad && !lostA) || (!aHad && out == delivered && markB[d] == inS)
		bHas := (bHad && !lostB) || (!bHad && markA[d] == inS)
		if st.tracking {
			from := b2i(aHad)<<1 | b2i(bHad)
			to := b2i(aHas)<<1 | b2i(bHas)
			st.cnt.Transitions[from][to]++
		}
		st.noteD(a, aHad, aHas)
		st.noteD(b, bHad, bHas)
	}
	if st.check {
		st.verify(a, b, out)
	}
}

// lostRequest is a shuffle whose request was lost: no cache changes. It
// counts as a shuffle and, if A or B holds d, as a transition of d's state
// to itself (the matrix of approx.NewTransitionsLoss includes these);
// no buffer was exchanged, so it adds no selection trial and no drop
// candidate. snap.holds says who holds d (all false before the insertion).
func (st *protocolState[T]) lostRequest(a, b int32) {
	if st.tracking {
		st.cnt.Shuffles++
		aHad, bHad := st.snap.holds.get(a), st.snap.holds.get(b)
		if aHad || bHad {
			from := b2i(aHad)<<1 | b2i(bHad)
			st.cnt.Transitions[from][from]++
		}
	}
	if st.check {
		st.verify(a, b, requestLost)
	}
}

// below returns 1 if a < b and 0 otherwise, without a branch.
func below(a, b uint32) int { return int((uint64(a) - uint64(b)) >> 63) }

// notEqual returns 1 if a ≠ b and 0 otherwise, without a branch.
func notEqual(a, b uint32) int {
	d := a ^ b
	return int((d | -d) >> 31)
}

// stamp sets mark[x] = v for the items x of list. The loops of shuffle are
// small functions of their own: inside shuffle, with its many live values,
// they kept their counters on the stack.
func stamp[T item](mark []uint32, list []T, v uint32) {
	// Every item is at most n and the stamp tables have n + 1 entries
	// (Check mode verifies the items' range). Two at a time: half the loop
	// overhead (measured: 3 % of a shuffle's instructions; the same by
	// re-slicing, list = list[2:], cost 5 % more).
	i := 0
	for ; i+1 < len(list); i += 2 {
		*at(mark, int(*at(list, i))) = v
		*at(mark, int(*at(list, i+1))) = v
	}
	if i < len(list) {
		*at(mark, int(*at(list, i))) = v
	}
}

// scanNew goes once through both buffers sa and sb (of equal length s) and
// writes to newB the items of sa that B lacks (markB below inC) and to newA
// those of sb that A lacks, in buffer order; it returns their numbers and
// ŝ = |S_A ∩ S_B|. newA and newB have room for s items. Branch-free (the
// outcomes are random, so branches would be mispredicted about one time in
// five): every item is written and its count advances by 0 or 1. A stamp is
// never above the current S stamp inC + 1, so "stamp = inC + 1" is "stamp >
// inC": below(inC, stamp). (One loop over both buffers takes fewer
// instructions than one loop for each, measured.)
func scanNew[T item](sa, sb []T, markA, markB []uint32, newA, newB []T, inC uint32) (na, nb, shared int) {
	for i, x := range sa { // nb, na ≤ i < s = len(newB) = len(newA) = len(sb)
		y := *at(sb, i)
		mb := *at(markB, int(x)) // items are at most n < len(mark)
		*at(newB, nb) = x
		nb += below(mb, inC)
		shared += below(inC, mb)
		*at(newA, na) = y
		na += below(*at(markA, int(y)), inC)
	}
	return na, nb, shared
}

// dropInOrder overwrites, in buffer order, the first len(items) slots of buf
// whose item does not carry the other side's S stamp (the items sent but not
// also received; inMark is the other side's table and inC its C stamp, so
// the S stamp is any stamp above inC) with the new items, and returns the
// number of slots it went through: the overwritten slots are those of
// buf[:end] without the stamp. buf is the front of the cache.
func dropInOrder[T item](buf []T, inMark []uint32, inC uint32, items []T) (end int) {
	// Branch-free: a slot whose item carries the S stamp is rewritten with
	// its own item. Which slots those are is random (about one in ten), and
	// a mispredicted branch costs more than the store (measured: 4 % of a
	// shuffle).
	k, i := 0, 0
	for ; k < len(items); i++ {
		// i < len(buf): buf holds at least len(items) items without the
		// stamp (len(new) ≤ len(cand), shown in shuffle), so the loop ends
		// before it runs out.
		p := at(buf, i)
		x := *p
		keep := below(inC, *at(inMark, int(x)))
		y := *at(items, k) // k < len(items): the loop condition
		if keep != 0 {
			y = x
		}
		*p = y
		k += 1 - keep
	}
	return i
}

// replace overwrites a uniform random choice of len(items) of the candidate
// slots of a cache with the new items, and reports whether it overwrote d.
func (st *protocolState[T]) replace(r *rng.Rand, cv []T, cand []int32, items []T) (lostD bool) {
	m := len(items)
	if m == 0 {
		return false
	}
	selectBuffer(r, cand, m) // a uniform m-subset of the candidates
	for k, pos := range cand[:m] {
		lostD = st.overwrite(&cv[pos], items[k]) || lostD
	}
	return lostD
}

// overwrite puts y into the cache slot p and reports whether the item
// overwritten was d.
func (st *protocolState[T]) overwrite(p *T, y T) bool {
	x := *p
	*p = y
	return x == st.d
}

func (st *protocolState[T]) noteD(v int32, had, has bool) {
	switch {
	case has && !had:
		st.snap.gain(v)
		st.xCount++
		if !st.covered.get(v) {
			st.covered.set(v)
			st.yCount++
		}
	case had && !has:
		st.snap.lose(v)
		st.xCount--
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// insert places d at the given nodes, each replacing a random cached item.
func (st *protocolState[T]) insert(r *rng.Rand, nodes []int32) {
	for _, v := range nodes {
		j := int(r.Intn(uint32(st.c)))
		old := st.cache[int(v)*st.c+j]
		st.cache[int(v)*st.c+j] = st.d
		if st.check {
			st.copies[old]--
			st.copies[st.d]++
			// d replaced it: the old item may lose its last copy here, the
			// only place the protocol allows that.
			st.existed[old] = st.copies[old] > 0
			st.existed[st.d] = true
		}
		st.snap.gain(v)
		st.xCount++
		st.covered.set(v)
		st.yCount++
	}
}

// alive returns the number of distinct items other than d in the caches.
func (st *protocolState[T]) alive() int {
	seen := make([]bool, st.n+1)
	k := 0
	for _, x := range st.cache {
		if !seen[x] && x != st.d {
			seen[x] = true
			k++
		}
	}
	return k
}

// InvariantError reports a broken protocol invariant in Check mode.
type InvariantError struct{ Msg string }

func (e *InvariantError) Error() string {
	if e == nil {
		return "invariant broken: (nil error)"
	}
	return "invariant broken: " + e.Msg
}

// verify checks, after a shuffle, that a's and b's caches hold c distinct
// items, each at most n (the unchecked indexing relies on it), that the
// total number of copies is N·c, that no item came from nowhere (each item
// a side holds after the shuffle was held by A or B before it), that the
// caches the outcome must leave alone are unchanged as sets (A's when the
// reply was lost, both when the request was), and that no item that
// existed has vanished, except, when the reply was lost, an item B
// overwrote that nobody else held (it reached no one). The copy counts are
// brought up to date here, from the caches before and after, so the
// shuffle's own code has no Check-mode branches: what is verified is the
// code that runs.
func (st *protocolState[T]) verify(a, b int32, out outcome) {
	c := st.c
	for _, x := range st.before {
		st.copies[x]--
	}
	for _, v := range []int32{a, b} {
		cv := st.cache[int(v)*c : int(v)*c+c]
		for _, x := range cv {
			if x < 0 || int(x) > st.n {
				panic(&InvariantError{fmt.Sprintf("node %d holds item %d, outside 0..n = %d", v, x, st.n)})
			}
			st.copies[x]++
		}
		for _, x := range cv {
			if st.seen[x] == v+1 {
				panic(&InvariantError{fmt.Sprintf("node %d holds item %d twice", v, x)})
			}
			st.seen[x] = v + 1
		}
		for _, x := range cv {
			st.seen[x] = 0
		}
	}
	for _, x := range st.before {
		st.held[x] = true
	}
	for _, v := range []int32{a, b} {
		for _, x := range st.cache[int(v)*c : int(v)*c+c] {
			if !st.held[x] {
				panic(&InvariantError{fmt.Sprintf("node %d received item %d, which neither %d nor %d held", v, x, a, b)})
			}
		}
	}
	for _, x := range st.before {
		st.held[x] = false
	}
	unchanged := func(v int32, before []T) {
		now := slices.Sorted(slices.Values(st.cache[int(v)*c : int(v)*c+c]))
		if !slices.Equal(now, slices.Sorted(slices.Values(before))) {
			panic(&InvariantError{fmt.Sprintf("node %d's cache changed in a shuffle whose %s was lost", v, map[outcome]string{replyLost: "reply", requestLost: "request"}[out])})
		}
	}
	switch out {
	case requestLost:
		unchanged(a, st.before[:c])
		unchanged(b, st.before[c:])
	case replyLost:
		unchanged(a, st.before[:c])
	}
	total := int64(0)
	for x, k := range st.copies {
		if k < 0 {
			panic(&InvariantError{fmt.Sprintf("item %d has %d copies", x, k)})
		}
		total += int64(k)
	}
	if total != int64(st.N)*int64(st.c) {
		panic(&InvariantError{fmt.Sprintf("%d copies in the network, want N·c = %d", total, st.N*st.c)})
	}
	cb := st.cache[int(b)*c : int(b)*c+c]
	for x, k := range st.copies {
		if k == 0 && st.existed[x] {
			// Allowed only for an item B held and overwrote in a shuffle
			// whose reply was lost (A held it not: A is unchanged and
			// would still hold it).
			if out == replyLost && slices.Contains(st.before[c:], T(x)) && !slices.Contains(cb, T(x)) {
				st.existed[x] = false
				continue
			}
			panic(&InvariantError{fmt.Sprintf("item %d vanished in a shuffle of %d and %d (%s)", x, a, b, map[outcome]string{delivered: "both messages delivered", replyLost: "reply lost", requestLost: "request lost"}[out])})
		}
	}
}
