package cli

import "testing"

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want uint64
		ok   bool
	}{
		{"500MB", 500e6, true},
		{"2GiB", 2 << 30, true},
		{"64 MiB", 64 << 20, true},
		{"1e9", 1e9, true},
		{"1.5kB", 1500, true},
		{"0", 0, true},
		{"12B", 12, true},
		{"-1MB", 0, false},
		{"5XB", 0, false},
		{"NaN", 0, false},
		{"1e30", 0, false},
		{"", 0, false},
	} {
		got, err := ParseBytes(tc.s)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d (ok %v)", tc.s, got, err, tc.want, tc.ok)
		}
	}
}
