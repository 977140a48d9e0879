package serve

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gossipkit/gossipkit/internal/cli"
)

func TestServeArgs(t *testing.T) {
	for _, tc := range []struct {
		cmd, query string
		want       []string
	}{
		// The examples of the package doc and of the page's links.
		{"plan", "N=1000&fanout=3", []string{"plan", "--format", "json", "-N", "1000", "--fanout", "3"}},
		{"plan", "protocol=push&N=1000&fanout=3&loss=0.1", []string{"plan", "--format", "json", "--protocol", "push", "-N", "1000", "--fanout", "3", "--loss", "0.1"}},
		{"plan", "s=30%3A70%3A10&format=csv", []string{"plan", "-s", "30:70:10", "--format", "csv"}},
		{"plan", "budget=memberlist:4&message-bytes=512", []string{"plan", "--format", "json", "--budget", "memberlist:4", "--message-bytes", "512"}},
		{"ode", "refined&t-max=10", []string{"ode", "--format", "json", "--refined", "--t-max", "10"}},
		{"plan", "deadline=&N=+5", []string{"plan", "--format", "json", "--deadline", "", "-N", " 5"}},
		{"plan", "", []string{"plan", "--format", "json"}},
		{"plan", "&&N=2&", []string{"plan", "--format", "json", "-N", "2"}},
		// A value that starts with a dash stays the flag's value.
		{"plan", "s=-5", []string{"plan", "--format", "json", "-s", "-5"}},
		{"version", "", []string{"version"}},
	} {
		t.Run(tc.cmd+"?"+tc.query, func(t *testing.T) {
			flags, err := ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			if got := Args(tc.cmd, flags); !slices.Equal(got, tc.want) {
				t.Errorf("Args = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestServeArgsRefused(t *testing.T) {
	for _, tc := range []struct{ query, want string }{
		{"o=x.json", "-o: refused by the server (writes a file)"},
		{"N=3&out=/tmp", "--out: refused"},
		{"shard=1/2", "--shard: refused"},
		{"shards=4", "--shards: refused"},
		{"no-scheduler-env", "--no-scheduler-env: refused"},
		{"workers=4096", "--workers: refused"},
		{"h", "-h: refused"},
		{"help", "--help: refused"},
		{"-N=3", "not a flag name"},
		{"--N=3", "not a flag name"},
		{"N%20x=3", "not a flag name"},
		{"N-=3", "not a flag name"},
		{"a--b=3", "not a flag name"},
		{"N=%zz", "bad % escape"},
		{"N=%4", "bad % escape"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			_, err := ParseQuery(tc.query)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseQuery(%q) = %v, want an error containing %q", tc.query, err, tc.want)
			}
		})
	}
}

// fake is a runner whose behaviour a test sets per command line.
type fake struct {
	mu    sync.Mutex
	calls [][]string
	run   func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

func (f *fake) Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f.mu.Lock()
	f.calls = append(f.calls, args)
	f.mu.Unlock()
	return f.run(ctx, args, stdout, stderr)
}

func newServer(t *testing.T, opt Options) *Server {
	t.Helper()
	s, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func get(h http.Handler, target string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
	return rec
}

func TestServeStatus(t *testing.T) {
	// Bytes no transformation keeps: invalid UTF-8, NUL, CR LF, no final newline.
	answer := "{\"a\": 1}\r\n\x00\xff\xfe tail"
	for _, tc := range []struct {
		name, target string
		code         int
		stdout       string
		stderr       string
		status       int
		body         string
		ctype        string
	}{
		{"ok json", "/api/plan?N=10", 0, answer, "", 200, answer, "application/json"},
		{"ok csv", "/api/plan?N=10&format=csv", 0, "s,mean\n1,2\n", "", 200, "s,mean\n1,2\n", "text/csv; charset=utf-8"},
		{"bad input", "/api/plan?N=1", 2, "", "gossipkit plan: -N 1: valid range 2..2^40\n", 400, "gossipkit plan: -N 1: valid range 2..2^40\n", "text/plain; charset=utf-8"},
		// Exit 2 after a progress bar: the message is the last line, the bar's redraws dropped.
		{"bad after bar", "/api/sim", 2, "", "\rsim 10% |██ | (1/10, 3 it/s)\r   \r\x1b[2Kgossipkit sim: --reps 0: valid range\n", 400, "gossipkit sim: --reps 0: valid range\n", "text/plain; charset=utf-8"},
		{"failure", "/api/ode", 1, "partial", "gossipkit ode: internal error\n", 500, "gossipkit ode: internal error\n", "text/plain; charset=utf-8"},
		{"silent failure", "/api/ode", 1, "", "", 500, "the command failed and printed nothing\n", "text/plain; charset=utf-8"},
		{"not served", "/api/reproduce", 0, "", "", 404, "gossipkit serve: command \"reproduce\" is not served (served: plan, ode, sim, pdrop, version)\n", "text/plain; charset=utf-8"},
		{"refused flag", "/api/plan?o=plan.json", 0, "", "", 400, "gossipkit plan: -o: refused by the server (writes a file)\n", "text/plain; charset=utf-8"},
		{"server bound", "/api/sim?N=30000", 0, "", "", 400, "gossipkit sim: -N 30000: the server runs sim up to 20000 (the CLI takes more)\n", "text/plain; charset=utf-8"},
		{"ode rows", "/api/ode?dt=0.001&t-max=1000", 0, "", "", 400, "gossipkit ode: --dt 0.001: the server returns at most 10^5 rows (t-max/dt = 1e+06)\n", "text/plain; charset=utf-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fake{run: func(_ context.Context, _ []string, stdout, stderr io.Writer) int {
				io.WriteString(stdout, tc.stdout)
				io.WriteString(stderr, tc.stderr)
				return tc.code
			}}
			rec := get(newServer(t, Options{Run: f.Run}), tc.target)
			if rec.Code != tc.status || rec.Body.String() != tc.body || rec.Header().Get("Content-Type") != tc.ctype {
				t.Errorf("got %d %q %q, want %d %q %q", rec.Code, rec.Header().Get("Content-Type"), rec.Body.String(), tc.status, tc.ctype, tc.body)
			}
			if tc.status == 404 || tc.status == 400 && tc.code == 0 {
				if len(f.calls) != 0 {
					t.Errorf("the runner ran %q; a refused request runs nothing", f.calls)
				}
			}
		})
	}
}

// TestServeClientGone: a command stopped because the client went away
// (exit 130) gets no answer at all.
func TestServeClientGone(t *testing.T) {
	f := &fake{run: func(ctx context.Context, _ []string, stdout, stderr io.Writer) int {
		<-ctx.Done()
		io.WriteString(stderr, "gossipkit plan: interrupted; no output written\n")
		return 130
	}}
	s := newServer(t, Options{Run: f.Run})
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequest(http.MethodGet, "/api/plan", nil).WithContext(ctx)
	rec := httptest.NewRecorder()
	done := make(chan struct{})
	go func() { s.ServeHTTP(rec, req); close(done) }()
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler did not return after its client went away")
	}
	if rec.Body.Len() != 0 || rec.Header().Get("Content-Type") != "" {
		t.Errorf("answered %q (%q) to a client that went away", rec.Body.String(), rec.Header().Get("Content-Type"))
	}
}

func TestServeTimeout(t *testing.T) {
	f := &fake{run: func(ctx context.Context, _ []string, _, _ io.Writer) int {
		<-ctx.Done()
		return 130 // what runEnv returns for a cancelled context
	}}
	rec := get(newServer(t, Options{Run: f.Run, Timeout: 50 * time.Millisecond}), "/api/plan?method=exact")
	if rec.Code != http.StatusGatewayTimeout || !strings.Contains(rec.Body.String(), "time limit of 50ms") {
		t.Errorf("got %d %q, want 504 naming the time limit", rec.Code, rec.Body.String())
	}
}

// TestServePoolFull: with 1 slot and 1 waiting place, a third request
// at once is answered 503 without running; once the first ends, the
// waiting one runs.
func TestServePoolFull(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 3)
	f := &fake{run: func(ctx context.Context, _ []string, stdout, _ io.Writer) int {
		started <- struct{}{}
		<-release
		io.WriteString(stdout, "ok")
		return 0
	}}
	s := newServer(t, Options{Run: f.Run, Slots: 1, Queue: 1})
	recs := make([]*httptest.ResponseRecorder, 2)
	var wg sync.WaitGroup
	for i := range recs {
		wg.Add(1)
		go func() { defer wg.Done(); recs[i] = get(s, "/api/plan") }()
	}
	<-started // one runs
	// Wait until the second request holds its waiting place.
	for deadline := time.Now().Add(5 * time.Second); len(s.admit) < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the second request never queued")
		}
	}
	rec := get(s, "/api/plan")
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Errorf("third request: %d %q, want 503 with Retry-After", rec.Code, rec.Body.String())
	}
	if n := len(started); n != 0 {
		t.Errorf("%d more commands started while the only slot was taken", n)
	}
	close(release)
	wg.Wait()
	for i, r := range recs {
		if r.Code != 200 || r.Body.String() != "ok" {
			t.Errorf("request %d: %d %q", i, r.Code, r.Body.String())
		}
	}
	if len(f.calls) != 2 {
		t.Errorf("%d commands ran, want 2", len(f.calls))
	}
}

func TestServeLimits(t *testing.T) {
	f := &fake{run: func(_ context.Context, _ []string, stdout, _ io.Writer) int {
		// An answer one byte over the cap: the capped writer fails the
		// write, and the CLI turns a failed write into exit 1.
		if _, err := stdout.Write(make([]byte, 101)); err != nil {
			return 1
		}
		return 0
	}}
	s := newServer(t, Options{Run: f.Run, MaxOutput: 100, MaxURL: 200})
	for _, tc := range []struct {
		name, method, target, body string
		status                     int
	}{
		{"output cap", "GET", "/api/plan", "", http.StatusRequestEntityTooLarge},
		{"long URL", "GET", "/api/plan?s=" + strings.Repeat("1", 200), "", http.StatusRequestURITooLong},
		{"body", "GET", "/api/plan", "N=3", http.StatusRequestEntityTooLarge},
		{"POST", "POST", "/api/plan", "", http.StatusMethodNotAllowed},
		{"PUT", "PUT", "/", "", http.StatusMethodNotAllowed},
		{"DELETE", "DELETE", "/api/plan", "", http.StatusMethodNotAllowed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader
			if tc.body != "" {
				body = strings.NewReader(tc.body)
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.target, body))
			if rec.Code != tc.status {
				t.Errorf("%s %s: %d %q, want %d", tc.method, tc.target, rec.Code, rec.Body.String(), tc.status)
			}
		})
	}
	if len(f.calls) != 1 {
		t.Errorf("the runner ran %d times; only the output-cap request should run", len(f.calls))
	}
}

// readEvents reads Server-Sent Events until the stream ends or stop says so.
func readEvents(t *testing.T, r io.Reader, stop func(event, data string) bool) [][2]string {
	t.Helper()
	var out [][2]string
	sc := bufio.NewScanner(r)
	var ev string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			ev = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			d := strings.TrimPrefix(line, "data: ")
			out = append(out, [2]string{ev, d})
			if stop != nil && stop(ev, d) {
				return out
			}
		}
	}
	return out
}

func TestServeEvents(t *testing.T) {
	f := &fake{run: func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		if !WantsProgress(stderr) {
			t.Error("the events endpoint did not ask for progress")
		}
		// What schollz/progressbar writes (cli.NewProgress), then the answer.
		for _, d := range []int{0, 500, 1000} {
			fmt.Fprintf(stderr, "\rplan %3d%% |████ | (%d/1000, 700 it/s) [0s:1s]\r   \r", d/10, d)
			time.Sleep(120 * time.Millisecond) // past the 100 ms between two progress events
		}
		if strings.Contains(strings.Join(args, " "), "-N 1") && !strings.Contains(strings.Join(args, " "), "-N 10") {
			io.WriteString(stderr, "gossipkit plan: -N 1: valid range 2..2^40\n")
			return 2
		}
		io.WriteString(stdout, "{\n\"rows\": []\n}\n")
		return 0
	}}
	ts := httptest.NewServer(newServer(t, Options{Run: f.Run}))
	defer ts.Close()
	for _, tc := range []struct {
		query string
		want  [][2]string
	}{
		{"N=10", [][2]string{{"start", "{}"}, {"progress", `{"done":0,"total":1000}`}, {"progress", `{"done":500,"total":1000}`},
			{"progress", `{"done":1000,"total":1000}`}, {"result", `{"body":"{\n\"rows\": []\n}\n","status":200}`}}},
		{"N=1", [][2]string{{"start", "{}"}, {"progress", `{"done":0,"total":1000}`}, {"progress", `{"done":500,"total":1000}`},
			{"progress", `{"done":1000,"total":1000}`}, {"failure", `{"message":"gossipkit plan: -N 1: valid range 2..2^40","status":400}`}}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			resp, err := http.Get(ts.URL + "/api/events/plan?" + tc.query)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
				t.Errorf("Content-Type %q", ct)
			}
			got := readEvents(t, resp.Body, nil)
			// JSON escapes: \n is written as \n in the data line.
			for i := range tc.want {
				tc.want[i][1] = strings.ReplaceAll(tc.want[i][1], "\n", `\n`)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("events\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestServeEventsCancel: closing the stream (the tab closed) cancels the
// command's context.
func TestServeEventsCancel(t *testing.T) {
	cancelled := make(chan struct{})
	f := &fake{run: func(ctx context.Context, _ []string, _, stderr io.Writer) int {
		io.WriteString(stderr, "\rplan 0% | | (0/10, 0 it/s)")
		<-ctx.Done()
		close(cancelled)
		return 130
	}}
	ts := httptest.NewServer(newServer(t, Options{Run: f.Run}))
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/api/events/plan?method=exact")
	if err != nil {
		t.Fatal(err)
	}
	readEvents(t, resp.Body, func(ev, _ string) bool { return ev == "progress" })
	resp.Body.Close()
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the command was not cancelled when its stream closed")
	}
}

// TestServeAssets: the page's three files are served, and together weigh
// under the 1 MB a first load may take.
func TestServeAssets(t *testing.T) {
	s := newServer(t, Options{Run: (&fake{}).Run})
	total := 0
	for _, p := range []string{"/", "/app.js", "/app.css"} {
		rec := get(s, p)
		if rec.Code != 200 || rec.Body.Len() == 0 {
			t.Errorf("GET %s: %d (%d bytes)", p, rec.Code, rec.Body.Len())
		}
		total += rec.Body.Len()
	}
	// Every embedded file counts, whether the page loads it or not.
	all := 0
	fs.WalkDir(Assets(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(Assets(), p)
			all += len(b)
		}
		return nil
	})
	t.Logf("first load %d bytes (embedded: %d)", total, all)
	if total > 1_000_000 || all > 1_000_000 {
		t.Errorf("first load %d bytes, embedded %d: over 1 MB", total, all)
	}
	if rec := get(s, "/"); !strings.Contains(rec.Body.String(), `<script src="app.js">`) || strings.Contains(rec.Body.String(), "http") && strings.Contains(rec.Body.String(), "://cdn") {
		t.Error("index.html does not load app.js, or loads from a CDN")
	}
}

func TestServeNew(t *testing.T) {
	if _, err := New(Options{}); err == nil || !strings.HasPrefix(err.Error(), "serve: ") {
		t.Errorf("New without a runner: %v", err)
	}
	s := newServer(t, Options{Run: (&fake{}).Run})
	if o := s.Options(); o.Slots < 2 || o.Queue != 4*o.Slots || o.Timeout != 2*time.Minute {
		t.Errorf("defaults: %+v", o)
	}
}

func TestServeHosts(t *testing.T) {
	f := &fake{run: func(_ context.Context, _ []string, stdout, _ io.Writer) int { io.WriteString(stdout, "ok"); return 0 }}
	s := newServer(t, Options{Run: f.Run, Hosts: []string{"127.0.0.1:8080", "localhost:8080"}})
	for _, tc := range []struct {
		host   string
		status int
	}{{"127.0.0.1:8080", 200}, {"LOCALHOST:8080", 200}, {"localhost:8081", 421}, {"rebound.example:8080", 421}, {"", 421}} {
		t.Run(tc.host, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/api/version", nil)
			req.Host = tc.host
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Errorf("Host %q: %d %q, want %d", tc.host, rec.Code, rec.Body.String(), tc.status)
			}
		})
	}
	// Every answer carries the policy that keeps the page to its own files.
	rec := get(newServer(t, Options{Run: f.Run}), "/")
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
}

func TestServeLoopbackHosts(t *testing.T) {
	for _, tc := range []struct {
		addr net.Addr
		want []string
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, []string{"127.0.0.1:8080", "localhost:8080", "127.0.0.1:8080", "[::1]:8080"}},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 80}, []string{"[::1]:80", "localhost:80", "127.0.0.1:80", "[::1]:80"}},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 8080}, nil},
		{&net.TCPAddr{IP: net.IPv4(192, 168, 1, 2), Port: 8080}, nil},
		{&net.UnixAddr{Name: "/tmp/s", Net: "unix"}, nil},
	} {
		if got := LoopbackHosts(tc.addr); !slices.Equal(got, tc.want) {
			t.Errorf("LoopbackHosts(%v) = %q, want %q", tc.addr, got, tc.want)
		}
	}
}

// TestServeCommandFlags: bad values are usage errors naming the flag; a
// good command serves until its context ends and returns its error.
func TestServeCommandFlags(t *testing.T) {
	run := (&fake{run: func(_ context.Context, _ []string, stdout, _ io.Writer) int { io.WriteString(stdout, "v"); return 0 }}).Run
	for _, tc := range []struct {
		set  func(*CommandFlags)
		want string
	}{
		{func(f *CommandFlags) { f.Slots = 0 }, "--slots 0"},
		{func(f *CommandFlags) { f.Slots = 1025 }, "--slots 1025"},
		{func(f *CommandFlags) { f.Queue = -1 }, "--queue -1"},
		{func(f *CommandFlags) { f.Timeout = time.Millisecond }, "--timeout 1ms"},
		{func(f *CommandFlags) { f.Addr = "127.0.0.1:99999" }, "--addr 127.0.0.1:99999"},
	} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		f := AddFlags(fs)
		tc.set(f)
		err := Command(context.Background(), io.Discard, f, run)
		var ue *cli.UsageError
		if !errors.As(err, &ue) || !strings.HasPrefix(ue.Msg, tc.want) {
			t.Errorf("%+v: %v, want a usage error starting %q", f, err, tc.want)
		}
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	f := AddFlags(fs)
	if err := fs.Parse([]string{"--addr", "127.0.0.1:0"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Command(ctx, pw, f, run) }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	u := strings.TrimSuffix(strings.TrimPrefix(line, "gossipkit serve: "), " (Ctrl-C stops)\n")
	resp, err := http.Get(u + "api/version")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "v" {
		t.Errorf("GET %sapi/version: %d %q", u, resp.StatusCode, b)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Command returned %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Command did not return after its context ended")
	}
}

// TestServeProgressFromCLIBar: the counts are read from what the CLI's
// own progress bar (cli.NewProgress, schollz/progressbar) writes, not
// only from a copy of its format.
func TestServeProgressFromCLIBar(t *testing.T) {
	var got [][2]int64
	p := &stderrParser{progress: func(done, total int64) { got = append(got, [2]int64{done, total}) }}
	bar := cli.NewProgress(p, WantsProgress(p), "plan")
	for _, d := range []int64{0, 300, 600} {
		bar(d, 1000)
		time.Sleep(250 * time.Millisecond) // past the bar's 200 ms throttle
	}
	if len(got) == 0 || got[len(got)-1] != [2]int64{600, 1000} {
		t.Errorf("progress read %v, want it to end at 600 of 1000", got)
	}
	for _, g := range got {
		if g[1] != 1000 || g[0] > 600 {
			t.Errorf("progress %v: not a count the bar was given", g)
		}
	}
}
