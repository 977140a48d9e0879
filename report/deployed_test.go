package report

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gossipkit/gossipkit/broadcast"
	"github.com/gossipkit/gossipkit/report/internal/claim"
)

// The section at the tiny scale (BroadcastN 0: N ≤ 100 for the exact
// chain, 10⁴ for the budget table): its rows against methods that do not
// share their derivation.
func TestDeployedRows(t *testing.T) {
	var r *Deployed
	for _, res := range tinyResults(t) {
		if d, ok := res.(*Deployed); ok {
			r = d
		}
	}
	if r == nil {
		t.Fatal("no gossip-as-deployed section")
	}
	if r.ExactN != 100 || len(r.Miss) != 4*len(deployedLosses)*len(deployedFails) { // N = 10, …, 10⁴
		t.Fatalf("ExactN %d, %d budget rows", r.ExactN, len(r.Miss))
	}
	checked := 0
	for _, row := range r.Miss {
		// The default budget is memberlist's, 4·⌈log10(N+1)⌉ = 4·(the
		// digits of N).
		if want := 4 * len(strconv.Itoa(row.N)); row.Budget != want {
			t.Errorf("N = %d: budget %d, want %d", row.N, row.Budget, want)
		}
		if row.PMiss > deployedMiss && row.Smallest <= row.Budget {
			t.Errorf("N = %d, loss %g, failed %g: P(miss) %.3g at B = %d, yet the smallest budget is %d", row.N, row.Loss, row.Failed, row.PMiss, row.Budget, row.Smallest)
		}
		if math.IsNaN(row.MCPMiss) {
			continue
		}
		// The node-by-node Monte Carlo against the exact chain (N = 10)
		// or the large-N law: within 4 standard errors for the exact
		// chain; the large-N law is only claimed to O(1/√M) (its doc), so
		// 4 standard errors + 1/√M there.
		tol := 4 * row.MCSE
		if row.Method != "exact" {
			tol += 1 / math.Sqrt(float64(row.N))
		}
		if math.Abs(row.MCPMiss-row.PMiss) > tol {
			t.Errorf("N = %d, loss %g, failed %g: Monte Carlo P(miss) %.4f ± %.4f, %s %.4f", row.N, row.Loss, row.Failed, row.MCPMiss, row.MCSE, row.Method, row.PMiss)
		}
		checked++
	}
	if checked == 0 {
		t.Error("no Monte Carlo check ran")
	}
	// Serf's curve in closed form: 1/(1 + (N+1)e^{−βt}) = 1 − 1/(2N) at
	// t = ln((N+1)(2N−1))/β, β = k(1−ε)(1−φ)/2.
	for _, row := range r.Logistic {
		beta := float64(deployedFanout) * (1 - row.Loss) / 2
		want := math.Log(float64(row.N+1)*float64(2*row.N-1)) / beta
		if math.Abs(row.LogisticT-want) > 1e-9*want {
			t.Errorf("N = %d, loss %g: logistic time %.12g, closed form %.12g", row.N, row.Loss, row.LogisticT, want)
		}
	}
	// Push–pull does what push does and what pull does in every round, so
	// it is never slower than either (the mean time to inform every node,
	// at the same fanout and loss); every count is positive.
	byKey := map[string]DeployedMessagesRow{}
	for _, row := range r.Messages {
		if !(row.Messages > 0 && row.Mean > 0) {
			t.Errorf("%+v", row)
		}
		byKey[row.Protocol+strconv.Itoa(row.Fanout)+strings.Repeat("x", int(10*row.Loss))] = row
	}
	for _, k := range []string{"1", "3"} {
		for _, l := range []string{"", "x"} {
			pp, p, q := byKey["push-pull"+k+l], byKey["push"+k+l], byKey["pull"+k+l]
			if pp.Mean > math.Min(p.Mean, q.Mean)+1e-9 {
				t.Errorf("k = %s: push–pull %.3f rounds, push %.3f, pull %.3f", k, pp.Mean, p.Mean, q.Mean)
			}
		}
	}
}

// The verdicts' rules on constructed rows, each at both sides of its
// threshold.
func TestDeployedRules(t *testing.T) {
	r := &Deployed{ExactN: 100}
	r.PushK1 = []DeployedLawRow{{N: 128, Diff: 1.1}, {N: 512, Diff: 2.7}}
	if v := r.pushK1Verdict().Verdict; v != claim.Holds {
		t.Errorf("inside the bracket: %s", v)
	}
	r.PushK1 = append(r.PushK1, DeployedLawRow{N: 2048, Diff: 2.8})
	if v := r.pushK1Verdict().Verdict; v != claim.Fails {
		t.Errorf("2.8 > 2.765: %s", v)
	}
	ll := func(N int) float64 { return math.Log(math.Log(float64(N))) }
	r.PushPull = []DeployedLawRow{{N: 100, Diff: 1.5 * ll(100)}, {N: 10_000, Diff: 1.4 * ll(10_000)}}
	if v := r.pushPullVerdict().Verdict; v != claim.Holds {
		t.Errorf("a falling ratio: %s", v)
	}
	r.PushPull = append(r.PushPull, DeployedLawRow{N: 1_000_000, Diff: 1.6 * ll(1_000_000), Dev: 0.01})
	if v := r.pushPullVerdict().Verdict; v != claim.Fails {
		t.Errorf("a rising ratio beyond the accuracy: %s", v)
	}
	r.Residue = []DeployedResidueRow{{N: 10_000, Demers: 0.2, MC: 0.2 + 0.009, SE: 0.001}}
	if v := r.residueVerdict().Verdict; v != claim.Holds {
		t.Errorf("within 2 se + 1/√N = 0.012: %s", v)
	}
	r.Residue[0].MC = 0.2 + 0.013
	if v := r.residueVerdict().Verdict; v != claim.Fails {
		t.Errorf("beyond 0.012: %s", v)
	}
	r.Logistic = []DeployedLogisticRow{{N: 100, LogisticT: 6, Q05: 5, Q95: 6}}
	if v := r.serfVerdict().Verdict; v != claim.Holds {
		t.Errorf("inside 5–95 %%: %s", v)
	}
	r.Logistic[0].LogisticT = 6.5
	if v := r.serfVerdict().Verdict; v != claim.Fails {
		t.Errorf("outside 5–95 %%: %s", v)
	}
	r.Miss = []DeployedMissRow{{PMiss: 1e-3}, {PMiss: 2e-6}}
	if v := r.missVerdict().Verdict; v != claim.Holds {
		t.Errorf("all above: %s", v)
	}
	r.Miss = append(r.Miss, DeployedMissRow{PMiss: 1e-7})
	if v := r.missVerdict().Verdict; v != claim.Qualified {
		t.Errorf("some above: %s", v)
	}
	r.Miss = r.Miss[2:]
	if v := r.missVerdict().Verdict; v != claim.Fails {
		t.Errorf("none above: %s", v)
	}
	if broadcast.MemberlistBudget(99, 4) != 8 || broadcast.MemberlistBudget(100, 4) != 12 {
		t.Error("memberlist's budget: 4·⌈log10(N+1)⌉ = 8 at N = 99, 12 at N = 100")
	}
}
