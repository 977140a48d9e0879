package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runWatched runs the CLI in-process with ctx and fails the test if the
// command has not returned within 30 s (a hang on a FIFO, a loop without
// its context): far above the second or so every case here needs.
func runWatched(t *testing.T, ctx context.Context, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- runEnv(ctx, &env{Stdout: &o, Stderr: &e, Getenv: func(string) string { return "" }}, args)
	}()
	select {
	case code = <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%q still running after 30 s", args)
	}
	return o.String(), e.String(), code
}

// The command-line examples of hostile and careless use that once broke
// the contract (a panic, memory without bound, a hang, a field error as
// exit 1 with Go names, a message naming the wrong flag or in two lines),
// each run as written: the exit status, and for a refusal one line on
// stderr that names what is wrong.
func TestHostileExamples(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.gkpart")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.gkpart")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	// Folders of parts holding only a FIFO or a link to /dev/zero: the
	// merge of a reproduction read them with os.ReadFile (a hang, or
	// memory until the machine's end).
	fifoDir, zeroDir := filepath.Join(dir, "fifos"), filepath.Join(dir, "zeros")
	os.Mkdir(fifoDir, 0o755)
	os.Mkdir(zeroDir, 0o755)
	if err := syscall.Mkfifo(filepath.Join(fifoDir, "a.gkpart"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(zeroDir, "a.gkpart")); err != nil {
		t.Fatal(err)
	}
	two40 := "1099511627776"
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in the one line on stderr (exit 2)
	}{
		{"plan deadline 1e13 (4 GB once)", []string{"plan", "-N", "50", "-n", "50", "-c", "10", "-s", "5", "--level", "0.9", "--deadline", "1e13"}, 0, ""},
		{"plan deadline 1e18 (an index panic once)", []string{"plan", "-N", "50", "-n", "50", "-c", "10", "-s", "5", "--level", "0.9", "--deadline", "1e18"}, 0, ""},
		{"chain n = c = 2^40 (grew without end)", []string{"chain", "-N", "10", "-n", two40, "-c", two40, "-s", "1", "--t-max", "1", "--level", "1"}, 2, "too large"},
		{"plan confidence 1 − 2^−53 (spun forever)", []string{"plan", "--confidence", "0.9999999999999999"}, 0, ""},
		{"plot optimal --opt-N 5001 (exit 1, Go names)", []string{"plot", "optimal", "--opt-N", "5001"}, 2, "--opt-N 5001"},
		{"plan mc --reps 200000 (named --rounds)", []string{"plan", "--method", "mc", "--reps", "200000"}, 2, "--reps 200000"},
		{"ode --t-max 1e300 --dt 1e294 (exit 1 at a step limit)", []string{"ode", "--t-max", "1e300", "--dt", "1e294"}, 2, "--t-max"},
		{"-o of 256 bytes (called not a regular file)", []string{"pdrop", "-n", "20", "-c", "5", "-s", "2", "-o", filepath.Join(dir, strings.Repeat("a", 256))}, 2, "too long"},
		{"-o in a folder with a newline (two lines)", []string{"pdrop", "-n", "20", "-c", "5", "-s", "2", "-o", filepath.Join(dir, "no\nsuch", "x.csv")}, 2, `no\nsuch`},
		{"merge a FIFO (hung)", []string{"merge", fifo}, 2, "not a regular file"},
		{"merge a link to /dev/zero", []string{"merge", zero}, 2, "not a regular file"},
		{"reproduce --merge of a FIFO (hung)", []string{"reproduce", "--merge", fifoDir, "--out", filepath.Join(dir, "out1")}, 2, "not a regular file"},
		{"reproduce --merge of /dev/zero (out of memory)", []string{"reproduce", "--merge", zeroDir, "--out", filepath.Join(dir, "out2")}, 2, "not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runWatched(t, context.Background(), tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tc.code, errOut)
			}
			if tc.code == 0 {
				if out == "" {
					t.Error("no output")
				}
				return
			}
			if out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, tc.want) {
				t.Errorf("stdout %q, stderr %q: want nothing on stdout and one line with %q", out, errOut, tc.want)
			}
		})
	}
	for _, d := range []string{"out1", "out2"} {
		if _, err := os.Stat(filepath.Join(dir, d)); !os.IsNotExist(err) {
			t.Errorf("a refused merge left %s: %v", d, err)
		}
	}
}

// A shard of the reproduction writing to a folder it creates (-o
// NEW/DIR/) and stopped (here by a context cancelled before the work, as a
// signal at its first check) leaves no folder: the run's scope removes the
// folders ShardOut created.
func TestReproduceShardStoppedLeavesNoFolder(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, errOut, code := runWatched(t, ctx, "reproduce", "--scale", "smoke", "--shard", "1/2", "-o", filepath.Join(dir, "new", "dir")+"/")
	if code == 0 || out != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %v (stderr %q)", entries, errOut)
	}
}
