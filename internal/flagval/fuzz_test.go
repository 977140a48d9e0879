package flagval

import "testing"

// FuzzIntList: no input panics; accepted lists hold integers ≥ 1.
func FuzzIntList(f *testing.F) {
	for _, s := range []string{"1,2,3", "", ",", "0", "-1", "1,,2", " 4 , 5", "9999999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := IntList("--x", s)
		if err != nil {
			return
		}
		for _, x := range v {
			if x < 1 {
				t.Fatalf("%q accepted with %d", s, x)
			}
		}
	})
}
