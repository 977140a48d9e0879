package probe

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// recorder is a testing.TB that keeps the failures instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, a ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, a...))
}
func (r *recorder) Fatalf(format string, a ...any) { r.Errorf(format, a...) }

type cfg struct {
	N    int
	Rate float64
	Name string
	Sub  *struct{ K int }
}

// TestFuncFindsPanicsAndHangs plants a panic on one value of one field and
// a loop that ignores its context, and checks that Func reports exactly
// those variants and nothing else.
func TestFuncFindsPanicsAndHangs(t *testing.T) {
	fn := func(ctx context.Context, c cfg, xs []float64) error {
		if c.N == -1 {
			panic("planted")
		}
		if c.Sub != nil && c.Sub.K == 1<<40 {
			for ctx.Err() == nil { // honours ctx: must pass
			}
		}
		if c.Rate != c.Rate { // NaN: ignores ctx
			time.Sleep(time.Second)
		}
		return nil
	}
	r := &recorder{TB: t}
	n := Func(r, "fn", fn, Settings{CtxTimeout: 20 * time.Millisecond, Timeout: 500 * time.Millisecond},
		context.Background(), cfg{N: 3, Rate: 1, Sub: &struct{ K int }{2}}, []float64{1})
	if n < 40 {
		t.Errorf("%d calls, want one per nasty value of each field (≥ 40)", n)
	}
	want := []string{"fn(arg1.N=-1): panic: planted", "fn(arg1.Rate=NaN): still running"}
	if len(r.errs) != len(want) {
		t.Fatalf("reported %q, want %d failures: %q", r.errs, len(want), want)
	}
	for i, w := range want {
		if !strings.HasPrefix(r.errs[i], w) {
			t.Errorf("failure %d = %q, want prefix %q", i, r.errs[i], w)
		}
	}
}

// TestConfigRefusals: one nil-context refusal per entry, then one per bad
// field the entry does not ignore, each applied to the entry's own Cfg.
func TestConfigRefusals(t *testing.T) {
	type conf struct{ A, B int }
	var got []conf
	rec := func(_ context.Context, c conf) error { got = append(got, c); return nil }
	entries := []ConfigEntry[conf]{
		{Name: "f", Cfg: conf{1, 1}, Call: rec},
		{Name: "g", Cfg: conf{2, 2}, Ignores: map[string]bool{"B": true}, Call: rec},
	}
	bad := []BadField[conf]{{Field: "A", Set: func(c *conf) { c.A = -1 }}, {Field: "B", Set: func(c *conf) { c.B = -1 }}}
	calls := ConfigRefusals(entries, bad)
	var names []string
	for _, c := range calls {
		names = append(names, c.Name+"|"+c.Want)
		c.Call()
	}
	want := []string{"f(nil ctx)|nil context", "f/A|A", "f/B|B", "g(nil ctx)|nil context", "g/A|A"}
	if fmt.Sprint(names) != fmt.Sprint(want) {
		t.Errorf("refusals %v, want %v", names, want)
	}
	wantCfg := []conf{{1, 1}, {-1, 1}, {1, -1}, {2, 2}, {-1, 2}}
	if fmt.Sprint(got) != fmt.Sprint(wantCfg) {
		t.Errorf("configurations %v, want %v", got, wantCfg)
	}
}
