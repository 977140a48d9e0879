// Package harness runs the real hashicorp/memberlist (the version this
// module pins, MemberlistVersion) and measures its broadcasts, for
// comparison with gossipkit's broadcast model (package broadcast,
// docs/MODEL.md §6). It lives in its own module so that gossipkit does not
// depend on memberlist.
//
// # What runs
//
// Run builds clusters of N memberlist instances in one process. They talk
// over Network, an in-memory memberlist.NodeAwareTransport: packets are
// channel sends, streams are net.Pipe pairs, no socket is opened. Each
// packet is lost with probability Setting.Loss (one seeded generator);
// ⌊φ·(N−1)⌋ failed nodes drop every packet both ways and stay Alive in
// the others' member lists. Streams (the push–pull's TCP) are never
// lost: TCP retransmits a lost segment, so on a real network the loss
// delays a stream and fails it only past memberlist's TCPTimeout, which
// the harness does not play. By default probing and periodic push–pull
// are off (ProbeInterval = PushPullInterval = 0), so no ping or ack
// carries a broadcast, nothing finds the failed nodes and nothing repairs
// a miss; LZW compression is off (it changes no rule). With
// Setting.ProbeInterval each node probes as memberlist does, and its
// pings and acks carry queued broadcasts (sendMsg), which count as
// transmits (no node may be down then: probing would find it). With
// Setting.SyncInterval the periodic push–pull is on instead, and each
// node's state carries the message it holds, as Serf's carries its recent
// user events: a node that gets it from a sync records it and does not
// gossip it; Outcome.Lack counts the live nodes still lacking it at
// RepairPoints. The joins (a push–pull with
// node 0, repeated until every node knows all N) and memberlist's gossip
// of them end before the loss and the failures are switched on.
//
// memberlist staggers a node's first push–pull by a draw in [0,
// PushPullInterval) and then waits, before each sync, the interval scaled
// by the members it knows at that moment (pushPullScale). Above 32 nodes
// the joins take every node past 32 members at one instant, which would
// put every node's syncs in the same part of the scaled interval (at
// N = 50, all in one half). With Setting.SyncInterval and RandomPhases,
// each node is therefore restarted after the joins (shut down, created
// again on its own name and address, joined to its neighbour), one after
// another at delays uniform over the scaled interval: a node started into
// a cluster it learns whole at its join scales from its first sync, so its
// sync phase is uniform and independent of the others', as in a cluster
// whose nodes joined at different times (Result.SyncPhases records them).
//
// A user message is broadcast as Serf broadcasts a user event: queued on
// the source's own TransmitLimitedQueue (NumNodes: the member list's
// size; RetransmitMult: the setting's), handed to memberlist through
// Delegate.GetBroadcasts, and queued again by every node on its first
// receipt (Delegate.NotifyMsg). memberlist's gossip() sends the queue's
// messages every GossipInterval to GossipNodes random members, calling
// GetBroadcasts once per member, and the queue drops a message after
// RetransmitMult·⌈log10(N+1)⌉ such transmits: the model's push with
// fanout k and budget B (broadcast.MemberlistBudget).
//
// # Time
//
// Run executes in a testing/synctest bubble: the clusters see a virtual
// clock that advances only when all their goroutines are blocked. A packet
// arrives at the instant it is sent; times do not depend on the host's
// load; an interval costs only the CPU of its ticks.
//
// memberlist's gossip ticker is a time.Ticker made when the instance is
// created (schedule, state.go); the random stagger of triggerFunc only
// delays the first read of the ticker's channel, by less than one
// interval, so a node's phase is its creation instant modulo the
// interval. With RandomPhases each instance is created after a virtual
// sleep uniform in [0, GossipInterval), which makes the phases independent
// and uniform; AlignedPhases creates them all at one instant, so every
// node ticks at the same instants.
//
// # What is measured
//
// One broadcast at a time, from a live source drawn uniformly, queued at a
// uniform instant within an interval; the next starts when every queue is
// empty. Per broadcast (Outcome): the live nodes informed, the transmits
// (TransmitLimitedQueue's count: every message handed to memberlist for
// one peer, lost or sent to a failed node or not), and the time in gossip
// intervals from the source's QueueBroadcast until ⌈L·M⌉ live nodes hold
// it, L = 0.5, 0.99, 1.
//
// Compare sets these against the model: the residue and p_miss of
// broadcast.Simulate at the same N, k, B, ε and φ, the transmits per live
// node B·(1 − residue) (every informed node spends its whole budget, which
// Compare also reports as measured), and the times of a TimeModel, a
// function value: RoundsModel is the synchronous-rounds law (one round read
// as one interval), AsyncModel gossipkit's asynchronous clock (every
// ticker at its own uniform phase), which TestAsyncModelTimes checks
// against memberlist's times.
//
// # Reproducibility
//
// Setting.Seed drives the harness's draws (losses, phases, failed sets,
// sources, instants). memberlist draws its gossip peers from math/rand's
// global source, seeded at its init from crypto/rand, and the order of its
// member lists depends on how the joins' goroutines interleave: a run is
// reproducible in law, not bit for bit, and the tests judge it by standard
// errors.
package harness
