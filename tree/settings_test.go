package tree

import (
	"context"
	"errors"
	"testing"
)

// TestRunSettings: Indices selects seeds (a shard's results equal the same
// seeds of the whole run), Progress counts the seeds run, and an index
// outside 0..Seeds−1 is a FieldError on Settings.Indices.
func TestRunSettings(t *testing.T) {
	x := Experiment{Cfg: Config{Nodes: 40, Degree: 3}, Seeds: 5, Seed: 7}
	all, err := x.Run(context.Background(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	var calls [][2]int64
	some, err := x.Run(context.Background(), Settings{Indices: []int{1, 4}, Progress: func(done, total int64) {
		calls = append(calls, [2]int64{done, total})
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(some) != 2 || some[0] != all[1] || some[1] != all[4] {
		t.Errorf("seeds 1 and 4 alone: %+v, want %+v and %+v", some, all[1], all[4])
	}
	if len(calls) != 2 || calls[0] != [2]int64{1, 2} || calls[1] != [2]int64{2, 2} {
		t.Errorf("progress calls %v, want [[1 2] [2 2]]", calls)
	}
	_, err = x.Run(context.Background(), Settings{Indices: []int{5}})
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "Settings.Indices" {
		t.Errorf("index 5 of 5 seeds: %v, want a FieldError on Settings.Indices", err)
	}
}
