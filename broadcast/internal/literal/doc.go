// Package literal is the reference engine of package broadcast's Monte
// Carlo (broadcast.SimSettings.Literal): every node and every message of
// a replication, played by the rules of broadcast's package doc — each
// round every live node informed before it pushes to k distinct peers
// (what its budget leaves, with a budget), every live node uninformed at
// its start asks k distinct peers, a peer informed at the start of the
// round replies, each one-way message lost with probability ε, failed
// nodes (⌊φ(N−1)⌋ of the others, drawn per replication) never act. The
// default engine (broadcast's engine.go) takes shortcuts that must agree
// with it (TestEnginesAgree there); this one is checked message by
// message against the rules (TestRules) and against an independent C
// implementation (broadcast's TestLiteralMatchesC).
//
// New takes the configuration's figures (Params); Run plays one
// replication from its own stream of the seed. It needs nothing of
// broadcast, which imports it.
package literal
