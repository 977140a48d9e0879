package serve

import (
	"context"
	"io"
	"math"
	"testing"
	"time"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestContract checks the package doc's Contract: Command refuses a nil
// context, writer, flags or runner and flags out of range before it
// listens; New refuses options out of range; an error, never a panic.
func TestContract(t *testing.T) {
	run := Runner(func(context.Context, []string, io.Writer, io.Writer) int { return 0 })
	good := func() *CommandFlags {
		return &CommandFlags{Addr: "127.0.0.1:0", Slots: 1, Queue: 0, Timeout: time.Minute}
	}
	with := func(f func(*CommandFlags)) *CommandFlags { c := good(); f(c); return c }
	var nilCtx context.Context
	bg := context.Background()
	calls := []probe.Refusal{
		{Name: "Command(nil ctx)", Want: "nil context", Call: func() error { return Command(nilCtx, io.Discard, good(), run) }},
		{Name: "Command(nil stderr)", Call: func() error { return Command(bg, nil, good(), run) }},
		{Name: "Command(nil flags)", Call: func() error { return Command(bg, io.Discard, nil, run) }},
		{Name: "Command(nil run)", Call: func() error { return Command(bg, io.Discard, good(), nil) }},
		{Name: "Command/slots 0", Want: "--slots", Call: func() error { return Command(bg, io.Discard, with(func(f *CommandFlags) { f.Slots = 0 }), run) }},
		{Name: "Command/slots huge", Want: "--slots", Call: func() error {
			return Command(bg, io.Discard, with(func(f *CommandFlags) { f.Slots = math.MaxInt }), run)
		}},
		{Name: "Command/queue -1", Want: "--queue", Call: func() error { return Command(bg, io.Discard, with(func(f *CommandFlags) { f.Queue = -1 }), run) }},
		{Name: "Command/queue huge", Want: "--queue", Call: func() error {
			return Command(bg, io.Discard, with(func(f *CommandFlags) { f.Queue = math.MaxInt }), run)
		}},
		{Name: "Command/timeout 0", Want: "--timeout", Call: func() error { return Command(bg, io.Discard, with(func(f *CommandFlags) { f.Timeout = 0 }), run) }},
		{Name: "Command/bad addr", Want: "--addr", Call: func() error { return Command(bg, io.Discard, with(func(f *CommandFlags) { f.Addr = "nope:-1" }), run) }},
		{Name: "New/no Run", Call: func() error { _, err := New(Options{}); return err }},
		{Name: "New/Slots huge", Call: func() error { _, err := New(Options{Run: run, Slots: math.MaxInt}); return err }},
		{Name: "New/Queue huge", Call: func() error { _, err := New(Options{Run: run, Slots: 1, Queue: math.MaxInt}); return err }},
		{Name: "New/Slots -1", Call: func() error { _, err := New(Options{Run: run, Slots: -1}); return err }},
		{Name: "New/Timeout -1", Call: func() error { _, err := New(Options{Run: run, Timeout: -1}); return err }},
	}
	probe.Refuses(t, 0, calls...)
}
