// Package atomicfile writes files and folders so that a failed or
// interrupted run never leaves a partial one behind: a file is written to a
// temporary file in its folder and renamed into place; a folder's files are
// built in a hidden temporary folder inside it and moved in only when all of
// them are written.
//
// Every write and the close are checked: a full disk or any other write
// error fails the call and leaves the old file in place, even when the
// function that writes ignores the errors of its writer.
//
// Write refuses a path that exists and is not a regular file: a device, a
// FIFO, a socket, a folder, and a symbolic link (to anything: replacing the
// link would leave its target untouched, writing through it would replace a
// file elsewhere; neither is what "-o FILE" says). ErrNotRegular is the
// error then.
//
// The temporary files and folders of the calls in progress, and the folders
// they created, are registered, so that a process stopped by a signal can
// remove them (Abort) before it exits, even while a call is still running.
package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// ErrNotRegular is a path that exists and is not a regular file.
var ErrNotRegular = errors.New("exists and is not a regular file (a device, FIFO, socket, folder or symbolic link); refused")

// ErrAborted is returned by a call that would have put a file or folder in
// place after Abort: the process is stopping and writes nothing more. It
// wraps context.Canceled.
var ErrAborted = fmt.Errorf("stopped before the output was put in place: %w", context.Canceled)

// CheckTarget returns nil when path does not exist or is a regular file
// (not a symbolic link), and an error wrapping ErrNotRegular otherwise.
func CheckTarget(path string) error {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	return nil
}

// TempPattern is the pattern of the temporary file Write makes for path
// (os.CreateTemp replaces * by up to 10 digits).
func TempPattern(path string) string { return "." + filepath.Base(path) + ".tmp*" }

// Probe checks, without writing path, that Write could write it: path is
// absent or a regular file, and a temporary file of the name Write would
// use can be created in its folder (so a name close to the file system's
// limit is refused here and not after the work). The probe file is removed.
func Probe(path string) error {
	if err := CheckTarget(path); err != nil {
		return err
	}
	// The longest name os.CreateTemp can make from TempPattern: * becomes
	// at most 10 digits.
	name := filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s.tmp%010d", filepath.Base(path), rand.Uint32()))
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(name)
}

// CheckedWriter passes writes to W and keeps the first error: once a
// write has failed (or has been short), every later write fails with the
// same error. N counts the bytes written.
type CheckedWriter struct {
	W   io.Writer
	N   int64
	Err error
}

func (c *CheckedWriter) Write(p []byte) (int, error) {
	if c.Err != nil {
		return 0, c.Err
	}
	n, err := c.W.Write(p)
	c.N += int64(n)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.Err = err
	return n, err
}

// Write writes path through a temporary file in the same folder, renamed
// into place when write has succeeded and every write, the sync and the
// close succeeded (the rename is atomic on POSIX file systems). The file
// gets mode 0644. A path that exists and is not a regular file is refused
// (ErrNotRegular) before write is called.
func Write(path string, write func(io.Writer) error) error {
	if err := CheckTarget(path); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), TempPattern(path))
	if err != nil {
		return err
	}
	untrack := track(tmp.Name(), false)
	defer untrack()
	defer os.Remove(tmp.Name())
	cw := &CheckedWriter{W: tmp}
	err = write(cw)
	if err == nil {
		err = cw.Err
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return commit(func() error {
		if err := CheckTarget(path); err != nil { // replaced meanwhile
			return err
		}
		return os.Rename(tmp.Name(), path)
	})
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

// Dirs are the folders one MkdirAll created, outermost first.
type Dirs struct {
	Paths    []string
	untracks []func()
}

// Undo removes the folders again, deepest first, each only if it is
// empty, and forgets them.
func (d *Dirs) Undo() {
	for i := len(d.Paths) - 1; i >= 0; i-- {
		os.Remove(d.Paths[i])
	}
	d.Keep()
}

// Keep forgets the folders without removing them: the output they hold is
// in place.
func (d *Dirs) Keep() {
	for _, u := range d.untracks {
		u()
	}
	d.Paths, d.untracks = nil, nil
}

// MkdirAll creates dir and its missing parents (mode 0755) and returns the
// folders it created. They stay registered for Abort and Cleanup until
// Undo or Keep is called. On error the folders it created are removed
// again.
func MkdirAll(dir string) (*Dirs, error) {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	slices.Reverse(missing)
	made := &Dirs{}
	for _, d := range missing {
		err := os.Mkdir(d, 0o755)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			made.Undo()
			return nil, err
		}
		if err == nil {
			made.Paths = append(made.Paths, d)
			made.untracks = append(made.untracks, track(d, true))
		}
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		made.Undo()
		if err == nil {
			err = fmt.Errorf("%s: not a folder", dir)
		}
		return nil, err
	}
	return made, nil
}

// BuildDir creates dir if it is missing, runs build on a fresh hidden
// folder inside it (named prefix + random) and, when build succeeds, moves
// every entry of that folder into dir, replacing files of the same name. The
// temporary folder is removed in every case, and so are dir and the parents
// this call created when the build failed. It returns the names moved.
// Failing to create or write to dir is a *DirError.
func BuildDir(dir, prefix string, build func(tmp string) error) (names []string, err error) {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return nil, &DirError{Dir: dir, Op: "create", Err: fmt.Errorf("%s: not a folder", dir)}
	}
	made, err := MkdirAll(dir)
	if err != nil {
		return nil, &DirError{Dir: dir, Op: "create", Err: err}
	}
	defer func() {
		if err != nil {
			made.Undo()
		} else {
			made.Keep()
		}
	}()
	tmp, err := os.MkdirTemp(dir, prefix)
	if err != nil {
		return nil, &DirError{Dir: dir, Op: "write", Err: err}
	}
	untrack := track(tmp, false)
	defer untrack()
	defer os.RemoveAll(tmp)
	if err := build(tmp); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return nil, err
	}
	names = make([]string, 0, len(entries))
	err = commit(func() error {
		for _, en := range entries {
			if err := os.Rename(filepath.Join(tmp, en.Name()), filepath.Join(dir, en.Name())); err != nil {
				return err
			}
			names = append(names, en.Name())
		}
		return nil
	})
	return names, err
}

// The registry of what the calls in progress created.
var reg struct {
	sync.Mutex
	next    int
	paths   map[int]entry
	aborted bool
}

type entry struct {
	path  string
	empty bool // a created folder: removed only if empty
}

// track registers path for Abort and returns the function that forgets it.
func track(path string, emptyDir bool) func() {
	reg.Lock()
	defer reg.Unlock()
	if reg.paths == nil {
		reg.paths = map[int]entry{}
	}
	reg.next++
	id := reg.next
	reg.paths[id] = entry{path, emptyDir}
	return func() {
		reg.Lock()
		delete(reg.paths, id)
		reg.Unlock()
	}
}

// commit runs put (the renames that put output in place) unless Abort has
// been called, and keeps Abort waiting while it runs, so that output is
// either wholly in place or not at all.
func commit(put func() error) error {
	reg.Lock()
	defer reg.Unlock()
	if reg.aborted {
		return ErrAborted
	}
	return put()
}

// Abort removes every registered temporary file and folder, then every
// registered created folder that is empty (deepest first), and makes every
// later commit fail with ErrAborted. A process calls it when a signal
// stops it; it waits for a rename in progress.
func Abort() {
	reg.Lock()
	defer reg.Unlock()
	reg.aborted = true
	removeRegistered()
}

// Stop makes every later commit fail with ErrAborted without removing
// anything: the calls in progress clean up after themselves.
func Stop() {
	reg.Lock()
	defer reg.Unlock()
	reg.aborted = true
}

// Reset forgets the registry and the aborted state (tests that run several
// commands in one process).
func Reset() {
	reg.Lock()
	defer reg.Unlock()
	reg.aborted = false
	reg.paths = nil
}

// Cleanup removes what Abort removes, without stopping later commits: the
// folders created by a run that did not finish.
func Cleanup() {
	reg.Lock()
	defer reg.Unlock()
	removeRegistered()
}

func removeRegistered() {
	var dirs []string
	for id, e := range reg.paths {
		if e.empty {
			dirs = append(dirs, e.path)
			continue
		}
		os.RemoveAll(e.path)
		delete(reg.paths, id)
	}
	// Deepest first: a longer path cannot be an ancestor of a shorter one.
	slices.SortFunc(dirs, func(a, b string) int { return len(b) - len(a) })
	for _, d := range dirs {
		os.Remove(d)
	}
	for id, e := range reg.paths {
		if e.empty {
			delete(reg.paths, id)
		}
	}
}
