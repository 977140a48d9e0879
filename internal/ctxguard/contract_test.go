package ctxguard

import (
	"context"
	"testing"
)

// TestContract: Check refuses a nil context with "pkg: nil context" and
// passes any other, cancelled ones included (their Err is the caller's).
func TestContract(t *testing.T) {
	var nilCtx context.Context
	if err := Check("x", nilCtx); err == nil || err.Error() != "x: nil context" {
		t.Errorf("Check(nil) = %v, want x: nil context", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Check("x", ctx); err != nil {
		t.Errorf("Check(cancelled) = %v, want nil", err)
	}
}
