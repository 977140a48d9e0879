package cli

import (
	"fmt"
	"math"
	"strings"

	"github.com/gossipkit/gossipkit/internal/flagval"
	"github.com/gossipkit/gossipkit/sim"
)

// MaxMemoryFlag declares --max-memory, the memory a run may use (a size:
// 500MB, 2GiB, 1e9; 0, the default, is the memory the machine has
// available, of which the workers share at most WorkerMemory), into *p in
// bytes.
func MaxMemoryFlag(fs *FlagSet, p *uint64) {
	Parsed(fs, p, "max-memory", "", "memory the run may use, as 500MB, 2GiB or bytes (at least 1MiB; 0: the default); the workers are lowered to fit it and a run that does not fit with one is refused", func(s string) (uint64, error) {
		b, err := ParseBytes(s)
		if err == nil && b < MinMemory && !zeroSize(s) {
			// 1KB was taken and shown as "0 KiB"; 0.5 read as 0, the default.
			return 0, fmt.Errorf("%q: below 1 MiB, the least a run may be given; valid range 1MiB or more, or 0 for the memory available", s)
		}
		return b, err
	},
		func(b uint64) string {
			if b == 0 {
				return "the memory available; the workers share at most " + FormatBytes(WorkerMemory)
			}
			return FormatBytes(b)
		})
}

// MergeMemoryFlag declares --max-memory for a merge (merge, reproduce
// --merge) into *p in bytes, with its usage: a size, 0 (the default)
// being the memory the machine has available.
func MergeMemoryFlag(fs *FlagSet, p *uint64, usage string) {
	Parsed(fs, p, "max-memory", "", usage, ParseBytes, func(b uint64) string {
		if b == 0 {
			return "the memory available"
		}
		return FormatBytes(b)
	})
}

// MinMemory is the least --max-memory takes (other than 0, the default):
// a limit below it is less than the process itself holds before any run,
// so it means nothing a user wants (1KB was taken and shown as "0 KiB");
// a small run's estimate is 804 KiB (sim -N 100 -n 40 -c 10 -s 5 --reps
// 10), so such runs still fit in it.
const MinMemory uint64 = 1 << 20

// zeroSize reports whether the size s is written as zero ("0", "0MB"):
// no non-zero digit before its exponent or unit.
func zeroSize(s string) bool {
	for _, c := range s {
		switch {
		case c >= '1' && c <= '9':
			return false
		case c == 'e' || c == 'E' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
			return true
		}
	}
	return true
}

// WorkerMemory is what the workers of a run share when --max-memory is not
// given: the workers change the memory and not the output, so a command
// runs fewer replications at once rather than let its memory grow with
// --workers (at least one, whatever its size, if the machine has room for
// it). sim at N = 2^26 (280 MiB a replication) runs one at a time.
const WorkerMemory uint64 = 512 << 20

// ParseBytes reads a size: a number with an optional unit, B, kB/KB, MB,
// GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024).
func ParseBytes(s string) (uint64, error) {
	units := []struct {
		suffix string
		mult   float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}
	num, mult := strings.TrimSpace(s), 1.0
	for _, u := range units {
		if v, ok := strings.CutSuffix(num, u.suffix); ok {
			num, mult = strings.TrimSpace(v), u.mult
			break
		}
	}
	v, err := flagval.Float(num) // decimal notation, as every real flag
	b := v * mult
	if err != nil || !(b >= 0) || b >= math.MaxUint64/2 {
		return 0, fmt.Errorf("%q: not a size (500MB, 2GiB or bytes)", s)
	}
	return uint64(b), nil
}

// FormatBytes writes a size in GiB, MiB or KiB (sim.FormatBytes, the
// form of sim's memory messages).
func FormatBytes(b uint64) string { return sim.FormatBytes(b) }
