package main

import (
	"encoding/json"
	"strconv"
	"testing"
)

// TestPlanCDFMatchesDeadline: `plan --format json` rows carry cdf, the
// law's P(T_L ≤ t) from where it first exceeds 0.001 to where it first
// exceeds 0.999, and each entry is what `--deadline t` answers as
// p_deadline, bit for bit, at every t: the exact chain (pull, L = 1), a
// Monte Carlo below the level 1 (the count of late runs) and at the level
// 1 (the watched runs' curves against the count: before them the entry
// was the count's and --deadline's the watched runs', 0.8867 against
// [0.8506, 0.8856] at t = 7).
func TestPlanCDFMatchesDeadline(t *testing.T) {
	t.Parallel()
	type row struct {
		PDeadline float64      `json:"p_deadline"`
		CDF       [][2]float64 `json:"cdf"`
	}
	get := func(t *testing.T, args []string) row {
		t.Helper()
		out := expectOK(t, nil, append(args, "--format", "json")...)
		var d struct{ Rows []row }
		if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Rows) != 1 {
			t.Fatalf("%v: %v, %d rows", args, err, len(d.Rows))
		}
		return d.Rows[0]
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"exact", []string{"plan", "--protocol", "pull", "-N", "40", "--fanout", "2", "--loss", "0.2", "--level", "1", "--method", "exact"}},
		{"mc-level-0.9", []string{"plan", "--protocol", "push-pull", "-N", "60", "--fanout", "1", "--loss", "0.1", "--level", "0.9", "--method", "mc", "--reps", "300"}},
		{"mc-level-1", []string{"plan", "--protocol", "push", "-N", "60", "--fanout", "2", "--budget", "8", "--level", "1", "--method", "mc", "--reps", "300"}},
		{"mc-level-1-pull", []string{"plan", "--protocol", "pull", "-N", "200", "--fanout", "1", "--loss", "0.2", "--level", "1", "--method", "mc", "--reps", "300"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cdf := get(t, c.args).CDF
			if len(cdf) < 3 || !(cdf[0][1] > 0.001) || cdf[len(cdf)-2][1] > 0.999 {
				t.Fatalf("cdf %v: want the rounds from the first P > 0.001 to the first P > 0.999", cdf)
			}
			for i, e := range cdf {
				if i > 0 && (e[0] != cdf[i-1][0]+1 || e[1] < cdf[i-1][1]) {
					t.Errorf("cdf %v: not every round, or not rising", cdf)
				}
				r := get(t, append(c.args, "--deadline", strconv.Itoa(int(e[0]))))
				if r.PDeadline != e[1] {
					t.Errorf("t = %v: cdf %v, --deadline's p_deadline %v", e[0], e[1], r.PDeadline)
				}
			}
		})
	}
}
