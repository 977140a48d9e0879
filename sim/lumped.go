package sim

import (
	"context"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/internal/rng"
)

// Node classes of the lumped chain. Under the Continuous schedule on the
// full graph every node is exchangeable, so the pairwise-Markov model is a
// Markov chain on how many nodes are in each class: holding d and already
// seen at a snapshot (hs), holding d but not yet seen (hu), not holding d
// but seen at a snapshot (ns), not holding it, held it since t = 0 but was
// never seen at a snapshot (nc), and never held it (n0). Then X = hs + hu,
// Y = N − n0 and YRound = hs + ns.
const (
	classHS = iota
	classHU
	classNS
	classNC
	classN0
)

// lumpedState is one replication of the lumped chain.
type lumpedState struct {
	n   [5]int
	N   float64
	tr  approx.Transitions
	cnt Counters
	// skip[from][to] is true for the outcomes not simulated one by one:
	// those that change nothing (to = from, and pairs without d), and,
	// once every node has been seen at a snapshot, the swaps 01 ↔ 10,
	// which then only exchange two nodes of the same classes. change[from]
	// is the probability of the others.
	skip   [4][4]bool
	change [4]float64
	// pairTime[mode][from] is ∫ rate(from) dt over the time spent before
	// (mode 0) and after (1) every node was seen. Given the path, the
	// skipped shuffles form a Poisson process, so the number with outcome
	// (from, to) is Poisson with mean Σ pairTime[mode][from]·tr[from][to]
	// over the modes that skip it.
	pairTime [2][4]float64
	invN1    float64 // 1/(N − 1)
}

// setSkip sets skip and change; allSeen skips the swaps too.
func (l *lumpedState) setSkip(allSeen bool) {
	for from := range 4 {
		l.change[from] = 0
		for to := range 4 {
			swap := from == 1 && to == 2 || from == 2 && to == 1
			l.skip[from][to] = from == 0 || to == from || (allSeen && swap)
			if !l.skip[from][to] {
				l.change[from] += l.tr[from][to]
			}
		}
	}
}

// holders returns X.
func (l *lumpedState) holders() int { return l.n[classHS] + l.n[classHU] }

// pairs returns the rates (per round) of the shuffles whose pair is in
// state 00, 01, 10 and 11 (a the initiator, b the partner): a uniform
// initiator at total rate N, a partner uniform among the N − 1 others, so
// every ordered pair shuffles at rate 1/(N − 1).
func (l *lumpedState) pairs() [4]float64 {
	x := float64(l.holders())
	o := (l.N - x) * l.invN1
	return [4]float64{o * (l.N - x - 1), o * x, o * x, x * (x - 1) * l.invN1}
}

// pickHolder removes a uniformly chosen holder (hs or hu) from its class
// and returns the class; pickOther does the same among the non-holders.
func (l *lumpedState) pickHolder(r *rng.Rand) int {
	if r.Float64()*float64(l.holders()) < float64(l.n[classHS]) {
		return classHS
	}
	return classHU
}

func (l *lumpedState) pickOther(r *rng.Rand) int {
	v := r.Float64() * float64(l.n[classNS]+l.n[classNC]+l.n[classN0])
	switch {
	case v < float64(l.n[classNS]):
		return classNS
	case v < float64(l.n[classNS]+l.n[classNC]):
		return classNC
	}
	return classN0
}

// flipped maps each class to the one a node of it moves to when it gains or
// loses d: a seen node stays seen, an unseen one stays unseen (a node that
// never held d gains it unseen).
var flipped = [5]int{classHS: classNS, classHU: classNC, classNS: classHS, classNC: classHU, classN0: classHU}

// flip moves a node of class c to flipped[c].
func (l *lumpedState) flip(c int) {
	l.n[c]--
	l.n[flipped[c]]++
}

// snapshot takes the snapshot at an integer time: every holder is seen.
func (l *lumpedState) snapshot() {
	l.n[classHS] += l.n[classHU]
	l.n[classHU] = 0
}

// event applies one shuffle whose outcome is not skipped, drawn with rates
// rate[from]·tr[from][to].
func (l *lumpedState) event(r *rng.Rand, rate [4]float64, total float64) {
	v := r.Float64() * total
	from := 1
	for from < 3 && v >= rate[from]*l.change[from] {
		v -= rate[from] * l.change[from]
		from++
	}
	u := r.Float64() * l.change[from]
	to := -1
	for j := range 4 {
		if l.skip[from][j] {
			continue
		}
		to = j
		if u < l.tr[from][j] {
			break
		}
		u -= l.tr[from][j]
	}
	l.cnt.Transitions[from][to]++
	l.cnt.Shuffles++
	// Pick the nodes first (their classes before the shuffle), then apply.
	ha, hb := from&2 != 0, from&1 != 0
	var ca, cb int
	switch {
	case ha && hb:
		// b is another holder: draw it among the X − 1 others.
		ca = l.pickHolder(r)
		l.n[ca]--
		cb = l.pickHolder(r)
		l.n[ca]++
	case ha:
		ca, cb = l.pickHolder(r), l.pickOther(r)
	default:
		ca, cb = l.pickOther(r), l.pickHolder(r)
	}
	if (to&2 != 0) != ha {
		l.flip(ca)
	}
	if (to&1 != 0) != hb {
		l.flip(cb)
	}
}

// runLumped runs one replication of the Lumped model: the pairwise-Markov
// model under the Continuous schedule on the full graph, simulated on the
// class counts, one event per shuffle that changes the counts. It records
// X, Y and YRound at t = 0..T exactly as the node-by-node Markov model
// does, and has its law. With loss (cfg.Loss; tr is then the lossy
// matrix) d can die (01 → 00, an event like any other); once X = 0 no
// pair changes, no event is drawn, and the snapshots to T record X = 0
// and the coverage as it was. The counters of the shuffles not simulated
// (Counters.Shuffles and Counters.Transitions for the skipped outcomes) are
// drawn at the end from their Poisson law given the path.
func runLumped(ctx context.Context, cfg Config, tr approx.Transitions, r *rng.Rand, rep *Replication) error {
	l := &lumpedState{N: float64(cfg.Nodes), tr: tr, invN1: 1 / float64(cfg.Nodes-1)}
	l.n[classHU], l.n[classN0] = cfg.Initial, cfg.Nodes-cfg.Initial
	allSeen := false
	l.setSkip(allSeen)
	record := func(t int) {
		l.snapshot()
		rep.X[t], rep.Y[t], rep.YRound[t] = int32(l.holders()), int32(cfg.Nodes-l.n[classN0]), int32(l.n[classHS]+l.n[classNS])
		if !allSeen && l.n[classHS]+l.n[classNS] == cfg.Nodes {
			allSeen = true // for good: being seen is permanent
			l.setSkip(allSeen)
		}
	}
	record(0)
	T := float64(cfg.Rounds)
	t, next := 0.0, 1
events:
	for k := 0; next <= cfg.Rounds; k++ {
		if k%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		rate := l.pairs()
		total := 0.0
		for from := 1; from < 4; from++ {
			total += rate[from] * l.change[from]
		}
		tEv := T + 1 // no more events (d is gone): the snapshots to T remain
		if total > 0 {
			tEv = t + r.Exp()/total
		}
		// Up to the event (or T) the skipped outcomes run at their rates;
		// a snapshot on the way may make every node seen, so integrate to
		// each snapshot under the skips in force before it.
		for {
			end := min(tEv, T)
			if next <= cfg.Rounds && float64(next) <= end {
				end = float64(next)
			}
			if mode := b2i(allSeen); end > t {
				for from := range 4 {
					l.pairTime[mode][from] += rate[from] * (end - t)
				}
			}
			t = end
			if next > cfg.Rounds || float64(next) > tEv {
				break
			}
			was := allSeen
			record(next)
			next++
			if allSeen != was {
				// The skips changed at this snapshot, a stopping time: the
				// rate of simulated events fell, so draw the wait afresh
				// from here (memoryless). Keeping tEv when it lies past T
				// would overstate P(no event before T).
				continue events
			}
		}
		if tEv >= T {
			break
		}
		l.event(r, rate, total)
	}
	var mean [4][4]float64
	for mode := range 2 {
		l.setSkip(mode == 1)
		for from := range 4 {
			for to := range 4 {
				switch {
				case from == 0 && to == 0:
					mean[0][0] += l.pairTime[mode][0] // a pair without d: in Shuffles only
				case from > 0 && l.skip[from][to]:
					mean[from][to] += l.pairTime[mode][from] * tr[from][to]
				}
			}
		}
	}
	for from := range 4 {
		for to := range 4 {
			if lam := mean[from][to]; lam > 0 {
				k := int64(distuv.Poisson{Lambda: lam, Src: r}.Rand())
				l.cnt.Shuffles += k
				if from > 0 {
					l.cnt.Transitions[from][to] += k
				}
			}
		}
	}
	rep.Counters = l.cnt
	return nil
}
