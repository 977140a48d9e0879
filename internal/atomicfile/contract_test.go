package atomicfile

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestContract checks the package doc's Contract: a nil callback, an empty
// path, a path that is a folder or a device, or a folder that cannot be
// made are refused with an error before anything is written, never a
// panic; a nil context gives a nil scope.
func TestContract(t *testing.T) {
	dir := t.TempDir()
	ok := func(io.Writer) error { return nil }
	calls := []probe.Refusal{
		{Name: "Write(nil write)", Call: func() error { return Write(filepath.Join(dir, "a"), nil) }},
		{Name: "Write(\"\")", Call: func() error { return Write("", ok) }},
		{Name: "Write(folder)", Call: func() error { return Write(dir, ok) }},
		{Name: "Write(/dev/null)", Call: func() error { return Write("/dev/null", ok) }},
		{Name: "WriteBytes(no folder)", Call: func() error { return WriteBytes(filepath.Join(dir, "none", "a"), nil) }},

		{Name: "CheckTarget(folder)", Call: func() error { return CheckTarget(dir) }},
		{Name: "Probe(no folder)", Call: func() error { return Probe(filepath.Join(dir, "none", "a")) }},
		{Name: "BuildDir(nil build)", Call: func() error { _, err := BuildDir(dir, "x", nil); return err }},
		{Name: "BuildDir(\"\")", Call: func() error { _, err := BuildDir("", "x", func(string) error { return nil }); return err }},
		{Name: "MkdirAll(\"\")", Call: func() error { _, err := MkdirAll(""); return err }},
		{Name: "MkdirAll(under a file)", Call: func() error { _, err := MkdirAll("/dev/null/x"); return err }},
	}
	probe.Refuses(t, 0, calls...)
	var nilCtx context.Context
	if ctx, s := NewContext(nilCtx); ctx != nil || s == nil {
		t.Errorf("NewContext(nil) = %v, %v; want a nil context and a scope", ctx, s)
	}
	if FromContext(nilCtx) != nil {
		t.Error("FromContext(nil) is not nil")
	}
}
