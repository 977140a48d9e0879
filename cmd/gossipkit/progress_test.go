package main

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// TestProgressBatchLines: on a batch log (stderr not a terminal) a long
// command logs its progress in lines. With BatchEvery at 1 ns every report
// is a line, so the test sees what the callbacks report, whatever the
// machine's speed: plan's exact broadcast chain (the silent
// `--method exact`) counts in thousandths up to 1000/1000, never going
// back; its Monte Carlo in replications. stdout is the same as without the
// lines.
func TestProgressBatchLines(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		args  []string
		total int64
	}{
		{"exact", []string{"plan", "--protocol", "push-pull", "-N", "300", "--fanout", "2", "--method", "exact"}, 1000},
		{"mc", []string{"plan", "--protocol", "push", "-N", "200", "--fanout", "3", "--method", "mc", "--reps", "50"}, 50},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var out, quiet, log, none bytes.Buffer
			if code := runEnv(context.Background(), &env{Stdout: &out, Stderr: &log, Getenv: func(string) string { return "" }, BatchEvery: time.Nanosecond}, c.args); code != 0 {
				t.Fatalf("exit %d: %s", code, log.String())
			}
			if code := runEnv(context.Background(), &env{Stdout: &quiet, Stderr: &none, Getenv: func(string) string { return "" }}, c.args); code != 0 || none.Len() != 0 {
				t.Fatalf("without BatchEvery: exit %d, stderr %q", code, none.String())
			}
			if out.String() != quiet.String() {
				t.Errorf("stdout differs with the progress lines")
			}
			line := regexp.MustCompile(`(?m)^plan: (\d+)/(\d+) \(\d+%\), \d+ s`)
			ms := line.FindAllStringSubmatch(log.String(), -1)
			if len(ms) < 2 {
				t.Fatalf("want progress lines, got %q", log.String())
			}
			prev := int64(-1)
			for _, m := range ms {
				done, _ := strconv.ParseInt(m[1], 10, 64)
				total, _ := strconv.ParseInt(m[2], 10, 64)
				if total != c.total || done < prev || done > total {
					t.Errorf("line %q: want done rising to the total %d", m[0], c.total)
				}
				prev = done
			}
			if prev != c.total {
				t.Errorf("last line at %d, want %d/%d", prev, c.total, c.total)
			}
		})
	}
}
