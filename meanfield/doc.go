// Package meanfield holds the gossip shuffle protocol's population models
// on top of package ode's integrator: the classic mean field of replication
// x(t) and coverage y(t) (docs/MODEL.md §4), its synchronous discrete-time map,
// the refined mean field with its 1/N correction (Gast and Van Houdt 2017;
// Gast, Latella and Massink 2018) in continuous and discrete time on any
// output grid, the time to a coverage level, and the exchange size that
// minimises it.
//
// The classic model, with p = P_select = s/c and q = P_drop:
//
//	dx/dt = 2p[(1−q)·x(1−x) − (1−p)q·x²],   dy/dt = 2p·x·(1 − y)
//
// (XY); approx.Model has its closed forms, which the tests compare with the
// integration. Solve and CoverageTime integrate the same system in
// z = −ln(1 − y), dz/dt = 2p·x (XZ), and return y = 1 − e^{−z}: the
// coverage then lies in [0, 1] however loose the tolerance (integrating y
// itself overshoots 1 by about rtol), and 1 − y keeps its relative accuracy
// as y → 1. Replication and Coverage state the same drift as
// density-dependent population processes (Population), with the finite-N
// rates of each jump, which is what the refined mean field expands.
//
// Message loss ε (approx.Config.Loss) enters through approx.Model: the
// drift is the lossless one times f = (1−ε)(1−ε/2) (approx.LossFactor), so
// XY, XZ, Solve, Map and CoverageTime need nothing more, and Optimize takes
// OptimizeConfig.Loss. Replication and Coverage add the jump by which a
// holder paired with a non-holder loses d (the reply carrying its only copy
// is lost; per shuffle ℓ = T(00|10) + T(00|01) of
// approx.NewTransitionsLoss), so the refined mean field's 1/N term and
// standard deviations include it. X = 0 then absorbs; the expansion
// describes the transient while extinction is unlikely (package chain has
// the law of extinction).
//
// CoverageTime locates y(t) = level by an event on DormandPrince's dense
// output; Optimize scans s = 1..c−1 for the smallest such time and sets it
// beside s* = n − √(n(n−c)), which maximises P(11|10) and the logistic rate
// of x(t) but not the speed of coverage (dy/dt grows with p itself).
//
// # Convention
//
// The models are approx.Model values (approx.Config: Nodes, a
// gossip.Shuffle, the P_drop variant, the initial copies); integrator
// tolerances are an ode.Settings. Optimize takes the context first and an
// OptimizeConfig (Nodes, Items, Cache, Level: the exchange size is what it
// scans). RefineGrid takes the clock as a gossip.Time and accepts
// gossip.Continuous and gossip.Synchronous. Errors are prefixed
// "meanfield: "; an invalid field is a *FieldError naming it
// (OptimizeConfig.Level).
//
// # Bad values
//
// Nothing panics on a value a caller can pass. An approx.Model and a
// Population are plain structs that may be written by hand: the functions
// taking a Model check it (its Config, and P, Q, X0, Y0 in [0, 1]) and
// return a *FieldError (Model.Config.Nodes, Model.P), or nil or NaN where
// they return no error (Curves, Map, PlateauSteps, XY, XZ, Replication,
// Coverage); those taking a Population call Population.Validate
// (Population.Jumps[2].Rate). The methods without an error return
// (Population.Drift, Jacobian, Hessian, Q, C, the SynchronousSteps methods,
// Refined.Mean and SD) set to NaN what they cannot compute. Work is bounded
// by stated limits, refused before it starts (an error wrapping
// gossip.ErrTooLarge; nil from Curves and Map): MaxRounds, MaxIntervals,
// MaxSolveSteps, MaxRefinedDim, MaxRefinedValues and
// MaxSynchronousRounds. Optimize,
// RefineGrid and RefinedDiscrete take a context and honour a cancel
// during the work.
//
// # Contract
//
// RefinedContinuous, RefinedDiscrete, RefineGrid and Optimize refuse a
// nil context with the error "meanfield: nil context" before any work,
// and return ctx.Err() soon after the context is cancelled. They refuse
// before any work a nil or zero model or population, a state x0 of the
// wrong dimension or with a NaN or infinite component, output times that
// are NaN, infinite or negative, a zero or negative step, and
// a number of rounds or values beyond the stated limits
// (MaxSynchronousRounds, MaxRefinedValues); an OptimizeConfig with a
// field out of range is refused with a *FieldError naming it
// (Nodes, Items, Cache, Level, Loss).
// Nodes has no upper limit: the mean field is as cheap at N = 2^62 as at
// N = 100. Functions and methods without an error result (Curves, Map,
// CoverageOfZ, PlateauSteps, Population.Drift, Refined.Mean, …) do not
// validate: out of range they return NaN or an empty result, and leave an
// output slice of the wrong length untouched, never a panic. TestContract
// checks the refusals, TestNastyValues that no value panics or hangs.
package meanfield
