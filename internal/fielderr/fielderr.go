// Package fielderr is the one error type with which the libraries name an
// invalid configuration field (sim.FieldError, tree.FieldError and
// chain.FieldError are aliases of it), so that a program, or the CLI
// mapping fields to flags, handles all three alike.
package fielderr

// Error is an invalid field; Field names it (Config.Nodes), Msg says what
// is wrong and the valid range.
type Error struct {
	Field string
	Msg   string
}

func (e *Error) Error() string { return e.Field + " " + e.Msg }
