package plots

import (
	"errors"
	"fmt"
	"math"
)

// check returns an error for a Spec that cannot be drawn: a series whose
// X and Y (or band) lengths differ, a negative colour, or no finite point
// in any series (a figure with nothing on it).
func (s *Spec) check() error {
	if s == nil {
		return errors.New("plots: nil Spec")
	}
	points := 0
	for i, se := range s.Series {
		name := se.Name
		if name == "" {
			name = fmt.Sprintf("#%d", i)
		}
		switch {
		case len(se.X) != len(se.Y):
			return fmt.Errorf("plots: Spec %q, Series %s: %d X values and %d Y values", s.Title, name, len(se.X), len(se.Y))
		case (len(se.Lo) != 0 || len(se.Hi) != 0) && (len(se.Lo) != len(se.Y) || len(se.Hi) != len(se.Y)):
			return fmt.Errorf("plots: Spec %q, Series %s: Lo and Hi need %d values each (or none)", s.Title, name, len(se.Y))
		case se.Color < 0:
			return fmt.Errorf("plots: Spec %q, Series %s: Color %d is negative", s.Title, name, se.Color)
		}
		for j := range se.Y {
			if !math.IsNaN(se.Y[j]) && !math.IsInf(se.Y[j], 0) && !math.IsNaN(se.X[j]) && !math.IsInf(se.X[j], 0) {
				points++
			}
		}
	}
	for _, v := range s.VLines {
		if v.Color < 0 {
			return fmt.Errorf("plots: Spec %q, VLine %q: Color %d is negative", s.Title, v.Name, v.Color)
		}
	}
	if points == 0 {
		return fmt.Errorf("plots: Spec %q: %w", s.Title, ErrEmpty)
	}
	return nil
}

// ErrEmpty is a figure with no finite point to draw.
var ErrEmpty = errors.New("no finite point to draw")

// check returns an error for a Table whose rows do not have one value per
// key.
func (t *Table) check() error {
	if t == nil {
		return errors.New("plots: nil Table")
	}
	for i, r := range t.Rows {
		if len(r) != len(t.Keys) {
			return fmt.Errorf("plots: Table row %d has %d values for %d Keys", i, len(r), len(t.Keys))
		}
	}
	return nil
}
