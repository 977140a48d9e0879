package main

import (
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gossipkit/gossipkit/internal/serve"
)

// TestServeRefusesBeforeWork: a request whose cost is known to exceed the
// server's time limit (2 minutes by default) is answered 400 with the
// CLI's refusal line, its estimate and what to lower, instead of running
// until the limit (504). The costs, worked out from the lower bounds the
// commands use (cli.CheckTime spreads them over GOMAXPROCS CPUs at most):
// the plan is 10^7 replications × 10^9 nodes × 5 ns = 5·10^7 s of
// CPU; the shuffle's Monte Carlo 10^5 replications × one round of 10^7
// shuffles × 3 ns = 3000 s, beyond 120 s on up to 25 CPUs. A number in
// another base (0x3b9aca00 = 10^9, 0x1000000 = 2^24, 0o47041 = 20001) is
// refused as the flag refuses it, before any bound or estimate; a leading
// zero is decimal (020001 is over sim's N ≤ 20000).
func TestServeRefusesBeforeWork(t *testing.T) {
	ts := newServeTest(t, serve.Options{})
	for _, tc := range []struct{ path, want string }{
		{"/api/plan?protocol=push&N=1000000000&fanout=3&budget=memberlist&method=mc&reps=10000000", "gossipkit plan: the Monte Carlo (1 settings × 10000000 replications at N = 1000000000) needs at least"},
		{"/api/plan?protocol=push&N=1000000000&fanout=3&method=mc&reps=10000000", "lower --reps or -N, or use --method asymptotic"},
		{"/api/plan?protocol=push&N=0x3b9aca00&fanout=3&method=mc&reps=10000000", `gossipkit plan: -N "0x3b9aca00": integers are written in decimal digits (write 1000000000); valid range 2..2^40`},
		{"/api/plan?N=10000000&method=mc&reps=100000&model=markov", "gossipkit plan: the Monte Carlo (1 settings × 100000 replications at N = 10000000) needs at least"},
		{"/api/sim?N=16777216&reps=1&rounds=1&warmup=0", "gossipkit sim: -N 16777216: the server runs sim up to 20000"},
		{"/api/sim?N=0x1000000&reps=1&rounds=1&warmup=0", `gossipkit sim: -N "0x1000000": integers are written in decimal digits (write 16777216)`},
		{"/api/sim?N=0o47041", `gossipkit sim: -N "0o47041": integers are written in decimal digits (write 20001)`},
		{"/api/sim?N=020001", "gossipkit sim: -N 20001: the server runs sim up to 20000"}, // a leading 0 is decimal
	} {
		code, body := httpGet(t, ts.URL+tc.path)
		if code != 400 || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d %q, want 400 containing %q", tc.path, code, body, tc.want)
		}
	}
	if runtime.GOMAXPROCS(0) > 10 {
		return
	}
	// The protocol's sim within the server's bounds: 1000 replications ×
	// 1000 nodes × 11000 rounds (1000 of warm-up) × (15 + 2·50) ns = 1265 s
	// of CPU, beyond 120 s on up to 10 CPUs.
	code, body := httpGet(t, ts.URL+"/api/sim?N=1000&reps=1000&rounds=10000")
	if code != 400 || !strings.Contains(body, "gossipkit sim: the simulation (1000 replications of 11000 rounds at N = 1000) needs at least") || !strings.Contains(body, "lower --reps, --rounds or -N") {
		t.Errorf("sim: %d %q, want 400 with the estimate", code, body)
	}
}

// TestServeHeadAnswersChecks: HEAD answers what GET's checks answer,
// without the work: the plan (5·10^7 s of CPU by the CLI's
// estimate; GET 400 at once) is 400 for HEAD too, under the default limit
// and under the longest (24 h); it was 200. A flag out of range is 400. A
// request that passes its checks is 200 with its type, the command
// stopped at its first look at the already cancelled context: a sim of
// 1000 replications of 1000 rounds at N = 20000 (2·10^10 node-rounds,
// minutes for GET) answered in 3 ms here (logged, not bounded).
func TestServeHeadAnswersChecks(t *testing.T) {
	ts := newServeTest(t, serve.Options{Timeout: 24 * time.Hour})
	for _, tc := range []struct {
		path   string
		status int
		ctype  string
	}{
		{"/api/plan?protocol=push&N=1000000000&fanout=3&budget=memberlist&method=mc&reps=10000000", 400, "text/plain; charset=utf-8"},
		{"/api/plan?protocol=push&N=1&fanout=3", 400, "text/plain; charset=utf-8"},
		{"/api/plan?protocol=push&N=1000&fanout=3", 200, "application/json"},
		{"/api/sim?N=20000&reps=1000&rounds=1000", 200, "application/json"},
		{"/api/version", 200, "text/plain; charset=utf-8"},
	} {
		start := time.Now()
		resp, err := http.Head(ts.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		t.Logf("HEAD %s: %d in %v", tc.path, resp.StatusCode, time.Since(start).Round(time.Millisecond))
		if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != tc.ctype {
			t.Errorf("HEAD %s: %d %q, want %d %q", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), tc.status, tc.ctype)
		}
	}
	// The refusal's GET, for comparison: 400 with the estimate.
	ts2 := newServeTest(t, serve.Options{})
	resp, err := http.Head(ts2.URL + "/api/plan?protocol=push&N=1000000000&fanout=3&budget=memberlist&method=mc&reps=10000000")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if code, _ := httpGet(t, ts2.URL+"/api/plan?protocol=push&N=1000000000&fanout=3&budget=memberlist&method=mc&reps=10000000"); resp.StatusCode != 400 || code != 400 {
		t.Errorf("the issue's plan at the default limit: HEAD %d, GET %d; want 400 both", resp.StatusCode, code)
	}
}
