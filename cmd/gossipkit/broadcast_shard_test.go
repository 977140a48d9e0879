package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A broadcast Monte Carlo run as three shards (`plan --shard I/3 -o DIR/`)
// and merged (`merge DIR`) prints what the single run prints, byte for
// byte, in text and JSON: every replication draws from its own stream
// (seed, index), and the merge orders them by index.
func TestPlanBroadcastShardsMergeExactly(t *testing.T) {
	dir := t.TempDir()
	base := []string{"plan", "--protocol", "push", "-N", "200", "--fanout", "3", "--budget", "8", "--loss", "0.2", "--failed", "0.1",
		"--level", "1", "--deadline", "9", "--method", "mc", "--reps", "300", "--seed", "7"}
	run := func(args ...string) (int, string, string) {
		var o, e strings.Builder
		code := runEnv(context.Background(), &env{Stdout: &o, Stderr: &e, Getenv: func(string) string { return "" }}, args)
		return code, o.String(), e.String()
	}
	for i := 1; i <= 3; i++ {
		args := append(append([]string{}, base...), "--shard", []string{"", "1/3", "2/3", "3/3"}[i], "-o", dir+"/")
		if code, out, errs := run(args...); code != 0 || out != "" || !strings.Contains(errs, "100 of 300 replications") {
			t.Fatalf("shard %d/3: exit %d, stdout %q, stderr %q", i, code, out, errs)
		}
	}
	if parts, _ := filepath.Glob(filepath.Join(dir, "*.gkpart")); len(parts) != 3 {
		t.Fatalf("%d part files", len(parts))
	}
	for _, format := range []string{"text", "json"} {
		code, single, _ := run(append(append([]string{}, base...), "--format", format)...)
		mcode, merged, _ := run("merge", dir, "--format", format)
		if code != 0 || mcode != 0 || merged != single {
			t.Errorf("%s: merge (exit %d) differs from the single run (exit %d):\n%s\n---\n%s", format, mcode, code, merged, single)
		}
	}
	// Refused before any work: a shard of the shuffle, of a computed law,
	// of a range of settings; nothing is written.
	empty := t.TempDir()
	for _, args := range [][]string{
		{"plan", "--shard", "1/2", "-o", empty + "/"},
		append(append([]string{}, base[:len(base)-6]...), "--shard", "1/2", "-o", empty+"/"),
		{"plan", "--protocol", "pull", "--fanout", "1:3", "--method", "mc", "--shard", "1/2", "-o", empty + "/"},
		{"plan", "--protocol", "push", "--method", "mc", "--shard", "3/2", "-o", empty + "/"},
	} {
		code, out, errs := run(args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "--shard") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 0 {
		t.Errorf("refused shards left %d files", len(entries))
	}
}
