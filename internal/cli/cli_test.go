package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

type failing struct{ n int }

func (f *failing) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, syscall.ENOSPC
	}
	f.n--
	return len(p), nil
}

// Stdout keeps its writer's first error and refuses every write after the
// context is cancelled.
func TestStdout(t *testing.T) {
	s := &Stdout{Ctx: context.Background(), W: &failing{n: 1}}
	if _, err := s.Write([]byte("a")); err != nil {
		t.Fatal(err)
	}
	s.Write([]byte("b"))
	if _, err := s.Write([]byte("c")); !errors.Is(err, syscall.ENOSPC) || !errors.Is(s.Err, syscall.ENOSPC) {
		t.Errorf("after a failed write: %v, Err %v", err, s.Err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var b bytes.Buffer
	s = &Stdout{Ctx: ctx, W: &b}
	cancel()
	if _, err := s.Write([]byte("late")); !errors.Is(err, context.Canceled) || b.Len() != 0 {
		t.Errorf("after cancel: %v, wrote %q", err, b.String())
	}
}

// Final runs once until ResetFinal.
func TestFinal(t *testing.T) {
	ResetFinal()
	n := 0
	if !Final(func() { n++ }) || Final(func() { n++ }) || n != 1 {
		t.Errorf("n = %d", n)
	}
	ResetFinal()
	if !Final(func() {}) {
		t.Error("after ResetFinal")
	}
}

// CheckOut refuses a missing folder, a folder, a FIFO, a symbolic link
// and a name too long with its temporary suffix, each naming the flag.
func TestCheckOut(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	syscall.Mkfifo(fifo, 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(fifo, link)
	for _, p := range []string{filepath.Join(dir, "no", "f"), dir, fifo, link, filepath.Join(dir, strings.Repeat("a", 241))} {
		var ue *UsageError
		if err := CheckOut("-o", p); !errors.As(err, &ue) || !strings.HasPrefix(ue.Msg, "-o ") {
			t.Errorf("%s: %v", p, err)
		}
	}
	if err := CheckOut("-o", filepath.Join(dir, "new")); err != nil {
		t.Errorf("a new file: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the probe left %v", entries)
	}
}

// stepName is a step whose String is its name.
type stepName string

func (s stepName) String() string { return string(s) }

// TestStepLogger: one line "label: step" per step in a batch log, nothing
// (a nil func) on a terminal.
func TestStepLogger(t *testing.T) {
	var b bytes.Buffer
	log := StepLogger[stepName](&Env{Stderr: &b}, "reproduce")
	log("section 1, a: 1.0 s")
	log("render, b: 2.0 s")
	if want := "reproduce: section 1, a: 1.0 s\nreproduce: render, b: 2.0 s\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	if StepLogger[stepName](&Env{Stderr: &b, Terminal: true}, "x") != nil {
		t.Error("a terminal got a step log")
	}
}

// TestBatchProgress: on a batch log a line every interval of the (fake)
// clock, with the count, the share and the time left at the rate so far;
// a closing 100% line only after a run that wrote one; nothing from a run
// shorter than the interval.
func TestBatchProgress(t *testing.T) {
	var b bytes.Buffer
	start := time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)
	clock := start
	now := func() time.Time { return clock }
	type call struct {
		at          time.Duration // since the start
		done, total int64
	}
	for _, c := range []struct {
		name, label, want string
		calls             []call
	}{
		{"sweep", "plan", "plan: 250/1000 (25%), 10 s, about 28 s left\n" +
			"plan: 700/1000 (70%), 21 s, about 9 s left\n" +
			"plan: 1000/1000 (100%), 24 s\n", []call{
			{1 * time.Second, 10, 1000},   // before the first interval: nothing
			{10 * time.Second, 250, 1000}, // 240 in the 9 s since the first call: 750 more in 28 s
			{15 * time.Second, 400, 1000}, // 5 s after the last line: nothing
			{21 * time.Second, 700, 1000}, // 690 in 20 s: 300 more in 9 s
			{24 * time.Second, 1000, 1000},
			{25 * time.Second, 5, 10}, // the next setting of a sweep, short: nothing
			{26 * time.Second, 10, 10},
		}},
		// A setting that works 16 s before it first counts, then counts
		// fast: the first line has no rate to go by (the time since the
		// start would have put 1/1000 at about 16,000 s left).
		{"late count", "plan", "plan: 1/1000 (0%), 16 s\n" +
			"plan: 501/1000 (50%), 27 s, about 11 s left\n" + // 500 in 11 s: 499 more in 11 s
			"plan: 1000/1000 (100%), 28 s\n", []call{
			{16 * time.Second, 1, 1000}, {27 * time.Second, 501, 1000}, {28 * time.Second, 1000, 1000},
		}},
		// A count whose first call came 1 ms before the line: no rate yet
		// (8 slow replications; 1 and 2 done 1 ms apart are no rate).
		{"first call before a line", "sim", "sim: 2/8 (25%), 10 s\n" +
			"sim: 4/8 (50%), 21 s, about 15 s left\n", []call{ // 3 in 11 s: 4 more in 15 s
			{9999500 * time.Microsecond, 1, 8}, {10000500 * time.Microsecond, 2, 8}, {21 * time.Second, 4, 8},
		}},
	} {
		b.Reset()
		clock = start
		p := BatchProgress(&b, c.label, 10*time.Second, now)
		for _, s := range c.calls {
			clock = start.Add(s.at)
			p(s.done, s.total)
		}
		if b.String() != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, b.String(), c.want)
		}
	}

	b.Reset()
	q := BatchProgress(&b, "sim", 10*time.Second, now)
	q(1, 2)
	q(2, 2)
	if b.Len() != 0 {
		t.Errorf("a run shorter than the interval wrote %q", b.String())
	}
	// The program's choice: a terminal gets the bar (not a line), a batch
	// log with BatchEvery 0 (tests, other front ends) nothing.
	b.Reset()
	Progress(&Env{Stderr: &b}, "x")(1, 1)
	if b.Len() != 0 {
		t.Errorf("BatchEvery 0 wrote %q", b.String())
	}
}
