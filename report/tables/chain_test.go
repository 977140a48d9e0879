package tables

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/internal/probe"
)

// TestWriteChainLifetime: with a Lifetime, each format gains it where that
// format keeps its summary values, and nothing else changes: the expected
// output is the one without it with the pieces inserted, written here by
// hand from the rule in WriteChain's doc.
func TestWriteChainLifetime(t *testing.T) {
	cfg := chain.Config{Nodes: 2, Shuffle: gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}, Loss: 0.2, Level: 1, TMax: 1, Dt: 1}
	res, err := chain.Solve(context.Background(), cfg, chain.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	life := &Lifetime{Mean: 1.5, SD: 2}
	md := "Lifetime of d, the time to X = 0 (rounds):\n\n| quantity | value |\n|:---------|:------|\n| mean     | 1.5   |\n| sd       | 2     |\n\n"
	for _, tc := range []struct {
		format string
		want   func(plain string) string
	}{
		{"json", func(p string) string {
			return strings.TrimSuffix(p, "}\n") + ",\n\"lifetime\": {\n  \"mean\": 1.5,\n  \"sd\": 2\n}\n}\n"
		}},
		{"csv", func(p string) string {
			lines := strings.Split(strings.TrimSuffix(p, "\n"), "\n")
			for i := range lines {
				if i == 0 {
					lines[i] += ",lifetime_mean,lifetime_sd"
				} else {
					lines[i] += ",1.5,2"
				}
			}
			return strings.Join(lines, "\n") + "\n"
		}},
		{"text", func(p string) string {
			head, table, _ := strings.Cut(p, "\n\n")
			return head + "\nlifetime of d (time to X = 0 from X = 1): mean 1.5, sd 2 rounds\n\n" + table
		}},
		{"markdown", func(p string) string {
			i := strings.Index(p, "| t ")
			return p[:i] + md + p[i:]
		}},
	} {
		t.Run(tc.format, func(t *testing.T) {
			var plain, got bytes.Buffer
			if err := WriteChain(&plain, res, nil, tc.format); err != nil {
				t.Fatal(err)
			}
			if err := WriteChain(&got, res, life, tc.format); err != nil {
				t.Fatal(err)
			}
			if want := tc.want(plain.String()); got.String() != want {
				t.Errorf("got\n%s\nwant\n%s", got.String(), want)
			}
		})
	}
}

// TestQuasiStationaryTable: rows x = 1..last nonzero p (at least x = 1).
func TestQuasiStationaryTable(t *testing.T) {
	for _, tc := range []struct {
		name string
		nu   []float64
		rows int
	}{
		{"trailing zeros cut", []float64{0, 0.5, 0.5, 0, 0}, 2},
		{"all kept", []float64{0, 0.25, 0, 0.75}, 3},
		{"x = 1 always", []float64{0, 0, 0}, 1},
		{"empty", nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := len(QuasiStationaryTable(tc.nu).Rows); got != tc.rows {
				t.Errorf("%d rows, want %d", got, tc.rows)
			}
		})
	}
}

// TestNastyValuesChain: the chain writers through internal/probe.
func TestNastyValuesChain(t *testing.T) {
	cfg := chain.Config{Nodes: 2, Shuffle: gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}, Loss: 0.2, TMax: 1, Dt: 1}
	res, err := chain.Solve(context.Background(), cfg, chain.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	var set probe.Settings
	var b bytes.Buffer
	probe.Func(t, "WriteChain", WriteChain, set, &b, res, &Lifetime{Mean: 1, SD: 1}, "text")
	probe.Func(t, "QuasiStationaryTable", QuasiStationaryTable, set, []float64{0, 1})
	probe.Func(t, "WriteQuasiStationary", WriteQuasiStationary, set, &b, cfg, []float64{0, 1}, "text")
}
