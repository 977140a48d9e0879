// Package broadcast answers design questions about rumour broadcast as it
// is deployed (memberlist, Serf, Consul and their kin): push, pull and
// push–pull gossip with a fanout, a transmit budget, message loss and
// failed nodes. It computes the law of T_L, the first round at which
// ⌈L·M⌉ of the M live nodes hold the rumour, the chance that the rumour
// never gets there (a budget can stop it), the share of live nodes it
// never reaches, and the messages it costs, by three methods: the exact
// count chain (ExactLaw), the asymptotic law at any N (AsymptoticLaw) and
// a node-by-node Monte Carlo (Simulate). Sweep runs them over fanouts and
// budgets and picks the fastest and the cheapest setting that meets a
// deadline.
//
// # The model
//
// N nodes, of which ⌊φ·(N−1)⌋ (φ = Config.Failed), chosen uniformly among
// the nodes other than the source, are down: they never send or receive,
// and a message sent to one is wasted. The other M = N − ⌊φ·(N−1)⌋ nodes
// are live. At round 0 the source, a live node, alone holds the rumour.
// Rounds are synchronous; in round r = 1, 2, … every live node acts on the
// state at the start of the round, and a node informed in round r acts from
// round r + 1.
//
//   - push(k): every informed live node with budget left sends the rumour
//     to k distinct peers drawn uniformly among the other N − 1 nodes.
//   - pull(k): every uninformed live node asks k distinct peers drawn the
//     same way; an asked peer that was informed at the start of the round
//     replies with the rumour. The asker is informed if, for at least one
//     such peer, both the request and the reply arrive.
//   - push–pull: both in the same round, on the state at its start.
//
// Every one-way message is lost independently with probability ε
// (Config.Loss); a pull needs two messages to arrive. A transmit budget B
// (Config.Budget, memberlist's retransmit limit) counts each push of the
// rumour to one peer as one transmit: a node pushes to k peers a round
// until it has made B transmits in all, so its last round may send fewer
// than k; B = 0 is no limit. Pull replies are not budgeted.
//
// Config.Time = Async replaces the rounds by memberlist's clock: every
// node's gossip ticker at its own uniform phase, a node acting from its
// next tick after it is informed (Time's doc); only the Monte Carlo
// (SimulateAsync) computes it.
//
// Config.SyncInterval adds memberlist's anti-entropy (repair.go): every
// live node's periodic full-state sync with one random peer, which repairs
// what the broadcast missed for the messages a sync carries (Serf's user
// events). RepairCurve and RepairCurveFrom give the chance that a live
// node still lacks the update t seconds after the broadcast (a mean
// field); SimulateRepair is the Monte Carlo of the same rules, with an
// interval the broadcast and the syncs on one clock
// (internal/antientropy/spread.go).
//
// # Quantities
//
//   - T_L: the first round at the end of which at least ⌈L·M⌉ live nodes
//     (the source included) are informed; T_L = 0 when ⌈L·M⌉ ≤ 1, and
//     T_L = ∞ when no node can act any more before that (only a budget on
//     push alone can stop the rumour).
//   - PReach = P(T_L < ∞); the law of T_L given T_L < ∞ (mean, sd,
//     quantiles, all whole rounds); P(T_L ≤ D), which counts T_L = ∞ as
//     late.
//   - Residue: the expected share of live nodes never informed, once no
//     node can act, which is the chance that a given live node is never
//     informed (0 without a budget or with pull); PMiss: the probability
//     that some live node is never informed. With a deadline D,
//     ResidueDeadline is the chance that a given live node is not informed
//     by round ⌊D⌋ and PLate = P(T_L > D). Each comes with the relative
//     error it is claimed to be within (*RelErr): a bound for a computed
//     law, zValue = 3 standard errors for a Monte Carlo, which reaches
//     chances of 10⁻¹² by its watched runs (rare.go: conditional Monte
//     Carlo on one or two watched nodes).
//   - Messages: the expected one-way messages sent per live node by the
//     protocol's stopping rules. A node never knows that the others hold
//     the rumour, so each rule runs to its own end: with a budget B every
//     informed live node makes all its B transmits (lost, wasted or not),
//     so push sends B·(1 − Residue) per live node; an uninformed live node
//     asks k peers a round until it is informed, and each request that
//     reaches a live informed peer gets one reply, so the requests and
//     replies go on until every live node is informed; push without a
//     budget has no end (informed nodes push every round), and its pushes
//     are counted in rounds 1, …, T_L, the cost of reaching the level.
//
// The formulas of each method and their sources are in the doc comments of
// ExactLaw, AsymptoticLaw, Simulate and rare.go, and in docs/MODEL.md.
//
// # Contract
//
// Every function that takes a context (Solve, Sweep, SmallestBudget,
// MissChance, AsymptoticLaw, ExactLaw, Simulate, SimulateAsync,
// SimulateRepair) refuses a nil one with the error "broadcast: nil
// context" before any work, and returns ctx.Err() soon after the context
// is cancelled. A Config (or Settings, SimSettings) with a zero, negative,
// NaN or out-of-range field is refused by Config.Validate, which each of
// them calls first, with a *FieldError naming the field (Config.Nodes,
// Config.Loss, Config.Deadline, Settings.Reps, …). The exceptions are the
// fields a function documents as ignored (Config.Fanout and Budget for
// Sweep, which takes its own lists; Level and Deadline for MissChance and
// SmallestBudget), which are not checked beyond Validate's own range
// checks. Work no method can do is refused before it starts: a
// simulation of more than MaxSimRounds replication-rounds with an error
// wrapping gossip.ErrTooLarge that names Config.Loss, an asymptotic law
// beyond its reach with ErrNotCovered. A valid simulation is not refused
// for its memory (N up to MaxSimNodes): the caller checks
// SimMemoryEstimate against the machine's memory before the call, as the
// CLI does; a run past it ends the process (Go's out-of-memory is not
// recoverable). Functions and methods without an error result (ExactCost,
// Logistic, MeanRounds, RepsToResolve, Law.CDF, …) do not validate: out
// of range they return NaN, 0 or an empty value, never a panic.
// TestContract checks the refusals, TestNastyValues that no value panics
// or hangs.
package broadcast
