package claim

import (
	"strings"
	"unicode/utf8"
)

// The verdicts are rules applied to this run's figures; each rule is
// stated where it is applied, so a reader can disagree with a threshold
// and still use the figure.
const (
	Holds     = "holds"
	Qualified = "holds with a qualification"
	Fails     = "does not hold"
	Unchecked = "cannot be checked"
)

// Verdict judges one claim of the source documents: Verdict is one of
// "holds", "holds with a qualification", "does not hold", "cannot be
// checked"; Rule states how it was decided (the constants are in
// rules.go); Measured is the figure behind it, and Short, if set, the one
// phrase of it the claims table shows (else Phrase cuts one from
// Measured).
type Verdict struct {
	Claim, Verdict, Rule, Measured string
	Short                          string
}

// A Judge is a section result that judges claims.
type Judge interface {
	Verdicts() []Verdict
}

// MaxShort is the longest measured phrase of the claims table, in
// characters: a cell a reader takes in at a glance.
const MaxShort = 160

// Phrase is v's phrase for the claims table: Short if set, else
// Measured up to its first "; " (the measurement's headline; the rest is
// in verdicts.md), cut at a word before MaxShort characters with "…".
func (v Verdict) Phrase() string {
	s := v.Short
	if s == "" {
		s, _, _ = strings.Cut(v.Measured, "; ")
	}
	if utf8.RuneCountInString(s) <= MaxShort {
		return s
	}
	r := []rune(s)[:MaxShort-1]
	cut := string(r)
	if i := strings.LastIndex(cut, " "); i > MaxShort/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:(") + "…"
}
