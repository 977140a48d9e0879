package lumped

import (
	"math"
	"testing"
)

// TestNextRuns checks the rule that adds runs (nextRuns, runsRel,
// aimLeft) case by case, each expected count from the rule as its doc
// states it: ×4 while beyond rel up to 16·Runs; past that one pass, only
// where the runs' share is beyond what the closure and Extra leave of
// aimRelErr (4.9 %), to 1.1·((z·SE/V)/left)²·ran if at most 64·Runs;
// none for a chance whose upper end is below Floor.
func TestNextRuns(t *testing.T) {
	m := New(Params{M: 10000, N1: 9999, K: 2, R: 10, Budget: 20, Target: 10000, D: 8, Z: 3})
	m.Runs = 20_000
	q := 1e-10
	// closure sets Closure so that the closure's term at q is x.
	closure := func(x float64) { m.Closure = math.Log1p(x) / math.Log(1/q) }
	est := func(rel float64) Est { return Est{V: q, SE: rel * q / 3} } // 3 SE = rel of q
	cap16, cap64 := 16*m.Runs, 64*m.Runs
	for _, c := range []struct {
		name           string
		closure, extra float64
		n, ran         int
		rel, runs      float64 // rel asked; the runs' share now (3 SE/V)
		hole           float64 // relative to V
		want           int
	}{
		{"within rel", 0, 0, 20_000, 20_000, 0.025, 0.02, 0, 20_000},
		{"beyond rel: ×4", 0, 0, 20_000, 20_100, 0.025, 0.03, 0, 80_000},
		{"beyond rel: ×4 to the cap", 0, 0, 80_000, 80_100, 0.025, 0.03, 0, cap16},
		{"at the cap, the aim met", 0.01, 0, cap16, cap16 + 500, 0.025, 0.03, 0, cap16},
		{"at the cap, the aim missed", 0.03, 0, cap16, cap16 + 500, 0.019, 0.03, 0, int(math.Ceil(1.1 * math.Pow(0.03/0.019, 2) * float64(cap16+500)))},
		{"the aim missed, Extra", 0.02, 0.01, cap16, cap16, 0.019, 0.03, 0, int(math.Ceil(1.1 * math.Pow(0.03/0.019, 2) * float64(cap16)))},
		{"the pass beyond 64·Runs", 0.03, 0, cap16, cap16, 0.019, 0.08, 0, cap16},
		{"the pass done", 0.03, 0, cap16 + 1, cap16 + 1, 0.019, 0.03, 0, cap16 + 1},
		{"the closure alone beyond the aim", 0.047, 0, cap16, cap16, 0.025, 0.03, 0, cap16},
		{"a hole beyond what is left", 0.03, 0, cap16, cap16, 0.019, 0.01, 0.02, cap16},
	} {
		t.Run(c.name, func(t *testing.T) {
			closure(c.closure)
			m.Extra = c.extra
			e := est(c.runs)
			e.Hole = c.hole * q
			if got := m.nextRuns(c.n, c.ran, c.rel, e, e); got != c.want {
				t.Errorf("nextRuns = %d, want %d", got, c.want)
			}
			if c.want > cap16 && !(c.want <= cap64) {
				t.Errorf("case beyond 64·Runs")
			}
		})
	}
	// Below Floor (its upper end) no runs are added, beyond rel or not.
	m.Floor, m.Extra = 1e-9, 0
	closure(0)
	if got := m.nextRuns(20_000, 20_000, 0.025, est(0.5), est(0.5)); got != 20_000 {
		t.Errorf("below Floor: nextRuns = %d, want 20000", got)
	}
	m.Floor = 1e-10 // the upper end 1.5e-10 is above it
	if got := m.nextRuns(20_000, 20_000, 0.025, est(0.5), est(0.5)); got != 80_000 {
		t.Errorf("above Floor: nextRuns = %d, want 80000", got)
	}
	m.Floor = 0
	// runsRel: what the closure leaves, where less than rel and at least
	// aimRelErr/10; else rel.
	for _, c := range []struct{ closure, rel, want float64 }{
		{0.01, 0.025, 0.025},
		{0.03, 0.025, aimRelErr - 0.03},
		{0.046, 0.025, 0.025},
	} {
		closure(c.closure)
		m.Extra = 0
		e := est(0.01)
		if got := m.runsRel(c.rel, e, e); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("closure %g: runsRel = %g, want %g", c.closure, got, c.want)
		}
	}
}
