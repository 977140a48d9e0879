package report

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/gossipkit/gossipkit/broadcast"
	"github.com/gossipkit/gossipkit/internal/ctxguard"
	"github.com/gossipkit/gossipkit/plots"
)

// OperatorRow is one setting of the operator table that follows the claims
// in REPORT.md: push with memberlist's default budget
// (broadcast.MemberlistBudget with broadcast.DefaultRetransmitMult: 4
// transmits per decimal digit of N) at fanout deployedFanout, N nodes,
// message loss Loss and a share Failed of the nodes down. Residue is the
// chance that a given live node is never informed and PMiss the chance
// that some live node is, each with the relative error its method claims
// (broadcast.MissChance: the exact chain, the large-N law or the watched
// runs, Method); Budget6 and Budget9 are the smallest budgets whose upper
// end of PMiss is at most 10⁻⁶ and 10⁻⁹ (broadcast.SmallestBudget).
type OperatorRow struct {
	N                      int
	Loss, Failed           float64
	Budget                 int
	Residue, ResidueRelErr float64
	PMiss, PMissRelErr     float64
	Method                 string
	Budget6, Budget9       int
}

// The operator table's settings: every decade from 10 to 10⁷ nodes, each
// without loss or failures, with 10 % loss, with 10 % loss and 10 % of the
// nodes down, and with 30 % loss and 20 % down (there the chance that some
// live node is missed at the default budget is 3–13 %, common enough that
// MissChance counts plain runs at N ≤ 10³). The 28 settings took 13 s on
// a loaded 2-core machine (2026-12-06): the exact chain at N = 10, the
// watched runs or the count at N = 100 and 1000, the large-N law above.
var (
	operatorNs    = []int{10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000}
	operatorCases = [][2]float64{{0, 0}, {0.1, 0}, {0.1, 0.1}, {0.3, 0.2}}
)

// operatorTargets are the two targets on PMiss of the smallest budgets.
var operatorTargets = [2]float64{1e-6, 1e-9}

// operatorMemo holds the operator table computed in this process, by
// seed: it depends on nothing else (not on the scale, and not on the
// workers, as no result does), and every report and merge writes it (3 s
// of CPU each; a test binary writes dozens).
var operatorMemo sync.Map // uint64 → []OperatorRow

// Operator computes the operator table.
func (s *Study) Operator(ctx context.Context) ([]OperatorRow, error) {
	if err := s.ready(false); err != nil {
		return nil, err
	}
	if err := ctxguard.Check("report", ctx); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if v, ok := operatorMemo.Load(s.Scale.Seed); ok {
		return slices.Clone(v.([]OperatorRow)), nil
	}
	rows, err := s.operator(ctx)
	if err == nil {
		operatorMemo.Store(s.Scale.Seed, slices.Clone(rows))
	}
	return rows, err
}

// operator is Operator's computation.
func (s *Study) operator(ctx context.Context) ([]OperatorRow, error) {
	set := broadcast.Settings{Seed: s.Scale.Seed, Workers: s.opt.Workers}
	var rows []OperatorRow
	for _, N := range operatorNs {
		for _, c := range operatorCases {
			cfg := broadcast.Config{Nodes: N, Protocol: broadcast.Push, Fanout: deployedFanout, Loss: c[0], Failed: c[1], Level: 1,
				Budget: broadcast.MemberlistBudget(N, broadcast.DefaultRetransmitMult)}
			m, err := broadcast.MissChance(ctx, cfg, set)
			if err != nil {
				return nil, fmt.Errorf("report: the operator table at N = %d: %w", N, err)
			}
			row := OperatorRow{N: N, Loss: c[0], Failed: c[1], Budget: cfg.Budget, Residue: m.Residue, ResidueRelErr: m.ResidueRelErr,
				PMiss: m.PMiss, PMissRelErr: m.PMissRelErr, Method: m.Method}
			for i, p := range operatorTargets {
				b, err := broadcast.SmallestBudget(ctx, cfg, p, set)
				if err != nil {
					return nil, fmt.Errorf("report: the operator table at N = %d: %w", N, err)
				}
				if i == 0 {
					row.Budget6 = b
				} else {
					row.Budget9 = b
				}
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// operatorTable renders the rows (operator.csv and the table in
// REPORT.md).
func operatorTable(rows []OperatorRow) *plots.Table {
	t := &plots.Table{Keys: []string{"N", "loss", "failed", "budget", "p_node_missed", "rel_err", "p_some_missed", "rel_err_some", "budget_1e-6", "budget_1e-9", "method"}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []any{r.N, r.Loss, r.Failed, r.Budget, r.Residue, r.ResidueRelErr, r.PMiss, r.PMissRelErr, r.Budget6, r.Budget9, r.Method})
	}
	// Three significant digits in Markdown (the CSV keeps every digit).
	t.TextCell = func(_ int, v any) string {
		if x, ok := v.(float64); ok && !math.IsNaN(x) && !math.IsInf(x, 0) {
			return strconv.FormatFloat(x, 'g', 3, 64)
		}
		return plots.TextCell(v)
	}
	return t
}

// operator writes the operator table into the report (and operator.csv,
// operator.md).
func (d *Doc) operator(rows []OperatorRow) error {
	d.printf("\n## For an operator: memberlist's default budget\n\nPush at fanout %d with memberlist's retransmit limit, %d·⌈log10(N+1)⌉ transmits a node (Serf and Consul share it): the chance that a given live node never hears a broadcast, the chance that some live node does not, each with the relative error its method guarantees, and the smallest budget that brings the second to 10⁻⁶ and to 10⁻⁹ (package broadcast: the exact chain at N = 10, the watched runs or the count of plain runs at N = 100 and 1000, the large-N law above; `gossipkit plan --protocol push --budget memberlist --max-miss P` answers any other setting).\n",
		deployedFanout, broadcast.DefaultRetransmitMult)
	return d.table("operator", operatorTable(rows))
}
