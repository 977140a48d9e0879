package main

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gossipkit/gossipkit/broadcast"
	"github.com/gossipkit/gossipkit/internal/serve"
)

// TestServePresetMatchesCLI: a request with a memberlist preset (the
// query key preset is plan's --preset) answers byte for byte what the CLI
// prints with the same preset, an explicit field overrides the preset's
// value as on the command line, and a bad preset is the CLI's one line
// with a 400.
func TestServePresetMatchesCLI(t *testing.T) {
	ts := newServeTest(t, serve.Options{})
	base := []string{"plan", "--protocol", "push", "-N", "100", "--reps", "40"}
	for _, tc := range []struct {
		path   string
		args   []string
		fanout float64 // the answer's fanout column
	}{
		{"/api/plan?protocol=push&N=100&reps=40&preset=memberlist-lan", []string{"--format", "json", "--preset", "memberlist-lan"}, 3},
		// WAN's GossipNodes is 4; the field given wins.
		{"/api/plan?protocol=push&N=100&reps=40&preset=memberlist-wan&fanout=2", []string{"--format", "json", "--preset", "memberlist-wan", "--fanout", "2"}, 2},
		{"/api/plan?protocol=push&N=100&reps=40&preset=memberlist-local&sync-interval=5&format=csv", []string{"--preset", "memberlist-local", "--sync-interval", "5", "--format", "csv"}, 3},
	} {
		t.Run(tc.path, func(t *testing.T) {
			want, stderr, code := runCLI(t, nil, append(slices.Clone(base), tc.args...)...)
			if code != 0 {
				t.Fatalf("%q: exit %d: %s", tc.args, code, stderr)
			}
			status, got := httpGet(t, ts.URL+tc.path)
			if status != 200 || got != want {
				t.Fatalf("%s: %d, %d bytes; the CLI printed %d bytes; equal: %v", tc.path, status, len(got), len(want), got == want)
			}
			if strings.Contains(tc.path, "format=csv") {
				return
			}
			var d struct{ Rows []map[string]any }
			if err := json.Unmarshal([]byte(got), &d); err != nil || len(d.Rows) != 1 || d.Rows[0]["fanout"] != tc.fanout {
				t.Errorf("%s: %v; rows %v, want one with fanout %v", tc.path, err, d.Rows, tc.fanout)
			}
		})
	}
	// The LAN preset through the API is the CLI with memberlist v0.7.0's
	// DefaultLANConfig written out (GossipNodes 3, GossipInterval 200 ms,
	// RetransmitMult 4, PushPullInterval 30 s, as the issue read them from
	// memberlist's config.go; TestPresets checks the same values against the
	// pinned module) and the asynchronous clock the preset implies.
	want, stderr, code := runCLI(t, nil, append(slices.Clone(base), "--format", "json", "--fanout", "3", "--interval", "0.2", "--budget", "memberlist:4", "--sync-interval", "30", "--time", "async")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if status, got := httpGet(t, ts.URL+"/api/plan?protocol=push&N=100&reps=40&preset=memberlist-lan"); status != 200 || got != want {
		t.Errorf("preset=memberlist-lan: %d, %d bytes; the CLI with LAN's values written out printed %d bytes; equal: %v", status, len(got), len(want), got == want)
	}
	for _, tc := range []struct {
		path string
		args []string
	}{
		{"/api/plan?protocol=push&preset=memberlist-lan2", []string{"plan", "--protocol", "push", "--preset", "memberlist-lan2"}},
		{"/api/plan?protocol=push&preset=", []string{"plan", "--protocol", "push", "--preset", ""}},
		{"/api/plan?preset=LAN&N=50", []string{"plan", "--preset", "LAN", "-N", "50"}},
		{"/api/plan?protocol=push&preset=memberlist-wan&sync-interval=0", []string{"plan", "--protocol", "push", "--preset", "memberlist-wan", "--sync-interval", "0"}},
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

// presetOptions reads the page's preset select (its options, as app.js
// lists them) from the embedded page.
func presetOptions(t *testing.T) []string {
	t.Helper()
	js, err := fs.ReadFile(serve.Assets(), "app.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`\{ name: "preset",[^\n]*?options: \[([^\]]*)\]`).FindSubmatch(js)
	if m == nil {
		t.Fatal(`app.js: no form field { name: "preset", … options: […] }`)
	}
	var opts []string
	for o := range strings.SplitSeq(string(m[1]), ",") {
		s, err := strconv.Unquote(strings.TrimSpace(o))
		if err != nil {
			t.Fatalf("app.js preset option %q: %v", o, err)
		}
		opts = append(opts, s)
	}
	return opts
}

// TestServePresetOptions: the page's select offers none and exactly the
// presets the CLI validates (broadcast.PresetNames, the one list both
// --preset's help and its check are made from), in order.
func TestServePresetOptions(t *testing.T) {
	want := append([]string{""}, broadcast.PresetNames()...)
	if got := presetOptions(t); !slices.Equal(got, want) {
		t.Errorf("the page's preset options %q, the CLI's %q", got, want)
	}
}

// TestServeBrowserPreset: the broadcast form's preset select exists with
// the CLI's presets, a URL's preset selects it and is sent as --preset
// (and the fields it sets are not sent while empty, so the preset's values
// apply), the numbers shown are the CLI's, choosing another preset sends
// it, and a field typed in is sent with it and overrides it.
func TestServeBrowserPreset(t *testing.T) {
	var mu sync.Mutex
	var planArgs [][]string
	run := serveRunner()
	p := newPage(t, serve.Options{Run: func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		if args[0] == "plan" {
			mu.Lock()
			planArgs = append(planArgs, slices.Clone(args))
			mu.Unlock()
		}
		return run(ctx, args, stdout, stderr)
	}})
	last := func() []string {
		mu.Lock()
		defer mu.Unlock()
		if len(planArgs) == 0 {
			return nil
		}
		return planArgs[len(planArgs)-1]
	}
	flagValue := func(args []string, name string) (string, bool) {
		i := slices.Index(args, name)
		if i < 0 || i+1 >= len(args) {
			return "", false
		}
		return args[i+1], true
	}
	q := url.Values{"protocol": {"push"}, "N": {"200"}, "preset": {"memberlist-wan"}, "reps": {"100"}}
	p.do(chromedp.Navigate(p.base + "/?" + q.Encode()))
	p.wait(`window.gk && gk.renders >= 1`)
	p.noFaults()
	var sel struct {
		Options     []string
		Value       string
		Placeholder string
	}
	p.eval(`(() => {
		const s = document.getElementById("f-preset");
		return s && s.tagName === "SELECT" ? {Options: [...s.options].map((o) => o.value), Value: s.value, Placeholder: document.getElementById("f-fanout").placeholder} : null;
	})()`, &sel)
	if want := append([]string{""}, broadcast.PresetNames()...); !slices.Equal(sel.Options, want) || sel.Value != "memberlist-wan" {
		t.Errorf("select #f-preset: options %q, value %q; want %q, memberlist-wan", sel.Options, sel.Value, want)
	}
	if sel.Placeholder != "preset" {
		t.Errorf("the empty fanout field under a preset shows %q, want \"preset\"", sel.Placeholder)
	}
	args := last()
	if v, _ := flagValue(args, "--preset"); v != "memberlist-wan" || slices.Contains(args, "--fanout") || slices.Contains(args, "--time") {
		t.Errorf("the page ran %q: want --preset memberlist-wan and no --fanout or --time (the preset's apply)", args)
	}
	want, stderr, code := runCLI(t, nil, args...)
	if code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, stderr)
	}
	rows, classes := p.table()
	compareTable(t, rows, classes, want)
	if len(rows) != 1 || rows[0]["fanout"] != "4" {
		t.Errorf("rows %v: want one, fanout 4 (WAN's GossipNodes)", rows)
	}
	p.screenshot("preset-wan")

	// Choosing LAN in the select sends it; typing a fanout overrides it.
	p.eval(`(() => { const s = document.getElementById("f-preset"); s.value = "memberlist-lan"; s.dispatchEvent(new Event("change")); return 0; })()`, nil)
	p.wait(`gk.renders >= 2`)
	if v, _ := flagValue(last(), "--preset"); v != "memberlist-lan" {
		t.Errorf("after choosing memberlist-lan the page ran %q", last())
	}
	var url string
	p.eval(`location.search`, &url)
	if !strings.Contains(url, "preset=memberlist-lan") {
		t.Errorf("the page's URL %q does not hold the preset", url)
	}
	p.eval(`(() => { const f = document.getElementById("f-fanout"); f.value = "2"; f.dispatchEvent(new Event("change")); return 0; })()`, nil)
	p.wait(`gk.renders >= 3`)
	args = last()
	if v, _ := flagValue(args, "--preset"); v != "memberlist-lan" {
		t.Errorf("after typing a fanout the page ran %q", args)
	}
	if v, _ := flagValue(args, "--fanout"); v != "2" {
		t.Errorf("after typing a fanout the page ran %q", args)
	}
	want, stderr, code = runCLI(t, nil, args...)
	if code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, stderr)
	}
	rows, classes = p.table()
	compareTable(t, rows, classes, want)
	if len(rows) != 1 || rows[0]["fanout"] != "2" {
		t.Errorf("rows %v: want one, fanout 2 (the field over the preset)", rows)
	}
	p.noFaults()
}
