package broadcast

import (
	"github.com/gossipkit/gossipkit/broadcast/internal/fixsum"
)

// The watched runs' curves (level 1): P(T_L ≤ t) at every round t of
// Answer.CDF, and PDeadline at a deadline among those rounds, come from
// one computation, so that the list and a deadline's answer agree to the
// bit. Each watched run states, at every round t, the chance that its
// watched nodes are not informed by the end of round t (runWatched's
// curve); the rounds' sums over the runs are kept, not the runs' curves,
// in fixed point with 2⁻²⁵⁶ resolution, whose addition is exact and so
// independent of the order of the runs and of the shards: a merged
// sample's sums are the single run's, bit for bit, at a memory that does
// not grow with the replications.

// maxCurveRounds bounds a watched run's curve: its rounds past it are not
// followed for the curve (a deadline there is answered by the watched
// runs of that deadline alone).
const maxCurveRounds = fixsum.MaxRounds

// Curves holds the sums over a sample's watched runs of their curves, by
// round (fixsum.Curves).
type Curves = fixsum.Curves

// curveFloor ends a curve: once a run's chance falls below it, its curve
// holds 0 from that round on. It changes P(T_L > t) by less than
// M·10⁻³⁰ ≤ 1.1·10⁻²¹ (the S₁ term of the M − 1 other live nodes, M ≤
// 2³⁰), 10⁻⁹ of the smallest chance the answers state within their
// accuracy (10⁻¹²; a budget's P(miss) of 10⁻¹² is a p₁ of 10⁻¹⁹ at M =
// 10⁷, kept), and ends the curves of the protocols that inform every
// live node eventually, whose chances fall geometrically or faster.
const curveFloor = 1e-30
