package tables

import (
	"bytes"
	"math/big"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestWriteGamma: the gamma-check writers on outcomes built by hand (a
// mismatch 1/2 against 1/3, a refuted s = 3): the text names them, the
// tables carry them, and the sentence of success appears only on success.
func TestWriteGamma(t *testing.T) {
	g := exact.Grid{MaxItems: 4, MaxCache: 3, MaxExchange: 2}
	mm := &exact.GammaMismatch{Shuffle: gossip.Shuffle{Items: 4, Cache: 3, Exchange: 2}, Exact: big.NewRat(1, 2), Gamma: big.NewRat(1, 3)}
	proofs := []exact.GammaProof{{S: 1, Proved: true, Points: 6}, {S: 2, Proved: true, Points: 15}, {S: 3, Proved: false, Points: 4}}
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer) error
		want  []string
	}{
		{"holds text", func(b *bytes.Buffer) error { return WriteGammaCheck(b, g, 10, nil, "text") },
			[]string{"at all 10 points (1 ≤ s ≤ 2, s ≤ c ≤ 3, c ≤ n ≤ 4, n > s)\n"}},
		{"mismatch text", func(b *bytes.Buffer) error { return WriteGammaCheck(b, g, 7, mm, "text") },
			[]string{"MISMATCH", "after 7 points: formula (1) = 1/2, γ form = 1/3\n"}},
		{"mismatch csv", func(b *bytes.Buffer) error { return WriteGammaCheck(b, g, 7, mm, "csv") },
			[]string{"s_max,c_max,n_max,points_checked,identity_holds,mismatch_n,mismatch_c,mismatch_s,exact,gamma\n", "2,3,4,7,false,4,3,2,"}},
		{"holds csv", func(b *bytes.Buffer) error { return WriteGammaCheck(b, g, 10, nil, "csv") }, []string{"2,3,4,10,true,"}},
		{"refuted text", func(b *bytes.Buffer) error { return WriteProveGamma(b, 3, proofs, "text") }, []string{"REFUTED for s = [3]\n"}},
		{"proved text", func(b *bytes.Buffer) error { return WriteProveGamma(b, 2, proofs[:2], "text") }, []string{"every s = 1..2 and all n"}},
		{"proofs csv", func(b *bytes.Buffer) error { return WriteProveGamma(b, 3, proofs, "csv") },
			[]string{"s,proved,points\n1,true,6\n2,true,15\n3,false,4\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, b.String())
				}
			}
		})
	}
}

// TestNastyValuesGamma: the gamma-check writers through internal/probe.
func TestNastyValuesGamma(t *testing.T) {
	var set probe.Settings
	var b bytes.Buffer
	g := exact.Grid{MaxItems: 4, MaxCache: 3, MaxExchange: 2}
	mm := &exact.GammaMismatch{Shuffle: gossip.Shuffle{Items: 4, Cache: 3, Exchange: 2}, Exact: big.NewRat(1, 2), Gamma: big.NewRat(1, 3)}
	probe.Func(t, "GammaCheckTable", GammaCheckTable, set, g, int64(1), mm)
	probe.Func(t, "WriteGammaCheck", WriteGammaCheck, set, &b, g, int64(1), mm, "text")
	probe.Func(t, "WriteProveGamma", WriteProveGamma, set, &b, 2, []exact.GammaProof{{S: 1, Proved: true, Points: 6}}, "text")
}
