// Package chain solves the pairwise model of the shuffle protocol as a
// finite Markov chain, exactly (up to a stated truncation bound), without
// sampling: the process that `sim --model markov` samples and that the
// mean-field and refined mean-field models approximate.
//
// # The chain
//
// N nodes and one tracked item d. A shuffle picks an ordered pair
// (initiator A, partner B) uniformly among the N(N−1) ordered pairs and
// moves the pair's state ab (whether A and B hold d) by the transition
// matrix T of Fig. 1 (approx.TransitionsFor, any P_drop variant). By
// symmetry the number of holders X (1 ≤ X ≤ N: d is never lost) is a
// Markov chain and so, with coverage, is (X, Y), Y the number of nodes that
// have held d (X ≤ Y ≤ N): every node is alike, and a non-holder chosen as
// a partner has held d before with probability (Y−X)/(N−X). With
//
//	u = T(11|10) + T(11|01)    (a copy is made; the two orientations)
//	m = T(01|10) + T(10|01)    (d moves to the other node)
//	w = T(01|11) + T(10|11)    (one of two holders drops d)
//	D = N(N−1)
//
// one shuffle moves (X, Y) to
//
//	(X+1, Y+1)  w.p. u·X(N−Y)/D     copied to a node that never held d
//	(X,   Y+1)  w.p. m·X(N−Y)/D     moved to a node that never held d
//	(X+1, Y)    w.p. u·X(Y−X)/D     copied to a node that held d before
//	(X−1, Y)    w.p. w·X(X−1)/D     dropped by one of two holders
//
// and leaves it unchanged otherwise (Jumps computes these from approx; the
// tests check them by hand at N = 2 and N = 3). Replication alone is the
// birth–death chain X → X+1 w.p. u·X(N−X)/D, X → X−1 w.p. w·X(X−1)/D.
// These are the per-shuffle probabilities of meanfield.Replication and
// meanfield.Coverage, whose population limits are the mean-field ODEs.
//
// # Time
//
// Config.Time gossip.Shuffles is the per-shuffle chain P observed after
// round(N·t) shuffles (N shuffles a round). gossip.Continuous is the process of `sim
// --schedule continuous`: every node initiates at rate 1, so shuffles come
// at rate N and the law at t is the Poisson(N·t) mixture of the per-shuffle
// laws, p(t) = Σ_k e^{−Nt}(Nt)^k/k! · p(0)P^k (uniformization; exact, since
// every Poisson event is a real shuffle). Both are computed by one
// implementation that applies P step by step.
//
// # Stationary law
//
// The birth–death chain satisfies detailed balance,
// π(X+1)/π(X) = u·X(N−X) / (w·(X+1)X) = r·(N−X)/(X+1) with r = u/w, so
//
//	π(X) ∝ C(N, X)·r^X,   X = 1..N,
//
// a binomial law Bin(N, r/(1+r)) conditioned on X ≥ 1. With the simplified
// P_drop, r = (1−q)/((1−p)q) = c/(n−c), so r/(1+r) = c/n: the stationary
// share of holders is the paper's c/n, with binomial fluctuations
// (Stationary; the tests compare it with the long-time transient law).
//
// # Time to a coverage level
//
// Y never decreases, so the first time T_L at which Y ≥ m = ⌈L·N⌉
// satisfies P(T_L ≤ t) = P(Y(t) ≥ m). If K is the number of shuffles until
// then, S_k = P(K > k) = P(Y_k < m) is read off the per-shuffle laws, and
// E[K] = Σ_k S_k, E[K²] = Σ_k (2k+1)·S_k. In Shuffles time T_L = K/N. In
// Continuous time T_L is the time of the K-th event of a Poisson process of
// rate N: E[T_L] = E[K]/N, Var T_L = (E[K] + Var K)/N², and
// P(T_L ≤ t) = Σ_k Pois(k; N·t)·P(K ≤ k), inverted by bisection for the
// quantiles.
//
// # Truncation and error bound
//
// Two approximations are made, and both are bounded in total variation
// (P is stochastic, so an error in the law never grows under it): states
// whose mass falls below Settings.Drop are dropped (their mass is added to
// the bound), and each Poisson mixture is cut where its tail falls below
// Settings.Tol (the tail mass is added). Every Result carries the bound and
// the mass actually missing, which Solve checks against it.
package chain
