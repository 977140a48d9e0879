package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

// twoNodes holds the per-round rates of the pairwise chain at N = 2 under
// loss ε (docs/MODEL.md §7, from the one-item transitions of the loss
// semantics; a = 1 − ε, p = s/c, q = P_drop): from one copy d is copied at
// rate u = a·p·[2a(1−q) + ε] (T(11|10) + T(11|01)), reaches the other node
// without a copy at rate m = 2a²·p·q (T(01|10) + T(10|01)) and dies at
// rate ℓ = a·ε·p·q (T(00|01)); from two copies one is dropped at rate 2w,
// w = a(1+a)·p(1−p)·q (T(01|11) + T(10|11)). Per shuffle (N = 2 a round,
// D = N(N−1) = 2) these are half the rates from X = 1 and w from X = 2.
type twoNodes struct{ u, m, l, w float64 }

func newTwoNodes(eps, p, q float64) twoNodes {
	a := 1 - eps
	return twoNodes{u: a * p * (2*a*(1-q) + eps), m: 2 * a * a * p * q, l: a * eps * p * q, w: a * (1 + a) * p * (1 - p) * q}
}

// pExtinct is P(d dies before both nodes have held it), from X = Y = 1:
// the first jump decides, ℓ/(u + m + ℓ) = εq/(2 − ε + εq).
func (r twoNodes) pExtinct() float64 { return r.l / (r.u + r.m + r.l) }

// lifetime is the mean and sd of the time to X = 0 from X = 1, in rounds.
// The number G of visits to X = 2 is geometric, P(G = k) = ρ^k(1 − ρ),
// ρ = u/(u + ℓ): E G = u/ℓ, Var G = u(u + ℓ)/ℓ². T is G + 1 holding times
// at X = 1 (mean m1, variance v1) and G at X = 2 (m2, v2), all
// independent of G: E T = (E G + 1)m1 + E G·m2 (= 1/ℓ + u/(2wℓ) in
// continuous time), Var T = (E G + 1)v1 + E G·v2 + Var G·(m1 + m2)². In
// continuous time the holding times are Exp(u + ℓ) and Exp(2w); in
// shuffles time K/N with K geometric of success (u + ℓ)/2 and w a shuffle.
func (r twoNodes) lifetime(shuffles bool) (mean, sd float64) {
	eg, vg := r.u/r.l, r.u*(r.u+r.l)/(r.l*r.l)
	m1, m2 := 1/(r.u+r.l), 1/(2*r.w)
	v1, v2 := m1*m1, m2*m2
	if shuffles {
		p1, p2 := (r.u+r.l)/2, r.w
		v1, v2 = (1-p1)/(p1*p1)/4, (1-p2)/(p2*p2)/4
	}
	mean = (eg+1)*m1 + eg*m2
	return mean, math.Sqrt((eg+1)*v1 + eg*v2 + vg*(m1+m2)*(m1+m2))
}

// qsd is the quasi-stationary law (π₁, π₂): the left eigenvector of the
// generator on {1, 2}, [[−(u+ℓ), u], [2w, −2w]], for −θ, θ the smaller
// root of θ² − (u + ℓ + 2w)θ + 2wℓ = 0; π₂/π₁ = (u + ℓ − θ)/(2w).
func (r twoNodes) qsd() [2]float64 {
	b := r.u + r.l + 2*r.w
	theta := (b - math.Sqrt(b*b-8*r.w*r.l)) / 2
	ratio := (r.u + r.l - theta) / (2 * r.w)
	return [2]float64{1 / (1 + ratio), ratio / (1 + ratio)}
}

// TestChainLossTwoNodes holds chain's lifetime, p_reach and
// --quasi-stationary at N = 2 to the closed forms above, in JSON and CSV,
// at the invocations of the golden cases chain_life_* and chain_qs_*.
// Tolerances: the lifetime is a recursion of a few positive terms
// (1e-12 relative is ~10⁴ ulp); the quasi-stationary law is converged to
// chain.QSTol = 1e-11 in total variation.
func TestChainLossTwoNodes(t *testing.T) {
	for _, tc := range []struct {
		args          []string
		eps, p, q     float64
		shuffles      bool
		lifeClosedRef float64 // 1/ℓ + u/(2wℓ), by hand: a second check of the formula
	}{
		// ε = 0.2, p = 1/2, q = 3/5: u = 0.336, ℓ = 0.048, w = 0.216: 1/ℓ + u/(2wℓ) = 20.833… + 16.203… = 1000/27.
		{[]string{"-n", "7", "-c", "4", "-s", "2", "--loss", "0.2"}, 0.2, 0.5, 0.6, false, 1000.0 / 27},
		// ε = 0.5, p = 2/5, q = 5/8: u = 0.2·0.875 = 0.175, ℓ = 0.0625, w = 0.1125: 16 + 0.175/0.0140625 = 16 + 112/9 = 256/9.
		{[]string{"-n", "10", "-c", "5", "-s", "2", "--loss", "0.5", "--time", "shuffles"}, 0.5, 0.4, 0.625, true, 256.0 / 9},
	} {
		r := newTwoNodes(tc.eps, tc.p, tc.q)
		wantMean, wantSD := r.lifetime(tc.shuffles)
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			if math.Abs(wantMean-tc.lifeClosedRef) > 1e-12*wantMean {
				t.Fatalf("closed forms disagree: %v, %v", wantMean, tc.lifeClosedRef)
			}
			args := append([]string{"chain", "-N", "2", "--level", "1", "--t-max", "2", "--format", "json"}, tc.args...)
			out, errOut, code := runCLI(t, nil, args...)
			var res struct {
				Level struct {
					PReach float64 `json:"p_reach"`
				} `json:"time_to_level"`
				Life struct{ Mean, SD float64 } `json:"lifetime"`
			}
			if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
				t.Fatalf("exit %d %s %v\n%s", code, errOut, err, out)
			}
			close := func(what string, got, want, tol float64) {
				if math.Abs(got-want) > tol {
					t.Errorf("%s = %.17g, want %.17g (±%.2g)", what, got, want, tol)
				}
			}
			close("1 − p_reach", 1-res.Level.PReach, r.pExtinct(), 1e-12)
			close("1 − p_reach (εq/(2 − ε + εq))", 1-res.Level.PReach, tc.eps*tc.q/(2-tc.eps+tc.eps*tc.q), 1e-12)
			close("lifetime mean", res.Life.Mean, wantMean, 1e-12*wantMean)
			close("lifetime sd", res.Life.SD, wantSD, 1e-12*wantSD)

			out, errOut, code = runCLI(t, nil, append([]string{"chain", "-N", "2", "--replication-only", "--t-max", "2", "--format", "csv"}, tc.args...)...)
			rows := csvRecords(t, out, errOut, code)
			n := len(rows[0])
			if rows[0][n-2] != "lifetime_mean" || rows[0][n-1] != "lifetime_sd" {
				t.Fatalf("csv header %v", rows[0])
			}
			for _, row := range rows[1:] {
				close("csv lifetime_mean", num(t, row[n-2]), wantMean, 1e-12*wantMean)
				close("csv lifetime_sd", num(t, row[n-1]), wantSD, 1e-12*wantSD)
			}

			want := r.qsd()
			for _, f := range []string{"csv", "json"} {
				args := []string{"chain", "-N", "2", "--quasi-stationary", "--format", f}
				for i := 0; i < len(tc.args); i++ { // --time is refused with --quasi-stationary
					if tc.args[i] == "--time" {
						i++
						continue
					}
					args = append(args, tc.args[i])
				}
				out, errOut, code := runCLI(t, nil, args...)
				var got []struct{ X, P float64 }
				if f == "csv" {
					for _, row := range csvRecords(t, out, errOut, code)[1:] {
						got = append(got, struct{ X, P float64 }{num(t, row[0]), num(t, row[1])})
					}
				} else if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
					t.Fatalf("exit %d %s %v", code, errOut, err)
				}
				if len(got) != 2 {
					t.Fatalf("%s: %d rows: %s", f, len(got), out)
				}
				for i, g := range got {
					close(fmt.Sprintf("%s: P(X = %v | survival)", f, g.X), g.P, want[i], 1e-11)
				}
			}
		})
	}
}

// TestChainQuasiStationaryRefusals: --quasi-stationary is the law given
// survival, so it needs loss, and takes none of the flags of the
// transient laws; exit 2 naming them.
func TestChainQuasiStationaryRefusals(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"chain", "--quasi-stationary"}, "--quasi-stationary needs --loss > 0"},
		{[]string{"chain", "--quasi-stationary", "--loss", "0"}, "--quasi-stationary needs --loss > 0"},
		{[]string{"chain", "--quasi-stationary", "--loss", "0.1", "--level", "0.5"}, "--level: not used with --quasi-stationary"},
		{[]string{"chain", "--quasi-stationary", "--loss", "0.1", "--t-max", "5"}, "--t-max: not used with --quasi-stationary"},
		{[]string{"chain", "--quasi-stationary", "--loss", "1"}, "--loss 1: valid range"},
		{[]string{"chain", "--quasi-stationary", "--loss", "0.1", "-N", "1"}, "-N 1"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) { expectUsage(t, nil, tc.args, tc.want) })
	}
}
