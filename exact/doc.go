// Package exact evaluates the drop probability of the gossip shuffle protocol
// in exact rational arithmetic (math/big), and proves the closed forms it
// uses.
//
// # The shuffle
//
// There are n distinct items; every node caches c of them. In a shuffle
// between an initiator A and a partner B, each side picks s of its cached
// items uniformly at random, its exchange buffer (S_A ⊆ C_A, S_B ⊆ C_B),
// and sends it to the other. B keeps what it receives: of the s items of
// S_A, k = |S_A ∩ C_B| are already in B's cache, so B must make room for
// the s − k new ones by dropping items it has just sent, drawn uniformly
// from S_B \ S_A, which holds s − ŝ items (ŝ = |S_A ∩ S_B|). The parameters
// are a gossip.Shuffle{Items: n, Cache: c, Exchange: s}, valid for
// 1 ≤ s ≤ c ≤ n and s < n (gossip.Shuffle.Validate).
//
// The paper (Bakhshi, Gavidia, Fokkink, van Steen, "An analytical model of
// information dissemination for a gossip-based protocol", Sec. 3.2) gives
// as its "accurate" drop probability formula (1),
//
//	E(n,c,s) = Σ_k H(k; n,c,s) · Σ_ŝ H(ŝ; c,s,k) · (s−k)/(s−ŝ),
//	H(k; n,c,s) = C(c,k)·C(n−c,s−k) / C(n,s),
//	H(ŝ; c,s,k) = C(s,ŝ)·C(c−s,k−ŝ) / C(c,k),
//
// in which the term with ŝ = s (then k = s too) is 0/0 and counts as 0; its
// simplification S(n,c,s) = (n−c)/(n−s); and a γ-corrected form
//
//	(n−c) / ((n−s) + 1/γ_s(n)),   γ_s(n) = Σ_{d=0}^{s−1} C(n,d) / (s·C(s−1,d)),
//
// found by forward differences and said to equal formula (1) after
// "extensive experiments". The two theorems below give formula (1) in
// closed form and prove the γ identity for every s.
//
// # Theorem A: formula (1) in closed form
//
// For 1 ≤ s ≤ c ≤ n with s < n,
//
//	E(n,c,s) = S·(1 − 1/C(n,s)),   S = (n−c)/(n−s).
//
// Proof. Relabelling the items does not change anything, so fix C_B and
// S_B ⊆ C_B. The buffer S_A, a uniform s-subset of a uniform c-subset C_A
// drawn independently of B's cache, is a uniform s-subset of all n items (each s-set lies in the same number
// C(n−s, c−s) of c-sets). The weights of formula (1) are the law of (k, ŝ)
// under that S_A: k = |S_A ∩ C_B| is hypergeometric, H(k; n,c,s); given k,
// S_A ∩ C_B is a uniform k-subset of C_B (each k-subset extends to
// C(n−c, s−k) buffers), so ŝ, the number of its items that fall in the s
// items of S_B, is hypergeometric, H(ŝ; c,s,k). Formula (1) is therefore
// the expectation of (s−k)/(s−ŝ) over that law, with 0 where ŝ = s.
//
// Condition on ŝ instead. ŝ = s means S_A = S_B, of probability 1/C(n,s).
// Given ŝ = j < s, the s − j items of S_A \ S_B form a uniform
// (s−j)-subset of the n − s items outside S_B, and k − j of them fall in
// C_B \ S_B, which holds c − s of those n − s items; so
//
//	E[k − j | ŝ = j] = (s−j)(c−s)/(n−s),   E[s − k | ŝ = j] = (s−j)(n−c)/(n−s),
//
// and, s − j being fixed given ŝ = j,
//
//	E[(s−k)/(s−ŝ) | ŝ = j] = (n−c)/(n−s) = S   for every j < s.
//
// Summing over j, E = S·P(ŝ < s) + 0·P(ŝ = s) = S·(1 − 1/C(n,s)). ∎
//
// # What 1 − 1/C(n,s) means
//
// S is the probability that a given item of S_B \ S_A is dropped (the
// expected number dropped, s − E[k] = s(n−c)/n, over the expected number
// of candidates, s − E[ŝ] = s(n−s)/n; PDropEnumerated finds it item by
// item). Formula (1) is a mean over shuffles of the dropped share of
// S_B \ S_A, and the proof shows that this share averages exactly S over the
// shuffles with |S_B \ S_A| = s − j, for every size s − j ≥ 1. A tagged item
// does sit more often in a large S_B \ S_A, but that cannot move the mean
// away from S, since it is S at every size. The whole gap between formula
// (1) and S, S/C(n,s), comes from the
// shuffles with S_A = S_B, a share 1/C(n,s) of all, in which nothing can
// be dropped and formula (1) counts a 0 where S_B \ S_A has no item to ask
// about. At s = 1 the share is 1/n; at (n, s) = (500, 50) it is below
// 10^−69, so the paper's "correction factor is small" is an understatement.
//
// # Theorem B: γ in closed form
//
// For every s ≥ 1 and every integer n ≠ s, with the generalised binomials
// of Binomial (C(n,d) = n(n−1)…(n−d+1)/d!, so C(n,d) = 0 for 0 ≤ n < d),
//
//	γ_s(n) = (C(n,s) − 1)/(n − s).
//
// Proof. Let m = s − 1 and compare the polynomials in n
//
//	P(n) = (n−s)·γ_s(n) + 1,   Q(n) = C(n,s) = n(n−1)…(n−s+1)/s!.
//
// γ_s is a sum of C(n,d) with d ≤ m, of degree ≤ s − 1, so P and Q have
// degree ≤ s, and it is enough that they agree at the s + 1 points
// n = 0, 1, …, s. At n = s, P(s) = 1 = Q(s). At n = j ≤ m, Q(j) = 0 (the
// product has the factor n − j), so the claim is γ_s(j) = 1/(s−j). The
// terms with d > j vanish, and
//
//	C(j,d)/C(m,d) = j!(m−d)! / ((j−d)!·m!) = C(m−d, j−d)/C(m,j),
//
// so, with i = j − d and the parallel summation Σ_{i=0}^{j} C(r+i, i) =
// C(r+j+1, j) at r = m − j ≥ 0 (Graham, Knuth, Patashnik, Concrete
// Mathematics, eq. 5.9),
//
//	s·γ_s(j) = Σ_{d=0}^{j} C(j,d)/C(m,d) = Σ_{i=0}^{j} C(m−j+i, i)/C(m,j)
//	         = C(m+1, j)/C(m,j) = (m+1)/(m+1−j) = s/(s−j). ∎
//
// At n = s the sum is the harmonic number H_s, the derivative of C(n,s) at
// n = s.
//
// # Corollary: the γ identity for every s
//
// For 1 ≤ s ≤ c ≤ n with s < n, C = C(n,s) ≥ n ≥ 2, so by Theorem B
// γ_s(n) = (C−1)/(n−s) > 0 and (n−s) + 1/γ_s(n) = (n−s)·C/(C−1); the γ form
// is (n−c)(C−1)/((n−s)C), which is formula (1) by Theorem A. Likewise the
// paper's e_{c,s}(n) = (1/E − 1/S)^{−1} is (n−c)·γ_s(n) for c < n (Ecs).
//
// # The computations
//
// PDrop returns formula (1) by Theorem A: one binomial coefficient, from
// its prime factorisation (Binomial), and a reduced fraction formed without
// a gcd of big numbers. Its only limit is the size of C(n,s), MaxBits:
// s = 5000 takes milliseconds and s = 50,000 a fraction of a second.
// Four computations share none of its steps and check it and the theorems,
// in the tests and on demand:
//
//   - PDropDoubleSum and Formula1 evaluate formula (1) by its double sum,
//     O(s²) big-integer products, for s ≤ MaxS;
//   - Gamma evaluates γ_s(n) by its sum (binary splitting), PDropGamma the
//     γ form from it, and VerifyGamma compares the γ form with the double
//     sum on a grid (`gossipkit gamma-check`);
//   - ProveGamma proves the γ identity for one s at a time by a polynomial
//     argument of its own (`gossipkit gamma-check --prove`);
//   - PDropEnumerated enumerates one shuffle: the per-item probability is
//     S, the per-shuffle mean is formula (1), the mean over shuffles with a
//     non-empty S_B \ S_A is S, and S_A = S_B has share 1/C(n,s).
//
// # One shuffle of a tagged item, and the optima of Fig. 1
//
// EnumerateTransitions visits every configuration of one shuffle (caches
// conditioned on the state of a tagged item d, buffers, drop choices) under
// the three outcomes of its two messages when each is lost with probability
// ε: request lost (nothing changes), reply lost (B's part only), both
// delivered. The lossless law is Fig. 1 with q = S exactly, at every state:
// given d ∈ S_A \ S_B, the buffer S_B is a uniform s-subset of the items
// other than d whatever d's state at B, so Theorem A's conditioning gives
// A's chance of dropping d as S (and likewise for B). The lossy law is
// then (1−ε)²·Fig. 1 + (1−ε)ε·(B's part) + ε·I, which package approx's
// tests compare with its NewTransitionsLoss, n ≤ MaxTransitionItems.
//
// TransitionOptima finds, in rationals over s = 1..min(c, n−1), the argmax
// of P(11|10) = p(1−q) and the argmax and argmin of P(01|11) = p(1−p)q under
// S or formula (1) (DropFormula), with exact ties. Under S, P(01|11) =
// P(11|10)·(n−c)/c at every s, so the two share their argmax, while P(01|11)
// is smallest (0) at s = c; under formula (1) the argmaxes can part
// (n = 72, c = 16: 8 and 9; docs/MODEL.md §4).
//
// Every result is exact: reduced *big.Rat values, and no float except in
// Log10AbsDiff's display value. Long calls take a context first and a
// Settings (progress); errors start with "exact: " and name the field or
// parameter at fault (a *gossip.FieldError for a Shuffle's fields).
//
// # Contract
//
// NewFormula1, PDropDoubleSum, ProveGamma, ProveGammaRange, Evaluate,
// TransitionOptima and VerifyGamma refuse a nil context with the error
// "exact: nil context" before any work, and return ctx.Err() soon after
// the context is cancelled. They refuse before any work a zero, negative
// or out-of-range argument: a shuffle through Validate, with a *FieldError
// naming the field (Shuffle.Items, Config.Shuffles[i], …), a Grid with an
// error naming MaxItems, MaxCache or MaxExchange, an exchange size,
// cache or item count out of its range or whose exact numbers would pass
// MaxBinomialBits. An empty request is not an error: ProveGammaRange with
// maxExchange 0 and Evaluate with no shuffles return no results.
// Functions without an error result do not validate but never panic:
// Binomial and Gamma return nil (leaving z unchanged) where the number
// would pass MaxBinomialBits, Log10AbsDiff returns (NaN, false) for a nil
// operand, GridPoints skips invalid points, VerifyGammaMemory returns 0 for
// a grid Validate refuses. TestContract checks the refusals,
// TestNastyValues that no value panics or hangs.
package exact
