package sim

import (
	"github.com/gossipkit/gossipkit/internal/enum"
	"github.com/gossipkit/gossipkit/internal/rng"

	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
)

// TopologyKind is the shape of the network.
type TopologyKind int

const (
	// Full: every node can reach every other (the paper's Sec. 5).
	Full TopologyKind = iota
	// Regular: a random DEG-regular simple graph.
	Regular
	// Torus: nodes placed uniformly at random on the unit torus; neighbours
	// are the nodes within Euclidean (wrap-around) distance RADIUS, as
	// nodes within radio range are (a random geometric graph).
	Torus
)

// Topology names a network: Full, Regular with Degree, or Torus with Radius.
type Topology struct {
	Kind   TopologyKind
	Degree int
	Radius float64
}

var topologyNames = enum.Names[TopologyKind]{"full", "regular", "torus"}

// String returns the kind's name; it never panics.
func (k TopologyKind) String() string { return topologyNames.Name(k) }

// String returns the topology as ParseTopology reads it ("full",
// "regular:DEG", "torus:RADIUS"); it never panics.
func (t Topology) String() string {
	switch t.Kind {
	case Regular:
		return "regular:" + strconv.Itoa(t.Degree)
	case Torus:
		return "torus:" + strconv.FormatFloat(t.Radius, 'g', -1, 64)
	}
	return t.Kind.String()
}

// ParseTopology parses "full", "regular:DEG" or "torus:RADIUS". Its error
// is "sim: " wrapped around what is wrong with s (errors.Unwrap gives it).
func ParseTopology(s string) (Topology, error) {
	t, err := parseTopology(s)
	if err != nil {
		return Topology{}, fmt.Errorf("sim: %w", err)
	}
	return t, nil
}

func parseTopology(s string) (Topology, error) {
	name, arg, has := strings.Cut(s, ":")
	switch {
	case name == "full" && !has:
		return Topology{Kind: Full}, nil
	case name == "regular" && has:
		d, err := strconv.Atoi(arg)
		if err != nil || d < 1 {
			return Topology{}, fmt.Errorf("regular:DEG needs an integer DEG ≥ 1, got %q", arg)
		}
		return Topology{Kind: Regular, Degree: d}, nil
	case name == "torus" && has:
		r, err := strconv.ParseFloat(arg, 64)
		if err != nil || !(r > 0 && r <= 0.5) {
			return Topology{}, fmt.Errorf("torus:RADIUS needs 0 < RADIUS ≤ 0.5 (a fraction of the torus side), got %q", arg)
		}
		return Topology{Kind: Torus, Radius: r}, nil
	}
	return Topology{}, fmt.Errorf("unknown topology %q (valid: full, regular:DEG, torus:RADIUS)", s)
}

// streamTopology is the stream of the topology, apart from the
// replications' streams 0..R−1.
const streamTopology = 1 << 62

// graph is a network in compressed adjacency form; nil adj means full.
type graph struct {
	n     int
	start []int32 // neighbours of v are adj[start[v]:start[v+1]]
	adj   []int32
}

// partner draws a uniform neighbour of a.
func (g *graph) partner(r *rng.Rand, a int32) int32 {
	if g.adj == nil {
		b := int32(r.Intn(uint32(g.n - 1)))
		if b >= a {
			b++
		}
		return b
	}
	lo, hi := g.start[a], g.start[a+1]
	return g.adj[lo+int32(r.Intn(uint32(hi-lo)))]
}

// buildGraph constructs the topology for N nodes from its own RNG stream. It
// refuses graphs in which a node has no neighbour, and reports (connected =
// false) graphs that fall apart, where coverage cannot reach 1.
func buildGraph(t Topology, N int, seed uint64) (g *graph, connected bool, err error) {
	if t.Kind == Full {
		return &graph{n: N}, true, nil
	}
	r := rng.NewStream(seed, streamTopology)
	ug := simple.NewUndirectedGraph()
	for v := range N {
		ug.AddNode(simple.Node(v))
	}
	switch t.Kind {
	case Regular:
		if t.Degree >= N {
			return nil, false, fmt.Errorf("regular:%d needs degree < N = %d", t.Degree, N)
		}
		if N*t.Degree%2 != 0 {
			return nil, false, fmt.Errorf("regular:%d needs N·degree even (N = %d)", t.Degree, N)
		}
		if err := randomRegular(ug, r, N, t.Degree); err != nil {
			return nil, false, err
		}
	case Torus:
		randomTorus(ug, r, N, t.Radius)
	}
	g = &graph{n: N, start: make([]int32, N+1)}
	for v := range N {
		nb := ug.From(int64(v))
		if nb.Len() == 0 {
			return nil, false, fmt.Errorf("torus:%g leaves node %d without neighbours (N = %d): use a larger radius (expected degree N·π·r² = %.2f)", t.Radius, v, N, float64(N)*math.Pi*t.Radius*t.Radius)
		}
		for nb.Next() {
			g.adj = append(g.adj, int32(nb.Node().ID()))
		}
		// gonum's graph keeps neighbours in a map, which Go iterates in a
		// different order every time: sorted, the lists (and so the partner
		// drawn by an index into them) depend on the seed only.
		slices.Sort(g.adj[g.start[v]:])
		g.start[v+1] = int32(len(g.adj))
	}
	return g, len(topo.ConnectedComponents(ug)) == 1, nil
}

// randomRegular builds a random d-regular simple graph by the pairing
// (configuration) model: stubs are paired at random, a pair that would make
// a loop or a double edge is re-drawn (up to 50 times), and a pairing that
// gets stuck is restarted. Re-drawing makes the law slightly non-uniform
// (exact rejection needs about e^{(d²−1)/4} restarts, hopeless beyond d ≈ 5),
// which does not matter for a mixing topology.
func randomRegular(ug *simple.UndirectedGraph, r *rng.Rand, N, d int) error {
	stubs := make([]int32, N*d)
	for tries := 0; tries < 1000; tries++ {
		for i := range stubs {
			stubs[i] = int32(i / d)
		}
		ok := true
		edges := make(map[[2]int32]bool, N*d/2)
		for i := len(stubs) - 1; i > 0; i -= 2 {
			// pick a random partner stub for stubs[i] among stubs[0..i-1]
			found := false
			for attempt := 0; attempt < 50; attempt++ {
				j := int(r.Intn(uint32(i)))
				u, v := stubs[i], stubs[j]
				key := [2]int32{min(u, v), max(u, v)}
				if u == v || edges[key] {
					continue
				}
				stubs[j], stubs[i-1] = stubs[i-1], stubs[j]
				edges[key] = true
				found = true
				break
			}
			if !found {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		for e := range edges {
			ug.SetEdge(ug.NewEdge(simple.Node(e[0]), simple.Node(e[1])))
		}
		return nil
	}
	return fmt.Errorf("regular:%d: no simple %d-regular graph found on %d nodes after 1000 tries", d, d, N)
}

// randomTorus places N points uniformly on the unit torus and joins those
// within distance rad, using a cell grid so the cost is O(N·degree).
func randomTorus(ug *simple.UndirectedGraph, r *rng.Rand, N int, rad float64) {
	xs, ys := make([]float64, N), make([]float64, N)
	for i := range N {
		xs[i], ys[i] = r.Float64(), r.Float64()
	}
	// Cells at least rad wide, and no more than about one a node: a tiny
	// radius (1e-10) must not make a grid of 10^20 cells.
	cells := max(1, int(math.Min(1/rad, math.Sqrt(float64(N))+1)))
	grid := make([][]int, cells*cells)
	cell := func(x float64) int { return min(cells-1, int(x*float64(cells))) }
	for i := range N {
		grid[cell(xs[i])*cells+cell(ys[i])] = append(grid[cell(xs[i])*cells+cell(ys[i])], i)
	}
	wrap := func(d float64) float64 {
		d = math.Abs(d)
		return math.Min(d, 1-d)
	}
	for i := range N {
		cx, cy := cell(xs[i]), cell(ys[i])
		seen := map[int]bool{}
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				c := ((cx+dx+cells)%cells)*cells + (cy+dy+cells)%cells
				if seen[c] {
					continue
				}
				seen[c] = true
				for _, j := range grid[c] {
					if j <= i {
						continue
					}
					ddx, ddy := wrap(xs[i]-xs[j]), wrap(ys[i]-ys[j])
					if ddx*ddx+ddy*ddy <= rad*rad {
						ug.SetEdge(ug.NewEdge(simple.Node(i), simple.Node(j)))
					}
				}
			}
		}
	}
}
