package probe

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// Refusal is one call a package's contract says must be refused: Call
// makes it and returns its error. Want, when not empty, is a substring
// the error must hold (the field it names, or "nil context"); Field, when
// true, requires the error to be a *fielderr.Error (one naming a field).
type Refusal struct {
	Name  string
	Call  func() error
	Want  string
	Field bool
}

// Refuses makes each call and fails the test when one panics, returns a
// nil error, returns an error without Want (or, with Field, one that is
// not a *fielderr.Error), or has not returned within limit (default 2 s):
// the contract "an error, never a panic or a hang" checked call by call.
// A call that does not return is left running (Go cannot stop a
// goroutine) and reported.
func Refuses(t testing.TB, limit time.Duration, calls ...Refusal) {
	t.Helper()
	if limit <= 0 {
		limit = 2 * time.Second
	}
	for _, c := range calls {
		done := make(chan error, 1)
		go func() {
			defer func() {
				if r := recover(); r != nil {
					done <- fmt.Errorf("panic: %v\n%s", r, firstFrames(debug.Stack()))
				}
			}()
			err := c.Call()
			if err == nil {
				done <- errors.New("returned no error")
				return
			}
			switch {
			case c.Want != "" && !strings.Contains(err.Error(), c.Want):
				done <- fmt.Errorf("error %q does not say %q", err, c.Want)
			case c.Field && !isFieldError(err):
				done <- fmt.Errorf("error %q does not name a field (not a *fielderr.Error)", err)
			default:
				done <- nil
			}
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s: %v", c.Name, err)
			}
		case <-time.After(limit):
			t.Errorf("%s: no answer after %v (a hang, or work done before the refusal)", c.Name, limit)
		}
	}
}

func isFieldError(err error) bool {
	var fe *fielderr.Error
	return errors.As(err, &fe)
}

// ConfigEntry is an entry point that takes a context and a configuration
// of type C: Cfg is a valid configuration for it, and Ignores holds the
// fields it documents as ignored (no refusal is asked for them).
type ConfigEntry[C any] struct {
	Name    string
	Cfg     C
	Ignores map[string]bool
	Call    func(context.Context, C) error
}

// BadField sets one field of a configuration to a value it must refuse.
type BadField[C any] struct {
	Field string
	Set   func(*C)
}

// ConfigRefusals is, for each entry, the refusal of a nil context and,
// for each bad value of a field the entry does not ignore, the refusal of
// its Cfg with that value: an error naming the field (Field set).
func ConfigRefusals[C any](entries []ConfigEntry[C], bad []BadField[C]) []Refusal {
	var calls []Refusal
	for _, e := range entries {
		cfg, call := e.Cfg, e.Call
		calls = append(calls, Refusal{Name: e.Name + "(nil ctx)", Want: "nil context",
			Call: func() error { return call(nil, cfg) }}) //nolint:staticcheck // the nil context is the point
		for _, b := range bad {
			if e.Ignores[b.Field] {
				continue
			}
			c := cfg
			b.Set(&c)
			calls = append(calls, Refusal{Name: e.Name + "/" + b.Field, Want: b.Field, Field: true,
				Call: func() error { return call(context.Background(), c) }})
		}
	}
	return calls
}
