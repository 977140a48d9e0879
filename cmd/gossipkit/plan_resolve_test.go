package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestPlanConfidenceResolved: the command. At budget 16 a live
// node is never informed with chance about 10⁻³ (the large-N law of a
// budgeted push, which the row's p_miss states), so P(T_L ≤ 30) ≤ 1 −
// p_miss < 0.999999 (T_L = ∞ is late): budget 16 is not feasible and has
// no t_confidence at 1 − 10⁻⁶, nor has budget 20 (p_miss about 2·10⁻⁵).
// 1000 plain replications resolve no such confidence (9/1009 ≫ 10⁻⁶);
// at the level 1 the watched runs' curves do (broadcast/curvesum.go,
// checked against plain runs there): where a row gives t_confidence,
// --deadline t_confidence states P(T_L > t) ≤ 10⁻⁶ and --deadline
// t_confidence − 1 more than 10⁻⁶, each within its stated accuracy.
func TestPlanConfidenceResolved(t *testing.T) {
	t.Parallel()
	setting := []string{"plan", "--protocol", "push", "-N", "3000", "--fanout", "3", "--loss", "0.05", "--failed", "0.02", "--level", "1", "--format", "json"}
	out := expectOK(t, nil, append(setting, "--budget", "16:40:4", "--deadline", "30", "--confidence", "0.999999")...)
	var d struct {
		Rows []struct {
			Budget      int      `json:"budget"`
			Feasible    bool     `json:"feasible"`
			PLate       float64  `json:"p_late"`
			PMiss       float64  `json:"p_miss"`
			PMissRelErr float64  `json:"p_miss_rel_err"`
			TConfidence *float64 `json:"t_confidence"`
		} `json:"rows"`
		Cheapest *struct {
			Budget int `json:"budget"`
		} `json:"cheapest"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Rows) != 7 || d.Rows[0].Budget != 16 {
		t.Fatalf("rows %+v", d.Rows)
	}
	r := d.Rows[0]
	if missLo := r.PMiss * (1 - r.PMissRelErr); r.Feasible || !(missLo > 5e-4) || !(r.PLate >= missLo) {
		t.Errorf("budget 16: feasible %v, p_late %v, p_miss %v (rel err %v): want not feasible, p_miss about 1e-3 and p_late ≥ it",
			r.Feasible, r.PLate, r.PMiss, r.PMissRelErr)
	}
	for _, r := range d.Rows {
		switch hi := r.PMiss * (1 + r.PMissRelErr); {
		case hi >= 1e-6 && r.TConfidence != nil:
			t.Errorf("budget %d: t_confidence %v at 1 − 10⁻⁶ where p_miss is %v", r.Budget, *r.TConfidence, r.PMiss)
		case r.Budget == 24:
			if r.TConfidence == nil {
				t.Fatalf("budget 24 (p_miss %v): no t_confidence at 1 − 10⁻⁶", r.PMiss)
			}
			tc := int(*r.TConfidence)
			late := func(D int) (p, rel float64) {
				out := expectOK(t, nil, append(setting, "--budget", "24", "--deadline", strconv.Itoa(D))...)
				var e struct {
					Rows []struct {
						PLate       float64 `json:"p_late"`
						PLateRelErr float64 `json:"p_late_rel_err"`
					} `json:"rows"`
				}
				if err := json.Unmarshal([]byte(out), &e); err != nil || len(e.Rows) != 1 {
					t.Fatal(err, out)
				}
				return e.Rows[0].PLate, e.Rows[0].PLateRelErr
			}
			if p, rel := late(tc); !(p*(1+rel) <= 1e-6) {
				t.Errorf("budget 24: t_confidence %d, where P(T_L > t) is %v (rel err %v)", tc, p, rel)
			}
			if p, rel := late(tc - 1); !(p*(1-rel) > 1e-6) {
				t.Errorf("budget 24: t_confidence %d, but at %d P(T_L > t) is %v (rel err %v)", tc, tc-1, p, rel)
			}
		}
	}
	if d.Cheapest == nil || d.Cheapest.Budget <= 16 {
		t.Errorf("cheapest %+v: want a budget above 16", d.Cheapest)
	}
}

// TestPlanConfidenceRefused: a confidence the method cannot resolve is
// refused with one line naming what could. Below the level 1 a Monte
// Carlo of R replications states P(T_L > D) no smaller than 9/(R + 9):
// 200 replications resolve 1 − P down to 0.043, so 0.999 needs 8991 (and
// 0.95, 171 ≤ 200, runs). The exact chain states P(T_L > D) relatively
// (within its rounding, 10⁻¹³ of it here), so it decides 1 − 10⁻¹³:
// infeasible, P(T_L > 10) being 0.00277, with t_confidence 29.
func TestPlanConfidenceRefused(t *testing.T) {
	t.Parallel()
	base := []string{"plan", "--protocol", "pull", "-N", "40", "--fanout", "2", "--loss", "0.2", "--level", "0.9", "--deadline", "10"}
	expectUsage(t, nil, append(base, "--method", "mc", "--reps", "200", "--confidence", "0.999"), "--confidence 0.999: 1 − P = 0.001 is below")
	expectUsage(t, nil, append(base, "--method", "mc", "--reps", "200", "--confidence", "0.999"), "--reps 8991 or more")
	if out, errOut, code := runCLI(t, nil, append(base, "--method", "exact", "--confidence", "0.9999999999999", "--format", "csv")...); code != 0 || !strings.Contains(out, ",exact,") || !strings.Contains(out, ",29,") || !strings.Contains(out, ",false,") {
		t.Errorf("--method exact --confidence 1 − 1e-13: exit %d, want a row with t_confidence 29, not feasible: %s%s", code, out, errOut)
	}
	if _, errOut, code := runCLI(t, nil, append(base, "--method", "mc", "--reps", "200", "--confidence", "0.95")...); code != 0 {
		t.Errorf("--confidence 0.95 with 200 replications: exit %d: %s", code, errOut)
	}
}
