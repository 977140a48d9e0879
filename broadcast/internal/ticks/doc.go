// Package ticks is the time-ordered queue of the nodes' gossip ticks that
// package broadcast's asynchronous Monte Carlo (internal/asyncsim, and
// broadcast's asyncrare.go) and the repair's spread (internal/antientropy)
// play: a binary min-heap in container/heap's order, so that a run's
// events, and with them its answer, do not depend on which of the two ways
// a tick was queued.
package ticks
