package gossip

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gossipkit/gossipkit/internal/fielderr"
)

// Param states one parameter once, on its field: the Go field that holds
// it (as field errors name it), its symbol, its meaning, its unit, its
// default and its valid range. Validate methods check these ranges
// (Param.Check for the constant bounds Lo and Hi); the CLI writes its
// flags' help from here (Usage) and maps a field error back to the flag
// bound to the field. Every package states its own fields' parameters
// beside its Config (chain.TMax, broadcast.Fanout, tree.Degree).
type Param struct {
	Field   string // Go field path inside its struct: "Shuffle.Items"
	Symbol  string // the symbol of docs/MODEL.md: n ("" if none)
	Meaning string // one line: "number of distinct items"
	Unit    string // the unit, if any: "rounds"
	Range   string // the valid range, in symbols: "c ≤ n ≤ 2^40"
	// Default says what the zero value means, when it stands for a
	// default ("1", "no limit"); "" when 0 is a value like any other.
	Default string
	// Lo and Hi are the range's bounds that do not depend on another
	// field, checked by Check; the zero Bound is no bound.
	Lo, Hi Bound
}

// Bound is one end of a parameter's range: V, included unless Strict;
// the zero Bound is no bound.
type Bound struct {
	V      float64
	Strict bool
	Set    bool
}

// AtLeast is the bound v, included; Above is v excluded (for Lo, and
// likewise AtMost and Below for Hi).
func AtLeast(v float64) Bound { return Bound{V: v, Set: true} }

// Above is the lower bound v, excluded.
func Above(v float64) Bound { return Bound{V: v, Strict: true, Set: true} }

// AtMost is the upper bound v, included.
func AtMost(v float64) Bound { return Bound{V: v, Set: true} }

// Below is the upper bound v, excluded.
func Below(v float64) Bound { return Bound{V: v, Strict: true, Set: true} }

// Usage is the parameter's one-line help: its meaning, symbol, unit and
// range, "number of distinct items n (≥ c)", "last output time, in rounds
// (> 0)", "probability that one message is lost ε, in [0, 1)". The symbol
// follows the meaning's head, before its first ", " or ": " if it has one
// ("fanout k, the distinct peers …").
func (p Param) Usage() string {
	s := p.Meaning
	if p.Symbol != "" {
		i := len(s)
		for _, sep := range []string{", ", ": "} {
			if j := strings.Index(s, sep); j >= 0 && j < i {
				i = j
			}
		}
		s = s[:i] + " " + p.Symbol + s[i:]
	}
	if p.Unit != "" {
		s += ", in " + p.Unit
	}
	switch {
	case p.Range == "":
	case strings.HasPrefix(p.Range, "[") || strings.HasPrefix(p.Range, "("):
		s += ", in " + p.Range // an interval: "in [0, 1)"
	default:
		s += " (" + p.Range + ")"
	}
	return s
}

// In reports whether v lies within the constant bounds Lo and Hi; NaN
// and ±Inf never do (a parameter is a finite number).
func (p Param) In(v float64) bool {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return false
	case p.Lo.Set && (v < p.Lo.V || p.Lo.Strict && v == p.Lo.V):
		return false
	case p.Hi.Set && (v > p.Hi.V || p.Hi.Strict && v == p.Hi.V):
		return false
	}
	return true
}

// Check returns nil if v is within the constant bounds, else a
// *FieldError of package pkg on parent.Field ("Config.TMax"; parent ""
// keeps Field) "= v: valid range RANGE".
func (p Param) Check(pkg, parent string, v float64) error {
	if p.In(v) {
		return nil
	}
	return fielderr.New(pkg, p.Path(parent), "= %s: valid range %s", strconv.FormatFloat(v, 'g', -1, 64), p.Range)
}

// CheckInt is Check for an integer field (the value printed as one).
func (p Param) CheckInt(pkg, parent string, v int) error {
	if p.In(float64(v)) {
		return nil
	}
	return fielderr.New(pkg, p.Path(parent), "= %d: valid range %s", v, p.Range)
}

// Path is the field's path inside parent: "Config.TMax".
func (p Param) Path(parent string) string {
	if parent == "" {
		return p.Field
	}
	return parent + "." + p.Field
}

// Errorf returns a *FieldError of package pkg on the parameter's field
// inside parent, with a formatted message: the check of a range that
// depends on other fields.
func (p Param) Errorf(pkg, parent, format string, a ...any) error {
	return &FieldError{Pkg: pkg, Field: p.Path(parent), Msg: fmt.Sprintf(format, a...)}
}

// The parameters of a shuffle, checked by Shuffle.Validate.
var (
	Items    = Param{Field: "Shuffle.Items", Symbol: "n", Meaning: "number of distinct items", Range: "≥ c"}
	Cache    = Param{Field: "Shuffle.Cache", Symbol: "c", Meaning: "cache size", Range: "1 ≤ c ≤ n"}
	Exchange = Param{Field: "Shuffle.Exchange", Symbol: "s", Meaning: "exchange size", Range: "1 ≤ s ≤ c, s < n"}
)

// Loss is the message-loss parameter shared by every model that has one:
// each one-way message (a shuffle's request or its reply, a rumour's push
// or pull) is lost independently with probability ε.
var Loss = Param{Field: "Loss", Symbol: "ε", Meaning: "probability that one message is lost", Range: "0 ≤ ε < 1",
	Lo: AtLeast(0), Hi: Below(1)}

// Workers is the number of worker goroutines of a computation's Settings
// (0: one per CPU, its default); a result never depends on it. The bound
// keeps a mistyped value from starting millions of goroutines.
var Workers = Param{Field: "Settings.Workers", Meaning: "worker goroutines", Range: "1..4096", Default: "one per CPU",
	Lo: AtLeast(1), Hi: AtMost(4096)}

// ValidLoss reports whether ε is a valid loss probability, 0 ≤ ε < 1 (NaN
// is not).
func ValidLoss(eps float64) bool { return Loss.In(eps) }
