package probe

import (
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
