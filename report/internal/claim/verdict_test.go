package claim

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestShortMeasured: Verdict.Phrase, the claims table's phrase is Short where set, else
// Measured's headline (up to "; "), cut at a word within MaxShort
// characters.
func TestShortMeasured(t *testing.T) {
	if got := (Verdict{Measured: "a; b", Short: "s"}).Phrase(); got != "s" {
		t.Errorf("Short ignored: %q", got)
	}
	if got := (Verdict{Measured: "head; tail"}).Phrase(); got != "head" {
		t.Errorf("headline: %q", got)
	}
	long := strings.Repeat("word ", 100)
	got := Verdict{Measured: long}.Phrase()
	if n := utf8.RuneCountInString(got); n > MaxShort || !strings.HasSuffix(got, "word…") {
		t.Errorf("cut: %d characters, %q", n, got)
	}
}
