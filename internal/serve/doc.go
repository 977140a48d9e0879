// Package serve is the HTTP side of `gossipkit serve`: a one-page explorer
// (HTML, CSS and JavaScript embedded from web/, no framework, no CDN) and
// an API that runs the CLI's own commands in process.
//
// # The API
//
// GET /api/CMD?QUERY runs `gossipkit CMD --format json ARGS` and returns its
// standard output byte for byte, where ARGS are the query's parameters
// turned into the CLI's flags: a one-letter key takes one dash and a longer
// one two (N=1000&fanout=3 is -N 1000 --fanout 3), a key without a value is
// a boolean flag (refined is --refined), and format=csv (or text,
// markdown) replaces the JSON. Only the commands of Options.Commands run;
// flags that write files (-o, --out, --shard, --shards) or size the
// process (--workers) are refused. The command's exit status maps to HTTP:
// 0 → 200; 2 (bad input) → 400 with the CLI's one line; 130 and 143 (the
// client went away, or the server is stopping) → nothing; past the
// request's time limit → 504; any other status → 500 with the last line the
// command printed on its standard error.
//
// GET /api/events/CMD?QUERY runs the same command and streams Server-Sent
// Events: "progress" ({"done":D,"total":T}, from the command's progress
// callback) while it runs, then one "result" ({"status":200,"body":STDOUT})
// or "failure" ({"status":S,"message":LINE}). Closing the stream (a tab
// closed, a field changed) cancels the request's context, which cancels the
// command.
//
// # Limits
//
// Every request holds one slot of a bounded pool while its command runs
// (Options.Slots, default 2×GOMAXPROCS); up to Options.Queue more wait for a
// slot, and a request beyond those is answered 503 at once. A command runs
// under a deadline (Options.Timeout, --timeout) counted from the moment it
// takes its slot: the time a request waited in the queue does not count
// against it, so a command that starts has its whole time. The queue has
// its own bound (Options.QueueWait, --queue-wait, default the time
// limit): a request that finds no slot within it is answered 503 with a
// Retry-After of the time limit (by then a running command has ended),
// having run nothing; a full pool and queue answer 503 with Retry-After
// 1. Its standard output is capped
// (Options.MaxOutput; 413 beyond it), the request's URL is capped
// (Options.MaxURL; 414) and its body too (Options.MaxBody; 413): the API is
// read-only, GET and HEAD only. The CLI checks every flag's range as it
// does on a terminal; Options.Check adds the server's own bounds (the
// default bounds `sim` and `ode` to what a page needs), on the value the
// command will use whatever its spelling: FlagNumber reads it with the
// function the flag reads it with (flagval: decimal integers, so 0x1000000
// and 20_001 are refused as the flag refuses them, and 020001 is 20001). A command whose
// estimated CPU time cannot fit before the request's deadline refuses
// before any work (cli.CheckTime: sim, plan's Monte Carlo), so such a
// request is answered 400 at once with the CLI's line, its estimate and
// what to lower, not 504 after the whole time limit. The cheap commands
// (Options.Cheap: version) and the page's files never wait for the pool
// and are never answered 503. HEAD does no work: it answers the status
// and headers a GET would have as far as its checks tell (404, 400 from
// the server's bounds, 503 with Retry-After when the pool and queue are
// full), and then runs the command with a context already cancelled, so
// that the command's own checks (its flags' ranges, its estimate against
// the time limit) answer 400 with their line as for GET, and a command
// that passes them stops at its first look at the context (200).
// HEAD /api/events/CMD answers 200 and an event stream, as GET does
// whatever the command (a refusal is its "failure" event). A
// Runner must therefore check its input before it looks at the context.
// When a command
// ends and the runtime holds more than 64 MiB it has not returned, the
// server hands it back to the system (debug.FreeOSMemory). No handler writes to
// the file system. A server on a loopback address answers only the Host
// headers of that address (Options.Hosts, LoopbackHosts), so that a page
// elsewhere whose name is rebound to 127.0.0.1 cannot use the API, and
// every answer carries a content security policy that keeps the page to
// its own files.
//
// # The command
//
// AddFlags and Command are `gossipkit serve` (--addr, --slots, --queue,
// --queue-wait, --timeout): cmd/gossipkit parses the flags and passes a Runner built on
// its own command table. On SIGINT or SIGTERM (the context the CLI gives)
// the requests in flight are cancelled, the server stops, and the command
// exits 130 or 143.
//
// # Contract
//
// Command refuses a nil context, stderr, flags or runner, and --slots,
// --queue, --timeout or --addr out of range, with an error before it
// listens (a *cli.UsageError naming the flag for the flags); New refuses
// Options without Run or with limits out of range. A request's parameters
// are checked on the value the command will use (its flag's parsing) and
// answered 400 with the command's one-line refusal. TestContract checks
// Command and New.
package serve
