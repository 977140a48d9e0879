package cli

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/internal/enum"
	"github.com/gossipkit/gossipkit/internal/fielderr"
)

type fruit int

var fruitNames = enum.Names[fruit]{"apple", "pear"}

func (f fruit) String() string { return fruitNames.Name(f) }

// testProgram has one command whose flags are bound to a config; ran
// counts how often its run function was called.
func testProgram(ran *int) *Program {
	type config struct {
		Nodes int
		Kind  fruit
	}
	return &Program{Name: "gk", Version: "0", Summary: "test", Commands: []*Command{
		{Name: "go", Short: "run", Flags: func(fs *FlagSet) Run {
			cfg := config{Nodes: 3}
			fs.IntField(&cfg.Nodes, "N", "Config.Nodes", "nodes")
			Enum(fs, &cfg.Kind, "kind", "Config.Kind", "fruit")
			fs.Output("text")
			return func(context.Context, *Env) error {
				*ran++
				if cfg.Nodes < 2 {
					return fielderr.New("lib", "Config.Nodes", "= %d: need Nodes ≥ 2", cfg.Nodes)
				}
				if cfg.Nodes > 100 {
					return errors.New("lib: too large")
				}
				return nil
			}
		}},
		{Name: "sub", Short: "subs", Noun: "thing", Subs: []*Command{{Name: "a", Flags: func(*FlagSet) Run { return func(context.Context, *Env) error { return nil } }}}},
	}}
}

func TestProgram(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args         []string
		code, runs   int
		stdout, want string // want: the stderr line (without the newline)
	}{
		{[]string{"help", "go"}, 0, 0, "Usage: gossipkit go [flags]", ""}, // help from the table: run never called
		{[]string{"go", "-h"}, 0, 0, "--kind\n      fruit: apple or pear (default apple)", ""},
		{[]string{"go", "-N", "5"}, 0, 1, "", ""},
		{[]string{"go", "-N", "1"}, 2, 1, "", "gk go: -N 1: need Nodes ≥ 2"}, // a field error names its flag
		{[]string{"go", "-N", "500"}, 1, 1, "", "gk go: lib: too large"},
		{[]string{"go", "--kind", "plum"}, 2, 0, "", `gk go: --kind "plum": valid values are apple, pear`},
		{[]string{"go", "-N", "1", "-N", "2"}, 2, 0, "", "gk go: -N: given twice (first as -N); give each flag once"},
		{[]string{"go", "--format", "xml"}, 2, 0, "", `gk go: --format "xml": valid values are text, json, csv, markdown`},
		{[]string{"stop"}, 2, 0, "", `gk: unknown command "stop" (valid: go, sub)`},
		{[]string{"sub"}, 2, 0, "", "gk sub: name a thing: a"},
		{[]string{"sub", "b"}, 2, 0, "", `gk sub: "b": valid things are a`},
		{[]string{"sub", "a"}, 0, 0, "", ""},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			ran := 0
			var o, e strings.Builder
			code := testProgram(&ran).Run(context.Background(), &Env{Stdout: &o, Stderr: &e, Getenv: func(string) string { return "" }}, tc.args)
			want := ""
			if tc.want != "" {
				want = tc.want + "\n"
			}
			if code != tc.code || ran != tc.runs || e.String() != want || !strings.Contains(o.String(), tc.stdout) {
				t.Errorf("exit %d (want %d), runs %d (want %d), stdout %q (want %q in it), stderr %q (want %q)", code, tc.code, ran, tc.runs, o.String(), tc.stdout, e.String(), want)
			}
		})
	}
}

// FlagOf matches a field error's path to the flag bound to it, or to a
// path that ends with it (a library reporting Shuffle.Exchange of the
// Config.Shuffle the flag sets).
func TestFlagOf(t *testing.T) {
	t.Parallel()
	fs := NewFlagSet("x")
	fs.Bind("Config.Shuffle.Exchange", "s")
	fs.Bind("Config.Nodes", "N")
	for field, want := range map[string]string{"Config.Shuffle.Exchange": "-s", "Shuffle.Exchange": "-s", "Config.Nodes": "-N", "Config.Level": ""} {
		if got, _ := fs.FlagOf(field); got != want {
			t.Errorf("FlagOf(%s) = %q, want %q", field, got, want)
		}
	}
}

// TestFieldUsageSeveralFields: an error on several fields names each
// one's flag, in order; a field with no flag keeps its Go path.
func TestFieldUsageSeveralFields(t *testing.T) {
	fs := &FlagSet{}
	fs.Bind("Scale.Fig4C", "cs")
	fs.Bind("Scale.Fig4S", "ss")
	for _, tc := range []struct{ msg, want string }{
		{"give no curve", "--cs, --ss, Scale.Other give no curve"},
		// The fields' names in the message become the flags; a longer
		// identifier that contains one (Fig4Cs, XFig4S) stays.
		{"give no curve (got Fig4C [1], Fig4S [2], Fig4Cs, XFig4S; Fig4S ≤ Fig4C)", "--cs, --ss, Scale.Other give no curve (got --cs [1], --ss [2], Fig4Cs, XFig4S; --ss ≤ --cs)"},
	} {
		err := fs.FieldUsage(fielderr.New("report", "Scale.Fig4C, Scale.Fig4S, Scale.Other", "%s", tc.msg))
		if err == nil || err.Error() != tc.want {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
	// A field error on one field keeps its message as the library wrote it.
	fs.Bind("Config.Shuffle.Exchange", "s")
	if err := fs.FieldUsage(fielderr.New("gossip", "Config.Shuffle.Exchange", "= 0: need Exchange ≥ 1")); err == nil || err.Error() != "-s 0: need Exchange ≥ 1" {
		t.Errorf("one field: got %v", err)
	}
	// A Go path inside the message that is bound to a flag becomes the
	// flag (a combination of settings); one with no flag stays.
	fs.Bind("Settings.Method", "method")
	err := fs.FieldUsage(fielderr.New("plan", "Config.Shuffle.Exchange", "needs Settings.Method exact or Settings.Other, not Settings.Methods"))
	if want := "-s needs --method exact or Settings.Other, not Settings.Methods"; err == nil || err.Error() != want {
		t.Errorf("Go path in the message: got %v, want %q", err, want)
	}
}
