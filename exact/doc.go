// Package exact evaluates the drop probability of the gossip shuffle protocol
// in exact rational arithmetic (math/big).
//
// A shuffle between A and B (see docs/MODEL.md §1–2): each side sends s
// of its c cached items; B receives S_A, of which k = |S_A ∩ C_B| are
// duplicates, and must make room for the s−k new ones by dropping items of
// S_B \ S_A, which holds s−ŝ items (ŝ = |S_A ∩ S_B|). The paper's "accurate"
// drop probability, formula (1), is
//
//	E(n,c,s) = Σ_k H(k; n,c,s) · Σ_ŝ H(ŝ; c,s,k) · (s−k)/(s−ŝ)
//	H(k; n,c,s) = C(c,k)·C(n−c,s−k) / C(n,s)
//	H(ŝ; c,s,k) = C(s,ŝ)·C(c−s,k−ŝ) / C(c,k)
//
// its simplification S(n,c,s) = (n−c)/(n−s), and the γ-corrected closed form
//
//	E(n,c,s) = (n−c) / ((n−s) + 1/γ_s(n)),   γ_s(n) = Σ_{d=0}^{s−1} C(n,d) / (s·C(s−1,d))
//
// (Bakhshi, Gavidia, Fokkink, van Steen, "An analytical model of information
// dissemination for a gossip-based protocol", Sec. 3.2; the γ form as
// reconstructed in docs/MODEL.md §2 and verified here by VerifyGamma).
//
// PDropEnumerated answers the question formula (1) leaves open: which of
// these is the probability that a tagged item of S_B \ S_A is dropped when
// C_A and C_B are independent uniform c-subsets? Enumeration shows it is S,
// not E: formula (1) averages the conditional drop probability (s−k)/(s−ŝ)
// over shuffles, giving every shuffle equal weight, whereas a tagged item is
// more likely to sit in a large S_B \ S_A. The per-item probability is the
// ratio of expectations E[s−k]/E[s−ŝ] = (s(n−c)/n)/(s(n−s)/n) = S.
//
// Every function here is exact: results are reduced *big.Rat values and no
// float is used except in Log10AbsDiff's display value.
package exact
