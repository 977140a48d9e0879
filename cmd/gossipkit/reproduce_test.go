package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReproduceBadInput(t *testing.T) {
	tmp := t.TempDir()
	f := filepath.Join(tmp, "file")
	os.WriteFile(f, []byte("x"), 0o644)
	empty := filepath.Join(tmp, "empty")
	os.Mkdir(empty, 0o755)
	junk := filepath.Join(tmp, "junk")
	os.Mkdir(junk, 0o755)
	os.WriteFile(filepath.Join(junk, "a.gkpart"), []byte("not gzip"), 0o644)
	for _, tc := range []struct {
		vars map[string]string
		args []string
		want string
	}{
		{nil, []string{"reproduce", "--scale", "huge"}, "--scale"},
		{nil, []string{"reproduce", "--out", filepath.Join(f, "sub")}, "--out"},
		{nil, []string{"reproduce", "--workers", "0"}, "--workers"},
		{nil, []string{"reproduce", "--shard", "4/3"}, "--shard"},
		{nil, []string{"reproduce", "--shard", "1/3", "--shards", "2"}, "--shards"},
		{nil, []string{"reproduce", "--shards", "3"}, "--shards"},
		{nil, []string{"reproduce", "--shard", "1/3", "--out", "x"}, "--out"},
		{nil, []string{"reproduce", "--shard", "1/3", "-o", filepath.Join(f, "sub")}, "-o"},
		{nil, []string{"reproduce", "-o", "parts/"}, "-o"},
		{nil, []string{"reproduce", "--merge", f}, "--merge"},
		{nil, []string{"reproduce", "--merge", empty}, "--merge"},
		{nil, []string{"reproduce", "--merge", junk}, "--merge"},
		{nil, []string{"reproduce", "--merge", empty, "--scale", "paper"}, "--scale"},
		{nil, []string{"reproduce", "--merge", empty, "--shard", "1/2"}, "--shard"},
		{map[string]string{"JOB_COMPLETION_INDEX": "0"}, []string{"reproduce"}, "--shards"},
		{map[string]string{"JOB_COMPLETION_INDEX": "3"}, []string{"reproduce", "--shards", "3"}, "JOB_COMPLETION_INDEX"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2"}, []string{"reproduce", "--out", "x"}, "--out"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			expectUsage(t, tc.vars, tc.args, tc.want)
		})
	}
}

// TestReproduceInterrupted: a run cancelled before it finishes exits 130
// and leaves neither files nor a hidden temporary folder.
func TestReproduceInterrupted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	var o, e bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code := runEnv(ctx, &env{Stdout: &o, Stderr: &e, Getenv: func(string) string { return "" }}, []string{"reproduce", "--out", dir})
	if code != 130 || o.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, o.String(), e.String())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("left %v behind", entries)
	}
}
