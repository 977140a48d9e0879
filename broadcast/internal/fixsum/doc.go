// Package fixsum is an exact sum of numbers in [0, 4] (Sum): each term is
// truncated to a multiple of 2⁻²⁵⁶ and added to a 320-bit integer, so the
// sum does not depend on the order of the terms or on how they were split
// into partial sums; and the sums, by round, of the watched runs' curves
// that broadcast keeps in it (Curves, broadcast/curvesum.go): a run merged
// from its shards' parts states the single run's answers bit for bit, at a
// memory that does not grow with the replications. Curves.Moments gives
// each round's mean and standard error from the exact sums (m = S/n, se =
// √((S₂ − S²/n)/((n − 1)n)), S₂ − S²/n computed exactly in math/big).
package fixsum
