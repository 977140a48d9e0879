package report

import (
	"context"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/tree"
)

// One run of the whole report on the tiny scale (Run's work: every
// section computed, rendered and written) serves TestRunTiny's checks of
// the files, TestShardMerge's single run and the tests below of the typed
// results: the tiny scale was computed three times, about 90 of the
// package's 211 s (2026-12-06).
var (
	tinyOnce   sync.Once
	computed   []Renderer
	computeErr error
	tinyStudy  *Study
	tinyDir    string       // the run's output folder
	tinySeen   map[int]bool // the sections whose steps StepDone logged
)

// tinyRun is the shared run: its folder and the sections' results.
func tinyRun(t *testing.T) (string, []Renderer) {
	t.Helper()
	if testing.Short() {
		t.Skip("computes every section")
	}
	tinyOnce.Do(func() {
		root, err := os.MkdirTemp("", "gossipkit-report-tiny-")
		if err != nil {
			computeErr = err
			return
		}
		tinyRoot = root
		tinyDir, tinySeen = filepath.Join(root, "out"), map[int]bool{}
		log := func(st StepTime) { tinySeen[st.Section] = true }
		s := NewStudy(tiny(), Options{Workers: 2, StepDone: log})
		s.computed = func(r []Renderer) { computed = r }
		tinyStudy = s
		computeErr = s.write(context.Background(), tinyDir)
	})
	if computeErr != nil {
		t.Fatal(computeErr)
	}
	return tinyDir, computed
}

func tinyResults(t *testing.T) []Renderer {
	t.Helper()
	_, r := tinyRun(t)
	return r
}

// tinyRoot is removed after the tests (TestMain).
var tinyRoot string

func TestMain(m *testing.M) {
	code := m.Run()
	if tinyRoot != "" {
		os.RemoveAll(tinyRoot)
	}
	os.Exit(code)
}

func TestDropProbabilityRows(t *testing.T) {
	r := tinyResults(t)[0].(*DropProbability)
	if len(r.Rows) != 10 {
		t.Fatalf("%d rows, want the 10 points of the table", len(r.Rows))
	}
	// n = 7, c = 4, s = 2: S = 3/5; formula (1) = S·(1 − 1/C(7,2)) = 0.6·20/21
	// = 4/7 (Theorem A, proved in `go doc ./exact`; 4/7 is also the paper's
	// worked example, checked by hand in exact.TestPDropPaperExample);
	// enumeration gives S for a tagged item (section 1).
	p := r.Rows[0]
	if p.N != 7 || p.C != 4 || p.S != 2 || math.Abs(p.Formula1-4.0/7) > 1e-15 || math.Abs(p.Simplified-0.6) > 1e-15 {
		t.Errorf("row %+v, want formula (1) 4/7 and S 3/5", p)
	}
	if p.GammaMinusFormula1.Sign() != 0 || p.Enumerated == nil || p.Enumerated.Cmp(big.NewRat(3, 5)) != 0 {
		t.Errorf("γ − E = %v, enumerated %v; want 0 and 3/5", p.GammaMinusFormula1, p.Enumerated)
	}
	// |E − S| = 0.6/21 = 1/35.
	if want := math.Log10(1.0 / 35); math.Abs(p.Log10AbsDiff-want) > 1e-12 {
		t.Errorf("log10|E − S| = %v, want %v", p.Log10AbsDiff, want)
	}
	// n = 500, c = 100, s = 50 is beyond enumeration.
	if r.Rows[5].Enumerated != nil {
		t.Errorf("n = 500 enumerated: %v", r.Rows[5].Enumerated)
	}
}

func TestFig78Rows(t *testing.T) {
	tinyResults(t)
	s := tiny()
	r, err := tinyStudy.Fig78(context.Background()) // computed once, by sections 3 and 4
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != len(s.Ns) {
		t.Fatalf("%d rows for %d n", len(r.Rows), len(s.Ns))
	}
	for i, row := range r.Rows {
		n := s.Ns[i]
		if row.N != n || row.SteadyCOverN != float64(s.Cache)/float64(n) {
			t.Errorf("row %d: n %d, c/n %v", i, row.N, row.SteadyCOverN)
		}
		// The network simulated holds the n items and d.
		if row.Items != n+1 || row.SteadyProtocol != float64(s.Cache)/float64(n+1) {
			t.Errorf("row %d: %d items, plateau %v; want %d, c/(n+1)", i, row.Items, row.SteadyProtocol, n+1)
		}
		// The ODE's time to 50 % coverage read off its unit-step curve,
		// against the model's closed form (approx.Model.TimeToCoverage):
		// linear interpolation between rounds errs by at most
		// max|y''|/8 over a step divided by the slope, well under 0.1
		// round for these logistic curves.
		m, _ := approx.NewModel(approx.Config{Nodes: s.Nodes, Shuffle: gossip.Shuffle{Items: n, Cache: s.Cache, Exchange: s.Exchange}, Initial: 1})
		if want := m.TimeToCoverage(0.5); math.Abs(row.T50ODE-want) > 0.1 {
			t.Errorf("n=%d: t50 of the ODE %v, closed form %v", n, row.T50ODE, want)
		}
		// A gap is the largest distance, so it bounds the final one.
		if d := math.Abs(r.ModelY[i][s.Rounds] - row.YFinal); d > row.GapY.Max {
			t.Errorf("n=%d: final gap %v above the largest %v", n, d, row.GapY.Max)
		}
		if row.XLateSE <= 0 || row.GapY.WithinSD < 0 || row.GapY.WithinSD > 1 {
			t.Errorf("n=%d: row %+v", n, row)
		}
	}
}

func TestModelComparisonSplit(t *testing.T) {
	r := tinyResults(t)[4].(*ModelComparison)
	// The split adds up: (ODE − exact) + (exact − protocol) = ODE − protocol.
	sp := r.Split
	if d := sp.ODEMinusExact + sp.ExactMinusProto - sp.ODEMinusProto; math.Abs(d) > 1e-12 {
		t.Errorf("split does not add up: %+v", sp)
	}
	if math.Abs(math.Abs(sp.ODEMinusProto)-r.ProtoGapX.Max) > 1e-12 || float64(r.SplitT) != r.ProtoGapX.At {
		t.Errorf("split at t = %d of |%v|, largest gap %v at %v", r.SplitT, sp.ODEMinusProto, r.ProtoGapX.Max, r.ProtoGapX.At)
	}
	if r.GapRatio != r.ProtoGapY.Max/r.MarkovGapY.Max {
		t.Errorf("ratio %v", r.GapRatio)
	}
}

func TestOptimalGrid(t *testing.T) {
	r := tinyResults(t)[5].(*Optimal)
	for _, g := range r.Grid {
		// s* = n − √(n(n−c)) (Sec. 3.5 of the paper).
		if want := float64(g.N) - math.Sqrt(float64(g.N)*float64(g.N-g.C)); math.Abs(g.SStar-want) > 1e-9 {
			t.Errorf("n=%d c=%d: s* %v, want %v", g.N, g.C, g.SStar, want)
		}
		// The integer argmax of a unimodal function lies next to s*.
		if math.Abs(float64(g.SInt)-g.SStar) >= 1 {
			t.Errorf("n=%d c=%d: argmax %d far from s* %v", g.N, g.C, g.SInt, g.SStar)
		}
	}
	// 5 n × 3 c, less the (n, c) with c ≥ n: (200, 250).
	if len(r.Grid) != 14 {
		t.Errorf("%d grid rows, want 14", len(r.Grid))
	}
}

func TestRefinedRows(t *testing.T) {
	r := tinyResults(t)[6].(*Refined)
	// One case at N = 50 ≤ maxJointExact: the exact chain and two
	// simulations, x and y each.
	if len(r.Rows) != 6 {
		t.Fatalf("%d rows, want 6", len(r.Rows))
	}
	for _, row := range r.Rows {
		if (row.Runs == 0) != (row.Simulation == "exact chain, continuous time") {
			t.Errorf("row %+v: runs and simulation disagree", row)
		}
		if row.MaxErrClassic < 0 || row.MaxErrRefined < 0 || row.SDAt < 0 || row.SDSimulated < 0 {
			t.Errorf("row %+v", row)
		}
	}
	// The exact chain's x at N = 50 with 5 copies: the refined mean field
	// is closer than the classic (the point of the 1/N correction).
	if x := r.Rows[0]; x.MaxErrRefined >= x.MaxErrClassic {
		t.Errorf("exact x: refined %v not below classic %v", x.MaxErrRefined, x.MaxErrClassic)
	}
}

func TestTreeRows(t *testing.T) {
	r := tinyResults(t)[7].(*Tree)
	if len(r.Table1) != 2 || r.Table1[0].Redirect != tree.RedirectDistance || r.Table1[1].DepthDoc != 6.00 {
		t.Errorf("Table I rows %+v", r.Table1)
	}
	if len(r.Repairs) != 3 {
		t.Fatalf("%d repair tables", len(r.Repairs))
	}
	for i, rows := range r.Repairs {
		if len(rows) != 5 || rows[4].FailedPct != 50 || rows[0].Repair != treeRepairs[i] {
			t.Errorf("repair table %d: %+v", i, rows)
		}
	}
	if s := r.Repairs[2][4].Summary.Seeds; s != tiny().TreeSeeds {
		t.Errorf("election at 50 %%: %d seeds, want %d", s, tiny().TreeSeeds)
	}
}

func TestGossipVsTreeRows(t *testing.T) {
	r := tinyResults(t)[8].(*GossipVsTree)
	if len(r.Rows) != len(tiny().GossipTreeNs) || len(r.Failures) != 3 {
		t.Fatalf("%d rows, %d failure rows", len(r.Rows), len(r.Failures))
	}
	for _, row := range r.Rows {
		// One notification message per node but the root.
		// (NaN where the runs never reach 99 %, as at this tiny scale.)
		ms := math.Round(1000 * row.GossipT99.Mean)
		if row.TreeMsgsPerNode != float64(row.N-1)/float64(row.N) || !(row.GossipT99Ms == ms || math.IsNaN(ms) && math.IsNaN(row.GossipT99Ms)) {
			t.Errorf("row %+v", row)
		}
	}
}

func TestTransitionsSection(t *testing.T) {
	r := tinyResults(t)[1].(*Transitions)
	if r.N != tiny().Ns[0] || r.C != tiny().Cache || r.S != tiny().Exchange {
		t.Errorf("n, c, s = %d, %d, %d", r.N, r.C, r.S)
	}
	// Each row of a transition matrix is a law: it sums to 1 (to rounding
	// of four terms, 1e-15).
	for i, row := range r.Matrix {
		if sum := row[0] + row[1] + row[2] + row[3]; math.Abs(sum-1) > 1e-15 {
			t.Errorf("row %d sums to %v", i, sum)
		}
	}
}

func TestOptimalEffectAndTrend(t *testing.T) {
	r := tinyResults(t)[5].(*Optimal)
	e := r.Effect
	// The best s is the exact chain's argmin, so its gain over any s, s*'s
	// integer argmax included, is ≥ 0 and is the difference of the two
	// exact mean times.
	if e.Best != r.ExactBest || e.SInt != r.Opt.SInt || e.Gain < 0 || e.Gain != r.ExactT[e.SInt-1]-r.ExactBestT || e.Runs != tiny().OptReps {
		t.Errorf("effect %+v; exact best %d at %v", e, r.ExactBest, r.ExactBestT)
	}
	if len(r.Trend) != len(optimalTrendNs) {
		t.Fatalf("%d trend rows", len(r.Trend))
	}
	for _, row := range r.Trend {
		// BestTime is the minimum over s, so it is no later than at s*.
		if row.BestTime > row.TimeAtSInt || row.GainPct < 0 {
			t.Errorf("trend row %+v", row)
		}
	}
}
