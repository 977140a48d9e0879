package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/internal/atomicfile"
)

// Two runs of one process (serve's requests) each own their files: a run
// that fails removes the folder it created and nothing of a run still
// writing its -o file, which then succeeds; both are children of the
// process's scope (WithSignals'), whose Abort would reach them.
func TestConcurrentRunsOwnTheirFiles(t *testing.T) {
	dir := t.TempDir()
	started, release := make(chan struct{}), make(chan struct{})
	p := &Program{Name: "gk", Version: "0", Summary: "test", Commands: []*Command{
		{Name: "write", Short: "write -o slowly", Flags: func(fs *FlagSet) Run {
			_, out := fs.Output("text")
			return func(_ context.Context, e *Env) error {
				return Output(e, *out, func(w io.Writer) error {
					io.WriteString(w, "whole\n")
					select {
					case <-started: // a later run
					default:
						close(started)
					}
					<-release
					return nil
				})
			}
		}},
		{Name: "fail", Short: "create a folder, then fail", Flags: func(fs *FlagSet) Run {
			to := fs.String("to", "", "folder")
			return func(_ context.Context, e *Env) error {
				if _, err := ShardOut(e, *to, "x.gkpart"); err != nil {
					return err
				}
				return errors.New("lib: failed")
			}
		}},
	}}
	ctx, proc := atomicfile.NewContext(context.Background()) // as WithSignals does
	run := func(args ...string) (int, string) {
		var o, e strings.Builder
		code := p.Run(ctx, &Env{Stdout: &o, Stderr: &e, Getenv: func(string) string { return "" }}, args)
		return code, e.String()
	}
	out := filepath.Join(dir, "a.txt")
	type result struct {
		code   int
		stderr string
	}
	done := make(chan result, 1)
	go func() { c, e := run("write", "-o", out); done <- result{c, e} }()
	<-started
	tmps, _ := filepath.Glob(filepath.Join(dir, ".a.txt.tmp*"))
	if len(tmps) != 1 {
		t.Fatalf("temporary files of the write in progress: %v", tmps)
	}
	newDir := filepath.Join(dir, "new", "parts") + "/"
	if code, stderr := run("fail", "--to", newDir); code != 1 || stderr != "gk fail: lib: failed\n" {
		t.Errorf("fail: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); !os.IsNotExist(err) {
		t.Errorf("the failed run left its folder: %v", err)
	}
	if _, err := os.Stat(tmps[0]); err != nil {
		t.Errorf("the failed run removed the other run's temporary file: %v", err)
	}
	close(release)
	if r := <-done; r.code != 0 || r.stderr != "" {
		t.Errorf("write: exit %d, stderr %q", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(out); string(b) != "whole\n" {
		t.Errorf("a.txt = %q", b)
	}
	// The process's scope reaches a run's files: after its Abort nothing
	// more is put in place, and a run's folder goes.
	proc.Abort()
	if code, stderr := run("write", "-o", filepath.Join(dir, "b.txt")); code == 0 {
		t.Errorf("a write after the process's Abort: exit 0, stderr %q", stderr)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "a.txt" {
		t.Errorf("left %v", entries)
	}
}
