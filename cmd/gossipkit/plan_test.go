package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
)

type planJSON struct {
	Rows     []map[string]any `json:"rows"`
	Best     map[string]any   `json:"best"`
	Cheapest map[string]any   `json:"cheapest"`
}

func runPlanJSON(t *testing.T, args ...string) planJSON {
	t.Helper()
	out, errOut, code := runCLI(t, nil, append([]string{"plan", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r planJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return r
}

// The example of the README and docs/CLI.md: N = 10⁷ over s = 20..90 answers with the best s,
// which is the feasible row with the smallest t_confidence; every row has
// the keys of plan's table.
func TestPlanBestS(t *testing.T) {
	r := runPlanJSON(t, "-N", "10000000", "-n", "500", "-c", "100", "-s", "20:90", "--level", "0.99", "--deadline", "200")
	if len(r.Rows) != 71 || r.Best == nil {
		t.Fatalf("%d rows, best %v", len(r.Rows), r.Best)
	}
	bestT, cheapItems := math.Inf(1), math.Inf(1)
	var bestS, cheapS float64
	for _, row := range r.Rows {
		for _, k := range []string{"s", "method", "mean", "sd", "q05", "q25", "q50", "q75", "q95", "t_confidence", "p_deadline", "feasible", "items_sent"} {
			if _, ok := row[k]; !ok {
				t.Fatalf("row without %s: %v", k, row)
			}
		}
		if row["method"] != "asymptotic" {
			t.Errorf("s=%v: method %v at N = 10^7", row["s"], row["method"])
		}
		feasible := row["feasible"].(bool)
		if feasible != (row["p_deadline"].(float64) >= 0.95) {
			t.Errorf("s=%v: feasible %v with p_deadline %v", row["s"], feasible, row["p_deadline"])
		}
		// items sent = 2s·N·mean
		if want := 2 * row["s"].(float64) * 1e7 * row["mean"].(float64); math.Abs(row["items_sent"].(float64)-want) > 1e-9*want {
			t.Errorf("s=%v: items_sent %v, want %v", row["s"], row["items_sent"], want)
		}
		if tc := row["t_confidence"].(float64); feasible && tc < bestT {
			bestT, bestS = tc, row["s"].(float64)
		}
		if it := row["items_sent"].(float64); feasible && it < cheapItems {
			cheapItems, cheapS = it, row["s"].(float64)
		}
	}
	if r.Best["s"].(float64) != bestS {
		t.Errorf("best s %v, want %v", r.Best["s"], bestS)
	}
	// The cheapest feasible s is not the fastest here: the faster s send
	// more items a shuffle than they save in rounds.
	if r.Cheapest["s"].(float64) != cheapS || cheapS == bestS {
		t.Errorf("cheapest s %v, want %v (best %v)", r.Cheapest["s"], cheapS, bestS)
	}
	// Without a deadline p_deadline and feasible are null, and best is the
	// smallest t_confidence.
	r = runPlanJSON(t, "-N", "1000000", "-s", "40:60:10", "--method", "asymptotic")
	if r.Rows[0]["p_deadline"] != nil || r.Rows[0]["feasible"] != nil || r.Best == nil {
		t.Errorf("without a deadline: %v, best %v", r.Rows[0], r.Best)
	}
}

// At small N auto uses the exact chain, and its answer is chain's law of
// the time to the level (same solver: equal to the bisection's 1e-9).
func TestPlanAutoExactMatchesChain(t *testing.T) {
	r := runPlanJSON(t, "-N", "40", "-s", "50", "--level", "0.95", "--deadline", "30")
	row := r.Rows[0]
	if row["method"] != "exact" {
		t.Fatalf("method %v at N = 40", row["method"])
	}
	out, errOut, code := runCLI(t, nil, "chain", "-N", "40", "-s", "50", "--level", "0.95", "--t-max", "30", "--format", "json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var c struct {
		Rows  []map[string]float64 `json:"rows"`
		Level map[string]float64   `json:"time_to_level"`
		Bound float64              `json:"error_bound"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"mean", "sd", "q05", "q50", "q95"} {
		if math.Abs(row[k].(float64)-c.Level[k]) > 1e-9 {
			t.Errorf("%s: plan %v, chain %v", k, row[k], c.Level[k])
		}
	}
	bound := row["error_bound"].(float64) + c.Bound
	if p := c.Rows[len(c.Rows)-1]["p_level"]; math.Abs(row["p_deadline"].(float64)-p) > bound {
		t.Errorf("P(T ≤ 30): plan %v, chain %v (bounds %v)", row["p_deadline"], p, bound)
	}
}

// CSV carries the rows: every cell but the method and feasible (true or
// false, as every boolean column) is a number or empty.
func TestPlanCSVNumbers(t *testing.T) {
	out, errOut, code := runCLI(t, nil, "plan", "-N", "100000", "-s", "30:50:10", "--deadline", "100", "--format", "csv")
	if code != 0 {
		t.Fatal(errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != 4 {
		t.Fatalf("%v: %d records", err, len(recs))
	}
	for _, rec := range recs[1:] {
		for j, cell := range rec {
			if recs[0][j] == "feasible" {
				if cell != "true" && cell != "false" {
					t.Errorf("feasible = %q, want true or false", cell)
				}
				continue
			}
			if recs[0][j] == "method" || cell == "" {
				continue
			}
			if _, err := strconv.ParseFloat(cell, 64); err != nil {
				t.Errorf("%s = %q is not a number", recs[0][j], cell)
			}
		}
	}
}

func TestPlanBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"plan", "--method", "fast"}, "--method"},
		{[]string{"plan", "--model", "x"}, "--model"},
		{[]string{"plan", "-s", "0"}, "-s"},
		{[]string{"plan", "-s", "5:1"}, "-s"},
		{[]string{"plan", "-s", "90:100"}, "-s 100"},
		{[]string{"plan", "-s", "101"}, "-s"},
		{[]string{"plan", "-N", "6000", "--method", "exact"}, "-N"},
		{[]string{"plan", "-N", "1"}, "-N"},
		{[]string{"plan", "--confidence", "1"}, "--confidence"},
		{[]string{"plan", "--deadline", "-1"}, "--deadline"},
		{[]string{"plan", "--level", "0"}, "--level"},
		{[]string{"plan", "--initial", "1001"}, "--initial"},
		{[]string{"plan", "--time", "synchronous"}, "--time"},
		{[]string{"plan", "--reps", "0"}, "--reps"},
		{[]string{"plan", "-c", "600"}, "-c"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			expectUsage(t, nil, tc.args, tc.want)
		})
	}
}

// The library reads Initial 0 and Confidence 0 as defaults; the flags
// promise 1..N and (0, 1), so the CLI refuses them, alone and combined
// with other valid flags.
func TestPlanFlagRanges(t *testing.T) {
	for _, args := range [][]string{
		{"--initial", "0"},
		{"-N", "50", "--initial", "51"},
		{"--confidence", "0"},
		{"--confidence", "1", "--deadline", "100"},
		{"--method", "asymptotic", "--initial", "-3", "-s", "20:30"},
	} {
		out, errOut, code := runCLI(t, nil, append([]string{"plan"}, args...)...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "valid range") {
			t.Errorf("plan %v: exit %d, stdout %q, stderr %q; want exit 2 and one line with the valid range", args, code, out, errOut)
		}
	}
}

// A far-tail P(T_L ≤ D) reads "<1e-6" in text, while CSV keeps the
// number: at N = 10⁷, s = 90 the limit law puts the deadline 200 some 6.6
// standard deviations below the mean (337 − 200 = 137 rounds, sd 29).
func TestPlanTextTail(t *testing.T) {
	text, _, code := runCLI(t, nil, "plan", "-N", "10000000", "-s", "90", "--deadline", "200")
	if code != 0 || !strings.Contains(text, "<1e-6") {
		t.Errorf("text (exit %d) has no <1e-6:\n%s", code, text)
	}
	csv, _, code := runCLI(t, nil, "plan", "-N", "10000000", "-s", "90", "--deadline", "200", "--format", "csv")
	if code != 0 || strings.Contains(csv, "<") {
		t.Errorf("csv (exit %d) is not numeric:\n%s", code, csv)
	}
}
