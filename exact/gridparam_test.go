package exact

import (
	"context"
	"errors"
	"testing"

	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// TestVerifyGammaGridParams: VerifyGamma refuses a grid outside
// GridExchange's and GridCache's ranges (1..MaxS, ≥ 1, written out here)
// with a field error naming the Grid field, and accepts their ends (a
// small box: s is bounded by MaxCache as well).
func TestVerifyGammaGridParams(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		g     Grid
		field string // "" if accepted
	}{
		{"exchange 0", Grid{MaxItems: 4, MaxCache: 2, MaxExchange: 0}, "Grid.MaxExchange"},
		{"exchange 5001", Grid{MaxItems: 4, MaxCache: 2, MaxExchange: 5001}, "Grid.MaxExchange"},
		{"exchange 5000", Grid{MaxItems: 4, MaxCache: 2, MaxExchange: 5000}, ""},
		{"exchange 1", Grid{MaxItems: 4, MaxCache: 2, MaxExchange: 1}, ""},
		{"cache 0", Grid{MaxItems: 4, MaxCache: 0, MaxExchange: 1}, "Grid.MaxCache"},
		{"cache 1", Grid{MaxItems: 4, MaxCache: 1, MaxExchange: 1}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, mm, err := VerifyGamma(context.Background(), tc.g, Settings{})
			var fe *fielderr.Error
			switch {
			case tc.field == "" && (err != nil || mm != nil):
				t.Errorf("refused: %v, mismatch %v", err, mm)
			case tc.field != "" && (!errors.As(err, &fe) || fe.Field != tc.field):
				t.Errorf("got %v, want a field error on %s", err, tc.field)
			}
		})
	}
}
