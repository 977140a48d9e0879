// Package report is gossipkit's reproduction of its two source documents
// as a library: Run writes every figure (PNG and SVG), every table (CSV and
// Markdown), a file per section (section-NN.md: its measurements, tables
// and figures beside the claims they check) and REPORT.md, which a person
// reads in minutes: the claims table (claim, verdict, one measured phrase,
// a link to the section's file), the operator table (memberlist's default
// budget, operator.go), each section's claims beside its figures, and the
// time; `gossipkit reproduce` is flag parsing around it.
//
// The files, by what they hold: scales.go the sizes (Quick, Paper,
// Smoke); report.go the Study and the list of sections; one file per
// section's compute step and rendering (dropprob.go, fig78.go, models.go,
// optimal.go, refined.go, tree.go, design.go, deployed*.go, network*.go);
// verdicts.go and *_verdicts.go the sections' claims, judged by the rules
// and statistics of report/internal/claim (the Verdict, every rule, its
// interval); claims.go, document.go
// and write.go the rendering of REPORT.md and its files; shard.go and
// mergeparts.go the sharding and merging of the runs, on package
// report/part (the part file, its bounded reading, the runner every
// simulation goes through, the merge; it imports nothing of report);
// timing.go the time (measured by report/internal/clock).
//
// A Scale fixes the sizes (Quick, Paper, or any other built field by
// field); Options control only how the work runs (worker goroutines,
// progress), never what it computes. Sections lists the report's sections
// in order: each is a compute step on a Study, returning a typed result
// (DropProbability, Transitions, Fig78 for sections 3 and 4,
// ModelComparison, Optimal, Refined, Tree, GossipVsTree, DesignAnswers,
// Deployed, Network)
// whose rows are typed structs (a struct per table, turned into a
// plots.Table only when rendered) and whose Render writes its part of the
// report without computing. A program can call one compute step and use
// the numbers without writing anything; Plot draws one figure with only
// that figure's work; TreeSweep writes the tree section on its own.
//
// Sections that judge a claim of the source documents return Verdicts:
// the verdict, the rule that decided it (written from the named constants
// of report/internal/claim) and the figure measured. The rules: Figs. 7 and 8 by the
// growth distances of x and y at every n (the ODE's growth time within one
// sd of the runs', claim/growthdist.go), with the take-off distance stated
// beside (claim/takeoff.go); the coverage optimum by its effect size and its
// significance with the scale's runs, and the N-trend of the ODE's
// optimum; the replication optimum on the protocol's growth time of x
// (in the pairwise model it holds by a time change, docs/MODEL.md); each
// clause of a tree claim by its direction and its magnitude against the
// document's figure, the repair claims on the repair's traffic of every
// kind; the protocol on a partial view and with message loss by the
// growth distances of replication and coverage, as Figs. 7 and 8; the
// uniformity of the items by the variance ratio of a replica count against
// the binomial and a goodness-of-fit test, and Sec. 3.5's optima by exact
// argmaxes; a claim with no measurable criterion is "cannot be checked". A
// finding of this toolkit (the sd of the time to coverage does not shrink
// with N, DesignAnswers) is judged the same way and marked as such.
//
// A verdict that rests on Monte Carlo grades an interval, not a point
// (claim/uncertainty.go): growth distances and means over seeds or runs by
// Student's t, each at the level
// of claim.ZDecide = 3 normal standard errors (a table of about 15 claims must
// not change with the seed). Where the interval straddles a threshold the
// verdict is "undecided at this scale" and its measured column names the
// replications or seeds that would decide it. REPORT.md shows the
// verdicts at a glance (claim, verdict, a measured phrase, section);
// verdicts.md the whole measurements, rules.md each rule once, and
// verdicts.csv the rules beside the verdicts.
//
// REPORT.md ends with where the time went: each section's wall and CPU
// time and its simulations' CPU time and shuffles (Options.StepDone hears
// each step as it finishes). RunShard and Merge run the report as an array
// job: every simulation goes through one runner, a shard runs its share of
// each and writes one part file, and the merge serves the merged results to
// the same compute steps, so its tables and figures are a single run's
// byte for byte (shard.go states the design).
//
// The CLI's result tables (a simulation's rounds, a chain, a tree
// experiment, P_drop, γ) are package report/tables'.
//
// Every output folder is built in a hidden temporary folder inside it and
// moved in only when the whole run has succeeded.
//
// # Contract
//
// TreeSweep, Plot, MergeFiles and the Study's sections (DropProbability,
// Fig78, ModelComparison, Optimal, Refined, Tree, GossipVsTree,
// DesignAnswers, Deployed, Network, Fig4Curves, Operator) refuse a nil
// context with an error before any work, and every function returns
// ctx.Err() soon after its context is cancelled. A Scale without the
// sizes a section needs (the zero Scale), a shard outside 1 ≤ I ≤ M, a
// number of seeds below 1 or beyond the tree's limit, a figure name the
// report does not draw, no part files or one that cannot be read, are
// refused with an error before any work; a part file is untrusted input
// read within bounds (report/part). Options.Workers below 1
// means one per CPU (sim.DefaultWorkers). The methods of a nil or
// zero-value result (its Render, Table and the like) return an error, not
// a panic. Exception: Study.Transitions does not use its context (it
// computes a few closed forms). TestContract
// checks the refusals, TestNastyValues and TestNilResults that no value
// panics or hangs.
package report
