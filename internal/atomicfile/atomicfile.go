// Package atomicfile writes files and folders so that a failed or
// interrupted run never leaves a partial one behind: a file is written to a
// temporary file in its folder and renamed into place; a folder's files are
// built in a hidden temporary folder inside it and moved in only when all of
// them are written.
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write writes path through a temporary file in the same folder, renamed
// into place when write has succeeded (the rename is atomic on POSIX file
// systems). The file gets mode 0644.
func Write(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// WriteBytes writes b to path as Write does.
func WriteBytes(path string, b []byte) error {
	return Write(path, func(w io.Writer) error { _, err := w.Write(b); return err })
}

// DirError is a folder that cannot be created or written to.
type DirError struct {
	Dir string
	Op  string // "create" or "write"
	Err error
}

func (e *DirError) Error() string {
	if e.Op == "create" {
		return fmt.Sprintf("%s: cannot create the directory: %v", e.Dir, e.Err)
	}
	return fmt.Sprintf("%s: directory is not writable: %v", e.Dir, e.Err)
}

func (e *DirError) Unwrap() error { return e.Err }

// BuildDir creates dir if it is missing, runs build on a fresh hidden
// folder inside it (named prefix + random) and, when build succeeds, moves
// every entry of that folder into dir, replacing files of the same name. The
// temporary folder is removed in every case, and so is dir itself when
// this call created it and the build failed. It returns the names moved.
// Failing to create or write to dir is a *DirError.
func BuildDir(dir, prefix string, build func(tmp string) error) (names []string, err error) {
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, &DirError{Dir: dir, Op: "create", Err: err}
	}
	if os.IsNotExist(statErr) {
		defer func() {
			if err != nil {
				os.Remove(dir) // only if still empty
			}
		}()
	}
	tmp, err := os.MkdirTemp(dir, prefix)
	if err != nil {
		return nil, &DirError{Dir: dir, Op: "write", Err: err}
	}
	defer os.RemoveAll(tmp)
	if err := build(tmp); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return nil, err
	}
	names = make([]string, 0, len(entries))
	for _, en := range entries {
		if err := os.Rename(filepath.Join(tmp, en.Name()), filepath.Join(dir, en.Name())); err != nil {
			return names, err
		}
		names = append(names, en.Name())
	}
	return names, nil
}
