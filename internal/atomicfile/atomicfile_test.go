package atomicfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestWriteLeavesNothingOnFailure(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	boom := errors.New("boom")
	if err := Write(p, func(w io.Writer) error { io.WriteString(w, "half"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left %v behind", entries)
	}
	if err := WriteBytes(p, []byte("whole")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "whole" {
		t.Fatalf("read %q", b)
	}
}

func TestBuildDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	names, err := BuildDir(dir, ".x-", func(tmp string) error {
		return WriteBytes(filepath.Join(tmp, "a"), []byte("1"))
	})
	if err != nil || len(names) != 1 || names[0] != "a" {
		t.Fatalf("%v %v", names, err)
	}
	boom := errors.New("boom")
	if _, err := BuildDir(dir, ".x-", func(tmp string) error {
		WriteBytes(filepath.Join(tmp, "b"), []byte("2"))
		return boom
	}); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "a" {
		t.Fatalf("after a failed build: %v", entries)
	}
	// A folder this call created is removed again when the build fails.
	fresh := filepath.Join(t.TempDir(), "new")
	if _, err := BuildDir(fresh, ".x-", func(string) error { return boom }); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("the folder created for a failed build is still there: %v", err)
	}
	f := filepath.Join(dir, "a")
	var de *DirError
	if _, err := BuildDir(filepath.Join(f, "sub"), ".x-", func(string) error { return nil }); !errors.As(err, &de) || de.Op != "create" {
		t.Fatalf("a folder under a file: %v", err)
	}
}

// failAfter accepts k bytes and then fails every write, as a full disk does.
type failAfter struct {
	w io.Writer
	k int
}

var errFull = errors.New("no space left (test)")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.k {
		n, _ := f.w.Write(p[:f.k])
		f.k = 0
		return n, errFull
	}
	f.k -= len(p)
	return f.w.Write(p)
}

// A CheckedWriter keeps the first error of its writer: later writes fail
// too, so a printer that ignores errors cannot hide a full disk.
func TestCheckedWriterKeepsFirstError(t *testing.T) {
	cw := &CheckedWriter{W: &failAfter{w: io.Discard, k: 5}}
	cw.Write([]byte("0123"))
	if _, err := cw.Write([]byte("45")); !errors.Is(err, errFull) {
		t.Fatalf("second write: %v", err)
	}
	if _, err := cw.Write([]byte("6")); !errors.Is(err, errFull) || cw.N != 5 {
		t.Fatalf("after a failure: %v, N = %d", err, cw.N)
	}
}

// Paths that exist and are not regular files are refused, before write is
// called, and left untouched.
func TestWriteRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("target"), 0o644)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	targets := []string{link, fifo, dir}
	// A character device like /dev/null (major 1, minor 3), made here so
	// that a regression cannot replace the machine's /dev/null; it needs
	// root, so the case is skipped without.
	dev := filepath.Join(dir, "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		targets = append(targets, dev)
	}
	for _, p := range targets {
		called := false
		err := Write(p, func(io.Writer) error { called = true; return nil })
		if !errors.Is(err, ErrNotRegular) || called {
			t.Errorf("%s: err %v, write called %v; want ErrNotRegular before any work", p, err, called)
		}
		if err := Probe(p); !errors.Is(err, ErrNotRegular) {
			t.Errorf("Probe(%s) = %v", p, err)
		}
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "target" {
		t.Errorf("the target was changed: %q", b)
	}
}

// Probe refuses a name whose temporary file would be too long (NAME_MAX
// is 255 bytes on Linux file systems; the temporary name adds ".", ".tmp"
// and up to 10 digits, so 240 bytes is the longest name accepted).
func TestProbeNameLength(t *testing.T) {
	dir := t.TempDir()
	if err := Probe(filepath.Join(dir, strings.Repeat("a", 240))); err != nil {
		t.Errorf("240 bytes: %v", err)
	}
	if err := Probe(filepath.Join(dir, strings.Repeat("a", 241))); !errors.Is(err, syscall.ENAMETOOLONG) {
		t.Errorf("241 bytes: %v, want ENAMETOOLONG", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %v", entries)
	}
}

// MkdirAll removes what it created when it fails half-way (a path too long
// for the file system after 20 folders), and Undo removes what it made.
func TestMkdirAllUndo(t *testing.T) {
	root := t.TempDir()
	var parts []string
	for range 21 {
		parts = append(parts, strings.Repeat("d", 200))
	}
	if _, err := MkdirAll(filepath.Join(root, filepath.Join(parts...))); err == nil {
		t.Fatal("a 4221-byte path was created")
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("left %v", entries)
	}
	made, err := MkdirAll(filepath.Join(root, "a", "b", "c"))
	if err != nil || len(made.Paths) != 3 {
		t.Fatalf("%v %v", made, err)
	}
	made.Undo()
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("after Undo: %v", entries)
	}
	// BuildDir removes the parents it created when the build fails.
	if _, err := BuildDir(filepath.Join(root, "x", "y"), ".t-", func(string) error { return errFull }); !errors.Is(err, errFull) {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("after a failed BuildDir: %v", entries)
	}
}

// After Stop no output is put in place; Abort removes the temporary files
// of a call in progress and the folders created.
func TestStopAndAbort(t *testing.T) {
	defer Reset()
	root := t.TempDir()
	made, err := MkdirAll(filepath.Join(root, "p", "q"))
	if err != nil {
		t.Fatal(err)
	}
	_ = made
	var tmpSeen string
	Stop()
	err = Write(filepath.Join(root, "p", "q", "f"), func(w io.Writer) error {
		tmpSeen = w.(*CheckedWriter).W.(*os.File).Name()
		return nil
	})
	if !errors.Is(err, ErrAborted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Write after Stop: %v", err)
	}
	if _, err := os.Stat(tmpSeen); !os.IsNotExist(err) {
		t.Errorf("temporary file left: %v", err)
	}
	Abort()
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("after Abort: %v", entries)
	}
}
