package cli

import (
	"context"
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gossipkit/gossipkit/gossip"
)

func TestCheckTime(t *testing.T) {
	deadline, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		cpu     float64
		workers int
		refuse  bool
	}{
		{"no deadline", context.Background(), 1e30, 1, false},
		{"fits", deadline, 60, 1, false},
		// Two days of CPU on one worker cannot end within the hour left.
		{"too long", deadline, 2 * 86400, 1, true},
		// 2 days over more workers than CPUs: GOMAXPROCS bounds the
		// speed-up; a hundred thousand CPUs are not assumed.
		{"workers bounded by CPUs", deadline, 2 * 86400, 100_000, float64(2*86400)/float64(min(100_000, runtime.GOMAXPROCS(0))) > 3600},
		{"NaN", deadline, math.NaN(), 1, false},
		{"Inf", deadline, math.Inf(1), 4, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckTime(tc.ctx, tc.cpu, tc.workers, "the work", "--reps")
			if (err != nil) != tc.refuse {
				t.Fatalf("CheckTime = %v, want refusal %v", err, tc.refuse)
			}
			if err != nil && (!errors.Is(err, gossip.ErrTooLarge) || !strings.Contains(err.Error(), "the work needs at least") || !strings.Contains(err.Error(), "lower --reps")) {
				t.Errorf("CheckTime = %v: want the work, its need and what to lower, wrapping ErrTooLarge", err)
			}
		})
	}
}
