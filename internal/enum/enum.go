// Package enum parses the small named enumerations of the libraries
// (time models and the like) from their names.
package enum

import (
	"fmt"
	"slices"
	"strings"
)

// Parse returns the index of s in names as a T, or an error that names
// what is parsed and lists the valid names.
func Parse[T ~int](names []string, what, s string) (T, error) {
	if i := slices.Index(names, s); i >= 0 {
		return T(i), nil
	}
	return 0, fmt.Errorf("unknown %s %q (valid: %s)", what, s, strings.Join(names, ", "))
}
