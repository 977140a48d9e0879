package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gossipkit/gossipkit/chain"
	"github.com/gossipkit/gossipkit/gossip"
	"github.com/gossipkit/gossipkit/meanfield"
	"github.com/gossipkit/gossipkit/report/tables"
)

// textColumns are the CSV columns that hold words and boolColumns those
// that hold true or false; every other column of every CSV the report
// writes is numeric: each cell a number (a fraction p/q for an exact value)
// or empty (docs/CLI.md: "CSV and JSON carry numbers", booleans as true/false).
var boolColumns = map[string]bool{
	"reconnected": true, // tree repairs
	"feasible":    true, // design answers
	"connected":   true, // the protocol on a real network
	"same_argmax": true, // the optima of Sec. 3.5
}

var textColumns = map[string]bool{
	"claim": true, "verdict": true, "rule": true, "measured": true, // verdicts
	"from":       true,                   // transitions: a state name
	"simulation": true, "quantity": true, // refined
	"redirect":    true, // tree_table1
	"repair":      true, // tree_repair_traffic: the strategy
	"method":      true, // design answers: exact, mc or asymptotic
	"protocol":    true, // gossip as deployed: push, pull or push-pull
	"push_method": true, // gossip against tree: the method of push's law
	"topology":    true, // the protocol on a real network: full, regular:DEG, torus:R
	"p_drop":      true, // the optima of Sec. 3.5: S or formula (1)
	"items_are":   true, // uniformity: items or descriptors
}

// checkCSV parses one CSV and checks that every cell of a numeric column
// is a number or empty.
func checkCSV(t *testing.T, name string, r io.Reader) {
	t.Helper()
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(recs) < 2 {
		t.Errorf("%s: no rows", name)
		return
	}
	for i, rec := range recs[1:] {
		for j, cell := range rec {
			key := recs[0][j]
			if boolColumns[key] {
				if cell != "true" && cell != "false" {
					t.Errorf("%s row %d: %s = %q, want true or false", name, i+1, key, cell)
				}
				continue
			}
			if textColumns[key] || cell == "" {
				continue
			}
			if _, err := strconv.ParseFloat(cell, 64); err == nil {
				continue
			}
			if _, ok := new(big.Rat).SetString(cell); ok {
				continue
			}
			t.Errorf("%s row %d: %s = %q is not a number", name, i+1, key, cell)
		}
	}
}

// checkDirCSV checks every CSV in dir (TestRunTiny calls it on the tiny
// report, so that the whole report runs once for both).
func checkDirCSV(t *testing.T, dir string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
	if len(files) < 13 {
		t.Errorf("%d CSV files", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkCSV(t, filepath.Base(f), bytes.NewReader(b))
	}
}

// The chain's CSV carries the error bound and, with a level, the time to
// it, as numbers.
func TestWriteChainCSV(t *testing.T) {
	res, err := chain.Solve(context.Background(), chain.Config{Nodes: 2, Shuffle: gossip.Shuffle{Items: 7, Cache: 4, Exchange: 2}, TMax: 1, Dt: 0.5, Level: 1}, chain.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tables.WriteChain(&b, res, nil, "csv"); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for j, k := range recs[0] {
		col[k] = j
	}
	// Two nodes, full coverage: the time is Exp(1) (see the CLI's
	// TestChainTwoNodes), so its mean is 1 and its median ln 2.
	for _, k := range []string{"error_bound", "time_to_level_mean", "time_to_level_q50"} {
		if _, ok := col[k]; !ok {
			t.Fatalf("no column %s in %v", k, recs[0])
		}
	}
	if m, _ := strconv.ParseFloat(recs[1][col["time_to_level_mean"]], 64); m < 1-1e-12 || m > 1+1e-12 {
		t.Errorf("mean time %v, want 1", m)
	}
	checkCSV(t, "chain.csv", bytes.NewReader(b.Bytes()))
	b.Reset()
	if err := tables.WriteChain(&b, res, nil, "markdown"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b.Bytes(), []byte("Error bound")) || !bytes.Contains(b.Bytes(), []byte("| q50 ")) {
		t.Errorf("markdown lacks the bound or the time to level:\n%s", b.String())
	}
}

// TestOptimalTable: the record keeps the configuration, puts null where an
// argmax is not computed (HasSIntGamma false) and the value where it is;
// a nil result gives the configuration alone.
func TestOptimalTable(t *testing.T) {
	cfg := meanfield.OptimizeConfig{Items: 10, Cache: 4, Nodes: 20, Level: 0.9}
	res := &meanfield.Optimum{SStar: 2.5, SInt: 3, SIntExact: 2, HasSIntExact: true}
	var b bytes.Buffer
	if err := tables.OptimalTable(cfg, res).Write(&b, "csv"); err != nil {
		t.Fatal(err)
	}
	want := "n,c,N,level,s_star,s_int,s_int_gamma,s_int_exact,p11_at_s_int,s_best_time,best_time,time_at_s_int\n10,4,20,0.9,2.5,3,,2,0,0,0,0\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if tb := tables.OptimalTable(cfg, nil); len(tb.Keys) != 4 || len(tb.Rows[0]) != 4 {
		t.Errorf("nil result: %v %v", tb.Keys, tb.Rows)
	}
}
