package plots

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TestSaveDecodes writes a figure and checks that the PNG decodes at
// Width×Height at DPI and the SVG parses with the same size in points.
func TestSaveDecodes(t *testing.T) {
	dir := t.TempDir()
	sp := &Spec{Title: "t", XLabel: "x", YLabel: "y", Series: []Series{
		{Name: "a", X: []float64{0, 1, 2}, Y: []float64{0, 1, 0}, Lo: []float64{-1, 0, -1}, Hi: []float64{1, 2, 1}},
		{Name: "b", X: []float64{0, 2}, Y: []float64{1, 1}, Lo: []float64{0.5, 0.5}, Hi: []float64{1.5, 1.5}, Points: true},
	}, VLines: []VLine{{X: 1, Name: "v"}}}
	files, err := sp.Save(filepath.Join(dir, "f"))
	if err != nil {
		t.Fatal(err)
	}
	// 6 × 4 in (900 × 600 px), and below the axes a strip for the legend
	// of 3 entries in one column: 3 rows of 9-point text, each between 9
	// and 14 pt with its gap, and margins of 6 pt above and below: 39 to
	// 57 pt, 81 to 119 px at 150 dpi.
	checkPNGBetween(t, files[0], 900, 600+81, 600+119)
	// The SVG is as wide, 432 pt.
	checkSVGWidth(t, files[1], "432pt")
	files, err = SaveGrid(filepath.Join(dir, "g"), sp, sp, sp)
	if err != nil {
		t.Fatal(err)
	}
	// Three panels in a grid of two columns (1800 px wide, two rows of
	// 600 px) and one legend of the 3 distinct entries below them: the
	// same strip as one figure's.
	checkPNGBetween(t, files[0], 1800, 1200+81, 1200+119)
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Errorf("%d files in the directory, want 4 (no temporary files left)", len(entries))
	}
}

// checkPNGBetween checks that a PNG decodes w pixels wide and hLo..hHi
// tall.
func checkPNGBetween(t *testing.T, path string, w, hLo, hHi int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if got := img.Bounds().Size(); got.X != w || got.Y < hLo || got.Y > hHi {
		t.Errorf("%s: %v, want %d wide and %d to %d tall", path, got, w, hLo, hHi)
	}
}

// checkSVGWidth checks that the file parses as an SVG w wide.
func checkSVGWidth(t *testing.T, path, w string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var root struct {
		XMLName xml.Name
		Width   string `xml:"width,attr"`
	}
	if err := xml.Unmarshal(b, &root); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if root.XMLName.Local != "svg" || !strings.HasPrefix(root.Width, strings.TrimSuffix(w, "pt")) {
		t.Errorf("%s: <%s width=%q>, want svg %s wide", path, root.XMLName.Local, root.Width, w)
	}
}

func TestTableFormats(t *testing.T) {
	tb := &Table{Keys: []string{"a", "b"}, Rows: [][]any{{1, nil}, {"x,y", 0.5}}}
	var b bytes.Buffer
	if err := tb.Write(&b, "csv"); err != nil || b.String() != "a,b\n1,\n\"x,y\",0.5\n" {
		t.Errorf("csv %q %v", b.String(), err)
	}
	b.Reset()
	if err := tb.Write(&b, "json"); err != nil || b.String() != "[\n  {\"a\": 1, \"b\": null},\n  {\"a\": \"x,y\", \"b\": 0.5}\n]\n" {
		t.Errorf("json %q %v", b.String(), err)
	}
	b.Reset()
	if err := tb.Write(&b, "markdown"); err != nil || !strings.Contains(b.String(), "|:----|:----|") || !strings.Contains(b.String(), "| x,y | 0.5 |") {
		t.Errorf("markdown %q %v", b.String(), err)
	}
}

// TestNaNPointsDropped: an unreached level (NaN) is left out of a figure,
// and a log axis refuses non-positive values instead of panicking.
func TestNaNPointsDropped(t *testing.T) {
	se := Series{X: []float64{1, 2, 3}, Y: []float64{1, math.NaN(), 3}, Lo: []float64{0, 0, 2}, Hi: []float64{2, 2, 4}}
	f := se.finite()
	if len(f.X) != 2 || f.X[1] != 3 || len(f.Lo) != 2 {
		t.Errorf("finite: %+v", f)
	}
	if _, err := (&Spec{Series: []Series{se}}).Build(); err != nil {
		t.Error(err)
	}
	if _, err := (&Spec{LogY: true, Series: []Series{{X: []float64{1, 2}, Y: []float64{1, 0}}}}).Build(); err == nil {
		t.Error("a zero on a log axis was accepted")
	}
}

// TestDecadeTicks: a log axis from 45 to 250000 (drawn in log10 units) has
// labelled ticks at the decades 100 … 100000, labelled in the original
// units, and minor ticks at m × 10^k, m = 2…9, within the range: 50…90 (5),
// 200…90000 (3 decades × 8) and 200000 (1), 30 in all; nothing outside.
func TestDecadeTicks(t *testing.T) {
	lo, hi := math.Log10(45), math.Log10(250000)
	var labels []string
	minor := 0
	for _, tk := range (decadeTicks{}).Ticks(lo, hi) {
		if tk.Value < lo || tk.Value > hi {
			t.Errorf("tick %g outside [%g, %g]", tk.Value, lo, hi)
		}
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		} else {
			minor++
		}
	}
	if want := []string{"100", "1000", "10000", "100000"}; !slices.Equal(labels, want) {
		t.Errorf("labels %v, want %v", labels, want)
	}
	if minor != 30 {
		t.Errorf("%d minor ticks, want 30", minor)
	}
}

// TestLogYNeedsPositive: a LogY figure refuses y ≤ 0 with the series' name
// instead of letting gonum panic.
func TestLogYNeedsPositive(t *testing.T) {
	s := &Spec{LogY: true, Series: []Series{{Name: "tree", X: []float64{1, 2}, Y: []float64{1, 0}}}}
	if _, err := s.Build(); err == nil || !strings.Contains(err.Error(), "tree: log scale needs y > 0") {
		t.Errorf("got %v", err)
	}
}

// TestRoundTicks: a linear axis is marked at a round step (1, 2 or 5 ×
// 10^k, at most 10 ticks), every tick labelled in its shortest form.
func TestRoundTicks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		min, max float64
		want     []string
	}{
		{"a probability", 0, 1, []string{"0", "0.2", "0.4", "0.6", "0.8", "1"}},
		{"exchange sizes 10–90", 10, 90, []string{"10", "20", "30", "40", "50", "60", "70", "80", "90"}},
		{"rounds 0–500", 0, 500, []string{"0", "100", "200", "300", "400", "500"}},
		{"a share 0–0.25", 0, 0.25, []string{"0", "0.05", "0.1", "0.15", "0.2", "0.25"}},
		{"negative to positive", -0.03, 0.02, []string{"-0.03", "-0.02", "-0.01", "0", "0.01", "0.02"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, tk := range (roundTicks{}).Ticks(c.min, c.max) {
				if tk.Label == "" {
					t.Errorf("unlabelled tick at %g", tk.Value)
				}
				got = append(got, tk.Label)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("ticks %v, want %v", got, c.want)
			}
		})
	}
}

// TestProbabilityAxis: a probability axis spans [0, 1] whatever the data,
// labelled every 0.2.
func TestProbabilityAxis(t *testing.T) {
	t.Parallel()
	s := &Spec{Probability: true, Series: []Series{{Name: "p", X: []float64{1, 2}, Y: []float64{0.3, 0.5}}}}
	p, err := s.Build()
	if err != nil {
		t.Fatal(err)
	}
	if p.Y.Min != 0 || p.Y.Max != 1 {
		t.Errorf("y axis [%g, %g], want [0, 1]", p.Y.Min, p.Y.Max)
	}
	var labels []string
	for _, tk := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		labels = append(labels, tk.Label)
	}
	if want := []string{"0", "0.2", "0.4", "0.6", "0.8", "1"}; !slices.Equal(labels, want) {
		t.Errorf("labels %v, want %v", labels, want)
	}
}

// TestLogX: a LogX figure is drawn in log10 x with the original x intact in
// the caller's Spec, labels exactly the XTicks given (at log10 of each),
// and refuses x ≤ 0 (series, VLine or XMax) with an error, not a panic.
func TestLogX(t *testing.T) {
	ns := []float64{100, 500, 1000, 2000, 4000}
	s := &Spec{Title: "t", LogX: true, XTicks: ns, Series: []Series{{Name: "tree", X: ns, Y: []float64{1, 2, 3, 4, 5}}}}
	p, err := s.Build()
	if err != nil {
		t.Fatal(err)
	}
	if s.Series[0].X[0] != 100 {
		t.Errorf("Build changed the caller's x: %v", s.Series[0].X)
	}
	// The axis spans log10 100 = 2 … log10 4000 ≈ 3.602.
	// 1e-12: the axis ends are log10 of the data, one rounding each, a few ulp of values ≤ 4.
	if math.Abs(p.X.Min-2) > 1e-12 || math.Abs(p.X.Max-math.Log10(4000)) > 1e-12 {
		t.Errorf("x axis [%g, %g], want [2, %g]", p.X.Min, p.X.Max, math.Log10(4000))
	}
	var labels []string
	for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		labels = append(labels, tk.Label)
		// 1e-12: a tick's value is log10 of its label parsed back, a few ulp.
		if want := math.Log10(mustFloat(t, tk.Label)); math.Abs(tk.Value-want) > 1e-12 {
			t.Errorf("tick %q at %g, want %g", tk.Label, tk.Value, want)
		}
	}
	if want := []string{"100", "500", "1000", "2000", "4000"}; !slices.Equal(labels, want) {
		t.Errorf("labels %v, want %v", labels, want)
	}
	for name, bad := range map[string]*Spec{
		"series": {LogX: true, Series: []Series{{Name: "tree", X: []float64{0, 1}, Y: []float64{1, 2}}}},
		"vline":  {LogX: true, Series: []Series{{X: []float64{1, 2}, Y: []float64{1, 2}}}, VLines: []VLine{{X: -1, Name: "s*"}}},
		"xmax":   {LogX: true, Series: []Series{{X: []float64{1, 2}, Y: []float64{1, 2}}}, XMax: new(float64)},
	} {
		if _, err := bad.Build(); err == nil || !strings.Contains(err.Error(), "log x scale needs x > 0") {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

type ms struct{ m, s float64 }

func (v ms) MeanSD() (float64, float64) { return v.m, v.s }
func (v ms) String() string             { return "m ± s" }

// CSV carries numbers: a mean ± sd column becomes two columns, and a value
// that does not exist (NaN, ±Inf, nil) is an empty cell, never "NaN".
func TestCSVNumbersOnly(t *testing.T) {
	tb := &Table{Keys: []string{"k", "depth", "x"}, Rows: [][]any{{1, ms{2.5, 0.5}, math.NaN()}, {2, ms{3, 0}, math.Inf(1)}}}
	var b bytes.Buffer
	if err := tb.Write(&b, "csv"); err != nil {
		t.Fatal(err)
	}
	if want := "k,depth_mean,depth_sd,x\n1,2.5,0.5,\n2,3,0,\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	tb.Write(&b, "json")
	if strings.Contains(b.String(), "NaN") || strings.Contains(b.String(), "Inf") {
		t.Errorf("JSON %s", b.String())
	}
}

// TestRoundEnds: an end of a linear axis moves out to the round tick just
// beyond it when that costs at most 5 % of the span, so both ends are
// labelled when the data nearly reach a tick; far from a tick it stays.
func TestRoundEnds(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name             string
		min, max         float64
		wantMin, wantMax float64
	}{
		// Exchange sizes 1..99 (step 20): 0 and 100 are 1 % away.
		{"exchange sizes 1–99", 1, 99, 0, 100},
		// A share from 1/N to 0.22 (step 0.05): 0 is 0.2 % away, 0.25 is
		// 14 % away.
		{"a share from 1/N", 0.0004, 0.2196, 0, 0.2196},
		// Delays 105–440 ms (step 50): 100 and 450 are 1.5 % and 3 % away.
		{"delays 105–440", 105, 440, 100, 450},
		// Items 251–3000 (step 500): 0 is 9 % away.
		{"items from c + 1", 251, 3000, 251, 3000},
		// Differences −0.0032…0.0035 (step 0.001): ticks 12 % and 7.5 %
		// away.
		{"far from both ticks", -0.0032, 0.0035, -0.0032, 0.0035},
		{"ends on ticks", 0, 500, 0, 500},
		{"empty span", 5, 5, 5, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			// 1e-12: an end is k·step, one rounded product (a few ulp).
			lo, hi := roundEnds(c.min, c.max)
			if math.Abs(lo-c.wantMin) > 1e-12 || math.Abs(hi-c.wantMax) > 1e-12 {
				t.Errorf("roundEnds(%g, %g) = %g, %g; want %g, %g", c.min, c.max, lo, hi, c.wantMin, c.wantMax)
			}
		})
	}
	// In a figure: both axes of a plain Spec, and not an axis with a limit.
	ymax := 0.3
	for _, c := range []struct {
		name           string
		spec           Spec
		x0, x1, y0, y1 float64
	}{
		{"plain", Spec{Series: []Series{{X: []float64{1, 50, 99}, Y: []float64{0.0004, 0.1, 0.2196}}}}, 0, 100, 0, 0.2196},
		{"YMax set", Spec{YMax: &ymax, Series: []Series{{X: []float64{1, 50, 99}, Y: []float64{0.0004, 0.1, 0.2196}}}}, 0, 100, 0, 0.3},
		{"log y", Spec{LogY: true, Series: []Series{{X: []float64{1, 50, 99}, Y: []float64{2, 10, 50}}}}, 0, 100, math.Log10(2), math.Log10(50)},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := c.spec.Build()
			if err != nil {
				t.Fatal(err)
			}
			// 1e-12: k·step or a log10, each within a few ulp.
			if math.Abs(p.X.Min-c.x0) > 1e-12 || math.Abs(p.X.Max-c.x1) > 1e-12 || math.Abs(p.Y.Min-c.y0) > 1e-12 || math.Abs(p.Y.Max-c.y1) > 1e-12 {
				t.Errorf("axes x [%g, %g] y [%g, %g], want x [%g, %g] y [%g, %g]", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max, c.x0, c.x1, c.y0, c.y1)
			}
		})
	}
}

// TestLegendColumns: a legend of more than three entries takes two
// columns, unless an entry is wider than half the figure, which would be
// cut at its right edge.
func TestLegendColumns(t *testing.T) {
	t.Parallel()
	item := func(name string) legendItem { return legendItem{name: name} }
	short := []legendItem{item("ODE"), item("protocol mean, complete graph"), item("random 20-regular graph"), item("torus")}
	long := append(slices.Clone(short[:3]), item("protocol mean, random geometric graph on the torus (radius 0.05, 20 neighbours)"))
	for _, c := range []struct {
		name  string
		items []legendItem
		want  int
		w     vg.Length
	}{
		{"three entries", short[:3], 1, Width},
		{"four short entries", short, 2, Width},
		{"an entry wider than half", long, 1, Width},
		// Below a grid of two figures: up to four columns, as many as
		// hold the widest entry (the long one fits in half of 12 in, not
		// in a third).
		{"grid, four short entries", short, 4, 2 * Width},
		{"grid, an entry wider than a third", long, 2, 2 * Width},
		{"grid, three entries", short[:3], 1, 2 * Width},
		{"grid, five short entries: 2 rows, so 3 columns", append(slices.Clone(short), item("x")), 3, 2 * Width},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := legendColumns(c.items, c.w); got != c.want {
				t.Errorf("%d columns, want %d", got, c.want)
			}
		})
	}
}

// TestLegendTwins: an unnamed line retracing a named series (same colour,
// same x) shows in that series' legend entry, before its marker; one of
// another colour or other x does not.
func TestLegendTwins(t *testing.T) {
	t.Parallel()
	x := []float64{1, 2, 3}
	y := []float64{1, 4, 9}
	s := &Spec{Series: []Series{
		{Name: "points", X: x, Y: y, Points: true, Color: 1},
		{X: x, Y: y, Color: 1, Dashed: true},
		{Name: "other", X: x, Y: y, Points: true, Color: 2},
		{X: x, Y: y, Color: 3},
		{X: []float64{1, 2}, Y: []float64{1, 4}, Color: 2},
	}}
	_, items, err := s.build()
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 {
		t.Fatalf("%d legend entries, want 2", len(items))
	}
	if n := len(items[0].thumbs); n != 2 {
		t.Errorf("points: %d marks in the legend, want 2 (its line and its marker)", n)
	}
	if n := len(items[1].thumbs); n != 1 {
		t.Errorf("other: %d marks in the legend, want 1", n)
	}
}

// TestLegendKeyAndGrid: a Key entry is in the legend, after the curves,
// with the marker of its style, and does not move the axes; the legend of a
// grid names each entry once, in the order the panels name them.
func TestLegendKeyAndGrid(t *testing.T) {
	t.Parallel()
	sp := &Spec{Title: "t", Series: []Series{{Name: "a", X: []float64{0, 1}, Y: []float64{0, 1}},
		{X: []float64{0.5}, Y: []float64{0.5}, Points: true, Open: true}, {X: []float64{0, 1}, Y: []float64{0.2, 0.2}, Dotted: true}},
		Key: []Series{{Name: "open dots: b", Points: true, Open: true, Color: 6}, {Name: "dotted: c", Dotted: true, Color: 6}}}
	p, items, err := sp.build()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, it := range items {
		names = append(names, it.name)
	}
	if want := []string{"a", "open dots: b", "dotted: c"}; !slices.Equal(names, want) {
		t.Errorf("legend %q, want %q", names, want)
	}
	if sc, ok := items[1].thumbs[0].(*plotter.Scatter); !ok || sc.GlyphStyle.Shape != (draw.RingGlyph{}) {
		t.Errorf("open dots' thumbnail is %T, want a scatter of rings", items[1].thumbs[0])
	}
	if l, ok := items[2].thumbs[0].(*plotter.Line); !ok || len(l.LineStyle.Dashes) == 0 {
		t.Errorf("dotted's thumbnail is %T, want a dashed line", items[2].thumbs[0])
	}
	bare := *sp
	bare.Key = nil
	q, _, err := bare.build()
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min != q.X.Min || p.X.Max != q.X.Max || p.Y.Min != q.Y.Min || p.Y.Max != q.Y.Max {
		t.Errorf("the key moved the axes: x [%g, %g] y [%g, %g], without it x [%g, %g] y [%g, %g]", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max, q.X.Min, q.X.Max, q.Y.Min, q.Y.Max)
	}

	item := func(name string) legendItem { return legendItem{name: name} }
	got := mergeLegends([][]legendItem{{item("x"), item("y")}, {item("y"), item("z")}, {item("x")}})
	names = names[:0]
	for _, it := range got {
		names = append(names, it.name)
	}
	if want := []string{"x", "y", "z"}; !slices.Equal(names, want) {
		t.Errorf("grid legend %q, want %q", names, want)
	}
}

// TestCheckLegend: each way a mark can go unexplained, or an entry
// explain nothing, is an error naming it; the ways a mark is explained
// (its name, the named series it retraces, a Key entry of its style in a
// named colour, the named end of a range) pass.
func TestCheckLegend(t *testing.T) {
	t.Parallel()
	x, y := []float64{1, 2, 3}, []float64{1, 4, 9}
	ok := &Spec{Title: "ok", Series: []Series{
		{Name: "line", X: x, Y: y, Color: 1},
		{X: x, Y: y, Color: 1, Points: true},                                 // retraces "line"
		{X: []float64{1, 2}, Y: []float64{2, 3}, Color: 1, Dotted: true},     // explained by the key
		{X: []float64{1, 2}, Y: []float64{math.NaN(), math.NaN()}, Color: 5}, // draws nothing
	}, Key: []Series{{Name: "dotted: the limit", Dotted: true, Color: 6}},
		VLines: []VLine{{X: 1.5, Name: "range 1.5–2.5", Color: 2}, {X: 2.5, Color: 2}}}
	if err := CheckLegend(ok); err != nil {
		t.Errorf("a figure whose every mark is explained: %v", err)
	}
	for _, c := range []struct {
		name  string
		specs []*Spec
		want  string
	}{
		{"unnamed series", []*Spec{{Title: "a", Series: []Series{{Name: "a", X: x, Y: y}, {X: []float64{1, 2}, Y: y[:2], Color: 3, Dashed: true}}}},
			`figure "a": series 2 (colour 3, dashed line) has no legend entry`},
		{"a key's style in an unnamed colour", []*Spec{{Title: "b", Series: []Series{{Name: "a", X: x, Y: y}, {X: []float64{1, 2}, Y: y[:2], Color: 3, Points: true}},
			Key: []Series{{Name: "dots: b", Points: true, Color: 6}}}},
			`series 2 (colour 3, filled dots) has no legend entry`},
		{"a key in a panel without its dots", []*Spec{{Title: "c", Series: []Series{{Name: "a", X: x, Y: y}}, Key: []Series{{Name: "open dots: b", Points: true, Open: true, Color: 6}}},
			{Title: "c2", Series: []Series{{Name: "a", X: x, Y: y}, {X: x, Y: y, Points: true, Open: true, Color: 6}}}},
			`panel 2 ("c2"): series 2 (colour 6, open dots) has no legend entry`},
		{"an unnamed vertical line", []*Spec{{Title: "d", Series: []Series{{Name: "a", X: x, Y: y}}, VLines: []VLine{{X: 2, Color: 4}}}},
			`vertical line 1 (colour 4, x = 2) has no legend entry`},
		{"one name drawn two ways in a grid", []*Spec{{Title: "f", Series: []Series{{Name: "a", X: x, Y: y}}}, {Title: "g", Series: []Series{{Name: "a", X: x, Y: y, Dashed: true}}}},
			`panel 2 ("g"): "a" is drawn as colour 0, dashed line, in an earlier panel as colour 0, line`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CheckLegend(c.specs...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
	if err := CheckLegend(nil); err == nil {
		t.Error("a nil Spec passed")
	}
}

// TestVLinesInterleave: two vertical lines at one x draw alternate dots
// (2 pt on, 6 off, offset by 4 pt: together 2 on, 2 off, neither hidden);
// a line alone draws 2 on, 2 off; every legend entry shows 2 on, 2 off.
func TestVLinesInterleave(t *testing.T) {
	t.Parallel()
	s := &Spec{Series: []Series{{Name: "a", X: []float64{0, 4}, Y: []float64{0, 1}}},
		VLines: []VLine{{X: 2, Name: "p", Color: 3}, {X: 2, Name: "q", Color: 4}, {X: 3, Name: "r", Color: 5}}}
	_, items, err := s.build()
	if err != nil {
		t.Fatal(err)
	}
	type dash struct{ on, off, offs vg.Length }
	var got []dash
	for _, kj := range [][2]int{{2, 0}, {2, 1}, {1, 0}} {
		d, o := vlineDashes(kj[0], kj[1])
		got = append(got, dash{d[0], d[1], o})
	}
	want := []dash{{vg.Points(2), vg.Points(6), 0}, {vg.Points(2), vg.Points(6), vg.Points(4)}, {vg.Points(2), vg.Points(2), 0}}
	if !slices.Equal(got, want) {
		t.Errorf("vertical lines' dashes %v, want %v", got, want)
	}
	if len(items) != 4 {
		t.Fatalf("%d legend entries, want 4 (a and the three lines)", len(items))
	}
	// Drawn: the SVG holds the two interleaved lines' patterns, the
	// second at x = 2 offset.
	files, err := s.Save(filepath.Join(t.TempDir(), "v"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(files[1])
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "stroke-dasharray:2,6"); n != 2 {
		t.Errorf("%d lines dashed 2 on, 6 off in the SVG, want the 2 at x = 2", n)
	}
	if n := strings.Count(string(b), "stroke-dashoffset:4"); n != 1 {
		t.Errorf("%d lines offset by 4 pt in the SVG, want 1", n)
	}
	for _, it := range items[1:] {
		l := it.thumbs[0].(*plotter.Line)
		if d := l.LineStyle.Dashes; len(d) != 2 || d[0] != vg.Points(2) || d[1] != vg.Points(2) || l.LineStyle.DashOffs != 0 {
			t.Errorf("legend %q: dashes %v offset %v, want 2 on, 2 off", it.name, d, l.LineStyle.DashOffs)
		}
	}
}

// TestLegendShowsBandsAndBars: a series' band and error bars are in its
// legend entry beneath its line or marker, as is a Key's dots' bar when
// the dots it explains have bars; a named series with nothing to draw says
// so.
func TestLegendShowsBandsAndBars(t *testing.T) {
	t.Parallel()
	x, y := []float64{1, 2, 3}, []float64{1, 4, 9}
	lo, hi := []float64{0, 3, 8}, []float64{2, 5, 10}
	s := &Spec{Series: []Series{
		{Name: "band", X: x, Y: y, Lo: lo, Hi: hi},
		{Name: "bars", X: x, Y: y, Lo: lo, Hi: hi, Points: true, Color: 1},
		{Name: "plain", X: x, Y: y, Color: 2},
		{Name: "nothing", X: x[:1], Y: []float64{math.NaN()}, Color: 3},
		{X: x, Y: y, Lo: lo, Hi: hi, Points: true, Open: true, Color: 2},
	}, Key: []Series{{Name: "open dots: runs", Points: true, Open: true, Color: 6}}}
	_, items, err := s.build()
	if err != nil {
		t.Fatal(err)
	}
	kinds := func(it legendItem) string {
		var k []string
		for _, th := range it.thumbs {
			switch th.(type) {
			case *plotter.Polygon:
				k = append(k, "band")
			case errorBarThumb:
				k = append(k, "bar")
			case *plotter.Scatter:
				k = append(k, "dot")
			case *plotter.Line:
				k = append(k, "line")
			default:
				k = append(k, "?")
			}
		}
		return it.name + ": " + strings.Join(k, "+")
	}
	var got []string
	for _, it := range items {
		got = append(got, kinds(it))
	}
	want := []string{"band: band+line", "bars: bar+dot", "plain: line", "nothing (no value to draw): line", "open dots: runs: bar+dot"}
	if !slices.Equal(got, want) {
		t.Errorf("legend\n%q, want\n%q", got, want)
	}
	// A Key entry whose marks are not drawn (no open dots with a value)
	// is left out.
	s.Series[4].Y = []float64{math.NaN(), math.NaN(), math.Inf(1)}
	if _, items, err = s.build(); err != nil {
		t.Fatal(err)
	}
	if last := items[len(items)-1].name; len(items) != 4 || last != "nothing (no value to draw)" {
		t.Errorf("%d entries, the last %q: want the key left out", len(items), last)
	}
}

// TestGridOneLegend: three panels sharing two names and adding one each
// are one image of two columns and two rows with one legend of the four
// distinct names, in one row-major strip: as tall as one figure's legend of
// four entries (two columns of two rows below a single figure; here four
// columns of one row fit the grid's width, so shorter still).
func TestGridOneLegend(t *testing.T) {
	t.Parallel()
	x, y := []float64{1, 2, 3}, []float64{1, 4, 9}
	panel := func(extra string) *Spec {
		return &Spec{Title: extra, Series: []Series{{Name: "ODE", X: x, Y: y}, {Name: "protocol", X: x, Y: y, Color: 1, Dashed: true}, {Name: extra, X: x, Y: y, Color: 2, Dotted: true}}}
	}
	specs := []*Spec{panel("p1"), panel("p2"), panel("p3")}
	if err := CheckLegend(specs...); err != nil {
		t.Fatal(err)
	}
	var panels [][]legendItem
	for _, s := range specs {
		_, it, err := s.build()
		if err != nil {
			t.Fatal(err)
		}
		if len(it) != 3 {
			t.Fatalf("panel %q: %d entries, want 3", s.Title, len(it))
		}
		panels = append(panels, it)
	}
	items := mergeLegends(panels)
	var names []string
	for _, it := range items {
		names = append(names, it.name)
	}
	if want := []string{"ODE", "protocol", "p1", "p2", "p3"}; !slices.Equal(names, want) {
		t.Fatalf("one legend %q, want %q", names, want)
	}
	files, err := SaveGrid(filepath.Join(t.TempDir(), "g"), specs...)
	if err != nil {
		t.Fatal(err)
	}
	// 2 × 6 in wide at 150 dpi, 2 × 4 in of panels and one legend strip
	// of 5 entries: 3 columns of 2 rows below the 12-in grid (legendColumns),
	// 2 rows of 9-point text with gaps and 2 × 6 pt margins: 29 to 40 pt,
	// 60 to 84 px. A legend per panel would be three strips.
	if c := legendColumns(items, 2*Width); c != 3 {
		t.Errorf("%d legend columns below the grid, want 3", c)
	}
	checkPNGBetween(t, files[0], 1800, 1200+60, 1200+84)
}
