package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// TestParamFlags: a flag declared from a parameter takes its help from
// it, is bound to the field inside its parent (so the library's field
// error names the flag, with the library's range) and, where 0 stands for
// a default outside the range, refuses a 0 typed by the user before any
// work. The expected lines are written by hand from the parameters below.
func TestParamFlags(t *testing.T) {
	t.Parallel()
	initial := gossip.Param{Field: "Initial", Meaning: "nodes holding d at t = 0", Range: "1..N", Default: "1", Lo: gossip.AtLeast(1)}
	tMax := gossip.Param{Field: "TMax", Meaning: "last output time", Unit: "rounds", Range: "> 0", Lo: gossip.Above(0)}
	loss := gossip.Loss // 0 is a value like any other
	ran := 0
	prog := &Program{Name: "gk", Commands: []*Command{{Name: "go", Flags: func(fs *FlagSet) Run {
		cfg := struct {
			Initial    int
			TMax, Loss float64
		}{Initial: 1, TMax: 5}
		fs.IntParam(&cfg.Initial, "initial", "Config", initial)
		fs.FloatParam(&cfg.TMax, "t-max", "Config.", tMax, "the note")
		fs.FloatParam(&cfg.Loss, "loss", "Config", loss)
		return func(context.Context, *Env) error {
			ran++
			if err := tMax.Check("lib", "Config", cfg.TMax); err != nil {
				return err
			}
			return loss.Check("lib", "Config", cfg.Loss)
		}
	}}}}
	for _, tc := range []struct {
		args       []string
		code, runs int
		out        string // in stdout (help) or stderr
	}{
		{[]string{"help", "go"}, 0, 0, "--initial\n      nodes holding d at t = 0 (1..N) (default 1)"},
		{[]string{"help", "go"}, 0, 0, "--t-max\n      last output time, in rounds (> 0): the note (default 5)"},
		{[]string{"go", "--initial", "0"}, 2, 0, "gk go: --initial 0: valid range 1..N"},
		{[]string{"go", "--loss", "0"}, 0, 1, ""},
		{[]string{"go", "--t-max", "0"}, 2, 1, "gk go: --t-max 0: valid range > 0"},
		{[]string{"go", "--loss", "1"}, 2, 1, "gk go: --loss 1: valid range 0 ≤ ε < 1"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			ran = 0
			var stdout, stderr bytes.Buffer
			code := prog.Run(context.Background(), &Env{Stdout: &stdout, Stderr: &stderr}, tc.args)
			if code != tc.code || ran != tc.runs || !strings.Contains(stdout.String()+stderr.String(), tc.out) {
				t.Errorf("exit %d, %d runs, stdout %q, stderr %q; want exit %d, %d runs and %q", code, ran, stdout.String(), stderr.String(), tc.code, tc.runs, tc.out)
			}
		})
	}
}
