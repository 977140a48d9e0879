package shard

import (
	"bytes"
	"math"
	"path/filepath"
	"testing"

	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestContract checks the package doc's Contract: what is not a part (nil,
// empty, not gzip, not an object), a path that is no regular file and a
// shard out of range are refused with an error, never a panic.
func TestContract(t *testing.T) {
	dir := t.TempDir()
	calls := []probe.Refusal{
		{Name: "Decompress(nil)", Call: func() error { _, err := Decompress(bytes.NewReader(nil)); return err }},
		{Name: "Decompress(not gzip)", Call: func() error { _, err := Decompress(bytes.NewReader([]byte("{}"))); return err }},
		{Name: "Stream(nil)", Call: func() error { _, err := Stream(nil); return err }},
		{Name: "ReadFormat(nil)", Call: func() error { _, _, err := ReadFormat(nil); return err }},
		{Name: "HeaderOf(not an object)", Call: func() error { _, _, err := HeaderOf([]byte("[1]")); return err }},
		{Name: "LimitsOf(nil)", Call: func() error { _, err := LimitsOf(nil); return err }},
		{Name: "CheckLimits(nil)", Call: func() error { return CheckLimits(nil) }},
		{Name: "ReadFile(dir)", Call: func() error { _, err := ReadFile(dir); return err }},
		{Name: "ReadFile(missing)", Call: func() error { _, err := ReadFile(filepath.Join(dir, "none")); return err }},
		{Name: "ReadFile(/dev/zero)", Call: func() error { _, err := ReadFile("/dev/zero"); return err }},
		{Name: "WriteJSON(nil writer)", Call: func() error { return WriteJSON(nil, 1) }},
		{Name: "WriteJSON(NaN)", Call: func() error { return WriteJSON(&bytes.Buffer{}, math.NaN()) }},
	}
	for _, s := range []string{"", "0/1", "2/1", "1/0", "-1/2", "1/1000001", "x"} {
		calls = append(calls, probe.Refusal{Name: "Parse " + s, Call: func() error { _, err := Parse(s); return err }})
	}
	for _, c := range []int{-1, MaxCount + 1} {
		calls = append(calls, probe.Refusal{Name: "FromEnv count", Call: func() error {
			_, _, err := FromEnv(func(string) string { return "0" }, c)
			return err
		}})
	}
	probe.Refuses(t, 0, calls...)
}
