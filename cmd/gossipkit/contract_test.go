package main

import (
	"bytes"
	"fmt"
	"io"
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
		if ready := os.Getenv("GOSSIPKIT_READY"); ready != "" {
			started = func() { os.WriteFile(ready, nil, 0o644) }
		}
		code := run(os.Args[1:], os.Stdout, os.Stderr)
		if f := os.Getenv("GOSSIPKIT_PEAK_FILE"); f != "" {
			// The command's own /proc/self/status (VmHWM: its peak since
			// the exec), for the memory tests.
			if b, err := os.ReadFile("/proc/self/status"); err == nil {
				os.WriteFile(f, b, 0o644)
			}
		}
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// The bad-input contract, for every command (and subcommand): a value
// that does not parse, an out-of-range value, an unknown flag, a flag given
// twice and an unusable output path each give exit 2, nothing on stdout and
// one line on stderr naming the flag.
func TestContractEveryCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, []byte("x"), 0o644)
	noDir := filepath.Join(t.TempDir(), "missing", "out.csv")
	for _, c := range []struct {
		cmd             []string // command and the arguments it needs
		flag, bad, huge string   // a flag, a value that does not parse, one out of range
		out             string   // its output flag ("" if none)
	}{
		{[]string{"pdrop", "-c", "4", "-s", "2"}, "-n", "x", "0", "-o"},
		{[]string{"gamma-check"}, "--s-max", "x", "0", "-o"},
		{[]string{"transitions"}, "-s", "y", "500", "-o"},
		{[]string{"ode"}, "--t-max", "x", "-1", "-o"},
		{[]string{"optimal"}, "--level", "x", "2", "-o"},
		{[]string{"chain"}, "-N", "x", "1", "-o"},
		{[]string{"sim"}, "--reps", "x", "0", "-o"},
		{[]string{"plan"}, "--level", "x", "1.5", "-o"},
		{[]string{"merge", file}, "--format", "", "xml", "-o"},
		{[]string{"tree", "build"}, "--degree", "x", "0", "-o"},
		{[]string{"tree", "fail"}, "--fraction", "x", "1", "-o"},
		{[]string{"tree", "sweep"}, "--seeds", "x", "0", "--out"},
		{[]string{"plot", "fig4"}, "--step", "x", "0", "--out"},
		{[]string{"plot", "fig7"}, "--reps", "x", "-3", "--out"},
		{[]string{"plot", "fig8"}, "-N", "x", "1", "--out"},
		{[]string{"plot", "optimal"}, "--opt-reps", "x", "0", "--out"},
		{[]string{"reproduce"}, "--workers", "x", "0", "--out"},
		{[]string{"version"}, "", "", "", ""},
	} {
		with := func(extra ...string) []string { return append(append([]string{}, c.cmd...), extra...) }
		cases := [][]string{with("--nope", "1")}
		if c.flag != "" {
			if c.bad != "" {
				cases = append(cases, with(c.flag, c.bad))
			}
			cases = append(cases, with(c.flag, c.huge), with(c.flag, c.huge, c.flag, c.huge))
		}
		switch c.out {
		case "-o":
			cases = append(cases, with("-o", noDir), with("-o", t.TempDir()))
		case "--out":
			cases = append(cases, with("--out", filepath.Join(file, "sub")))
		}
		for _, args := range cases {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				want := args[len(args)-2] // the flag named in the one line
				if want == "-o" || want == "--out" || args[len(args)-1] == "1" && want == "--nope" {
					want = strings.TrimLeft(want, "-")
				}
				expectUsage(t, nil, args, want)
			})
		}
	}
	// Specific checks that the table above does not make.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"gamma-check", "--prove", "--n-max", "9"}, "--n-max"},
		{[]string{"tree", "build", "-N", "5", "--nodes", "6"}, "given twice"},
		{[]string{"tree", "fail", "-N", "10", "--fraction", "0.9"}, "fewer than 2"},
		{[]string{"plot", "fig9"}, "fig9"},
		{[]string{"plot", "optimal", "-c", "20", "--opt-s", "5,30"}, "--opt-s"},
		{[]string{"plot", "fig4", "--reps", "3"}, "--reps"},
		{[]string{"plot", "fig4", "--cs", "250", "--ss", "300", "--n-max", "400"}, "no curve"},
		{[]string{"plot", "fig4", "--ss", "6000"}, "--ss"},
		{[]string{"reproduce", "--scale", "huge"}, "--scale"},
		{[]string{"pdrop", "-n", "7", "-c", "4", "-s", "5"}, "s ≤ c"},
		{[]string{"ode", "--atol", "1e300"}, "--atol"},
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
			var stdout, stderr bytes.Buffer
			cmd, err := startMain(t.TempDir(), tc.args(dir), &stdout, &stderr, false)
			if err != nil {
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

// startMain starts this test binary as the gossipkit command with args
// (in a process group of its own if group) and returns once its signal
// handler is in place (it writes a file in readyDir then), so that a
// signal sent after it is the command's to handle, however loaded the
// machine.
func startMain(readyDir string, args []string, stdout, stderr io.Writer, group bool) (*exec.Cmd, error) {
	ready := filepath.Join(readyDir, "ready")
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "GOSSIPKIT_AS_MAIN=1", "GOSSIPKIT_READY="+ready)
	if group {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	for start := time.Now(); time.Since(start) < time.Minute; time.Sleep(time.Millisecond) {
		if _, err := os.Stat(ready); err == nil {
			return cmd, nil
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	return nil, fmt.Errorf("%v: not started after a minute", args)
}
