package exact

import (
	"math/big"
	"math/bits"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// MaxTransitionItems bounds n for EnumerateTransitions, so that a call
// stays well under a second and needs no context: at n = 7 the largest
// case (c = 5, s = 3) visits 1.2·10⁵ configurations with their drop
// choices, over the three starting states, in about 0.2 s; n = 8 reaches
// 10⁶ and 1–2 s.
const MaxTransitionItems = 7

// Matrix is a 4×4 matrix of exact probabilities, M[from][to], the states of
// a tagged item d numbered a·2 + b as in Fig. 1 (a: A holds d, b: B holds
// d): 0 = 00, 1 = 01, 2 = 10, 3 = 11. A row of a state that cannot occur
// (10, 01 and 00 when c = n) is nil.
type Matrix [4][4]*big.Rat

// TransitionEnumeration is the exact law of one shuffle for a tagged item,
// found by visiting every configuration (EnumerateTransitions).
type TransitionEnumeration struct {
	// Lossless is the shuffle with both messages delivered (Fig. 1).
	Lossless Matrix
	// ReplyLost is the shuffle whose reply is lost: B takes S_A and drops
	// from S_B \ S_A to make room; A keeps its cache.
	ReplyLost Matrix
	// Lossy is the shuffle whose request and reply are each lost with
	// probability Loss: every configuration is visited under the three
	// outcomes, the request lost (weight ε), the reply lost ((1−ε)ε) and
	// both delivered ((1−ε)²).
	Lossy Matrix
	// Loss is ε.
	Loss *big.Rat
	// Configurations is the number of (C_A, S_A, C_B, S_B, drops of A,
	// drops of B) visited, over the three possible starting states.
	Configurations int64
}

// EnumerateTransitions returns the exact transition probabilities of a
// tagged item d in one shuffle, by enumeration. For each starting state of
// d (00, 01, 10, 11), C_A and C_B are uniform c-subsets of the n items
// conditioned on that state, independent; S_A ⊆ C_A and S_B ⊆ C_B are
// uniform s-subsets; B, on receiving S_A, drops a uniform
// (s − |S_A ∩ C_B|)-subset of S_B \ S_A, and A, on receiving S_B, a uniform
// (s − |S_B ∩ C_A|)-subset of S_A \ S_B. Every such configuration is
// visited once, with its probability, under each outcome of the two
// messages: a lost request changes nothing, a lost reply applies B's part
// only, and a delivered pair applies both parts. Caches stay at c items
// (checked at every configuration).
//
// loss is ε, 0 ≤ ε < 1 (nil means 0). Limits: n ≤ MaxTransitionItems; a
// problem is a *gossip.FieldError naming Shuffle.Items, another field of the
// shuffle, or Loss.
func EnumerateTransitions(sh gossip.Shuffle, loss *big.Rat) (*TransitionEnumeration, error) {
	if err := sh.Validate(); err != nil {
		return nil, shuffleError("", err)
	}
	if sh.Items > MaxTransitionItems {
		return nil, fielderr.New("exact", "Shuffle.Items", "= %d: the enumeration of one shuffle needs Items ≤ %d", sh.Items, MaxTransitionItems)
	}
	one := big.NewRat(1, 1)
	eps := new(big.Rat)
	if loss != nil {
		eps.Set(loss)
	}
	if eps.Sign() < 0 || eps.Cmp(one) >= 0 {
		return nil, fielderr.New("exact", gossip.Loss.Field, "= %s: need %s", eps.RatString(), gossip.Loss.Range)
	}
	a := new(big.Rat).Sub(one, eps)
	// weights of the three outcomes: request lost, reply lost, delivered
	w := [3]*big.Rat{eps, new(big.Rat).Mul(a, eps), new(big.Rat).Mul(a, a)}

	n, c, s := sh.Items, sh.Cache, sh.Exchange
	const d = 1 // the tagged item is item 0, bit 1
	all := uint64(1)<<uint(n) - 1
	var with, without []uint64 // c-subsets holding d, and not
	for _, m := range submasks(all, c) {
		if m&d != 0 {
			with = append(with, m)
		} else {
			without = append(without, m)
		}
	}
	r := &TransitionEnumeration{Loss: eps}
	for from := range 4 {
		cas, cbs := without, without
		if from&2 != 0 {
			cas = with
		}
		if from&1 != 0 {
			cbs = with
		}
		if len(cas) == 0 || len(cbs) == 0 {
			continue // the state cannot occur (c = n)
		}
		var acc [3][4]*big.Rat // [outcome][to], summed over configurations
		for e := range acc {
			for to := range acc[e] {
				acc[e][to] = new(big.Rat)
			}
		}
		var configs int64
		for _, ca := range cas {
			for _, sa := range submasks(ca, s) {
				for _, cb := range cbs {
					for _, sb := range submasks(cb, s) {
						dropsB := submasks(sb&^sa, s-bits.OnesCount64(sa&cb))
						dropsA := submasks(sa&^sb, s-bits.OnesCount64(sb&ca))
						var cnt [3][4]int64
						for _, db := range dropsB {
							for _, da := range dropsA {
								for e := range 3 {
									na, nb := ca, cb
									if e > 0 { // the request arrives: B's part
										nb = (cb | sa) &^ db
									}
									if e == 2 { // the reply arrives: A's part
										na = (ca | sb) &^ da
									}
									if bits.OnesCount64(na) != c || bits.OnesCount64(nb) != c {
										panic("exact: a shuffle changed a cache's size") // an invariant of the protocol
									}
									cnt[e][int(na&d)<<1|int(nb&d)]++
								}
								r.Configurations++
							}
						}
						pairs := int64(len(dropsB) * len(dropsA))
						for e := range 3 {
							for to := range 4 {
								if cnt[e][to] != 0 {
									acc[e][to].Add(acc[e][to], big.NewRat(cnt[e][to], pairs))
								}
							}
						}
						configs++
					}
				}
			}
		}
		total := new(big.Rat).SetInt64(configs)
		for to := range 4 {
			r.Lossless[from][to] = new(big.Rat).Quo(acc[2][to], total)
			r.ReplyLost[from][to] = new(big.Rat).Quo(acc[1][to], total)
			l := new(big.Rat)
			for e := range 3 {
				l.Add(l, new(big.Rat).Mul(w[e], acc[e][to]))
			}
			r.Lossy[from][to] = l.Quo(l, total)
		}
	}
	return r, nil
}

// submasks returns the subsets of the set of bits of of with size bits.
func submasks(of uint64, size int) []uint64 {
	var out []uint64
	for m := of; ; m = (m - 1) & of {
		if bits.OnesCount64(m) == size {
			out = append(out, m)
		}
		if m == 0 {
			break
		}
	}
	return out
}
