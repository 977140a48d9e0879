package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestSimMaxMemory: the workers grow the memory, not the output, so sim
// lowers them to what --max-memory allows and refuses a run that one
// worker cannot fit, before any work. The run (N = 2^21, Markov, rounds
// schedule): 4N bytes of permutation and three bitsets of N/8 bytes,
// 8.75 MiB a worker (Config.WorkerMemory; 12N = 24 MiB before the
// bitsets), so 20 MiB holds 2 of the 6 asked; its peak resident memory,
// read by the kernel (the child's rusage maxrss, not a time), stays within
// the bound, 1.5× the budget plus 100 MB (measured before the
// bitsets, at 64 MiB: 71 MiB alone, 106 MiB on a loaded machine; the 6
// workers 111 MiB; at the N = 2^26 with 12 workers, 7.1 GB).
func TestSimMaxMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command twice in a subprocess")
	}
	t.Parallel()
	run := func(args ...string) (stderr string, code int, maxRSS int64) {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "GOSSIPKIT_AS_MAIN=1")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			maxRSS = ru.Maxrss << 10 // KiB on Linux
		}
		return errb.String(), code, maxRSS
	}
	base := []string{"sim", "--model", "markov", "-N", "2097152", "-n", "40", "-c", "10", "-s", "5", "--rounds", "1", "--reps", "6", "--workers", "6", "-o", t.TempDir() + "/out.csv"}
	stderr, code, rss := run(append(base, "--max-memory", "20MiB")...)
	t.Logf("--max-memory 20MiB: exit %d, peak RSS %.0f MiB, stderr %q", code, float64(rss)/(1<<20), stderr)
	if code != 0 || !strings.Contains(stderr, "--workers 6 lowered to 2 to stay within 20.0 MiB") {
		t.Errorf("exit %d, stderr %q: want the workers lowered to 2", code, stderr)
	}
	if rss > 3*(20<<20)/2+100e6 {
		t.Errorf("peak RSS %.0f MiB, beyond 1.5 × 20 MiB + 100 MB", float64(rss)/(1<<20))
	}
	// 8.75 MiB and the few hundred bytes of 6 one-round replications and
	// their summary: 8.8 MiB to one decimal.
	stderr, code, _ = run(append(base, "--max-memory", "8MiB")...)
	if want := "gossipkit sim: --max-memory 8.0 MiB: the run needs about 8.8 MiB with one worker; lower -N, --reps or --rounds, or raise --max-memory\n"; code != 2 || stderr != want {
		t.Errorf("exit %d, stderr %q; want 2, %q", code, stderr, want)
	}
}
