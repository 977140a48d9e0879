// Package asyncsim is the engine of package broadcast's asynchronous Monte
// Carlo (broadcast.SimulateAsync; Config.Time = Async): every node ticks
// once per gossip interval at its own phase, an informed node pushes to k
// distinct peers at each tick (what its budget leaves, with a budget) and
// an uninformed live node pulls from k, each one-way message lost with
// probability ε, the ticks kept in time order by package internal/ticks.
// The rules are broadcast's package doc and SimulateAsync's; Run plays
// one replication from its own stream of the seed and New holds a
// worker's buffers, which broadcast's watched runs (asyncrare.go) reuse
// with their own draws (StartTick, Peer, Transmits).
//
// It needs nothing of broadcast, which imports it and turns a Rep into an
// AsyncReplication.
package asyncsim
