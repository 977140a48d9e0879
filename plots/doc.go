// Package plots draws and formats what it is given: figures as Spec
// values drawn with gonum.org/v1/plot (PNG and SVG; several panels in a
// grid with one legend, SaveGrid; CheckLegend finds a mark the legend
// does not explain; log axes drawn in log10 units so that
// values far below 1e-308 can be shown), and tables rendered as text and Markdown through
// github.com/olekukonko/tablewriter, CSV through encoding/csv and JSON by
// hand so that column order is kept and exact fractions stay strings. It
// imports no model or simulator: package report turns their results into
// Specs and Tables.
//
// # Contract
//
// This package takes no context: drawing and writing a table take
// milliseconds. Spec.Build, Spec.Save, SaveGrid, Table.Write and
// Design.Write refuse a nil or empty Spec, Table or Design, a NaN axis
// limit, an unknown format (ValidFormat lists the valid ones), a nil
// writer, and a path that cannot be written, with an error; a nil
// *big.Rat or *big.Int cell is an error, not a panic (TestNilPointerCells);
// every write and close is checked. The cell formatters (Cell, TextCell,
// ShortFraction, PlusMinus, Worst) do not validate: a NaN or an infinity
// is printed as such, never a panic. TestContract checks the refusals,
// TestNastyValues that no value panics or hangs.
package plots
