package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fullWriter takes k bytes and then fails, as stdout on a full disk or
// /dev/full does.
type fullWriter struct {
	k int
	b bytes.Buffer
}

func (f *fullWriter) Write(p []byte) (int, error) {
	if len(p) > f.k {
		f.b.Write(p[:f.k])
		n := f.k
		f.k = 0
		return n, syscall.ENOSPC
	}
	f.k -= len(p)
	return f.b.Write(p)
}

// Every format of every table-printing command reports a failed write of
// its standard output with exit 1 and one line on stderr, whether the
// failure comes at the first byte or later.
func TestStdoutWriteErrorExits1(t *testing.T) {
	cmds := [][]string{
		{"pdrop", "-n", "5:60", "-c", "4", "-s", "2"},
		{"optimal", "-n", "100", "-c", "20", "-N", "100"},
		{"tree", "build", "-N", "50", "--seeds", "2"},
		{"sim", "-N", "20", "-n", "20", "-c", "5", "-s", "2", "--warmup", "2", "--rounds", "5", "--reps", "2"},
		{"ode", "-N", "50", "-n", "20", "-c", "5", "-s", "2", "--t-max", "20"},
		{"transitions", "-n", "20", "-c", "5", "-s", "2"},
		{"gamma-check", "--s-max", "2", "--c-max", "4", "--n-max", "6"},
	}
	for _, c := range cmds {
		for _, format := range []string{"text", "markdown", "csv", "json"} {
			for _, k := range []int{0, 40} {
				args := append(append([]string{}, c...), "--format", format)
				var stderr bytes.Buffer
				w := &fullWriter{k: k}
				code := runEnv(context.Background(), &env{Stdout: w, Stderr: &stderr, Getenv: func(string) string { return "" }}, args)
				lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
				last := lines[len(lines)-1]
				if code != 1 || !strings.Contains(last, "no space left") {
					t.Errorf("%v after %d bytes: exit %d, stderr %q; want exit 1 naming the write error", args, k, code, stderr.String())
				}
			}
		}
	}
}

// -o refuses, before any work and with exit 2, a path that exists and is
// not a regular file: a symbolic link (even to a regular file), a FIFO, a
// device; and a name too long once the temporary suffix is added. Nothing
// is changed.
func TestOutRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("keep"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(target, link)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(dir, strings.Repeat("x", 241))
	targets := []string{link, fifo, long}
	// A character device like /dev/null, made here (needs root) so that a
	// regression cannot replace the machine's /dev/null.
	if dev := filepath.Join(dir, "null"); syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3) == nil {
		targets = append(targets, dev)
	}
	for _, p := range targets {
		for _, c := range [][]string{{"optimal"}, {"tree", "build", "-N", "20", "--seeds", "1"}, {"sim", "--reps", "1"}, {"chain", "-N", "10"}} {
			args := append(append([]string{}, c...), "-o", p)
			expectUsage(t, nil, args, "-o")
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("target changed: %q", b)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link replaced")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(targets) { // target, link, fifo and the device
		t.Errorf("entries: %v", entries)
	}
	// 240 bytes is accepted (NAME_MAX 255 less ".", ".tmp" and 10 digits).
	ok := filepath.Join(dir, strings.Repeat("y", 240))
	if _, errOut, code := runCLI(t, nil, "optimal", "-o", ok); code != 0 {
		t.Errorf("240-byte name: exit %d %s", code, errOut)
	}
}

// A run stopped before the end (here: a cancelled context) writes nothing
// to stdout and leaves no folder it created.
func TestCancelledRunLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var o, e bytes.Buffer
	en := &env{Stdout: &o, Stderr: &e, Getenv: func(string) string { return "" }}
	code := runEnv(ctx, en, []string{"sim", "--reps", "2", "--shard", "1/2", "-o", filepath.Join(dir, "a", "b") + "/"})
	if code != 130 || o.Len() != 0 || strings.Count(e.String(), "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, o.String(), e.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %v", entries)
	}
}
