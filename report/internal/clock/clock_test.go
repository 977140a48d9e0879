package clock

import (
	"testing"
	"time"
)

// TestClockSteps: a section's first named step takes the time before it,
// every later step ends at the next, the rendering is section 0, and the
// table's total is the sum of its rows.
func TestClockSteps(t *testing.T) {
	var got []StepTime
	c := New(func(s StepTime) { got = append(got, s) })
	c.Begin(1, "first section")
	c.Step("a")
	c.Step("b")
	c.End()
	c.Begin(2, "second section") // no named step: the section's title
	c.End()
	c.Begin(0, "rendering")
	c.End()
	want := []struct {
		section int
		step    string
	}{{1, "a"}, {1, "b"}, {2, "second section"}, {0, "rendering"}}
	if len(got) != len(want) {
		t.Fatalf("%d steps reported, want %d: %+v", len(got), len(want), got)
	}
	var sum time.Duration
	for i, w := range want {
		g := got[i]
		if g.Section != w.section || g.Step != w.step {
			t.Errorf("step %d: section %d %q, want %d %q", i, g.Section, g.Step, w.section, w.step)
		}
		if g.Wall < 0 || g.Elapsed < g.Wall || (i > 0 && g.Elapsed < got[i-1].Elapsed) {
			t.Errorf("step %d: wall %v, elapsed %v (previous %v)", i, g.Wall, g.Elapsed, got[max(i-1, 0)].Elapsed)
		}
		if s := g.Share(); s < 0 || s > 1 {
			t.Errorf("step %d: share %g outside [0, 1]", i, s)
		}
		sum += g.Wall
	}
	tab := c.Table([]string{"first section", "second section"}, nil)
	// rows: two sections, the rendering, the total
	if len(tab.Rows) != 4 || tab.Rows[0][0] != "1. first section" || tab.Rows[3][0] != "total" {
		t.Fatalf("table rows %v", tab.Rows)
	}
	if w := c.by[1].Wall + c.by[2].Wall + c.by[0].Wall; w != sum {
		t.Errorf("sections' wall %v ≠ steps' wall %v", w, sum)
	}
}

// TestStepTimeString: the batch log line, expected strings written by hand
// (3 s of 25 s is 12 %; CPU −1 is unknown and left out; section 0 is the
// rendering; no time elapsed is a share of 0).
func TestStepTimeString(t *testing.T) {
	for _, tc := range []struct {
		st   StepTime
		want string
	}{
		{StepTime{Section: 2, Step: "fig7", Wall: 3 * time.Second, CPU: 6 * time.Second, Elapsed: 25 * time.Second}, "section 2, fig7: 3.0 s, 6.0 s CPU (12% of 25 s so far)"},
		{StepTime{Section: 0, Step: "figures", Wall: 500 * time.Millisecond, CPU: -1, Elapsed: 2 * time.Second}, "render, figures: 0.5 s (25% of 2 s so far)"},
		{StepTime{}, "render, : 0.0 s, 0.0 s CPU (0% of 0 s so far)"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if got := tc.st.String(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
