package report

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tiny is a scale small enough for a test of the whole report.
func tiny() Scale {
	return Scale{Name: "tiny", Seed: 1, Fig4NMax: 700, Fig4Step: 100, ProveS: 5,
		Nodes: 200, Cache: 20, Exchange: 10, Ns: []int{100, 200}, Warmup: 10, Rounds: 60, Reps: 3, MarkovReps: 10,
		// Growth replications beyond the figures' (runSimFrom), as in
		// Smoke: with 3 shards, shard 3 owns none of n = 200's two (3 and
		// 4).
		GrowthReps: []int{6, 5},
		OptNodes:   100, OptS: []int{5, 10, 15}, OptWarmup: 5, OptRounds: 60, OptReps: 2,
		Refined:   []RefinedCase{{N: 50, Initial: 5, T: 40, Runs: 50, RoundRuns: 50, ProtoRuns: 5, ProtoT: 40, Plot: true}},
		TreeSeeds: 1, GossipTreeNs: []int{50, 100}, GossipTreeFailNodes: 100,
		// Replications branch from warm states (two a warm-up), as at the
		// paper scale, so that the shard and merge tests run that path:
		// with 3 shards of 3 replications a shard needs one warm state.
		RepsPerWarm: 2}
}

// TestRunTiny runs the whole pipeline at the tiny scale and checks the
// files and the report's structure.
func TestRunTiny(t *testing.T) {
	dir, _ := tinyRun(t) // Run's work (sections_test.go)
	report, err := os.ReadFile(filepath.Join(dir, "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	checkShape(t, dir, report)
	// The sections' files, in order, hold the measurements.
	var sections []byte
	for i := range Sections() {
		b, err := os.ReadFile(filepath.Join(dir, sectionFile(i+1)))
		if err != nil {
			t.Fatal(err)
		}
		sections = append(sections, b...)
	}
	for _, f := range []string{"fig4", "fig7", "fig8", "optimal", "models", "refined", "tree_fig3", "tree_fig4", "gossip_vs_tree", "network"} {
		for _, ext := range []string{".png", ".svg"} {
			if _, err := os.Stat(filepath.Join(dir, f+ext)); err != nil {
				t.Errorf("missing %s%s", f, ext)
			}
		}
		if !strings.Contains(string(report), "]("+f+".png)") {
			t.Errorf("REPORT.md does not show %s.png", f)
		}
		if !strings.Contains(string(sections), "]("+f+".png)") {
			t.Errorf("no section file shows %s.png", f)
		}
	}
	for _, f := range []string{"verdicts", "pdrop", "transitions", "ode_vs_sim", "optimal_s", "refined", "tree_table1", "tree_breakout", "tree_preservation", "tree_election", "gossip_vs_tree", "gossip_vs_tree_failures", "network", "operator"} {
		for _, ext := range []string{".csv", ".md"} {
			if _, err := os.Stat(filepath.Join(dir, f+ext)); err != nil {
				t.Errorf("missing %s%s", f, ext)
			}
		}
	}
	if !strings.Contains(string(sections), "equals **S exactly at every point**") {
		t.Error("the enumeration finding is missing from section 1")
	}
	// One row per claim in verdicts.csv (30: 3 drop probability, 3
	// replication, 3 coverage, 2 optimal s, 6 tree; 1 finding of this
	// toolkit, design answers; and gossip as deployed: 3 laws of the
	// literature, Serf's curve and 1 finding; and the protocol on the
	// complete graph, a regular graph and the torus, the time change under
	// loss, the uniformity with and without loss, and Sec. 3.5's optima),
	// and Fig. 8 shows both coverage records.
	if b, err := os.ReadFile(filepath.Join(dir, "verdicts.csv")); err != nil || strings.Count(string(b), "\n") != 31 {
		t.Errorf("verdicts.csv: %d lines, %v", strings.Count(string(b), "\n"), err)
	}
	if !strings.Contains(string(sections), "round snapshots") || !strings.Contains(string(sections), "proved** for every s = 1..5") {
		t.Error("Fig. 8's two coverage records or the γ proof are missing")
	}
	// Every CSV cell of a numeric column is a number or empty.
	checkDirCSV(t, dir)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary entry %s left behind", e.Name())
		}
	}
	// Rerunning replaces the files: a copy of the folder (the shared run
	// is read by other tests) rerun at the probes' scale of seconds
	// (tinyScale) on N = 40 nodes (the uniformity section's c = 20 needs
	// N ≥ 20 items), whose REPORT.md then states its N.
	again := filepath.Join(t.TempDir(), "out")
	if err := os.CopyFS(again, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	small := tinyScale()
	small.Nodes, small.LossNs = 40, []int{40}
	if err := Run(context.Background(), again, small, Options{Workers: 1}); err != nil {
		t.Fatalf("rerun: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(again, "REPORT.md")); err != nil || !strings.Contains(string(b), "N = 40 nodes") {
		t.Errorf("the rerun did not replace REPORT.md (%v)", err)
	}
}
