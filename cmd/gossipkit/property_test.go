package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// A flag of a command and the values the property test draws for it:
// small valid values (so that a valid combination runs in milliseconds),
// boundaries, and invalid ones (zero, negative, huge, NaN, not a number).
type flagPool struct {
	name   string
	values []string // "" for a boolean flag given without a value
	// invalid are values out of range or not parsing (written "!v" in
	// the table below).
	invalid []string
}

// bad lists values that no numeric flag accepts.
var bad = []string{"x", "-1", "NaN", "1e999", "99999999999999999999"}

func pool(name string, values ...string) flagPool {
	f := flagPool{name: name}
	for _, v := range values {
		if w, ok := strings.CutPrefix(v, "!"); ok {
			f.invalid = append(f.invalid, w)
		} else {
			f.values = append(f.values, v)
		}
	}
	f.invalid = append(f.invalid, bad...)
	if len(f.values) > 0 && f.values[0] == "" {
		f.invalid = nil
	}
	return f
}

// shuffle pools keep n, c, s small: the exact P_drop costs O(s²)
// big-number products, and the protocol N·c cache entries. Values that
// conflict with others (c > n) are in the valid lists: the combination is
// what is tested.
var (
	smallN = []string{"20", "30", "5", "2", "!1", "!0", "!1073741825"}
	smallC = []string{"5", "10", "1", "20", "21", "!0"}
	smallS = []string{"2", "1", "5", "6", "!0", "!5001"}
)

// commandPools are the flags of each command the test combines; out is
// the output flag ("-o" or "--out") or "".
var commandPools = []struct {
	cmd   []string
	flags []flagPool
	out   string
	// slowIfValid: a valid combination would run for a minute (reproduce,
	// tree sweep): the test forces one invalid value.
	slowIfValid bool
	// slowDefaults: the defaults are a long run (sim: 2500 nodes, 100 ×
	// 2000 rounds): a flag not drawn gets its first, small, value.
	slowDefaults bool
}{
	{[]string{"pdrop"}, []flagPool{
		pool("-n", "7", "1:30", "64", "!5:1", "!7:9:0", "!1:100000", "!1073741825"),
		pool("-c", "4", "1:5", "1", "100"),
		pool("-s", "2", "1", "1:3", "5", "!6000"),
		pool("--enumerate", ""),
		pool("--format", "text", "json", "csv", "markdown", "!xml"),
	}, "-o", false, false},
	{[]string{"gamma-check"}, []flagPool{
		pool("--s-max", "1", "3", "12", "!5001"),
		pool("--c-max", "1", "5", "!2000000"),
		pool("--n-max", "2", "8", "!1", "!2000000"),
		pool("--prove", ""),
		pool("--format", "text", "json", "markdown"),
	}, "-o", false, false},
	{[]string{"transitions"}, []flagPool{
		pool("-n", smallN...), pool("-c", smallC...), pool("-s", smallS...),
		pool("--pdrop", "simplified", "gamma", "exact", "!bogus"),
		pool("--format", "text", "csv", "json", "markdown"),
	}, "-o", false, false},
	{[]string{"ode"}, []flagPool{
		pool("-N", "50", "2", "1073741824", "!1", "!1073741825"),
		pool("-n", smallN...), pool("-c", smallC...), pool("-s", smallS...),
		pool("--t-max", "10", "5", "1e9", "!0", "!+Inf"),
		pool("--dt", "1", "0.5", "20", "1e-9"),
		pool("--rtol", "1e-10", "1e-14", "!1e-300", "!1", "!0"),
		pool("--atol", "1e-13", "0", "!2"),
		pool("--initial", "1", "2", "51"),
		pool("--pdrop", "simplified", "exact", "!bogus"),
		pool("--refined", ""),
		pool("--time", "continuous", "discrete", "!bogus"),
		pool("--format", "csv", "text", "json", "markdown"),
	}, "-o", false, false},
	{[]string{"optimal"}, []flagPool{
		pool("-n", "100", "30", "20", "1073741824", "!1"),
		pool("-c", "20", "1", "99", "100", "!0"),
		pool("-N", "100", "2", "!1", "!1073741825"),
		pool("--level", "0.99", "0.9", "0.001", "!0", "!1"),
		pool("--format", "text", "json", "csv", "markdown"),
	}, "-o", false, false},
	{[]string{"chain"}, []flagPool{
		pool("-N", "10", "2", "6000", "!1"),
		pool("-n", smallN...), pool("-c", smallC...), pool("-s", smallS...),
		pool("--initial", "1", "2", "11", "!0"),
		pool("--t-max", "10", "5", "1e12", "!0"),
		pool("--dt", "1", "0.5", "11", "!0"),
		pool("--time", "continuous", "shuffles", "!bogus"),
		pool("--pdrop", "simplified", "gamma", "!bogus"),
		pool("--replication-only", ""),
		pool("--level", "0.5", "1", "!2"),
		pool("--format", "csv", "text", "json", "markdown"),
	}, "-o", false, true},
	{[]string{"sim"}, []flagPool{
		pool("-N", "20", "30", "2", "!1", "!134217729"),
		pool("-n", smallN...), pool("-c", smallC...), pool("-s", smallS...),
		pool("--warmup", "2", "0", "!10000001"),
		pool("--rounds", "5", "1", "10000000", "!0"),
		pool("--reps", "2", "1", "!0", "!10000001"),
		pool("--initial", "1", "2", "21"),
		pool("--ticks", "4", "!1"),
		pool("--schedule", "rounds", "async", "continuous", "!bogus"),
		pool("--topology", "full", "regular:4", "regular:19", "regular:3", "torus:0.3", "torus:1e-10", "!regular:-2", "!torus:0.6", "!bogus"),
		pool("--model", "protocol", "markov", "lumped", "!bogus"),
		pool("--fail", "0", "0", "0.5", "!1"),
		pool("--workers", "1", "2", "!0", "!5000"),
		pool("--shard", "1/2", "3/3", "!3/2", "!0/0"),
		pool("--shards", "3"),
		pool("--check", ""),
		pool("--format", "csv", "text", "json", "markdown"),
	}, "-o", false, true},
	{[]string{"tree", "build"}, []flagPool{
		pool("-N", "20", "1", "2", "!0", "!5000000"),
		pool("--degree", "2", "1", "!0"),
		pool("--join", "first", "root", "closest", "!bogus"),
		pool("--redirect", "random", "distance", "!bogus"),
		pool("--seeds", "2", "1", "!0", "!1000000000"),
		pool("--shard", "1/2", "2/2", "!3/2"),
		pool("--shards", "2"),
		pool("--fraction", "!0.1"), // not a flag of build
		pool("--format", "text", "json", "csv", "markdown"),
	}, "-o", false, true},
	{[]string{"tree", "fail"}, []flagPool{
		pool("-N", "20", "2", "3", "!0"),
		pool("--degree", "2", "!0"),
		pool("--seeds", "2", "!0"),
		pool("--fraction", "0.1", "0", "0.99", "!1"),
		pool("--repair", "breakout", "preservation", "election", "!bogus"),
		pool("--elect", "xor", "lifetime", "!bogus"),
		pool("--shard", "2/2"),
		pool("--format", "text", "json"),
	}, "-o", false, true},
	{[]string{"tree", "sweep"}, []flagPool{
		pool("--seeds", "!0", "!1000000000"),
		pool("--seed", "!x"),
		pool("-N", "!20"), pool("--format", "!csv"), pool("-o", "!f"), // not flags of sweep
	}, "--out", true, false},
	{[]string{"plot", "fig4"}, []flagPool{
		pool("--cs", "5,10", "250", "5000,6000", "1000000", "!0"),
		pool("--ss", "1,2", "300", "10", "!6000"),
		pool("--n-max", "30", "10", "!0", "!2000000"),
		pool("--step", "5", "!0"),
		pool("--reps", "!2"), // not used by fig4
		pool("--workers", "1", "!0"),
	}, "--out", false, true},
	{[]string{"plot", "fig7"}, []flagPool{
		pool("-N", "20", "!1"), pool("-c", "5", "!0"), pool("-s", "2", "6"),
		pool("--ns", "20", "5", "!0"),
		pool("--warmup", "2", "!-1"), pool("--rounds", "5", "!0"), pool("--reps", "2", "!0"),
		pool("--cs", "!5"), // fig4 only
	}, "--out", false, true},
	{[]string{"plot", "optimal"}, []flagPool{
		pool("-c", "10", "1", "40"), pool("--ns", "30", "5"),
		pool("--opt-N", "20", "!1"), pool("--opt-s", "2,4", "20", "!0"),
		pool("--opt-reps", "1", "!0"), pool("--opt-rounds", "5", "!0"),
		pool("-s", "!2"), // fig7, fig8 only
	}, "--out", false, true},
	{[]string{"reproduce"}, []flagPool{
		pool("--scale", "!bogus", "!huge"),
		pool("--workers", "!0", "!5000"),
		pool("--seed", "!x"),
	}, "--out", true, false},
}

// sizeFlags are the flags whose defaults make a long run.
var sizeFlags = map[string]bool{"-N": true, "-n": true, "-c": true, "-s": true, "--warmup": true, "--rounds": true,
	"--reps": true, "--seeds": true, "--t-max": true, "--dt": true, "--cs": true, "--ss": true, "--n-max": true,
	"--step": true, "--ns": true, "--opt-N": true, "--opt-s": true, "--opt-reps": true, "--opt-rounds": true}

// outPaths builds the -o / --out values the test draws, inside dir: a new
// file, a file in a missing folder, a folder, a FIFO, a symbolic link, a
// device, a name of 241 bytes, a deep new folder, and none.
func outPaths(t *rapid.T, dir string) []string {
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("keep"), 0o644)
	os.Symlink(target, filepath.Join(dir, "link"))
	// A device (like /dev/null, made here: a regression must not replace
	// the machine's); without root a second FIFO stands in.
	dev := filepath.Join(dir, "null")
	if syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3) != nil {
		syscall.Mkfifo(dev, 0o644)
	}
	// The usable ones (none, a new file) three times: half the draws.
	return []string{"", filepath.Join(dir, "out"), "", filepath.Join(dir, "out"), "", filepath.Join(dir, "out"),
		filepath.Join(dir, "missing", "out"), dir, fifo,
		filepath.Join(dir, "link"), dev, filepath.Join(dir, strings.Repeat("x", 241)),
		filepath.Join(dir, "a", "b", "c") + "/"}
}

// snapshot lists every path under dir with its size.
func snapshot(dir string) map[string]int64 {
	m := map[string]int64{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != dir {
			info, _ := d.Info()
			if info != nil {
				m[p] = info.Size()
			}
		}
		return nil
	})
	return m
}

// The CLI contract on random combinations of flag values, per command:
// exit 0 or 2 (never 1, never a panic), within a bounded time; on exit 2
// nothing on stdout, one line on stderr starting "gossipkit CMD:" that
// names no internal field (Config.…, Settings.…); and nothing left in the
// output folder except, after a success, the output itself. Each command
// gets 40 draws (-rapid.checks raises it).
func TestPropertyFlagCombinations(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a few hundred commands")
	}
	// 40 draws a command keep the test near 15 s on 2 cores; -rapid.checks
	// on the command line raises it.
	if f := flag.Lookup("rapid.checks"); f != nil && f.Value.String() == "100" {
		f.Value.Set("40")
		defer f.Value.Set("100")
	}
	// A fixed, logged seed (rapid draws a random one by default, so the
	// verdict would change from run to run); -rapid.seed on the command
	// line chooses another. No fail files in the source tree.
	if f := flag.Lookup("rapid.seed"); f != nil && f.Value.String() == "0" {
		f.Value.Set("20261201")
		defer f.Value.Set("0")
	}
	if f := flag.Lookup("rapid.nofailfile"); f != nil {
		f.Value.Set("true")
	}
	t.Logf("rapid seed %s (-rapid.seed)", flag.Lookup("rapid.seed").Value)
	for _, c := range commandPools {
		t.Run(strings.Join(c.cmd, " "), func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				dir, err := os.MkdirTemp("", "gkprop")
				if err != nil {
					rt.Fatal(err)
				}
				defer os.RemoveAll(dir)
				outs := outPaths(rt, dir)
				args := append([]string{}, c.cmd...)
				// Mode 0: the first two values of each flag (chosen to go
				// together) and a usable output; 1: valid values, which
				// may conflict; 2: one flag invalid; 3: anything.
				mode := rapid.IntRange(0, 3).Draw(rt, "mode")
				badFlag := -1
				if mode == 2 || c.slowIfValid {
					badFlag = rapid.IntRange(0, len(c.flags)-1).Draw(rt, "bad flag")
				}
				for i, f := range c.flags {
					boolean := len(f.values) > 0 && f.values[0] == ""
					if i != badFlag && !rapid.Bool().Draw(rt, "use "+f.name) {
						// Not drawn: the command's default, except where
						// the default is a long run: then the first
						// (small) value.
						if c.slowDefaults && sizeFlags[f.name] && len(f.values) > 0 {
							args = append(args, f.name, f.values[0])
						}
						continue
					}
					if boolean {
						args = append(args, f.name)
						continue
					}
					var vals []string
					switch {
					case i == badFlag && len(f.invalid) > 0:
						vals = f.invalid
					case mode == 3 || len(f.values) == 0:
						vals = append(append(vals, f.values...), f.invalid...)
					case mode == 0:
						vals = f.values[:min(2, len(f.values))]
					default:
						vals = f.values
					}
					args = append(args, f.name, rapid.SampledFrom(vals).Draw(rt, f.name))
				}
				out := ""
				if c.out != "" {
					if mode == 0 {
						outs = outs[:2]
					}
					out = rapid.SampledFrom(outs).Draw(rt, "out")
					if out != "" {
						args = append(args, c.out, out)
					}
				}
				vars := map[string]string{}
				if rapid.IntRange(0, 4).Draw(rt, "env") == 0 {
					vars["JOB_COMPLETION_INDEX"] = rapid.SampledFrom([]string{"0", "1", "7", "x"}).Draw(rt, "index")
				}
				before := snapshot(dir)
				// Default outputs (a part file, plot's ".") go to the
				// working folder: make it dir for this run.
				wd, _ := os.Getwd()
				os.Chdir(dir)
				defer os.Chdir(wd)
				checkContract(rt, args, vars, out, dir, before)
			})
		})
	}
}

func checkContract(t *rapid.T, args []string, vars map[string]string, out, dir string, before map[string]int64) {
	var o, e bytes.Buffer
	en := &env{Stdout: &o, Stderr: &e, Getenv: func(k string) string { return vars[k] }}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	code := runEnv(ctx, en, args)
	if os.Getenv("PROPDEBUG") != "" {
		fmt.Fprintf(os.Stderr, "PROP %d %q %s", code, args, e.String())
	}
	took := time.Since(start)
	cmd := args[0]
	stderr := e.String()
	switch {
	case took > 15*time.Second:
		t.Fatalf("%q %v: took %v", args, vars, took)
	case code != 0 && code != 2:
		t.Fatalf("%q %v: exit %d, stderr %q", args, vars, code, stderr)
	case code == 2 && (o.Len() != 0 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "gossipkit "+cmd)):
		t.Fatalf("%q %v: exit 2, stdout %d bytes, stderr %q; want one line", args, vars, o.Len(), stderr)
	case strings.Contains(stderr, "Config.") || strings.Contains(stderr, "Settings."):
		t.Fatalf("%q: names an internal field: %q", args, stderr)
	}
	after := snapshot(dir)
	for p := range after {
		if _, ok := before[p]; ok {
			continue
		}
		// After a success new files are the output (a part file or a
		// figure may go to the working folder, which is dir); a hidden
		// temporary is never left.
		if code == 0 && !strings.HasPrefix(filepath.Base(p), ".") {
			continue
		}
		t.Fatalf("%q %v: exit %d left %s (stderr %q)", args, vars, code, p, stderr)
	}
	for p, size := range before {
		if after[p] != size && !(code == 0 && p == filepath.Clean(out)) {
			t.Fatalf("%q: exit %d changed %s", args, code, p)
		}
	}
	if code == 0 && out == "" && o.Len() == 0 && !slices.Contains(args, "--shard") && vars["JOB_COMPLETION_INDEX"] == "" && cmd != "plot" {
		t.Fatalf("%q: exit 0 and no output", args)
	}
}
