package gossip

import (
	"math"
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestContract checks the package doc's Contract: a zero, negative, NaN or
// huge value is refused with an error naming the field, never a panic.
func TestContract(t *testing.T) {
	var calls []probe.Refusal
	for _, sh := range []Shuffle{{}, {Items: -1, Cache: 4, Exchange: 2}, {Items: 10, Cache: 0, Exchange: 0},
		{Items: 10, Cache: 4, Exchange: 5}, {Items: 10, Cache: 11, Exchange: 2}, {Items: math.MaxInt, Cache: 4, Exchange: 2}} {
		calls = append(calls, probe.Refusal{Name: "Shuffle.Validate " + sh.String(), Field: true, Call: sh.Validate})
	}
	p := Param{Field: "Nodes", Range: "2..10", Lo: AtLeast(2), Hi: AtMost(10)}
	for _, v := range []float64{0, -1, math.NaN(), math.Inf(1), 1e300} {
		calls = append(calls, probe.Refusal{Name: "Param.Check", Want: "Config.Nodes", Field: true,
			Call: func() error { return p.Check("gossip", "Config", v) }})
	}
	for _, s := range []string{"", "\x00", "nope"} {
		calls = append(calls,
			probe.Refusal{Name: "ParseMethod " + s, Call: func() error { _, err := ParseMethod(s); return err }},
			probe.Refusal{Name: "ParseTime " + s, Call: func() error { _, err := ParseTime(s); return err }})
	}
	probe.Refuses(t, 0, calls...)
	if ValidLoss(math.NaN()) || ValidLoss(1) || ValidLoss(-0.1) {
		t.Error("ValidLoss accepts NaN, 1 or a negative loss")
	}
}
