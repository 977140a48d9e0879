package broadcast

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLiteralMatchesC replays the replications of the C reference
// (testdata/cref/push.c, written apart from the Go code from the rules of
// the package doc, with the same generator, the same Floyd draws of peers
// and failed nodes in the same order) with the literal engine: every
// replication's T_1 and messages must be the same. The files are push.c's
// output for the arguments in their names (N k ε φ reps seed, testdata
// README).
func TestLiteralMatchesC(t *testing.T) {
	files, err := filepath.Glob("testdata/cref/push_*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no reference files: %v", err)
	}
	for _, f := range files {
		var N, k, reps int
		var eps, phi float64
		var seed uint64
		base := strings.TrimSuffix(filepath.Base(f), ".txt")
		if _, err := fmt.Sscanf(strings.ReplaceAll(base, "_", " "), "push %d %d %g %g %d %d", &N, &k, &eps, &phi, &reps, &seed); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		cfg := Config{Nodes: N, Protocol: Push, Fanout: k, Loss: eps, Failed: phi, Level: 1}
		l := newLiteral(cfg, seed)
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		n := 0
		for sc.Scan() {
			v := strings.Fields(sc.Text())
			if len(v) != 3 {
				t.Fatalf("%s: line %q", f, sc.Text())
			}
			i, _ := strconv.Atoi(v[0])
			T, _ := strconv.Atoi(v[1])
			msgs, _ := strconv.ParseInt(v[2], 10, 64)
			rep, err := l.run(context.Background(), i)
			if err != nil {
				t.Fatal(err)
			}
			if rep.T != T || rep.Messages != msgs {
				t.Errorf("%s: replication %d: T = %d, %d messages; C: %d, %d", base, i, rep.T, rep.Messages, T, msgs)
			}
			n++
		}
		fh.Close()
		if n != reps {
			t.Errorf("%s: %d replications, want %d", f, n, reps)
		}
	}
}
