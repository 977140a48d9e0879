package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the signal tests run this test binary as the gossipkit
// command itself (GOSSIPKIT_AS_MAIN=1), so that real signals reach the real
// main.
func TestMain(m *testing.M) {
	if os.Getenv("GOSSIPKIT_AS_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// The bad-input contract, for every command: a bad value, an out-of-range
// value, an unknown flag, a flag given twice and an unusable -o each give
// exit 2, nothing on stdout and one line on stderr naming the flag.
func TestContractEveryCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, []byte("x"), 0o644)
	noDir := filepath.Join(t.TempDir(), "missing", "out.csv")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"pdrop", "-n", "x", "-c", "4", "-s", "2"}, "-n"},
		{[]string{"pdrop", "-n", "7", "-c", "4", "-s", "9"}, "s ≤ c"},
		{[]string{"pdrop", "-n", "7", "-c", "4", "-s", "2", "--bogus"}, "bogus"},
		{[]string{"pdrop", "-n", "7", "-n", "8", "-c", "4", "-s", "2"}, "given twice"},
		{[]string{"pdrop", "-n", "7", "-c", "4", "-s", "2", "-o", noDir}, "-o"},
		{[]string{"gamma-check", "--s-max", "x"}, "--s-max"},
		{[]string{"gamma-check", "--s-max", "0"}, "--s-max"},
		{[]string{"gamma-check", "--prove", "--n-max", "9"}, "--n-max"},
		{[]string{"gamma-check", "-o", file + "/sub"}, "-o"},
		{[]string{"transitions", "-s", "y"}, "-s"},
		{[]string{"transitions", "-s", "500"}, "-s"},
		{[]string{"transitions", "--pdrop", "exact", "--pdrop", "gamma"}, "given twice"},
		{[]string{"transitions", "-o", t.TempDir()}, "-o"},
		{[]string{"ode", "--t-max", "-1"}, "--t-max"},
		{[]string{"ode", "--zzz"}, "zzz"},
		{[]string{"ode", "-o", noDir}, "-o"},
		{[]string{"optimal", "-c", "500"}, "-"},
		{[]string{"optimal", "--level", "2"}, "--level"},
		{[]string{"optimal", "-o", noDir}, "-o"},
		{[]string{"chain", "-N", "1"}, "-N"},
		{[]string{"chain", "--dt", "x"}, "--dt"},
		{[]string{"chain", "-o", noDir}, "-o"},
		{[]string{"sim", "-N", "1"}, "-N"},
		{[]string{"sim", "--reps", "0"}, "--reps"},
		{[]string{"sim", "--seed", "1", "--seed", "2"}, "given twice"},
		{[]string{"sim", "-o", noDir}, "-o"},
		{[]string{"merge", "--format", "xml", file}, "--format"},
		{[]string{"tree", "build", "--degree", "0"}, "--degree"},
		{[]string{"tree", "fail", "--fraction", "1"}, "--fraction"},
		{[]string{"tree", "build", "-N", "5", "--nodes", "6"}, "given twice"},
		{[]string{"tree", "build", "-o", noDir}, "-o"},
		{[]string{"plot", "fig4", "--step", "0"}, "--step"},
		{[]string{"plot", "fig9"}, "fig9"},
		{[]string{"plot", "fig4", "--out", file}, "--out"},
		{[]string{"reproduce", "--scale", "huge"}, "--scale"},
		{[]string{"reproduce", "--out", filepath.Join(file, "sub")}, "--out"},
		{[]string{"version", "--x"}, "x"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			expectUsage(t, nil, tc.args, tc.want)
		})
	}
}

// A long command stopped by SIGTERM (what Kubernetes and Slurm send) or
// SIGINT: exit 143 or 130 within a few seconds, one line on stderr, and no
// file, temporary file or folder left where the output would have gone.
func TestSignalsLeaveNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command for a few seconds")
	}
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
		code int
		args func(dir string) []string
	}{
		{"reproduce SIGTERM", syscall.SIGTERM, 143, func(dir string) []string { return []string{"reproduce", "--out", filepath.Join(dir, "out")} }},
		{"sim SIGINT", syscall.SIGINT, 130, func(dir string) []string {
			return []string{"sim", "--reps", "400", "-o", filepath.Join(dir, "sim.csv")}
		}},
		{"chain SIGTERM", syscall.SIGTERM, 143, func(dir string) []string {
			return []string{"chain", "-N", "600", "-o", filepath.Join(dir, "chain.csv")}
		}},
		{"tree SIGTERM", syscall.SIGTERM, 143, func(dir string) []string {
			return []string{"tree", "fail", "--seeds", "200", "-o", filepath.Join(dir, "tree.csv")}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(os.Args[0], tc.args(dir)...)
			cmd.Env = append(os.Environ(), "GOSSIPKIT_AS_MAIN=1")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(1500 * time.Millisecond)
			sent := time.Now()
			cmd.Process.Signal(tc.sig)
			cmd.Wait()
			if took := time.Since(sent); took > 3*time.Second {
				t.Errorf("stopped %v after the signal", took)
			}
			if code := cmd.ProcessState.ExitCode(); code != tc.code || stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d and one line", code, stdout.String(), stderr.String(), tc.code)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 0 {
				t.Errorf("left behind: %v", entries)
			}
		})
	}
}
