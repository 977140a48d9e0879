package sim

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/gossip"
)

// TestProtocolMatchesC replays replications of the C reference
// (testdata/cref/shuffle.c, written apart from this package's code from
// docs/MODEL.md §1 with the same generator and the same random choices in
// the same order; testdata/README.md) with Run: every round's X, Y and
// YRound, the counters of the observation and, under loss, the items
// alive at t = 0 must be the C program's. The files are shuffle.c's
// output for the arguments in their names (N n c s W T seed rep ε; full
// topology, rounds schedule, one copy of d), made by testdata/cref/run.sh.
func TestProtocolMatchesC(t *testing.T) {
	files, err := filepath.Glob("testdata/cref/shuffle_*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no reference files: %v", err)
	}
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(base, func(t *testing.T) {
			var N, n, c, s, W, T, rep int
			var seed uint64
			var eps float64
			if _, err := fmt.Sscanf(strings.ReplaceAll(base, "_", " "), "shuffle %d %d %d %d %d %d %d %d %g",
				&N, &n, &c, &s, &W, &T, &seed, &rep, &eps); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			cfg := DefaultConfig()
			cfg.Nodes, cfg.Shuffle = N, gossip.Shuffle{Items: n, Cache: c, Exchange: s}
			cfg.Warmup, cfg.Rounds, cfg.Reps, cfg.Seed, cfg.Loss = W, T, rep+1, seed, eps
			res, err := Run(context.Background(), cfg, Settings{Workers: 1, Indices: []int{rep}})
			if err != nil {
				t.Fatal(err)
			}
			got := res.Reps[0]
			want := readCRef(t, f, T)
			for r := 0; r <= T; r++ {
				if got.X[r] != want.X[r] || got.Y[r] != want.Y[r] || got.YRound[r] != want.YRound[r] {
					t.Fatalf("round %d: X, Y, YRound = %d, %d, %d; C: %d, %d, %d",
						r, got.X[r], got.Y[r], got.YRound[r], want.X[r], want.Y[r], want.YRound[r])
				}
			}
			if got.Counters != want.Counters {
				t.Errorf("counters %+v\nC:       %+v", got.Counters, want.Counters)
			}
			if got.Alive != want.Alive {
				t.Errorf("alive %d, C: %d", got.Alive, want.Alive)
			}
		})
	}
}

// readCRef reads shuffle.c's output with "each": an optional "alive K",
// lines "t X Y Yround" for t = 0..T, "counters …" and "transitions …".
func readCRef(t *testing.T, f string, T int) Replication {
	t.Helper()
	fh, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rep := Replication{X: make([]int32, T+1), Y: make([]int32, T+1), YRound: make([]int32, T+1)}
	ints := func(v []string) []int64 {
		out := make([]int64, len(v))
		for i, s := range v {
			x, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatalf("%s: %q: %v", f, s, err)
			}
			out[i] = x
		}
		return out
	}
	sc := bufio.NewScanner(fh)
	rounds := 0
	for sc.Scan() {
		v := strings.Fields(sc.Text())
		switch {
		case len(v) == 2 && v[0] == "alive":
			rep.Alive = int(ints(v[1:])[0])
		case len(v) == 7 && v[0] == "counters":
			k := ints(v[1:])
			rep.Shuffles, rep.Failed, rep.SelectTrials, rep.SelectHits, rep.DropCandidates, rep.Drops = k[0], k[1], k[2], k[3], k[4], k[5]
		case len(v) == 17 && v[0] == "transitions":
			for i, x := range ints(v[1:]) {
				rep.Transitions[i/4][i%4] = x
			}
		case len(v) == 4:
			k := ints(v)
			if k[0] != int64(rounds) || rounds > T {
				t.Fatalf("%s: line %q out of order", f, sc.Text())
			}
			rep.X[rounds], rep.Y[rounds], rep.YRound[rounds] = int32(k[1]), int32(k[2]), int32(k[3])
			rounds++
		default:
			t.Fatalf("%s: line %q", f, sc.Text())
		}
	}
	if rounds != T+1 {
		t.Fatalf("%s: %d rounds, want %d", f, rounds, T+1)
	}
	return rep
}
