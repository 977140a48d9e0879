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
// round(N·t) shuffles (N shuffles a round). gossip.Continuous is the
// process of `sim --schedule continuous`: every node initiates at rate 1,
// so shuffles come at rate N and the generator per round is Q = N(P − I).
//
// Both are computed by uniformization (Jensen 1953; Grassmann 1977) at a
// rate Λ ≤ N per round that bounds the exit rate −Q(s, s) of every state s
// that holds mass, rather than at N: with P_Λ = I + Q/Λ (a stochastic
// matrix where −Q(s, s) ≤ Λ),
//
//	p(t) = Σ_k e^{−Λt}(Λt)^k/k! · p(0)·P_Λ^k,
//
// and, since P = (1 − Λ/N)·I + (Λ/N)·P_Λ, the law after K shuffles is the
// binomial mixture p(0)·P^K = Σ_k Bin(k; K, Λ/N) · p(0)·P_Λ^k. The exit
// rate of (X, Y) is [(u+m)·X(N−Y) + u·X(Y−X) + w·X(X−1)]/(N−1) per round;
// it is largest where X is large and Y small, and the states that hold
// mass reach only a fraction of its maximum N·max(u+m, w) (Λ ≈ 0.16·N for
// n = 500, c = 100, s = 50), so the steps shrink in that proportion. Solve
// starts from Λ = 1.1 times the largest exit rate of X alone, [u·X(N−X) + w·X(X−1)]/(N−1), over the X that the stationary law
// reaches above 10⁻²⁵ (from one copy X stays stochastically below that
// law); a state whose exit rate exceeds Λ is killed (its incoming mass is
// counted, see below) and, if more than Settings.Tol was killed, the
// segment is run again with Λ raised by 30 % (Stats.Attempts).
//
// The laws are stepped in segments from one output time to a later one:
// within a segment every output law is a mixture of the stepped laws
// v_k = v_0·P_Λ^k, whose marginals of X and Y are accumulated as the
// chain steps, and the whole law at the segment's end is accumulated and
// becomes the next segment's v_0. The segments' lengths follow a cost
// model (a long segment wastes fewer steps past its end, a short one mixes
// fewer marginals): one or two output intervals for X alone, up to 16384
// steps for the joint chain. Stats.StateSteps is the work done, in steps
// times live states (see Estimate).
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
// satisfies P(T_L ≤ t) = P(Y(t) ≥ m). With B_k = P(Y < m) after k steps of
// P_Λ from the start t0 of the segment that holds t,
// P(T_L ≤ t) = 1 − Σ_k Pois(k; Λ(t − t0))·B_k in continuous time, and in
// shuffles time (T_L = K/N for K shuffles) P(K ≤ k) = 1 − Σ_i
// Bin(i; k − k0, Λ/N)·B_i (LevelTime.CDF, inverted by bisection in
// LevelTime.Quantile). After the last output time the rows Y ≥ m are
// absorbed (their mass never returns below m) and the chain is stepped
// until B_k < Settings.Tol. The mean and sd come from first-step analysis
// (HittingMoments): for K the number of shuffles to the level, E[T_L] =
// E[K]/N and, in continuous time, where T_L is the time of the K-th event
// of a Poisson process of rate N, Var T_L = (E[K] + Var K)/N² (Var K/N² in
// shuffles time).
//
// # Truncation and error bound
//
// Three approximations are made, and all are bounded in total variation
// (P_Λ restricted to the states kept is substochastic, so an error in the
// law never grows under it): after every step, the states at both ends of
// each row's range of X (the live region is a range of X for each Y) are
// dropped while the mass dropped stays below Settings.Drop (every 16 steps
// for X alone; the mass is added to the bound); the mass sent to a state
// whose exit rate exceeds Λ is killed (added to the bound: the law
// computed is that of the chain killed there, below the true one by the
// mass killed); and each Poisson or binomial mixture is cut where its
// weights fall below Settings.Tol·10⁻⁶ of the mode's and renormalised
// (twice the weights left out, bounded by geometric tails, plus the
// weights' rounding, are added). Every Result carries the bound and the
// mass actually missing, which Solve checks against it for every output.
package chain
