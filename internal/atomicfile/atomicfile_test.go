package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
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
