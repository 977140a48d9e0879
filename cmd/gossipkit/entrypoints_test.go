package main

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/broadcast"
	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/fielderr"
	"github.com/gossipkit/gossipkit/meanfield"
	"github.com/gossipkit/gossipkit/plan"
	"github.com/gossipkit/gossipkit/sim"
	"github.com/gossipkit/gossipkit/tree"
)

// An invalid value sent into every exported entry point comes back as a
// *fielderr.Error whose message starts with the package that reports it
// and the Go path of the field in the caller's Config; the same value
// through the CLI exits 2 with one line naming the flag bound to it.
func TestFieldErrorsEveryEntryPoint(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sh := defaultShuffle
	// s = 90000 at n = 2^40 needs 90000·41 bits > exact.MaxBits for C(n, s).
	huge := gossip.Shuffle{Items: 1 << 40, Cache: 100000, Exchange: 90000}
	for _, tc := range []struct {
		name, prefix string // the error's start: package and field path
		call         func() error
		cli          []string // the same value through the CLI
		flag         string
	}{
		{"gossip.Shuffle.Validate", "gossip: Shuffle.Exchange", func() error { return gossip.Shuffle{Items: 500, Cache: 100}.Validate() },
			[]string{"transitions", "-s", "0"}, "-s 0"},
		{"exact.Validate", "exact: Shuffle.Exchange", func() error { return exact.Validate(huge) },
			[]string{"pdrop", "-n", "1099511627776", "-c", "100000", "-s", "90000"}, "-s 90000"},
		{"approx.PDrop", "approx: Shuffle.Exchange", func() error { _, err := approx.PDrop(approx.Exact, huge); return err },
			[]string{"transitions", "-n", "1099511627776", "-c", "100000", "-s", "90000", "--pdrop", "exact"}, "-s 90000"},
		{"approx.Config.Validate", "approx: Config.Nodes", func() error { return approx.Config{Nodes: 1, Shuffle: sh}.Validate() },
			[]string{"ode", "-N", "1"}, "-N 1"},
		{"approx.NewModel", "approx: Config.Shuffle.Exchange", func() error {
			_, err := approx.NewModel(approx.Config{Nodes: 10, Shuffle: huge, PDrop: approx.Gamma})
			return err
		}, []string{"ode", "-n", "1099511627776", "-c", "100000", "-s", "90000", "--pdrop", "gamma"}, "-s 90000"},
		{"chain.Config.Validate", "chain: Config.Nodes", func() error { return chain.Config{Nodes: 1, Shuffle: sh, TMax: 1, Dt: 1}.Validate() },
			[]string{"chain", "-N", "1"}, "-N 1"},
		{"chain.Solve", "chain: Config.Shuffle.Exchange", func() error {
			_, err := chain.Solve(ctx, chain.Config{Nodes: 10, Shuffle: huge, PDrop: approx.Exact, TMax: 1, Dt: 1}, chain.Settings{})
			return err
		}, []string{"chain", "-N", "10", "-n", "1099511627776", "-c", "100000", "-s", "90000", "--pdrop", "exact"}, "-s 90000"},
		{"sim.Config.Validate", "sim: Config.Reps", func() error {
			c := sim.DefaultConfig()
			c.Reps = 0
			return c.Validate()
		}, []string{"sim", "--reps", "0"}, "--reps 0"},
		{"meanfield.Optimize", "meanfield: OptimizeConfig.Level", func() error {
			_, err := meanfield.Optimize(ctx, meanfield.OptimizeConfig{Nodes: 100, Items: 500, Cache: 100, Level: 1})
			return err
		}, []string{"optimal", "--level", "1"}, "--level 1"},
		{"tree.Config.Validate", "tree: Config.Degree", func() error {
			c := tree.DefaultConfig()
			c.Degree = 0
			return c.Validate()
		}, []string{"tree", "build", "--degree", "0"}, "--degree 0"},
		{"tree.Experiment.Validate", "tree: Experiment.Seeds", func() error {
			return tree.Experiment{Cfg: tree.DefaultConfig(), Seeds: 0}.Validate()
		}, []string{"tree", "fail", "--seeds", "0"}, "--seeds 0"},
		{"meanfield.OptimizeConfig.Validate", "meanfield: OptimizeConfig.Cache", func() error {
			return meanfield.OptimizeConfig{Nodes: 100, Items: 500, Level: 0.5}.Validate()
		}, []string{"optimal", "-c", "0"}, "-c 0"},
		{"sim.Run", "sim: Config.Shuffle.Exchange", func() error {
			c := sim.DefaultConfig()
			// sim's n ≤ 2^24: s·bitlen(n) = 90000·25 > exact.MaxBits still.
			c.Model, c.PDrop, c.Shuffle = sim.Markov, approx.Exact, gossip.Shuffle{Items: 1 << 24, Cache: 100000, Exchange: 90000}
			_, err := sim.Run(ctx, c, sim.Settings{Workers: 1})
			return err
		}, []string{"sim", "--model", "markov", "--pdrop", "exact", "-N", "10", "--reps", "1", "--rounds", "1", "-n", "16777216", "-c", "100000", "-s", "90000"}, "-s 90000"},
		// plan wraps its errors "plan: …" (its own package, not changed here).
		{"plan.Config.Validate", "plan: Config.Level", func() error { return plan.Config{Nodes: 100, Shuffle: sh, Level: 2}.Validate() },
			[]string{"plan", "--level", "2"}, "--level 2"},
		{"plan.Sweep", "plan: approx: Config.Shuffle.Exchange", func() error {
			_, err := plan.Sweep(ctx, plan.Config{Nodes: 10, Shuffle: gossip.Shuffle{Items: 1 << 30, Cache: 100000}, Level: 0.99, PDrop: approx.Gamma}, []int{90000}, plan.Settings{})
			return err
		}, []string{"plan", "-N", "10", "-n", "1073741824", "-c", "100000", "-s", "90000", "--pdrop", "gamma"}, "-s 90000"},
		{"broadcast.Config.Validate", "broadcast: Config.Loss", func() error {
			return broadcast.Config{Nodes: 100, Fanout: 3, Loss: 1, Level: 1}.Validate()
		}, []string{"plan", "--protocol", "push", "--loss", "1"}, "--loss 1"},
		{"broadcast.Sweep", "broadcast: Config.Fanout", func() error {
			_, err := broadcast.Sweep(ctx, broadcast.Config{Nodes: 100, Level: 1}, []int{100}, nil, broadcast.Settings{})
			return err
		}, []string{"plan", "--protocol", "pull", "-N", "100", "--fanout", "100"}, "--fanout 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			var fe *fielderr.Error
			if !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), tc.prefix) {
				t.Errorf("error %v (%T): want a field error starting %q", err, err, tc.prefix)
			}
			expectUsage(t, nil, tc.cli, tc.flag)
		})
	}
}

// runArgs, the in-process runner of other front ends, runs the same table.
func TestRunArgs(t *testing.T) {
	t.Parallel()
	var o, e strings.Builder
	if code := runArgs(context.Background(), []string{"version"}, &o, &e); code != 0 || o.String() != "gossipkit "+version+"\n" || e.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, o.String(), e.String())
	}
	if code := runArgs(context.Background(), []string{"plan", "--protocol", "push", "--loss", "2"}, &o, &e); code != 2 || !strings.Contains(e.String(), "--loss 2") {
		t.Errorf("exit %d, stderr %q", code, e.String())
	}
}
