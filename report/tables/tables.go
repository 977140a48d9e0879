package tables

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/exact"
	"github.com/gossipkit/gossipkit/meanfield"
	"github.com/gossipkit/gossipkit/plots"
	"github.com/gossipkit/gossipkit/sim"
	"github.com/gossipkit/gossipkit/tree"
)

// jsonField is one member of a JSON object written by writeJSONObject: a
// table in its JSON form, or raw JSON.
type jsonField struct {
	key   string
	table *plots.Table
	raw   string
}

// writeJSONObject writes {"key": value, …} with one member a line.
func writeJSONObject(w io.Writer, fields ...jsonField) error {
	for i, f := range fields {
		sep := ",\n"
		if i == 0 {
			sep = "{\n"
		}
		fmt.Fprintf(w, "%s%q: ", sep, f.key)
		if f.table == nil {
			fmt.Fprint(w, f.raw)
		} else if err := f.table.Write(w, "json"); err != nil {
			return err
		}
	}
	_, err := fmt.Fprint(w, "}\n")
	return err
}

// RoundsTable is a simulation's per-round table: mean, sd and 5/50/95 %
// quantiles of x, of y (per event) and of y_round (round snapshots) over
// the replications, as fractions of N. A nil result gives the header
// alone.
func RoundsTable(res *sim.Result) *plots.Table {
	t := &plots.Table{Keys: []string{"t", "x_mean", "x_sd", "y_mean", "y_sd", "x_q05", "x_q50", "x_q95", "y_q05", "y_q50", "y_q95",
		"y_round_mean", "y_round_sd", "y_round_q05", "y_round_q50", "y_round_q95"}}
	if res == nil {
		return t
	}
	lossy := res.Config.Loss > 0 // d can die: the share of runs where it has
	if lossy {
		t.Keys = append(t.Keys, "p_extinct", "p_extinct_se")
	}
	for _, r := range res.Summary() {
		row := []any{r.T, r.XMean, r.XSD, r.YMean, r.YSD, r.XQ05, r.XQ50, r.XQ95, r.YQ05, r.YQ50, r.YQ95,
			r.YRMean, r.YRSD, r.YRQ05, r.YRQ50, r.YRQ95}
		if lossy {
			row = append(row, r.PExtinct, r.PExtinctSE)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// WriteSim writes a simulation result as `gossipkit sim` prints it: in
// csv the per-round table; in json the parameters, the measured
// probabilities and transitions beside the model's, and the rounds; in
// text and markdown a summary, then the rounds (every 20th in text). The
// model's transitions are Fig. 1's matrix with simplified P_drop at the
// n + 1 items of a lossless protocol run's network (NetworkTransitions), at n
// otherwise (sim.Measured.TransModel); p_drop_simplified and formula (1)
// stay the paper's, at n.
func WriteSim(w io.Writer, res *sim.Result, format string) error {
	if res == nil || w == nil {
		return errors.New("tables: WriteSim: nil result or writer")
	}
	if res.Replications() == 0 || res.Config.Rounds < 1 {
		return fmt.Errorf("tables: WriteSim: a result with %d replications of %d rounds; need at least one of each", res.Replications(), res.Config.Rounds)
	}
	t := RoundsTable(res)
	if format == "csv" {
		return t.Write(w, "csv")
	}
	m := res.Measure()
	c := res.Config
	var pdrop any // null for the Markov model, which draws drops from the model
	if c.Model == sim.Protocol {
		pdrop = m.PDrop
	}
	sum := res.Summary()
	last := sum[len(sum)-1]
	model, at := m.TransModel, ""
	if c.Model == sim.Protocol && c.Loss == 0 {
		// The protocol's network holds n + 1 items once d is inserted
		// (N·c if N·c ≤ n).
		if tm, items, err := NetworkTransitions(c); err == nil {
			model, at = tm, itemsText(c, items, 0)
		}
	}
	if format == "json" {
		params := &plots.Table{Single: true, Keys: []string{"model", "N", "n", "c", "s", "warmup", "rounds", "reps", "seed", "initial", "schedule", "topology", "connected"},
			Rows: [][]any{{c.Model.String(), c.Nodes, c.Shuffle.Items, c.Shuffle.Cache, c.Shuffle.Exchange, c.Warmup, c.Rounds, c.Reps, strconv.FormatUint(c.Seed, 10), c.Initial, c.Schedule.String(), c.Topology.String(), res.Connected}}}
		if c.Loss > 0 { // only then, so that lossless output is unchanged
			params.Keys, params.Rows[0] = append(params.Keys, "loss"), append(params.Rows[0], c.Loss)
		}
		if c.WarmStates > 0 && c.Model == sim.Protocol { // likewise
			params.Keys, params.Rows[0] = append(params.Keys, "warm_states"), append(params.Rows[0], c.WarmStates)
		}
		trans := &plots.Table{Keys: []string{"from", "to", "measured", "model"}}
		for i := 1; i < 4; i++ {
			for j := range 4 {
				trans.Rows = append(trans.Rows, []any{approx.State(i).String(), approx.State(j).String(), m.Trans[i][j], model[i][j]})
			}
		}
		meas := &plots.Table{Single: true, Keys: []string{"p_select", "p_select_model", "p_drop", "p_drop_simplified", "p_drop_formula1", "shuffles", "failed_attempts", "x_mean_final", "y_mean_final"},
			Rows: [][]any{{m.PSelect, m.PSelectModel, pdrop, m.PDropSimplified, m.PDropFormula1, m.Shuffles, m.Failed, last.XMean, last.YMean}}}
		return writeJSONObject(w, jsonField{key: "parameters", table: params}, jsonField{key: "measured", table: meas},
			jsonField{key: "transitions", table: trans}, jsonField{key: "rounds", table: t})
	}
	// text and markdown: a summary, then the table.
	warmup := "" // the Markov model has no caches to mix and runs no warm-up
	if c.Model == sim.Protocol {
		warmup = fmt.Sprintf("%d warm-up + ", c.Warmup)
		if c.WarmStates > 0 {
			warmup = fmt.Sprintf("%d warm-up (%d warm states, replication r branching from r mod %d) + ", c.Warmup, c.WarmStates, c.WarmStates)
		}
	}
	fmt.Fprintf(w, "%s simulation: N=%d n=%d c=%d s=%d, %s%d rounds, %d replications, seed %d, %s schedule, %s topology",
		c.Model, c.Nodes, c.Shuffle.Items, c.Shuffle.Cache, c.Shuffle.Exchange, warmup, c.Rounds, c.Reps, c.Seed, c.Schedule, c.Topology)
	if c.Loss > 0 {
		fmt.Fprintf(w, ", message loss ε = %g: d extinct (X = 0) in %.4g ± %.2g of the replications at T (p_extinct per round)", c.Loss, last.PExtinct, last.PExtinctSE)
	}
	fmt.Fprint(w, "\n\n")
	if !res.Connected {
		fmt.Fprintln(w, "warning: the topology is not connected; coverage cannot reach every node")
	}
	fmt.Fprintf(w, "%s; x_mean(T) = %.6g ± %.2g (sd over replications); y_mean(T) = %.6g\n", steadyText(res), last.XMean, last.XSD, last.YMean)
	fmt.Fprintf(w, "P_select: measured %.6g, model s/c = %.6g\n", m.PSelect, m.PSelectModel)
	if pdrop != nil {
		fmt.Fprintf(w, "P_drop (per item of S_B \\ S_A): measured %.6g; simplified (n−c)/(n−s) = %.6g; formula (1) = %.6g\n", m.PDrop, m.PDropSimplified, m.PDropFormula1)
	}
	if c.Schedule == sim.Async {
		fmt.Fprintf(w, "async: %d shuffles, %d failed attempts (%.3g%%)\n", m.Shuffles, m.Failed, 100*float64(m.Failed)/float64(m.Failed+m.Shuffles))
	}
	fmt.Fprintf(w, "\nTransitions of d in shuffles (measured / model with simplified P_drop%s):\n", at)
	for i := 1; i < 4; i++ {
		fmt.Fprintf(w, "  from %v:", approx.State(i))
		for j := range 4 {
			fmt.Fprintf(w, "  →%v %.4f/%.4f", approx.State(j), m.Trans[i][j], model[i][j])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	if format == "text" {
		// Every step-th round keeps the text readable; csv has all.
		step := max(1, c.Rounds/20)
		thin := &plots.Table{Keys: t.Keys}
		for i, row := range t.Rows {
			if i%step == 0 || i == len(t.Rows)-1 {
				thin.Rows = append(thin.Rows, row)
			}
		}
		fmt.Fprintf(w, "Per round (every %d rounds; --format csv for all):\n", step)
		t = thin
	}
	return t.Write(w, format)
}

// steadyText states the plateau of x a run of res should reach. The
// pairwise models (Markov, Lumped) apply Fig. 1's matrix at n: c/n. The
// protocol's network holds n + 1 items once d is inserted, without loss
// (sim.ItemsAfterInsertion; N·c if N·c ≤ n), so c/(n+1), with the paper's c/n beside it; under loss
// the items alive at t = 0 (Replication.Alive, and d), c/(alive + 1)
// averaged over the replications, which items dying later raise.
func steadyText(res *sim.Result) string {
	c := res.Config
	cn := float64(c.Shuffle.Cache) / float64(c.Shuffle.Items)
	switch {
	case c.Model != sim.Protocol:
		return fmt.Sprintf("steady state x = c/n = %.6g predicted", cn)
	case c.Loss > 0:
		var k float64
		alive := res.AliveCounts() // Run's or RunSummary's result alike
		for _, a := range alive {
			k += float64(c.Shuffle.Cache) / float64(a+1) / float64(len(alive))
		}
		return fmt.Sprintf("steady state x = c/(items alive at t = 0) = %.6g predicted at t = 0 (the items alive, d included, mean over the replications; items dying later raise it; the paper's c/n = %.6g)", k, cn)
	}
	items, pFewer := sim.ItemsAfterInsertion(c.Nodes, c.Shuffle)
	return fmt.Sprintf("steady state x = c/items = %.6g predicted%s; the paper's c/n = %.6g", float64(c.Shuffle.Cache)/float64(items), itemsText(c, items, pFewer), cn)
}

// itemsText names the items of a lossless protocol run's network once d
// is inserted (sim.ItemsAfterInsertion): " at the n + 1 = 501 items of the
// network", with the chance pFewer of one fewer where it is not
// negligible (the steady-state line gives it; 0 leaves it out), or
// the N·c items of a network whose every item holds one copy.
func itemsText(c sim.Config, items int, pFewer float64) string {
	if items != c.Shuffle.Items+1 {
		return fmt.Sprintf(" at the N·c = %d items of the network (N·c ≤ n: every item holds one copy, and d overwrote one)", items)
	}
	t := fmt.Sprintf(" at the n + 1 = %d items of the network", items)
	if pFewer >= 1e-6 {
		t += fmt.Sprintf(" (n = %d if d overwrote an item's last copy: chance about %.2g, from binomial replica counts)", c.Shuffle.Items, pFewer)
	}
	return t
}

// TreeTable is a tree experiment's summary as one record, as `gossipkit
// tree build|fail` prints it; a failure experiment adds the repair's
// traffic by kind (tree.RepairTraffic) and in % of the build's.
func TreeTable(s tree.Summary) *plots.Table {
	c := s.Exp.Cfg
	t := &plots.Table{Single: true,
		Keys: []string{"nodes", "degree", "join", "redirect", "seeds", "depth", "messages_per_node", "messages_max", "propagation_ms", "reach99_ms"},
	}
	row := []any{c.Nodes, c.Degree, c.Join.String(), c.Redirect.String(), s.Seeds, s.Depth, s.MessagesPerNode, s.MessagesMax, s.PropagationMs, s.Reach99Ms}
	if s.Exp.Fail {
		t.Keys = append(t.Keys, "fraction", "repair", "elect", "failed", "reconnected", "reconnect_ms", "repair_messages", "messages_increase_pct", "join_requests_increase_pct", "depth_change_pct", "pings",
			"join_msgs", "break_msgs", "election_msgs", "upkeep_msgs", "lookup_msgs", "traffic_increase_pct")
		row = append(row, c.FailFraction, c.Repair.String(), c.Elect.String(), s.Failed, s.Reconnected, s.ReconnectMs,
			s.RepairMessages, s.RepairMessagesPct, s.JoinRequestsIncreasePct, s.DepthChangePct, s.Pings,
			s.JoinMsgs, s.BreakMsgs, s.ElectionMsgs, s.UpkeepMsgs, s.LookupMsgs, s.TrafficIncreasePct)
	}
	t.Rows = [][]any{row}
	return t
}

// ChainTable is a solved chain's law per output time: t, x_mean, x_sd,
// x_q05, x_q50, x_q95, then the same for y (not with ReplicationOnly), then
// p_level = P(Y(t) ≥ ⌈L·N⌉) when a level was asked for. A nil result
// gives no table.
func ChainTable(res *chain.Result) *plots.Table {
	if res == nil {
		return &plots.Table{}
	}
	keys := []string{"t", "x_mean", "x_sd", "x_q05", "x_q50", "x_q95"}
	cfg := res.Config
	if !cfg.ReplicationOnly {
		keys = append(keys, "y_mean", "y_sd", "y_q05", "y_q50", "y_q95")
	}
	if cfg.Level > 0 {
		keys = append(keys, "p_level")
	}
	if cfg.Loss > 0 {
		keys = append(keys, "p_extinct")
	}
	t := &plots.Table{Keys: keys}
	for _, r := range res.Rows {
		row := []any{r.T, r.X.Mean, r.X.SD, r.X.Q05, r.X.Q50, r.X.Q95}
		if !cfg.ReplicationOnly {
			row = append(row, r.Y.Mean, r.Y.SD, r.Y.Q05, r.Y.Q50, r.Y.Q95)
		}
		if cfg.Level > 0 {
			row = append(row, r.PLevel)
		}
		if cfg.Loss > 0 {
			row = append(row, r.PExtinct)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// WriteChain writes a solved chain as `gossipkit chain` prints it: json an
// object with the rows, "time_to_level" and "error_bound"; csv the table
// with the error bound and, with a level, the law of the time to it as
// columns of every row (the same value in each); markdown the error bound
// and the time to the level as a record, then the table; text a summary,
// then the table. With life (the law of d's lifetime, from chain.Lifetime,
// when d can die) each format adds it as it does the time to the level:
// json "lifetime", csv columns lifetime_mean and lifetime_sd, markdown a
// record, text a line.
func WriteChain(w io.Writer, res *chain.Result, life *Lifetime, format string) error {
	if w == nil || res == nil {
		return errors.New("tables: WriteChain: no writer or no result")
	}
	t := ChainTable(res)
	var lt *plots.Table
	if life != nil {
		lt = &plots.Table{Single: true, Keys: []string{"mean", "sd"}, Rows: [][]any{{life.Mean, life.SD}}}
	}
	var lvl *plots.Table
	if l := res.Level; l != nil {
		lvl = &plots.Table{Single: true, Keys: []string{"level", "count", "mean", "sd", "q05", "q50", "q95"},
			Rows: [][]any{{l.Level, l.Count, l.Mean, l.SD, l.Q05, l.Q50, l.Q95}}}
		if res.Config.Loss > 0 { // T_L = ∞ when d dies first: the law given T_L < ∞
			lvl.Keys, lvl.Rows[0] = append(lvl.Keys, "p_reach"), append(lvl.Rows[0], l.PReach)
		}
	}
	switch format {
	case "json":
		fields := []jsonField{{key: "error_bound", raw: strconv.FormatFloat(res.Bound, 'g', -1, 64)}, {key: "rows", table: t}}
		if lvl != nil {
			fields = append(fields, jsonField{key: "time_to_level", table: lvl})
		}
		if lt != nil {
			fields = append(fields, jsonField{key: "lifetime", table: lt})
		}
		return writeJSONObject(w, fields...)
	case "csv":
		t.Keys = append(t.Keys, "error_bound")
		if lvl != nil {
			for _, k := range lvl.Keys {
				t.Keys = append(t.Keys, "time_to_level_"+k)
			}
		}
		if lt != nil {
			t.Keys = append(t.Keys, "lifetime_mean", "lifetime_sd")
		}
		for i := range t.Rows {
			t.Rows[i] = append(t.Rows[i], res.Bound)
			if lvl != nil {
				t.Rows[i] = append(t.Rows[i], lvl.Rows[0]...)
			}
			if lt != nil {
				t.Rows[i] = append(t.Rows[i], lt.Rows[0]...)
			}
		}
	case "markdown":
		fmt.Fprintf(w, "Error bound (total variation): %.2g\n\n", res.Bound)
		if lvl != nil {
			fmt.Fprintf(w, "Time to coverage %g (rounds):\n\n", res.Level.Level)
			if err := lvl.Write(w, "markdown"); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
		if lt != nil {
			fmt.Fprintf(w, "Lifetime of d, the time to X = 0 (rounds):\n\n")
			if err := lt.Write(w, "markdown"); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
	case "text":
		c := res.Config
		fmt.Fprintf(w, "exact pairwise chain: N=%d n=%d c=%d s=%d, %d initial copies, P_drop %v, %v time; error bound %.2g (total variation), %d steps of the chain uniformized at %.4g per round\n",
			c.Nodes, c.Shuffle.Items, c.Shuffle.Cache, c.Shuffle.Exchange, max(c.Initial, 1), c.PDrop, c.Time, res.Bound, res.Stats.Steps, res.Stats.Rate)
		if c.Loss > 0 {
			fmt.Fprintf(w, "message loss ε = %g: d can die (X = 0, absorbing); p_extinct = P(X(t) = 0)\n", c.Loss)
		}
		if l := res.Level; l != nil {
			fmt.Fprintf(w, "time to coverage %g (Y ≥ %d): mean %.6g, sd %.4g, quantiles 5/50/95 %% %.4g / %.4g / %.4g rounds\n", l.Level, l.Count, l.Mean, l.SD, l.Q05, l.Q50, l.Q95)
			if c.Loss > 0 {
				fmt.Fprintf(w, "  given T_L < ∞; p_reach = P(T_L < ∞) = %.6g (d dies before the level with probability %.4g)\n", l.PReach, 1-l.PReach)
			}
		}
		if life != nil {
			fmt.Fprintf(w, "lifetime of d (time to X = 0 from X = %d): mean %.6g, sd %.4g rounds\n", max(c.Initial, 1), life.Mean, life.SD)
		}
		fmt.Fprintln(w)
	}
	return t.Write(w, format)
}

// PDropTable is `gossipkit pdrop`'s table: formula (1), the γ form and S
// exactly (null where undefined), formula (1) rounded, log10 |E − S| and,
// with enumerate, the enumerated per-item and per-shuffle probabilities.
func PDropTable(evs []exact.Evaluation, enumerate bool) *plots.Table {
	keys := []string{"n", "c", "s", "exact", "gamma", "simplified", "exact_float", "log10_abs_diff"}
	if enumerate {
		keys = append(keys, "enumerated", "enumerated_per_shuffle")
	}
	t := &plots.Table{Keys: keys, TextCell: plots.ShortFraction}
	for _, ev := range evs {
		var simp, ldiff any // null where S or the logarithm is undefined
		if ev.Simplified != nil {
			simp = ev.Simplified
		}
		if ev.HasLog10 {
			ldiff = ev.Log10AbsDiff
		}
		// A nil formula (an Evaluation not made by exact.Evaluate) is a
		// null cell, not a panic.
		var ex, gamma, exf any
		if ev.Formula1 != nil {
			ex = ev.Formula1
			exf, _ = ev.Formula1.Float64()
		}
		if ev.Gamma != nil {
			gamma = ev.Gamma
		}
		row := []any{ev.Items, ev.Cache, ev.Exchange, ex, gamma, simp, exf, ldiff}
		if enumerate {
			if en := ev.Enumerated; en != nil {
				row = append(row, en.PerItem, en.PerShuffle)
			} else {
				row = append(row, nil, nil)
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// ODETable is `gossipkit ode`'s table: the integrated x, y beside the
// closed forms and, if ref is not nil, the refined means and predicted sds.
func ODETable(sol *meanfield.Solution, ref *meanfield.RefinedCurves) *plots.Table {
	keys := []string{"t", "x", "y", "x_closed", "y_closed"}
	if ref != nil {
		keys = append(keys, "x_refined", "y_refined", "x_sd", "y_sd")
	}
	t := &plots.Table{Keys: keys}
	if sol == nil { // no solution: the header alone
		return t
	}
	for i, tt := range sol.T {
		row := []any{tt, sol.X[i], sol.Y[i], sol.XClosed[i], sol.YClosed[i]}
		if ref != nil {
			row = append(row, ref.X[i], ref.Y[i], ref.XSD[i], ref.YSD[i])
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// OptimalTable is `gossipkit optimal`'s record: the configuration (n, c,
// N, level) and the optimal exchange sizes of res by each criterion, with
// s_int_gamma and s_int_exact empty where c is too large for them. A nil
// res gives the configuration alone.
func OptimalTable(cfg meanfield.OptimizeConfig, res *meanfield.Optimum) *plots.Table {
	t := &plots.Table{Single: true, Keys: []string{"n", "c", "N", "level", "s_star", "s_int", "s_int_gamma", "s_int_exact", "p11_at_s_int", "s_best_time", "best_time", "time_at_s_int"}}
	if res == nil {
		t.Keys = t.Keys[:4]
		t.Rows = [][]any{{cfg.Items, cfg.Cache, cfg.Nodes, cfg.Level}}
		return t
	}
	var sIntGamma, sIntExact any // null where c is too large for these argmaxes
	if res.HasSIntGamma {
		sIntGamma = res.SIntGamma
	}
	if res.HasSIntExact {
		sIntExact = res.SIntExact
	}
	t.Rows = [][]any{{cfg.Items, cfg.Cache, cfg.Nodes, cfg.Level, res.SStar, res.SInt, sIntGamma, sIntExact, res.P11, res.SBestTime, res.BestTime, res.TimeAtSInt}}
	return t
}

// NetworkTransitions is Fig. 1's matrix (simplified P_drop, cfg's loss) at
// the items of a protocol run's network once d is inserted
// (sim.ItemsAfterInsertion), and that count.
func NetworkTransitions(cfg sim.Config) (approx.Transitions, int, error) {
	sh := cfg.Shuffle
	sh.Items, _ = sim.ItemsAfterInsertion(cfg.Nodes, cfg.Shuffle)
	tm, err := approx.TransitionsLossFor(approx.Simplified, sh, cfg.Loss)
	return tm, sh.Items, err
}
