// Package fielderr is the one error type with which the libraries name an
// invalid configuration field (gossip.FieldError, sim.FieldError,
// tree.FieldError, chain.FieldError and the others are aliases of it), so
// that a program, or the CLI mapping fields to flags, handles them alike.
//
// # Contract
//
// New and Within take no context and never panic: Within(pkg, parent,
// nil) is nil, a nil *Error prints "field error (nil)". TestContract
// checks them.
package fielderr

import (
	"errors"
	"fmt"
)

// Error is an invalid field: Pkg is the package that reports it, Field
// names the field as a Go program writes it (Config.Nodes,
// Config.Shuffle.Exchange), Msg says what is wrong and the valid range.
type Error struct {
	Pkg   string
	Field string
	Msg   string
}

// Error returns "pkg: Field Msg".
func (e *Error) Error() string {
	if e == nil {
		return "field error (nil)"
	}
	if e.Pkg == "" {
		return e.Field + " " + e.Msg
	}
	return e.Pkg + ": " + e.Field + " " + e.Msg
}

// New returns an *Error of package pkg on field with a formatted message.
func New(pkg, field, format string, a ...any) error {
	return &Error{Pkg: pkg, Field: field, Msg: fmt.Sprintf(format, a...)}
}

// Within returns err as reported by package pkg for a field nested in
// parent: a *Error on Shuffle.Exchange becomes one on
// Config.Shuffle.Exchange of pkg; with parent "" the field keeps its path
// and only the package changes (a function taking a Shuffle). Other errors
// are wrapped as "pkg: err".
func Within(pkg, parent string, err error) error {
	if err == nil {
		return nil
	}
	var fe *Error
	if errors.As(err, &fe) {
		field := fe.Field
		if parent != "" {
			field = parent + "." + field
		}
		return &Error{Pkg: pkg, Field: field, Msg: fe.Msg}
	}
	return fmt.Errorf("%s: %w", pkg, err)
}
