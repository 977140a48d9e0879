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
// symmetry the number of holders X (1 ≤ X ≤ N: without message loss d is
// never lost; see "Message loss") is a
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
// law; with loss ε ≥ 0.1, whose live law stays well inside the law
// reflected at X = 1, above 10⁻¹⁶), and for the joint chain with loss
// from 1 + 0.1·(1−ε)² times it (the margin is for the move jump's
// m·X(N−Y), which loss scales by (1−ε)²); a state whose exit rate exceeds Λ is killed (its incoming
// mass is counted, see below) and, if more than Settings.Tol was killed, the
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
// until B_k < Settings.Tol. With loss this tail is long (see "Message
// loss") and is cut into pieces at falling rates: every 1024 steps Solve
// bins the exit rates of the live states and finds the lowest rate Λ' at
// which the states it would kill hold at most 10⁻²·Tol; where Λ' is at
// least 5 % below Λ the piece ends at a time t1 (a whole number of
// shuffles) whose window starts after the current step, the law at t1 is
// mixed whole as at a segment's end (its window's tail is added to the
// bound), the states beyond the caps of Λ' are killed (their mass is added
// to the bound) and the next piece runs at Λ'. Each piece is a segment of
// the law of T_L with its own rate and B_k, read by CDF as the segments
// before the last output time are, so that the error bound is made of the
// same three terms; a piece that kills more than Tol is run again at a
// rate raised by 30 %, as any segment. Without loss the tail stays one
// piece, so that every output is the same to the bit. The mean and sd come from first-step analysis
// (HittingMoments): for K the number of shuffles to the level, E[T_L] =
// E[K]/N and, in continuous time, where T_L is the time of the K-th event
// of a Poisson process of rate N, Var T_L = (E[K] + Var K)/N² (Var K/N² in
// shuffles time). ReplicationTime does the same for the first time the
// holders X reach a count, from the passage moments of the birth–death
// chain of X alone.
//
// # Message loss
//
// With Config.Loss = ε each message of a shuffle, the request and the
// reply, is lost independently with probability ε: a lost request changes
// nothing; a lost reply leaves A as it was while B has taken A's items and
// dropped, to make room, items of S_B \ S_A that now reach no one. The
// transition matrix is approx.NewTransitionsLoss (a = 1 − ε, p = P_select,
// q = P_drop): from 10 to 11 w.p. a·p·(a(1−q) + ε), to 01 w.p. a²·p·q;
// from 01 to 11 w.p. a²·p·(1−q), to 10 w.p. a²·p·q, to 00 w.p. a·ε·p·q;
// from 11 to 10 w.p. a·p(1−p)q, to 01 w.p. a²·p(1−p)q. Only 01 → 00 loses
// d, so the chain gains one jump,
//
//	ℓ = T(00|10) + T(00|01) = a·ε·p·q
//	(X−1, Y)    w.p. w·X(X−1)/D + ℓ·X(N−X)/D
//
// (Jumps.Lose; u, m and w are those of the lossy matrix), and X = 0 becomes
// a state, absorbing, with Y frozen. Extinction is certain in the long
// run. Solve keeps the dead mass apart, by Y, and never steps it (each
// step adds the flow ℓ·(N−1)/D out of X = 1): the live region, the rate
// and the bounds are as before, and at ε = 0 nothing is allocated and the
// arithmetic is the lossless one, bit for bit. Row.PExtinct = P(X(t) = 0);
// the law of X includes X = 0 and that of Y the dead paths' Y.
//
// Time to a level. T_L = ∞ when d dies before ⌈L·N⌉ nodes have held it.
// With r = P(T_L < ∞), h = E[K·1{K<∞}] and g = E[K²·1{K<∞}] from each
// state, first-step analysis gives r = Σ P·r', h = r + Σ P·h',
// g = 2h − r + Σ P·g' (r = 1, h = g = 0 at Y ≥ m; r = h = g = 0 at
// X = 0), solved row by row as without loss (the jump from X = 1 to the
// dead state only adds to the diagonal). LevelTime.PReach = r, and Mean
// and SD are those of T_L given T_L < ∞ (from h/r and g/r, as without
// loss); CDF is the defective P(T_L ≤ t) = 1 − Σ_k w_k·(B_k + E_k), E_k
// the dead mass with Y < m, which tends to 1 − PReach; Quantile(p) is
// +Inf above that limit, and Q05, Q50, Q95 are the quantiles given
// T_L < ∞, at levels p·PReach. P(extinction before coverage L) =
// 1 − PReach (ReachProbability).
//
// Lifetime. X alone is a birth–death chain absorbed at 0 with λ(X) =
// u·X(N−X)/D up and μ(X) = w·X(X−1)/D + ℓ·X(N−X)/D down a shuffle. The
// shuffles K_k from the first visit to k to the first visit to k−1 are
// independent; from k a shuffle goes down w.p. μ_k, up w.p. λ_k (then
// K_{k+1} + K_k' more), else stays (K_k' more), so with λ(N) = 0
//
//	m_k = (1 + λ_k·m_{k+1})/μ_k
//	v_k = (m_k − 1 + λ_k·(v_{k+1} + m_{k+1}(m_{k+1} + m_k)))/μ_k
//
// for their mean and variance (expand E[K_k²] and use μ_k·m_k² = m_k +
// λ_k·m_{k+1}·m_k; every term is positive). The lifetime from X = i has
// E[K] = Σ_{k≤i} m_k, Var K = Σ_{k≤i} v_k, turned into rounds as the time
// to a level (Lifetime); its distribution function is PExtinct.
//
// Quasi-stationary law. Given survival, X tends to the law ν on 1..N with
// νQ = −θν, Q the generator restricted to X = 1..N and θ = μ(1)·ν(1)
// (Darroch and Seneta 1967). For a birth–death chain ν·A = b, A = −Q,
// reads ν(x)μ(x) − ν(x−1)λ(x−1) = Σ_{y≥x} b(y) (the net flow out of
// {x, …, N}), a forward recursion of positive terms; QuasiStationary
// iterates ν ← ν·A⁻¹ (inverse iteration, converging as (θ/θ₂)^k) from
// the law of the chain reflected at X = 1, ν(x+1)/ν(x) = λ(x)/μ(x+1),
// which is also the law that bounds the live mass for the rate (Solve,
// Estimate). At ε = 0 it is the stationary law.
//
// Two nodes (the tests' closed forms). With N = 2 and D = 2, from
// (X, Y) = (1, 1) the other node is covered at rate u + m a round and d
// dies at rate ℓ, so P(extinction before the other node is covered) =
// ℓ/(u + m + ℓ) = ε·q/(2 − ε(1 − q)) (dividing by a·p), and T_1 given
// T_1 < ∞ is Exp(u + m + ℓ). The lifetime from X = 1: each visit to
// X = 1 lasts Exp(u + ℓ) and ends in death w.p. ℓ/(u + ℓ), each visit to
// X = 2 lasts Exp(2w), so the number G of excursions to X = 2 is
// geometric with E G = u/ℓ, Var G = u(u + ℓ)/ℓ², and E T_0 =
// (1 + u/(2w))/ℓ, Var T_0 = (E G + 1)/(u + ℓ)² + E G/(2w)² +
// Var G·(1/(u + ℓ) + 1/(2w))².
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
//
// # Contract
//
// Every function that takes a context (Solve, HittingMoments,
// ReachProbability, MeanTimeToLevel, TimeToLevel, ReplicationTime,
// Lifetime, QuasiStationary) refuses a nil one with the error
// "chain: nil context" before any work, and returns ctx.Err() soon after
// the context is cancelled. A Config with a zero, negative, NaN, infinite
// or out-of-range field is refused by Config.Validate, which each of them
// calls first, with a *FieldError naming the field (Config.Nodes,
// Config.Shuffle.Exchange, Config.Loss, Config.TMax, …); work estimated
// above Settings.MaxStateSteps is refused before it starts with an error
// wrapping gossip.ErrTooLarge. The exceptions are the fields a function
// documents as not used (TMax and Dt for TimeToLevel, Lifetime and
// QuasiStationary), which are not checked, and Settings' Tol and Drop,
// where any value out of range means the default. Functions and methods
// without an error result (Cost.CPUSeconds, LevelTime.CDF,
// LevelTime.Quantile, also on a nil *LevelTime) do not validate: out of
// range they return 0, 1, +Inf or NaN, never a panic. TestContract checks
// the refusals, TestNastyValues that no value panics or hangs.
package chain
