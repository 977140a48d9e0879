package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestODEDefaultsAgreeWithClosedForms(t *testing.T) {
	// `gossipkit ode --format csv` (defaults) agrees with the closed
	// forms to 1e-9 at every row.
	out, errOut, code := runCLI(t, nil, "ode", "--format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(recs[0], ","); got != "t,x,y,x_closed,y_closed" {
		t.Fatalf("header %q", got)
	}
	if len(recs) != 302 {
		t.Fatalf("%d rows, want 301 + header", len(recs)-1)
	}
	for _, r := range recs[1:] {
		v := make([]float64, 5)
		for i := range v {
			v[i], _ = strconv.ParseFloat(r[i], 64)
		}
		// 1e-9: ode's default rtol 1e-10 (ATol 1e-13) with DP5's ~5× global amplification (ode.TestDormandPrinceLogisticTolerance) on values ≤ 1: 5e-10 (was 1e-8).
		if math.Abs(v[1]-v[3]) > 1e-9 || math.Abs(v[2]-v[4]) > 1e-9 {
			t.Fatalf("row %v differs by more than 1e-9", r)
		}
	}
	// First row: x(0) = y(0) = 1/N = 1/2500 exactly as printed.
	if recs[1][1] != "0.0004" || recs[1][4] != "0.0004" {
		t.Errorf("t=0 row %v", recs[1])
	}
}

func TestOptimalPaper(t *testing.T) {
	// s* = 500 − √200000 = 52.786…; integer argmax 53 (approx.TestSStar).
	out, errOut, code := runCLI(t, nil, "optimal", "-n", "500", "-c", "100", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	// 1e-12: SStar evaluates n·c/(n + √(n(n−c))), a few ulp of 52.8 (~7e-15); the reference 500 − √200000 cancels about one digit, so it is off by up to ~ulp(500) = 1.1e-13 (was 1e-9).
	if s := r["s_star"].(float64); math.Abs(s-(500-math.Sqrt(200000))) > 1e-12 {
		t.Errorf("s_star = %v", s)
	}
	if r["s_int"].(float64) != 53 {
		t.Errorf("s_int = %v", r["s_int"])
	}
	// The time-optimal s is the argmin of the coverage time over s; it must
	// not be beaten by its neighbours (checked through the closed form in
	// TestCoverageTimeMatchesClosedForm).
	if _, ok := r["s_best_time"].(float64); !ok {
		t.Errorf("s_best_time missing: %v", r)
	}
}

func TestTransitionsJSON(t *testing.T) {
	out, _, code := runCLI(t, nil, "transitions", "-n", "7", "-c", "4", "-s", "2", "--pdrop", "exact", "--format", "json")
	if code != 0 {
		t.Fatal(code)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	// p = 1/2, q = 4/7: P(11|10) = (1/2)(3/7) = 3/14, P(01|10) = 2/7,
	// P(01|11) = (1/2)(1/2)(4/7) = 1/7.
	// 1e-15: each printed probability is a product of two or three rationals in float64 and parsed back from %.17g JSON: a few ulp of numbers ≤ 1.
	if v := rows[2]["to_11"].(float64); math.Abs(v-3.0/14) > 1e-15 {
		t.Errorf("P(11|10) = %v", v)
	}
	if v := rows[2]["to_01"].(float64); math.Abs(v-2.0/7) > 1e-15 {
		t.Errorf("P(01|10) = %v", v)
	}
	if v := rows[3]["to_01"].(float64); math.Abs(v-1.0/7) > 1e-15 {
		t.Errorf("P(01|11) = %v", v)
	}
}

func TestModelBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ode", "--t-max", "0"}, "--t-max"},
		{[]string{"ode", "--dt", "0"}, "--dt"},
		{[]string{"ode", "--dt", "400"}, "--dt"},
		{[]string{"ode", "--rtol", "1"}, "--rtol"},
		{[]string{"ode", "--rtol", "0"}, "--rtol"},
		{[]string{"ode", "-N", "1"}, "-N"},
		{[]string{"ode", "-s", "101"}, "-s"},
		{[]string{"ode", "-c", "600"}, "-c 600: need Cache ≤ Items = 500"},
		{[]string{"transitions", "--pdrop", "fast"}, "--pdrop"},
		{[]string{"optimal", "--level", "1"}, "--level"},
		{[]string{"optimal", "-n", "100", "-c", "100"}, "Cache = 100 < Items"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			expectUsage(t, nil, tc.args, tc.want)
		})
	}
}

func TestODERefinedColumns(t *testing.T) {
	for _, tm := range []string{"continuous", "synchronous", "discrete"} {
		out, errOut, code := runCLI(t, nil, "ode", "-N", "100", "--initial", "5", "--refined", "--time", tm, "--t-max", "50", "--dt", "10", "--format", "json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tm, code, errOut)
		}
		var rows []map[string]float64
		if err := json.Unmarshal([]byte(out), &rows); err != nil {
			t.Fatal(err)
		}
		// t = 0: deterministic start, x = y = 5/100, no correction, sd 0.
		r0 := rows[0]
		if r0["x_refined"] != 0.05 || r0["y_refined"] != 0.05 || r0["x_sd"] != 0 || r0["y_sd"] != 0 {
			t.Errorf("%s t=0: %v", tm, r0)
		}
		// In the growth phase the correction is nonzero and the sd positive.
		r := rows[2]
		if r["x_refined"] == r["x"] || r["y_sd"] <= 0 {
			t.Errorf("%s t=20: %v", tm, r)
		}
	}
	for _, tm := range []string{"synchronous", "discrete"} {
		if _, errOut, code := runCLI(t, nil, "ode", "--refined", "--time", tm, "--dt", "0.5"); code != 2 || !strings.Contains(errOut, "--dt") {
			t.Errorf("%s with fractional dt: %d %q", tm, code, errOut)
		}
	}
	// "discrete" is the former name of the synchronous clock: the same curves.
	syn, _, _ := runCLI(t, nil, "ode", "-N", "100", "--refined", "--time", "synchronous", "--t-max", "20", "--dt", "10")
	dis, _, _ := runCLI(t, nil, "ode", "-N", "100", "--refined", "--time", "discrete", "--t-max", "20", "--dt", "10")
	con, _, _ := runCLI(t, nil, "ode", "-N", "100", "--refined", "--time", "continuous", "--t-max", "20", "--dt", "10")
	if syn != dis || syn == con {
		t.Errorf("--time synchronous and discrete differ, or equal continuous:\n%s\n%s", syn, dis)
	}
	if _, errOut, code := runCLI(t, nil, "ode", "--refined", "--time", "shuffles"); code != 2 || !strings.Contains(errOut, "--time") {
		t.Errorf("--time shuffles: %d %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, nil, "ode", "--initial", "0"); code != 2 || !strings.Contains(errOut, "--initial") {
		t.Errorf("--initial 0: %d %q", code, errOut)
	}
}
