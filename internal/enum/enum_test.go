package enum

import (
	"fmt"
	"strings"
	"testing"
)

type color int

var colorNames = Names[color]{"red", "green"}

func (c color) String() string { return colorNames.Name(c) }

func TestNames(t *testing.T) {
	if got := colorNames.Name(1); got != "green" {
		t.Errorf("Name(1) = %q, want green", got)
	}
	for _, v := range []color{-1, 2, 99} {
		t.Run(fmt.Sprintf("outside %d", v), func(t *testing.T) {
			if got, want := colorNames.Name(v), fmt.Sprintf("enum.color(%d)", v); got != want {
				t.Errorf("Name(%d) = %q, want %q", v, got, want)
			}
			if colorNames.Valid(v) {
				t.Errorf("Valid(%d) = true", v)
			}
		})
	}
	if v, err := colorNames.Parse("colour", "red"); v != 0 || err != nil {
		t.Errorf("Parse(red) = %v, %v", v, err)
	}
	if _, err := colorNames.Parse("colour", "blue"); err == nil || err.Error() != `unknown colour "blue" (valid: red, green)` {
		t.Errorf("Parse(blue) error = %v", err)
	}
}

// Of recovers a table from the String method built on it.
func TestOf(t *testing.T) {
	got := Of[color]()
	if strings.Join(got, ",") != strings.Join(colorNames, ",") {
		t.Errorf("Of = %v, want %v", got, colorNames)
	}
}

// TestList checks List against names written out by hand.
func TestList(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		{"all", List[color](), "red, green"},
		{"some", List(color(1), color(0)), "green, red"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %q, want %q", tc.got, tc.want)
			}
		})
	}
}
