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
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, []byte("x"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"reproduce", "--scale", "huge"}, "--scale"},
		{[]string{"reproduce", "--out", filepath.Join(f, "sub")}, "--out"},
		{[]string{"reproduce", "--workers", "0"}, "--workers"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			expectUsage(t, nil, tc.args, tc.want)
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
	code := runEnv(ctx, &env{stdout: &o, stderr: &e, getenv: func(string) string { return "" }}, []string{"reproduce", "--out", dir})
	if code != 130 || o.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, o.String(), e.String())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("left %v behind", entries)
	}
}
