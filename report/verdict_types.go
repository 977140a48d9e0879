package report

import "github.com/gossipkit/gossipkit/report/internal/claim"

// The claims' types: a verdict, its intervals and the statistics it
// grades are package report/internal/claim's, which holds every rule.
type (
	// Verdict judges one claim of the source documents: Verdict is one of
	// "holds", "holds with a qualification", "does not hold", "cannot be
	// checked" (or "undecided at this scale"); Rule states how it was
	// decided; Measured is the figure behind it, and Short, if set, the
	// one phrase of it the claims table shows.
	Verdict = claim.Verdict
	// A Judge is a section result that judges claims.
	Judge = claim.Judge
	// Interval is a two-sided interval of a measured quantity at its
	// level.
	Interval = claim.Interval
	// NetGrowth is a growth time against the ODE's, with its growth
	// distance (claim.Growth).
	NetGrowth = claim.Growth
	// GrowthRow, ReplicationGain, OptimumEffect, TakeOffDistance and
	// Window are the statistics of the claims of sections 3–6.
	GrowthRow       = claim.GrowthRow
	ReplicationGain = claim.ReplicationGain
	OptimumEffect   = claim.OptimumEffect
	TakeOffDistance = claim.TakeOffDistance
	Window          = claim.Window
)
