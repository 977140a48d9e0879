// Package lumped is the model behind broadcast.AsymptoticLaw's large-N
// law of a budgeted push (push and push–pull with Budget > 0): runs of the
// cohorts' informed counts, drawn round by round from a fixed seed, whose
// sums (Sums, and TiltSums for the tilted start of is.go) package
// broadcast turns into a Law with its stated accuracy (lumped.go there).
// It needs nothing of broadcast: New takes the configuration's figures
// (Params).
//
// The state of a round is the informed live nodes by the rounds they have
// pushed (the cohorts n_0, …, n_{R−1} of the exact chain, R = ⌈B/k⌉) and
// U, the uninformed live nodes. Given it, a given uninformed live node
// stays uninformed through the round with probability
//
//	π₁ = h(i)·(1 − a_k)^{S}·(1 − a_l)^{S_l},   a_j = j(1−ε)/(N−1),
//
// S the senders that push k peers and S_l those in their last round (l =
// B − k(R−1) peers), h the pull miss of push–pull (1 for push), i the
// informed live count; two given ones both stay uninformed with
// probability π₂ = h²·g_k^S·g_l^{S_l}, g_j = 1 − 2a_j + j(j−1)(1−ε)²/((N−1)(N−2)).
// The round's new informed count D then has mean U(1 − π₁) and variance
// Uπ₁(1 − π₁) + U(U−1)(π₂ − π₁²) exactly. For push–pull the pulled count
// is drawn first, exactly: given i the uninformed nodes' requests fail
// independently, so it is Binomial(U, 1 − h), and the pushes reach a
// uniformly random subset of the rest. The pushed count is drawn from the
// binomial with its step's exact mean and variance (the closure of
// AsymptoticLaw's start: it misses the third cumulant of a count of order
// M, an error of order 1/√M in every probability). Drawing the sum of the
// two from one such binomial instead, as the law did until December 2026,
// gets the early rounds' shape wrong (a pulled count near Poisson(1)
// beside the source's one push, drawn as Binomial(4, ½)), and with it the
// time shift of the whole run: at N = 10⁴, k 1, B 15 the chance a node was
// still uninformed at round 10 came out 27 % high.
//
// The counts are drawn this way, round by round, in lumpedRuns runs from a
// fixed seed (so the law is a function of the configuration), until at
// most lumpedWatch live nodes are uninformed (or no node can act). From
// there the pushes to come are those the cohorts have left, plus, for
// push–pull, the pulls, whose miss falls with the count left, so that
// count is carried as a distribution (pullTail). The few nodes still
// uninformed push once informed, taken at their mean count; their pushes
// at a node have an exponent within w = lumpedWatch·B·(1−ε)/(N−1), so
// that moves its chance of escaping by a factor within e^{w²/8} of 1
// (Jensen and Hoeffding's lemma; WatchErr, stated in the accuracy). For push, each of the U* nodes left escapes
// through round t with probability q(t), the product of the rounds' π₁,
// independently given the senders; so, for the run, P(T_L ≤ t) =
// P(Binomial(U*, q(t)) ≤ M − ⌈L·M⌉),
// the chance that a given live node is missed is U*·q(∞)/M and that some
// live node is missed is 1 − (1 − q(∞))^{U*}, each computed, not sampled.
// The law is the mean of these over the runs: a conditional Monte Carlo
// whose tail values keep their digits down to the smallest probability.
// With pulls and a deadline, half the runs are made to start with a stall
// of the source, and the deadline's chances are stratified by the stall's
// length, whose chances are known (stall.go).
//
// Sources: the closure is AsymptoticLaw's start (package broadcast,
// asymptotic.go: Frieze and Grimmett 1985, Pittel 1987, Karp et al. 2000);
// the step's mean and variance are exact for the chain of docs/MODEL.md;
// the tilted start is importance sampling with a defensive mixture
// (Hesterberg 1995).
package lumped
