// Package tree simulates the spanning-tree notification system of
// the notification-tree document (summarised in docs/MODEL.md §5): a
// group of peers forms a tree in which every node accepts at most k
// children; joins follow Algorithms 1 and 2 of the document; failures are
// detected by pings and repaired by subtree breakout, subtree preservation
// or recursive election.
//
// # Discrete-event core
//
// Events sit in a container/heap queue ordered by virtual time (ms) and then
// by insertion order, so a run is a deterministic function of its seed. All
// randomness comes from one stream per seed.
//
// # Choices where the document is open
//
//   - Identifiers are 64-bit (a Kademlia key space truncated to 64 bits);
//     distance is XOR. The group identifier is drawn like a node's.
//   - Node 0 creates the group and is the first root. Newcomers arrive one
//     every Config.ArrivalMs (default 100 ms); joins overlap in time, and a
//     node's child count is checked and incremented when the request is
//     handled (Algorithm 2), so concurrent joins never exceed k.
//   - Entry point. Members register under the group identifier when they
//     are connected to the tree and deregister when they learn they are cut
//     off, so a lookup never returns a node of a detached subtree. "root":
//     the current root. "first": the first member found under the group
//     identifier, read as the first entry of the member list stored under
//     the group key, i.e. the earliest registration still valid. While no
//     node fails that is the root, so building with "first" and "root" gives
//     the same tree; after failures "first" is the oldest surviving
//     registered member, wherever it sits. A third strategy, "closest", takes
//     the member XOR-closest to the group identifier (what a Kademlia lookup
//     reaches first); it was this package's first reading of "first" and is
//     kept for comparison: every newcomer closer to the group identifier than
//     all members becomes the entry point, the tree grows under a sequence of
//     ever deeper entry points, and at 4000 nodes and k = 8 its depth is
//     about 21 against the document's 6–7 (Table I), so it is not what the
//     document measured.
//   - Message delay: τ_A + τ_B with each term drawn uniformly from [10, 20] ms
//     per message. Every message delivered to a node increments its counter
//     ν (join requests, acceptances, refusals, break notices, election
//     messages). Pings are counted separately (Metrics.Pings), not in ν,
//     since they are periodic background traffic.
//   - A join request to a failed node goes unanswered; the newcomer gives up
//     after PingTimeoutMs and looks up an entry point again.
//   - Failure detection: each node pings its parent and children every
//     PingPeriodMs (default 1000 ms) at its own random phase, and decides a
//     neighbour has failed PingTimeoutMs (default 200 ms) after an
//     unanswered ping.
//   - Failures: a fraction of the nodes (any node, the root included) fails
//     at once, at FailAtMs after the tree is complete.
//   - Breakout: an orphan tells its children to break out (one message
//     each), drops its links and rejoins alone; every descendant does the
//     same. Preservation: the topmost orphan rejoins and keeps its subtree.
//     The document notes that neither handles the root's failure; here the
//     first child of the failed root to notice takes the root role (it
//     re-registers the group) and the others rejoin.
//   - Recursive election: when the children of a failed node notice, the
//     alive ones run a bully election (every sibling sends ELECTION to the
//     siblings of higher priority, each of those answers OK, the winner
//     sends COORDINATOR to the others: m(m−1) + (m−1) messages for m
//     siblings, and 2 more to attach the winner to its new parent). The
//     winner takes the failed node's place, adopts its siblings, and its own
//     former children elect a substitute for the place it left, recursively
//     (Fig. 2). Priority: smallest XOR distance to the group identifier, or
//     longest time in the tree (--elect lifetime). A failed node whose
//     children all failed leaves its parent with a free slot. Degrees never
//     exceed k, as each winner's children are the siblings it replaces plus
//     one substitute.
//   - Repair traffic (Metrics.Traffic, docs/MODEL.md §5): the repair's
//     messages by kind: join requests and answers, break notices, the
//     election's messages and attachments, the upkeep of the sibling and
//     grandparent references the election needs (a refresh every
//     Config.SiblingRefreshMs to every node with a sibling, over the
//     periods from one before the failure to the reconnection, and an
//     update to every live child of a parent whose children change during
//     the repair; election only), and the DHT look-ups of the re-joins
//     (Config.LookupMessages each, 2⌈log₂ N⌉ by default; in the traffic,
//     in no ν). The build's ν is unchanged by them.
//   - Propagation delay π: the root sends a notification to its children,
//     each forwards it; π is the time until the last connected node has it.
//   - Reconnection time: from the failure until every surviving node is in
//     the root's tree again.
//
// # Experiments and shards
//
// An Experiment runs RunSeed over seeds Seed, Seed+1, …; Summarize gives
// mean ± sd over seeds of every metric. Run takes Settings: Indices runs a
// subset of the seeds (Experiment.Indices gives those of a ShardID, the same
// type as sim.ShardID: seeds i with i mod M = I − 1) and Progress reports
// the seeds done. WritePart and ReadPart store a shard's results, and Merge
// restores seed order so that the merged Summary equals the single run's
// exactly.
//
// # Convention
//
// Config is one tree to build (its zero timing fields take the documented
// defaults), Experiment the seeds to run it over, Settings how to run them
// (never changing the results); Build and Run take the context first and
// check it every few thousand events. Errors are prefixed "tree: "; an
// invalid field is a *FieldError naming it (Config.Degree), and a merge
// that cannot be done is a *MergeError (the same type as sim.MergeError).
//
// # Contract
//
// Build, RunSeed and Experiment.Run refuse a nil context with the error
// "tree: nil context" before any work, and return ctx.Err() soon after
// the context is cancelled (Build looks at it every 4096 events). A
// Config (or Experiment, Settings) with a zero, negative, NaN, infinite or
// out-of-range field is refused by its Validate, which they call first,
// with a *FieldError naming the field (Config.Nodes, Config.Degree,
// Config.FailFraction, Config.PingPeriodMs, Experiment.Seeds, …). New
// builds a Sim without a context (it is never cancelled); Sim.Fail and
// Sim.ReachWithFailures act on the tree they are given. Functions and
// methods without an error result (LookupCost, StatOf, Over,
// Experiment.Summarize, SeedResult's percentages, …) do not validate: out
// of range they return NaN, 0 or an empty result, never a panic.
// TestContract checks the refusals, TestNastyValues that no value panics
// or hangs.
package tree
