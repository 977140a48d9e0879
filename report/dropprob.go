package report

import (
	"context"
	"fmt"
	"math"
	"math/big"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/report/tables"
)

// DropProbability is section 1: Fig. 4, the γ identity on a grid, and
// exhaustive enumeration of one shuffle.
type DropProbability struct {
	Curves []Fig4Curve
	// GammaChecked points of the grid s ≤ 24, c ≤ 64, n ≤ 160 were
	// checked; GammaMismatch is the first where the γ form ≠ formula (1).
	GammaChecked  int64
	GammaMismatch *exact.GammaMismatch
	// Proofs: the identity decided for every s = 1..Scale.ProveS.
	Proofs []exact.GammaProof
	// EnumPoints points with 4 ≤ n ≤ 16 were enumerated; EnumAllSimplified
	// says whether the tagged item's drop probability equals S at all.
	EnumPoints        int
	EnumAllSimplified bool
	Rows              []PDropRow
	nMax, step        int
}

// DropProbability computes section 1.
func (s *Study) DropProbability(ctx context.Context) (*DropProbability, error) {
	if err := s.ready(false); err != nil {
		return nil, err
	}
	s.step("Fig. 4: exact drop probabilities")
	curves, err := s.Fig4Curves(ctx)
	if err != nil {
		return nil, err
	}
	r := &DropProbability{Curves: curves, nMax: s.Scale.Fig4NMax, step: s.Scale.Fig4Step}
	if r.GammaChecked, r.GammaMismatch, err = exact.VerifyGamma(ctx, exact.Grid{MaxItems: 160, MaxCache: 64, MaxExchange: 24}, exact.Settings{}); err != nil {
		return nil, err
	}
	if r.Proofs, err = exact.ProveGammaRange(ctx, s.Scale.ProveS, exact.Settings{Workers: s.opt.Workers}); err != nil {
		return nil, err
	}
	// Which formula is the per-item drop probability: enumeration.
	r.EnumAllSimplified = true
	for n := 4; n <= 16; n++ {
		for c := 2; c < n; c++ {
			for sz := 1; sz <= c; sz++ {
				p := gossip.Shuffle{Items: n, Cache: c, Exchange: sz}
				en, err := exact.PDropEnumerated(p)
				if err != nil {
					return nil, err
				}
				sv, _ := exact.PDropSimplified(p)
				r.EnumAllSimplified = r.EnumAllSimplified && en.PerItem.Cmp(sv) == 0
				r.EnumPoints++
			}
		}
	}
	for _, p := range []gossip.Shuffle{{Items: 7, Cache: 4, Exchange: 2}, {Items: 12, Cache: 6, Exchange: 3}, {Items: 20, Cache: 10, Exchange: 5}, {Items: 24, Cache: 8, Exchange: 2}, {Items: 30, Cache: 10, Exchange: 3}, {Items: 500, Cache: 100, Exchange: 50}, {Items: 1000, Cache: 100, Exchange: 50}, {Items: 2000, Cache: 100, Exchange: 50}, {Items: 600, Cache: 500, Exchange: 100}, {Items: 1000, Cache: 250, Exchange: 25}} {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e, _ := exact.PDrop(p)
		g, _ := exact.PDropGamma(p)
		sv, _ := exact.PDropSimplified(p)
		row := PDropRow{N: p.Items, C: p.Cache, S: p.Exchange, GammaMinusFormula1: new(big.Rat).Sub(g, e)}
		if en, err := exact.PDropEnumerated(p); err == nil {
			row.Enumerated = en.PerItem
		}
		row.Formula1, _ = e.Float64()
		row.Simplified, _ = sv.Float64()
		row.Log10AbsDiff, _ = exact.Log10AbsDiff(e, sv)
		r.Rows = append(r.Rows, row)
	}
	return r, nil
}

// PDropRow is one row of the pdrop table: formula (1) E and S rounded to
// floats, γ form − E and the enumerated per-item probability exactly (nil:
// enumeration infeasible), and log10 |E − S|.
type PDropRow struct {
	N, C, S              int
	Formula1, Simplified float64
	GammaMinusFormula1   *big.Rat
	Enumerated           *big.Rat
	Log10AbsDiff         float64
}

// pdropTable renders the rows of section 1's table: formula (1) and S
// rounded to 12 digits, the exact difference γ form − formula (1) and the
// enumerated probability as fractions (empty where enumeration is
// infeasible), beside it its numeric twin enumerated_per_item_float (a
// number in CSV, as formula1 and simplified are); Markdown says "0 (exact)"
// and "infeasible".
func pdropTable(rows []PDropRow) *plots.Table {
	t := &plots.Table{Keys: []string{"n", "c", "s", "formula1", "gamma_minus_formula1", "simplified", "enumerated_per_item", "enumerated_per_item_float", "log10_abs_formula1_minus_S"}}
	for _, r := range rows {
		var enum, enumFloat any // nil: an empty cell
		if r.Enumerated != nil {
			f, _ := r.Enumerated.Float64()
			enum, enumFloat = r.Enumerated.RatString(), fmt.Sprintf("%.12f", f)
		}
		t.Rows = append(t.Rows, []any{r.N, r.C, r.S, fmt.Sprintf("%.12f", r.Formula1), r.GammaMinusFormula1, fmt.Sprintf("%.12f", r.Simplified), enum, enumFloat, fmt.Sprintf("%.3f", r.Log10AbsDiff)})
	}
	t.TextCell = func(col int, v any) string {
		switch {
		case col == 4:
			return differenceWord(v.(*big.Rat))
		case (col == 6 || col == 7) && v == nil:
			return "infeasible"
		}
		return plots.Cell(v)
	}
	return t
}

// Render writes section 1.
func (r *DropProbability) Render(d *Doc) (err error) {
	defer incomplete("DropProbability.Render", &err)
	if r == nil || d == nil {
		return nilRender("DropProbability")
	}
	if err := d.claimFigure("**Paper (Sec. 3.2):** the γ-corrected form (n−c)/((n−s)+1/γ) coincides with formula (1) (\"extensive experiments with Mathematica and Matlab\"), and the simplification S = (n−c)/(n−s) is close to it (\"the correction factor is small\").\n\n", "fig4", Fig4Specs(r.Curves)...); err != nil {
		return err
	}
	mism, gpts := 0, 0
	for _, cu := range r.Curves {
		mism += cu.GammaMismatches
		gpts += len(cu.GammaN)
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range cu.Log10Diff {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		d.printf("- c = %d, s = %d: log₁₀|E − S| from %.1f to %.1f over n = %d..%d\n", cu.C, cu.S, hi, lo, cu.C+r.step, r.nMax)
	}
	verdict := "no mismatch"
	if r.GammaMismatch != nil {
		verdict = "MISMATCH at " + fmt.Sprint(r.GammaMismatch)
	}
	d.printf("- The γ form equals formula (1) exactly at all %d plotted check points (%d mismatches) and on the full grid s ≤ 24, c ≤ 64, n ≤ 160: %d points, %s.\n", gpts, mism, r.GammaChecked, verdict)
	d.printf("- **Theorem (proved for every s ≥ 1; the proofs are in `go doc ./exact`):** formula (1) = S·(1 − 1/C(n,s)) (Theorem A) and γ_s(n) = (C(n,s) − 1)/(n − s) (Theorem B), so the γ form equals formula (1) for all 1 ≤ s ≤ c ≤ n, s < n. `gossipkit pdrop` evaluates formula (1) by this closed form at any s (s = 50,000 in a fraction of a second); the double sum remains as the check.\n")
	d.printf("- %s\n", r.proofSentence())
	where := "NOT every point"
	if r.EnumAllSimplified {
		where = "every point"
	}
	d.printf("- Exhaustive enumeration of one shuffle with independent uniform caches at %d points (4 ≤ n ≤ 16): the probability that a tagged item of S_B \\ S_A is dropped equals **S exactly at %s**. Formula (1) is the mean over shuffles of the dropped share (s−k)/(s−ŝ) of S_B \\ S_A, counted as 0 in the shuffles with S_A = S_B, where nothing can be dropped. Over all other shuffles that share averages exactly S, whatever the size of S_B \\ S_A (the proof of Theorem A); the whole gap between formula (1) and S is S/C(n,s), from the share 1/C(n,s) of shuffles with S_A = S_B: that is what the factor 1 − 1/C(n,s) says. The paper's \"accurate\" formula is accurate for a different quantity.\n",
		r.EnumPoints, where)
	d.printf("\nDrop probabilities (formula (1) and S rounded to 12 digits; the differences are exact):\n")
	return d.table("pdrop", pdropTable(r.Rows))
}

// proofSentence states what ProveGamma decided.
func (r *DropProbability) proofSentence() string {
	var refuted []int
	for _, p := range r.Proofs {
		if !p.Proved {
			refuted = append(refuted, p.S)
		}
	}
	if len(r.Proofs) == 0 {
		return "The identity was not put to the proof in this run."
	}
	if len(refuted) > 0 {
		return fmt.Sprintf("The identity is **refuted** for s = %v (exact evaluation on the proof grid).", refuted)
	}
	return fmt.Sprintf("Independently of the theorems, the identity is **proved** for every s = 1..%d, for all n and c with s ≤ c ≤ n, n > s: for fixed s it is a polynomial identity of degree ≤ 2s in n and ≤ s in c, and it holds exactly on a (2s+1)×(s+1) grid (`gossipkit gamma-check --prove`; the argument is in `go doc ./exact ProveGamma`).", len(r.Proofs))
}

// differenceWord writes an exact difference for a table.
func differenceWord(d *big.Rat) string {
	if d.Sign() == 0 {
		return "0 (exact)"
	}
	return d.RatString()
}

// Transitions is section 2: the transition matrix of Fig. 1 at the first n.
type Transitions struct {
	N, C, S int
	Matrix  approx.Transitions
}

// Transitions computes section 2.
func (s *Study) Transitions(context.Context) (*Transitions, error) {
	if err := s.ready(true); err != nil {
		return nil, err
	}
	sc := s.Scale
	tr, err := approx.TransitionsFor(approx.Simplified, gossip.Shuffle{Items: sc.Ns[0], Cache: sc.Cache, Exchange: sc.Exchange})
	if err != nil {
		return nil, err
	}
	if err := tr.Check(1e-12); err != nil {
		return nil, err
	}
	return &Transitions{N: sc.Ns[0], C: sc.Cache, S: sc.Exchange, Matrix: tr}, nil
}

// Render writes section 2.
func (r *Transitions) Render(d *Doc) (err error) {
	defer incomplete("Transitions.Render", &err)
	if r == nil || d == nil {
		return nilRender("Transitions")
	}
	d.printf("P(to | from) for one item d in one shuffle, n = %d, c = %d, s = %d, P_drop simplified (the per-item drop probability, Sec. 1). Rows sum to 1, P(a₂b₂|a₁b₁) = P(b₂a₂|b₁a₁), and no state holding d goes to 00 (checked). The protocol's network holds n + 1 = %d items once d is inserted (section 3), so its shuffles are judged against this matrix at n + 1 items (P_drop = %d/%d instead of %d/%d).\n",
		r.N, r.C, r.S, protocolItems(r.N), protocolItems(r.N)-r.C, protocolItems(r.N)-r.S, r.N-r.C, r.N-r.S)
	return d.table("transitions", tables.TransitionsTable(r.Matrix))
}
