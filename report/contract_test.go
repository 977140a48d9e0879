package report

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestContract checks the package doc's Contract: every function and
// Study method taking a context refuses a nil one before any work, and
// zero, negative or huge arguments, with an error within a short time,
// never a panic.
func TestContract(t *testing.T) {
	bg := context.Background()
	dir := t.TempDir()
	part := filepath.Join(dir, "p.gkpart")
	id := ShardID{Index: 1, Count: 2}
	q := Quick()
	var nilCtx context.Context
	calls := []probe.Refusal{
		{Name: "TreeSweep(nil ctx)", Want: "nil context", Call: func() error { _, err := TreeSweep(nilCtx, dir, 2, 1, Options{}); return err }},
		{Name: "Plot(nil ctx)", Want: "nil context", Call: func() error { return Plot(nilCtx, dir, "fig4", q, Options{}) }},
		{Name: "Merge(nil ctx)", Want: "nil context", Call: func() error { return Merge(nilCtx, dir, []string{part}, Options{}) }},
		{Name: "MergeFiles(nil ctx)", Want: "nil context", Call: func() error { _, err := MergeFiles(nilCtx, []string{part}, false); return err }},
		{Name: "MergeDir(nil ctx)", Want: "nil context", Call: func() error { _, err := MergeDir(nilCtx, dir, dir, Options{}); return err }},
		{Name: "Run(nil ctx)", Want: "nil context", Call: func() error { return Run(nilCtx, dir, q, Options{}) }},
		{Name: "RunShard(nil ctx)", Want: "nil context", Call: func() error { return RunShard(nilCtx, part, q, id, Options{}) }},

		{Name: "Run/zero Scale", Call: func() error { return Run(bg, dir, Scale{}, Options{}) }},
		{Name: "TreeSweep/seeds 0", Call: func() error { _, err := TreeSweep(bg, dir, 0, 1, Options{}); return err }},
		{Name: "TreeSweep/seeds -1", Call: func() error { _, err := TreeSweep(bg, dir, -1, 1, Options{}); return err }},
		{Name: "TreeSweep/seeds huge", Call: func() error { _, err := TreeSweep(bg, dir, math.MaxInt, 1, Options{}); return err }},
		{Name: "Plot/unknown figure", Call: func() error { return Plot(bg, dir, "", q, Options{}) }},
		{Name: "Plot/zero Scale", Call: func() error { return Plot(bg, dir, "fig4", Scale{}, Options{}) }},
		{Name: "RunShard/zero shard", Call: func() error { return RunShard(bg, part, q, ShardID{}, Options{}) }},
		{Name: "RunShard/shard 3 of 2", Call: func() error { return RunShard(bg, part, q, ShardID{Index: 3, Count: 2}, Options{}) }},
		{Name: "RunShard/zero Scale", Call: func() error { return RunShard(bg, part, Scale{}, id, Options{}) }},
		{Name: "Merge/no files", Call: func() error { return Merge(bg, dir, nil, Options{}) }},
		{Name: "Merge/missing file", Call: func() error { return Merge(bg, dir, []string{part}, Options{}) }},
		{Name: "MergeFiles/no files", Call: func() error { _, err := MergeFiles(bg, nil, false); return err }},
		{Name: "MergeFiles/missing file", Call: func() error { _, err := MergeFiles(bg, []string{part}, true); return err }},
		{Name: "MergeDir/empty dir", Call: func() error { _, err := MergeDir(bg, dir, t.TempDir(), Options{}); return err }},
		{Name: "MergeDir/no dir", Call: func() error { _, err := MergeDir(bg, dir, part, Options{}); return err }},
	}
	s := NewStudy(q, Options{})
	for name, run := range map[string]func(context.Context) error{
		"DropProbability": func(ctx context.Context) error { _, err := s.DropProbability(ctx); return err },
		"Fig78":           func(ctx context.Context) error { _, err := s.Fig78(ctx); return err },
		"ModelComparison": func(ctx context.Context) error { _, err := s.ModelComparison(ctx); return err },
		"Optimal":         func(ctx context.Context) error { _, err := s.Optimal(ctx); return err },
		"Refined":         func(ctx context.Context) error { _, err := s.Refined(ctx); return err },
		"Tree":            func(ctx context.Context) error { _, err := s.Tree(ctx); return err },
		"GossipVsTree":    func(ctx context.Context) error { _, err := s.GossipVsTree(ctx); return err },
		"DesignAnswers":   func(ctx context.Context) error { _, err := s.DesignAnswers(ctx); return err },
		"Deployed":        func(ctx context.Context) error { _, err := s.Deployed(ctx); return err },
		"Network":         func(ctx context.Context) error { _, err := s.Network(ctx); return err },
		"Fig4Curves":      func(ctx context.Context) error { _, err := s.Fig4Curves(ctx); return err },
		"Operator":        func(ctx context.Context) error { _, err := s.Operator(ctx); return err },
	} {
		calls = append(calls, probe.Refusal{Name: "Study." + name + "(nil ctx)", Want: "nil context",
			Call: func() error { return run(nilCtx) }})
	}
	probe.Refuses(t, 0, calls...)
	// The doc's exception, not called here: Study.Transitions does not
	// use its context.
	t.Log("not probed (the Contract's stated exception): Study.Transitions")
}
