// Package antientropy is the arithmetic of the anti-entropy repair that
// package broadcast models after a broadcast (docs/MODEL.md §6; the rules
// are set out at the top of broadcast's repair.go): every live node syncs
// its full state with one peer drawn uniformly among the N − 1 others once
// per scaled sync interval S' (memberlist's push–pull,
// broadcast.PushPullScale), at its own phase, both directions, never
// lost.
//
// MeanField is the mean field of the chance that a node that missed the
// broadcast still lacks the update, on a grid of S'/Steps (with
// LateWeights for the phases of the nodes whose sync fell during the
// broadcast's spread); broadcast.RepairCurve and RepairCurveFrom mix it
// over the law of the broadcast's end. Run is one Monte Carlo replication
// of the syncs from a broadcast taken as instantaneous; Spread is one
// replication with the broadcast (an asynchronous push) and the syncs on
// one clock (spread.go), Syncs the stream of the live nodes' syncs in
// time order that it plays against the gossip. The closed form of one
// missed node, which both are checked against, is in broadcast's
// repair_test.go (TestRepairSingleMiss).
//
// The package needs nothing of broadcast (its gossip ticks are package
// internal/ticks), which imports it and holds the configuration, the
// checks of the inputs and the results' types (Repair, RepairSample).
package antientropy
