package sim

// snapshotCoverage keeps the round-snapshot record of coverage, the one
// the paper measured (Sec. 5.2: "at every round, the nodes that carry a
// replica of d are identified, and a record of the nodes that have seen d
// since it was published is kept"): the nodes that held d at some snapshot
// t = 0, 1, 2, … (at integer times under the continuous schedule, at round
// ends under the others). A node that receives d and passes it on or drops
// it within one round counts in the per-event record Y but not here, so
// the snapshot count never exceeds Y, and never falls below X.
type snapshotCoverage struct {
	holds   []bool  // current holders
	seen    []bool  // held d at a snapshot
	pending []int32 // became holders since the last snapshot (maybe twice)
	count   int
}

func newSnapshotCoverage(N int) snapshotCoverage {
	return snapshotCoverage{holds: make([]bool, N), seen: make([]bool, N)}
}

// gain and lose record that v received or lost d.
func (s *snapshotCoverage) gain(v int32) {
	s.holds[v] = true
	if !s.seen[v] {
		s.pending = append(s.pending, v)
	}
}

func (s *snapshotCoverage) lose(v int32) { s.holds[v] = false }

// snapshot takes a snapshot and returns the number of nodes that have held
// d at one.
func (s *snapshotCoverage) snapshot() int {
	for _, v := range s.pending {
		if s.holds[v] && !s.seen[v] {
			s.seen[v] = true
			s.count++
		}
	}
	s.pending = s.pending[:0]
	return s.count
}
