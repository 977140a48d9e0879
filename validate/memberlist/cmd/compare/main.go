// Command compare runs the real memberlist in the harness at the settings
// of the comparison table and writes the table, measured against gossipkit's
// broadcast model, as Markdown:
//
//	cd validate/memberlist && go run ./cmd/compare -o ../../docs/memberlist-validation.md
//
// Flags: -o FILE (required; "-" for standard output), -seed S (default 1),
// -scale F in (0, 1] (default 1: the broadcasts of each setting times F,
// at least one per cluster), -part all|probe|repair|tcp (default all: the
// whole document; probe, repair or tcp: that section alone, run and
// written into FILE in place of its old text, or appended, the rest of
// FILE kept as it was). Progress goes to standard error. Exit status:
// 0 done, 1 a run or write failed (FILE untouched), 2 bad flags, 130 or 143
// on SIGINT or SIGTERM (FILE untouched).
//
// The harness runs on the virtual clock of testing/synctest, which only a
// test can enter, so the command runs its work as the single test of
// testing.Main.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gossipkit/gossipkit/broadcast"
	"github.com/gossipkit/gossipkit/validate/memberlist/harness"
)

// settings are the table's rows: the three of issue 41's measured list
// (who gets the message), memberlist's LAN fanout and multiplier without
// loss with random and with aligned tickers (when it arrives, and what the
// phases do), a setting whose p_miss is near one half, and the WAN fanout.
var settings = []harness.Setting{
	{Nodes: 200, Fanout: 3, RetransmitMult: 1, Loss: 0.2, Failed: 0.1, Clusters: 4, Broadcasts: 500},
	{Nodes: 500, Fanout: 2, RetransmitMult: 1, Loss: 0.3, Clusters: 2, Broadcasts: 500},
	{Nodes: 100, Fanout: 3, RetransmitMult: 2, Loss: 0.5, Failed: 0.05, Clusters: 4, Broadcasts: 500},
	{Nodes: 200, Fanout: 3, RetransmitMult: 4, Clusters: 4, Broadcasts: 500},
	{Nodes: 200, Fanout: 3, RetransmitMult: 4, Clusters: 4, Broadcasts: 500, Phases: harness.AlignedPhases},
	{Nodes: 50, Fanout: 3, RetransmitMult: 2, Clusters: 4, Broadcasts: 500},
	{Nodes: 200, Fanout: 4, RetransmitMult: 4, Loss: 0.1, Failed: 0.05, Interval: 500 * time.Millisecond, Clusters: 4, Broadcasts: 250},
}

// probeSettings are run with probing off and on (harness.ProbePair): the
// first setting's who-gets-it at a loss, memberlist's LAN fanout and
// multiplier without loss, and a setting whose p_miss is near one half.
var probeSettings = []harness.Setting{
	{Nodes: 200, Fanout: 3, RetransmitMult: 1, Loss: 0.2, Clusters: 2, Broadcasts: 500},
	{Nodes: 200, Fanout: 3, RetransmitMult: 4, Clusters: 2, Broadcasts: 500},
	{Nodes: 50, Fanout: 3, RetransmitMult: 2, Clusters: 4, Broadcasts: 500},
}

// probeInterval is memberlist's LAN ProbeInterval, the probe settings'.
const probeInterval = time.Second

// repairSettings run anti-entropy under packet loss.
var repairSettings = []harness.Setting{
	{Nodes: 50, Fanout: 2, RetransmitMult: 1, Loss: 0.2, Clusters: 10, Broadcasts: 100, SyncInterval: 5 * time.Second},
	{Nodes: 50, Fanout: 2, RetransmitMult: 1, Loss: 0.3, Clusters: 10, Broadcasts: 100, SyncInterval: 5 * time.Second},
}

// modelReps is the replications of each model Monte Carlo; repairReps of
// the repair's.
const (
	modelReps  = 20000
	repairReps = 100_000
)

func main() {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(new(bytes.Buffer))
	out := fs.String("o", "", "output file (- for standard output)")
	seed := fs.Uint64("seed", 1, "seed of the harness's draws and of the model's Monte Carlo")
	scale := fs.Float64("scale", 1, "share of each setting's broadcasts to run, in (0, 1]")
	part := fs.String("part", "all", "all, probe, repair or tcp")
	if err := fs.Parse(os.Args[1:]); err != nil {
		usage(err.Error())
	}
	switch {
	case fs.NArg() > 0:
		usage(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	case *out == "":
		usage("-o FILE is required")
	case !(*scale > 0 && *scale <= 1):
		usage(fmt.Sprintf("-scale %g: valid range (0, 1]", *scale))
	case *part != "all" && *part != "probe" && *part != "repair" && *part != "tcp":
		usage(fmt.Sprintf("-part %q: not all, probe, repair or tcp", *part))
	case *part != "all" && *out == "-":
		usage(fmt.Sprintf("-part %s needs -o FILE, the document to write the section into", *part))
	}
	cmd := "go run ./cmd/compare " + strings.Join(os.Args[1:], " ")
	os.Args = os.Args[:1] // testing.Main parses the flags again
	testing.Main(func(string, string) (bool, error) { return true, nil },
		[]testing.InternalTest{{Name: "compare", F: func(t *testing.T) {
			os.Exit(run(t, *out, *seed, *scale, *part, cmd))
		}}}, nil, nil)
}

func usage(msg string) {
	fmt.Fprintf(os.Stderr, "compare: %s (usage: compare -o FILE [-seed S] [-scale F] [-part all|probe|repair|tcp])\n", msg)
	os.Exit(2)
}

func run(t *testing.T, out string, seed uint64, scale float64, part, cmd string) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	var status atomic.Int32 // the exit status a signal asks for
	go func() {
		if sig, ok := <-sigs; ok {
			status.Store(130)
			if sig == syscall.SIGTERM {
				status.Store(143)
			}
			cancel()
		}
	}()
	fail := func(what string, err error) int {
		if errors.Is(err, context.Canceled) && status.Load() != 0 {
			fmt.Fprintln(os.Stderr, "compare: interrupted; nothing written")
			return int(status.Load())
		}
		fmt.Fprintf(os.Stderr, "compare: %s: %v\n", what, err)
		return 1
	}
	scaled := func(s harness.Setting) harness.Setting {
		s.Broadcasts = max(1, int(math.Round(float64(s.Broadcasts)*scale)))
		return s
	}
	meta := func(start time.Time) harness.Meta {
		return harness.Meta{Date: time.Now().UTC().Format("2006-01-02 15:04 UTC"), Machine: machine(), Command: cmd, Seconds: time.Since(start).Seconds()}
	}
	var sections []string
	if part == "all" {
		start := time.Now()
		var comps []*harness.Comparison
		for i, s := range settings {
			s.Seed = seed + uint64(i)
			s = scaled(s)
			t0 := time.Now()
			res, err := harness.Run(ctx, t, s)
			if err == nil {
				var c *harness.Comparison
				ms := seed + 1000 + uint64(i)
				c, err = harness.Compare(ctx, res, modelReps, ms, harness.RoundsModel(modelReps, ms+1000))
				if err == nil {
					err = c.AddAsync(ctx, res, harness.AsyncModel(modelReps, ms+2000))
				}
				comps = append(comps, c)
			}
			if err != nil {
				return fail(fmt.Sprintf("setting %d", i+1), err)
			}
			fmt.Fprintf(os.Stderr, "setting %d of %d (N = %d, k = %d, mult %d, %d × %d broadcasts): %.1f s\n",
				i+1, len(settings), s.Nodes, s.Fanout, s.RetransmitMult, s.ClustersOrDefault(), s.Broadcasts, time.Since(t0).Seconds())
		}
		var b bytes.Buffer
		if err := harness.WriteMarkdown(&b, meta(start), comps); err != nil {
			return fail("write", err)
		}
		sections = append(sections, b.String())
	}
	if part == "all" || part == "probe" {
		start := time.Now()
		var pairs []harness.ProbePair
		for i, s := range probeSettings {
			s.Seed = seed + 100 + uint64(i)
			s = scaled(s)
			t0 := time.Now()
			var p harness.ProbePair
			for _, probe := range []time.Duration{0, probeInterval} {
				s.ProbeInterval = probe
				res, err := harness.Run(ctx, t, s)
				if err != nil {
					return fail(fmt.Sprintf("probe setting %d", i+1), err)
				}
				ms := seed + 1100 + uint64(i)
				c, err := harness.Compare(ctx, res, modelReps, ms, harness.AsyncModel(modelReps, ms+1000))
				if err != nil {
					return fail(fmt.Sprintf("probe setting %d", i+1), err)
				}
				if probe == 0 {
					p.Off = c
				} else {
					p.On = c
				}
			}
			pairs = append(pairs, p)
			fmt.Fprintf(os.Stderr, "probe setting %d of %d (N = %d, k = %d, mult %d, off and on): %.1f s\n",
				i+1, len(probeSettings), s.Nodes, s.Fanout, s.RetransmitMult, time.Since(t0).Seconds())
		}
		sec, err := harness.ProbeMarkdown(meta(start), pairs)
		if err != nil {
			return fail("write", err)
		}
		sections = append(sections, sec)
	}
	if part == "all" || part == "repair" {
		start := time.Now()
		var comps []*harness.RepairComparison
		for i, s := range repairSettings {
			s.Seed = seed + 200 + uint64(i)
			s = scaled(s)
			t0 := time.Now()
			res, err := harness.Run(ctx, t, s)
			if err != nil {
				return fail(fmt.Sprintf("repair setting %d", i+1), err)
			}
			c, err := harness.CompareRepair(ctx, res, harness.RepairModel(s), repairReps, seed+1200+uint64(i))
			if err != nil {
				return fail(fmt.Sprintf("repair setting %d", i+1), err)
			}
			comps = append(comps, c)
			fmt.Fprintf(os.Stderr, "repair setting %d of %d (N = %d, loss %g, %d × %d broadcasts): %.1f s\n",
				i+1, len(repairSettings), s.Nodes, s.Loss, s.ClustersOrDefault(), s.Broadcasts, time.Since(t0).Seconds())
		}
		sec, err := harness.RepairMarkdown(meta(start), comps)
		if err != nil {
			return fail("write", err)
		}
		sections = append(sections, sec)
	}
	if part == "all" || part == "tcp" {
		start := time.Now()
		var runs []harness.TCPRun
		for i, s := range repairSettings {
			s.Seed = seed + 300 + uint64(i)
			s.TCP = true
			s = scaled(s)
			t0 := time.Now()
			res, err := harness.Run(ctx, t, s)
			if err != nil {
				return fail(fmt.Sprintf("tcp setting %d", i+1), err)
			}
			run := harness.TCPRun{Stats: res.TCP}
			for j, m := range tcpModels(s, res.TCP) {
				c, err := harness.CompareRepair(ctx, res, m.cfg, repairReps, seed+1300+uint64(i))
				if err != nil {
					return fail(fmt.Sprintf("tcp setting %d, model %d", i+1, j+1), err)
				}
				run.Labels = append(run.Labels, m.label)
				run.Comps = append(run.Comps, c)
			}
			runs = append(runs, run)
			fmt.Fprintf(os.Stderr, "tcp setting %d of %d (N = %d, loss %g, %d × %d broadcasts): %.1f s; %+v\n",
				i+1, len(repairSettings), s.Nodes, s.Loss, s.ClustersOrDefault(), s.Broadcasts, time.Since(t0).Seconds(), res.TCP)
		}
		sec, err := harness.TCPMarkdown(meta(start), runs)
		if err != nil {
			return fail("write", err)
		}
		sections = append(sections, sec)
	}
	var doc string
	if part == "all" {
		doc = strings.Join(sections, "\n")
	} else {
		old, err := os.ReadFile(out)
		if err != nil {
			return fail("read", err)
		}
		doc = harness.Splice(string(old), sections[0])
	}
	if err := write(out, []byte(doc)); err != nil {
		fmt.Fprintf(os.Stderr, "compare: %v\n", err)
		return 1
	}
	return 0
}

// write writes data to path through a temporary file in its folder and a
// rename, so that a failed write leaves the old file as it was.
func write(path string, data []byte) error {
	if path == "-" {
		_, err := os.Stdout.Write(data)
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".compare-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		_ = os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	return nil
}

// machine names the CPU, the CPUs Go sees, the OS and the Go version.
func machine() string {
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d CPUs, %s/%s, %s", cpu, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
}

type tcpModel struct {
	label string
	cfg   broadcast.Config
}

// tcpModels are the repair models a run with TCP is set against: a sync
// never fails (Config.SyncFail 0), and a sync fails with the chance that
// its dial outlasts memberlist's LAN TCPTimeout (10 s) by hand from
// Linux's SYN timers (harness.TCPDialFail), not from the run.
//
// The third adds what the run measured of the syncs' length: memberlist's
// push–pull loop waits for its sync (the dial's retries, the segments'
// retransmissions, a failed dial's whole TCPTimeout) before it waits the
// next scaled interval, so a node's syncs come every S' + D on average, D
// the run's mean busy time per dial (TCPStats.Busy); the model has no such
// term, and its sync interval is stretched to (S' + D)/scale instead, a
// renewal approximation (the phases stay uniform).
func tcpModels(s harness.Setting, st harness.TCPStats) []tcpModel {
	m := harness.RepairModel(s)
	f := m
	f.SyncFail = harness.TCPDialFail(s.Loss, 10*time.Second)
	out := []tcpModel{{"a sync never fails", m}, {fmt.Sprintf("SyncFail %.4f", f.SyncFail), f}}
	if st.Dials > 0 {
		S := broadcast.PushPullScale(m.SyncInterval, m.Nodes)
		d := st.Busy.Seconds() / float64(st.Dials)
		g := f
		g.SyncInterval = m.SyncInterval * (S + d) / S
		out = append(out, tcpModel{fmt.Sprintf("SyncFail %.4f, period S' + %.2f s", f.SyncFail, d), g})
	}
	return out
}
