package tree_test

import (
	"context"
	"fmt"

	"github.com/gossipkit/gossipkit/tree"
)

// A binary tree (k = 2) of 100 nodes over 3 seeds. Levels 0..5 of a
// binary tree hold at most 63 nodes, so its depth is at least 6.
func ExampleExperiment() {
	cfg := tree.DefaultConfig()
	cfg.Nodes, cfg.Degree = 100, 2
	x := tree.Experiment{Cfg: cfg, Seeds: 3, Seed: 1}
	res, err := x.Run(context.Background(), tree.Settings{})
	if err != nil {
		panic(err)
	}
	s := x.Summarize(res)
	fmt.Println("seeds:", s.Seeds, "depth ≥ 6:", s.Depth.Mean >= 6)
	// Output: seeds: 3 depth ≥ 6: true
}

// Shards of an experiment merge to the single run: shard I of M runs the
// seeds i with i mod M = I − 1.
func ExampleMerge() {
	cfg := tree.DefaultConfig()
	cfg.Nodes = 200
	x := tree.Experiment{Cfg: cfg, Seeds: 5, Seed: 7}
	var parts []*tree.Part
	for i := 1; i <= 2; i++ {
		id := tree.ShardID{Index: i, Count: 2}
		res, _ := x.Run(context.Background(), tree.Settings{Indices: x.Indices(&id)})
		parts = append(parts, &tree.Part{Exp: x, Shard: id, Results: res})
	}
	_, merged, _, err := tree.Merge(parts, []string{"a", "b"}, false)
	whole, _ := x.Run(context.Background(), tree.Settings{})
	fmt.Println(err, x.Summarize(merged) == x.Summarize(whole))
	// Output: <nil> true
}
