package report

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/report/internal/claim"
)

func tinyDesign(t *testing.T) *DesignAnswers {
	t.Helper()
	for _, r := range tinyResults(t) {
		if d, ok := r.(*DesignAnswers); ok {
			return d
		}
	}
	t.Fatal("no design-answers section")
	return nil
}

// The compute step on the tiny scale (n = 100, c = 20, s = 10).
func TestDesignAnswers(t *testing.T) {
	r := tinyDesign(t)
	// u = 2(s/c)(c−s)/(n−s) = 2·(1/2)·10/90 = 1/9 for the simplified
	// P_drop, so the limit sd for K = 1 is π/(√6·u) = 9π/√6 (Var ln W =
	// ψ'(1) = π²/6), and for K = 5 √ψ'(5)·9 with ψ'(5) = π²/6 − 1 − 1/4
	// − 1/9 − 1/16.
	want := map[int]float64{1: 9 * math.Pi / math.Sqrt(6), 5: 9 * math.Sqrt(math.Pi*math.Pi/6-1-0.25-1.0/9-1.0/16)}
	methods := map[string]int{}
	for _, row := range r.SD {
		methods[row.Method]++
		if row.Level == 1 {
			continue
		}
		// 1e-12 relative: limitSD computes ψ'(K) as π²/6 minus K − 1 ≤ 4 reciprocal squares, one division by u² and a square root: a few ulp, like want.
		if math.Abs(row.Limit-want[row.Initial]) > 1e-12*want[row.Initial] {
			t.Errorf("K=%d: limit %v, want %v", row.Initial, row.Limit, want[row.Initial])
		}
		// At N = 10⁷ and L = 0.99 the last nodes' term is below 10⁻⁴ of
		// the variance (B's sd ≈ √(0.99·0.01/N)) and ρ = 1 − 10⁻⁷: the
		// limit law's sd is the limit to 10⁻³.
		if row.Method == "asymptotic" && row.N == 10_000_000 && math.Abs(row.SD-row.Limit) > 1e-3*row.Limit {
			t.Errorf("K=%d: sd at N = 10⁷ %v, limit %v", row.Initial, row.SD, row.Limit)
		}
		// Monte Carlo within 4 standard errors plus the law's stated
		// deviation 2/(u·√N) (package plan) of the limit law at its N.
		if row.Method == "mc" {
			lim := limitAt(r, row)
			if math.Abs(row.SD-lim) > 4*row.SESD+2*9/math.Sqrt(float64(row.N)) {
				t.Errorf("K=%d N=%d: Monte Carlo sd %v ± %v, limit law %v", row.Initial, row.N, row.SD, row.SESD, lim)
			}
		}
	}
	// 4 exact N, 2 Monte Carlo N (tiny: MarkovReps < 1000), 21 quarter
	// decades, for each of the 3 cases.
	if methods["exact"] != 12 || methods["mc"] != 6 || methods["asymptotic"] != 63 {
		t.Errorf("rows by method %v", methods)
	}
	// P(T_L ≤ D) falls with N at every s: the law moves right by about
	// ln(10)/u a decade while its spread stays (package plan).
	p := map[[2]int]float64{}
	for _, row := range r.PDeadline {
		if row.Method == "asymptotic" {
			p[[2]int{row.N, row.S}] = row.PDeadline
		}
	}
	for s := 1; s < r.Cache; s++ {
		if !(p[[2]int{1000, s}] >= p[[2]int{10_000, s}] && p[[2]int{10_000, s}] >= p[[2]int{1_000_000, s}]) {
			t.Errorf("s=%d: P(T ≤ D) %v, %v, %v at N = 10³, 10⁴, 10⁶", s, p[[2]int{1000, s}], p[[2]int{10_000, s}], p[[2]int{1_000_000, s}])
		}
	}
	for i, b := range r.Best {
		if b.Feasible != (b.PDeadline >= r.Confidence) || b.Cheapest != 0 && (b.Cheapest < b.FeasibleLo || b.Cheapest > b.FeasibleHi) {
			t.Errorf("N=%d: %+v", b.N, b)
		}
		if i > 0 && b.TConfidence <= r.Best[i-1].TConfidence {
			t.Errorf("N=%d: t_confidence %v not above %v at N = %d", b.N, b.TConfidence, r.Best[i-1].TConfidence, r.Best[i-1].N)
		}
		// Items sent = 2s·N·mean > 2s·N·(the quantile's time scale): at
		// least 2s·N rounds' worth of one round.
		if b.ItemsSent < 2*float64(b.Fastest*b.N) {
			t.Errorf("N=%d: items sent %v", b.N, b.ItemsSent)
		}
	}
	// The exact chain at N = 100 and 300 against the limit law's
	// 0.95-quantile: within the law's stated deviation of the mean plus
	// z·that of the sd, 12/(u·N) + z·2/(u·√N) with 1/u = 9 and z = 1.866,
	// the Gumbel law's standardised 0.95-quantile (package plan's quantile
	// law).
	exact := 0
	for _, b := range r.Best {
		if math.IsNaN(b.ExactT) {
			continue
		}
		exact++
		n := float64(b.N)
		if tol := 9 * (12/n + 1.866*2/math.Sqrt(n)); math.Abs(b.ExactT-b.TConfidence) > tol {
			t.Errorf("N=%d: exact 0.95-quantile %v, limit law %v (tolerance %.2f)", b.N, b.ExactT, b.TConfidence, tol)
		}
	}
	if exact != 2 {
		t.Errorf("%d rows with the exact chain, want N = 100 and 300", exact)
	}
	// The section writes its figures and tables.
	dir := t.TempDir()
	d := NewDoc(dir)
	if err := r.Render(d); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"design_sd.png", "design_sd.svg", "design_p.png", "design_sd.csv", "design_p.csv", "design_p_all.csv", "design_best.csv", "design_best.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	if !strings.Contains(string(d.Markdown()), "](design_sd.png)") {
		t.Error("the section does not show design_sd.png")
	}
}

// limitAt is the limit law's sd at the row's N, K and L.
func limitAt(r *DesignAnswers, row DesignSDRow) float64 {
	for _, a := range r.SD {
		if a.Method == "asymptotic" && a.N == row.N && a.Initial == row.Initial && a.Level == row.Level {
			return a.SD
		}
	}
	return math.NaN()
}

// The finding's rule on made-up rows: the sd kept from N = 1000 and at the
// limit holds; kept but away from the limit holds with a qualification;
// shrinking does not hold; a ratio whose interval (± 3 se over the exact
// sd) straddles sdKeep = 0.5 is undecided.
func TestFindingRule(t *testing.T) {
	rows := func(sdHi, se float64) *DesignAnswers {
		r := &DesignAnswers{}
		for _, dc := range designCases {
			r.SD = append(r.SD,
				DesignSDRow{Initial: dc.K, Level: dc.L, N: 1000, Method: "exact", SD: 10, SESD: math.NaN(), Limit: 10},
				DesignSDRow{Initial: dc.K, Level: dc.L, N: 100_000, Method: "mc", SD: sdHi, SESD: se, Limit: 10},
				DesignSDRow{Initial: dc.K, Level: dc.L, N: 10_000_000, Method: "asymptotic", SD: 1, SESD: math.NaN(), Limit: 10})
		}
		return r
	}
	for _, tc := range []struct {
		sdHi, se float64
		want     string
	}{
		{10.2, 0.1, claim.Holds},     // within 3·0.1 + 5 % of 10
		{10.75, 0.1, claim.Holds},    // 0.75 ≤ 0.3 + 0.5
		{10.9, 0.1, claim.Qualified}, // 0.9 > 0.8, kept (ratio 1.09)
		{8.5, 0.1, claim.Qualified},  // ratio 0.85 ± 0.03 above 0.5, off the limit
		{4.5, 0.1, claim.Fails},      // ratio 0.45 ± 0.03, wholly below 0.5
		{5.5, 1, claim.Undecided},    // ratio 0.55 ± 0.3, across 0.5
	} {
		r := rows(tc.sdHi, tc.se)
		fs := r.findings()
		if len(fs) != 2 {
			t.Fatalf("%d findings, want one for each K at L < 1", len(fs))
		}
		if got := findingRule(fs); got != tc.want {
			t.Errorf("sd %v ± %v: %q, want %q", tc.sdHi, tc.se, got, tc.want)
		}
		if v := r.Verdicts(); len(v) != 1 || v[0].Verdict != tc.want || v[0].Rule != findingRuleText() {
			t.Errorf("verdicts %+v", v)
		}
	}
}
