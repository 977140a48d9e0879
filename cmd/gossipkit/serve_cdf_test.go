package main

import (
	"encoding/json"
	"math"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gossipkit/gossipkit/internal/serve"
)

// TestServeBrowserLawCDF: the page's "Distribution of T_L" draws the
// law's P(T_L ≤ t) (plan's cdf) as steps, at every round of it, and marks
// the quantiles on it. The chart stepped only at the quantile
// levels (0.25 at t = 9, 0.75 at t = 10), 0.17 below P(T_L ≤ 10) = 0.924.
// Here the exact law of a pull (N = 40, fanout 2, ε = 0.2, L = 1), from
// the CLI with the page's flags: each step's level, read back through the
// axis (0 at the bottom of the frame, 1 at its top, coordinates written
// to 0.1 px of a 276 px frame: 0.002 apart), is the cdf entry, which
// TestPlanCDFMatchesDeadline checks against --deadline t; each quantile
// mark lies on the riser of its round, between P(T_L ≤ q − 1) and
// P(T_L ≤ q).
func TestServeBrowserLawCDF(t *testing.T) {
	p := newPage(t, serve.Options{})
	q := url.Values{"protocol": {"pull"}, "N": {"40"}, "fanout": {"2"}, "loss": {"0.2"}, "level": {"1"}}
	want, stderr, code := runCLI(t, nil, pageArgs(q, "protocol", "N", "fanout", "loss", "level")...)
	if code != 0 {
		t.Fatalf("the CLI: exit %d: %s", code, stderr)
	}
	var ans struct {
		Rows []struct {
			CDF                     [][2]float64 `json:"cdf"`
			PReach                  float64      `json:"p_reach"`
			Q05, Q25, Q50, Q75, Q95 float64
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(want), &ans); err != nil || len(ans.Rows) != 1 || len(ans.Rows[0].CDF) < 3 {
		t.Fatalf("the CLI's answer: %v %s", err, want)
	}
	r := ans.Rows[0]
	p.do(chromedp.Navigate(p.base + "/?" + q.Encode()))
	p.wait(`window.gk && gk.renders >= 1`)
	var got struct {
		Levels []float64 // the path's vertices, through the y axis
		Dots   []float64
		Note   string
	}
	p.eval(`(() => {
		const svg = document.querySelector("#cdf svg"), frame = svg.querySelectorAll("rect")[1];
		const h = +frame.getAttribute("height"), y0 = +frame.getAttribute("y") + h;
		const d = svg.querySelector("path").getAttribute("d");
		const ys = [...d.matchAll(/[ML][0-9.]+,([0-9.]+)/g)].map(m => (y0 - +m[1]) / h);
		const dots = [...svg.querySelectorAll("circle")].map(c => (y0 - +c.getAttribute("cy")) / h).sort((a, b) => a - b);
		return {Levels: ys, Dots: dots, Note: document.getElementById("cdf-note").textContent};
	})()`, &got)
	// M(t₀, 0), then for each entry: along at the previous level, up to it.
	if len(got.Levels) != 1+2*len(r.CDF) {
		t.Fatalf("path of %d vertices for %d cdf entries: %v", len(got.Levels), len(r.CDF), got.Levels)
	}
	const tol = 0.002
	prev := 0.0
	for i, e := range r.CDF {
		along, up := got.Levels[1+2*i], got.Levels[2+2*i]
		if math.Abs(along-prev) > tol || math.Abs(up-e[1]) > tol {
			t.Errorf("t = %v: drawn along %.4f then up to %.4f, want %.4f then %.4f", e[0], along, up, prev, e[1])
		}
		prev = e[1]
	}
	// The quantiles (and t_P at 0.95) on their risers.
	at := func(t float64) float64 {
		v := 0.0
		for _, e := range r.CDF {
			if e[0] <= t {
				v = e[1]
			}
		}
		return v
	}
	for _, qq := range []struct{ t, level float64 }{{r.Q05, 0.05}, {r.Q25, 0.25}, {r.Q50, 0.5}, {r.Q75, 0.75}, {r.Q95, 0.95}} {
		lvl := qq.level * r.PReach
		if !(at(qq.t-1) < lvl && lvl <= at(qq.t)+1e-12) {
			t.Errorf("quantile %v at round %v: level %v not on the riser [%v, %v]", qq.level, qq.t, lvl, at(qq.t-1), at(qq.t))
		}
	}
	if len(got.Dots) != 6 {
		t.Errorf("%d marks, want the five quantiles and t_P: %v", len(got.Dots), got.Dots)
	}
	if want := "the law's P(T_L ≤ t) at every round"; !strings.Contains(got.Note, want) {
		t.Errorf("note %q: want %q", got.Note, want)
	}
	p.screenshot("law-cdf")
	p.noFaults()
}
