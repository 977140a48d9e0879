package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReproduceTiny runs the whole pipeline at the tiny scale and checks the
// files and the report's structure.
func TestReproduceTiny(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	_, errOut, code := runCLI(t, map[string]string{"GOSSIPKIT_TEST": "1"}, "reproduce", "--out", dir, "--scale", "tiny", "--workers", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	report, err := os.ReadFile(filepath.Join(dir, "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"fig4", "fig7", "fig8", "optimal", "models", "refined", "tree_fig3", "tree_fig4", "gossip_vs_tree"} {
		for _, ext := range []string{".png", ".svg"} {
			if _, err := os.Stat(filepath.Join(dir, f+ext)); err != nil {
				t.Errorf("missing %s%s", f, ext)
			}
		}
		if !strings.Contains(string(report), "]("+f+".png)") {
			t.Errorf("REPORT.md does not show %s.png", f)
		}
	}
	for _, f := range []string{"pdrop", "transitions", "ode_vs_sim", "optimal_s", "refined", "tree_table1", "tree_breakout", "tree_preservation", "tree_election", "gossip_vs_tree", "gossip_vs_tree_failures"} {
		for _, ext := range []string{".csv", ".md"} {
			if _, err := os.Stat(filepath.Join(dir, f+ext)); err != nil {
				t.Errorf("missing %s%s", f, ext)
			}
		}
	}
	if !strings.Contains(string(report), "equals **S exactly at every point**") {
		t.Error("the enumeration finding is missing from the report")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary entry %s left behind", e.Name())
		}
	}
	// Rerunning replaces the files.
	if _, errOut, code := runCLI(t, map[string]string{"GOSSIPKIT_TEST": "1"}, "reproduce", "--out", dir, "--scale", "tiny"); code != 0 {
		t.Fatalf("rerun: exit %d: %s", code, errOut)
	}
}

func TestReproduceBadInput(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, []byte("x"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"reproduce", "--scale", "huge"}, "--scale"},
		{[]string{"reproduce", "--scale", "tiny"}, "--scale"}, // test-only scale
		{[]string{"reproduce", "--out", filepath.Join(f, "sub")}, "--out"},
		{[]string{"reproduce", "--workers", "0"}, "--workers"},
	} {
		expectUsage(t, nil, tc.args, tc.want)
	}
}
