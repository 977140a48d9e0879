package cli

import (
	"flag"
	"strconv"

	"github.com/gossipkit/gossipkit/internal/flagval"
)

// numberValue is an integer or real flag of the flag package read by the
// CLI's one rule for numbers (flagval: decimal integers, -N 010 is ten
// and 0x10 refused; no real that underflows), then handed to the flag's
// own Set in a form it reads to the same value.
type numberValue struct {
	flag.Value
	read  func(string) (string, error) // the canonical text, or why not
	valid string                       // the flag's valid range, if known
}

func (v *numberValue) Set(s string) error {
	canon, err := v.read(s)
	if err != nil {
		if v.valid != "" {
			return &rangeError{err, v.valid}
		}
		return err
	}
	return v.Value.Set(canon)
}

// rangeError is a refused number with the flag's valid range after it.
type rangeError struct {
	err   error
	valid string
}

func (e *rangeError) Error() string { return e.err.Error() + "; valid range " + e.valid }
func (e *rangeError) Unwrap() error { return e.err }

// strictNumbers routes every int, int64, uint, uint64 and float64 flag of
// fs through the rule above: the one place the CLI's numbers are read
// (ranges and lists read theirs with the same functions). It runs once,
// when the command line is parsed, after duplicateFlag has compared the
// flags' variables.
func (fs *FlagSet) strictNumbers() {
	fs.VisitAll(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if !ok {
			return
		}
		var read func(string) (string, error)
		switch g.Get().(type) {
		case int, int64:
			read = func(s string) (string, error) {
				v, err := flagval.Int(s)
				return strconv.Itoa(v), err
			}
		case uint, uint64:
			read = func(s string) (string, error) {
				v, err := flagval.Uint(s)
				return strconv.FormatUint(v, 10), err
			}
		case float64:
			read = func(s string) (string, error) {
				v, err := flagval.Float(s)
				return strconv.FormatFloat(v, 'g', -1, 64), err
			}
		default:
			return
		}
		f.Value = &numberValue{Value: f.Value, read: read, valid: fs.ranges[f.Name]}
	})
}
