package report

import "fmt"

// A result type's Render and Verdicts take what its Study method made. A
// nil result or Doc, or a zero-value result (not made by its Study
// method), is an error of Render and no verdicts, never a panic: the
// guards below turn a nil-pointer or index panic of such a result into
// that error.

// nilRender is Render's error for a nil result or Doc.
func nilRender(what string) error {
	return fmt.Errorf("report: %s.Render: nil result or Doc", what)
}

// incomplete, deferred by Render, turns a panic on a result its Study
// method did not make (a zero value) into Render's error.
func incomplete(what string, err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("report: %s: a result its Study method did not make (%v)", what, p)
	}
}

// incompleteVerdicts, deferred by Verdicts, gives no verdicts for such a
// result.
func incompleteVerdicts(v *[]Verdict) {
	if recover() != nil {
		*v = nil
	}
}
