package plots

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/gossipkit/gossipkit/internal/atomicfile"
)

// Figure size: a single-column figure of a two-column paper is about 3.5 in
// wide; at 6 × 4 in with 11-pt text the figure stays readable when scaled
// to a column and when shown full width.
const (
	Width  = 6 * vg.Inch
	Height = 4 * vg.Inch
	// DPI of the PNG files: 6 × 4 in at 150 dpi is 900 × 600 pixels.
	DPI = 150
)

// Series is one curve: points, a legend entry, and how to draw it.
type Series struct {
	Name   string
	X, Y   []float64
	Lo, Hi []float64 // optional band (e.g. mean ± sd), drawn beneath
	Dashed bool
	Dotted bool // a dotted line (a third style beside solid and dashed)
	Points bool // markers instead of a line (with error bars from Lo, Hi)
	Open   bool // small open markers
	Color  int  // palette index
}

// Palette is colour-blind safe (Okabe and Ito, 2008).
var Palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{0, 158, 115, 255},   // bluish green
	color.RGBA{204, 121, 167, 255}, // reddish purple
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{0, 0, 0, 255},       // black
	color.RGBA{240, 228, 66, 255},  // yellow
}

// Spec describes a figure.
type Spec struct {
	Title, XLabel, YLabel string
	Series                []Series
	// VLines are vertical reference lines (e.g. s*), with legend names.
	VLines []VLine
	// The legend is drawn below the axes, outside the data, in one column
	// (up to legendOneColumn entries, or when an entry is wider than half
	// the figure) or two, so that it never covers a curve or a band; the
	// figure grows by its height. An unnamed series retracing a named one
	// (same colour and x: a line through points) shares its entry.
	// A linear axis without a limit ends at the round tick just beyond the
	// data when that costs at most 5 % of the span (roundEnds).
	YMin, YMax *float64
	XMax       *float64
	// Probability marks a y axis of probabilities or shares: it spans
	// [0, 1] whatever the data, with a labelled tick every 0.2.
	Probability bool
	// LogY puts the y axis on a log scale (drawn as log10 y, labelled in
	// y); every y value must be > 0, which Build checks.
	LogY bool
	// LogX does the same for the x axis (every x value, VLine and XMax
	// must be > 0).
	LogX bool
	// XTicks, if set, are the x axis's only labelled ticks, in x units
	// (also with LogX): the values plotted, say, where the default ticks
	// would label none of them.
	XTicks []float64
	// Key lists legend entries that explain a mark or a line style rather
	// than name one curve ("filled dots: the exact chain", "dotted: the
	// limit"): each is drawn only in the legend, after the curves' entries,
	// with its Name, colour and style (Dashed, Dotted, Points, Open); its
	// X and Y are not used.
	Key []Series
}

// VLine is a vertical reference line.
type VLine struct {
	X     float64
	Name  string
	Color int
}

// finite returns the series without the points where y (or a band end)
// is NaN or infinite: an unreached level, say, has no point to draw.
func (se Series) finite() Series {
	ok := func(i int) bool {
		if math.IsNaN(se.Y[i]) || math.IsInf(se.Y[i], 0) {
			return false
		}
		if len(se.Lo) == len(se.Y) && (math.IsNaN(se.Lo[i]) || math.IsNaN(se.Hi[i])) {
			return false
		}
		return true
	}
	out := se
	out.X, out.Y, out.Lo, out.Hi = nil, nil, nil, nil
	band := len(se.Lo) == len(se.Y) && len(se.Hi) == len(se.Y)
	for i := range se.Y {
		if !ok(i) {
			continue
		}
		out.X, out.Y = append(out.X, se.X[i]), append(out.Y, se.Y[i])
		if band {
			out.Lo, out.Hi = append(out.Lo, se.Lo[i]), append(out.Hi, se.Hi[i])
		}
	}
	return out
}

// legendItem is one legend entry: a name and what its thumbnail draws.
type legendItem struct {
	name   string
	thumbs []plot.Thumbnailer
}

// Build draws the figure, its legend in p.Legend (Save and SaveGrid draw
// it below the axes instead). Points where y is NaN or infinite are left
// out.
func (s *Spec) Build() (*plot.Plot, error) {
	p, items, err := s.build()
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		p.Legend.Add(it.name, it.thumbs...)
	}
	return p, nil
}

// build draws the figure with an empty legend and returns the legend's
// entries.
func (s *Spec) build() (*plot.Plot, []legendItem, error) {
	var items []legendItem
	add := func(name string, t plot.Thumbnailer) { items = append(items, legendItem{name, []plot.Thumbnailer{t}}) }
	if err := s.check(); err != nil {
		return nil, nil, err
	}
	clean := *s
	clean.Series = make([]Series, len(s.Series))
	for i, se := range s.Series {
		clean.Series[i] = se.finite()
	}
	s = &clean
	if s.LogY {
		if err := s.toLog10(); err != nil {
			return nil, nil, err
		}
	}
	if s.LogX {
		if err := s.toLog10X(); err != nil {
			return nil, nil, err
		}
	}
	p := plot.New()
	p.Title.Text = s.Title
	p.X.Label.Text = s.XLabel
	p.Y.Label.Text = s.YLabel
	p.Title.TextStyle.Font.Size = 12
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font.Size = 11
		ax.Tick.Label.Font.Size = 10
	}
	p.X.Tick.Marker = roundTicks{}
	p.Y.Tick.Marker = roundTicks{}
	p.Add(plotter.NewGrid())
	// A band or error bars are marks of their series: its legend entry
	// shows them beneath its line or marker.
	under := map[int]plot.Thumbnailer{}
	for si, se := range s.Series {
		if len(se.Lo) != len(se.X) || len(se.Hi) != len(se.X) || len(se.X) == 0 {
			continue
		}
		if se.Points {
			errs := make(plotter.YErrors, len(se.X))
			xys := make(plotter.XYs, len(se.X))
			for i := range se.X {
				xys[i] = plotter.XY{X: se.X[i], Y: se.Y[i]}
				errs[i].Low, errs[i].High = se.Y[i]-se.Lo[i], se.Hi[i]-se.Y[i]
			}
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{xys, errs})
			if err != nil {
				return nil, nil, fmt.Errorf("%s error bars: %w", se.Name, err)
			}
			eb.LineStyle.Color = Palette[se.Color%len(Palette)]
			p.Add(eb)
			under[si] = errorBarThumb{eb.LineStyle}
			continue
		}
		if len(se.X) > 1 {
			band := make(plotter.XYs, 0, 2*len(se.X))
			for i := range se.X {
				band = append(band, plotter.XY{X: se.X[i], Y: se.Hi[i]})
			}
			for i := len(se.X) - 1; i >= 0; i-- {
				band = append(band, plotter.XY{X: se.X[i], Y: se.Lo[i]})
			}
			poly, err := plotter.NewPolygon(band)
			if err != nil {
				return nil, nil, fmt.Errorf("%s band: %w", se.Name, err)
			}
			r, g, b, _ := Palette[se.Color%len(Palette)].RGBA()
			poly.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 55}
			poly.LineStyle.Width = 0
			p.Add(poly)
			under[si] = poly
		}
	}
	// An unnamed line drawn through a named series' points (same colour,
	// same x) is part of that series: its legend entry shows both marks.
	named := map[int]int{} // series index → legend item
	var twins []struct {
		series int
		line   plot.Thumbnailer
	}
	for si, se := range s.Series {
		xys := make(plotter.XYs, len(se.X))
		for i := range se.X {
			xys[i] = plotter.XY{X: se.X[i], Y: se.Y[i]}
		}
		col := Palette[se.Color%len(Palette)]
		if se.Points {
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", se.Name, err)
			}
			sc.GlyphStyle.Color = col
			sc.GlyphStyle.Radius = vg.Points(2.5)
			sc.GlyphStyle.Shape = draw.CircleGlyph{}
			if se.Open {
				sc.GlyphStyle.Radius = vg.Points(2)
				sc.GlyphStyle.Shape = draw.RingGlyph{}
			}
			p.Add(sc)
			if se.Name != "" {
				named[si] = len(items)
				add(legendName(se), sc)
			}
			continue
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", se.Name, err)
		}
		l.LineStyle.Color = col
		l.LineStyle.Width = vg.Points(1.5)
		switch {
		case se.Dashed:
			l.LineStyle.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		case se.Dotted:
			l.LineStyle.Dashes = []vg.Length{vg.Points(1.5), vg.Points(2)}
		}
		p.Add(l)
		if se.Name != "" {
			named[si] = len(items)
			add(legendName(se), l)
		} else {
			twins = append(twins, struct {
				series int
				line   plot.Thumbnailer
			}{si, l})
		}
	}
	for si, k := range named {
		if u, ok := under[si]; ok {
			items[k].thumbs = append([]plot.Thumbnailer{u}, items[k].thumbs...)
		}
	}
	for _, tw := range twins {
		if j := s.twinOf(tw.series); j >= 0 {
			if k, ok := named[j]; ok {
				items[k].thumbs = append([]plot.Thumbnailer{tw.line}, items[k].thumbs...)
			}
		}
	}
	// Round ends: the y axis reaches a tick it nearly touches (below).
	if !s.LogY && !s.Probability {
		lo, hi := roundEnds(p.Y.Min, p.Y.Max)
		if s.YMin == nil {
			p.Y.Min = lo
		}
		if s.YMax == nil {
			p.Y.Max = hi
		}
	}
	// Vertical lines at one x interleave their dots (vlineDashes).
	atX := map[float64]int{}
	for _, v := range s.VLines {
		atX[v.X]++
	}
	seenX := map[float64]int{}
	for _, v := range s.VLines {
		k, j := atX[v.X], seenX[v.X]
		seenX[v.X]++
		lo, hi := p.Y.Min, p.Y.Max
		if s.Probability {
			lo, hi = 0, 1
		}
		if s.YMin != nil {
			lo = *s.YMin
		}
		if s.YMax != nil {
			hi = *s.YMax
		}
		l, err := plotter.NewLine(plotter.XYs{{X: v.X, Y: lo}, {X: v.X, Y: hi}})
		if err != nil {
			return nil, nil, err
		}
		l.LineStyle.Color = Palette[v.Color%len(Palette)]
		l.LineStyle.Width = vg.Points(1)
		l.LineStyle.Dashes, l.LineStyle.DashOffs = vlineDashes(k, j)
		p.Add(l)
		if v.Name != "" {
			// The legend shows the plain 2-on, 2-off dots.
			th := *l
			th.LineStyle.Dashes, th.LineStyle.DashOffs = []vg.Length{vg.Points(2), vg.Points(2)}, 0
			add(v.Name, &th)
		}
	}
	for _, k := range s.Key {
		if !s.draws(k.style()) {
			continue // explains nothing drawn here (no Monte Carlo at this scale, say)
		}
		add(k.Name, keyThumb(k))
		if k.Points && s.barred(k) {
			items[len(items)-1].thumbs = append([]plot.Thumbnailer{errorBarThumb{draw.LineStyle{Color: Palette[k.Color%len(Palette)], Width: vg.Points(1)}}}, items[len(items)-1].thumbs...)
		}
	}
	if !s.LogX && s.XTicks == nil {
		p.X.Min, p.X.Max = roundEnds(p.X.Min, p.X.Max)
	}
	if s.XMax != nil {
		p.X.Max = *s.XMax
	}
	if s.LogY {
		p.Y.Tick.Marker = decadeTicks{}
	}
	switch {
	case s.XTicks != nil:
		p.X.Tick.Marker = fixedTicks{values: s.XTicks, log: s.LogX}
	case s.LogX:
		p.X.Tick.Marker = decadeTicks{}
	}
	if s.YMin != nil {
		p.Y.Min = *s.YMin
	}
	if s.YMax != nil {
		p.Y.Max = *s.YMax
	}
	if s.Probability {
		p.Y.Min, p.Y.Max = 0, 1
		p.Y.Tick.Marker = fixedTicks{values: []float64{0, 0.2, 0.4, 0.6, 0.8, 1}}
	}
	return p, items, nil
}

// noValue ends the legend entry of a named series with no point to draw
// (every y NaN or infinite): the legend names nothing it does not show.
const noValue = " (no value to draw)"

// legendName is the legend entry of a named series (already finite).
func legendName(se Series) string {
	if len(se.X) == 0 {
		return se.Name + noValue
	}
	return se.Name
}

// errorBarThumb is the legend thumbnail of error bars: a vertical bar
// with caps across the middle of the thumbnail.
type errorBarThumb struct{ style draw.LineStyle }

func (e errorBarThumb) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	w := (c.Max.Y - c.Min.Y) / 4
	c.StrokeLine2(e.style, x, c.Min.Y, x, c.Max.Y)
	c.StrokeLine2(e.style, x-w, c.Min.Y, x+w, c.Min.Y)
	c.StrokeLine2(e.style, x-w, c.Max.Y, x+w, c.Max.Y)
}

// vlineDashes is the dash pattern and offset of the j-th of k vertical
// lines at one x: 2 pt of every 4k, from 4j on (one alone: 2 on, 2 off),
// so that together they alternate and none hides another.
func vlineDashes(k, j int) ([]vg.Length, vg.Length) {
	return []vg.Length{vg.Points(2), vg.Points(4*float64(k) - 2)}, vg.Points(4 * float64(j))
}

// keyThumb is the legend thumbnail of a Key entry: the marker or the line
// a Series of that style draws.
func keyThumb(k Series) plot.Thumbnailer {
	col := Palette[k.Color%len(Palette)]
	if k.Points {
		g := draw.GlyphStyle{Color: col, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
		if k.Open {
			g.Radius, g.Shape = vg.Points(2), draw.RingGlyph{}
		}
		return &plotter.Scatter{GlyphStyle: g}
	}
	l := &plotter.Line{LineStyle: draw.LineStyle{Color: col, Width: vg.Points(1.5)}}
	switch {
	case k.Dashed:
		l.LineStyle.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	case k.Dotted:
		l.LineStyle.Dashes = []vg.Length{vg.Points(1.5), vg.Points(2)}
	}
	return l
}

// style names how a series is drawn, as a legend would say it.
func (se Series) style() string {
	switch {
	case se.Points && se.Open:
		return "open dots"
	case se.Points:
		return "filled dots"
	case se.Dashed:
		return "dashed line"
	case se.Dotted:
		return "dotted line"
	}
	return "line"
}

// CheckLegend returns an error naming each mark of a figure (one Spec, or
// the panels SaveGrid draws with one legend) that the legend does not
// explain (a Key entry that explains nothing drawn is left out of the
// legend by Build, Save and SaveGrid):
//   - a series with a point to draw needs a Name, or to retrace a named
//     series (same colour and x: its entry shows both), or a Key entry of
//     its style (filled or open dots, dashed, dotted or solid line) while
//     its colour is named by a series, a VLine or that Key entry;
//   - a VLine needs a Name, or a named VLine of its colour in its panel
//     (two ends of one range);
//   - a name in several panels must be drawn alike (colour and style) in
//     each, since the one legend shows its first panel's marks.
func CheckLegend(specs ...*Spec) error {
	var errs []error
	colourNamed := map[int]bool{}
	keyStyles := map[string]bool{}
	first := map[string]string{} // name → "colour, style" where first drawn
	for _, s := range specs {
		if s == nil {
			return errors.New("plots: CheckLegend: a nil Spec")
		}
		for _, se := range s.Series {
			if se.Name != "" {
				colourNamed[se.Color] = true
			}
		}
		for _, v := range s.VLines {
			if v.Name != "" {
				colourNamed[v.Color] = true
			}
		}
		for _, k := range s.Key {
			if s.draws(k.style()) { // else Build leaves it out
				colourNamed[k.Color] = true
				keyStyles[k.style()] = true
			}
		}
	}
	for pi, s := range specs {
		panel := fmt.Sprintf("panel %d (%q)", pi+1, s.Title)
		if len(specs) == 1 {
			panel = fmt.Sprintf("figure %q", s.Title)
		}
		for i, se := range s.Series {
			if len(se.finite().X) == 0 {
				continue
			}
			if se.Name != "" {
				mark := fmt.Sprintf("colour %d, %s", se.Color, se.style())
				if was, ok := first[se.Name]; ok && was != mark {
					errs = append(errs, fmt.Errorf("plots: %s: %q is drawn as %s, in an earlier panel as %s, under one legend entry", panel, se.Name, mark, was))
				} else if !ok {
					first[se.Name] = mark
				}
				continue
			}
			if s.twinOf(i) >= 0 || keyStyles[se.style()] && colourNamed[se.Color] {
				continue
			}
			errs = append(errs, fmt.Errorf("plots: %s: series %d (colour %d, %s) has no legend entry", panel, i+1, se.Color, se.style()))
		}
		for i, v := range s.VLines {
			if v.Name != "" {
				mark := fmt.Sprintf("colour %d, vertical line", v.Color)
				if was, ok := first[v.Name]; ok && was != mark {
					errs = append(errs, fmt.Errorf("plots: %s: %q is drawn as %s, in an earlier panel as %s, under one legend entry", panel, v.Name, mark, was))
				} else if !ok {
					first[v.Name] = mark
				}
				continue
			}
			if slices.ContainsFunc(s.VLines, func(o VLine) bool { return o.Name != "" && o.Color == v.Color }) {
				continue
			}
			errs = append(errs, fmt.Errorf("plots: %s: vertical line %d (colour %d, x = %g) has no legend entry", panel, i+1, v.Color, v.X))
		}
	}
	return errors.Join(errs...)
}

// draws reports whether some series of the figure has a point to draw
// in the given style.
func (s *Spec) draws(style string) bool {
	for _, se := range s.Series {
		if se.style() == style && len(se.finite().X) > 0 {
			return true
		}
	}
	return false
}

// barred reports whether some series drawn with the marker of Key entry k
// has error bars: the key's entry then shows a bar too.
func (s *Spec) barred(k Series) bool {
	for _, se := range s.Series {
		if se.Points && se.Open == k.Open && len(se.X) > 0 && len(se.Lo) == len(se.X) && len(se.Hi) == len(se.X) {
			return true
		}
	}
	return false
}

// twinOf is the index of the named series whose line or points the
// unnamed series i retraces (same colour, same x), or −1.
func (s *Spec) twinOf(i int) int {
	se := s.Series[i]
	for j, o := range s.Series {
		if j != i && o.Name != "" && o.Color == se.Color && slices.Equal(o.X, se.X) {
			return j
		}
	}
	return -1
}

// roundEndsShare is how far, as a share of the data's span, an end of a
// linear axis may move out to reach a round tick.
const roundEndsShare = 0.05

// roundEnds widens [min, max] to the round ticks just outside it (those
// roundTicks would draw), each end only if that costs at most
// roundEndsShare of the span: data from 1 to 99 get an axis from 0 to 100,
// labelled at both ends, and data from 0.0004 up an axis from 0, while an
// end far from a tick stays where the data end.
func roundEnds(min, max float64) (float64, float64) {
	span := max - min
	if !(span > 0) || math.IsInf(span, 0) {
		return min, max
	}
	step := roundStep(span)
	if lo := math.Floor(min/step+1e-9) * step; min-lo <= roundEndsShare*span {
		min = lo
	}
	if hi := math.Ceil(max/step-1e-9) * step; hi-max <= roundEndsShare*span {
		max = hi
	}
	return min, max
}

// Save writes the figure as base.png and base.svg (each through a temporary
// file renamed into place) and returns their paths.
func (s *Spec) Save(base string) ([]string, error) {
	p, items, err := s.build()
	if err != nil {
		return nil, err
	}
	h := legendHeight(items, Width)
	return saveBoth(base, Width, Height+h, func(c draw.Canvas) { drawWithLegend(p, items, h, c) })
}

// Legend layout: 9-point text, one column up to legendOneColumn entries,
// else two; rows legendGap apart; legendMargin above and below.
const (
	legendFont      = 9
	legendOneColumn = 3
)

var (
	legendGap    = vg.Points(2)
	legendMargin = vg.Points(6)
)

// newLegend is an empty legend in the figures' style.
func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font.Size = legendFont
	l.Top, l.Left = true, true
	l.Padding = legendGap
	return l
}

// legendRow is the height of one legend row: the text's height, as the
// legend measures its entries, and the gap.
func legendRow() vg.Length {
	l := newLegend()
	return l.TextStyle.Rectangle("Ág").Max.Y + legendGap
}

// legendColumns is the number of columns of a legend w wide: one up to
// legendOneColumn entries, else as many as fit, two for each figure's
// width w spans (two below one figure, four below a grid of two), each
// holding the widest entry (its thumbnail, the gap and its text): an entry
// is never cut at the figure's edge.
func legendColumns(items []legendItem, w vg.Length) int {
	if len(items) <= legendOneColumn {
		return 1
	}
	l := newLegend()
	widest := vg.Length(0)
	for _, it := range items {
		widest = max(widest, l.ThumbnailWidth+l.Padding+l.TextStyle.Width(it.name))
	}
	for cols := min(2*max(int(w/Width), 1), len(items)); cols > 1; cols-- {
		if widest <= (w-2*legendMargin)/vg.Length(cols) {
			// As few columns as fill the rows: none is left empty (5
			// entries in 4 columns take 2 rows, so 3 columns).
			rows := (len(items) + cols - 1) / cols
			return (len(items) + rows - 1) / rows
		}
	}
	return 1
}

// legendHeight is the height of the strip below the axes that holds the
// legend of a figure w wide (0 without entries).
func legendHeight(items []legendItem, w vg.Length) vg.Length {
	if len(items) == 0 {
		return 0
	}
	cols := legendColumns(items, w)
	rows := (len(items) + cols - 1) / cols
	descent := newLegend().TextStyle.FontExtents().Descent
	return vg.Length(rows)*legendRow() + descent + 2*legendMargin
}

// drawWithLegend draws p above a strip of height h at the bottom of c and
// the legend's entries in that strip, outside the data.
func drawWithLegend(p *plot.Plot, items []legendItem, h vg.Length, c draw.Canvas) {
	p.Draw(draw.Crop(c, 0, 0, h, 0))
	drawLegend(items, h, c)
}

// drawLegend draws the entries in a strip of height h at the bottom of c,
// column by column.
func drawLegend(items []legendItem, h vg.Length, c draw.Canvas) {
	if len(items) == 0 {
		return
	}
	strip := c
	strip.Max.Y = c.Min.Y + h - legendMargin
	strip.Min.Y = c.Min.Y + legendMargin
	cols := legendColumns(items, c.Max.X-c.Min.X)
	rows := (len(items) + cols - 1) / cols
	colW := (c.Max.X - c.Min.X - 2*legendMargin) / vg.Length(cols)
	for k := 0; k < cols; k++ {
		l := newLegend()
		for _, it := range items[k*rows : min((k+1)*rows, len(items))] {
			l.Add(it.name, it.thumbs...)
		}
		cc := strip
		cc.Min.X = c.Min.X + legendMargin + vg.Length(k)*colW
		cc.Max.X = cc.Min.X + colW
		l.Draw(cc)
	}
}

// saveBoth draws a w × h image as base.png (at DPI) and base.svg.
func saveBoth(base string, w, h vg.Length, paint func(draw.Canvas)) ([]string, error) {
	png, svg := base+".png", base+".svg"
	if err := atomicfile.Write(png, func(wr io.Writer) error {
		c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(DPI))
		paint(draw.New(c))
		_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(wr)
		return err
	}); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(svg, func(wr io.Writer) error {
		c := vgsvg.New(w, h)
		paint(draw.New(c))
		_, err := c.WriteTo(wr)
		return err
	}); err != nil {
		os.Remove(png)
		return nil, err
	}
	return []string{png, svg}, nil
}

// GridColumns is the number of columns of SaveGrid's grid.
const GridColumns = 2

// SaveGrid writes several figures as the panels of one image, GridColumns
// to a row (each Width × Height, read left to right, then down), with one
// legend below them all: each entry of every panel once (the first panel's
// marks of a name), so that one name means one thing in every panel. It
// writes base.png and base.svg. One figure is Save's.
func SaveGrid(base string, specs ...*Spec) ([]string, error) {
	if len(specs) == 0 {
		return nil, fmt.Errorf("plots: SaveGrid: no figure: %w", ErrEmpty)
	}
	if len(specs) == 1 {
		return specs[0].Save(base)
	}
	plots := make([]*plot.Plot, len(specs))
	panels := make([][]legendItem, len(specs))
	for i, s := range specs {
		p, it, err := s.build()
		if err != nil {
			return nil, err
		}
		plots[i], panels[i] = p, it
	}
	items := mergeLegends(panels)
	cols := GridColumns
	rows := (len(specs) + cols - 1) / cols
	w := vg.Length(cols) * Width
	lh := legendHeight(items, w)
	return saveBoth(base, w, vg.Length(rows)*Height+lh, func(c draw.Canvas) {
		for i, p := range plots {
			r, k := i/cols, i%cols
			pc := c
			pc.Min.X = c.Min.X + vg.Length(k)*Width
			pc.Max.X = pc.Min.X + Width
			pc.Max.Y = c.Max.Y - vg.Length(r)*Height
			pc.Min.Y = pc.Max.Y - Height
			p.Draw(draw.Crop(pc, vg.Points(4), -vg.Points(4), vg.Points(4), -vg.Points(4)))
		}
		drawLegend(items, lh, c)
	})
}

// mergeLegends is the one legend of several panels: each name once, with
// the marks of its first panel, in the order the panels name them.
func mergeLegends(panels [][]legendItem) []legendItem {
	var items []legendItem
	seen := map[string]bool{}
	for _, it := range panels {
		for _, e := range it {
			if !seen[e.name] {
				seen[e.name] = true
				items = append(items, e)
			}
		}
	}
	return items
}

// toLog10 replaces every y value (and band end, and the y limits) of a
// LogY figure by its log10, after checking it is > 0; decadeTicks labels
// the axis in the original units. The figure is drawn on a linear axis in
// log10 units rather than with plot.LogScale because gonum places the box
// of the rotated y label at the data mean (Min+Max)/2, which on a log axis
// lies near the top, and then shrinks the plot to make room for it: a
// blank band between the title and the axes.
func (s *Spec) toLog10() error {
	toLog := func(name string, v []float64) ([]float64, error) {
		out := make([]float64, len(v))
		for i, y := range v {
			if !(y > 0) {
				return nil, fmt.Errorf("%s: log scale needs y > 0, got %g", name, y)
			}
			out[i] = math.Log10(y)
		}
		return out, nil
	}
	for i, se := range s.Series {
		var err error
		if se.Y, err = toLog(se.Name, se.Y); err != nil {
			return err
		}
		if se.Lo, err = toLog(se.Name+" (band)", se.Lo); err != nil {
			return err
		}
		if se.Hi, err = toLog(se.Name+" (band)", se.Hi); err != nil {
			return err
		}
		s.Series[i] = se
	}
	for _, lim := range []**float64{&s.YMin, &s.YMax} {
		if *lim != nil {
			v, err := toLog("y limit", []float64{**lim})
			if err != nil {
				return err
			}
			*lim = &v[0]
		}
	}
	return nil
}

// toLog10X is toLog10 for the x axis: every x value, VLine and XMax.
func (s *Spec) toLog10X() error {
	toLog := func(name string, v []float64) ([]float64, error) {
		out := make([]float64, len(v))
		for i, x := range v {
			if !(x > 0) {
				return nil, fmt.Errorf("plots: Spec %q, %s: log x scale needs x > 0, got %g", s.Title, name, x)
			}
			out[i] = math.Log10(x)
		}
		return out, nil
	}
	for i, se := range s.Series {
		var err error
		if se.X, err = toLog("Series "+se.Name, se.X); err != nil {
			return err
		}
		s.Series[i] = se
	}
	vl := make([]VLine, len(s.VLines))
	for i, v := range s.VLines {
		x, err := toLog("VLine "+v.Name, []float64{v.X})
		if err != nil {
			return err
		}
		v.X = x[0]
		vl[i] = v
	}
	s.VLines = vl
	if s.XMax != nil {
		x, err := toLog("XMax", []float64{*s.XMax})
		if err != nil {
			return err
		}
		s.XMax = &x[0]
	}
	return nil
}

// fixedTicks labels exactly the given values (placed at log10 v on a LogX
// axis), those within [min, max].
type fixedTicks struct {
	values []float64
	log    bool
}

func (f fixedTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for _, v := range f.values {
		at := v
		if f.log {
			at = math.Log10(v)
		}
		if at >= min && at <= max {
			ts = append(ts, plot.Tick{Value: at, Label: strconv.FormatFloat(v, 'g', 6, 64)})
		}
	}
	return ts
}

// decadeTicks marks an axis in log10 units: labelled ticks at the whole
// decades, labelled with 10^k, and minor ticks at 2…9 × 10^k, all within
// [min, max].
type decadeTicks struct{}

func (decadeTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for k := math.Floor(min); k <= math.Ceil(max); k++ {
		for m := 1; m <= 9; m++ {
			v := k + math.Log10(float64(m))
			if v < min || v > max {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 {
				t.Label = strconv.FormatFloat(math.Pow(10, k), 'g', 6, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// roundTicks marks a linear axis at a round step (1, 2 or 5 × 10^k, the
// smallest giving at most roundTicksMax ticks), every tick labelled, in the
// shortest form ("250", not "250.00"; 0.4, not 0.4000000001).
type roundTicks struct{}

// roundTicksMax is the most labelled ticks an axis gets.
const roundTicksMax = 10

func (roundTicks) Ticks(min, max float64) []plot.Tick {
	span := max - min
	if !(span > 0) || math.IsInf(span, 0) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	step := roundStep(span)
	var ts []plot.Tick
	for k := math.Ceil(min/step - 1e-9); k*step <= max+1e-9*step; k++ {
		v := k * step
		if math.Abs(v) < 1e-12*step {
			v = 0
		}
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 6, 64)})
	}
	return ts
}

// roundStep is the smallest of 1, 2, 5 × 10^k that cuts span into at most
// roundTicksMax − 1 steps.
func roundStep(span float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(span/(roundTicksMax-1))))
	for _, m := range []float64{1, 2, 5, 10} {
		if span/(m*mag) <= roundTicksMax-1 {
			return m * mag
		}
	}
	return 10 * mag
}
