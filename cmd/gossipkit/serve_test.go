package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/gossipkit/gossipkit/internal/serve"
	"github.com/gossipkit/gossipkit/report"
)

// newServeTest starts the API on loopback with the CLI's own runner.
func newServeTest(t *testing.T, opt serve.Options) *httptest.Server {
	t.Helper()
	if opt.Run == nil {
		opt.Run = serveRunner()
	}
	s, err := serve.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

func httpGet(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// TestServeAPIMatchesCLI: each API answer is byte for byte what the CLI
// prints for the same flags (the command lines written out by hand, not
// built by the server's conversion), and bad input is the CLI's one line.
func TestServeAPIMatchesCLI(t *testing.T) {
	ts := newServeTest(t, serve.Options{})
	for _, tc := range []struct {
		path string
		args []string
	}{
		{"/api/plan?N=1000&s=30:70:10&deadline=90", []string{"plan", "--format", "json", "-N", "1000", "-s", "30:70:10", "--deadline", "90"}},
		{"/api/plan?N=1000&s=30%3A70%3A10&deadline=90&format=csv", []string{"plan", "-N", "1000", "-s", "30:70:10", "--deadline", "90", "--format", "csv"}},
		{"/api/plan?N=100000&n=500&c=100&s=50&time=shuffles&pdrop=gamma&level=0.9&confidence=0.5", []string{"plan", "--format", "json", "-N", "100000", "--time", "shuffles", "--pdrop", "gamma", "--level", "0.9", "--confidence", "0.5"}},
		{"/api/plan?N=60&n=20&c=8&s=2:6:2&method=exact&format=markdown", []string{"plan", "--format", "markdown", "-N", "60", "-n", "20", "-c", "8", "-s", "2:6:2", "--method", "exact"}},
		{"/api/plan?N=200&s=50&method=mc&reps=50&seed=7", []string{"plan", "--format", "json", "-N", "200", "--method", "mc", "--reps", "50", "--seed", "7"}},
		{"/api/ode?N=1000&s=50&t-max=120&dt=2", []string{"ode", "--format", "json", "-N", "1000", "-s", "50", "--t-max", "120", "--dt", "2"}},
		{"/api/ode?N=1000&t-max=50&refined&format=csv", []string{"ode", "--format", "csv", "-N", "1000", "--t-max", "50", "--refined"}},
		{"/api/sim?N=300&model=lumped&schedule=continuous&rounds=60&reps=20", []string{"sim", "--format", "json", "-N", "300", "--model", "lumped", "--schedule", "continuous", "--rounds", "60", "--reps", "20"}},
		{"/api/pdrop?n=275:1000:25&c=250&s=5", []string{"pdrop", "--format", "json", "-n", "275:1000:25", "-c", "250", "-s", "5"}},
		{"/api/version", []string{"version"}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			want, stderr, code := runCLI(t, nil, tc.args...)
			if code != 0 {
				t.Fatalf("%q: exit %d: %s", tc.args, code, stderr)
			}
			status, got := httpGet(t, ts.URL+tc.path)
			if status != 200 || got != want {
				t.Errorf("%s: %d, %d bytes; the CLI printed %d bytes; equal: %v", tc.path, status, len(got), len(want), got == want)
			}
		})
	}
	for _, tc := range []struct {
		path string
		args []string
	}{
		{"/api/plan?N=1", []string{"plan", "-N", "1"}},
		{"/api/plan?level=2", []string{"plan", "--level", "2"}},
		{"/api/plan?s=x", []string{"plan", "-s", "x"}},
		{"/api/plan?nope=1", []string{"plan", "--nope", "1"}},
		{"/api/plan?N=5&N=6", []string{"plan", "-N", "5", "-N", "6"}},
		{"/api/ode?refined=maybe", []string{"ode", "--refined", "maybe"}},
		{"/api/pdrop?c=4&s=2", []string{"pdrop", "-c", "4", "-s", "2"}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			_, stderr, code := runCLI(t, nil, tc.args...)
			status, got := httpGet(t, ts.URL+tc.path)
			if code != 2 || status != 400 || got != stderr || strings.Count(got, "\n") != 1 {
				t.Errorf("%s: HTTP %d %q; the CLI: exit %d %q", tc.path, status, got, code, stderr)
			}
		})
	}
}

// TestServeFig4MatchesPlot: the page's Fig. 4 (pdrop's log10_abs_diff
// through the API) is the curve `plot fig4` draws (report.Fig4Curves,
// which computes it on its own path: formula (1) by exact.NewFormula1's
// recurrence in n, where pdrop evaluates each point by exact.PDrop).
func TestServeFig4MatchesPlot(t *testing.T) {
	ts := newServeTest(t, serve.Options{})
	sc := report.Quick()
	sc.Fig4C, sc.Fig4S, sc.Fig4NMax, sc.Fig4Step = []int{250}, []int{5}, 1000, 25
	curves, err := report.NewStudy(sc, report.Options{}).Fig4Curves(context.Background())
	if err != nil || len(curves) != 1 {
		t.Fatal(curves, err)
	}
	status, body := httpGet(t, ts.URL+"/api/pdrop?n=275:1000:25&c=250&s=5")
	var rows []struct {
		N    float64  `json:"n"`
		Diff *float64 `json:"log10_abs_diff"`
	}
	if err := json.Unmarshal([]byte(body), &rows); status != 200 || err != nil {
		t.Fatalf("%d %v %s", status, err, body)
	}
	var n, diff []float64
	for _, r := range rows {
		if r.Diff != nil {
			n, diff = append(n, r.N), append(diff, *r.Diff)
		}
	}
	c := curves[0]
	if !slices.Equal(n, c.N) {
		t.Fatalf("n: the API %v, plot fig4 %v", n, c.N)
	}
	// Both are log10 of one exact rational difference; they may differ
	// only in how the logarithm of a big rational is rounded to float64.
	for i := range n {
		if math.Abs(diff[i]-c.Log10Diff[i]) > 1e-12 {
			t.Errorf("n = %g: the API %.15g, plot fig4 %.15g", n[i], diff[i], c.Log10Diff[i])
		}
	}
}

// TestServeNoFileWrites: requests of every kind, including those that try
// to write, leave the working folder and the temporary folder empty.
func TestServeNoFileWrites(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	t.Chdir(dir)
	t.Setenv("TMPDIR", tmp) // where os.CreateTemp would write
	ts := newServeTest(t, serve.Options{})
	for _, p := range []string{
		"/api/plan?N=100000&s=20:40:10", "/api/plan?o=plan.json", "/api/plan?o=-", "/api/sim?N=100&rounds=5&reps=2&shard=1/2&o=part/",
		"/api/sim?N=100&rounds=5&reps=2&shards=2", "/api/plot?out=.", "/api/reproduce?out=r", "/api/merge?o=m", "/api/tree?out=t",
		"/api/ode?N=100&t-max=20&format=csv", "/api/pdrop?n=10:20&c=5&s=2&enumerate", "/", "/app.js", "/api/events/plan?N=100000",
		"/api/plan?help", "/api/gamma-check?o=g",
	} {
		httpGet(t, ts.URL+p)
	}
	for _, d := range []string{dir, tmp} {
		ents, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		if len(ents) != 0 {
			var names []string
			for _, e := range ents {
				names = append(names, e.Name())
			}
			t.Errorf("the requests wrote %q in %s", names, d)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader on two
// goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeCommand: the command's flags follow the bad-input contract; it
// serves on the address given, and a signal stops it with exit 143 (SIGTERM)
// or 130 (SIGINT) and one line, its requests cancelled.
func TestServeCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--slots", "0"}, "--slots"},
		{[]string{"serve", "--queue", "-1"}, "--queue"},
		{[]string{"serve", "--timeout", "1ms"}, "--timeout"},
		{[]string{"serve", "--queue-wait", "1ms"}, "--queue-wait 1ms: valid range 1s..24h (0: the --timeout)"},
		{[]string{"serve", "--queue-wait", "25h"}, "--queue-wait"},
		{[]string{"serve", "--timeout", "x"}, "--timeout"},
		{[]string{"serve", "--addr", "127.0.0.1:99999"}, "--addr"},
		{[]string{"serve", "--addr", "no-such-host.invalid:1"}, "--addr"},
		{[]string{"serve", "extra"}, "extra"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) { expectUsage(t, nil, tc.args, tc.want) })
	}
	for _, sig := range []struct {
		sig  syscall.Signal
		code int
		word string
	}{{syscall.SIGTERM, 143, "terminated"}, {syscall.SIGINT, 130, "interrupted"}} {
		t.Run(sig.sig.String(), func(t *testing.T) {
			self, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(self, "serve", "--addr", "127.0.0.1:0")
			cmd.Env = append(os.Environ(), "GOSSIPKIT_AS_MAIN=1")
			cmd.Dir = t.TempDir()
			var stdout syncBuffer
			cmd.Stdout = &stdout
			pr, pw := io.Pipe()
			cmd.Stderr = pw
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			lines := bufio.NewScanner(pr)
			if !lines.Scan() {
				t.Fatal("no first line on stderr")
			}
			first := lines.Text()
			addr, ok := strings.CutPrefix(first, "gossipkit serve: http://")
			addr, _, _ = strings.Cut(addr, "/")
			if !ok {
				t.Fatalf("first line %q: want the address", first)
			}
			var rest syncBuffer
			go func() { io.Copy(&rest, pr) }()
			if status, body := httpGet(t, "http://"+addr+"/api/version"); status != 200 || !strings.HasPrefix(body, "gossipkit ") {
				t.Errorf("/api/version: %d %q", status, body)
			}
			// On loopback, another Host (a page elsewhere that rebinds its
			// name to 127.0.0.1) is refused.
			req, _ := http.NewRequest("GET", "http://"+addr+"/api/version", nil)
			req.Host = "attacker.example:" + addr[strings.LastIndexByte(addr, ':')+1:]
			if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
				t.Errorf("Host %s: %v %v, want 421", req.Host, resp, err)
			} else {
				resp.Body.Close()
			}
			// A long request in flight when the signal comes.
			reqErr := make(chan error, 1)
			go func() {
				resp, err := http.Get("http://" + addr + "/api/plan?N=3000&method=exact")
				if err == nil {
					resp.Body.Close()
				}
				reqErr <- err
			}()
			time.Sleep(300 * time.Millisecond)
			start := time.Now()
			cmd.Process.Signal(sig.sig)
			err = cmd.Wait()
			pw.Close()
			code := cmd.ProcessState.ExitCode()
			took := time.Since(start)
			time.Sleep(50 * time.Millisecond)
			if code != sig.code {
				t.Errorf("exit %d (%v), want %d", code, err, sig.code)
			}
			if want := "gossipkit serve: " + sig.word + "; no output written\n"; rest.String() != want {
				t.Errorf("stderr after the address %q, want %q", rest.String(), want)
			}
			if stdout.String() != "" {
				t.Errorf("stdout %q", stdout.String())
			}
			select {
			case <-reqErr:
			case <-time.After(5 * time.Second):
				t.Error("the request in flight did not end")
			}
			t.Logf("stopped %v after the signal", took.Round(time.Millisecond))
		})
	}
}

// TestServeLoad: 1,000 requests on loopback, 16 at a time: no error, the
// latency's median and 99th percentile logged, the heap back near where it
// started (the pool bounds the work in flight).
func TestServeLoad(t *testing.T) {
	ts := newServeTest(t, serve.Options{})
	paths := []string{
		"/api/plan?N=1000&s=50&method=asymptotic",
		"/api/plan?N=100000&s=40:60:10&deadline=300",
		"/api/ode?N=1000&t-max=100&dt=5",
		"/api/pdrop?n=300:400:20&c=250&s=5",
		"/app.js",
	}
	want := map[string]string{}
	for _, p := range paths {
		_, want[p] = httpGet(t, ts.URL+p)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	const total, conc = 1000, 16
	lat := make([]time.Duration, total)
	var errs []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan int)
	// The heap's peak while the requests run, sampled every 10 ms.
	var peak uint64
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			select {
			case <-stopSampling:
				return
			case <-time.After(10 * time.Millisecond):
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapAlloc)
			}
		}
	}()
	start := time.Now()
	for range conc {
		wg.Go(func() {
			for i := range next {
				p := paths[i%len(paths)]
				t0 := time.Now()
				resp, err := client.Get(ts.URL + p)
				var body []byte
				if err == nil {
					body, err = io.ReadAll(resp.Body)
					resp.Body.Close()
					if err == nil && (resp.StatusCode != 200 || string(body) != want[p]) {
						err = fmt.Errorf("%s: HTTP %d, %d bytes", p, resp.StatusCode, len(body))
					}
				}
				lat[i] = time.Since(t0)
				if err != nil {
					mu.Lock()
					errs = append(errs, err.Error())
					mu.Unlock()
				}
			}
		})
	}
	for i := range total {
		next <- i
	}
	close(next)
	wg.Wait()
	wall := time.Since(start)
	close(stopSampling)
	<-sampled
	client.CloseIdleConnections()
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	slices.Sort(lat)
	t.Logf("%d requests, %d at a time, in %v: p50 %v, p99 %v, max %v; heap %.1f MiB before, %.1f MiB at most during, %.1f MiB after; goroutines %d",
		total, conc, wall.Round(time.Millisecond), lat[total/2].Round(time.Microsecond), lat[total*99/100].Round(time.Microsecond), lat[total-1].Round(time.Microsecond),
		float64(before.HeapAlloc)/(1<<20), float64(peak)/(1<<20), float64(after.HeapAlloc)/(1<<20), runtime.NumGoroutine())
	// While they run, the pool holds 2×GOMAXPROCS commands: each answer
	// here is under 50 kB and each command's work under a few MiB, so
	// 256 MiB is far above what a bounded pool can reach and far below
	// what 16 unbounded copies of a leak would.
	if peak > 256<<20 {
		t.Errorf("heap peaked at %.1f MiB", float64(peak)/(1<<20))
	}
	if len(errs) > 0 {
		t.Errorf("%d errors; first: %s", len(errs), errs[0])
	}
	// Nothing is kept between requests: the heap after is within 32 MiB
	// of the heap before (one answer is at most a few hundred kB; the
	// margin is the runtime's and the HTTP transport's caches).
	if grow := int64(after.HeapAlloc) - int64(before.HeapAlloc); grow > 32<<20 {
		t.Errorf("heap grew by %.1f MiB over the run", float64(grow)/(1<<20))
	}
}

// ---- the page in a real browser ----

// chromium returns the browser to drive, or skips the test saying why;
// with GOSSIPKIT_REQUIRE_CHROMIUM=1 (set by .ci/run) a missing browser fails.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	if os.Getenv("GOSSIPKIT_REQUIRE_CHROMIUM") == "1" {
		t.Fatal("no chromium: /usr/bin/chromium is missing and none is on PATH (GOSSIPKIT_REQUIRE_CHROMIUM=1)")
	}
	t.Skip("no chromium: /usr/bin/chromium is missing and none is on PATH (apt-get install chromium; .ci/run installs it)")
	return ""
}

// page is one headless tab on a served explorer.
type page struct {
	t        *testing.T
	ctx      context.Context
	base     string
	download string
	shots    string
}

func newPage(t *testing.T, opt serve.Options) *page {
	t.Helper()
	exe := chromium(t)
	ts := newServeTest(t, opt)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 1000),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	// A guard against a hang, not a speed test: a page's work is a few
	// seconds idle, but a loaded machine (CI beside other jobs) took the
	// broadcast test's three pages past 90 s.
	ctx, cancelT := context.WithTimeout(ctx, 6*time.Minute)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	p := &page{t: t, ctx: ctx, base: ts.URL, download: t.TempDir(), shots: os.Getenv("GOSSIPKIT_SCREENSHOTS")}
	if p.shots == "" {
		p.shots = t.TempDir()
	} else if err := os.MkdirAll(p.shots, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: p.download, EventsEnabled: new(true),
	}); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	return p
}

func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
}

func (p *page) eval(js string, v any) {
	p.t.Helper()
	raw, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]byte](js))
	if err != nil {
		p.t.Fatalf("%s: %v", js, err)
	}
	if v != nil {
		if err := json.Unmarshal(raw, v); err != nil {
			p.t.Fatalf("%s: %v (%s)", js, err, raw)
		}
	}
}

// wait polls a JavaScript condition.
func (p *page) wait(cond string) {
	p.t.Helper()
	// An error shown on the page ends the wait (unless errors are awaited).
	awaitsErrors := strings.Contains(cond, "errors")
	poll := cond
	if !awaitsErrors {
		poll = "(" + cond + ") || gk.errors > 0"
	}
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[chromedp.Void](poll, chromedp.WithPollingTimeout(3*time.Minute))); err != nil {
		var status string
		chromedp.Run(p.ctx, chromedp.Evaluate[chromedp.Void](`0`))
		p.eval(`document.getElementById("status").textContent`, &status)
		p.t.Fatalf("waiting for %s: %v (status %q)", cond, err, status)
	}
	var errs int
	p.eval(`gk.errors`, &errs)
	if errs > 0 && !awaitsErrors {
		var status string
		p.eval(`document.getElementById("status").textContent`, &status)
		p.t.Fatalf("waiting for %s: the page shows an error: %s", cond, status)
	}
}

// noFaults checks that the page had no script error and no load refused
// by its content security policy.
func (p *page) noFaults() {
	p.t.Helper()
	var faults []string
	p.eval(`window.gk ? gk.faults : []`, &faults)
	if len(faults) > 0 {
		p.t.Errorf("the page's faults: %q", faults)
	}
}

// screenshot saves the whole page as NAME.png in the screenshot folder.
func (p *page) screenshot(name string) {
	p.t.Helper()
	buf, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatal(err)
	}
	f := filepath.Join(p.shots, name+".png")
	if err := os.WriteFile(f, buf, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot %s (%d bytes)", f, len(buf))
}

// downloaded waits for a downloaded file and returns its content.
func (p *page) downloaded(name string) []byte {
	p.t.Helper()
	f := filepath.Join(p.download, name)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if b, err := os.ReadFile(f); err == nil && len(b) > 0 {
			if _, err := os.Stat(f + ".crdownload"); err != nil {
				os.Remove(f) // the next download of the same name keeps it
				return b
			}
		}
	}
	p.t.Fatalf("no download %s", name)
	return nil
}

// shownRow is a row of the page's table: cell text by column.
type shownRow map[string]string

func (p *page) table() (rows []shownRow, classes []string) {
	p.t.Helper()
	var out struct {
		Rows    []shownRow
		Classes []string
	}
	p.eval(`(() => {
		const rows = [], classes = [];
		for (const tr of document.querySelectorAll("#plan-table tbody tr")) {
			const r = {};
			for (const td of tr.cells) r[td.dataset.k] = td.textContent;
			rows.push(r); classes.push(tr.className);
		}
		return {Rows: rows, Classes: classes};
	})()`, &out)
	return out.Rows, out.Classes
}

// compareTable checks the rendered table against the CLI's JSON: every
// column, in order; numbers to the 4 significant digits the page shows
// (relative 5e-4, half a unit of the 4th digit, plus rounding of the
// integers the page prints whole), null as "—", booleans as yes/no; and the
// fastest and cheapest rows highlighted as the JSON's best and cheapest.
func compareTable(t *testing.T, shown []shownRow, classes []string, cliJSON string) {
	t.Helper()
	var ans struct {
		Rows     []map[string]any `json:"rows"`
		Best     map[string]any   `json:"best"`
		Cheapest map[string]any   `json:"cheapest"`
	}
	dec := json.NewDecoder(strings.NewReader(cliJSON))
	dec.UseNumber()
	if err := dec.Decode(&ans); err != nil {
		t.Fatalf("the CLI's JSON: %v", err)
	}
	if len(shown) != len(ans.Rows) {
		t.Fatalf("the page shows %d rows, the CLI %d", len(shown), len(ans.Rows))
	}
	delete(ans.Best, "cdf") // the distribution is drawn in the chart, not shown in the table
	delete(ans.Cheapest, "cdf")
	for i, r := range ans.Rows {
		delete(r, "cdf")
		if len(shown[i]) != len(r) {
			t.Errorf("row %d: %d columns shown, the CLI has %d", i, len(shown[i]), len(r))
		}
		for k, v := range r {
			got, ok := shown[i][k]
			if !ok {
				t.Errorf("row %d: column %s not shown", i, k)
				continue
			}
			switch v := v.(type) {
			case nil:
				if got != "—" {
					t.Errorf("row %d %s: shown %q, the CLI null", i, k, got)
				}
			case bool:
				if got != map[bool]string{true: "yes", false: "no"}[v] {
					t.Errorf("row %d %s: shown %q, the CLI %v", i, k, got, v)
				}
			case json.Number:
				want, _ := v.Float64()
				g, err := strconv.ParseFloat(got, 64)
				// 5e-4 relative: the page prints the CLI's value to 4 significant digits, so the shown number is within half a unit of the 4th digit, 5e-4 relative; 1e-12 absolute for a printed 0.
				if err != nil || math.Abs(g-want) > 5e-4*math.Abs(want)+1e-12 {
					t.Errorf("row %d %s: shown %q, the CLI %v", i, k, got, v)
				}
			case string:
				if got != v {
					t.Errorf("row %d %s: shown %q, the CLI %q", i, k, got, v)
				}
			}
		}
		same := func(m map[string]any) bool { return m != nil && fmt.Sprint(m) == fmt.Sprint(r) }
		if want := same(ans.Best); strings.Contains(classes[i], "best") != want {
			t.Errorf("row %d: class %q, the CLI's best: %v", i, classes[i], want)
		}
		if want := same(ans.Cheapest); strings.Contains(classes[i], "cheapest") != want {
			t.Errorf("row %d: class %q, the CLI's cheapest: %v", i, classes[i], want)
		}
	}
}

// pageArgs turns a page URL's query into the CLI's plan arguments (the
// test's own conversion, written out: one dash for one letter).
func pageArgs(q url.Values, keys ...string) []string {
	args := []string{"plan", "--format", "json"}
	for _, k := range keys {
		if v := q.Get(k); v != "" {
			d := "--"
			if len(k) == 1 {
				d = "-"
			}
			args = append(args, d+k, v)
		}
	}
	return args
}

func TestServeBrowserShuffle(t *testing.T) {
	p := newPage(t, serve.Options{})
	start := time.Now()
	q := url.Values{"protocol": {"shuffle"}, "N": {"1000"}, "s": {"30:70:10"}, "deadline": {"90"}, "confidence": {"0.9"}}
	p.do(chromedp.Navigate(p.base + "/?" + q.Encode()))
	p.wait(`window.gk && gk.renders >= 1 && gk.figures >= 1`)

	// The numbers shown are the CLI's for the URL's flags (the page sends
	// its other fields at their defaults, which must be the CLI's).
	want, _, code := runCLI(t, nil, pageArgs(q, "N", "s", "deadline", "confidence")...)
	if code != 0 {
		t.Fatal("the CLI failed")
	}
	rows, classes := p.table()
	compareTable(t, rows, classes, want)
	var ans struct {
		Best *struct {
			PDeadline float64 `json:"p_deadline"`
		} `json:"best"`
	}
	json.Unmarshal([]byte(want), &ans)
	var pd string
	p.eval(`(document.getElementById("p-deadline") || {}).textContent || ""`, &pd)
	if ans.Best != nil {
		// 5e-4 relative: the page shows p_deadline to 4 significant digits (half a unit of the 4th digit).
		if g, err := strconv.ParseFloat(pd, 64); err != nil || math.Abs(g-ans.Best.PDeadline) > 5e-4*ans.Best.PDeadline {
			t.Errorf("P(T_L ≤ D) shown %q, the CLI %g", pd, ans.Best.PDeadline)
		}
	}
	// The figures: a CDF per row, the deadline and the confidence marked;
	// x(t), y(t) with the bands; Fig. 4.
	var fig struct {
		CDF, Bands, Curves, Fig4 int
		Marks                    []string
	}
	p.eval(`({CDF: document.querySelectorAll("#cdf svg path").length,
		Marks: [...document.querySelectorAll("#cdf svg text")].map(e => e.textContent).filter(s => /^[DP] =/.test(s)),
		Bands: document.querySelectorAll("#curves svg polygon").length,
		Curves: document.querySelectorAll("#curves svg path").length,
		Fig4: document.querySelectorAll("#fig4 svg path").length})`, &fig)
	if fig.CDF != len(rows) || fig.Bands != 2 || fig.Curves != 3 || fig.Fig4 != 1 || !slices.Equal(fig.Marks, []string{"D = 90", "P = 0.9"}) {
		t.Errorf("figures: %+v; want %d CDF curves, 2 bands, 3 curves, 1 Fig. 4 curve, marks D = 90 and P = 0.9", fig, len(rows))
	}
	p.screenshot("shuffle")

	// Downloads: the table's CSV is the CLI's CSV; the figures as SVG and PNG.
	p.eval(`document.getElementById("plan-csv").click()`, nil)
	csv, _, _ := runCLI(t, nil, append(pageArgs(q, "N", "s", "deadline", "confidence")[:1], "--format", "csv", "-N", "1000", "-s", "30:70:10", "--deadline", "90", "--confidence", "0.9")...)
	if got := p.downloaded("plan.csv"); string(got) != csv {
		t.Errorf("plan.csv:\n%s\nthe CLI's CSV:\n%s", got, csv)
	}
	p.eval(`document.querySelector("[data-svg=cdf]").click()`, nil)
	if got := p.downloaded("cdf.svg"); !bytes.HasPrefix(got, []byte("<svg")) || !bytes.Contains(got, []byte("D = 90")) {
		t.Errorf("cdf.svg: %.80q…", got)
	}
	p.eval(`document.querySelector("[data-png=curves]").click()`, nil)
	if got := p.downloaded("curves.png"); !bytes.HasPrefix(got, []byte("\x89PNG\r\n\x1a\n")) || len(got) < 5000 {
		t.Errorf("curves.png: %d bytes, %.8q", len(got), got)
	}
	p.eval(`document.getElementById("fig4-csv").click()`, nil)
	f4, _, _ := runCLI(t, nil, "pdrop", "-n", "275:3000:25", "-c", "250", "-s", "5", "--format", "csv")
	if got := p.downloaded("fig4.csv"); string(got) != f4 {
		t.Errorf("fig4.csv differs from the CLI's pdrop CSV (%d and %d bytes)", len(got), len(f4))
	}

	// Editing a field updates the URL, redraws the figure with the CLI's
	// new answer; the redraw time (fetch + render, in the page) is logged.
	var before string
	p.eval(`document.querySelector("#cdf svg path").getAttribute("d")`, &before)
	var times []float64
	for i, n := range []string{"20000", "50000", "100000", "300000", "1000000"} {
		p.eval(fmt.Sprintf(`(() => { const f = document.getElementById("f-N"); f.value = %q; f.dispatchEvent(new Event("change")); })()`, n), nil)
		// The figures of one edit finish before the next edit, so that
		// each redraw is timed alone (x(t), y(t) and Fig. 4 come after it).
		p.wait(fmt.Sprintf(`gk.renders >= %d && gk.figures >= %d`, i+2, i+2))
		var ms float64
		p.eval(`gk.timings[gk.timings.length - 1]`, &ms)
		times = append(times, ms)
	}
	var loc, after string
	p.eval(`location.search`, &loc)
	p.eval(`document.querySelector("#cdf svg path").getAttribute("d")`, &after)
	if !strings.Contains(loc, "N=1000000") {
		t.Errorf("the URL %q does not hold the edited N", loc)
	}
	if after == before {
		t.Error("the CDF was not redrawn after N changed")
	}
	q.Set("N", "1000000")
	want, _, _ = runCLI(t, nil, pageArgs(q, "N", "s", "deadline", "confidence")...)
	rows, classes = p.table()
	compareTable(t, rows, classes, want)
	sorted := slices.Clone(times)
	slices.Sort(sorted)
	t.Logf("redraw of the asymptotic answer after an edit of N (a sweep of 5 s; fetch + render, performance.now in the page): median %.1f ms, max %.1f ms (target < 200 ms): %.1f", sorted[2], sorted[4], times)

	// Opening the edited URL reproduces the answer.
	p.do(chromedp.Navigate(p.base + "/" + loc))
	p.wait(`window.gk && gk.renders >= 1`)
	rows2, _ := p.table()
	if fmt.Sprint(rows2) != fmt.Sprint(rows) {
		t.Error("reopening the URL shows another answer")
	}

	// First load: the document and its assets, as the browser counts them.
	var bytesIn float64
	p.eval(`performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource").filter(e => !e.name.includes("/api/"))).reduce((a, e) => a + e.encodedBodySize, 0)`, &bytesIn)
	t.Logf("first load %.0f bytes", bytesIn)
	if bytesIn <= 0 || bytesIn > 1e6 {
		t.Errorf("first load %.0f bytes; want (0, 1 MB]", bytesIn)
	}

	// Bad input: the CLI's line, shown on the page.
	p.do(chromedp.Navigate(p.base + "/" + loc))
	p.wait(`window.gk && gk.renders >= 1`)
	p.eval(`(() => { const f = document.getElementById("f-level"); f.value = "1.5"; f.dispatchEvent(new Event("change")); })()`, nil)
	p.wait(`gk.errors >= 1`)
	var status string
	p.eval(`document.getElementById("status").textContent`, &status)
	_, line, _ := runCLI(t, nil, "plan", "--level", "1.5")
	if status != strings.TrimSpace(line) {
		t.Errorf("status %q, want the CLI's %q", status, line)
	}
	p.noFaults()
	t.Logf("browser test in %v", time.Since(start).Round(time.Millisecond))
}

// TestServeBrowserShuffleLoss: the shuffle form's loss field reaches plan
// (the numbers shown are the CLI's for --loss 0.1, with p_reach) and the
// x(t), y(t) figure (its ode and sim requests carry the loss).
func TestServeBrowserShuffleLoss(t *testing.T) {
	p := newPage(t, serve.Options{})
	q := url.Values{"protocol": {"shuffle"}, "N": {"300"}, "s": {"50"}, "loss": {"0.1"}, "deadline": {"100"}}
	p.do(chromedp.Navigate(p.base + "/?" + q.Encode()))
	p.wait(`window.gk && gk.renders >= 1 && gk.figures >= 1`)
	want, _, code := runCLI(t, nil, pageArgs(q, "N", "s", "loss", "deadline")...)
	if code != 0 || !strings.Contains(want, `"p_reach"`) {
		t.Fatalf("the CLI failed or gave no p_reach: %.200s", want)
	}
	rows, classes := p.table()
	compareTable(t, rows, classes, want)
	var got struct{ ODE, Sim, Note string }
	p.eval(`({ODE: gk.odeQuery.get("loss") || "", Sim: gk.simQuery.get("loss") || "", Note: document.getElementById("curves-note").textContent})`, &got)
	if got.ODE != "0.1" || got.Sim != "0.1" || !strings.Contains(got.Note, "ε = 0.1") {
		t.Errorf("figures: ode loss %q, sim loss %q, note %q; want 0.1, 0.1 and a note naming ε = 0.1", got.ODE, got.Sim, got.Note)
	}
	p.noFaults()
}

// TestServeBrowserBroadcast: the push, pull and push–pull forms. Until
// plan takes --protocol, the page must show the CLI's one line (and the
// test skips its comparison, saying why); after, the rendered numbers are
// the CLI's.
func TestServeBrowserBroadcast(t *testing.T) {
	p := newPage(t, serve.Options{})
	refused := 0
	for _, proto := range []string{"push", "pull", "push-pull"} {
		// N = 300: exact without a budget, Monte Carlo with memberlist's
		// budget (push only: pull replies are not budgeted), each under 1 s.
		q := url.Values{"protocol": {proto}, "N": {"300"}, "fanout": {"1:4"}, "loss": {"0.1"}, "deadline": {"30"}}
		if proto == "push" {
			q.Set("budget", "memberlist")
		}
		args := pageArgs(q, "protocol", "N", "fanout", "loss", "budget", "deadline")
		want, stderr, code := runCLI(t, nil, args...)
		p.do(chromedp.Navigate(p.base + "/?" + q.Encode()))
		p.wait(`window.gk && (gk.renders >= 1 || gk.errors >= 1)`)
		p.screenshot(proto)
		p.noFaults()
		if code == 2 && strings.Contains(stderr, "--protocol: unknown flag") {
			var status string
			p.eval(`document.getElementById("status").textContent`, &status)
			if !strings.HasPrefix(status, strings.TrimSpace(stderr)) {
				t.Errorf("%s: the page shows %q, want the CLI's line first, %q", proto, status, stderr)
			}
			refused++
			t.Logf("%s: plan refuses --protocol (%s); the page shows that line; the numbers are compared once plan takes it", proto, strings.TrimSpace(stderr))
			continue
		}
		if code != 0 {
			t.Errorf("%q: exit %d: %s", args, code, stderr)
			continue
		}
		rows, classes := p.table()
		compareTable(t, rows, classes, want)
		// A curve per row that has quantiles (none when L is never reached).
		var ans struct {
			Rows []struct {
				Q50 *float64 `json:"q50"`
			} `json:"rows"`
		}
		json.Unmarshal([]byte(want), &ans)
		drawn := 0
		for _, r := range ans.Rows {
			if r.Q50 != nil {
				drawn++
			}
		}
		var curves int
		p.eval(`document.querySelectorAll("#cdf svg path").length`, &curves)
		if curves != min(drawn, 12) {
			t.Errorf("%s: %d CDF curves for %d rows with quantiles", proto, curves, drawn)
		}
	}
	if refused > 0 {
		t.Skipf("plan refused --protocol as an unknown flag for %d of 3 protocols: their numbers were not compared (the page's 400 line was)", refused)
	}
}

// TestServeBrowserCancel: a long answer (Monte Carlo) shows its progress
// in the page, and leaving the page or closing its tab stops the command
// on the server.
func TestServeBrowserCancel(t *testing.T) {
	type end struct {
		args []string
		code int
	}
	ends := make(chan end, 16)
	run := serveRunner()
	p := newPage(t, serve.Options{Run: func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		code := run(ctx, args, stdout, stderr)
		ends <- end{args, code}
		return code
	}})
	main := p.ctx
	for _, how := range []string{"page left", "tab closed"} {
		// A tab of its own: 5000 replications of the pairwise chain at
		// N = 2000, a minute or more.
		tab, closeTab := chromedp.NewContext(main)
		p.ctx = tab
		p.do(chromedp.Navigate(p.base + "/?protocol=shuffle&N=2000&method=mc&reps=5000"))
		p.wait(`!document.getElementById("progress").hidden && document.getElementById("progress-bar").value > 0`)
		var shown string
		p.eval(`document.getElementById("progress-text").textContent`, &shown)
		if how == "page left" {
			p.screenshot("progress")
		}
		t0 := time.Now()
		if how == "page left" {
			p.do(chromedp.Navigate("about:blank"))
		} else {
			closeTab()
		}
	wait:
		for {
			select {
			case e := <-ends:
				if e.args[0] != "plan" {
					continue
				}
				if e.code != 130 {
					t.Errorf("%s: %q ended with exit %d, want 130 (cancelled)", how, e.args, e.code)
				}
				t.Logf("%s: progress shown %q; the command stopped %v after", how, shown, time.Since(t0).Round(time.Millisecond))
				break wait
			case <-time.After(10 * time.Second):
				t.Fatalf("%s: the command still runs 10 s after", how)
			}
		}
		closeTab()
	}
	p.ctx = main
}

// broadcastAnswer is a design of push as plan --protocol writes it (the
// columns of the command's broadcast table: fanout and budget, then the
// law given L is reached, p_reach, the costs and the accuracies), written
// by hand for the page's test: row 0 misses L with probability 0.1; row 1
// has whole-round quantiles, as an exact law in rounds does.
const broadcastAnswer = `{
"rows": [
  {"fanout": 1, "budget": 0, "method": "asymptotic", "p_reach": 0.9, "mean": 24.5, "sd": 2.25, "q05": 21, "q25": 23, "q50": 24.25, "q75": 26, "q95": 28.5, "t_confidence": 31.5, "p_deadline": 0.87, "feasible": false, "residue": 0.001, "p_miss": 0.1, "messages_per_node": 24.5, "error_bound": null, "se_mean": null, "se_sd": null, "se_p_deadline": null, "se_p_reach": null, "se_messages": null, "dev_mean": 0.3, "dev_sd": 0.2, "dev_p": 0.01},
  {"fanout": 2, "budget": 0, "method": "exact", "p_reach": 1, "mean": 14.125, "sd": 1.5, "q05": 12, "q25": 13, "q50": 14, "q75": 15, "q95": 17, "t_confidence": 17, "p_deadline": 1, "feasible": true, "residue": 0, "p_miss": 0, "messages_per_node": 28.25, "error_bound": 1e-12, "se_mean": null, "se_sd": null, "se_p_deadline": null, "se_p_reach": null, "se_messages": null, "dev_mean": null, "dev_sd": null, "dev_p": null},
  {"fanout": 3, "budget": 0, "method": "mc", "p_reach": 1, "mean": 11.0625, "sd": 1.25, "q05": 9, "q25": 10, "q50": 11, "q75": 12, "q95": 13.5, "t_confidence": 13.5, "p_deadline": 1, "feasible": true, "residue": 0, "p_miss": 0, "messages_per_node": 33.1875, "error_bound": null, "se_mean": 0.04, "se_sd": 0.03, "se_p_deadline": 0, "se_p_reach": 0, "se_messages": 0.1, "dev_mean": null, "dev_sd": null, "dev_p": null}
],
"best": {"fanout": 3, "budget": 0, "method": "mc", "p_reach": 1, "mean": 11.0625, "sd": 1.25, "q05": 9, "q25": 10, "q50": 11, "q75": 12, "q95": 13.5, "t_confidence": 13.5, "p_deadline": 1, "feasible": true, "residue": 0, "p_miss": 0, "messages_per_node": 33.1875, "error_bound": null, "se_mean": 0.04, "se_sd": 0.03, "se_p_deadline": 0, "se_p_reach": 0, "se_messages": 0.1, "dev_mean": null, "dev_sd": null, "dev_p": null},
"cheapest": {"fanout": 2, "budget": 0, "method": "exact", "p_reach": 1, "mean": 14.125, "sd": 1.5, "q05": 12, "q25": 13, "q50": 14, "q75": 15, "q95": 17, "t_confidence": 17, "p_deadline": 1, "feasible": true, "residue": 0, "p_miss": 0, "messages_per_node": 28.25, "error_bound": 1e-12, "se_mean": null, "se_sd": null, "se_p_deadline": null, "se_p_reach": null, "se_messages": null, "dev_mean": null, "dev_sd": null, "dev_p": null}
}
`

// TestServeBrowserBroadcastPage: the push form against a runner that
// answers plan --protocol with broadcastAnswer (until the CLI computes
// these protocols): the flags the page sends, the table (fanout and budget
// as the sweep's columns, the fastest and the cheapest rows), the CDF drawn
// at p_reach times the quantiles' levels, and the CSV download.
func TestServeBrowserBroadcastPage(t *testing.T) {
	const csv = "fanout,budget,method\n1,0,asymptotic\n2,0,exact\n3,0,mc\n"
	var mu sync.Mutex
	var planArgs [][]string
	run := serveRunner()
	p := newPage(t, serve.Options{Run: func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		if args[0] != "plan" || !slices.Contains(args, "--protocol") {
			return run(ctx, args, stdout, stderr)
		}
		mu.Lock()
		planArgs = append(planArgs, args)
		mu.Unlock()
		if slices.Contains(args, "csv") {
			io.WriteString(stdout, csv)
		} else {
			io.WriteString(stdout, broadcastAnswer)
		}
		return 0
	}})
	p.do(chromedp.Navigate(p.base + "/?protocol=push&N=1000&fanout=1:3&loss=0.1&deadline=30"))
	p.wait(`window.gk && gk.renders >= 1`)
	want := []string{"plan", "--format", "json", "--protocol", "push", "-N", "1000", "--fanout", "1:3", "--loss", "0.1", "--failed", "0",
		"--level", "0.99", "--deadline", "30", "--confidence", "0.95", "--method", "auto", "--reps", "1000", "--seed", "1"}
	mu.Lock()
	if len(planArgs) != 1 || !slices.Equal(planArgs[0], want) {
		t.Errorf("the page ran %q, want %q", planArgs, want)
	}
	mu.Unlock()
	rows, classes := p.table()
	compareTable(t, rows, classes, broadcastAnswer)
	var got struct {
		Headline, Note string
		Levels         map[string][]float64
		Segments       map[string]int
	}
	// Each curve's points, read back from the drawn circles (by colour)
	// through the axis: 0 at the bottom of the frame, 1 at its top.
	p.eval(`(() => {
		const svg = document.querySelector("#cdf svg"), frame = svg.querySelectorAll("rect")[1];
		const h = +frame.getAttribute("height"), y0 = +frame.getAttribute("y") + h;
		const levels = {};
		for (const c of svg.querySelectorAll("circle")) (levels[c.getAttribute("fill")] ||= []).push((y0 - +c.getAttribute("cy")) / h);
		for (const k in levels) levels[k].sort((a, b) => a - b);
		const segments = {};
		for (const p of svg.querySelectorAll("path")) segments[p.getAttribute("stroke")] = (p.getAttribute("d").match(/L/g) || []).length;
		return {Headline: document.getElementById("headline").textContent, Note: document.getElementById("cdf-note").textContent, Levels: levels, Segments: segments};
	})()`, &got)
	if !strings.HasPrefix(got.Headline, "Fastest: fanout = 3, budget = 0") || !strings.Contains(got.Headline, "Cheapest: fanout = 2, budget = 0") {
		t.Errorf("headline %q", got.Headline)
	}
	if !strings.Contains(got.Note, "p_reach < 1") || !strings.Contains(got.Note, "steps") {
		t.Errorf("note %q: want one on p_reach < 1 and one on the steps", got.Note)
	}
	// Row 1's whole-round quantiles are drawn as steps (two segments
	// between points: along, then up), rows 0 and 2 as lines. Row 0 has 7
	// points (q05…q95, t_confidence, P(T_L ≤ D) = 0.87), rows 1 and 2 have
	// 6 (a P(T_L ≤ D) of 1 is not drawn).
	if want := map[string]int{"#3f7ddb": 6, "#d9662b": 10, "#2e9e5b": 5}; !maps.Equal(got.Segments, want) {
		t.Errorf("segments per curve %v, want %v", got.Segments, want)
	}
	// Row 0 (the first colour) reaches L with probability 0.9: its
	// quantiles q05…q95 are drawn at 0.9·(0.05, 0.25, 0.5, 0.75, 0.95), its
	// P(T_L ≤ D) at 0.87 and its t_confidence at P = 0.95. Rows 1 and 2
	// (p_reach 1; P(T_L ≤ D) = 1 is not drawn) at the levels themselves.
	// Coordinates are written to 0.1 px of a 276 px frame: 0.002 apart.
	for colour, want := range map[string][]float64{
		"#3f7ddb": {0.045, 0.225, 0.45, 0.675, 0.855, 0.87, 0.95},
		"#d9662b": {0.05, 0.25, 0.5, 0.75, 0.95, 0.95},
		"#2e9e5b": {0.05, 0.25, 0.5, 0.75, 0.95, 0.95},
	} {
		g := got.Levels[colour]
		ok := len(g) == len(want)
		for i := 0; ok && i < len(g); i++ {
			ok = math.Abs(g[i]-want[i]) < 0.002
		}
		if !ok {
			t.Errorf("curve %s: points at %.4f, want %v", colour, g, want)
		}
	}
	p.eval(`document.getElementById("plan-csv").click()`, nil)
	if b := p.downloaded("plan.csv"); string(b) != csv {
		t.Errorf("plan.csv %q, want %q", b, csv)
	}
	p.screenshot("push-page")
	p.noFaults()
}
