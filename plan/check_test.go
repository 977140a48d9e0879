package plan

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/sim"
)

// Each combination of settings that no method asked for covers is refused
// by the library itself, before any work, as a field error on the Config
// field that rules it out ("plan: Config.Topology …"), whose message names
// the Settings field it clashes with; refusals of a method's coverage also
// wrap ErrNotCovered. The same entry points accept the neighbouring
// combination, so the test fails if a rule refuses too much.
func TestCheckRefusals(t *testing.T) {
	t.Parallel()
	base := Config{Nodes: 50, Shuffle: gossip.Shuffle{Items: 100, Cache: 20, Exchange: 5}, Level: 0.9, Deadline: 30}
	graph, lossy, big := base, base, base
	graph.Topology = sim.Topology{Kind: sim.Regular, Degree: 4}
	lossy.Loss = 0.1
	big.Nodes = maxExactNodes + 1
	cases := []struct {
		name       string
		cfg        Config
		exchanges  []int
		set        Settings
		field      string // the FieldError's path and the message's start
		mentions   string // the Settings field named in the message
		notCovered bool
		ok         Settings // a neighbouring combination Check accepts
	}{
		{"topology exact", graph, []int{5}, Settings{Method: Exact}, "Config.Topology", "Settings.Method exact", true, Settings{Method: MonteCarlo, Model: Markov}},
		{"topology asymptotic", graph, []int{5}, Settings{Method: Asymptotic}, "Config.Topology", "Settings.Method asymptotic", true, Settings{Method: MonteCarlo, Model: Protocol}},
		{"topology lumped mc", graph, []int{5}, Settings{Method: MonteCarlo, Model: Lumped}, "Config.Topology", "Settings.Model lumped", true, Settings{Method: MonteCarlo, Model: Markov}},
		{"topology lumped auto", graph, []int{5}, Settings{Model: Lumped}, "Config.Topology", "Settings.Model lumped", true, Settings{Model: Markov}},
		{"loss asymptotic", lossy, []int{5}, Settings{Method: Asymptotic}, "Config.Loss", "Settings.Method asymptotic", true, Settings{Method: Exact}},
		{"exact too many nodes", big, []int{5}, Settings{Method: Exact}, "Config.Nodes", "Settings.Method exact", false, Settings{Method: Asymptotic}},
		{"s = c auto", base, []int{19, 20}, Settings{}, "Config.Shuffle.Exchange", "Settings.Method auto", false, Settings{Method: Exact}},
		{"s = c mc", base, []int{20}, Settings{Method: MonteCarlo, Model: Lumped}, "Config.Shuffle.Exchange", "Settings.Method mc", false, Settings{Method: Exact}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			check := func(what string, err error) {
				t.Helper()
				var fe *FieldError
				switch {
				case !errors.As(err, &fe) || fe.Field != c.field:
					t.Errorf("%s: %v, want a field error on %s", what, err, c.field)
				case !strings.HasPrefix(err.Error(), "plan: "+c.field+" "):
					t.Errorf("%s: %q, want the prefix plan: %s", what, err, c.field)
				case !strings.Contains(fe.Msg, c.mentions):
					t.Errorf("%s: %q does not name %s", what, fe.Msg, c.mentions)
				case errors.Is(err, ErrNotCovered) != c.notCovered:
					t.Errorf("%s: errors.Is(ErrNotCovered) = %v, want %v", what, !c.notCovered, c.notCovered)
				}
			}
			check("Check", Check(c.cfg, c.exchanges, c.set))
			_, err := Sweep(context.Background(), c.cfg, c.exchanges, c.set)
			check("Sweep", err)
			if err := Check(c.cfg, c.exchanges, c.ok); err != nil {
				t.Errorf("the neighbouring %+v: %v", c.ok, err)
			}
		})
	}
	// A grid of ε asks which ε each s tolerates: without a deadline it is
	// refused; one value, or a deadline, is not.
	noDeadline := base
	noDeadline.Deadline = 0
	var fe *FieldError
	_, err := LossSweep(context.Background(), noDeadline, []int{5}, []float64{0, 0.1}, Settings{Method: Exact})
	if !errors.As(err, &fe) || fe.Field != "Config.Loss" || !strings.HasPrefix(err.Error(), "plan: Config.Loss ") || !strings.Contains(fe.Msg, "Config.Deadline") {
		t.Errorf("a loss grid without a deadline: %v, want a field error on Config.Loss naming Config.Deadline", err)
	}
	// Every ε of a grid is checked before any work.
	_, err = LossSweep(context.Background(), base, []int{5}, []float64{0, 0.1}, Settings{Method: Asymptotic})
	if !errors.As(err, &fe) || fe.Field != "Config.Loss" || !errors.Is(err, ErrNotCovered) {
		t.Errorf("a loss grid with the asymptotic law: %v, want a field error on Config.Loss wrapping ErrNotCovered", err)
	}
}

// TestMaxSettings: more than MaxSettings exchange sizes (Sweep) or
// settings (LossSweep) are refused at once, whatever the context, as a
// field error (issue 42: a million settings ran on without a deadline).
func TestMaxSettings(t *testing.T) {
	cfg := Config{Nodes: 50, Shuffle: gossip.Shuffle{Items: 100, Cache: 20, Exchange: 5}, Level: 0.9, Deadline: 30}
	many := make([]int, MaxSettings+1)
	for i := range many {
		many[i] = 1 + i%5
	}
	if _, err := Sweep(context.Background(), cfg, many, Settings{}); err == nil || !strings.Contains(err.Error(), "Config.Shuffle.Exchange") {
		t.Errorf("Sweep of %d exchange sizes: %v", len(many), err)
	}
	losses := make([]float64, 2001)
	for i := range losses {
		losses[i] = float64(i) / 1e4
	}
	if _, err := LossSweep(context.Background(), cfg, []int{1, 2, 3, 4, 5}, losses, Settings{}); err == nil || !strings.Contains(err.Error(), "Config.Loss") || !strings.Contains(err.Error(), "10005 settings") {
		t.Errorf("LossSweep of 2001 × 5 settings: %v", err)
	}
}
