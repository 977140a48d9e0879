package main

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"
)

// TestPlanCDFMatchesDeadline: `plan --format json` rows carry cdf, the
// law's P(T_L ≤ t) from where it first exceeds 0.001 to where it first
// exceeds 0.999, and each entry is what `--deadline t` answers as
// p_deadline, bit for bit, at every t: the exact chain (pull, L = 1) and
// a Monte Carlo below the level 1 (where the count of late runs is the
// answer). At the level 1 a Monte Carlo's --deadline t adds the watched
// runs, which may state that one deadline more accurately: there the cdf
// entry's own interval (Wilson's at z = 3 on the 300 runs) must meet
// --deadline t's stated interval for P(T_L ≤ t) (two estimates of one
// chance; measured: at t = 7, 0.8867 against [0.8506, 0.8856]).
func TestPlanCDFMatchesDeadline(t *testing.T) {
	t.Parallel()
	type row struct {
		PDeadline   float64      `json:"p_deadline"`
		PLate       float64      `json:"p_late"`
		PLateRelErr *float64     `json:"p_late_rel_err"`
		CDF         [][2]float64 `json:"cdf"`
	}
	get := func(t *testing.T, args []string) row {
		t.Helper()
		out, errOut, code := runCLI(t, nil, append(args, "--format", "json")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var d struct{ Rows []row }
		if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Rows) != 1 {
			t.Fatalf("%v: %v, %d rows", args, err, len(d.Rows))
		}
		return d.Rows[0]
	}
	for _, c := range []struct {
		name  string
		args  []string
		exact bool
	}{
		{"exact", []string{"plan", "--protocol", "pull", "-N", "40", "--fanout", "2", "--loss", "0.2", "--level", "1", "--method", "exact"}, true},
		{"mc-level-0.9", []string{"plan", "--protocol", "push-pull", "-N", "60", "--fanout", "1", "--loss", "0.1", "--level", "0.9", "--method", "mc", "--reps", "300"}, true},
		{"mc-level-1", []string{"plan", "--protocol", "push", "-N", "60", "--fanout", "2", "--budget", "8", "--level", "1", "--method", "mc", "--reps", "300"}, false},
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
				if c.exact {
					if r.PDeadline != e[1] {
						t.Errorf("t = %v: cdf %v, --deadline's p_deadline %v", e[0], e[1], r.PDeadline)
					}
					continue
				}
				// The stated interval of P(T_L ≤ t): 1 − p_late·(1 ± rel).
				rel := math.Inf(1)
				if r.PLateRelErr != nil {
					rel = *r.PLateRelErr
				}
				lo, hi := 1-r.PLate*(1+rel), 1-r.PLate*(1-rel)
				clo, chi := wilson3(e[1], 300)
				if !(chi >= lo && clo <= hi) {
					t.Errorf("t = %v: cdf %v [%v, %v] does not meet --deadline's interval [%v, %v]", e[0], e[1], clo, chi, lo, hi)
				}
			}
		})
	}
}

// wilson3 is Wilson's score interval at z = 3 for a share p of n runs.
func wilson3(p float64, n int) (lo, hi float64) {
	fn, z2 := float64(n), 9.0
	c := (p + z2/(2*fn)) / (1 + z2/fn)
	h := 3 * math.Sqrt(p*(1-p)/fn+z2/(4*fn*fn)) / (1 + z2/fn)
	return c - h, c + h
}
