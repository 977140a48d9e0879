// Package report is gossipkit's reproduction of its two source documents
// as a library: Run writes every figure (PNG and SVG), every table (CSV and
// Markdown) and REPORT.md, which sets each figure beside the claim it
// checks; `gossipkit reproduce` is flag parsing around it.
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
// of rules.go) and the figure measured. The rules: Figs. 7 and 8 over the
// take-off (the ODE between 1 % and 99 % of its plateau) with a tolerance
// of half a node; the coverage optimum by its effect size and its
// significance with the scale's runs, and the N-trend of the ODE's
// optimum; the replication optimum on the protocol's growth time of x
// (in the pairwise model it holds by a time change, docs/MODEL.md); each
// clause of a tree claim by its direction and its magnitude against the
// document's figure, the repair claims on the repair's traffic of every
// kind; the protocol on a partial view and with message loss by its growth
// times of replication and coverage against the ODE's (within ±5 %), the
// uniformity of the items by the variance ratio of a replica count against
// the binomial and a goodness-of-fit test, and Sec. 3.5's optima by exact
// argmaxes; a claim with no measurable criterion is "cannot be checked". A
// finding of this toolkit (the sd of the time to coverage does not shrink
// with N, DesignAnswers) is judged the same way and marked as such.
//
// A verdict that rests on Monte Carlo grades an interval, not a point
// (uncertainty.go): the take-off shares by a percentile bootstrap over the
// replications, means over seeds or runs by Student's t, each at the level
// of zDecide = 3 normal standard errors (a table of about 15 claims must
// not change with the seed). Where the interval straddles a threshold the
// verdict is "undecided at this scale" and its measured column names the
// replications or seeds that would decide it. The report shows the
// verdicts at a glance (claim, verdict, measured, section) and each rule
// once below them; verdicts.csv holds the rules beside the verdicts.
//
// REPORT.md ends with where the time went: each section's wall and CPU
// time and its simulations' CPU time and shuffles (Options.StepDone hears
// each step as it finishes). RunShard and Merge run the report as an array
// job: every simulation goes through one runner, a shard runs its share of
// each and writes one part file, and the merge serves the merged results to
// the same compute steps, so its tables and figures are a single run's
// byte for byte (shard.go states the design).
//
// RoundsTable, WriteSim and TreeTable print simulation and tree results as
// the CLI prints them.
//
// Every output folder is built in a hidden temporary folder inside it and
// moved in only when the whole run has succeeded.
package report
