// Package enum parses and names the small enumerations of the libraries
// (time models, schedules, strategies) from one table of names.
//
// # Contract
//
// No function takes a context or runs long. Parse refuses a name not in
// the list (case and spaces count) with an error naming what is parsed
// and listing the valid names; List and Of never panic. TestContract
// checks it.
package enum

import (
	"fmt"
	"slices"
	"strings"
)

// Names are the names of the values 0, 1, … of an enumeration T.
type Names[T ~int] []string

// Name returns the name of v, or "T(v)" for a value outside the table, so
// that a String method built on it never panics.
func (n Names[T]) Name(v T) string {
	if v >= 0 && int(v) < len(n) {
		return n[v]
	}
	return fmt.Sprintf("%T(%d)", v, int(v))
}

// Valid reports whether v is a value of the table.
func (n Names[T]) Valid(v T) bool { return v >= 0 && int(v) < len(n) }

// Parse returns the value named s, or an error that names what is parsed
// and lists the valid names.
func (n Names[T]) Parse(what, s string) (T, error) { return Parse[T](n, what, s) }

// Parse returns the index of s in names as a T, or an error that names
// what is parsed and lists the valid names.
func Parse[T ~int](names []string, what, s string) (T, error) {
	if i := slices.Index(names, s); i >= 0 {
		return T(i), nil
	}
	return 0, fmt.Errorf("unknown %s %q (valid: %s)", what, s, strings.Join(names, ", "))
}

// Stringer is an enumeration whose String method is built on Names.Name
// (every enumeration of the libraries).
type Stringer interface {
	~int
	String() string
}

// Of recovers the names of an enumeration from its String method: the
// values 0, 1, … up to the first that Name writes as out of range. A
// program (the CLI) thus lists and parses the values from the table the
// library keeps, without a copy of it.
func Of[T Stringer]() Names[T] {
	var n Names[T]
	for v := T(0); v < 1<<10; v++ {
		s := v.String()
		if s == fmt.Sprintf("%T(%d)", v, int(v)) {
			break
		}
		n = append(n, s)
	}
	return n
}

// List writes the names of vals, or of every value of T if none, as
// "a, b, c": the valid values an error lists, from the table rather than
// typed again.
func List[T Stringer](vals ...T) string {
	if len(vals) == 0 {
		for i := range Of[T]() {
			vals = append(vals, T(i))
		}
	}
	names := make([]string, len(vals))
	for i, v := range vals {
		names[i] = v.String()
	}
	return strings.Join(names, ", ")
}
