// Package plots draws gossipkit's figures with gonum.org/v1/plot and renders
// its tables: text and Markdown through github.com/olekukonko/tablewriter,
// CSV through encoding/csv and JSON by hand so that column order is kept and
// exact fractions stay strings.
package plots
