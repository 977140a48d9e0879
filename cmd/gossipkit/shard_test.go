package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var shardSim = []string{"sim", "-N", "150", "-n", "50", "-c", "10", "-s", "4", "--warmup", "10", "--rounds", "30", "--reps", "12", "--seed", "9"}

func shardRun(t *testing.T, dir string, vars map[string]string, extra ...string) {
	t.Helper()
	_, errOut, code := runCLI(t, vars, append(append(append([]string{}, shardSim...), "-o", dir+"/"), extra...)...)
	if code != 0 {
		t.Fatalf("shard %v %v: exit %d: %s", vars, extra, code, errOut)
	}
}

func mergeDir(t *testing.T, dir string, extra ...string) (string, string, int) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.gkpart"))
	return runCLI(t, nil, append(append([]string{"merge"}, files...), extra...)...)
}

func TestMergeEqualsSingleRun(t *testing.T) {
	for _, format := range []string{"csv", "json"} {
		single, _, code := runCLI(t, nil, append(append([]string{}, shardSim...), "--format", format)...)
		if code != 0 {
			t.Fatal(code)
		}
		for _, M := range []int{1, 2, 3, 7} {
			dir := t.TempDir()
			for i := 1; i <= M; i++ {
				shardRun(t, dir, nil, "--shard", fmt.Sprintf("%d/%d", i, M))
			}
			merged, errOut, code := mergeDir(t, dir, "--format", format)
			if code != 0 {
				t.Fatalf("M=%d: merge exit %d: %s", M, code, errOut)
			}
			if merged != single {
				t.Errorf("M=%d %s: merged output differs from the single run", M, format)
			}
		}
	}
}

// TestMergeEqualsSingleRunOnGraphs: each shard builds the topology itself,
// so shards agree with the single run only if the graph, neighbour order
// included, depends on the seed alone (it did not before the lists were
// sorted: gonum iterates neighbours in map order).
func TestMergeEqualsSingleRunOnGraphs(t *testing.T) {
	for _, top := range []string{"regular:6", "torus:0.2"} {
		single, _, code := runCLI(t, nil, append(append([]string{}, shardSim...), "--topology", top)...)
		if code != 0 {
			t.Fatal(code)
		}
		dir := t.TempDir()
		for i := 1; i <= 2; i++ {
			shardRun(t, dir, nil, "--topology", top, "--shard", fmt.Sprintf("%d/2", i))
		}
		merged, errOut, code := mergeDir(t, dir)
		if code != 0 {
			t.Fatalf("%s: merge exit %d: %s", top, code, errOut)
		}
		if merged != single {
			t.Errorf("%s: merged output differs from the single run", top)
		}
	}
}

// TestSchedulerIndexVariables sets the variables the way each engine does.
func TestSchedulerIndexVariables(t *testing.T) {
	single, _, _ := runCLI(t, nil, shardSim...)
	cases := map[string]func(i int) map[string]string{
		"kubernetes": func(i int) map[string]string { return map[string]string{"JOB_COMPLETION_INDEX": fmt.Sprint(i)} },
		"slurm": func(i int) map[string]string {
			return map[string]string{"SLURM_ARRAY_TASK_ID": fmt.Sprint(i + 5), "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_COUNT": "3"}
		},
		"aws": func(i int) map[string]string { return map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": fmt.Sprint(i)} },
	}
	for name, vars := range cases {
		dir := t.TempDir()
		for i := 0; i < 3; i++ {
			var extra []string
			if name != "slurm" {
				extra = []string{"--shards", "3"}
			}
			_, errOut, code := runCLI(t, vars(i), append(append(append([]string{}, shardSim...), "-o", dir+"/"), extra...)...)
			if code != 0 || !strings.Contains(errOut, fmt.Sprintf("running shard %d/3", i+1)) {
				t.Fatalf("%s %d: exit %d, stderr %q", name, i, code, errOut)
			}
		}
		merged, errOut, code := mergeDir(t, dir)
		if code != 0 || merged != single {
			t.Errorf("%s: merge exit %d (%s), identical %v", name, code, errOut, merged == single)
		}
	}
	// --shard wins over the environment.
	dir := t.TempDir()
	_, errOut, _ := runCLI(t, map[string]string{"JOB_COMPLETION_INDEX": "2"}, append(append([]string{}, shardSim...), "-o", dir+"/", "--shard", "1/2")...)
	if strings.Contains(errOut, "JOB_COMPLETION_INDEX") {
		t.Error("the environment overrode --shard")
	}
	if _, err := os.Stat(filepath.Join(dir, "part-000001-of-000002.gkpart")); err != nil {
		t.Error(err)
	}
}

func TestMergeRefusals(t *testing.T) {
	dir := t.TempDir()
	for i := 1; i <= 3; i++ {
		shardRun(t, dir, nil, "--shard", fmt.Sprintf("%d/3", i))
	}
	p1 := filepath.Join(dir, "part-000001-of-000003.gkpart")
	p2 := filepath.Join(dir, "part-000002-of-000003.gkpart")
	// Missing part: replications 2, 5, 8, 11 reported by index.
	_, errOut, code := runCLI(t, nil, "merge", p1, p2)
	if code != 2 || !strings.Contains(errOut, "4 of 12 replications missing: 2, 5, 8, 11") {
		t.Errorf("missing: exit %d, %q", code, errOut)
	}
	out, errOut, code := runCLI(t, nil, "merge", p1, p2, "--allow-missing")
	if code != 0 || !strings.Contains(errOut, "missing: 2, 5, 8, 11") || !strings.HasPrefix(out, "t,x_mean") {
		t.Errorf("--allow-missing: exit %d, %q", code, errOut)
	}
	// Duplicated part.
	_, errOut, code = runCLI(t, nil, "merge", p1, p1)
	if code != 2 || !strings.Contains(errOut, "replication 0 is in both") {
		t.Errorf("duplicate: exit %d, %q", code, errOut)
	}
	// A part from another seed.
	other := t.TempDir()
	otherSeed := append([]string{}, shardSim...)
	otherSeed[len(otherSeed)-1] = "10" // --seed 10 (a flag given twice is refused)
	_, _, code = runCLI(t, nil, append(otherSeed, "--shard", "3/3", "-o", other+"/")...)
	if code != 0 {
		t.Fatal(code)
	}
	_, errOut, code = runCLI(t, nil, "merge", p1, p2, filepath.Join(other, "part-000003-of-000003.gkpart"))
	if code != 2 || !strings.Contains(errOut, "different experiments: seed is 9 in") {
		t.Errorf("foreign seed: exit %d, %q", code, errOut)
	}
	// Truncated, corrupted and foreign files.
	raw, _ := os.ReadFile(p1)
	bad := map[string][]byte{
		"truncated": raw[:len(raw)/2],
		"flipped":   flip(raw, len(raw)/2),
		"foreign":   []byte("t,x_mean\n0,1\n"),
		"otherjson": gz(`{"format":"something-else","version":1}`),
	}
	for name, b := range bad {
		f := filepath.Join(t.TempDir(), name)
		os.WriteFile(f, b, 0o644)
		out, errOut, code := runCLI(t, nil, "merge", f, p2, filepath.Join(dir, "part-000003-of-000003.gkpart"))
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, name) {
			t.Errorf("%s: exit %d, stdout %d bytes, stderr %q", name, code, len(out), errOut)
		}
	}
	// A part whose moments were edited but whose gzip is valid.
	var plain bytes.Buffer
	zr, _ := gzip.NewReader(bytes.NewReader(raw))
	io.Copy(&plain, zr)
	edited := strings.Replace(plain.String(), `"x":[1,`, `"x":[2,`, 1)
	f := filepath.Join(t.TempDir(), "edited")
	os.WriteFile(f, gz(edited), 0o644)
	if _, errOut, code := runCLI(t, nil, "merge", f, p2); code != 2 || !strings.Contains(errOut, "corrupted") {
		t.Errorf("edited trajectories: exit %d, %q", code, errOut)
	}
}

func flip(b []byte, i int) []byte {
	c := append([]byte(nil), b...)
	c[i] ^= 0x40
	return c
}

func gz(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func TestShardBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		vars map[string]string
		want string
	}{
		{[]string{"--shard", "0/3"}, nil, "--shard"},
		{[]string{"--shard", "4/3"}, nil, "--shard"},
		{[]string{"--shard", "1-3"}, nil, "--shard"},
		{[]string{"--shard", "a/b"}, nil, "--shard"},
		{nil, map[string]string{"JOB_COMPLETION_INDEX": "0"}, "--shards"},
		{[]string{"--shards", "3"}, map[string]string{"JOB_COMPLETION_INDEX": "3"}, "JOB_COMPLETION_INDEX"},
		{nil, map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, "SLURM_ARRAY_TASK_ID"},
		{[]string{"--shard", "13/13"}, nil, "no replication"},
	} {
		t.Run(fmt.Sprint(tc.args, tc.vars), func(t *testing.T) {
			args := append(append(append([]string{}, shardSim...), "-o", t.TempDir()+"/"), tc.args...)
			expectUsage(t, tc.vars, args, tc.want)
		})
	}
	if _, errOut, code := runCLI(t, nil, "merge", "/no/such/file"); code != 2 || !strings.Contains(errOut, "/no/such/file") {
		t.Errorf("unreadable: %d %q", code, errOut)
	}
}
