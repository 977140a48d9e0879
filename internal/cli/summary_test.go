package cli

import (
	"errors"

	"testing"

	"github.com/gossipkit/gossipkit/plots"
)

// TestAddSummary: each format gains the record where that format keeps its
// summary values (expected outputs written by hand from the rule in
// AddSummary's doc); an output of another shape is refused.
func TestAddSummary(t *testing.T) {
	s := Summary{Key: "life", Table: &plots.Table{Single: true, Keys: []string{"mean", "sd"}, Rows: [][]any{{1.5, 2}}},
		Text: "life: 1.5 ± 2", Title: "Life:"}
	main := "| t |\n|:--|\n| 0 |\n"
	for _, tc := range []struct {
		format, out, main, want string
	}{
		{"json", "{\n\"a\": 1\n}\n", "", "{\n\"a\": 1\n,\n\"life\": {\n  \"mean\": 1.5,\n  \"sd\": 2\n}\n}\n"},
		{"csv", "t,x\n0,1\n1,2\n", "", "t,x,life_mean,life_sd\n0,1,1.5,2\n1,2,1.5,2\n"},
		{"text", "head\n\nTABLE\n", "TABLE\n", "head\nlife: 1.5 ± 2\n\nTABLE\n"},
		{"markdown", "Bound\n\n" + main, main, "Bound\n\nLife:\n\n| quantity | value |\n|:---------|:------|\n| mean     | 1.5   |\n| sd       | 2     |\n\n" + main},
		{"json", "[1]\n", "", ""},
		{"text", "head\nTABLE\n", "TABLE\n", ""},
		{"markdown", "other", main, ""},
	} {
		t.Run(tc.format+" "+tc.out, func(t *testing.T) {
			got, err := AddSummary([]byte(tc.out), tc.format, []byte(tc.main), s)
			if tc.want == "" {
				if err == nil {
					t.Fatalf("accepted %q: %q", tc.out, got)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Errorf("got %q, %v\nwant %q", got, err, tc.want)
			}
		})
	}
}

// TestTooLarge: a refusal naming "FIELD = VALUE" of a bound field names
// the flag instead, without the packages' prefixes; others are unchanged.
func TestTooLarge(t *testing.T) {
	fs := NewFlagSet("x")
	fs.Float64("t-max", 1, "")
	fs.Bind("tMax", "t-max")
	fs.Int("N", 2, "")
	fs.Bind("Config.Nodes", "N")
	for _, tc := range []struct{ msg, want string }{
		{"meanfield: tMax = 1e+300 needs 3e+298 steps, more than the 1000000 allowed", "--t-max 1e+300 needs 3e+298 steps, more than the 1000000 allowed"},
		{"plan: chain: the law for Config.Nodes = 10 did not converge", "the law for -N 10 did not converge"},
		{"chain: Settings.MaxStateSteps = 5 is less", "chain: Settings.MaxStateSteps = 5 is less"},
		{"plan: Auto with Config.Nodes 10: too many", "plan: Auto with Config.Nodes 10: too many"},
	} {
		if got := fs.TooLarge(errors.New(tc.msg)); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.msg, got, tc.want)
		}
	}
	if got := (*FlagSet)(nil).TooLarge(errors.New("a = 1")); got != "a = 1" {
		t.Errorf("nil flag set: %q", got)
	}
}
