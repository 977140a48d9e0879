package exact

import (
	"math/big"
	"math/bits"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// MaxEnumeration is the largest number of exchange buffers S_A that
// PDropEnumerated visits: C(n, s) ≤ 2^25 (about 3.4·10^7, a few seconds).
const MaxEnumeration = 1 << 25

// Enumeration is the outcome of enumerating every configuration of one
// shuffle.
type Enumeration struct {
	// PerItem is the probability that a tagged item of S_B \ S_A is
	// dropped: Σ (items dropped) / Σ |S_B \ S_A| over equally likely
	// configurations.
	PerItem *big.Rat
	// PerShuffle is the mean over configurations of the conditional drop
	// probability (s−k)/(s−ŝ), counted as 0 where S_B \ S_A is empty
	// (ŝ = s): the quantity formula (1) computes.
	PerShuffle *big.Rat
	// PerNonEmptyShuffle is the same mean over the configurations with a
	// non-empty S_B \ S_A only; Theorem A's proof says it is S.
	PerNonEmptyShuffle *big.Rat
	// EmptyShare is the share of configurations with S_B \ S_A empty,
	// that is S_A = S_B; Theorem A's proof says it is 1/C(n, s).
	EmptyShare *big.Rat
	// Configurations is the number of exchange buffers S_A visited.
	Configurations int64
}

// CheckEnumerable reports, without enumerating, whether PDropEnumerated
// accepts p: a valid shuffle (gossip.Shuffle.Validate) with n ≤ 63 and
// C(n, s) ≤ MaxEnumeration. A problem is a *gossip.FieldError of package
// exact naming the field.
func CheckEnumerable(p gossip.Shuffle) error {
	if err := p.Validate(); err != nil {
		return shuffleError("", err)
	}
	if p.Items > 63 {
		return fielderr.New("exact", "Shuffle.Items", "= %d: enumeration needs Items ≤ 63", p.Items)
	}
	if total := new(big.Int).Binomial(int64(p.Items), int64(p.Exchange)); total.Cmp(big.NewInt(MaxEnumeration)) > 0 {
		return fielderr.New("exact", "Shuffle.Exchange", "= %d with Items = %d: enumeration of C(n, s) = %s buffers exceeds MaxEnumeration = %d", p.Exchange, p.Items, total, MaxEnumeration)
	}
	return nil
}

// PDropEnumerated enumerates one shuffle between B and A whose caches C_A,
// C_B are independent uniform c-subsets of the n items, and returns the
// exact per-item and per-shuffle drop probabilities of items in S_B \ S_A.
//
// Symmetry reduces the enumeration: relabelling items does not change the
// law, so C_B = {0..c−1} and S_B = {0..s−1} may be fixed; and S_A, a uniform
// s-subset of a uniform c-subset C_A, is a uniform s-subset of all n items
// (each s-set lies in the same number C(n−s, c−s) of c-sets). So the function
// visits every s-subset S_A of the n items once, with k = |S_A ∩ C_B| and
// ŝ = |S_A ∩ S_B| read off by bit counting; B drops exactly s−k of the s−ŝ
// items in S_B \ S_A, uniformly. The reduction is checked against brute
// force over (C_A, S_A, C_B, S_B, dropped set) in the tests.
//
// Limits: n ≤ 63 and C(n, s) ≤ MaxEnumeration (CheckEnumerable); beyond
// them it returns an error.
func PDropEnumerated(p gossip.Shuffle) (*Enumeration, error) {
	if err := CheckEnumerable(p); err != nil {
		return nil, err
	}
	n, c, s := p.Items, p.Cache, p.Exchange
	cb := uint64(1)<<uint(c) - 1
	sb := uint64(1)<<uint(s) - 1
	// count[k][ŝ]: number of S_A with those overlaps.
	count := make([][]int64, s+1)
	for k := range count {
		count[k] = make([]int64, s+1)
	}
	var visited int64
	limit := uint64(1) << uint(n)
	for sa := uint64(1)<<uint(s) - 1; sa < limit; {
		k := bits.OnesCount64(sa & cb)
		sh := bits.OnesCount64(sa & sb)
		count[k][sh]++
		visited++
		// Gosper's hack: next larger integer with the same popcount.
		low := sa & -sa
		r := sa + low
		sa = (((r ^ sa) >> 2) / low) | r
		if r == 0 {
			break
		}
	}
	dropped, candidates := new(big.Int), new(big.Int)
	perShuffle := new(big.Rat)
	t := new(big.Int)
	for k := 0; k <= s; k++ {
		for sh := 0; sh <= s; sh++ {
			m := count[k][sh]
			if m == 0 {
				continue
			}
			dropped.Add(dropped, t.SetInt64(m*int64(s-k)))
			candidates.Add(candidates, t.SetInt64(m*int64(s-sh)))
			if k < s {
				perShuffle.Add(perShuffle, big.NewRat(m*int64(s-k), int64(s-sh)))
			}
		}
	}
	empty := count[s][s] // ŝ = s forces k = s
	perNonEmpty := new(big.Rat).Quo(perShuffle, new(big.Rat).SetInt64(visited-empty))
	perShuffle.Quo(perShuffle, new(big.Rat).SetInt64(visited))
	return &Enumeration{
		PerItem:            new(big.Rat).SetFrac(dropped, candidates),
		PerShuffle:         perShuffle,
		PerNonEmptyShuffle: perNonEmpty,
		EmptyShare:         big.NewRat(empty, visited),
		Configurations:     visited,
	}, nil
}
