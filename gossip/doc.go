// Package gossip holds the few types that every model package of gossipkit
// shares, so that a configuration reads the same in exact, approx,
// meanfield, chain, sim and plan:
//
//   - Shuffle, the parameters of one shuffle of the protocol: n items in the
//     system, caches of c items, s items sent by each side;
//   - Progress, the one progress callback of every long computation.
//
// The number of nodes is never part of Shuffle: a model that needs it has a
// field named Nodes beside it.
package gossip
