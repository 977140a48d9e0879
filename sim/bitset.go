package sim

import (
	"math/bits"

	"github.com/gossipkit/gossipkit/internal/hugepage"
)

// bitset holds one bit per node: the per-node flags of a replication (who
// holds d, who held it at a snapshot, who ever held it) cost N/8 bytes each
// rather than a byte a node, which is what lets a replication at N = 2^26
// fit in a few hundred megabytes (TestSimLargeNMemory).
type bitset []uint64

// newBitset is a bitset of n bits, on huge pages where it is large (its
// reads are at random: internal/hugepage).
func newBitset(n int) bitset {
	b := make(bitset, (n+63)/64)
	hugepage.Advise(b)
	return b
}

func (b bitset) get(v int32) bool { return b[uint32(v)>>6]>>(uint32(v)&63)&1 != 0 }

func (b bitset) set(v int32) { b[uint32(v)>>6] |= 1 << (uint32(v) & 63) }

func (b bitset) unset(v int32) { b[uint32(v)>>6] &^= 1 << (uint32(v) & 63) }

// bitsetBytes is the memory of a bitset of n bits.
func bitsetBytes(n int) uint64 { return 8 * uint64((max(n, 0)+63)/64) }

// orCount sets b |= add and returns the number of bits that were not set
// in b before.
func (b bitset) orCount(add bitset) int {
	k := 0
	for w, a := range add {
		if n := a &^ b[w]; n != 0 {
			b[w] |= n
			k += bits.OnesCount64(n)
		}
	}
	return k
}
