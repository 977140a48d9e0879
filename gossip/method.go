package gossip

import (
	"fmt"

	"github.com/gossipkit/gossipkit/internal/enum"
)

// Method is how a design answer's law is computed: the one enumeration of
// package plan (the shuffle) and package broadcast (plan.Method and
// broadcast.Method are this type). Each package documents what each value
// means for it.
type Method int

const (
	// Auto: the package chooses (the exact law where it fits, else the
	// asymptotic law where it applies, else Monte Carlo) and says which.
	Auto Method = iota
	// Exact: the finite chain, solved.
	Exact
	// Asymptotic: the law at large N with its stated accuracy.
	Asymptotic
	// MonteCarlo: simulation, with standard errors.
	MonteCarlo
)

var methodNames = enum.Names[Method]{"auto", "exact", "asymptotic", "mc"}

// String returns the method's name; it never panics.
func (m Method) String() string { return methodNames.Name(m) }

// Valid reports whether m is one of the methods above.
func (m Method) Valid() bool { return methodNames.Valid(m) }

// MethodNames are the methods' names, in order.
func MethodNames() []string { return append([]string(nil), methodNames...) }

// ParseMethod parses auto, exact, asymptotic or mc.
func ParseMethod(s string) (Method, error) {
	m, err := methodNames.Parse("method", s)
	if err != nil {
		return 0, fmt.Errorf("gossip: %w", err)
	}
	return m, nil
}
