package broadcast

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestSweepMaxSettings: a million settings (fanouts × budgets) are
// refused before any work, a field error naming Config.Fanout, even with
// a context without a deadline (issue 42's probe: 1..999 × 1..1000 at N =
// 1000 ran on, still computing after 20 s).
func TestSweepMaxSettings(t *testing.T) {
	ks, bs := make([]int, 999), make([]int, 1000)
	for i := range ks {
		ks[i] = i + 1
	}
	for i := range bs {
		bs[i] = i + 1
	}
	t0 := time.Now()
	_, err := Sweep(context.Background(), Config{Nodes: 1000, Protocol: Push, Level: 0.99, Confidence: 0.95}, ks, bs, Settings{})
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "Config.Fanout" || time.Since(t0) > time.Second {
		t.Errorf("%v after %v: want a field error on Config.Fanout at once", err, time.Since(t0))
	}
}
