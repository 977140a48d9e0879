package tree

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// nextPing returns the first time ≥ t at which v pings its neighbours.
func (s *Sim) nextPing(v int32, t float64) float64 {
	P := s.cfg.PingPeriodMs
	k := math.Ceil((t - s.phase[v]) / P)
	return s.phase[v] + k*P
}

// scheduleDetect makes v notice, at its next ping plus the timeout, that
// its parent is dead.
func (s *Sim) scheduleDetect(v int32) {
	p := s.parent[v]
	s.push(event{t: s.nextPing(v, s.now) + s.cfg.PingTimeoutMs, kind: evDetectParent, a: v, b: p})
}

// built reports a Sim that New did not make (nil, or the zero Sim).
func (s *Sim) built() error {
	if s == nil || len(s.id) == 0 {
		return errors.New("tree: the Sim was not made by New or Build")
	}
	return nil
}

// Fail makes a fraction of the nodes fail at once (FailAtMs after the tree
// was built), lets the repair strategy run to the end, and returns the
// metrics of the repaired tree.
func (s *Sim) Fail(fraction float64, repair Repair, elect Elect) (Metrics, error) {
	if err := s.built(); err != nil {
		return Metrics{}, err
	}
	if !(fraction >= 0 && fraction < 1) {
		return Metrics{}, fmt.Errorf("tree: Fail: fraction %g: valid range [0, 1)", fraction)
	}
	n := len(s.id)
	k := int(math.Round(fraction * float64(n)))
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	for i := 0; i < k; i++ { // partial Fisher–Yates: k uniform distinct nodes
		j := i + int(s.r.Intn(uint32(n-i)))
		perm[i], perm[j] = perm[j], perm[i]
	}
	return s.FailNodes(perm[:k], repair, elect)
}

// FailNodes makes the given nodes fail at once and repairs the tree. Each
// node must be in 0..N−1, alive, and listed once.
func (s *Sim) FailNodes(nodes []int32, repair Repair, elect Elect) (Metrics, error) {
	if err := s.built(); err != nil {
		return Metrics{}, err
	}
	if !repairNames.Valid(repair) || !electNames.Valid(elect) {
		return Metrics{}, fmt.Errorf("tree: FailNodes: repair %v or election %v is not a strategy", repair, elect)
	}
	seen := make(map[int32]bool, len(nodes))
	for _, v := range nodes {
		if v < 0 || int(v) >= len(s.id) || !s.alive[v] || seen[v] {
			return Metrics{}, fmt.Errorf("tree: FailNodes: node %d is not a live node of 0..%d listed once", v, len(s.id)-1)
		}
		seen[v] = true
	}
	s.cfg.Repair, s.cfg.Elect = repair, elect
	n := len(s.id)
	k := len(nodes)
	perm := nodes
	tf := s.now + s.cfg.FailAtMs
	s.now = tf
	s.failing = true
	s.lastChange = tf
	for _, v := range perm[:k] {
		s.alive[v] = false
	}
	// Every survivor pings its parent and children; a survivor next to a
	// failed node notices at its next ping plus the timeout.
	for v := range n {
		if !s.alive[v] {
			continue
		}
		if p := s.parent[v]; p >= 0 {
			if !s.alive[p] {
				s.push(event{t: s.nextPing(int32(v), tf) + s.cfg.PingTimeoutMs, kind: evDetectParent, a: int32(v), b: p})
			}
		}
		for _, c := range s.children[v] {
			if !s.alive[c] {
				s.push(event{t: s.nextPing(int32(v), tf) + s.cfg.PingTimeoutMs, kind: evDetectChild, a: int32(v), b: c})
			}
		}
	}
	if err := s.run(); err != nil {
		return Metrics{}, err
	}
	// Pings until reconnection: every alive node pings its neighbours once
	// per period (parent + children, each ping answered: 2 messages).
	periods := math.Ceil((s.lastChange - tf) / s.cfg.PingPeriodMs)
	for v := range n {
		if s.alive[v] {
			nb := len(s.children[v])
			if s.parent[v] >= 0 {
				nb++
			}
			s.pings += int64(2*nb) * int64(periods)
		}
	}
	s.refreshSiblings(tf)
	m := s.metrics()
	m.Failed = k
	m.RepairMsgs = s.repairMsgs
	m.Reconnected = s.AllConnected()
	m.ReconnectMs = s.lastChange - tf
	m.Pings = s.pings
	s.traffic.LookupMessages = int64(s.traffic.Lookups) * int64(s.cfg.LookupMessages)
	m.Traffic = s.traffic
	if err := s.check(false); err != nil {
		return m, fmt.Errorf("tree: after repair: %w", err)
	}
	return m, nil
}

// detectChild: p notices that its child c is dead. Under breakout and
// preservation it frees the slot. Under election the slot is kept for the
// substitute, unless c has no live child to elect one.
func (s *Sim) detectChild(p, c int32) {
	if !s.alive[p] || s.alive[c] || s.parent[c] != p {
		return
	}
	if s.cfg.Repair == Election && s.hasAliveDescendant(c) {
		return // the place is kept for c's substitute
	}
	s.removeChild(p, c)
	s.siblingsChanged(p, -1)
	s.lastChange = s.now
}

// detectParent: v notices that its parent p is dead.
func (s *Sim) detectParent(v, p int32) {
	if !s.alive[v] || s.parent[v] != p || s.alive[p] {
		return
	}
	switch s.cfg.Repair {
	case Breakout:
		s.breakOut(v)
	case Preservation:
		s.orphanRejoin(v, p)
	case Election:
		if s.electing[p] {
			return
		}
		s.electing[p] = true
		// ELECTION, OK, COORDINATOR: three message delays after the first
		// sibling noticed.
		s.push(event{t: s.now + 3*s.delay(), kind: evElectionDone, a: p})
	}
}

// breakOut: v tells its children to rejoin alone, drops its links and
// rejoins itself.
func (s *Sim) breakOut(v int32) {
	p := s.parent[v]
	if p >= 0 && s.alive[p] {
		s.removeChild(p, v)
	}
	for _, c := range s.children[v] {
		if s.alive[c] && s.parent[c] == v {
			s.breaking[c] = true
			s.push(event{t: s.now + s.delay(), kind: evBreak, a: c, b: v})
		}
	}
	s.children[v] = nil
	s.reg[v] = false
	s.parent[v] = -1
	s.lastChange = s.now
	if p >= 0 && !s.alive[p] && p == s.root {
		s.claimRoot(v)
		return
	}
	s.startJoin(v)
}

// claimRoot: the first child of a failed root to notice takes the root
// role; the others find it through the group registration.
func (s *Sim) claimRoot(v int32) {
	if !s.alive[s.root] {
		s.becomeRoot(v)
		s.reregisterSubtree(v)
		return
	}
	s.startJoin(v)
}

// orphanRejoin (preservation): v rejoins and keeps its subtree.
func (s *Sim) orphanRejoin(v, p int32) {
	s.parent[v] = -1
	s.deregisterSubtree(v)
	s.lastChange = s.now
	if p == s.root {
		s.claimRoot(v)
		return
	}
	s.startJoin(v)
}

// replace runs the recursive election for the dead node f, whose place is
// a child place of gp (−1: f was the root, or heads a detached branch).
// Places, not nodes, are what the election preserves: the alive children of
// f elect a winner w that moves into f's place and keeps f's other child
// places (its siblings, and dead children that still have live
// descendants, which wait for their own substitutes); the place w left, now
// a child place of w, is filled the same way by w's former children, and so
// on down (fillVacancy). No node ever holds more than k child places.
func (s *Sim) replace(f, gp int32) {
	cands, dead := s.splitChildren(f, f)
	if len(cands) == 0 {
		if len(dead) == 0 {
			if gp >= 0 {
				s.removeChild(gp, f)
			}
		}
		// Otherwise substitutes will come up from below and f's own
		// election runs again then.
		delete(s.electing, f)
		return
	}
	w := s.elect(cands)
	former := slices.Clone(s.children[w])
	detached := gp < 0 && f != s.root
	switch {
	case gp >= 0:
		i := slices.Index(s.children[gp], f)
		if i < 0 {
			panic(fmt.Sprintf("tree: %d is not a child of %d", f, gp))
		}
		s.children[gp][i] = w
		s.parent[w] = gp
		s.deliver(gp, msgElection) // w attaches to its new parent, which answers
		s.deliver(w, msgElection)
		s.siblingsChanged(gp, -1)
		if !s.alive[gp] {
			s.scheduleDetect(w) // f's parent is dead too
		}
	case f == s.root:
		s.becomeRoot(w)
	default:
		s.parent[w] = -1
	}
	s.adopt(w, cands, dead)
	s.siblingsChanged(w, -1)
	s.lastChange = s.now
	s.fillVacancy(w, former)
	if detached {
		// f headed a branch cut off above it: its substitute rejoins the
		// tree carrying the branch (the document's preservation).
		s.deregisterSubtree(w)
		s.startJoin(w)
	}
}

// splitChildren returns the alive children of v that still point to `of`,
// and the dead ones that still have live descendants.
func (s *Sim) splitChildren(v, of int32) (alive, dead []int32) {
	for _, c := range s.children[v] {
		if s.parent[c] != of {
			continue
		}
		if s.alive[c] {
			alive = append(alive, c)
		} else if s.hasAliveDescendant(c) {
			dead = append(dead, c)
		}
	}
	return alive, dead
}

func (s *Sim) hasAliveDescendant(v int32) bool {
	for _, c := range s.children[v] {
		if s.parent[c] == v && (s.alive[c] || s.hasAliveDescendant(c)) {
			return true
		}
	}
	return false
}

// elect picks the winner among the candidates by the bully rule and counts
// the election's messages: each candidate receives ELECTION from the lower
// ones and OK from the higher ones (m − 1 in all), and the m − 1 losers
// receive COORDINATOR.
func (s *Sim) elect(cands []int32) int32 {
	w := cands[0]
	for _, c := range cands[1:] {
		if s.beats(c, w) {
			w = c
		}
	}
	for _, c := range cands {
		for range len(cands) - 1 {
			s.deliver(c, msgElection)
		}
		if c != w {
			s.deliver(c, msgElection)
		}
	}
	return w
}

// adopt makes w the parent of the other candidates and of the dead places.
func (s *Sim) adopt(w int32, cands, dead []int32) {
	s.children[w] = nil
	for _, c := range cands {
		if c != w {
			s.children[w] = append(s.children[w], c)
			s.parent[c] = w
		}
	}
	for _, d := range dead {
		s.children[w] = append(s.children[w], d)
		s.parent[d] = w
	}
}

// fillVacancy fills the place that `up` left (now a child place of up),
// whose child places hold `kids` (still pointing to up), by recursive
// election one level at a time.
func (s *Sim) fillVacancy(up int32, kids []int32) {
	for len(kids) > 0 {
		var alive, dead []int32
		for _, c := range kids {
			if s.parent[c] != up {
				continue
			}
			if s.alive[c] {
				alive = append(alive, c)
			} else if s.hasAliveDescendant(c) {
				dead = append(dead, c)
			}
		}
		if len(alive) == 0 {
			// Only dead places with live descendants: each becomes a
			// detached branch whose substitute rejoins (see replace).
			for _, d := range dead {
				s.parent[d] = -1
			}
			return
		}
		w := s.elect(alive)
		next := slices.Clone(s.children[w])
		s.children[up] = append(s.children[up], w)
		s.parent[w] = up
		s.deliver(up, msgElection)
		s.deliver(w, msgElection)
		s.siblingsChanged(up, -1)
		s.adopt(w, alive, dead)
		s.siblingsChanged(w, -1)
		up, kids = w, next
	}
}

// refreshSiblings counts the periodic sibling-reference upkeep of an
// election repair that began at tf: every live node with a live sibling in
// the repaired tree receives one refresh a period, over the periods from
// one before the failure (the references are fresh at the failure only if
// refreshed within the last period) to the reconnection:
// ⌈(lastChange − tf)/SiblingRefreshMs⌉ + 1 periods. The messages are in ν.
func (s *Sim) refreshSiblings(tf float64) {
	if s.cfg.Repair != Election {
		return
	}
	periods := int(math.Ceil((s.lastChange-tf)/s.cfg.SiblingRefreshMs)) + 1
	for p := range s.id {
		if !s.alive[p] {
			continue
		}
		var kids []int32
		for _, c := range s.children[p] {
			if s.alive[c] && s.parent[c] == int32(p) {
				kids = append(kids, c)
			}
		}
		if len(kids) < 2 {
			continue
		}
		for _, c := range kids {
			s.msgs[c] += int32(periods)
			s.repairMsgs += periods
			s.traffic.Refresh += periods
		}
	}
}
