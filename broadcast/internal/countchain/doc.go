// Package countchain is the exact count chain behind broadcast.ExactLaw:
// the law of T_L, the round at which a share L of the live nodes is
// informed, for push, pull and push–pull, with or without a budget, for
// small N. New takes the configuration's figures (Params); Row is the law
// of one round's new count, Law and BudgetLaw run the chain. It needs
// nothing of broadcast, which imports it, states the chain's cost
// (ExactCost) and wraps the Result in a Law.
//
// Without a budget the state at the start of a round is i, the informed
// live nodes (the source included); U = M − i are uninformed and live,
// F = N − M are down. Given i, the round's new informed count D has the
// following law (every node acts on the state at the start of the round,
// and a node informed in round r acts from r + 1, so i is all the chain
// needs).
//
// Pull. An uninformed live node asks k distinct peers among the N − 1
// others; the informed among them are Hypergeometric(k; i, N−1) (all i
// informed nodes are among its others), and a request to one of them
// brings the rumour back with probability (1−ε)² (request and reply). It
// therefore stays uninformed with probability
//
//	h(i) = Σ_j Hyp(j; k, i, N−1)·(1 − (1−ε)²)^j,
//
// and, the askers choosing and losing independently, D ~ Binomial(U, 1−h(i)).
//
// Push. The i senders choose independently, but each chooses k distinct
// peers, so the events "node v is hit" are not independent (an occupancy
// law). Take the senders one at a time and let H be the number of
// uninformed live nodes that have received at least one push so far. A
// sender's k distinct peers contain Hypergeometric(k; U−H, N−1) nodes that
// are uninformed, live and not yet reached, and each push to one arrives
// with probability 1 − ε independently, so its new hits have the law
//
//	K_m(d) = Σ_j Hyp(j; k, m, N−1)·Binomial(d; j, 1−ε),   m = U − H,
//
// and H after all i senders is D. The recursion H ← H + d has only
// nonnegative terms (the inclusion–exclusion form, P(a set A of uninformed
// nodes is all missed) = g(|A|)^i with g a hypergeometric generating
// function, alternates and is used only as an independent check in exact
// rationals, row_test.go).
//
// Push–pull. Given i, the requests and the pushes are independent, and the
// set of nodes that pulled the rumour is, by symmetry, a uniform subset of
// its size; so the sender recursion starts from H ~ Binomial(U, 1−h(i))
// instead of H = 0.
//
// Budget B (push, push–pull). A node pushes for R = ⌈B/k⌉ rounds after it
// is informed, k peers in each of the first R − 1 and B − k(R−1) in the
// last. Its remaining transmits are a function of its age, so the state is
// (n_0, …, n_{R−1}, e): the informed live nodes by the rounds they have
// pushed, and e those done. Senders with different fanouts fit the same
// recursion (one kernel for each fanout). The state space grows like the
// compositions of M into R + 1 parts, so this chain is for small N; the
// answer's Note says so. The chain stops where no node can act (push alone
// with every informed node done, or everyone informed): the mass stopped
// below the level is Never, and the final uninformed share gives Residue
// and PMiss.
//
// Messages in a round on the paths that have not reached the level at its
// start (those with T_L ≥ r): i·k pushes (with a budget, k from each
// sender and B − k(R−1) from a sender in its last round), U·k requests and,
// in expectation, U·k·(i/(N−1))·(1−ε) replies (a request reaches an
// informed peer with probability i/(N−1) and arrives with probability
// 1 − ε).
//
// Accuracy. The chain is run until the mass that has neither reached the
// level nor stopped is below exactTail (or maxExactRounds rounds); states
// with mass below exactDrop are dropped, and the ends of a recursion's
// vector below exactTrim are cut. All that mass is added to Result.Bound.
// Rounding: every probability is a sum of products of nonnegative factors
// computed with relative error u = 2⁻⁵³ each, so its relative error is at
// most n·u/(1 − n·u), n the longest chain of operations that produced it:
// at most U + i(k+2) + 4k + 10 ≤ M(k+3) + 10 per round (the binomial from
// its mode, the senders, the kernel and the normalisation). The rounding
// part of Bound is rounds·(M(k+3) + 10)·1.2·10⁻¹⁶, a total variation bound
// since the probabilities sum to at most 1. A chance of a miss is a sum of
// such probabilities, so it is stated relatively (Result): within its
// relative rounding (RelRounding) plus the mass dropped by its round,
// which can only add to it; P(T_L > t) is the mass below the target after
// round t (Result.Late), not the PMF's tail, whose 1 − Σ would cancel.
//
// Sources: the model is docs/MODEL.md's; the pull and push laws are
// elementary (hypergeometric choices of distinct peers, independent
// losses), checked against the enumeration of every peer choice and loss
// pattern and against inclusion–exclusion in exact rationals (row_test.go),
// and in broadcast against laws worked by hand and a Python enumeration.
package countchain
