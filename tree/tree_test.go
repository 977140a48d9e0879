package tree

import (
	"context"
	"fmt"
	"testing"
)

// TestSmallByHand: k = 2, joins far apart so none overlap. The root
// accepts the first two joiners; the third is refused by the root, sent to
// one of its children, accepted there, and so lands at depth 2.
func TestSmallByHand(t *testing.T) {
	for _, join := range []JoinStrategy{JoinRoot, JoinFirst} {
		for _, red := range []Redirect{RedirectRandom, RedirectDistance} {
			t.Run(fmt.Sprintf("%v/%v", join, red), func(t *testing.T) {
				cfg := Config{Nodes: 4, Degree: 2, Join: join, Redirect: red, Seed: 5, ArrivalMs: 1000}
				s, m, err := Build(context.Background(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				if s.parent[1] != 0 || s.parent[2] != 0 {
					t.Errorf("%v/%v: the first two joiners' parents are %d, %d, want the root 0", join, red, s.parent[1], s.parent[2])
				}
				if p := s.parent[3]; p != 1 && p != 2 {
					t.Errorf("%v/%v: the third joiner's parent is %d, want a child of the root", join, red, p)
				}
				if m.Depth != 2 {
					t.Errorf("%v/%v: depth %d, want 2", join, red, m.Depth)
				}
				// Messages by hand: joiners 1 and 2 send a request (to 0) and get
				// an acceptance; joiner 3 sends 2 requests and gets a refusal and
				// an acceptance. ν: node 0 gets 3 requests, the third joiner's
				// parent 1, joiners 1 and 2 one reply each, joiner 3 two.
				want := map[int32]int32{0: 3, 3: 2}
				want[s.parent[3]]++
				for v := int32(1); v <= 2; v++ {
					want[v]++
				}
				for v := int32(0); v < 4; v++ {
					if s.msgs[v] != want[v] {
						t.Errorf("%v/%v: ν(%d) = %d, want %d", join, red, v, s.msgs[v], want[v])
					}
				}
				if red == RedirectDistance {
					// The alternative is the root's child XOR-closest to node 3.
					c1, c2 := s.children[0][0], s.children[0][1]
					best := c1
					if s.id[c2]^s.id[3] < s.id[c1]^s.id[3] {
						best = c2
					}
					if s.parent[3] != best {
						t.Errorf("distance redirect sent node 3 to %d, not the closer child %d", s.parent[3], best)
					}
				}
			})
		}
	}
}

// TestInvariantsEveryBatch checks the structure after every batch of
// events (a batch shares a virtual time), through the build and the repair,
// for every strategy, on small trees (the check walks every path to the
// root, O(N·depth) a batch).
func TestInvariantsEveryBatch(t *testing.T) {
	const nodes = 120
	for _, k := range []int{1, 2, 3, 8} {
		for _, rep := range []Repair{Breakout, Preservation, Election} {
			for _, join := range []JoinStrategy{JoinFirst, JoinRoot, JoinClosest} {
				for _, frac := range []float64{0.05, 0.3, 0.6} {
					t.Run(fmt.Sprintf("k=%d/%v/%v/%.2f", k, rep, join, frac), func(t *testing.T) {
						t.Parallel()
						cfg := Config{Nodes: nodes, Degree: k, Join: join, Redirect: RedirectRandom, Seed: uint64(k*100) + uint64(rep), ArrivalMs: 20}
						s, err := New(cfg)
						if err != nil {
							t.Fatal(err)
						}
						s.CheckEvery = true
						s.run()
						if err := s.Check(); err != nil {
							t.Fatal(err)
						}
						m, err := s.Fail(frac, rep, ElectXOR)
						if err != nil {
							t.Fatal(err)
						}
						if !m.Reconnected {
							t.Errorf("k=%d %v %v %.2f: not every survivor reconnected", k, rep, join, frac)
						}
						if m.Nodes != nodes-m.Failed {
							t.Errorf("k=%d %v %v %.2f: %d nodes in the tree, %d survivors", k, rep, join, frac, m.Nodes, nodes-m.Failed)
						}
					})
				}
			}
		}
	}
}

func TestRootFailureElection(t *testing.T) {
	for _, elect := range []Elect{ElectXOR, ElectLifetime} {
		t.Run(elect.String(), func(t *testing.T) {
			cfg := Config{Nodes: 200, Degree: 3, Join: JoinRoot, Seed: 11}
			s, _, err := Build(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			kids := append([]int32(nil), s.children[0]...)
			s.cfg.Elect = elect
			want := kids[0]
			for _, c := range kids[1:] {
				if s.beats(c, want) {
					want = c
				}
			}
			m, err := s.FailNodes([]int32{0}, Election, elect)
			if err != nil {
				t.Fatal(err)
			}
			if !m.Reconnected || s.root != want {
				t.Errorf("%v: reconnected %v, new root %d, want the election winner %d", elect, m.Reconnected, s.root, want)
			}
			// One failure: the depth cannot grow (places are preserved).
			if m.Nodes != 199 {
				t.Errorf("%d nodes after repair", m.Nodes)
			}
		})
	}
}

func TestDeterminism(t *testing.T) {
	run := func(seed uint64) Metrics {
		cfg := DefaultConfig()
		cfg.Nodes, cfg.Seed = 500, seed
		s, _, err := Build(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		m, err := s.Fail(0.2, Election, ElectXOR)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if a, b := run(3), run(3); a != b {
		t.Errorf("same seed, different metrics: %+v vs %+v", a, b)
	}
	if a, b := run(3), run(4); a == b {
		t.Error("different seeds, identical metrics")
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"Nodes=0", Config{Nodes: 0, Degree: 2}},
		{"Degree=0", Config{Nodes: 10, Degree: 0}},
		{"FailFraction=1", Config{Nodes: 10, Degree: 2, FailFraction: 1}},
		{"Join=3", Config{Nodes: 10, Degree: 2, Join: 3}},
		{"Redirect=2", Config{Nodes: 10, Degree: 2, Redirect: 2}},
		{"Repair=-1", Config{Nodes: 10, Degree: 2, Repair: -1}},
		{"Elect=2", Config{Nodes: 10, Degree: 2, Elect: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New(tc.cfg); err == nil {
				t.Errorf("%+v accepted", tc.cfg)
			}
		})
	}
}

// BenchmarkBuildAndRepair builds a 4000-node tree (k = 8, first, random)
// and repairs 50 % failures by election, per seed.
func BenchmarkBuildAndRepair(b *testing.B) {
	seed := uint64(0)
	for b.Loop() {
		seed++
		cfg := DefaultConfig()
		cfg.Seed = seed
		s, _, err := Build(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Fail(0.5, Election, ElectXOR); err != nil {
			b.Fatal(err)
		}
	}
}
