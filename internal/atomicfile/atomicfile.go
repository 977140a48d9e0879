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
// A call made through a Scope registers its temporary files and folders,
// and the folders it created, in that scope while it runs, so that the
// scope's owner can remove them (Abort, Cleanup) even while the call is
// still running: a process stopped by a signal, a command that failed. A
// scope belongs to its caller (a command, a request): two scopes do not
// see each other's files, and a child scope (NewContext on a context that
// carries one) registers in its ancestors too, so that the process's
// scope reaches the files of every command in flight. The package-level
// Write, WriteBytes, BuildDir and MkdirAll use no scope: the call removes
// its own temporary files when it returns, which is enough for a file
// inside a temporary folder that a scoped BuildDir owns.
//
// # Contract
//
// No function runs long or takes a context to run: NewContext and
// FromContext only carry a Scope (a nil ctx gives a nil context and a
// scope, FromContext(nil) no scope). Write, WriteBytes, BuildDir, MkdirAll
// and Probe refuse a nil callback, an empty path, a target that exists
// and is not a regular file (ErrNotRegular) and a folder that cannot be
// made or written (*DirError) with an error before anything is put in
// place; every write, sync and close is checked. CheckTarget passes a path
// that does not exist (the empty path included). TestContract checks it.
package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// ErrNotRegular is a path that exists and is not a regular file.
var ErrNotRegular = errors.New("exists and is not a regular file (a device, FIFO, socket, folder or symbolic link); refused")

// ErrAborted is returned by a call that would have put a file or folder in
// place after its scope (or an ancestor) was stopped (Stop, Abort): the
// work is stopping and writes nothing more. It wraps context.Canceled.
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
// (ErrNotRegular) before write is called. It uses no scope.
func Write(path string, write func(io.Writer) error) error {
	return (*Scope)(nil).Write(path, write)
}

// Write is the package's Write, with the temporary file registered in s
// while the call runs and the rename refused once s (or an ancestor) is
// stopped.
func (s *Scope) Write(path string, write func(io.Writer) error) error {
	if write == nil {
		return errors.New("atomicfile: nil write function")
	}
	if err := CheckTarget(path); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), TempPattern(path))
	if err != nil {
		return err
	}
	untrack := s.track(tmp.Name(), false)
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
	return s.commit(func() error {
		if err := CheckTarget(path); err != nil { // replaced meanwhile
			return err
		}
		return os.Rename(tmp.Name(), path)
	})
}

// WriteBytes writes b to path as Write does.
func WriteBytes(path string, b []byte) error { return (*Scope)(nil).WriteBytes(path, b) }

// WriteBytes writes b to path as s.Write does.
func (s *Scope) WriteBytes(path string, b []byte) error {
	return s.Write(path, func(w io.Writer) error { _, err := w.Write(b); return err })
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
// folders it created. On error the folders it created are removed again.
// It uses no scope.
func MkdirAll(dir string) (*Dirs, error) { return (*Scope)(nil).MkdirAll(dir) }

// MkdirAll is the package's MkdirAll, with the folders it created
// registered in s (for Abort and Cleanup) until Undo or Keep is called.
func (s *Scope) MkdirAll(dir string) (*Dirs, error) {
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
			made.untracks = append(made.untracks, s.track(d, true))
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
// Failing to create or write to dir is a *DirError. It uses no scope.
func BuildDir(dir, prefix string, build func(tmp string) error) (names []string, err error) {
	return (*Scope)(nil).BuildDir(dir, prefix, build)
}

// BuildDir is the package's BuildDir, with the temporary folder and the
// folders it created registered in s while the call runs and the moves
// refused once s (or an ancestor) is stopped.
func (s *Scope) BuildDir(dir, prefix string, build func(tmp string) error) (names []string, err error) {
	if build == nil {
		return nil, errors.New("atomicfile: nil build function")
	}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return nil, &DirError{Dir: dir, Op: "create", Err: fmt.Errorf("%s: not a folder", dir)}
	}
	made, err := s.MkdirAll(dir)
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
	untrack := s.track(tmp, false)
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
	err = s.commit(func() error {
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

// Scope is the registry of what the calls made through it (and through its
// children) are creating: their temporary files and folders while they
// run, and the folders they created until the caller keeps or undoes them.
// Its owner removes them when the work stops (Abort on a signal, Cleanup
// when a command failed) and can refuse every later rename into place
// (Stop). A nil *Scope is valid: it registers nothing and refuses nothing.
// A Scope is safe for concurrent use.
type Scope struct {
	parent *Scope
	mu     sync.Mutex
	paths  map[*entry]struct{}
	// stopped: later commits of this scope and its children fail.
	stopped bool
}

type entry struct {
	path  string
	empty bool // a created folder: removed only if empty
}

// NewScope returns an empty scope, a child of parent (nil for none): what
// is registered in the child is registered in parent too, and stopping
// parent stops the child's commits.
func NewScope(parent *Scope) *Scope { return &Scope{parent: parent} }

type scopeKey struct{}

// NewContext returns a context carrying a new scope, a child of the scope
// ctx carries (if any), and that scope. A nil ctx gives a nil context and
// a scope with no parent: the computation that receives it refuses the nil
// context itself.
func NewContext(ctx context.Context) (context.Context, *Scope) {
	if ctx == nil {
		return nil, NewScope(nil)
	}
	s := NewScope(FromContext(ctx))
	return context.WithValue(ctx, scopeKey{}, s), s
}

// FromContext returns the scope ctx carries, or nil (also for a nil ctx).
func FromContext(ctx context.Context) *Scope {
	if ctx == nil {
		return nil
	}
	s, _ := ctx.Value(scopeKey{}).(*Scope)
	return s
}

// chain returns s and its ancestors, the outermost first.
func (s *Scope) chain() []*Scope {
	var c []*Scope
	for a := s; a != nil; a = a.parent {
		c = append(c, a)
	}
	slices.Reverse(c)
	return c
}

// track registers path in s and its ancestors and returns the function
// that forgets it again.
func (s *Scope) track(path string, emptyDir bool) func() {
	if s == nil {
		return func() {}
	}
	e := &entry{path, emptyDir}
	c := s.chain()
	for _, a := range c {
		a.mu.Lock()
		if a.paths == nil {
			a.paths = map[*entry]struct{}{}
		}
		a.paths[e] = struct{}{}
		a.mu.Unlock()
	}
	return func() { forget(c, e) }
}

// forget removes e from the registry of each scope of c, one lock at a time.
func forget(c []*Scope, e *entry) {
	for _, a := range c {
		a.mu.Lock()
		delete(a.paths, e)
		a.mu.Unlock()
	}
}

// commit runs put (the renames that put output in place) unless s or one
// of its ancestors is stopped, and keeps their Abort waiting while it runs
// (the locks are taken outermost first, the order every multiple locking
// follows), so that output is either wholly in place or not at all.
func (s *Scope) commit(put func() error) error {
	c := s.chain()
	for _, a := range c {
		a.mu.Lock()
	}
	defer func() {
		for i := len(c) - 1; i >= 0; i-- {
			c[i].mu.Unlock()
		}
	}()
	for _, a := range c {
		if a.stopped {
			return ErrAborted
		}
	}
	return put()
}

// Abort removes every temporary file and folder registered in s (its
// children's included), then every registered created folder that is empty
// (deepest first), and makes every later commit of s and its children fail
// with ErrAborted. A process calls it on its scope when a signal stops it;
// it waits for a rename in progress.
func (s *Scope) Abort() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	removeAll(s.paths)
}

// Stop makes every later commit of s and its children fail with ErrAborted
// without removing anything: the calls in progress clean up after
// themselves.
func (s *Scope) Stop() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
}

// Cleanup removes what Abort removes, without stopping later commits: the
// temporary files of calls still running and the folders created by a run
// that did not finish. It forgets them in the ancestors of s too.
func (s *Scope) Cleanup() {
	if s == nil {
		return
	}
	s.mu.Lock()
	done := maps.Clone(s.paths)
	removeAll(s.paths)
	s.mu.Unlock()
	ancestors := s.parent.chain()
	for e := range done {
		forget(ancestors, e)
	}
}

// Keep forgets the created folders registered in s (and in its ancestors)
// without removing them: the run succeeded and they hold its output. The
// temporary files of calls still running stay registered until the calls
// return.
func (s *Scope) Keep() {
	if s == nil {
		return
	}
	c := s.chain()
	s.mu.Lock()
	var kept []*entry
	for e := range s.paths {
		if e.empty {
			kept = append(kept, e)
		}
	}
	s.mu.Unlock()
	for _, e := range kept {
		forget(c, e)
	}
}

// removeAll removes the entries of paths from the file system, folders
// created last, and deletes them from paths (whose scope's lock is held).
func removeAll(paths map[*entry]struct{}) {
	var dirs []string
	for e := range paths {
		if e.empty {
			dirs = append(dirs, e.path)
			continue
		}
		os.RemoveAll(e.path)
	}
	// Deepest first: a longer path cannot be an ancestor of a shorter one.
	slices.SortFunc(dirs, func(a, b string) int { return len(b) - len(a) })
	for _, d := range dirs {
		os.Remove(d)
	}
	clear(paths)
}
