package exact

import (
	"math/big"
	"math/bits"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// bruteForce enumerates every configuration of one shuffle with no symmetry
// reduction: C_A and C_B over all c-subsets of n items, S_A ⊆ C_A and
// S_B ⊆ C_B over all s-subsets, and B's dropped set over all (s−k)-subsets of
// S_B \ S_A. It returns (configurations in which the tagged item is in S_B \ S_A
// and is dropped) / (those in which it is in S_B \ S_A), summed over tagged
// items, i.e. the per-item probability, as a fraction of counts.
func bruteForce(n, c, s int) *big.Rat {
	subsets := func(of uint64, size int) []uint64 {
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
	all := uint64(1)<<uint(n) - 1
	caches := subsets(all, c)
	hit, cand := new(big.Rat), new(big.Rat)
	for _, ca := range caches {
		for _, sa := range subsets(ca, s) {
			for _, cb := range caches {
				for _, sb := range subsets(cb, s) {
					k := bits.OnesCount64(sa & cb)
					room := sb &^ sa
					drops := subsets(room, s-k)
					var dropped int64
					for _, drop := range drops {
						dropped += int64(bits.OnesCount64(drop))
					}
					// every item of room is a possible tagged item
					cand.Add(cand, big.NewRat(int64(bits.OnesCount64(room)), 1))
					hit.Add(hit, big.NewRat(dropped, int64(len(drops))))
				}
			}
		}
	}
	return hit.Quo(hit, cand)
}

func TestEnumerationMatchesBruteForce(t *testing.T) {
	for _, p := range []gossip.Shuffle{sh(4, 2, 1), sh(5, 3, 2), sh(6, 3, 2), sh(6, 4, 3), sh(6, 4, 2), sh(7, 4, 2), sh(6, 5, 3)} {
		t.Run(p.String(), func(t *testing.T) {
			en, err := PDropEnumerated(p)
			if err != nil {
				t.Fatal(err)
			}
			if want := bruteForce(p.Items, p.Cache, p.Exchange); en.PerItem.Cmp(want) != 0 {
				t.Errorf("%v: symmetric enumeration %v, brute force %v", p, en.PerItem, want)
			}
		})
	}
}

// TestWhichFormulaIsTrue settles the open question of the paper on a grid:
// the per-item drop probability is S(n,c,s) exactly, and formula (1) is the
// per-shuffle mean of (s−k)/(s−ŝ), which differs from S whenever c < n. It
// also checks Theorem A's proof by enumeration, which shares no algebra
// with it: over the shuffles with a non-empty S_B \ S_A the mean is S too,
// and the shuffles with S_A = S_B, counted as 0, are a share 1/C(n, s).
func TestWhichFormulaIsTrue(t *testing.T) {
	t.Parallel()
	points, differ := 0, 0
	for n := 2; n <= 22; n++ {
		for c := 1; c <= n; c++ {
			for s := 1; s <= c && s < n; s++ {
				en, err := PDropEnumerated(sh(n, c, s))
				if err != nil {
					t.Fatal(err)
				}
				sim, _ := PDropSimplified(sh(n, c, s))
				e, _ := PDrop(sh(n, c, s))
				if en.PerNonEmptyShuffle.Cmp(sim) != 0 {
					t.Fatalf("(%d,%d,%d): per non-empty shuffle %v ≠ S %v", n, c, s, en.PerNonEmptyShuffle, sim)
				}
				if want := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Binomial(int64(n), int64(s))); en.EmptyShare.Cmp(want) != 0 {
					t.Fatalf("(%d,%d,%d): S_A = S_B in a share %v, want %v", n, c, s, en.EmptyShare, want)
				}
				if en.PerItem.Cmp(sim) != 0 {
					t.Fatalf("(%d,%d,%d): per-item %v ≠ S %v", n, c, s, en.PerItem, sim)
				}
				if en.PerShuffle.Cmp(e) != 0 {
					t.Fatalf("(%d,%d,%d): per-shuffle %v ≠ E %v", n, c, s, en.PerShuffle, e)
				}
				if e.Cmp(sim) != 0 {
					differ++
				}
				points++
			}
		}
	}
	if differ == 0 {
		t.Fatal("E and S never differ: the test cannot tell them apart")
	}
	t.Logf("%d points, E ≠ S at %d", points, differ)
}

func TestEnumerationLimits(t *testing.T) {
	if _, err := PDropEnumerated(sh(64, 10, 2)); err == nil {
		t.Error("n = 64 accepted")
	}
	if _, err := PDropEnumerated(sh(60, 30, 20)); err == nil {
		t.Error("C(60,20) accepted")
	}
}
