// Package claim is how the reproduction judges a claim of its source
// documents: a Verdict (the claim, its verdict, the rule that decided it,
// the figure measured and the phrase the claims table shows), the verdict
// words (Holds, Qualified, Fails, Unchecked, Undecided), and every rule
// with the statistic it grades — the growth distance of a growth time
// against the ODE's (growth.go, growthdist.go), the take-off share and
// distance (takeoff.go, uncertainty.go, analysis.go), intervals at the
// level of ZDecide normal standard errors and the replications that would
// decide one (uncertainty.go), and the rules of the transition matrix, the
// steady state, the optima and the tree's clauses (rules.go).
//
// It is internal to report: a section of package report measures, calls a
// rule of this package on its measurements and renders the verdict; the
// types a report user sees (Verdict, Interval, GrowthRow, …) are aliased
// there. It imports no report package.
//
// # Contract
//
// Every function is pure: no context, no I/O, no randomness but the
// bootstrap's, drawn from a stream fixed by the seed it is given. Where a
// rule says so, a measurement it cannot grade (NaN) is Unchecked. The
// rules' decisions on synthetic measurements are TestRules, TestClauses,
// TestGradeBands and TestGrowthDistanceDecisions.
package claim
