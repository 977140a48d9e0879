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
	root := t.TempDir()
	s := NewScope(nil)
	if _, err := s.MkdirAll(filepath.Join(root, "p", "q")); err != nil {
		t.Fatal(err)
	}
	var tmpSeen string
	s.Stop()
	err := s.Write(filepath.Join(root, "p", "q", "f"), func(w io.Writer) error {
		tmpSeen = w.(*CheckedWriter).W.(*os.File).Name()
		return nil
	})
	if !errors.Is(err, ErrAborted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Write after Stop: %v", err)
	}
	if _, err := os.Stat(tmpSeen); !os.IsNotExist(err) {
		t.Errorf("temporary file left: %v", err)
	}
	s.Abort()
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("after Abort: %v", entries)
	}
}

// inProgress starts s.Write(path) in a goroutine whose write function
// blocks until release is closed; it returns once the temporary file
// exists (its name) and the channel that gets the Write's error.
func inProgress(t *testing.T, s *Scope, path string, release <-chan struct{}) (string, <-chan error) {
	t.Helper()
	started := make(chan string)
	done := make(chan error, 1)
	go func() {
		done <- s.Write(path, func(w io.Writer) error {
			io.WriteString(w, "whole")
			started <- w.(*CheckedWriter).W.(*os.File).Name()
			<-release
			return nil
		})
	}()
	return <-started, done
}

// Two scopes of one process (two commands of serve, two Go callers) do not
// touch each other's files: one whose command fails removes only what it
// registered (Cleanup), one that is stopped or aborted refuses only its own
// commits, and one that succeeded forgets only its own folders (Keep). The
// process's scope, their parent, reaches both: Abort removes the files of
// every call in progress and refuses their renames.
func TestScopesAreIndependent(t *testing.T) {
	t.Run("sibling cleanup and abort", func(t *testing.T) {
		root := t.TempDir()
		proc := NewScope(nil)
		a, b := NewScope(proc), NewScope(proc)
		release := make(chan struct{})
		tmp, done := inProgress(t, a, filepath.Join(root, "a.txt"), release)
		made, err := b.MkdirAll(filepath.Join(root, "bdir", "sub"))
		if err != nil || len(made.Paths) != 2 {
			t.Fatal(made, err)
		}
		b.Cleanup() // b's command failed
		if _, err := os.Stat(filepath.Join(root, "bdir")); !os.IsNotExist(err) {
			t.Errorf("b's folder survived b's Cleanup: %v", err)
		}
		if _, err := os.Stat(tmp); err != nil {
			t.Errorf("b's Cleanup removed a's temporary file: %v", err)
		}
		b.Abort()
		b.Keep()
		close(release)
		if err := <-done; err != nil {
			t.Fatalf("a's write after b's Cleanup and Abort: %v", err)
		}
		if got, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(got) != "whole" {
			t.Errorf("a.txt = %q", got)
		}
		if err := b.WriteBytes(filepath.Join(root, "b.txt"), []byte("x")); !errors.Is(err, ErrAborted) {
			t.Errorf("b's write after b's Abort: %v", err)
		}
		if err := a.WriteBytes(filepath.Join(root, "a2.txt"), []byte("x")); err != nil {
			t.Errorf("a's second write: %v", err)
		}
		if err := proc.WriteBytes(filepath.Join(root, "p.txt"), []byte("x")); err != nil {
			t.Errorf("the parent's write after a child's Abort: %v", err)
		}
	})
	t.Run("keep forgets only its own folders", func(t *testing.T) {
		root := t.TempDir()
		proc := NewScope(nil)
		a, b := NewScope(proc), NewScope(proc)
		if _, err := a.MkdirAll(filepath.Join(root, "adir")); err != nil {
			t.Fatal(err)
		}
		if _, err := b.MkdirAll(filepath.Join(root, "bdir")); err != nil {
			t.Fatal(err)
		}
		a.Keep() // a's command succeeded: its folder holds its output
		proc.Abort()
		if _, err := os.Stat(filepath.Join(root, "adir")); err != nil {
			t.Errorf("a kept its folder, the process's Abort removed it: %v", err)
		}
		if _, err := os.Stat(filepath.Join(root, "bdir")); !os.IsNotExist(err) {
			t.Errorf("b's folder (b still running) survived the process's Abort: %v", err)
		}
	})
	t.Run("the parent's abort reaches every child", func(t *testing.T) {
		root := t.TempDir()
		proc := NewScope(nil)
		a, b := NewScope(proc), NewScope(NewScope(proc)) // b is a grandchild
		release := make(chan struct{})
		tmpA, doneA := inProgress(t, a, filepath.Join(root, "a.txt"), release)
		tmpB, doneB := inProgress(t, b, filepath.Join(root, "b.txt"), release)
		proc.Abort()
		for _, tmp := range []string{tmpA, tmpB} {
			if _, err := os.Stat(tmp); !os.IsNotExist(err) {
				t.Errorf("%s survived the process's Abort: %v", tmp, err)
			}
		}
		close(release)
		for _, done := range []<-chan error{doneA, doneB} {
			if err := <-done; err == nil {
				t.Error("a write in progress put its file in place after the process's Abort")
			}
		}
		if entries, _ := os.ReadDir(root); len(entries) != 0 {
			t.Errorf("after Abort: %v", entries)
		}
	})
	t.Run("the parent's stop refuses every child's commit", func(t *testing.T) {
		root := t.TempDir()
		proc := NewScope(nil)
		ctx, _ := NewContext(context.WithValue(context.Background(), scopeKey{}, proc))
		proc.Stop()
		if err := FromContext(ctx).WriteBytes(filepath.Join(root, "c.txt"), []byte("x")); !errors.Is(err, ErrAborted) {
			t.Errorf("a child's write after the parent's Stop: %v", err)
		}
		if _, err := FromContext(ctx).BuildDir(filepath.Join(root, "d"), ".x-", func(string) error { return nil }); !errors.Is(err, ErrAborted) {
			t.Errorf("a child's BuildDir after the parent's Stop: %v", err)
		}
		if entries, _ := os.ReadDir(root); len(entries) != 0 {
			t.Errorf("left %v", entries)
		}
	})
	t.Run("nil", func(t *testing.T) {
		var s *Scope
		s.Stop()
		s.Abort()
		s.Cleanup()
		s.Keep()
		var nilCtx context.Context
		if FromContext(nilCtx) != nil || FromContext(context.Background()) != nil {
			t.Error("a scope from a context that carries none")
		}
		if ctx, s := NewContext(nilCtx); ctx != nil || s == nil {
			t.Errorf("NewContext(nil) = %v, %v", ctx, s)
		}
		if err := s.WriteBytes(filepath.Join(t.TempDir(), "n"), []byte("x")); err != nil {
			t.Error(err)
		}
	})
}
