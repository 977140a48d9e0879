package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/flagval"
	"github.com/gossipkit/gossipkit/plan"
	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/sim"
)

// planFieldFlags maps plan.Config's fields to the flags of `plan`.
var planFieldFlags = map[string]string{
	"Config.Nodes": "-N", "Config.Shuffle.Items": "-n", "Config.Shuffle.Cache": "-c", "Config.Shuffle.Exchange": "-s",
	"Config.Initial": "--initial", "Config.Level": "--level", "Config.Deadline": "--deadline",
	"Config.Confidence": "--confidence", "Config.Time": "--time", "Config.PDrop": "--pdrop",
}

func cmdPlan(ctx context.Context, e *env, args []string) error {
	fs := newFlags("plan")
	var cfg plan.Config
	fs.IntVar(&cfg.Nodes, "N", 1000, "number of nodes N (2..2^40; the exact method 2..5000)")
	fs.IntVar(&cfg.Shuffle.Items, "n", 500, "number of distinct items n (≥ c)")
	fs.IntVar(&cfg.Shuffle.Cache, "c", 100, "cache size c (1 ≤ c ≤ n)")
	sS := fs.String("s", "50", "exchange size s: V, or a range LO:HI[:STEP] (1 ≤ s ≤ c, s < n; s < c except with --method exact)")
	fs.IntVar(&cfg.Initial, "initial", 1, "nodes holding the item at t = 0, K (1..N)")
	fs.Float64Var(&cfg.Level, "level", 0.99, "coverage level L in (0, 1]: T_L is the time until ⌈L·N⌉ nodes have held the item")
	fs.Float64Var(&cfg.Deadline, "deadline", 0, "deadline D in rounds (> 0): P(T_L ≤ D) and which s meet it with probability --confidence (0: none)")
	fs.Float64Var(&cfg.Confidence, "confidence", 0.95, "probability P in (0, 1): t_confidence is the smallest deadline met with probability P")
	method := fs.String("method", "auto", "auto (exact where it fits the budget, else asymptotic), exact, asymptotic or mc")
	reps := fs.Int("reps", 1000, "replications of --method mc (1..10^7)")
	model := fs.String("model", "markov", "what --method mc simulates: markov (the pairwise model, shuffle by shuffle), lumped (the same law on its state (X, Y), event by event: O(N) work a replication) or protocol (every cache)")
	seed := fs.Uint64("seed", 1, "seed of --method mc")
	timeModel := fs.String("time", "continuous", "continuous (shuffles at rate N a round) or shuffles (exactly N shuffles a round)")
	variant := fs.String("pdrop", "simplified", "P_drop variant: simplified, gamma or exact")
	format := fs.String("format", "text", "output format: text, json, csv or markdown")
	out := outFlag(fs)
	if err := parseFormatted(fs, e, args, format); err != nil {
		return err
	}
	var set plan.Settings
	var err error
	if set.Method, err = plan.ParseMethod(*method); err != nil {
		return usagef("--method %q: valid values are auto, exact, asymptotic, mc", *method)
	}
	if set.Model, err = plan.ParseSimModel(*model); err != nil {
		return usagef("--model %q: valid values are markov, protocol, lumped", *model)
	}
	if *reps < 1 || *reps > 10_000_000 {
		return usagef("--reps %d: valid range 1..10000000", *reps)
	}
	set.Reps, set.Seed = *reps, *seed
	// The library reads 0 as a default; the flags promise 1..N and (0, 1).
	if cfg.Initial < 1 || cfg.Initial > cfg.Nodes {
		return usagef("--initial %d: valid range 1..%d", cfg.Initial, max(cfg.Nodes, 1))
	}
	if !(cfg.Confidence > 0 && cfg.Confidence < 1) {
		return usagef("--confidence %g: valid range (0, 1)", cfg.Confidence)
	}
	if cfg.Time, err = gossip.ParseTime(*timeModel); err != nil || cfg.Time == gossip.Synchronous {
		return usagef("--time %q: valid values are continuous, shuffles", *timeModel)
	}
	if cfg.PDrop, err = approx.ParseVariant(*variant); err != nil {
		return usagef("--pdrop %q: valid values are simplified, gamma, exact", *variant)
	}
	r, err := flagval.ParseRange(*sS)
	if err != nil {
		return usagef("-s %v", err)
	}
	if r.Lo < 1 {
		return usagef("-s %q: values must be ≥ 1", *sS)
	}
	if (r.Hi-r.Lo)/r.Step+1 > 10_000 {
		return usagef("-s %q: at most 10000 values", *sS)
	}
	ss := r.Values()
	if set.Method == plan.Exact && cfg.Nodes > 5000 {
		return usagef("-N %d: valid range 2..5000 with --method exact (the joint chain)", cfg.Nodes)
	}
	for _, s := range ss {
		c := cfg
		c.Shuffle.Exchange = s
		if err := c.Validate(); err != nil {
			return usagef("%v", fieldUsage(err, planFieldFlags))
		}
		if s == cfg.Shuffle.Cache && set.Method != plan.Exact {
			return usagef("-s %d: with s = c no copy is ever made; only --method exact applies (valid range for --method %s: 1..%d)", s, set.Method, cfg.Shuffle.Cache-1)
		}
	}
	if set.Method == plan.MonteCarlo {
		// The replications' memory, as sim checks it (rounds do not matter
		// to the caches; 1000 bounds the trajectories of a usual run).
		sc := sim.Config{Model: sim.Markov, Nodes: cfg.Nodes, Shuffle: cfg.Shuffle, Rounds: 1000, Reps: set.Reps, Initial: cfg.Initial}
		sc.Shuffle.Exchange = ss[0]
		if set.Model == plan.Protocol {
			sc.Model = sim.Protocol
		}
		if err := checkSimConfig(sc, sim.DefaultWorkers()); err != nil {
			return err
		}
	}
	prog := newProgress(e, "plan")
	set.Progress = func(done, total int64) { prog(min(done, total), total) }
	d, err := plan.Sweep(ctx, cfg, ss, set)
	if err != nil {
		return err
	}
	return output(e, *out, func(w io.Writer) error { return writePlan(w, d, *format) })
}

// planTable is the rows of a design, one per exchange size; feasible is a
// bool (true/false in CSV and JSON, as every boolean column).
func planTable(d *plan.Design) *plots.Table {
	t := &plots.Table{Keys: []string{"s", "method", "mean", "sd", "q05", "q25", "q50", "q75", "q95", "t_confidence", "p_deadline", "feasible", "items_sent",
		"error_bound", "se_mean", "se_sd", "se_p_deadline", "dev_mean", "dev_sd"}}
	for _, a := range d.Rows {
		var feasible any // null without a deadline
		if d.Config.Deadline > 0 {
			feasible = a.Feasible
		}
		ac := a.Accuracy
		t.Rows = append(t.Rows, []any{a.Exchange, a.Method.String(), a.Mean, a.SD, a.Q05, a.Q25, a.Q50, a.Q75, a.Q95, a.TConfidence, a.PDeadline, feasible, a.ItemsSent,
			ac.Bound, ac.SEMean, ac.SESD, ac.SEPDeadline, ac.DevMean, ac.DevSD})
	}
	return t
}

// writePlan writes a design: JSON {"rows": [...], "best": {...} or null};
// CSV the rows; text and Markdown the parameters, the rows, the best s and
// one accuracy note per method used.
func writePlan(w io.Writer, d *plan.Design, format string) error {
	t := planTable(d)
	switch format {
	case "csv":
		return t.Write(w, format)
	case "json":
		var rows bytes.Buffer
		if err := t.Write(&rows, "json"); err != nil {
			return err
		}
		row := func(i int) ([]byte, error) { // one row as a JSON object, or null
			if i < 0 {
				return []byte("null"), nil
			}
			var buf bytes.Buffer
			err := (&plots.Table{Single: true, Keys: t.Keys, Rows: [][]any{t.Rows[i]}}).Write(&buf, "json")
			return bytes.TrimSpace(buf.Bytes()), err
		}
		best, err := row(d.Best)
		if err != nil {
			return err
		}
		cheapest, err := row(d.Cheapest)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "{\n\"rows\": %s,\n\"best\": %s,\n\"cheapest\": %s\n}\n", bytes.TrimSpace(rows.Bytes()), best, cheapest)
		return err
	}
	c := d.Config
	conf := c.Confidence
	if conf == 0 {
		conf = 0.95
	}
	fmt.Fprintf(w, "Time T_L to coverage L = %g (%d of N = %d nodes), n = %d, c = %d, K = %d, %v time, P_drop %v; t_confidence = the %g-quantile",
		c.Level, int(math.Ceil(c.Level*float64(c.Nodes)-1e-9)), c.Nodes, c.Shuffle.Items, c.Shuffle.Cache, max(c.Initial, 1), c.Time, c.PDrop, conf)
	if c.Deadline > 0 {
		fmt.Fprintf(w, "; deadline D = %g rounds", c.Deadline)
	}
	fmt.Fprintf(w, ". Rounds; items_sent = 2s·N·mean.\n\n")
	// P(T_L ≤ D) below 10^-6 reads "<1e-6" in text: a design does not turn
	// on it, and the limit law's stated accuracy is about mean, sd and
	// quantiles, not far tails (CSV and JSON keep the value).
	short := &plots.Table{Keys: t.Keys[:13], TextCell: func(col int, v any) string {
		if p, ok := v.(float64); ok && col == 10 && p < 1e-6 {
			return "<1e-6"
		}
		return plots.TextCell(v)
	}}
	for _, r := range t.Rows {
		short.Rows = append(short.Rows, r[:13])
	}
	if err := short.Write(w, format); err != nil {
		return err
	}
	switch {
	case d.Best >= 0:
		b := d.Rows[d.Best]
		fmt.Fprintf(w, "\nBest s = %d (the smallest t_confidence%s): t_confidence %.4g rounds, mean %.4g, items sent %.4g (expected).\n",
			b.Exchange, map[bool]string{true: " among the s that meet the deadline", false: ""}[c.Deadline > 0], b.TConfidence, b.Mean, b.ItemsSent)
		if ch := d.Rows[d.Cheapest]; d.Cheapest != d.Best {
			fmt.Fprintf(w, "Cheapest s = %d (the fewest items sent%s): t_confidence %.4g rounds, mean %.4g, items sent %.4g (expected).\n",
				ch.Exchange, map[bool]string{true: " that meets the deadline", false: ""}[c.Deadline > 0], ch.TConfidence, ch.Mean, ch.ItemsSent)
		}
	case c.Deadline > 0:
		fmt.Fprintf(w, "\nNo s meets the deadline %g with probability %g.\n", c.Deadline, conf)
	}
	// One note per method, from its least accurate row (the largest of
	// its bounds); every row's bounds are columns of CSV and JSON.
	worst := map[plan.Method]int{}
	var order []plan.Method
	for i, r := range d.Rows {
		j, ok := worst[r.Method]
		if !ok {
			order = append(order, r.Method)
		}
		if !ok || accuracySize(r.Accuracy) > accuracySize(d.Rows[j].Accuracy) {
			worst[r.Method] = i
		}
	}
	var notes []string
	for _, m := range order {
		r := d.Rows[worst[m]]
		where := fmt.Sprintf("s = %d", r.Exchange)
		if len(d.Rows) > 1 {
			where = fmt.Sprintf("the least accurate s, %d; every s: --format csv or json", r.Exchange)
		}
		notes = append(notes, fmt.Sprintf("%v (%s): %s", m, where, r.Accuracy.Note))
	}
	_, err := fmt.Fprintf(w, "\nAccuracy:\n- %s\n", strings.Join(notes, "\n- "))
	return err
}

// accuracySize orders answers of one method by how far they may be off:
// the largest of the bounds that apply (NaN fields do not).
func accuracySize(a plan.Accuracy) float64 {
	v := 0.0
	for _, x := range []float64{a.Bound, a.SEMean, a.SESD, a.SEPDeadline, a.DevMean, a.DevSD} {
		if x > v {
			v = x
		}
	}
	return v
}
