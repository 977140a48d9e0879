// Package plots draws and formats what it is given: figures as Spec
// values drawn with gonum.org/v1/plot (PNG and SVG; several panels in a
// grid with one legend, SaveGrid; CheckLegend finds a mark the legend
// does not explain; log axes drawn in log10 units so that
// values far below 1e-308 can be shown), and tables rendered as text and Markdown through
// github.com/olekukonko/tablewriter, CSV through encoding/csv and JSON by
// hand so that column order is kept and exact fractions stay strings. It
// imports no model or simulator: package report turns their results into
// Specs and Tables.
package plots
