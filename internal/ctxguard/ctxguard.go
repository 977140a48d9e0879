// Package ctxguard is the one check with which every long computation of
// gossipkit refuses a nil context: an error, where using it would panic
// deep inside the computation.
//
// # Contract
//
// Check refuses a nil context and passes every other one, a cancelled one
// included (the computation returns its ctx.Err() at its next look).
// TestContract checks it.
package ctxguard

import (
	"context"
	"errors"
)

// Check returns an error "pkg: nil context" when ctx is nil, else nil.
func Check(pkg string, ctx context.Context) error {
	if ctx == nil {
		return errors.New(pkg + ": nil context")
	}
	return nil
}
