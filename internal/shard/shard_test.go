package shard

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"
)

func TestParseAndIndices(t *testing.T) {
	id, err := Parse("2/3")
	if err != nil || id != (ID{Index: 2, Count: 3}) {
		t.Fatalf("%v %v", id, err)
	}
	// r mod 3 = 1 among 0..9.
	if got := id.Indices(10); !slices.Equal(got, []int{1, 4, 7}) {
		t.Errorf("Indices = %v", got)
	}
	for _, bad := range []string{"", "1", "0/3", "4/3", "1/0", "a/b", "1/1000001", "-1/2"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestFromEnv(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		vars  map[string]string
		count int
		want  *ID
		err   bool
	}{
		{map[string]string{}, 3, nil, false},
		{map[string]string{"JOB_COMPLETION_INDEX": "0"}, 3, &ID{1, 3}, false},
		{map[string]string{"JOB_COMPLETION_INDEX": "3"}, 3, nil, true},
		{map[string]string{"JOB_COMPLETION_INDEX": "x"}, 3, nil, true},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_COUNT": "4"}, 0, &ID{3, 4}, false},
		{map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "1"}, 2, &ID{2, 2}, false},
	} {
		t.Run(fmt.Sprint(tc.vars, tc.count), func(t *testing.T) {
			got, _, err := FromEnv(env(tc.vars), tc.count)
			if (err != nil) != tc.err || (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
				t.Errorf("%v: %v %v, want %v (error %v)", tc.vars, got, err, tc.want, tc.err)
			}
		})
	}
	if _, _, err := FromEnv(env(map[string]string{"JOB_COMPLETION_INDEX": "0"}), 0); !errors.Is(err, ErrNeedCount) {
		t.Errorf("no count: %v", err)
	}
}

func TestRangesAndMissing(t *testing.T) {
	if got := Ranges([]int{0, 1, 2, 3, 7, 9, 10}); got != "0-3, 7, 9-10" {
		t.Errorf("Ranges = %q", got)
	}
	if got := Missing(5, func(i int) bool { return i%2 == 0 }); !slices.Equal(got, []int{1, 3}) {
		t.Errorf("Missing = %v", got)
	}
}

func TestPartEnvelope(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, map[string]any{"format": "x", "v": 1}); err != nil {
		t.Fatal(err)
	}
	format, plain, err := ReadFormat(b.Bytes())
	if err != nil || format != "x" || !bytes.Contains(plain, []byte(`"v":1`)) {
		t.Fatalf("%q %q %v", format, plain, err)
	}
	raw := b.Bytes()
	for _, bad := range [][]byte{nil, []byte("not gzip"), raw[:len(raw)-3]} {
		if _, _, err := ReadFormat(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
