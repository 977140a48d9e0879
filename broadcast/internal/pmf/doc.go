// Package pmf holds the probability mass functions and tail sums that the
// count chains of package broadcast are built from: the hypergeometric law
// of a sender's distinct peers among the marked (Hyp), the binomial law
// (Bin, and BinWindow on the window where its terms matter), the chance
// that an uninformed node's pulls all fail (PullMiss: Σ_j Hyp(j)·q^j,
// q = 1 − (1−ε)²) or that it receives none of s senders' pushes
// (PushMiss: (1 − k(1−ε)/(N−1))^s), and the binomial tails (BinCDF by the
// regularised incomplete beta function, BinTail by its terms,
// UninformedCDF for a count of given mean and variance). The models and
// their sources are set out in package broadcast (exact.go, asymptotic.go)
// and docs/MODEL.md.
//
// The laws are in float64, with only nonnegative terms: each is built from
// its mode by the ratio of consecutive terms (a product of nonnegative
// factors), then normalised. No logarithm or gamma function enters, so the
// relative error of every term is a few units of the last place per step
// from the mode, and terms that underflow are below 10⁻³⁰⁰ of the mode.
//
// The package needs nothing of broadcast and broadcast imports it; it
// holds no state, and each function that takes a dst or buf slice reuses
// it.
package pmf
