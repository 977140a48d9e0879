package exact

import (
	"errors"
	"math/big"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// TestEnumerateTransitionsByHand: n = 2, c = 1, s = 1, items d and o, by
// hand. From 10 (A = {d}, B = {o}) each sends its only item; B takes d and
// drops o, A takes o and drops d: delivered → 01; reply lost → B = {d},
// A = {d}: 11; request lost → 10. From 01 likewise: delivered → 10; reply
// lost → B takes o and drops d, A = {o}: 00. From 11 both send d, nothing
// is new, nothing dropped: 11. From 00 (both {o}): 00. With ε = 1/3,
// a = 2/3: ε = 1/3, aε = 2/9, a² = 4/9.
func TestEnumerateTransitionsByHand(t *testing.T) {
	en, err := EnumerateTransitions(sh(2, 1, 1), big.NewRat(1, 3))
	if err != nil {
		t.Fatal(err)
	}
	r := big.NewRat
	z := r(0, 1)
	want := map[string][4][4]*big.Rat{
		"Lossless":  {{r(1, 1), z, z, z}, {z, z, r(1, 1), z}, {z, r(1, 1), z, z}, {z, z, z, r(1, 1)}},
		"ReplyLost": {{r(1, 1), z, z, z}, {r(1, 1), z, z, z}, {z, z, z, r(1, 1)}, {z, z, z, r(1, 1)}},
		"Lossy":     {{r(1, 1), z, z, z}, {r(2, 9), r(1, 3), r(4, 9), z}, {z, r(4, 9), r(1, 3), r(2, 9)}, {z, z, z, r(1, 1)}},
	}
	got := map[string]Matrix{"Lossless": en.Lossless, "ReplyLost": en.ReplyLost, "Lossy": en.Lossy}
	for name, w := range want {
		for i := range 4 {
			for j := range 4 {
				if got[name][i][j] == nil || got[name][i][j].Cmp(w[i][j]) != 0 {
					t.Errorf("%s[%d][%d] = %v, by hand %v", name, i, j, got[name][i][j], w[i][j])
				}
			}
		}
	}
}

// TestEnumerateTransitionsRows: every row sums to 1 exactly, nil loss is
// the lossless shuffle, and rows of states that cannot occur (c = n) are
// nil.
func TestEnumerateTransitionsRows(t *testing.T) {
	for _, p := range []gossip.Shuffle{sh(5, 3, 2), sh(6, 6, 3), sh(7, 2, 2)} {
		en, err := EnumerateTransitions(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 4 {
			if en.Lossless[i][0] == nil {
				if p.Cache != p.Items || i == 3 {
					t.Errorf("%v: row %d missing", p, i)
				}
				continue
			}
			sum := new(big.Rat)
			for j := range 4 {
				sum.Add(sum, en.Lossless[i][j])
				if en.Lossy[i][j].Cmp(en.Lossless[i][j]) != 0 {
					t.Errorf("%v: nil loss gives Lossy ≠ Lossless at [%d][%d]", p, i, j)
				}
			}
			if sum.Cmp(big.NewRat(1, 1)) != 0 {
				t.Errorf("%v: row %d sums to %v", p, i, sum)
			}
		}
	}
}

func TestEnumerateTransitionsLimits(t *testing.T) {
	for _, tc := range []struct {
		p     gossip.Shuffle
		loss  *big.Rat
		field string
	}{
		{sh(8, 3, 2), nil, "Shuffle.Items"},
		{sh(5, 3, 4), nil, "Shuffle.Exchange"},
		{sh(5, 3, 2), big.NewRat(1, 1), "Loss"},
		{sh(5, 3, 2), big.NewRat(-1, 5), "Loss"},
	} {
		_, err := EnumerateTransitions(tc.p, tc.loss)
		var fe *gossip.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || fe.Pkg != "exact" {
			t.Errorf("%v loss %v: %v, want an exact field error on %s", tc.p, tc.loss, err, tc.field)
		}
	}
}
