package serve

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestServeCheckSpelling: the server's bounds hold whatever the spelling
// of the number: a value is read as the CLI's flag reads it (flagval.Int:
// decimal digits only; flagval.Float for a float flag), so a base prefix
// or separator that once slipped past the bound (N=0x1000000 ran 47 s
// and kept 3.4 GB) is refused with the flag's own message, and a leading
// zero is decimal. Values by hand: 020001 is twenty thousand and one, over
// the bound; 020000 is 20000, at it; 1048576 = 2^20 > 10^5 rows; a hex
// float (0x1p20) is refused as the flag refuses it, with its decimal value.
func TestServeCheckSpelling(t *testing.T) {
	for _, tc := range []struct {
		cmd, query string
		want       string // "" when the request passes
	}{
		{"sim", "N=0x1000000&reps=1&rounds=1&warmup=0", `-N "0x1000000": integers are written in decimal digits (write 16777216)`},
		{"sim", "N=0X1000000", `-N "0X1000000": integers are written in decimal digits`},
		{"sim", "N=0o47041", `-N "0o47041": integers are written in decimal digits (write 20001)`},
		{"sim", "N=0b100111000100001", `(write 20001)`},
		{"sim", "N=20_001", `-N "20_001": integers are written in decimal digits (write 20001)`},
		{"sim", "N=020001", "-N 20001: the server runs sim up to 20000"},
		{"sim", "N=%2B20001", "-N 20001:"},
		{"sim", "reps=1001", "--reps 1001:"},
		{"sim", "rounds=0x2711", `--rounds "0x2711": integers`},
		{"sim", "warmup=10001", "--warmup 10001:"},
		{"sim", "N=9223372036854775808", `-N "9223372036854775808": beyond the integer range`}, // the flag refuses it too
		{"sim", "N=1e5", `-N "1e5": not an integer`},                                           // an int flag takes no exponent
		{"sim", "N", `-N "": not an integer`},                                                  // a bounded flag without a value
		{"sim", "N=20000&reps=1000&rounds=10000&warmup=0", ""},
		{"sim", "N=020000", ""}, // decimal 20000, at the bound
		{"ode", "t-max=1048576&dt=1", "--dt 1: the server returns at most 10^5 rows"},
		{"ode", "t-max=0x1p20&dt=1", `--t-max "0x1p20": numbers are written in decimal notation (write 1.048576e+06)`},
		{"ode", "t-max=1_000&dt=1", `--t-max "1_000": numbers are written in decimal notation (write 1000)`},
		{"ode", "t-max=Inf&dt=Inf", "--dt +Inf"},
		{"ode", "t-max=100&dt=9.5367431640625e-07", "--dt 9.5367431640625e-07"},
		{"ode", "t-max=100&dt=1e-400", `--dt "1e-400": below the smallest number`}, // would read as 0
		{"ode", "t-max=100&dt=1e-3", ""},
		{"ode", "t-max=010&dt=1", ""},        // a float flag reads 010 as ten
		{"plan", "N=0x7fffffffffffffff", ""}, // plan is not bounded here; its flag refuses the spelling
	} {
		t.Run(tc.cmd+"?"+tc.query, func(t *testing.T) {
			flags, err := ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			err = DefaultCheck(tc.cmd, flags)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestFlagNumber: the server reads a number as the flag does (the cases
// of flagval's own tests, through this function): decimal integers only,
// reals in decimal notation as strconv.ParseFloat reads them, less
// overflow and underflow (hex floats and separators refused).
func TestFlagNumber(t *testing.T) {
	for _, tc := range []struct {
		v     string
		isInt bool
		want  float64
		ok    bool
	}{
		{"0x10", true, 0, false},
		{"010", true, 10, true},
		{"010", false, 10, true},
		{"+7", true, 7, true},
		{"1_000", true, 0, false},
		{"1_000", false, 0, false}, // strconv.ParseFloat would read it; the flag does not
		{"0x1p4", false, 0, false},
		{"1.5e3", false, 1500, true},
		{"0x1p4", true, 0, false},
		{"-9223372036854775808", true, math.MinInt64, true},
		{"-9223372036854775809", true, 0, false},
		{"1e400", false, 0, false},
		{"1e-400", false, 0, false},
		{"0e-400", false, 0, true},
		{"", true, 0, false},
		{" 5", true, 0, false},
	} {
		got, err := FlagNumber(tc.v, tc.isInt)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("FlagNumber(%q, %v) = %v, %v; want %v (ok %v)", tc.v, tc.isInt, got, err, tc.want, tc.ok)
		}
	}
}

// TestServeOptionsBounds: option values at the integer limits are errors
// of New, not panics of make.
func TestServeOptionsBounds(t *testing.T) {
	run := func(context.Context, []string, io.Writer, io.Writer) int { return 0 }
	for _, tc := range []struct {
		name string
		opt  Options
		want string
	}{
		{"slots max", Options{Slots: math.MaxInt}, "Options.Slots"},
		{"slots min", Options{Slots: math.MinInt}, "Options.Slots"},
		{"slots over", Options{Slots: MaxSlots + 1}, "Options.Slots"},
		{"queue max", Options{Queue: math.MaxInt}, "Options.Queue"},
		{"queue -1", Options{Queue: -1}, "Options.Queue"},
		{"both max", Options{Slots: MaxSlots, Queue: MaxQueue}, ""},
		{"timeout", Options{Timeout: -1}, "Timeout"},
		{"output", Options{MaxOutput: math.MinInt}, "MaxOutput"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opt.Run = run
			s, err := New(tc.opt)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("New: %v", err)
			case tc.want == "" && (cap(s.slots) != MaxSlots || cap(s.admit) != MaxSlots+MaxQueue):
				t.Errorf("pool %d, admit %d", cap(s.slots), cap(s.admit))
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("New = %v, want an error naming %s", err, tc.want)
			}
		})
	}
}

// TestServeCheapNotQueued: with the only slot taken and the only waiting
// place held, /api/version and a static file still answer 200 (and version
// runs), while another command gets 503.
func TestServeCheapNotQueued(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	f := &fake{run: func(_ context.Context, args []string, stdout, _ io.Writer) int {
		if args[0] == "version" {
			io.WriteString(stdout, "gossipkit test\n")
			return 0
		}
		started <- struct{}{}
		<-release
		return 0
	}}
	s := newServer(t, Options{Run: f.Run, Slots: 1, Queue: 1})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { get(s, "/api/plan") })
	}
	<-started
	for deadline := time.Now().Add(5 * time.Second); len(s.admit) < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the second request never queued")
		}
	}
	if rec := get(s, "/api/plan"); rec.Code != http.StatusServiceUnavailable {
		t.Errorf("a third heavy request: %d, want 503", rec.Code)
	}
	if rec := get(s, "/api/version"); rec.Code != 200 || rec.Body.String() != "gossipkit test\n" {
		t.Errorf("/api/version with the pool full: %d %q", rec.Code, rec.Body.String())
	}
	if rec := get(s, "/app.js"); rec.Code != 200 {
		t.Errorf("/app.js with the pool full: %d", rec.Code)
	}
	close(release)
	wg.Wait()
}

// TestServeHeadNoWork: HEAD answers the status and headers a GET would
// have as far as the checks tell, the command's own checks included, and
// does no work: the command runs only with a context already cancelled
// (the fake refuses "reps=10000000" with exit 2 as the CLI's time
// estimate does, and stops at the context otherwise, as a command that
// passed its checks does). With the pool and queue full HEAD answers 503
// and Retry-After as GET does.
func TestServeHeadNoWork(t *testing.T) {
	var live int
	f := &fake{run: func(ctx context.Context, args []string, _, stderr io.Writer) int {
		if _, ok := ctx.Deadline(); !ok {
			t.Errorf("%q: ran without the time limit", args)
		}
		if strings.Contains(strings.Join(args, " "), "--reps 10000000") {
			io.WriteString(stderr, "gossipkit plan: the Monte Carlo needs at least 5e+07 s of CPU\n")
			return 2
		}
		if ctx.Err() == nil {
			live++
			return 0
		}
		return 130
	}}
	s := newServer(t, Options{Run: f.Run, Slots: 1, Queue: 1})
	cases := []struct {
		target string
		status int
		ctype  string
	}{
		{"/api/plan?N=1000", 200, "application/json"},
		{"/api/plan?N=1000&format=csv", 200, "text/csv; charset=utf-8"},
		{"/api/events/plan?N=1000", 200, "text/event-stream"},
		{"/api/events/chain", 200, "text/event-stream"}, // GET: 200 and a "failure" event
		{"/api/events/plan?protocol=push&N=1000000000&fanout=3&budget=memberlist&method=mc&reps=10000000", 200, "text/event-stream"},
		{"/api/version", 200, "text/plain; charset=utf-8"},
		{"/api/chain", 404, "text/plain; charset=utf-8"},
		{"/api/sim?N=0x1000000", 400, "text/plain; charset=utf-8"},
		{"/api/plan?o=x", 400, "text/plain; charset=utf-8"},
		{"/api/plan?protocol=push&N=1000000000&fanout=3&budget=memberlist&method=mc&reps=10000000", 400, "text/plain; charset=utf-8"},
	}
	head := func(target string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, target, nil))
		return rec
	}
	for _, tc := range cases {
		rec := head(tc.target)
		if rec.Code != tc.status || rec.Header().Get("Content-Type") != tc.ctype || rec.Body.Len() != 0 {
			t.Errorf("HEAD %s: %d %q, %d bytes; want %d %q, none", tc.target, rec.Code, rec.Header().Get("Content-Type"), rec.Body.Len(), tc.status, tc.ctype)
		}
		if tc.status == 400 && !strings.HasPrefix(tc.target, "/api/events/") {
			if g := get(s, tc.target); g.Code != 400 {
				t.Errorf("GET %s: %d, HEAD 400", tc.target, g.Code)
			}
		}
	}
	if live != 0 {
		t.Errorf("HEAD ran %d commands with a live context", live)
	}
	// The pool (1) and the queue (1) full: GET and HEAD 503 with Retry-After.
	release := make(chan struct{})
	f.run = func(ctx context.Context, _ []string, _, _ io.Writer) int {
		if ctx.Err() == nil {
			<-release
		}
		return 0
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); get(s, "/api/plan?N=10") }()
	}
	for deadline := time.Now().Add(10 * time.Second); len(s.admit) < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the requests did not fill the pool and queue")
		}
	}
	if rec := head("/api/plan?N=1000"); rec.Code != 503 || rec.Header().Get("Retry-After") != "1" {
		t.Errorf("HEAD with the pool and queue full: %d, Retry-After %q; want 503, 1", rec.Code, rec.Header().Get("Retry-After"))
	}
	if rec := get(s, "/api/plan?N=1000"); rec.Code != 503 || rec.Header().Get("Retry-After") != "1" {
		t.Errorf("GET with the pool and queue full: %d, Retry-After %q; want 503, 1", rec.Code, rec.Header().Get("Retry-After"))
	}
	close(release)
	wg.Wait()
}

// TestServeQueueWaitNotCharged: the time limit runs from the moment a
// command takes its slot. With one slot, a limit of 200 ms and QueueWait
// 5 s, a request queued for twice the limit behind a held command (a fake
// that ignores its context, released by the test) then runs with its
// whole limit: its context is live when it starts, with more than half
// the limit left (before, the wait counted: it was answered 504 without
// running). With QueueWait 50 ms, a request that finds no slot within it
// is answered 503 with Retry-After (the limit, rounded up to 1 s), having
// run nothing. No bound depends on the machine's speed: the holds are the
// test's channels, the limits the server's own timers.
func TestServeQueueWaitNotCharged(t *testing.T) {
	const limit = 200 * time.Millisecond
	var mu sync.Mutex
	var left []time.Duration
	var started chan struct{}
	var release chan struct{}
	f := &fake{run: func(ctx context.Context, args []string, _, _ io.Writer) int {
		if args[len(args)-1] == "hold" {
			started <- struct{}{}
			<-release
			return 0
		}
		d, _ := ctx.Deadline()
		mu.Lock()
		left = append(left, time.Until(d))
		mu.Unlock()
		if ctx.Err() != nil {
			return 130
		}
		return 0
	}}
	for _, wait := range []time.Duration{5 * time.Second, 50 * time.Millisecond} {
		started, release = make(chan struct{}, 1), make(chan struct{})
		left = nil
		s := newServer(t, Options{Run: f.Run, Slots: 1, Queue: 4, Timeout: limit, QueueWait: wait})
		var hold sync.WaitGroup
		hold.Add(1)
		go func() { defer hold.Done(); get(s, "/api/plan?x=hold") }()
		<-started
		res := make(chan *httptest.ResponseRecorder, 1)
		go func() { res <- get(s, "/api/plan?N=10") }()
		for len(s.admit) < 2 {
			time.Sleep(time.Millisecond)
		}
		if wait > limit {
			time.Sleep(2 * limit) // queued past the limit
			close(release)
			hold.Wait()
			rec := <-res
			mu.Lock()
			if rec.Code != 200 || len(left) != 1 || left[0] < limit/2 {
				t.Errorf("queued %v then run: %d, %v of its %v limit left; want 200 with its whole limit (never 504)", 2*limit, rec.Code, left, limit)
			}
			mu.Unlock()
			continue
		}
		rec := <-res
		if rec.Code != 503 || rec.Header().Get("Retry-After") != "1" || !strings.Contains(rec.Body.String(), "no slot freed within the queue's 50ms") {
			t.Errorf("no slot within QueueWait %v: %d %q, Retry-After %q; want 503 and 1", wait, rec.Code, rec.Body.String(), rec.Header().Get("Retry-After"))
		}
		if len(left) != 0 {
			t.Errorf("the refused request ran")
		}
		close(release)
		hold.Wait()
	}
}

// TestServeReturnsMemory: a command that leaves 256 MiB of garbage behind
// is followed by debug.FreeOSMemory: the heap the runtime has released to
// the system grows by at least 200 MiB of it (runtime/metrics; the rest
// is the margin for what the collector keeps in its free lists).
func TestServeReturnsMemory(t *testing.T) {
	const size = 256 << 20
	f := &fake{run: func(_ context.Context, _ []string, stdout, _ io.Writer) int {
		b := make([]byte, size)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1 // touch every page: resident
		}
		stdout.Write(b[:1])
		return 0
	}}
	s := newServer(t, Options{Run: f.Run})
	released := func() uint64 {
		m := []metrics.Sample{{Name: "/memory/classes/heap/released:bytes"}}
		metrics.Read(m)
		return m[0].Value.Uint64()
	}
	before := released()
	if rec := get(s, "/api/plan"); rec.Code != 200 {
		t.Fatalf("%d %q", rec.Code, rec.Body.String())
	}
	for deadline := time.Now().Add(30 * time.Second); s.freeing.Load(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("FreeOSMemory did not end")
		}
	}
	if after := released(); after < before+200<<20 {
		t.Errorf("released %.0f MiB before, %.0f MiB after a request that left %d MiB of garbage: want ≥ 200 MiB more", float64(before)/(1<<20), float64(after)/(1<<20), size>>20)
	}
}
