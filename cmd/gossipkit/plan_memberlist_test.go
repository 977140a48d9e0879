package main

import (
	"encoding/json"
	"testing"
)

// TestPlanPresetOverrides: a preset sets the fanout, memberlist's budget,
// the interval, the sync interval and the asynchronous clock (LAN at
// N = 100: GossipNodes 3, 4·⌈log10 101⌉ = 12, 0.2 s, 30 s scaled by
// ⌈log2 100 − 5⌉ + 1 = 3 to 90 s); a flag given explicitly wins over the
// preset's value.
func TestPlanPresetOverrides(t *testing.T) {
	t.Parallel()
	type row = map[string]any
	plan := func(args ...string) row {
		t.Helper()
		out, errOut, code := runCLI(t, nil, append([]string{"plan", "-N", "100", "--reps", "30", "--format", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var d struct{ Rows []row }
		if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Rows) != 1 {
			t.Fatalf("%v: %v (%d rows)", args, err, len(d.Rows))
		}
		return d.Rows[0]
	}
	for _, tc := range []struct {
		args            []string
		fanout, budget  float64
		scaled          any // sync_interval_s
		async           bool
		intervalSeconds float64
	}{
		{[]string{"--preset", "memberlist-lan"}, 3, 12, 90.0, true, 0.2},
		{[]string{"--preset", "memberlist-lan", "--fanout", "2"}, 2, 12, 90.0, true, 0.2},
		{[]string{"--preset", "memberlist-local", "--budget", "5", "--interval", "1"}, 3, 5, 45.0, true, 1},
		{[]string{"--preset", "memberlist-wan", "--sync-interval", "10"}, 4, 12, 30.0, true, 0.5},
		{[]string{"--preset", "memberlist-lan", "--time", "rounds"}, 3, 12, 90.0, false, 0.2},
	} {
		r := plan(tc.args...)
		if r["fanout"] != tc.fanout || r["budget"] != tc.budget || r["sync_interval_s"] != tc.scaled {
			t.Errorf("%v: fanout %v, budget %v, sync_interval_s %v", tc.args, r["fanout"], r["budget"], r["sync_interval_s"])
		}
		if _, ok := r["t50"]; ok != tc.async {
			t.Errorf("%v: async columns present = %v", tc.args, ok)
		}
		if m, s := r["mean"].(float64), r["seconds"].(float64); s != m*tc.intervalSeconds {
			t.Errorf("%v: seconds %v for mean %v, interval %g", tc.args, s, m, tc.intervalSeconds)
		}
	}
}
