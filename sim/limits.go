package sim

import (
	"math"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// MaxResultBytes bounds what a run keeps for its output, whatever the
// machine: the per-replication trajectories (12 bytes a round and a
// replication) and the per-round summary (~700 bytes a round). A run past
// it (sim -N 2 --rounds 10000000 held 6.6 GB) is refused, not streamed:
// split it into shards or fewer rounds.
const MaxResultBytes = 2 << 30

// bytesPerEdge bounds the memory a topology's graph takes per (node,
// neighbour) pair while it is built: the pairing model's edge set and
// gonum's adjacency maps (~45 bytes an entry each, measured with
// runtime.MemStats on regular:100 at N = 20000) and the final int32 list.
const bytesPerEdge = 128

// topologyPairs is the number of (node, neighbour) pairs of the topology:
// N·degree for a regular graph, the expected N·min(N−1, Nπr²) for a torus
// (plus 4 standard deviations of its binomial spread), 0 for the full
// graph, which keeps no list.
func (c Config) topologyPairs() float64 {
	N := float64(c.Nodes)
	switch c.Topology.Kind {
	case Regular:
		return N * float64(c.Topology.Degree)
	case Torus:
		deg := math.Min(N-1, (N-1)*math.Pi*c.Topology.Radius*c.Topology.Radius)
		return N * (deg + 4*math.Sqrt(deg) + 1)
	}
	return 0
}

// checkLimits refuses the values Validate does not look at that would make
// Run panic or exhaust memory: enums out of range, a topology with a bad
// degree or radius or a graph past int32 indices, and a result past
// MaxResultBytes.
func (c Config) checkLimits() error {
	f := func(field, format string, a ...any) error { return fielderr.New("sim", field, format, a...) }
	if c.PDrop != approx.Simplified && c.PDrop != approx.Gamma && c.PDrop != approx.Exact {
		return f("Config.PDrop", "%d: valid values are Simplified, Gamma, Exact", int(c.PDrop))
	}
	if k := int(c.FailFraction*float64(c.Nodes) + 0.5); c.FailFraction > 0 && k > c.Nodes-c.Initial {
		// The failing nodes are drawn among those not holding d (the
		// fuzz target found the panic).
		return f("Config.FailFraction", "%g: fails %d of N = %d nodes, but only N − Initial = %d do not hold d", c.FailFraction, k, c.Nodes, c.Nodes-c.Initial)
	}
	switch c.Topology.Kind {
	case Full:
	case Regular:
		if c.Topology.Degree < 1 || c.Topology.Degree >= c.Nodes {
			return f("Config.Topology", "regular:%d: need 1 ≤ degree < N = %d", c.Topology.Degree, c.Nodes)
		}
	case Torus:
		if r := c.Topology.Radius; !(r > 0 && r <= 0.5) {
			return f("Config.Topology", "torus:%g: need 0 < radius ≤ 0.5", r)
		}
	default:
		return f("Config.Topology", "kind %d: valid kinds are Full, Regular, Torus", int(c.Topology.Kind))
	}
	if p := c.topologyPairs(); p > math.MaxInt32 {
		return f("Config.Topology", "%v with N = %d: %.3g neighbour entries, more than the 2^31 − 1 a graph can index", c.Topology, c.Nodes, p)
	}
	rounds := float64(c.Rounds) + 1
	if b := rounds * (12*float64(c.Reps) + 700); b > MaxResultBytes {
		return f("Config.Rounds", "%d with %d replications: the result would take about %.1f GiB (at most %d GiB); use fewer rounds, or fewer replications per run (shards)", c.Rounds, c.Reps, b/(1<<30), MaxResultBytes>>30)
	}
	return nil
}
