package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/broadcast"
)

// Bad input of `plan --protocol`: exit 2, nothing on stdout, no file at -o,
// one line on stderr naming every offending flag (the values at and just
// past each edge of the library's ranges, and flags in combination).
func TestPlanProtocolBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--protocol", "gossip"}, `--protocol "gossip": valid values are shuffle, push, pull, push-pull`},
		// A fanout as large as the live nodes: N = 10, φ = 0.5 leaves
		// 10 − ⌊0.5·9⌋ = 6 live nodes, so k ≤ 5.
		{[]string{"--protocol", "push", "-N", "10", "--failed", "0.5", "--fanout", "6"}, "--fanout 6: valid range 1..5"},
		{[]string{"--protocol", "push", "-N", "10", "--fanout", "10"}, "--fanout 10: valid range 1..9"},
		{[]string{"--protocol", "pull", "--fanout", "0:3"}, "--fanout 0: valid range 1..999"},
		{[]string{"--protocol", "push", "--fanout", "5:2"}, "--fanout"},
		{[]string{"--protocol", "push", "--fanout", "1:20000"}, "--fanout \"1:20000\": at most 10000 values"},
		{[]string{"--protocol", "push", "--loss", "1"}, "--loss 1: valid range 0 ≤ ε < 1"},
		{[]string{"--protocol", "push", "--loss", "-0.01"}, "--loss -0.01: valid range 0 ≤ ε < 1"},
		{[]string{"--protocol", "push", "--loss", "NaN"}, "--loss NaN: valid range 0 ≤ ε < 1"},
		{[]string{"--protocol", "push-pull", "--failed", "1"}, "--failed 1: valid range [0, 1)"},
		// N = 2, φ = 0.9: ⌊0.9·1⌋ = 0 down, but then fanout 3 ≥ 2 live.
		{[]string{"--protocol", "push", "-N", "2", "--failed", "0.9"}, "--fanout 3: valid range 1..1"},
		{[]string{"--protocol", "pull", "--budget", "5"}, "--budget 5: a budget limits pushes; pull does not push"},
		{[]string{"--protocol", "pull", "--budget", "memberlist"}, "--budget 16: a budget limits pushes"}, // 4·⌈log10 1001⌉ = 4·4
		{[]string{"--protocol", "push", "--budget", "memberlist:0"}, "--budget \"memberlist:0\""},
		{[]string{"--protocol", "push", "--budget", "memberlistx"}, "--budget \"memberlistx\""},
		{[]string{"--protocol", "push", "--budget", "2000000"}, "--budget 2000000: valid range 0..1048576"},
		{[]string{"--protocol", "push", "--fanout", "1:200", "--budget", "0:100"}, "20200 settings; at most 10000"}, // 200 × 101,
		{[]string{"--protocol", "push", "--confidence", "1"}, "--confidence 1: valid range (0, 1)"},
		{[]string{"--protocol", "push", "--level", "0"}, "--level 0: valid range (0, 1]"},
		{[]string{"--protocol", "push", "--deadline", "-1"}, "--deadline -1"},
		{[]string{"--protocol", "push", "--interval", "-0.2"}, "--interval -0.2"},
		{[]string{"--protocol", "push", "--message-bytes", "-1"}, "--message-bytes -1"},
		{[]string{"--protocol", "push", "-N", "1"}, "-N 1: valid range 2..2^40"},
		{[]string{"--protocol", "push", "--reps", "0", "--method", "mc"}, "--reps 0"},
		{[]string{"--protocol", "push", "--method", "fast"}, `--method "fast": valid values are auto, exact, asymptotic, mc`},
		// The families' flags do not mix; every offending flag is named.
		{[]string{"--fanout", "3"}, "--fanout: broadcast flags, not used with --protocol shuffle"},
		{[]string{"--protocol", "shuffle", "--loss", "0.1", "--budget", "4", "--interval", "0.2"}, "--budget, --interval: broadcast flags, not used with --protocol shuffle"},
		{[]string{"--protocol", "push", "-n", "600", "-s", "3"}, "-n, -s: shuffle flags, not used with --protocol push"},
		{[]string{"--protocol", "pull", "--pdrop", "exact", "--model", "lumped", "--initial", "2", "--accuracy", "1", "-c", "5"},
			"--accuracy, -c, --initial, --model, --pdrop: shuffle flags, not used with --protocol pull"},
		// --time names each family's clocks (issue 41).
		{[]string{"--protocol", "pull", "--time", "shuffles"}, `--time "shuffles": valid values for --protocol pull are rounds, async`},
		{[]string{"--time", "async"}, `--time "async": valid values are continuous, shuffles`},
		{[]string{"--protocol", "push", "--time", "async", "--method", "asymptotic"}, "--method asymptotic: broadcast: asymptotic law: Config.Time = async"},
		{[]string{"--protocol", "push", "--time", "async", "--method", "mc", "--shard", "1/2"}, "--shard: shards run the rounds' Monte Carlo"},
		// Presets and the sync interval.
		{[]string{"--preset", "lan"}, `--preset "lan": valid values are memberlist-lan, memberlist-wan, memberlist-local`},
		{[]string{"--protocol", "shuffle", "--preset", "memberlist-lan"}, "--preset: broadcast flags, not used with --protocol shuffle"},
		{[]string{"--protocol", "push", "--sync-interval", "0"}, "--sync-interval 0: valid range (0, 1e9] seconds"},
		{[]string{"--protocol", "push", "--sync-interval", "-1"}, "--sync-interval -1: valid range (0, 1e9] seconds"},
		{[]string{"--preset", "memberlist-wan", "--sync-interval", "NaN"}, "--sync-interval NaN: valid range (0, 1e9] seconds"},
		// A preset's fanout is checked as if given: N = 4 leaves 3 live
		// nodes, so GossipNodes 4 (WAN) is refused.
		{[]string{"--preset", "memberlist-wan", "-N", "4"}, "--fanout 4: valid range 1..3"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(strings.Join(tc.args, "_"), "/", "")+".json")
			args := append([]string{"plan", "--format", "json", "-o", out}, tc.args...)
			expectUsage(t, nil, args, tc.want)
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%v wrote %s", args, out)
			}
		})
	}
}

// --protocol shuffle is the default: its output is byte for byte the
// output without it (both also recorded in the goldens).
func TestPlanProtocolShuffleDefault(t *testing.T) {
	t.Parallel()
	for _, f := range []string{"text", "json"} {
		args := []string{"plan", "-N", "1000000", "-s", "10:90:40", "--deadline", "200", "--format", f}
		a, _, c1 := runCLI(t, nil, args...)
		b, _, c2 := runCLI(t, nil, append(args, "--protocol", "shuffle")...)
		if c1 != 0 || c2 != 0 || a != b {
			t.Errorf("%s: exit %d and %d; outputs differ:\n%s\n---\n%s", f, c1, c2, a, b)
		}
	}
}

// handDesign is a design of two push settings with values chosen by hand
// (not computed), so that the writer's layout can be checked: row 1 is the
// faster (t_confidence 9 < 12) and row 0 the cheaper (4 < 6 messages).
func handDesign(interval float64, size int) *broadcast.Design {
	cfg := broadcast.Config{Nodes: 1000, Protocol: broadcast.Push, Failed: 0.1, Loss: 0.05, Level: 1, Deadline: 15, Confidence: 0.9, Interval: interval, MessageBytes: size}
	nan := math.NaN()
	row := func(k, b int, m broadcast.Method, tc, msgs float64) broadcast.Answer {
		a := broadcast.Answer{Fanout: k, Budget: b, Method: m, PReach: 0.999, Mean: tc - 2, SD: 1.5, Q05: tc - 4, Q25: tc - 3, Q50: tc - 2, Q75: tc - 1, Q95: tc,
			TConfidence: tc, PDeadline: 0.97, PLate: 0.03, PLateRelErr: 0.1, Feasible: true, Residue: 1e-4, ResidueRelErr: 0.02, PMiss: 1e-3, PMissRelErr: 0.03,
			ResidueDeadline: 2e-5, ResidueDeadlineRelErr: 0.04, Messages: msgs,
			Seconds: nan, TConfidenceSeconds: nan, BytesPerNode: nan, BytesPerNodePerSecond: nan, Accuracy: broadcast.NoAccuracy()}
		if interval > 0 {
			a.Seconds, a.TConfidenceSeconds = a.Mean*interval, tc*interval
		}
		if size > 0 {
			a.BytesPerNode = msgs * float64(size)
			if interval > 0 {
				a.BytesPerNodePerSecond = a.BytesPerNode / a.Seconds
			}
		}
		return a
	}
	d := &broadcast.Design{Config: cfg, Rows: []broadcast.Answer{row(2, 4, broadcast.Exact, 12, 4), row(3, 6, broadcast.MonteCarlo, 9, 6)}, Best: 1, Cheapest: 0}
	d.Rows[0].Accuracy.Bound, d.Rows[0].Accuracy.Note = 1e-12, "exact law within 1e-12"
	d.Rows[1].Accuracy.SEMean, d.Rows[1].Accuracy.Note = 0.05, "1000 replications"
	return d
}

func TestBroadcastDesignJSON(t *testing.T) {
	t.Parallel()
	base := []string{"fanout", "budget", "method", "p_reach", "mean", "sd", "q05", "q25", "q50", "q75", "q95", "t_confidence", "p_deadline", "p_late", "p_late_rel_err", "p_late_hi", "feasible",
		"residue", "residue_rel_err", "p_miss", "p_miss_rel_err", "residue_deadline", "residue_deadline_rel_err", "residue_deadline_hi", "messages_per_node"}
	acc := []string{"error_bound", "se_mean", "se_sd", "se_p_deadline", "se_p_reach", "se_messages", "dev_mean", "dev_sd", "dev_p", "cdf"}
	for _, tc := range []struct {
		interval float64
		size     int
		extra    []string
	}{
		{0, 0, nil},
		{0.2, 0, []string{"seconds", "t_confidence_seconds"}},
		{0, 512, []string{"bytes_per_node", "bytes_per_node_per_second"}},
		{0.2, 512, []string{"seconds", "t_confidence_seconds", "bytes_per_node", "bytes_per_node_per_second"}},
	} {
		var b bytes.Buffer
		if err := handDesign(tc.interval, tc.size).Write(&b, "json"); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Rows           []map[string]any
			Best, Cheapest map[string]any
		}
		if err := json.Unmarshal(b.Bytes(), &got); err != nil {
			t.Fatalf("%v\n%s", err, b.String())
		}
		want := append(append(append([]string{}, base...), tc.extra...), acc...)
		if len(got.Rows) != 2 || len(got.Rows[0]) != len(want) {
			t.Fatalf("interval %g, size %d: %d rows, keys %v; want %v", tc.interval, tc.size, len(got.Rows), got.Rows[0], want)
		}
		for _, k := range want {
			if _, ok := got.Rows[0][k]; !ok {
				t.Errorf("interval %g, size %d: no key %s", tc.interval, tc.size, k)
			}
		}
		if got.Best["fanout"] != 3.0 || got.Cheapest["fanout"] != 2.0 || got.Rows[0]["feasible"] != true {
			t.Errorf("best %v, cheapest %v", got.Best, got.Cheapest)
		}
		if tc.interval > 0 && got.Best["t_confidence_seconds"] != 9*0.2 {
			t.Errorf("t_confidence_seconds = %v, want 9 rounds × 0.2 s", got.Best["t_confidence_seconds"])
		}
		if got.Rows[0]["se_mean"] != nil || got.Rows[1]["se_mean"] != 0.05 {
			t.Errorf("se_mean: %v, %v (want null for exact, 0.05)", got.Rows[0]["se_mean"], got.Rows[1]["se_mean"])
		}
	}
	// No row qualifies: best and cheapest are null.
	d := handDesign(0, 0)
	d.Best, d.Cheapest = -1, -1
	var b bytes.Buffer
	d.Write(&b, "json")
	if !strings.Contains(b.String(), "\"best\": null,\n\"cheapest\": null") {
		t.Errorf("no qualifying row:\n%s", b.String())
	}
}

func TestBroadcastDesignText(t *testing.T) {
	t.Parallel()
	for _, f := range []string{"text", "markdown"} {
		var b bytes.Buffer
		if err := handDesign(0.2, 0).Write(&b, f); err != nil {
			t.Fatal(err)
		}
		s := b.String()
		lines := strings.Split(s, "\n")
		// 1000 nodes, ⌊0.1·999⌋ = 99 down: 901 live, all of them the target at L = 1.
		if !strings.HasPrefix(lines[0], "push broadcast: N = 1000 nodes, 901 live (failed share φ = 0.1), loss ε = 0.05; T_L = the first round with 901 of the 901 live nodes informed") ||
			!strings.Contains(lines[0], "deadline D = 15 rounds, p_deadline = P(T_L ≤ D) (T_L = ∞ counted as late)") || !strings.Contains(lines[0], ". Rounds of 0.2 s") {
			t.Errorf("%s header: %q", f, lines[0])
		}
		for _, want := range []string{
			"Fastest: fanout 3, budget 6 (the smallest t_confidence among the settings that meet the deadline 15 with probability 0.9): t_confidence 9 rounds (1.8 s)",
			"Cheapest: fanout 2, budget 4 (the fewest messages per node among the settings that meet the deadline 15 with probability 0.9)",
			"- exact (the least accurate setting, fanout 2, budget 4; every setting's beside its values): exact law within 1e-12",
			"- mc (the least accurate setting, fanout 3, budget 6; every setting's beside its values): 1000 replications",
			"7.000 ± 0.050", "1.400 ± 0.010", // the Monte Carlo's mean with its standard error (in rounds, in s)
			"t_confidence_seconds",
		} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: no %q in\n%s", f, want, s)
			}
		}
		if strings.Contains(s, "se_mean") || strings.Contains(s, "bytes_per_node") {
			t.Errorf("%s: accuracy or bytes columns in the short table:\n%s", f, s)
		}
	}
}

// CSV carries numbers and true/false; the upper ends are the values times
// 1 + their relative errors (0.03·1.1, 2e-05·1.04).
func TestBroadcastDesignCSV(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := handDesign(0, 0).Write(&b, "csv"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "2,4,exact,0.999,10,1.5,8,9,10,11,12,12,0.97,0.03,0.1,0.033,true,0.0001,0.02,0.001,0.03,2e-05,0.04,2.08e-05,4,1e-12,") {
		t.Errorf("csv:\n%s", b.String())
	}
}
