package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files (review the diff against their provenance in testdata/README.md)")

// runCLI runs the CLI in-process with the given environment variables.
func runCLI(t *testing.T, vars map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	en := &env{Stdout: &o, Stderr: &e, Getenv: func(k string) string { return vars[k] }}
	code = runEnv(context.Background(), en, args)
	return o.String(), e.String(), code
}

// expectUsage runs the CLI and checks the bad-input contract: exit status
// 2, nothing on stdout, and one line on stderr containing want.
func expectUsage(t *testing.T, vars map[string]string, args []string, want string) {
	t.Helper()
	out, errOut, code := runCLI(t, vars, args...)
	if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, want) {
		t.Errorf("%v %v: exit %d, stdout %q, stderr %q (want one line with %q)", args, vars, code, out, errOut, want)
	}
}

// expectOK runs the CLI, stops the test unless it exits 0 (naming the
// arguments and the start of stderr), and returns its stdout.
func expectOK(t *testing.T, vars map[string]string, args ...string) string {
	t.Helper()
	out, errOut, code := runCLI(t, vars, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %.300s", args, code, errOut)
	}
	return out
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "cli", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs from golden file:\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

func TestPDropJSONPaperExample(t *testing.T) {
	out, errOut, code := runCLI(t, nil, "pdrop", "-n", "7", "-c", "4", "-s", "2", "--format", "json", "--enumerate")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	r := rows[0]
	// Hand derivation in exact.TestPDropPaperExample: E = 4/7, S = 3/5; the
	// per-item enumeration equals S; |E − S| = 1/35.
	for k, want := range map[string]string{"exact": "4/7", "gamma": "4/7", "simplified": "3/5", "enumerated": "3/5", "enumerated_per_shuffle": "4/7"} {
		if r[k] != want {
			t.Errorf("%s = %v, want %s", k, r[k], want)
		}
	}
	// 1e-13: log10 of 1/35 computed from two floats 4/7 and 3/5 (relative error a few ulp, 1e-15 of 1/35 ≈ 0.029); log10 turns it into ~1e-15 absolute: 1e-13 is a margin of 100.
	if d := r["log10_abs_diff"].(float64); math.Abs(d-math.Log10(1.0/35)) > 1e-13 {
		t.Errorf("log10_abs_diff = %v, want log10(1/35)", d)
	}
	golden(t, "pdrop_7_4_2.json", out)
}

func TestPDropFormatsGolden(t *testing.T) {
	// s = 1 rows: E = (n−c)/n and S = (n−c)/(n−1) (exact.TestPDropSEqualsOne).
	for _, f := range []string{"text", "csv", "markdown"} {
		out, errOut, code := runCLI(t, nil, "pdrop", "-n", "5:9:2", "-c", "4", "-s", "1:2", "--format", f)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", f, code, errOut)
		}
		golden(t, "pdrop_range."+f, out)
	}
}

func TestPDropEqualNull(t *testing.T) {
	// n = c: E = S = 0, so the log difference is null; n = c = s is not a
	// shuffle (gossip.Shuffle.Validate: S is 0/0), skipped and counted.
	out, errOut, code := runCLI(t, nil, "pdrop", "-n", "4", "-c", "4", "-s", "2:4:2", "--format", "json")
	if code != 0 {
		t.Fatal(code)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0]["exact"] != "0" || rows[0]["log10_abs_diff"] != nil {
		t.Errorf("n=c=4, s=2: %v", rows)
	}
	if !strings.Contains(errOut, "skipped 1 of 2") {
		t.Errorf("stderr %q: want the n = s point counted as skipped", errOut)
	}
}

// TestPDropLargeS: the closed form answers at s = 50,000 (the double sum,
// O(s²), would take hours). S = (n−c)/(n−s) = 2/3 and E = S·(1 − 1/C(n,s))
// differs from it by 2/(3·C(200000, 50000)), about 10^−48841.3 (log10 of
// C(200000, 50000) from lgamma: 48841.12; log10(2/3) = −0.18).
func TestPDropLargeS(t *testing.T) {
	out, errOut, code := runCLI(t, nil, "pdrop", "-n", "200000", "-c", "100000", "-s", "50000", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	r := rows[0]
	if r["simplified"] != "2/3" || r["exact"] != r["gamma"] || r["exact_float"] != 2.0/3 {
		t.Errorf("simplified %v, exact_float %v, exact = gamma: %v", r["simplified"], r["exact_float"], r["exact"] == r["gamma"])
	}
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	want := math.Log10(2.0/3) - (lg(200001)-lg(50001)-lg(150001))/math.Ln10
	// lgamma's relative error ~1e-15 on values ~2e6 allows ~1e-9 absolute.
	if d := r["log10_abs_diff"].(float64); math.Abs(d-want) > 1e-7 {
		t.Errorf("log10_abs_diff = %v, want %v", d, want)
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // a fragment the one-line error must contain
	}{
		{[]string{"pdrop", "-n", "7", "-c", "4"}, "-s is required"},
		{[]string{"pdrop", "-n", "7.5", "-c", "4", "-s", "2"}, "-n"},
		{[]string{"pdrop", "-n", "7", "-c", "4", "-s", "0"}, "-s"},
		{[]string{"pdrop", "-n", "7", "-c", "4", "-s", "5"}, "s ≤ c"},
		{[]string{"pdrop", "-n", "3", "-c", "4", "-s", "1"}, "c ≤ n"},
		{[]string{"pdrop", "-n", "9:7", "-c", "4", "-s", "1"}, "empty range"},
		{[]string{"pdrop", "-n", "7:9:0", "-c", "4", "-s", "1"}, "STEP 0 < 1"},
		{[]string{"pdrop", "-n", "7", "-c", "4", "-s", "6000"}, "-s"},
		{[]string{"pdrop", "-n", "2000000", "-c", "1000000", "-s", "500000"}, "MaxBits = 2097152"},
		{[]string{"pdrop", "-n", "7", "-c", "7", "-s", "7"}, "s < n"},
		{[]string{"pdrop", "-n", "64", "-c", "4", "-s", "2", "--enumerate"}, "n ≤ 63"},
		{[]string{"pdrop", "-n", "7", "-c", "4", "-s", "2", "--format", "xml"}, "--format"},
		{[]string{"gamma-check", "--s-max", "0"}, "--s-max"},
		{[]string{"nosuch"}, "unknown command"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			expectUsage(t, nil, tc.args, tc.want)
		})
	}
}

func TestGammaCheck(t *testing.T) {
	out, errOut, code := runCLI(t, nil, "gamma-check", "--s-max", "4", "--c-max", "8", "--n-max", "12", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	// Σ_{s=1}^{4} Σ_{c=s}^{8} #{n: max(c, s+1) ≤ n ≤ 12} counted by hand:
	// s=1: c=1..8 → 11+11+10+9+8+7+6+5 = 67; s=2: c=2..8 → 10+10+9+8+7+6+5 = 55;
	// s=3: c=3..8 → 9+9+8+7+6+5 = 44; s=4: c=4..8 → 8+8+7+6+5 = 34. Total 200.
	if rows[0]["points_checked"].(float64) != 200 || rows[0]["identity_holds"] != true {
		t.Errorf("got %v", rows[0])
	}
}

func TestHelpAndVersion(t *testing.T) {
	out, _, code := runCLI(t, nil, "help")
	if code != 0 || !strings.Contains(out, "pdrop") {
		t.Errorf("help: %d %q", code, out)
	}
	out, _, code = runCLI(t, nil, "help", "pdrop")
	if code != 0 || !strings.Contains(out, "--enumerate") {
		t.Errorf("help pdrop: %d %q", code, out)
	}
	out, _, code = runCLI(t, nil, "version")
	if code != 0 || !strings.HasPrefix(out, "gossipkit ") {
		t.Errorf("version: %d %q", code, out)
	}
}
