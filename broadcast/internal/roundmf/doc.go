// Package roundmf is the mean field of package broadcast's round model:
// the recursion on the expected uninformed live count, round by round,
// behind broadcast.MeanField (and the test that holds the exact chain's
// one-round mean to it). New takes the configuration's figures (Params);
// Step runs a round, Miss is π and Messages the round's expected messages;
// Demers is the residue's root below (behind broadcast.PushBudgetResidue).
// It needs nothing of broadcast, which imports it.
//
// Given i informed live nodes at the start of a round, an uninformed live
// node stays uninformed with probability π(i) = π_push(i)·π_pull(i), the
// two independent: π_push(i) = (1 − k(1−ε)/(N−1))^i (each sender picks it
// with probability k/(N−1), the push arrives with 1 − ε, senders choose
// independently) and π_pull(i) = h(i) = Σ_j Hyp(j; k, i, N−1)(1 − (1−ε)²)^j
// (broadcast.ExactLaw). Replacing the count by its mean gives the recursion on the
// uninformed live count
//
//	U_{r+1} = U_r·π(M − U_r),   U_0 = M − 1,
//
// exact in expectation for one round and, by the law of large numbers, the
// limit of U_r/M as N → ∞ once the count is large (the early rounds are a
// branching process, broadcast.AsymptoticLaw). With a budget the senders are split
// by age as in the exact chain: a_0, …, a_{R−1} expected nodes that have
// pushed 0, …, R−1 rounds, the first R−1 ages pushing k, the last
// B − k(R−1): π_push = (1 − k(1−ε)/(N−1))^{a_0+…+a_{R−2}}·(1 −
// k_last(1−ε)/(N−1))^{a_{R−1}}.
//
// Push alone with a budget stops: every informed node makes B transmits in
// all, each reaching a given node with probability (1−ε)/(N−1), so at the
// end s = U_∞/M solves s = exp(−λ(1−s)), λ = B(1−ε)M/(N−1), up to O(k/N)
// for the distinct peers of one round (Demers et al. 1987, whose
// rumour-mongering residue has the same form).
//
// Pull h(i) is defined at whole i; between them the recursion interpolates
// linearly (h is smooth in i: the error is O(k²/N²) of h).
package roundmf
