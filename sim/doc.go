// Package sim is the Monte Carlo of the gossip shuffle protocol
// (docs/MODEL.md §1) and of its pairwise-Markov abstraction (§3).
//
// # Models
//
// Protocol keeps every cache: N nodes, n items (plus the tracked item d),
// caches of c distinct items, exchange size s. A shuffle of initiator A and
// partner B selects S_A and S_B uniformly, and each side adds the received
// items it lacks, overwriting a uniform random choice among the items it
// sent but did not also receive; both sides act on the caches as they were
// before the shuffle. Initial placement gives each cache c distinct items and
// each item ⌊cN/n⌋ or ⌈cN/n⌉ copies. After Warmup rounds, d replaces a random
// item at Initial distinct random nodes (t = 0), and X(t), the number of
// nodes holding d, and Y(t), the number that have held d since t = 0
// (including a node that gets and loses d within one round), are recorded
// after each of Rounds rounds.
//
// Markov keeps one bit per node: a shuffle of a and b moves the pair's state
// by the matrix of approx.NewTransitions with the chosen P_drop variant. It
// has the same finite N and single initial copy as the protocol but none of
// its correlations, so it isolates what the ODE neglects.
//
// Lumped is the Markov model under the Continuous schedule on the full
// graph, where all nodes are exchangeable: it keeps only how many nodes are
// in each of five classes (holding d or not; seen holding it at a snapshot
// or not; ever covered or not) and jumps from one shuffle that changes d's
// state to the next (exponential waits at the total rate of such
// shuffles; the nodes involved drawn by class in proportion to the
// counts). X, Y and YRound have the Markov model's law, exactly; the
// shuffles that change nothing are not made, and their counts are drawn
// from their Poisson law at the end. A replication costs a few events per
// holder a round instead of N shuffles: 10 to 20 times less at the paper's
// sizes.
//
// # Loss
//
// Config.Loss = ε makes each of a shuffle's two messages, the request
// (A → B, carrying S_A) and the reply (B → A, carrying S_B), lost
// independently with probability ε (docs/MODEL.md, "The shuffle protocol
// under loss"). The protocol draws one uniform per shuffle (none at ε = 0,
// so a lossless run is draw for draw the run of a gossipkit without loss):
// with probability ε the request is lost and nothing changes; with
// probability (1−ε)ε the reply is lost, and B does its whole part (takes
// S_A's new items, overwrites items of S_B \ S_A) while A's cache stays as
// it was; otherwise the shuffle is the lossless one. Caches keep exactly c
// distinct items, but an item B overwrote in a shuffle whose reply was lost
// reaches no one, so items die, in the warm-up as after it:
// Replication.Alive records how many items other than d are alive at
// t = 0 (Result.AliveMean their mean), the n a model should be given. d
// itself dies when the only node holding it sends it and overwrites it and
// the reply is lost (state 01 → 00); X = 0 is then absorbing.
// Replication.Extinction is the round at which d died (−1 if it lives),
// RoundStats.PExtinct the share of replications in which X(t) = 0, with its
// binomial standard error. The Markov and Lumped models apply the matrix
// of approx.NewTransitionsLoss, whose 01 → 00 entry a·ε·p·q is that event.
// Check mode verifies, besides the lossless invariants, that a lost reply
// leaves A's cache unchanged (both caches for a lost request) and that an
// item vanishes only in that way. A shuffle whose request was lost counts
// in Counters.Shuffles and as a transition of d's state to itself, not as a
// selection trial or drop candidate; when the reply is lost only B's drops
// count. A part file carries the loss and Alive only when the loss is not
// 0, so lossless parts are unchanged.
//
// # Schedules
//
//   - Rounds (default): each round every node initiates exactly once, nodes
//     in a fresh random order, partner uniform among its neighbours, the
//     shuffles executed one after another. One round is the ODE's time unit.
//   - Async: a round has Ticks ticks. Each node gossips once per round, at
//     its own phase, a tick drawn uniformly once per replication. In a tick
//     the nodes of that phase try, in random order, to shuffle with a
//     uniform neighbour; a shuffle needs both nodes free in that tick (a
//     node is busy once it has shuffled in the tick, as initiator or
//     partner), and an attempt whose initiator or partner is busy fails and
//     is counted in Counters.Failed. Every shuffle of a tick therefore acts
//     on the state at the tick's start.
//   - Continuous: a Poisson clock of rate N per round; at each event a
//     uniform node initiates with a uniform neighbour. This is the
//     continuous-time Markov chain (the clock gossip.Continuous) for which
//     the refined mean field of package meanfield is exact to o(1/N).
//
// # Topologies
//
// A topology says who may shuffle with whom, nothing else: a node's cache
// may hold any item (the items are not node addresses, and a shuffle never
// changes the graph), and the partner of a shuffle is drawn uniformly among
// the initiator's neighbours in the graph, independently of the caches.
//
//   - Full (default): every node is every other's neighbour (the complete
//     graph of the paper's Sec. 5 and of every model in this module).
//   - Regular, "regular:DEG": a random DEG-regular simple graph (pairing
//     model with re-drawn loops and double edges); every node has the same
//     number of partners, but shuffles stay local, so d spreads along
//     paths and mixes more slowly than on the full graph.
//   - Torus, "torus:RADIUS": a random geometric graph, N points uniform on
//     the unit torus (wrap-around square), neighbours the points within
//     Euclidean distance RADIUS (expected degree N·π·RADIUS²), as nodes
//     within radio range are. (The paper says only that the experiments
//     of its Sec. 4, which our text of it lacks, did not run on a complete
//     graph.) It may
//     fall apart; Result.Connected says whether it did (coverage then
//     cannot reach 1), and a node without neighbours is refused.
//
// The graph is built once per run from the seed with gonum's graph
// packages, on a stream of its own (each neighbour list sorted, so the
// graph depends on the seed only); every replication of a run shares it.
// Loss applies on every topology alike. No model of this module (ODE,
// mean field, chain) covers a graph other than Full: on the others only
// the protocol and the node-by-node Markov Monte Carlo say anything.
//
// # Reproducibility
//
// Replication r draws only from its own wyrand stream (internal/rng), seeded
// by SplitMix64 of (seed, r); the topology has a stream of its own, and so
// does each warm state (Config.WarmStates). Output is
// therefore bit-identical for any number of workers and for any split of the
// replications into shards.
//
// # Warm states
//
// The warm-up (Warmup rounds from the initial placement) is most of a
// protocol replication's cost at the paper's sizes (1000 of 1100 to 2000
// rounds). Config.WarmStates = k > 0 runs k independent warm-ups, warm-up
// j from stream 2^63 + j of the seed (no replication's stream, nor the
// topology's, 2^62); replication r copies warm state r mod k (the caches,
// the stamps and the scheduler's state: Async phases and tick order, the
// Continuous clock) and continues from d's insertion on with its own
// stream r. k = 0 is the original run, byte for byte: each replication warms
// its caches on stream r.
//
// What is shared: the caches at t = 0 (which items are where, how many
// copies each has). What is not: where d is inserted, which slot it
// replaces, and every shuffle after it. Each warm state has the law of a
// warm-up, and given it each replication is a replication, so every mean
// is unbiased and the law of one replication is unchanged
// (TestWarmStatesStatistics: k = R against k = 0). Replications sharing a
// warm state are exchangeable but may be correlated: if ρ is the
// intraclass correlation of a quantity (the share of its variance due to
// the warm state), the variance of a mean over R replications from k warm
// states (R/k each) is σ²/R·(1 + (R/k − 1)ρ), so the standard error
// computed as if they were independent is low by the factor
// √(1 + (R/k − 1)ρ). ρ measured at the paper's configuration is in
// testdata/README.md ("Warm states"). Under loss, the items alive at t = 0
// (Replication.Alive) are a property of the warm state itself (ρ near 1):
// its mean is then no more precise than k warm-ups allow.
//
// Results do not depend on the workers or on shards: a shard computes
// only the warm states its replications need (for shards r mod M = I − 1,
// k/gcd(k, M) of them, lcm(k, M) over all M shards), and a part records k
// (warm_states, absent when 0), so parts of different k are not merged.
//
// A warm state depends on the seed, its index and what the warm-up reads
// (N, the shuffle, Warmup, the schedule and its ticks, the topology, the
// loss, Check), not on Initial, Rounds, Reps, WarmStates or FailFraction:
// Settings.Warm, a WarmCache, keeps the states a run computes and hands
// them to later runs with the same warm-up, whose replications are then
// those they would be without it, byte for byte (the reproduction's runs
// with one and with five initial copies share theirs).
// Each warm state is kept for the whole run (Config.MemoryEstimate counts
// them).
//
// # Results
//
// Result.Summary gives the per-round statistics (with PExtinct under
// loss); Trajectories, LateMean,
// TimesToCoverage and Measure (the measured P_select, P_drop and transition
// frequencies beside the model's) read a Result, and CompareTrajectory and
// FirstReach set a model curve beside a simulated one.
//
// # Uniformity
//
// Uniformity runs the protocol to steady state (UniformityConfig.Warmup
// rounds from the initial placement, no d inserted) and records every
// item's replica count at Snapshots snapshots Spacing rounds apart. The
// model's law of a count is the pairwise chain's stationary law, Bin(N, π)
// conditioned on at least one copy, π = c/n_alive (fitted to the mean
// count: the zero-truncated binomial's maximum-likelihood π); items with no
// copy are dead and left out. It returns the ratio of the counts' sample
// variance to that law's (1 under the model) with its standard error over
// the replications, and Pearson's χ² over bins pooled to an expected count
// of at least 5 (B − 2 degrees of freedom: the fixed total and π), summed
// over snapshots and replications, over first snapshots only (independent
// by construction), and Fisher-combined over replications, beside the
// lag-1 correlation of the counts between snapshots that says whether
// summing over snapshots is fair. With Descriptors the items are the N
// node descriptors (n = N) and a count is a node's in-degree. Under loss
// the model's law of an alive item's count is the chain's quasi-stationary
// law, overdispersed against the binomial (chain.QuasiStationary; the
// tests set the two side by side).
//
// # Shards
//
// Settings.Indices runs a subset of the replications; a ShardID names shard
// I of M (replications r with r mod M = I − 1), ShardFromEnv reads it from
// Kubernetes, Slurm or AWS Batch array variables, WritePart and ReadPart
// store a shard's replications and Merge combines the parts exactly: the
// merged Result is the single run's.
//
// # Memory
//
// Each replication in flight needs N·c·4 bytes of caches at most (int32
// items; 2 bytes an item when n ≤ 65535), two stamp arrays of 4·(n+1) bytes
// and three bitsets of N/8 bytes (who holds d, who held it at a snapshot,
// who ever held it), and under the rounds schedule a permutation of 4N
// bytes (the async schedule, phases, stamps and tick lists of 16N at
// most); a worker reuses its caches, its schedule's arrays and the Markov
// model's bitsets for its next replication; no per-node membership index
// is kept (each shuffle stamps the two caches it touches). Config.WorkerMemory states a
// worker's share: the Markov model at N = 2^26, 280 MiB. The result keeps 12·(T+1) bytes per
// replication (x, y and y_round). N = 100000, n = 1000, c = 100 needs about
// 20 MB per worker (40 MB bounded by the estimate). Config.MemoryEstimate
// states the bound; Config.Validate does not look at the machine (the CLI
// refuses a run whose estimate exceeds the memory available).
//
// # Convention
//
// Config is what to simulate (its Shuffle field holds n, c and s, beside
// Nodes); Settings is how to run it (workers, a subset of replications, a
// gossip.Progress callback) and never changes the result; Run takes the
// context first. Errors are prefixed "sim: " and an invalid field is a
// *FieldError naming it (Config.Shuffle.Exchange).
//
// # Contract
//
// Run, RunSummary and Uniformity refuse a nil context with the error
// "sim: nil context" before any work, and return ctx.Err() soon after the
// context is cancelled (they look at it between rounds). A Config (or
// UniformityConfig, Settings) with a zero, negative, NaN or out-of-range
// field is refused by its Validate, which they call first, with a
// *FieldError naming the field (Config.Nodes, Config.Reps, Config.Loss,
// Settings.Workers, …); the ranges are those of the Params (Nodes ≤ 2^26,
// Reps ≤ 10^7, …). A valid configuration is not refused for its size:
// its time is bounded by the caller's context, and its memory must be
// checked by the caller before the call with Config.CheckMemory (Run) or
// Config.CheckSummaryMemory (RunSummary) against AvailableMemory, as the
// CLI does; a run past the machine's memory ends the process (Go's
// out-of-memory is not recoverable). Functions and methods without an
// error result (FirstReach, ItemsAfterInsertion, the Result accessors, …)
// do not validate: out of range they return NaN, 0 or an empty result,
// never a panic. TestContract checks the refusals, TestNastyValues that no
// value panics or hangs.
package sim
