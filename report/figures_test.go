package report

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/plots"
)

// TestDeployedFigureMarksVerdict: section 11's figure shows the share and
// the probabilities on two panels, one quantity each, and marks in both
// what the Serf verdict compares: the logistic curve's round and the 5–95 %
// window of the exact T_1 at the figure's setting. The window's ends are
// read here from the figure's own exact CDF (the first round whose
// P(T_1 ≤ r) reaches 0.05, and 0.95), not from the quantiles the table
// prints, so the two derivations check each other.
func TestDeployedFigureMarksVerdict(t *testing.T) {
	var r *Deployed
	for _, res := range tinyResults(t) {
		if d, ok := res.(*Deployed); ok {
			r = d
		}
	}
	if r == nil {
		t.Fatal("no gossip-as-deployed section")
	}
	c := r.Curves
	quantile := func(p float64) float64 {
		for i, v := range c.PAll {
			if v >= p {
				return c.Rounds[i]
			}
		}
		return math.NaN()
	}
	q05, q95 := quantile(0.05), quantile(0.95)
	specs := r.figures()
	if len(specs) != 2 {
		t.Fatalf("%d panels, want 2 (share; probabilities)", len(specs))
	}
	if err := plots.CheckLegend(specs...); err != nil {
		t.Error(err)
	}
	if specs[0].Probability || !specs[1].Probability || specs[0].YLabel != "informed share" {
		t.Errorf("panels' y axes %q (probability %v) and %q (probability %v): want the informed share alone, then probabilities alone", specs[0].YLabel, specs[0].Probability, specs[1].YLabel, specs[1].Probability)
	}
	for _, sp := range specs {
		var xs []float64
		for _, v := range sp.VLines {
			xs = append(xs, v.X)
		}
		if want := []float64{c.LogisticT, q05, q95}; !slices.Equal(xs, want) {
			t.Errorf("panel %q marks rounds %v, want the logistic round and the exact 5 %% and 95 %% quantiles of T_1 %v", sp.Title, xs, want)
		}
		if !strings.Contains(sp.VLines[1].Name, "5–95 %") || sp.VLines[2].Name != "" {
			t.Errorf("panel %q: the window's legend entry %q and %q, want one entry naming 5–95 %%", sp.Title, sp.VLines[1].Name, sp.VLines[2].Name)
		}
	}
}

// TestRefinedGridLegend: section 7's panels share one legend: a name in
// several panels is drawn alike in each (plots.CheckLegend), and each
// round-schedule simulation's entry carries its runs.
func TestRefinedGridLegend(t *testing.T) {
	var r *Refined
	for _, res := range tinyResults(t) {
		if d, ok := res.(*Refined); ok {
			r = d
		}
	}
	if r == nil {
		t.Fatal("no refined section")
	}
	if len(r.Panels) < 2 {
		t.Fatalf("%d panels, want x and y for each plotted case", len(r.Panels))
	}
	if err := plots.CheckLegend(r.Panels...); err != nil {
		t.Error(err)
	}
	var first []string
	for _, se := range r.Panels[0].Series {
		first = append(first, se.Name)
	}
	runs := 0
	for _, n := range first {
		if strings.Contains(n, "(runs: ") {
			runs++
		}
	}
	if runs != 2 {
		t.Errorf("legend %q: %d entries with their runs, want the two round-schedule simulations", first, runs)
	}
}
