package flagval

import "testing"

func TestParseRange(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
	}{
		{"5", []int{5}}, {"3:5", []int{3, 4, 5}}, {"3:9:3", []int{3, 6, 9}}, {"3:10:3", []int{3, 6, 9}}, {"-2:-1", []int{-2, -1}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			r, err := ParseRange(tc.in)
			if err != nil {
				t.Fatalf("%q: %v", tc.in, err)
			}
			got := r.Values()
			if len(got) != len(tc.want) {
				t.Fatalf("%q: %v, want %v", tc.in, got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("%q: %v, want %v", tc.in, got, tc.want)
				}
			}
		})
	}
	for _, bad := range []string{"", "a", "1:", ":2", "2:1", "1:2:0", "1:2:-1", "1:2:3:4", "1.5", "0:2000000", "99999999999999999999"} {
		t.Run("bad "+bad, func(t *testing.T) {
			if r, err := ParseRange(bad); err == nil {
				t.Errorf("%q accepted as %+v", bad, r)
			}
		})
	}
}

// FuzzParseRange checks that any accepted range is non-empty, ascending,
// within bounds and bounded in size.
func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"5", "1:10", "1:10:3", "-3:3", "9:1", "1:2:0", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRange(s)
		if err != nil {
			return
		}
		if r.Step < 1 || r.Hi < r.Lo {
			t.Fatalf("%q accepted as %+v", s, r)
		}
		if n := (r.Hi-r.Lo)/r.Step + 1; n > MaxPoints {
			t.Fatalf("%q: %d points", s, n)
		}
		vs := r.Values()
		if len(vs) == 0 || vs[0] != r.Lo || vs[len(vs)-1] > r.Hi {
			t.Fatalf("%q: values %v for %+v", s, vs, r)
		}
	})
}
