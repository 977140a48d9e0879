// Package tables holds what the CLI's commands print, as a Go program gets
// it: a table (*plots.Table, written as text, json, csv or markdown) or a
// writer per result — a simulation's rounds (RoundsTable, WriteSim), a
// solved chain (ChainTable, WriteChain, WriteQuasiStationary), a tree
// experiment's summary (TreeTable), one shuffle's transition matrix
// (TransitionsTable, WriteTransitions), P_drop's forms (PDropTable), the γ
// form's checks (WriteGammaCheck, WriteProveGamma), the integrated ODE
// (ODETable) and the optimal exchange sizes (OptimalTable).
// cmd/gossipkit calls them and prints; package report renders the
// reproduction's own tables itself, and its MergeFiles prints a merged
// simulation or tree experiment with these.
//
// # Contract
//
// A writer refuses a nil writer (and WriteSim, WriteChain a nil result)
// with an error that names it ("tables: WriteSim: nil result or
// writer"); RoundsTable, ChainTable and ODETable of a nil result are
// their header alone, OptimalTable's the configuration alone; an unknown format is plots.Table's
// error.
// Nothing computes or reads a context. TestNastyValues calls each with the
// nastiest values of its arguments' types (internal/probe): none panics.
package tables
