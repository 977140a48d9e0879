package report

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strings"

	"gonum.org/v1/gonum/floats"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/stats"
	"github.com/gossipkit/gossipkit/meanfield"
	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/sim"
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
	return d.table("transitions", TransitionsTable(r.Matrix))
}

// TransitionsTable is the 4×4 matrix as a table, a row per state from.
func TransitionsTable(tr approx.Transitions) *plots.Table {
	t := &plots.Table{Keys: []string{"from", "to_00", "to_01", "to_10", "to_11"}}
	for i := approx.S00; i <= approx.S11; i++ {
		t.Rows = append(t.Rows, []any{i.String(), tr[i][0], tr[i][1], tr[i][2], tr[i][3]})
	}
	return t
}

// Fig78 is the protocol simulation of Figs. 7 and 8 at every n of the
// scale beside the ODE's closed forms (sections 3 and 4 share it).
type Fig78 struct {
	N, C, S, T int
	Ns         []int
	Runs       map[int]*sim.Result
	// per n (in the order of Ns)
	ModelT, ModelX, ModelY [][]float64
	SimX, SimY             []sim.Trajectory
	// SimYRound is the round-snapshot coverage (the paper's measure).
	SimYRound []sim.Trajectory
	// SimXBand, SimYBand: the 5–95 % quantiles of x and y over the runs.
	SimXBand, SimYBand []Band
	// Rows: the ODE against the protocol at each n (ode_vs_sim).
	Rows []ODEvsSimRow
	// Trans: the measured transitions of d at Ns[0] against Fig. 1's
	// matrix at the items of the simulated network (protocolItems: n + 1,
	// so P_drop = S(n+1, c, s)), in standard errors of the spread between
	// replications (transitionsByRep); TransPaper: the same against the
	// matrix at n, as the paper evaluates it.
	Trans, TransPaper sim.TransitionTest
	// LastCopy is the largest over n of sim.ItemsAfterInsertion's pFewer, the chance that
	// d's insertion overwrote the last copy of an item (which would leave
	// n, not n + 1, items).
	LastCopy float64
	// ShareX, ShareY, ShareYRound: bootstrap intervals (bootLevel, over the
	// replications) of the smallest take-off share over n of x, per-event
	// and round-snapshot coverage, the quantity the verdicts of Figs. 7
	// and 8 grade.
	ShareX, ShareY, ShareYRound Interval
}

// ODEvsSimRow is the ODE against the protocol at one n: the steady state
// (the paper's c/n, and c/Items, the protocol's: Items = n + 1 distinct
// items once d is inserted, protocolItems) against the late mean of x (±
// its standard error), the gaps of x, of
// per-event coverage y and of round-snapshot coverage, the times at which
// the ODE's y and the simulated mean reach 50, 90 and 99 %, the final mean
// coverage, and the gap between the two coverage records. WindowX, WindowY
// and WindowYRound compare x, per-event and round-snapshot coverage over
// the take-off, where the claims of Figs. 7 and 8 live (takeOff).
type ODEvsSimRow struct {
	N                     int
	SteadyCOverN          float64
	Items                 int
	SteadyProtocol        float64
	XLateMean, XLateSE    float64
	GapX, GapY, GapYRound sim.Gap
	T50ODE, T50Sim        float64
	T90ODE, T90Sim        float64
	T99ODE, T99Sim        float64
	YFinal                float64
	Records               sim.Gap // per-event mean against the snapshot mean
	WindowX, WindowY      Window
	WindowYRound          Window
	// CIX, CIY, CIYRound: bootstrap intervals of the three windows' shares
	// at this n alone.
	CIX, CIY, CIYRound Interval
}

// odeVsSimTable renders the rows of ode_vs_sim.
func odeVsSimTable(rows []ODEvsSimRow) *plots.Table {
	t := &plots.Table{Keys: []string{"n", "steady_c_over_n", "items_after_insertion", "steady_protocol", "x_late_mean", "x_late_se", "max_gap_x", "at_t_x", "max_gap_y", "at_t_y", "y_within_1sd", "t50_ode", "t50_sim", "t90_ode", "t90_sim", "t99_ode", "t99_sim", "y_final",
		"max_gap_y_round", "at_t_y_round", "y_round_within_1sd", "max_event_minus_round", "at_t_records",
		"x_window_from", "x_window_to", "x_within_window", "y_window_from", "y_window_to", "y_within_window", "y_round_within_window"}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []any{r.N, r.SteadyCOverN, r.Items, r.SteadyProtocol, r.XLateMean, r.XLateSE, r.GapX.Max, r.GapX.At, r.GapY.Max, r.GapY.At, r.GapY.WithinSD,
			r.T50ODE, r.T50Sim, r.T90ODE, r.T90Sim, r.T99ODE, r.T99Sim, r.YFinal,
			r.GapYRound.Max, r.GapYRound.At, r.GapYRound.WithinSD, r.Records.Max, r.Records.At,
			windowEnd(r.WindowX.From), windowEnd(r.WindowX.To), r.WindowX.Within, windowEnd(r.WindowY.From), windowEnd(r.WindowY.To), r.WindowY.Within, r.WindowYRound.Within})
	}
	return t
}

// windowEnd is a window's first or last round, nil (an empty cell) when
// the window is empty.
func windowEnd(t int) any {
	if t < 0 {
		return nil
	}
	return t
}

// Fig78 runs (once per study) the protocol simulations of Figs. 7 and 8:
// the compute step of sections 3 (replication) and 4 (coverage).
func (s *Study) Fig78(ctx context.Context) (*Fig78, error) {
	if err := s.ready(true); err != nil {
		return nil, err
	}
	if s.fig78 != nil {
		return s.fig78, nil
	}
	sc := s.Scale
	runs := map[int]*sim.Result{}
	for _, n := range sc.Ns {
		s.step(fmt.Sprintf("Figs. 7–8: protocol simulation, n = %d", n))
		res, err := s.experiment(ctx, sim.Protocol, sc.Nodes, n, sc.Cache, sc.Exchange, sc.Warmup, sc.Rounds, sc.Reps)
		if err != nil {
			return nil, err
		}
		runs[n] = res
	}
	f, err := newFig78(sc, runs)
	if err != nil {
		return nil, err
	}
	s.fig78 = f
	return f, nil
}

// newFig78 computes sections 3 and 4 from the protocol runs of the scale
// sc, one per n of sc.Ns.
func newFig78(sc Scale, runs map[int]*sim.Result) (*Fig78, error) {
	f := &Fig78{N: sc.Nodes, C: sc.Cache, S: sc.Exchange, T: sc.Rounds, Ns: sc.Ns, Runs: runs}
	var cases [3][]shareCase // x, per-event y, round-snapshot y over n
	for _, n := range sc.Ns {
		res := runs[n]
		m, err := approx.NewModel(approx.Config{Nodes: sc.Nodes, Shuffle: gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sc.Exchange}, PDrop: approx.Simplified, Initial: 1})
		if err != nil {
			return nil, err
		}
		tt, mx, my := meanfield.Curves(m, sc.Rounds)
		sx, sy := res.Trajectories()
		syr := res.RoundCoverage()
		f.ModelT, f.ModelX, f.ModelY = append(f.ModelT, tt), append(f.ModelX, mx), append(f.ModelY, my)
		f.SimX, f.SimY, f.SimYRound = append(f.SimX, sx), append(f.SimY, sy), append(f.SimYRound, syr)
		bx, by := quantileBands(res)
		f.SimXBand, f.SimYBand = append(f.SimXBand, bx), append(f.SimYBand, by)
		items, pFewer := sim.ItemsAfterInsertion(sc.Nodes, gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sc.Exchange})
		row := ODEvsSimRow{N: n, SteadyCOverN: float64(sc.Cache) / float64(n), Items: items, SteadyProtocol: float64(sc.Cache) / float64(items),
			GapX: sim.CompareTrajectory(mx, sx), GapY: sim.CompareTrajectory(my, sy), GapYRound: sim.CompareTrajectory(my, syr),
			// The two records against each other: CompareTrajectory of the
			// per-event mean as the "model" gives max |per-event − snapshot|.
			Records: sim.CompareTrajectory(sy.Mean, syr),
			YFinal:  sy.Mean[len(sy.Mean)-1]}
		f.LastCopy = math.Max(f.LastCopy, pFewer)
		tol := resolutionNodes / float64(sc.Nodes)
		row.WindowX, row.WindowY, row.WindowYRound = takeOff(mx, sx, tol), takeOff(my, sy, tol), takeOff(my, syr, tol)
		cx, cy, cr := shareCases(res, mx, my, row, tol)
		cases[0], cases[1], cases[2] = append(cases[0], cx), append(cases[1], cy), append(cases[2], cr)
		row.CIX = bootstrapMinShare([]shareCase{cx}, sc.Seed)
		row.CIY = bootstrapMinShare([]shareCase{cy}, sc.Seed)
		row.CIYRound = bootstrapMinShare([]shareCase{cr}, sc.Seed)
		row.XLateMean, row.XLateSE = res.LateMean()
		row.T50ODE, row.T50Sim = sim.FirstReach(tt, my, 0.5), sim.FirstReach(sy.T, sy.Mean, 0.5)
		row.T90ODE, row.T90Sim = sim.FirstReach(tt, my, 0.9), sim.FirstReach(sy.T, sy.Mean, 0.9)
		row.T99ODE, row.T99Sim = sim.FirstReach(tt, my, 0.99), sim.FirstReach(sy.T, sy.Mean, 0.99)
		f.Rows = append(f.Rows, row)
	}
	var err error
	if f.Trans, f.TransPaper, err = protocolTransitions(runs[sc.Ns[0]]); err != nil {
		return nil, err
	}
	f.ShareX = bootstrapMinShare(cases[0], sc.Seed)
	f.ShareY = bootstrapMinShare(cases[1], sc.Seed)
	f.ShareYRound = bootstrapMinShare(cases[2], sc.Seed)
	return f, nil
}

// protocolItems is the number of distinct items in the lossless protocol's
// network once d is inserted, for n items before, at the report's scales:
// n + 1, sim.ItemsAfterInsertion where N·c > n, as at every scale of the
// report (sections 3–4 take the count from it, per n). The warm-up starts
// from all n items (sim's initial placement gives each ⌊cN/n⌋ or ⌈cN/n⌉
// copies), and a lossless shuffle never loses one (what B overwrites, A
// has just received; sim.TestInvariants). d, a new item, then overwrites a
// uniform slot of a uniform node, a copy of some item: n + 1 items, or n
// if that copy was its item's last, with a chance of about (1 − c/n)^(N−1)
// from binomial replica counts, at most 10⁻⁹ at every scale of the report
// (smoke: N = 200, c/n = 0.1). Every item, d included, enters the shuffle
// alike, so the stationary law of the caches is unchanged by relabelling
// items; the N·c slots are shared by n + 1 items, and at steady state each
// holds in expectation c/(n + 1) of the nodes: the plateau of x, exactly
// as t → ∞. The paper's c/n is its n → ∞ reading, c/n − c/(n + 1) =
// c/(n(n + 1)) above it (4·10⁻⁴ at n = 500, c = 100). The same count
// enters the model of one shuffle: P_drop = S at n + 1 items (the per-item
// drop probability S is exact for uniform caches over the items present,
// enumeration in section 1), whose mean field has K = c/(n + 1).
func protocolItems(n int) int { return n + 1 }

// protocolTransitions compares the measured transitions of d in the
// protocol run res (transitionsByRep) with Fig. 1's matrix (simplified
// P_drop, the run's loss) at the protocolItems of the simulated network
// (at) and at the run's n, as the paper evaluates it (paper). P_select =
// s/c does not depend on the items; P_drop = (n+1−c)/(n+1−s) does.
func protocolTransitions(res *sim.Result) (at, paper sim.TransitionTest, err error) {
	model, _, err := networkTransitions(res.Config)
	if err != nil {
		return at, paper, err
	}
	return transitionsByRep(res, model), transitionsByRep(res, res.Measure().TransModel), nil
}

// networkTransitions is Fig. 1's matrix (simplified P_drop, cfg's loss) at
// the items of a protocol run's network once d is inserted
// (sim.ItemsAfterInsertion), and that count.
func networkTransitions(cfg sim.Config) (approx.Transitions, int, error) {
	sh := cfg.Shuffle
	sh.Items, _ = sim.ItemsAfterInsertion(cfg.Nodes, cfg.Shuffle)
	tm, err := approx.TransitionsLossFor(approx.Simplified, sh, cfg.Loss)
	return tm, sh.Items, err
}

func (f *Fig78) names() []string {
	var names []string
	for _, n := range f.Ns {
		names = append(names, fmt.Sprintf("n=%d", n))
	}
	return names
}

func (f *Fig78) fig7() *plots.Spec {
	sp := timeSeriesSpec(fmt.Sprintf("Fig. 7: replication, N=%d, c=%d, s=%d", f.N, f.C, f.S), "x(t): fraction of nodes holding d", f.names(), f.ModelT, f.ModelX, f.SimX, f.SimXBand, "ODE", "protocol mean, 5–95 % of runs")
	// A little room above the highest band (the legend is below the axes).
	top := 0.0
	for i := range f.SimXBand {
		top = math.Max(top, floats.Max(f.SimXBand[i].Hi))
		top = math.Max(top, floats.Max(f.ModelX[i]))
	}
	lo, hi := 0.0, 1.05*top
	sp.YMin, sp.YMax = &lo, &hi
	return sp
}

func (f *Fig78) fig8() *plots.Spec {
	sp := timeSeriesSpec(fmt.Sprintf("Fig. 8: coverage, N=%d, c=%d, s=%d", f.N, f.C, f.S), "y(t): fraction of nodes that have held d", f.names(), f.ModelT, f.ModelY, f.SimY, f.SimYBand, "ODE", "protocol, per event, mean, 5–95 % of runs")
	for i, name := range f.names() {
		sp.Series = append(sp.Series, plots.Series{Name: name + " protocol, round snapshots, mean", X: f.SimYRound[i].T, Y: f.SimYRound[i].Mean, Color: i, Dotted: true})
	}
	sp.Probability = true
	return sp
}

// timeSeriesSpec draws model curves (solid) and simulated means (dashed)
// with their 5–95 % bands, one colour per case.
func timeSeriesSpec(title, ylabel string, names []string, ts [][]float64, model [][]float64, sims []sim.Trajectory, bands []Band, modelName, simName string) *plots.Spec {
	sp := &plots.Spec{Title: title, XLabel: "t (rounds)", YLabel: ylabel}
	for i := range names {
		sp.Series = append(sp.Series, plots.Series{Name: names[i] + " " + modelName, X: ts[i], Y: model[i], Color: i})
		sp.Series = append(sp.Series, band(names[i]+" "+simName, sims[i], bands[i], i))
	}
	return sp
}

// Band is a simulated curve's 5 % and 95 % quantiles over the runs, per
// round: unlike mean ± sd it stays within the curve's range [0, 1].
type Band struct{ Lo, Hi []float64 }

// quantileBands returns the 5–95 % bands of x and of per-event y.
func quantileBands(res *sim.Result) (x, y Band) {
	for _, r := range res.Summary() {
		x.Lo, x.Hi = append(x.Lo, r.XQ05), append(x.Hi, r.XQ95)
		y.Lo, y.Hi = append(y.Lo, r.YQ05), append(y.Hi, r.YQ95)
	}
	return x, y
}

// band is a simulated mean (dashed) with its 5–95 % band.
func band(name string, tr sim.Trajectory, b Band, color int) plots.Series {
	return plots.Series{Name: name, X: tr.T, Y: tr.Mean, Lo: b.Lo, Hi: b.Hi, Color: color, Dashed: true}
}

// renderReplication writes section 3 (Fig. 7).
func (r *Fig78) renderReplication(d *Doc) error {
	if err := d.claimFigure("**Paper (Sec. 5.1):** the simulations show \"the same initial increase in replicas\" as x(t) and \"in all cases the steady state reaches precisely the expected value c/n\".\n", "fig7", r.fig7()); err != nil {
		return err
	}
	d.printf("The plateau: d's insertion overwrites a copy of an item already there (the source's protocol), and a lossless shuffle loses none, so the network simulated holds n + 1 distinct items after t = 0 (n only if the copy overwritten was its item's last: probability about %.1g here, from binomial replica counts (an approximation, not a bound)). The shuffle treats items alike, so at steady state each of them, d included, is held by c/(n+1) of the nodes in expectation: the protocol's exact plateau. The paper's c/n, the plateau of its ODE (drawn here as the paper's), is the n → ∞ reading, c/(n(n+1)) higher.\n", r.LastCopy)
	for i, n := range r.Ns {
		row := r.Rows[i]
		w := row.WindowX
		d.printf("- n = %d: steady state: c/(n+1) = %.4g (the protocol's), c/n = %.4g (the paper's), %.4g ± %.2g measured (mean over the last fifth of the rounds and the replications ± its standard error: %.1f and %.1f standard errors from the two). Take-off (ODE between %g %% and %g %% of c/n): t = %s, where the ODE lies within one sd + half a node of the protocol mean at %s of the rounds (bootstrap interval %s; largest gap %.4f at t = %.0f; over all rounds: %.0f%%).\n",
			n, row.SteadyProtocol, row.SteadyCOverN, row.XLateMean, row.XLateSE, math.Abs(row.XLateMean-row.SteadyProtocol)/row.XLateSE, math.Abs(row.XLateMean-row.SteadyCOverN)/row.XLateSE,
			100*windowLo, 100*windowHi, w.span(), pct(w.Within), intervalText(row.CIX), w.Max, w.At, 100*row.GapX.WithinSD)
	}
	return nil
}

// renderCoverage writes section 4 (Fig. 8).
func (r *Fig78) renderCoverage(d *Doc) error {
	if err := d.claimFigure("**Paper (Sec. 5.2):** \"the solution y(t) models the behaviour observed in simulations, falling nicely within the standard deviation of the simulation results\", and coverage eventually reaches 1.\n", "fig8", r.fig8()); err != nil {
		return err
	}
	for i, n := range r.Ns {
		row := r.Rows[i]
		at := int(row.GapY.At)
		how := "the mean of the runs lags the ODE (a single initial copy: the take-off time is random, and the mean of delayed logistic curves is flatter than the curve)"
		if r.SimY[i].Mean[at] > r.ModelY[i][at] {
			how = "the mean of the runs is ahead of the ODE"
		}
		d.printf("- n = %d: the ODE lies within one sd of the simulated mean at %.0f%% of the rounds; the largest gap, %.3f, is at t = %d, where %s. Final coverage %.4g.\n",
			n, 100*row.GapY.WithinSD, row.GapY.Max, at, how, row.YFinal)
	}
	d.printf("\n**Two coverage records.** The ODE's y(t) counts a node the moment it receives d: dy/dt = 2p·x(1−y) counts every reception, so it models the *per-event* record. The paper measured coverage from *round snapshots* (Sec. 5.2: at every round the holders are identified and a record kept), which misses a node that receives d and passes it on or drops it within the round; the snapshot record lags while d spreads (dotted curves). Verdict on \"falls nicely within the standard deviation\", per measure, by the rule: %s. Over the plateau the runs are all covered, sd = 0 and the ODE is 1 − 10⁻¹³: rounding, not disagreement, which the take-off window and the half-node tolerance leave out.\n\n", sdRuleText())
	for i, n := range r.Ns {
		row := r.Rows[i]
		we, wr, rec := row.WindowY, row.WindowYRound, row.Records
		ve, _ := gradeInterval(we.Within, row.CIY, sdShareHolds, sdShareQualified)
		vr, _ := gradeInterval(wr.Within, row.CIYRound, sdShareHolds, sdShareQualified)
		d.printf("- n = %d: take-off t = %s; per event **%s** (within at %s of its rounds, bootstrap interval %s, largest gap %.3f at t = %.0f; over all rounds within one sd at %.0f%%); round snapshots **%s** (%s, interval %s, largest gap %.3f at t = %.0f; all rounds %.0f%%). The two records differ by up to %.3f (t = %.0f).\n",
			n, we.span(), ve, pct(we.Within), intervalText(row.CIY), we.Max, we.At, 100*row.GapY.WithinSD, vr, pct(wr.Within), intervalText(row.CIYRound), wr.Max, wr.At, 100*row.GapYRound.WithinSD, rec.Max, rec.At)
	}
	d.printf("\nODE against protocol simulation (times in rounds; a time is where the mean curve first reaches the level):\n")
	return d.table("ode_vs_sim", odeVsSimTable(r.Rows))
}

// ModelComparison is section 5: the ODE against the pairwise-Markov and
// protocol simulations at the first n.
type ModelComparison struct {
	N, Items, MarkovReps, Reps int
	ModelT, ModelX, ModelY     []float64
	MarkovX, MarkovY           sim.Trajectory
	ProtoX, ProtoY             sim.Trajectory
	// 5–95 % bands over the runs of each.
	MarkovXBand, MarkovYBand, ProtoXBand, ProtoYBand Band
	XMax                                             float64 // plotted horizon
	// ExactX is E[X(t)/N] of the exact pairwise chain (per-shuffle time,
	// N uniformly random initiators a round), ExactBound its error bound.
	ExactX     []float64
	ExactBound float64
	// The ODE's gaps to the pairwise-Markov (Markov…) and protocol
	// (Proto…) means, in x and y; SimilarGaps: the two coverage gaps are
	// within a factor gapRatio, GapRatio = protocol's / Markov's.
	MarkovGapX, MarkovGapY, ProtoGapX, ProtoGapY sim.Gap
	GapRatio                                     float64
	SimilarGaps                                  bool
	// Split is the replication gap split at t = SplitT, where |ODE −
	// protocol| is largest.
	SplitT int
	Split  GapSplit
	// MarkovExactZ is the largest |Markov mean − exact chain| over all
	// rounds, in standard errors of the Markov mean.
	MarkovExactZ float64
}

// GapSplit splits ODE − protocol at one time into ODE − exact chain
// (finiteness and the single initial copy, no noise) and exact chain −
// protocol (what the pairwise model leaves out), with the standard errors
// of the protocol and Markov means and the Markov mean's distance from the
// exact chain.
type GapSplit struct {
	ODEMinusProto, ODEMinusExact, ExactMinusProto, ProtoSE float64
	MarkovMinusExact, MarkovSE                             float64
}

// ModelComparison computes section 5.
func (s *Study) ModelComparison(ctx context.Context) (*ModelComparison, error) {
	if err := s.ready(true); err != nil {
		return nil, err
	}
	sc := s.Scale
	n := sc.Ns[0]
	f, err := s.Fig78(ctx)
	if err != nil {
		return nil, err
	}
	s.step("ODE against the pairwise-Markov and protocol simulations")
	mk, err := s.experiment(ctx, sim.Markov, sc.Nodes, n, sc.Cache, sc.Exchange, 0, sc.Rounds, sc.MarkovReps)
	if err != nil {
		return nil, err
	}
	m, _ := approx.NewModel(approx.Config{Nodes: sc.Nodes, Shuffle: gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sc.Exchange}, PDrop: approx.Simplified, Initial: 1})
	r := &ModelComparison{N: sc.Nodes, Items: n, MarkovReps: sc.MarkovReps, Reps: sc.Reps}
	r.ModelT, r.ModelX, r.ModelY = meanfield.Curves(m, sc.Rounds)
	r.ProtoX, r.ProtoY = f.Runs[n].Trajectories()
	r.MarkovX, r.MarkovY = mk.Trajectories()
	r.ProtoXBand, r.ProtoYBand = quantileBands(f.Runs[n])
	r.MarkovXBand, r.MarkovYBand = quantileBands(mk)
	// Show the growth phase: up to three times the ODE's time to 99 % coverage.
	r.XMax = math.Min(float64(sc.Rounds), math.Ceil(3*m.TimeToCoverage(0.99)))
	s.step("exact pairwise chain of replication")
	ex, err := chain.Solve(ctx, chain.Config{Nodes: sc.Nodes, Shuffle: gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sc.Exchange}, ReplicationOnly: true, Time: gossip.Shuffles, TMax: float64(sc.Rounds), Dt: 1}, chain.Settings{})
	if err != nil {
		return nil, err
	}
	for _, row := range ex.Rows {
		r.ExactX = append(r.ExactX, row.X.Mean)
	}
	r.ExactBound = ex.Bound
	r.compare()
	return r, nil
}

// compare measures the gaps of section 5 from the curves.
func (r *ModelComparison) compare() {
	r.MarkovGapX, r.MarkovGapY = sim.CompareTrajectory(r.ModelX, r.MarkovX), sim.CompareTrajectory(r.ModelY, r.MarkovY)
	r.ProtoGapX, r.ProtoGapY = sim.CompareTrajectory(r.ModelX, r.ProtoX), sim.CompareTrajectory(r.ModelY, r.ProtoY)
	r.GapRatio = r.ProtoGapY.Max / r.MarkovGapY.Max
	r.SimilarGaps = similarGaps(r.ProtoGapY.Max, r.MarkovGapY.Max)
	t := int(r.ProtoGapX.At)
	se := func(tr sim.Trajectory, reps int) float64 { return tr.SD[t] / math.Sqrt(float64(reps)) }
	r.SplitT = t
	r.Split = GapSplit{ODEMinusProto: r.ModelX[t] - r.ProtoX.Mean[t], ODEMinusExact: r.ModelX[t] - r.ExactX[t], ExactMinusProto: r.ExactX[t] - r.ProtoX.Mean[t], ProtoSE: se(r.ProtoX, r.Reps),
		MarkovMinusExact: r.MarkovX.Mean[t] - r.ExactX[t], MarkovSE: se(r.MarkovX, r.MarkovReps)}
	r.MarkovExactZ = 0
	for i := range r.ExactX {
		if sd := r.MarkovX.SD[i]; sd > 0 {
			r.MarkovExactZ = math.Max(r.MarkovExactZ, math.Abs(r.MarkovX.Mean[i]-r.ExactX[i])/(sd/math.Sqrt(float64(r.MarkovReps))))
		}
	}
}

// Render writes section 5.
func (r *ModelComparison) Render(d *Doc) (err error) {
	defer incomplete("ModelComparison.Render", &err)
	if r == nil || d == nil {
		return nilRender("ModelComparison")
	}
	spec := func(title, yl string, model []float64, a, b sim.Trajectory, ab, bb Band, exact []float64) *plots.Spec {
		mk, pr := band("pairwise Markov, mean, 5–95 % of runs", a, ab, 0), band("protocol, mean, 5–95 % of runs", b, bb, 1)
		sp := &plots.Spec{Title: title, XLabel: "t (rounds)", YLabel: yl, XMax: &r.XMax, Series: []plots.Series{
			{Name: "ODE (mean field)", X: r.ModelT, Y: model, Color: 6}, mk, pr,
		}}
		if exact != nil {
			sp.Series = append(sp.Series, plots.Series{Name: "pairwise chain, exact mean", X: r.ModelT, Y: exact, Color: 4})
		}
		return sp
	}
	d.printf("The ODE against the pairwise-Markov simulation (one bit per node, the transition probabilities of Fig. 1: finite N and a single initial copy, nothing else) and the protocol simulation, N = %d, n = %d (%d Markov replications, %d protocol replications).\n", r.N, r.Items, r.MarkovReps, r.Reps)
	cov := spec("Coverage: ODE, pairwise Markov, protocol", "y(t)", r.ModelY, r.MarkovY, r.ProtoY, r.MarkovYBand, r.ProtoYBand, nil)
	cov.Probability = true
	if err := d.figure("models", spec("Replication: ODE, exact pairwise chain, pairwise Markov, protocol", "x(t)", r.ModelX, r.MarkovX, r.ProtoX, r.MarkovXBand, r.ProtoXBand, r.ExactX), cov); err != nil {
		return err
	}
	gkx, gky, gpx, gpy := r.MarkovGapX, r.MarkovGapY, r.ProtoGapX, r.ProtoGapY
	verdict := "Both simulations lag the ODE during take-off by a similar amount (their largest coverage gaps are within a factor 1.5), so the gap comes from finiteness and the single initial copy (what the pairwise-Markov model keeps), not from the protocol's correlations between caches (what it drops)."
	if !r.SimilarGaps {
		verdict = fmt.Sprintf("The two simulations' largest coverage gaps differ by a factor %.2f, so beyond finiteness and the single initial copy (what the pairwise-Markov model keeps), the protocol's correlations between caches (what it drops) matter here.", r.GapRatio)
	}
	d.printf("**Measured:** largest |ODE − mean|: pairwise Markov %.3f (x, t = %.0f) and %.3f (y, t = %.0f); protocol %.3f (x, t = %.0f) and %.3f (y, t = %.0f). %s The refined mean field (section 7) corrects the 1/N part of it.\n",
		gkx.Max, gkx.At, gky.Max, gky.At, gpx.Max, gpx.At, gpy.Max, gpy.At, verdict)
	sp := r.Split
	d.printf("\n**The replication gap split** at t = %d, where |ODE − protocol| is largest (exact pairwise chain with N uniformly random initiators a round, error bound %.1g): ODE − protocol = %.4f, of which ODE − exact chain = %.4f is finiteness and the single initial copy (exact, no noise), and exact chain − protocol = %.4f ± %.4f (one standard error of the protocol mean) is what the pairwise model leaves out: the protocol's correlations between caches and its schedule (each node initiates exactly once a round). The pairwise-Markov simulation (round schedule) lies %.4f ± %.4f from the exact chain there; over all rounds its largest distance is %.1f standard errors. Coverage needs the joint chain of (X, Y), whose N²/2 = %.2g states at N = %d are beyond this solver's reach in the time of a report (section 7 uses it at N = 100).\n",
		r.SplitT, r.ExactBound, sp.ODEMinusProto, sp.ODEMinusExact, sp.ExactMinusProto, sp.ProtoSE,
		sp.MarkovMinusExact, sp.MarkovSE, r.MarkovExactZ, float64(r.N)*float64(r.N)/2, r.N)
	return nil
}

// Optimal is section 6: s* against the ODE's time-optimal s and the
// protocol's time to 99 % coverage.
type Optimal struct {
	Items, Cache, OptNodes, OptReps int
	Opt                             *meanfield.Optimum
	// P(11|10) at s = 1..c−1.
	S, P11 []float64
	// Simulated exchange sizes reaching 99 % coverage, with the mean and
	// mean ± sd of their times; BestSim is the fastest.
	SimS, SimT, SimLo, SimHi []float64
	BestSim                  int
	BestSimT                 float64
	// ExactT[s−1] is the exact mean time to 99 % coverage of the pairwise
	// chain (continuous time) at OptNodes nodes, s = 1..c−1; ExactBest is
	// its argmin.
	ExactT        []float64
	ExactSD       []float64
	ExactBest     int
	ExactBestT    float64
	ExactSDAtBest float64
	// Effect: how much faster the exact chain's best s is than s*'s
	// integer argmax, and whether OptReps protocol runs would show it.
	Effect OptimumEffect
	// Growth: the protocol's growth time of replication (growthTimes) at
	// each simulated s, the measure of the replication verdict.
	Growth []GrowthRow
	// Grid: s* over (n, c) with the integer argmax of P(11|10).
	Grid []OptimalSRow
	// Trend: the ODE's time-optimal s as N grows (optimalTrendNs).
	Trend []OptimumTrendRow
}

// optimalTrendNs are the group sizes of the ODE's optimum trend.
var optimalTrendNs = []int{1000, 10000, 1000000, 100000000}

// OptimumTrendRow is the ODE's time-optimal s at N nodes, its time to 99 %
// coverage and the time at s*'s integer argmax, and the gain in %.
type OptimumTrendRow struct {
	N                    int
	SBest                int
	BestTime, TimeAtSInt float64
	GainPct              float64
}

// optimalTrendTable renders optimal_trend.
func optimalTrendTable(rows []OptimumTrendRow) *plots.Table {
	t := &plots.Table{Keys: []string{"N", "s_best_ode", "t99_best", "t99_at_s_int", "gain_pct"}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []any{r.N, r.SBest, r.BestTime, r.TimeAtSInt, r.GainPct})
	}
	return t
}

// OptimalSRow is s* at one (n, c) with the integer argmax of P(11|10)
// (simplified and γ form) and P(11|10) there.
type OptimalSRow struct {
	N, C            int
	SStar           float64
	SInt, SIntGamma int
	P11AtSInt       float64
}

// optimalSTable renders the rows of optimal_s.
func optimalSTable(rows []OptimalSRow) *plots.Table {
	t := &plots.Table{Keys: []string{"n", "c", "s_star", "s_int", "s_int_gamma", "p11_at_s_int"}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []any{r.N, r.C, r.SStar, r.SInt, r.SIntGamma, r.P11AtSInt})
	}
	return t
}

// optimalFigure computes what the figure of section 6 shows.
func (s *Study) optimalFigure(ctx context.Context) (*Optimal, error) {
	sc := s.Scale
	n := sc.Ns[0]
	s.step("optimal s")
	res, err := meanfield.Optimize(ctx, meanfield.OptimizeConfig{Nodes: sc.OptNodes, Items: n, Cache: sc.Cache, Level: 0.99})
	if err != nil {
		return nil, err
	}
	r := &Optimal{Items: n, Cache: sc.Cache, OptNodes: sc.OptNodes, OptReps: sc.OptReps, Opt: res, BestSimT: math.Inf(1)}
	for sz := 1; sz < sc.Cache; sz++ {
		p, _ := approx.P11Given10(approx.Simplified, gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sz})
		r.S, r.P11 = append(r.S, float64(sz)), append(r.P11, p)
	}
	s.step("optimal s: exact pairwise chain")
	r.ExactBestT = math.Inf(1)
	for sz := 1; sz < sc.Cache; sz++ {
		mean, sd, err := chain.MeanTimeToLevel(ctx, chain.Config{Nodes: sc.OptNodes, Shuffle: gossip.Shuffle{Items: n, Cache: sc.Cache, Exchange: sz}, Level: 0.99})
		if err != nil {
			return nil, err
		}
		r.ExactT, r.ExactSD = append(r.ExactT, mean), append(r.ExactSD, sd)
		if mean < r.ExactBestT {
			r.ExactBest, r.ExactBestT, r.ExactSDAtBest = sz, mean, sd
		}
	}
	for _, sz := range sc.OptS {
		if sz >= sc.Cache {
			continue
		}
		s.step(fmt.Sprintf("optimal s: protocol simulation, s = %d", sz))
		// Only the time to 99 % coverage is used: the runs are observed
		// up to twice the pairwise chain's mean time + 5 sd (the protocol
		// lags the pairwise model by a few rounds, far less than that), at
		// most OptRounds. A run's first rounds do not depend on how many
		// follow, so the times are those of an OptRounds-long run.
		rounds := sc.OptRounds
		if h := 2 * (r.ExactT[sz-1] + 5*r.ExactSD[sz-1]); h < float64(rounds) {
			rounds = max(1, int(math.Ceil(h)))
		}
		sr, err := s.experiment(ctx, sim.Protocol, sc.OptNodes, n, sc.Cache, sz, sc.OptWarmup, rounds, sc.OptReps)
		if err != nil {
			return nil, err
		}
		if g := growthTimes(sr, float64(sc.Cache)/float64(n)); len(g) >= 2 {
			gm, gsd := stats.MeanSD(g)
			r.Growth = append(r.Growth, GrowthRow{S: sz, Mean: gm, SD: gsd, Runs: len(g)})
		}
		m, sd := stats.MeanSD(sr.TimesToCoverage(0.99 * float64(sc.OptNodes)))
		if math.IsNaN(m) {
			continue // not reached within the horizon
		}
		r.SimS, r.SimT = append(r.SimS, float64(sz)), append(r.SimT, m)
		r.SimLo, r.SimHi = append(r.SimLo, m-sd), append(r.SimHi, m+sd)
		if m < r.BestSimT {
			r.BestSim, r.BestSimT = sz, m
		}
	}
	i, b := res.SInt-1, r.ExactBest-1
	r.Effect = optimumEffect(r.ExactBest, res.SStar, res.SInt, r.ExactT[b], r.ExactSD[b], r.ExactT[i], r.ExactSD[i], sc.OptReps)
	return r, nil
}

// Optimal computes section 6.
func (s *Study) Optimal(ctx context.Context) (*Optimal, error) {
	if err := s.ready(true); err != nil {
		return nil, err
	}
	r, err := s.optimalFigure(ctx)
	if err != nil {
		return nil, err
	}
	for _, nn := range []int{200, 500, 1000, 2000, 5000} {
		for _, c := range []int{50, 100, 250} {
			if c >= nn {
				continue
			}
			si, p, _ := approx.ArgmaxP11(approx.Simplified, nn, c)
			sg, _, _ := approx.ArgmaxP11(approx.Gamma, nn, c)
			r.Grid = append(r.Grid, OptimalSRow{N: nn, C: c, SStar: approx.SStar(nn, c), SInt: si, SIntGamma: sg, P11AtSInt: p})
		}
	}
	for _, N := range optimalTrendNs {
		o, err := meanfield.Optimize(ctx, meanfield.OptimizeConfig{Nodes: N, Items: r.Items, Cache: r.Cache, Level: 0.99})
		if err != nil {
			return nil, err
		}
		r.Trend = append(r.Trend, OptimumTrendRow{N: N, SBest: o.SBestTime, BestTime: o.BestTime, TimeAtSInt: o.TimeAtSInt, GainPct: 100 * (o.TimeAtSInt - o.BestTime) / o.TimeAtSInt})
	}
	return r, nil
}

func (r *Optimal) specs() []*plots.Spec {
	res := r.Opt
	top := &plots.Spec{Title: fmt.Sprintf("Optimal exchange size, n=%d, c=%d", r.Items, r.Cache), XLabel: "exchange size s", YLabel: "P(11|10) = (s/c)(c−s)/(n−s)",
		Series: []plots.Series{{Name: "P(11|10)", X: r.S, Y: r.P11, Color: 0}},
		VLines: []plots.VLine{{X: res.SStar, Name: fmt.Sprintf("s* = %.2f", res.SStar), Color: 1}}}
	odeS := make([]float64, len(res.Times))
	for i := range odeS {
		odeS[i] = float64(i + 1)
	}
	bottom := &plots.Spec{Title: fmt.Sprintf("Time to 99%% coverage, N=%d", r.OptNodes), XLabel: "exchange size s", YLabel: "rounds to y = 0.99",
		Series: []plots.Series{
			{Name: "ODE", X: odeS, Y: res.Times, Color: 6},
			{Name: "pairwise chain, exact mean", X: odeS, Y: r.ExactT, Color: 0, Dashed: true},
			{Name: fmt.Sprintf("protocol, mean ± sd of %d runs", r.OptReps), X: r.SimS, Y: r.SimT, Lo: r.SimLo, Hi: r.SimHi, Color: 2, Points: true},
		},
		VLines: []plots.VLine{{X: res.SStar, Name: fmt.Sprintf("s* = %.2f", res.SStar), Color: 1}, {X: float64(res.SBestTime), Name: fmt.Sprintf("ODE optimum s = %d", res.SBestTime), Color: 3},
			{X: float64(r.ExactBest), Name: fmt.Sprintf("exact optimum s = %d", r.ExactBest), Color: 4}}}
	lo, hi := 0.0, 0.0
	for _, v := range append(append(append([]float64{}, res.Times...), r.SimHi...), r.ExactT...) {
		if !math.IsInf(v, 0) && v > hi {
			hi = v
		}
	}
	hi = math.Min(hi*1.05, 4*math.Max(res.BestTime, r.ExactBestT))
	bottom.YMin, bottom.YMax = &lo, &hi
	return []*plots.Spec{top, bottom}
}

// Render writes section 6.
func (r *Optimal) Render(d *Doc) (err error) {
	defer incomplete("Optimal.Render", &err)
	if r == nil || d == nil {
		return nilRender("Optimal")
	}
	res := r.Opt
	d.printf("**Paper (Secs. 3.5, 5.1):** s* = n − √(n(n−c)) maximises P(11|10) and \"is the optimal value for s to obtain fast convergence of replication and coverage\".\n")
	if err := d.figure("optimal", r.specs()...); err != nil {
		return err
	}
	e := r.Effect
	side := "at"
	if math.Abs(float64(e.Best)-e.SStar) > optSlack {
		side = "above"
		if float64(e.Best) < e.SStar {
			side = "below"
		}
	}
	var trend []string
	for _, t := range r.Trend {
		trend = append(trend, fmt.Sprintf("%d (N = %s, %.1f %%)", t.SBest, powerOfTen(t.N), t.GainPct))
	}
	d.printf("**Measured:** s* = %.3f; integer argmax of P(11|10): %d (simplified), %d (γ form). s* maximises the *rate* k of the logistic x(t) and so the replication speed, but coverage also grows with p = s/c itself (dy/dt = 2p·x(1−y)): the ODE's time to 99%% coverage (N = %d) is smallest at s = %d (%.1f rounds, against %.1f at s = %d). The exact pairwise chain (the finite-N model with one initial copy, solved by first-step analysis for every s, no sampling) gives the mean time to 99%% coverage smallest at **s = %d** (%.2f rounds, sd %.2f; %.2f at s = %d): in the pairwise model the coverage optimum lies %s s*. The protocol simulation's fastest s among those simulated is %d (%.1f rounds, mean of %d runs; with so few runs its error bars cannot separate neighbouring s).\n",
		res.SStar, res.SInt, res.SIntGamma, r.OptNodes, res.SBestTime, res.BestTime, res.TimeAtSInt, res.SInt, r.ExactBest, r.ExactBestT, r.ExactSDAtBest, r.ExactT[res.SInt-1], res.SInt, side, r.BestSim, r.BestSimT, r.OptReps)
	d.printf("\n**Effect size.** The best s gains %.2f rounds over s = %d (%.1f %% of %.1f rounds). Two means of %d protocol runs each differ by %.2f standard errors at that gain (the sds of the exact chain's time), so it is %s at this scale; %.0f runs of each would show it at %d standard errors. As N grows the ODE's best s moves toward s*: %s; the gain shrinks with it. Claim for coverage: **%s** (%s).\n",
		e.Gain, e.SInt, e.GainPct, r.ExactT[e.SInt-1], e.Runs, e.Z, map[bool]string{true: "significant", false: "not significant"}[e.Z >= zSignificant], math.Ceil(e.RunsForZ), zSignificant, strings.Join(trend, ", "), optimumRule(e), optimumRuleText())
	if err := d.table("optimal_trend", optimalTrendTable(r.Trend)); err != nil {
		return err
	}
	d.printf("\ns* over a grid of (n, c), with the integer argmax of P(11|10):\n")
	return d.table("optimal_s", optimalSTable(r.Grid))
}
