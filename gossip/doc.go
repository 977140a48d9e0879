// Package gossip holds the few types that every model package of gossipkit
// shares, so that a configuration reads the same in exact, approx,
// meanfield, chain, sim and plan:
//
//   - Shuffle, the parameters of one shuffle of the protocol: n items in the
//     system, caches of c items, s items sent by each side;
//   - Time, the clock of a model: Continuous (every node initiates at rate
//     1), Shuffles (N shuffles a round, one after another) or Synchronous
//     (every shuffle of a round acts on the state at the round's start),
//     named continuous, shuffles and synchronous (ParseTime);
//   - Progress, the one progress callback of every long computation;
//   - FieldError, the error that names an invalid field (Shuffle.Cache,
//     Config.Nodes) and says what is wrong with it; every package returns
//     it wrapped behind its own prefix, so errors.As finds it, and the CLI
//     maps the field to its flag;
//   - Param, one parameter stated once, on its field: its Go path, symbol,
//     meaning, unit, default and valid range (text and constant bounds).
//     Each package states its own (gossip.Items, chain.TMax, ode.RTol,
//     broadcast.Fanout, tree.Degree); its Validate checks them (Param.Check)
//     and the command line writes each flag's help and binds it to the
//     field from the same Param (internal/cli FlagSet.IntParam).
//
// The number of nodes is never part of Shuffle: a model that needs it has a
// field named Nodes beside it.
//
// # Contract
//
// This package takes no context: nothing in it runs long. Shuffle.Validate
// and Param.Check refuse a zero, negative, NaN, infinite or out-of-range
// value with a *FieldError naming the field (Shuffle.Items,
// Config.Nodes, …) and its valid range; ParseMethod and ParseTime refuse
// an unknown name with an error listing the valid ones. Every package of
// gossipkit follows the same rule for its own fields, and states its
// exceptions in its doc's Contract section. The predicates (ValidLoss,
// Param.In, Method.Valid, Time.Valid) answer false for NaN. No function
// panics on any value (TestContract, TestNastyValues).
package gossip
