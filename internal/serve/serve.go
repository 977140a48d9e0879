package serve

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"regexp"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gossipkit/gossipkit/internal/flagval"
)

// Runner runs one CLI command line (args[0] is the command) with its
// output on stdout and stderr, and returns its exit status; ctx cancels it.
// When stderr is a ProgressWriter the command should report progress on it
// as on a terminal.
type Runner func(ctx context.Context, args []string, stdout, stderr io.Writer) int

// ProgressWriter marks a standard error that wants the command's progress
// bar (the runner treats it as a terminal); the server parses the bar's
// "(DONE/TOTAL" counts from it.
type ProgressWriter interface {
	io.Writer
	WantsProgress() bool
}

// WantsProgress reports whether w asks for the command's progress.
func WantsProgress(w io.Writer) bool {
	p, ok := w.(ProgressWriter)
	return ok && p.WantsProgress()
}

// Options configure a Server; the zero value of a field is its default.
type Options struct {
	// Run runs a command line (required).
	Run Runner
	// Commands is the allow-list (default DefaultCommands).
	Commands []string
	// Slots is the number of commands that run at once (default
	// 2×GOMAXPROCS, at most MaxSlots); Queue the number of requests that
	// may wait for a slot (default 4×Slots, at most MaxQueue). A request
	// beyond both is answered 503. A negative value, or one above its
	// maximum, is an error of New.
	Slots, Queue int
	// Cheap are the commands that answer at once from what the program
	// knows (default DefaultCheap: version): they run outside the pool,
	// so that they never wait behind heavy commands nor get a 503.
	Cheap []string
	// Timeout bounds one command's run, from the moment it takes a slot
	// (default 2 minutes): the time a request waited in the queue does not
	// count against it, so a command that starts has its whole time.
	Timeout time.Duration
	// QueueWait bounds the time a request waits in the queue for a slot
	// (default Timeout): a request still waiting then is answered 503
	// with a Retry-After, having run nothing.
	QueueWait time.Duration
	// MaxOutput caps a command's standard output (default 16 MiB).
	MaxOutput int
	// MaxURL caps the request's URL (default 8 KiB); MaxBody its body
	// (default 0: the API takes none).
	MaxURL, MaxBody int
	// Check adds the server's bounds to a command line before it runs
	// (default DefaultCheck); a non-nil error is a 400 with its message.
	Check func(cmd string, flags []Flag) error
	// Hosts, if not empty, are the Host headers the server answers
	// (HOST:PORT, compared without case); any other is a 421. A server on
	// loopback lists its loopback names, so that a web page elsewhere that
	// rebinds its own name to 127.0.0.1 cannot use the API.
	Hosts []string
}

// DefaultCommands are the commands the page uses: plan (the design
// answers), ode (x(t), y(t)), sim (the Monte Carlo bands), pdrop (Fig. 4's
// error, log10|E − S|, from exact fractions) and version.
var DefaultCommands = []string{"plan", "ode", "sim", "pdrop", "version"}

// DefaultCheap are the commands that run outside the pool: version
// prints one constant line.
var DefaultCheap = []string{"version"}

// MaxSlots and MaxQueue bound Options.Slots and Options.Queue (the
// flags --slots and --queue take the same ranges).
const (
	MaxSlots = 1024
	MaxQueue = 100_000
)

// returnAbove is the memory (mapped by the Go runtime and not yet
// returned to the system) beyond which the server hands memory back to
// the system (debug.FreeOSMemory) when a command ends: a heavy request's
// heap is garbage once it has answered, and without this the runtime
// keeps most of it mapped for minutes.
const returnAbove = 64 << 20

// refused are the flags a request may not give: they write files (-o,
// --out, --shard, --shards), read the scheduler's environment, size the
// process (--workers) or print help instead of an answer.
var refused = map[string]string{
	"o":                "writes a file",
	"out":              "writes files",
	"shard":            "writes a part file",
	"shards":           "writes part files",
	"no-scheduler-env": "concerns sharded runs, which write files",
	"workers":          "the server sizes its own pool",
	"h":                "prints help",
	"help":             "prints help",
}

// Flag is one command-line flag from a query parameter: Name without
// dashes; Value as given; Bool when the parameter had no "=" (a boolean
// flag).
type Flag struct {
	Name, Value string
	Bool        bool
}

// Arg returns the flag as the CLI reads it: -N 1000, --fanout 3,
// --refined.
func (f Flag) Arg() []string {
	dash := "--"
	if len(f.Name) == 1 {
		dash = "-"
	}
	if f.Bool {
		return []string{dash + f.Name}
	}
	return []string{dash + f.Name, f.Value}
}

var flagName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*(-[A-Za-z0-9]+)*$`)

// ParseQuery turns a raw query into flags, in the order given. A name
// that is not a flag name (letters, digits and inner dashes) or that
// the server refuses is an error, as is a query that cannot be decoded.
func ParseQuery(raw string) ([]Flag, error) {
	var out []Flag
	for part := range strings.SplitSeq(raw, "&") {
		if part == "" {
			continue
		}
		k, v, hasValue := strings.Cut(part, "=")
		name, err := urlUnescape(k)
		if err != nil {
			return nil, fmt.Errorf("query %q: %v", part, err)
		}
		value, err := urlUnescape(v)
		if err != nil {
			return nil, fmt.Errorf("query %q: %v", part, err)
		}
		if !flagName.MatchString(name) {
			return nil, fmt.Errorf("%q: not a flag name (letters, digits and inner dashes)", name)
		}
		if why, ok := refused[name]; ok {
			return nil, fmt.Errorf("%s: refused by the server (%s)", Flag{Name: name, Bool: true}.Arg()[0], why)
		}
		out = append(out, Flag{Name: name, Value: value, Bool: !hasValue})
	}
	return out, nil
}

func urlUnescape(s string) (string, error) {
	// Query encoding: + is a space, %XX a byte.
	s = strings.ReplaceAll(s, "+", " ")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", errors.New("bad % escape")
		}
		v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", errors.New("bad % escape")
		}
		b.WriteByte(byte(v))
		i += 2
	}
	return b.String(), nil
}

// Args returns the command line for cmd and flags: the command, then
// --format json unless a format is given, then the flags in order.
func Args(cmd string, flags []Flag) []string {
	args := []string{cmd}
	if !slices.ContainsFunc(flags, func(f Flag) bool { return f.Name == "format" }) && cmd != "version" {
		args = append(args, "--format", "json")
	}
	for _, f := range flags {
		args = append(args, f.Arg()...)
	}
	return args
}

// DefaultCheck bounds what the page's figures need and no more: sim to
// N ≤ 20000, 1000 replications and 10000 rounds (the Monte Carlo bands;
// the CLI itself takes any size that fits in memory), ode to 10^5 output
// rows. Other commands run within the CLI's own limits and the time limit.
//
// Each bound is checked on the value the command will use: the value is
// read by the functions the CLI's flags read it with (flagval.Int for an
// int flag: decimal digits only, so 0x1000000, 0o777, 0b101 and 1_000 are
// refused as the flag refuses them, and 010 is ten; flagval.Float for a
// float flag: decimal notation, 1e4 and Inf read, 0x1p24 and 1_000
// refused, a value that underflows refused); a bounded flag whose value does not read
// as a number is refused here rather than let through.
func DefaultCheck(cmd string, flags []Flag) error {
	num := func(name string, isInt bool) (float64, bool, error) {
		for _, f := range flags {
			if f.Name == name {
				v, err := FlagNumber(f.Value, isInt)
				if err != nil {
					return 0, true, fmt.Errorf("%s %v", Flag{Name: name, Bool: true}.Arg()[0], err)
				}
				return v, true, nil
			}
		}
		return 0, false, nil
	}
	switch cmd {
	case "sim":
		for _, b := range []struct {
			name string
			max  float64
		}{{"N", 20000}, {"reps", 1000}, {"rounds", 10000}, {"warmup", 10000}} {
			v, ok, err := num(b.name, true)
			if err != nil {
				return err
			}
			if ok && v > b.max {
				return fmt.Errorf("%s %s: the server runs sim up to %g (the CLI takes more)", Flag{Name: b.name, Bool: true}.Arg()[0], strconv.FormatFloat(v, 'f', -1, 64), b.max)
			}
		}
	case "ode":
		tMax, ok1, err1 := num("t-max", false)
		dt, ok2, err2 := num("dt", false)
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		if !ok1 {
			tMax = 300 // ode's default
		}
		if !ok2 {
			dt = 1
		}
		// !(rows ≤ 1e5) also refuses a NaN (an Inf t-max over an Inf dt).
		if (ok1 || ok2) && dt > 0 && !(tMax/dt <= 1e5) {
			return fmt.Errorf("--dt %g: the server returns at most 10^5 rows (t-max/dt = %g)", dt, tMax/dt)
		}
	}
	return nil
}

// FlagNumber reads a flag's value as the CLI's flag will (flagval.Int for
// an int flag, isInt, and flagval.Float for a float flag): a value the
// flag would refuse is an error, the flag's own message.
func FlagNumber(v string, isInt bool) (float64, error) {
	if isInt {
		i, err := flagval.Int(v)
		return float64(i), err
	}
	return flagval.Float(v)
}

// Server serves the page and the API.
type Server struct {
	opt     Options
	admit   chan struct{} // running or waiting requests
	slots   chan struct{} // running commands
	mux     *http.ServeMux
	freeing atomic.Bool // a debug.FreeOSMemory is running
}

//go:embed web
var webFS embed.FS

// Assets returns the page's files (index.html, app.js, app.css).
func Assets() fs.FS {
	sub, err := fs.Sub(webFS, "web")
	if err != nil {
		panic(err) // the embedded folder is part of the build
	}
	return sub
}

// New returns a server with opt's limits; opt.Run is required.
func New(opt Options) (*Server, error) {
	if opt.Run == nil {
		return nil, errors.New("serve: Options.Run is nil")
	}
	if opt.Commands == nil {
		opt.Commands = DefaultCommands
	}
	if opt.Cheap == nil {
		opt.Cheap = DefaultCheap
	}
	switch {
	case opt.Slots < 0 || opt.Slots > MaxSlots:
		return nil, fmt.Errorf("serve: Options.Slots = %d: valid range 1..%d (0: 2×GOMAXPROCS)", opt.Slots, MaxSlots)
	case opt.Queue < 0 || opt.Queue > MaxQueue:
		return nil, fmt.Errorf("serve: Options.Queue = %d: valid range 0..%d (0: 4×Slots)", opt.Queue, MaxQueue)
	case opt.MaxOutput < 0, opt.MaxURL < 0, opt.MaxBody < 0, opt.Timeout < 0, opt.QueueWait < 0:
		return nil, fmt.Errorf("serve: Options.MaxOutput, MaxURL, MaxBody, Timeout and QueueWait must be ≥ 0 (0: the default); got %d, %d, %d, %v, %v", opt.MaxOutput, opt.MaxURL, opt.MaxBody, opt.Timeout, opt.QueueWait)
	}
	if opt.Slots == 0 {
		opt.Slots = min(2*runtime.GOMAXPROCS(0), MaxSlots)
	}
	if opt.Queue == 0 {
		opt.Queue = min(4*opt.Slots, MaxQueue)
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 2 * time.Minute
	}
	if opt.QueueWait <= 0 {
		opt.QueueWait = opt.Timeout
	}
	if opt.MaxOutput <= 0 {
		opt.MaxOutput = 16 << 20
	}
	if opt.MaxURL <= 0 {
		opt.MaxURL = 8 << 10
	}
	if opt.Check == nil {
		opt.Check = DefaultCheck
	}
	s := &Server{opt: opt, admit: make(chan struct{}, opt.Slots+opt.Queue), slots: make(chan struct{}, opt.Slots), mux: http.NewServeMux()}
	s.mux.HandleFunc("GET /api/events/{cmd}", s.events)
	s.mux.HandleFunc("GET /api/{cmd}", s.api)
	s.mux.Handle("GET /", http.FileServerFS(Assets()))
	return s, nil
}

// Options returns the server's options with their defaults filled in.
func (s *Server) Options() Options {
	if s == nil {
		return Options{}
	}
	return s.opt
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s == nil || s.mux == nil {
		http.Error(w, "serve: a Server made by New is needed", http.StatusInternalServerError)
		return
	}
	if len(r.URL.RequestURI()) > s.opt.MaxURL {
		http.Error(w, fmt.Sprintf("the URL is longer than %d bytes", s.opt.MaxURL), http.StatusRequestURITooLong)
		return
	}
	if len(s.opt.Hosts) > 0 && !slices.ContainsFunc(s.opt.Hosts, func(h string) bool { return strings.EqualFold(h, r.Host) }) {
		http.Error(w, fmt.Sprintf("Host %q: this server answers %s only", r.Host, strings.Join(s.opt.Hosts, ", ")), http.StatusMisdirectedRequest)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "read-only: GET and HEAD only", http.StatusMethodNotAllowed)
		return
	}
	if r.ContentLength > int64(s.opt.MaxBody) {
		http.Error(w, fmt.Sprintf("the request body is larger than %d bytes", s.opt.MaxBody), http.StatusRequestEntityTooLarge)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, int64(s.opt.MaxBody))
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	// The page loads nothing from elsewhere; PNG export draws a data: SVG.
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	s.mux.ServeHTTP(w, r)
}

// outcome is a finished command.
type outcome struct {
	status  int    // HTTP status; 0: nothing to answer (the client is gone)
	body    []byte // stdout on 200
	message string // the one line otherwise
	format  string
	retry   time.Duration // a 503's Retry-After
}

// progressFunc receives the command's progress.
type progressFunc func(done, total int64)

// prepare checks one request's command line without running it: the
// command, its flags and the server's bounds. A request refused here is
// an outcome with its status (404, 400); a request that may run has
// status 0.
func (s *Server) prepare(r *http.Request) (cmd string, flags []Flag, o outcome) {
	cmd = r.PathValue("cmd")
	if !slices.Contains(s.opt.Commands, cmd) {
		return cmd, nil, outcome{status: http.StatusNotFound, message: fmt.Sprintf("gossipkit serve: command %q is not served (served: %s)", cmd, strings.Join(s.opt.Commands, ", "))}
	}
	flags, err := ParseQuery(r.URL.RawQuery)
	if err == nil {
		err = s.opt.Check(cmd, flags)
	}
	if err != nil {
		return cmd, nil, outcome{status: http.StatusBadRequest, message: "gossipkit " + cmd + ": " + err.Error()}
	}
	o.format = "json"
	for _, f := range flags {
		if f.Name == "format" {
			o.format = f.Value
		}
	}
	return cmd, flags, o
}

// execute checks and runs one request's command: a cheap one at once, any
// other within the pool. The time limit starts when the command starts:
// a request waits for a slot at most QueueWait (then 503, having run
// nothing), and its command then has the whole Timeout.
func (s *Server) execute(r *http.Request, progress progressFunc) outcome {
	cmd, flags, o := s.prepare(r)
	if o.status != 0 {
		return o
	}
	if slices.Contains(s.opt.Cheap, cmd) {
		ctx, cancel := context.WithTimeout(r.Context(), s.opt.Timeout)
		defer cancel()
		return s.run(ctx, r, cmd, flags, o.format, progress)
	}
	select {
	case s.admit <- struct{}{}:
		defer func() { <-s.admit }()
	default:
		return s.busy(time.Second, "gossipkit serve: busy (%d running, %d waiting); try again", s.opt.Slots, s.opt.Queue)
	}
	wait := time.NewTimer(s.opt.QueueWait)
	defer wait.Stop()
	select {
	case s.slots <- struct{}{}:
		defer func() {
			<-s.slots
			s.returnMemory()
		}()
	case <-wait.C:
		return s.busy(s.opt.Timeout, "gossipkit serve: busy: no slot freed within the queue's %v (%d running); try again", s.opt.QueueWait, s.opt.Slots)
	case <-r.Context().Done():
		return outcome{} // the client is gone
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.opt.Timeout)
	defer cancel()
	return s.run(ctx, r, cmd, flags, o.format, progress)
}

// busy is a 503 with its Retry-After: a second when the pool and the
// queue are full; the time limit when a request waited QueueWait in vain
// (a running command ends within it).
func (s *Server) busy(retry time.Duration, format string, a ...any) outcome {
	return outcome{status: http.StatusServiceUnavailable, message: fmt.Sprintf(format, a...), retry: retry}
}

// returnMemory hands the heap a finished command left behind back to the
// system when more than returnAbove bytes are mapped and not returned,
// on one goroutine at a time (a forced collection; the request's answer
// is not delayed by it).
func (s *Server) returnMemory() {
	sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 || sample[1].Value.Kind() != metrics.KindUint64 {
		return
	}
	if kept := sample[0].Value.Uint64() - min(sample[0].Value.Uint64(), sample[1].Value.Uint64()); kept <= returnAbove {
		return
	}
	if s.freeing.CompareAndSwap(false, true) {
		go func() {
			defer s.freeing.Store(false)
			debug.FreeOSMemory()
		}()
	}
}

// run runs cmd with flags under ctx and maps its exit status to HTTP.
func (s *Server) run(ctx context.Context, r *http.Request, cmd string, flags []Flag, format string, progress progressFunc) outcome {
	stdout := &capped{max: s.opt.MaxOutput}
	stderr := &stderrParser{progress: progress}
	code := s.opt.Run(ctx, Args(cmd, flags), stdout, stderr)
	switch {
	case code == 0:
		return outcome{status: http.StatusOK, body: stdout.buf.Bytes(), format: format}
	case stdout.over:
		return outcome{status: http.StatusRequestEntityTooLarge, message: fmt.Sprintf("gossipkit %s: the answer is larger than the server's %d bytes; ask for fewer points", cmd, s.opt.MaxOutput)}
	case code == 2: // a refusal, even with ctx done (a HEAD's check)
		return outcome{status: http.StatusBadRequest, message: stderr.lastLine()}
	case code == 130 || code == 143 || ctx.Err() != nil:
		return s.stopped(r, ctx)
	default:
		return outcome{status: http.StatusInternalServerError, message: stderr.lastLine()}
	}
}

// stopped is the outcome of a command stopped by its context: nothing if
// the client went away (or the server is stopping), 504 past the time
// limit.
func (s *Server) stopped(r *http.Request, ctx context.Context) outcome {
	if r.Context().Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return outcome{status: http.StatusGatewayTimeout, message: fmt.Sprintf("gossipkit %s: stopped at the server's time limit of %v; ask for less (a smaller N, fewer replications, --method asymptotic)", r.PathValue("cmd"), s.opt.Timeout)}
	}
	return outcome{}
}

var contentTypes = map[string]string{
	"json": "application/json", "csv": "text/csv; charset=utf-8",
	"text": "text/plain; charset=utf-8", "markdown": "text/markdown; charset=utf-8",
}

// head answers a HEAD request with the status and headers a GET would
// have as far as its checks tell, without the work: the server's checks
// (404, 400), a full pool and queue (503), then the command's own checks,
// run with a context already cancelled (check): its flags, its bounds and
// its estimate against the time limit (cli.CheckTime) answer 400 as they
// would for GET, and a command that passes them stops at its first look
// at the context (200, the format's type and no length).
func (s *Server) head(w http.ResponseWriter, r *http.Request) {
	o := s.check(r)
	if o.status == 0 {
		return // the client is gone
	}
	if o.status != http.StatusOK {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if o.retry > 0 {
			w.Header().Set("Retry-After", retryAfter(o.retry))
		}
		w.WriteHeader(o.status)
		return
	}
	ct, ok := contentTypes[o.format]
	if !ok || r.PathValue("cmd") == "version" {
		ct = "text/plain; charset=utf-8"
	}
	w.Header().Set("Content-Type", ct)
	w.WriteHeader(http.StatusOK)
}

// check is what a GET of r would answer as far as its checks tell, with
// no work done (head).
func (s *Server) check(r *http.Request) outcome {
	cmd, flags, o := s.prepare(r)
	if o.status != 0 {
		return o
	}
	if !slices.Contains(s.opt.Cheap, cmd) && len(s.admit) == cap(s.admit) {
		return s.busy(time.Second, "gossipkit serve: busy (%d running, %d waiting); try again", s.opt.Slots, s.opt.Queue)
	}
	// The deadline a GET's command would have (its estimate is checked
	// against it), cancelled before the command starts.
	limit, cancelLimit := context.WithTimeout(r.Context(), s.opt.Timeout)
	defer cancelLimit()
	ctx, cancel := context.WithCancel(limit)
	cancel()
	c := s.run(ctx, r, cmd, flags, o.format, nil)
	switch {
	case r.Context().Err() != nil:
		return outcome{}
	case c.status == 0, c.status == http.StatusOK:
		return outcome{status: http.StatusOK, format: o.format} // checks passed; stopped before the work
	}
	return c
}

// retryAfter is a Retry-After header's value: whole seconds, at least 1.
func retryAfter(d time.Duration) string {
	return strconv.FormatInt(max(1, int64((d+time.Second-1)/time.Second)), 10)
}

func (s *Server) api(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodHead {
		s.head(w, r)
		return
	}
	o := s.execute(r, nil)
	switch o.status {
	case 0:
		return // the client is gone
	case http.StatusOK:
		ct, ok := contentTypes[o.format]
		if !ok || r.PathValue("cmd") == "version" {
			ct = "text/plain; charset=utf-8"
		}
		w.Header().Set("Content-Type", ct)
		w.Header().Set("Content-Length", strconv.Itoa(len(o.body)))
		w.WriteHeader(http.StatusOK)
		w.Write(o.body)
	default:
		if o.retry > 0 {
			w.Header().Set("Retry-After", retryAfter(o.retry))
		}
		http.Error(w, o.message, o.status)
	}
}

// events streams the command's progress and its answer as Server-Sent
// Events.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodHead {
		// A GET answers 200 and an event stream whatever its command
		// does (a refusal is its "failure" event): so does HEAD, with no
		// work.
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	var mu sync.Mutex
	send := func(event string, v any) {
		b, _ := json.Marshal(v)
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		fl.Flush()
	}
	send("start", map[string]any{})
	var last time.Time
	o := s.execute(r, func(done, total int64) {
		if now := time.Now(); done == total || now.Sub(last) > 100*time.Millisecond {
			last = now
			send("progress", map[string]int64{"done": done, "total": total})
		}
	})
	switch o.status {
	case 0:
	case http.StatusOK:
		send("result", map[string]any{"status": o.status, "body": string(o.body)})
	default:
		send("failure", map[string]any{"status": o.status, "message": o.message})
	}
}

// capped keeps up to max bytes and fails the write that would pass it.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if c.buf.Len()+len(p) > c.max {
		c.over = true
		return 0, fmt.Errorf("the answer is larger than %d bytes", c.max)
	}
	return c.buf.Write(p)
}

// stderrParser keeps the command's standard error (up to 64 KiB) and, when
// progress is wanted, reads the progress bar's counts from it.
type stderrParser struct {
	mu       sync.Mutex
	buf      bytes.Buffer
	progress progressFunc
}

var barCount = regexp.MustCompile(`\((\d+)/(\d+)`)

func (p *stderrParser) WantsProgress() bool { return p.progress != nil }

func (p *stderrParser) Write(b []byte) (int, error) {
	p.mu.Lock()
	if p.buf.Len() < 64<<10 {
		p.buf.Write(b)
	}
	p.mu.Unlock()
	if p.progress != nil {
		if m := barCount.FindAllSubmatch(b, -1); m != nil {
			last := m[len(m)-1]
			done, err1 := strconv.ParseInt(string(last[1]), 10, 64)
			total, err2 := strconv.ParseInt(string(last[2]), 10, 64)
			if err1 == nil && err2 == nil {
				p.progress(done, total)
			}
		}
	}
	return len(b), nil
}

// lastLine is the last line the command printed (its message), without
// the progress bar's redraws (carriage returns) and escape sequences.
func (p *stderrParser) lastLine() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	lines := strings.Split(p.buf.String(), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if j := strings.LastIndexByte(l, '\r'); j >= 0 {
			l = l[j+1:]
		}
		l = ansi.ReplaceAllString(l, "")
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return "the command failed and printed nothing"
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)
