package sim

// snapshotCoverage keeps the round-snapshot record of coverage, the one
// the paper measured (Sec. 5.2: "at every round, the nodes that carry a
// replica of d are identified, and a record of the nodes that have seen d
// since it was published is kept"): the nodes that held d at some snapshot
// t = 0, 1, 2, … (at integer times under the continuous schedule, at round
// ends under the others). A node that receives d and passes it on or drops
// it within one round counts in the per-event record Y but not here, so
// the snapshot count never exceeds Y, and never falls below X.
//
// Both records are bitsets (N/8 bytes each); a snapshot ORs the holders
// into the seen set, N/64 words, against the N shuffles of a round.
type snapshotCoverage struct {
	holds bitset // current holders
	seen  bitset // held d at a snapshot
	count int
}

func newSnapshotCoverage(N int) snapshotCoverage {
	return snapshotCoverage{holds: newBitset(N), seen: newBitset(N)}
}

// gain and lose record that v received or lost d.
func (s *snapshotCoverage) gain(v int32) { s.holds.set(v) }

func (s *snapshotCoverage) lose(v int32) { s.holds.unset(v) }

// snapshot takes a snapshot and returns the number of nodes that have held
// d at one.
func (s *snapshotCoverage) snapshot() int {
	s.count += s.seen.orCount(s.holds)
	return s.count
}

// reset empties both records for a new replication.
func (s *snapshotCoverage) reset() {
	clear(s.holds)
	clear(s.seen)
	s.count = 0
}
