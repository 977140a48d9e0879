package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gossipkit/gossipkit/approx"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/flagval"
	"github.com/gossipkit/gossipkit/sim"
)

// The flag groups several commands share, each declared once here.

// ShuffleFlags declares -n, -c and (withS) -s, bound to sh, whose Go path
// in the command's Config is at; help from gossip's parameter table.
func ShuffleFlags(fs *FlagSet, sh *gossip.Shuffle, at string, withS bool) {
	params := []gossip.Param{gossip.Items, gossip.Cache, gossip.Exchange}
	for i, p := range []*int{&sh.Items, &sh.Cache, &sh.Exchange} {
		if i < 2 || withS {
			fs.IntField(p, params[i].Symbol, at+params[i].Field, params[i].Usage())
		}
	}
}

// ShuffleRanges declares -n, -c and -s as ranges V, LO:HI or LO:HI:STEP
// (pdrop), bound to the shuffle's fields at at (Shuffle.Items, …); help
// from gossip's parameter table, then notes[i] if not "". It returns the
// three values as typed.
func ShuffleRanges(fs *FlagSet, at string, notes [3]string) [3]*string {
	var vals [3]*string
	for i, p := range []gossip.Param{gossip.Items, gossip.Cache, gossip.Exchange} {
		usage := p.Meaning + " " + p.Symbol + ": V, LO:HI or LO:HI:STEP (required" + notes[i] + ")"
		vals[i] = fs.String(p.Symbol, "", usage)
		fs.Bind(at+p.Field, p.Symbol)
	}
	return vals
}

// LossFlag declares --loss, ε (gossip.Loss: its help; a value out of its
// range is refused by the library's Config.Loss, which names the flag),
// bound to field and, with dst, to *dst; with grid it also takes a grid
// LO:HI:STEP (plan). It returns the values given (0 by default).
func LossFlag(fs *FlagSet, dst *float64, field string, grid bool) *[]float64 {
	vals := &[]float64{0}
	usage := gossip.Loss.Usage()
	if grid {
		usage += ", or (the shuffle, with --deadline) a grid LO:HI:STEP: each ε, and the largest ε each s tolerates"
	}
	Parsed(fs, vals, "loss", field, usage, func(s string) ([]float64, error) {
		v, err := flagval.FloatRange(s)
		switch {
		case err != nil:
			return nil, err
		case len(v) > 1 && !grid:
			return nil, fmt.Errorf("%q: one value ε (%s)", s, gossip.Loss.Range)
		case dst != nil: // the range is the library's (Config.Loss)
			*dst = v[0]
		}
		return v, nil
	}, func(v []float64) string { return strings.Trim(fmt.Sprint(v), "[]") })
	return vals
}

// MCFlags declares the Monte Carlo settings that are not nil: --reps
// (bound to the field of param inside at, help from param: sim.Reps),
// --seed and --workers (WorkersFlag, one per CPU by default: defWorkers).
func MCFlags(fs *FlagSet, reps *int, at string, param gossip.Param, seed *uint64, workers *int, defWorkers int) {
	if reps != nil {
		fs.IntParam(reps, "reps", at, param)
	}
	if seed != nil {
		fs.Uint64Var(seed, "seed", *seed, "random seed; replication r uses stream r of it")
	}
	if workers != nil {
		WorkersFlag(fs, workers, defWorkers)
	}
}

// WorkersFlag declares --workers, def (one per CPU) by default: the help
// says so rather than this machine's count. CheckWorkers checks it.
func WorkersFlag(fs *FlagSet, p *int, def int) {
	Parsed(fs, p, "workers", gossip.Workers.Field, gossip.Workers.Usage()+"; the output does not depend on it", func(s string) (int, error) {
		n, err := flagval.Int(s) // the CLI's one rule for integers
		if err != nil {
			return 0, fmt.Errorf("%w; valid range %s", err, gossip.Workers.Range)
		}
		return n, nil
	}, func(n int) string { return map[bool]string{true: "one per CPU", false: strconv.Itoa(n)}[n == 0] })
	*p = def
}

// CheckWorkers refuses --workers outside gossip.Workers' range.
func CheckWorkers(w int) error {
	if !gossip.Workers.In(float64(w)) {
		return Usagef("--workers %d: valid range %s", w, gossip.Workers.Range)
	}
	return nil
}

// IntRange parses the value val of flag, V, LO:HI or LO:HI:STEP (decimal
// integers), with every value ≥ lo and, for a range, HI within p's
// constant upper bound, checked before the values are counted (the rest
// is left to the library's check of each value, which knows the bounds
// that depend on other fields: --fanout 0:3 is "--fanout 0: valid range
// 1..999" at N = 1000). A problem is a usage
// error on one line naming the flag, what is wrong, the syntax and p's
// valid range.
func IntRange(flag, val string, lo int, p gossip.Param) (flagval.Range, error) {
	isRange := strings.Contains(val, ":")
	r, err := flagval.ParseRangeIn(val, func(v int) error {
		if v < lo || isRange && p.Hi.Set && !p.In(float64(v)) && float64(v) > p.Hi.V {
			return fmt.Errorf("%d is out of range", v)
		}
		return nil
	})
	if err != nil {
		return r, Usagef("%s %v; want V or LO:HI[:STEP] with LO ≤ HI, STEP ≥ 1, valid range %s", flag, err, rangeOf(p, lo))
	}
	return r, nil
}

// rangeOf is p's valid range, or "≥ lo" where p states none.
func rangeOf(p gossip.Param, lo int) string {
	if p.Range == "" {
		return fmt.Sprintf("≥ %d", lo)
	}
	return p.Range
}

// PDropFlag declares --pdrop, the P_drop variant, bound to v and field.
func PDropFlag(fs *FlagSet, v *approx.Variant, field string) {
	Enum(fs, v, "pdrop", field, "P_drop variant")
}

// TimeFlag declares --time, the clock of the model, among allowed.
func TimeFlag(fs *FlagSet, t *gossip.Time, field string, allowed ...gossip.Time) *EnumValue[gossip.Time] {
	return Enum(fs, t, "time", field, "time model (go doc ./gossip Time)", allowed...)
}

// TopologyFlag declares --topology (sim.ParseTopology's syntax), bound to
// t and Config.Topology.
func TopologyFlag(fs *FlagSet, t *sim.Topology, usage string) {
	Parsed(fs, t, "topology", "Config.Topology", usage, func(s string) (sim.Topology, error) {
		t, err := sim.ParseTopology(s)
		return t, errors.Unwrap(err)
	}, sim.Topology.String)
}
