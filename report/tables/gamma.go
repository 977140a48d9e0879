package tables

import (
	"errors"
	"fmt"
	"io"
	"math/big"

	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/plots"
)

// GammaCheckTable is the outcome of exact.VerifyGamma on grid g as one
// row: s_max, c_max, n_max, points_checked, identity_holds, then the
// mismatch's n, c, s and the two values (empty when the identity holds).
func GammaCheckTable(g exact.Grid, checked int64, mm *exact.GammaMismatch) *plots.Table {
	t := &plots.Table{Keys: []string{"s_max", "c_max", "n_max", "points_checked", "identity_holds", "mismatch_n", "mismatch_c", "mismatch_s", "exact", "gamma"}}
	row := []any{g.MaxExchange, g.MaxCache, g.MaxItems, checked, mm == nil, nil, nil, nil, nil, nil}
	if mm != nil {
		row = []any{g.MaxExchange, g.MaxCache, g.MaxItems, checked, false, mm.Items, mm.Cache, mm.Exchange, mm.Exact, mm.Gamma}
	}
	t.Rows = append(t.Rows, row)
	return t
}

// WriteGammaCheck writes the outcome of exact.VerifyGamma as `gossipkit
// gamma-check` prints it: in text one sentence (the identity holds at all
// points, or the mismatch with both values), else GammaCheckTable.
func WriteGammaCheck(w io.Writer, g exact.Grid, checked int64, mm *exact.GammaMismatch, format string) error {
	if w == nil {
		return errors.New("tables: WriteGammaCheck: no writer")
	}
	if format != "text" {
		return GammaCheckTable(g, checked, mm).Write(w, format)
	}
	if mm == nil {
		_, err := fmt.Fprintf(w, "γ form = formula (1) at all %d points (1 ≤ s ≤ %d, s ≤ c ≤ %d, c ≤ n ≤ %d, n > s)\n", checked, g.MaxExchange, g.MaxCache, g.MaxItems)
		return err
	}
	_, err := fmt.Fprintf(w, "MISMATCH at %v after %d points: formula (1) = %s, γ form = %s\n", mm.Shuffle, checked, ratString(mm.Exact), ratString(mm.Gamma))
	return err
}

// WriteProveGamma writes the outcome of exact.ProveGammaRange up to sMax
// as `gossipkit gamma-check --prove` prints it: in text one sentence (every
// s proved, or the s refuted), else a table s, proved, points.
func WriteProveGamma(w io.Writer, sMax int, proofs []exact.GammaProof, format string) error {
	if w == nil {
		return errors.New("tables: WriteProveGamma: no writer")
	}
	t := &plots.Table{Keys: []string{"s", "proved", "points"}}
	var refuted []int
	for _, p := range proofs {
		t.Rows = append(t.Rows, []any{p.S, p.Proved, p.Points})
		if !p.Proved {
			refuted = append(refuted, p.S)
		}
	}
	if format != "text" {
		return t.Write(w, format)
	}
	if len(refuted) > 0 {
		_, err := fmt.Fprintf(w, "γ identity REFUTED for s = %v\n", refuted)
		return err
	}
	_, err := fmt.Fprintf(w, "γ form = formula (1), a theorem for every s (go doc ./exact), checked independently for every s = 1..%d and all n and c with s ≤ c ≤ n, n > s (each s: a polynomial identity of degree ≤ 2s in n and ≤ s in c, zero on a (2s+1)×(s+1) grid)\n", sMax)
	return err
}

// ratString is r as a fraction, or "?" for a nil r.
func ratString(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	return r.RatString()
}
