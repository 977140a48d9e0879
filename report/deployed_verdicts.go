package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/gossipkit/gossipkit/broadcast"
	"github.com/gossipkit/gossipkit/report/internal/claim"
)

// The claims of section 11 (Deployed, deployed.go): each verdict's rule
// on the section's measurements.

func (r *Deployed) pushK1Verdict() Verdict {
	v := claim.Holds
	var m []string
	for _, row := range r.PushK1 {
		if row.Diff < dkLo || row.Diff > dkHi {
			v = claim.Fails
		}
		m = append(m, fmt.Sprintf("N = %d: E[T] = %.3f, − (log₂N + ln N) = %+.3f", row.N, row.Mean, row.Diff))
	}
	return Verdict{
		Claim:    "push with one peer a round informs every node in log₂N + ln N + O(1) rounds (Frieze and Grimmett 1985, Pittel 1987)",
		Verdict:  v,
		Rule:     fmt.Sprintf("E[T_1] − (log₂N + ln N) by the exact chain within Doerr and Künnemann's bracket [%g, %g] at every N: holds; else does not hold", dkLo, dkHi),
		Measured: strings.Join(m, "; "),
	}
}

func (r *Deployed) pushPullVerdict() Verdict {
	v := claim.Holds
	var m []string
	prev := math.Inf(1)
	for _, row := range r.PushPull {
		ll := math.Log(math.Log(float64(row.N)))
		ratio, slack := row.Diff/ll, row.Dev/ll
		if ratio-slack > prev {
			v = claim.Fails
		}
		prev = ratio + slack
		m = append(m, fmt.Sprintf("N = %d (%s): E[T] − log₃N = %.3f, /ln ln N = %.3f", row.N, row.Method, row.Diff, ratio))
	}
	return Verdict{
		Claim:    "push–pull with one peer a round informs every node in log₃N + O(log log N) rounds (Karp, Schindelhauer, Shenker and Vöcking 2000)",
		Verdict:  v,
		Rule:     fmt.Sprintf("(E[T_1] − log₃N)/ln ln N, by the exact chain to N = %d and the asymptotic law beyond (with its stated accuracy), does not grow from N = 10² to 10⁶: holds; else does not hold", r.ExactN),
		Measured: strings.Join(m, "; "),
	}
}

func (r *Deployed) residueVerdict() Verdict {
	v := claim.Holds
	var m []string
	for _, row := range r.Residue {
		tol := claim.ZSignificant*row.SE + 1/math.Sqrt(float64(row.N))
		if math.IsNaN(row.MC) {
			v = claim.Unchecked
		} else if math.Abs(row.MC-row.Demers) > tol {
			v = claim.Fails
		}
		m = append(m, fmt.Sprintf("N = %d, k = %d, B = %d: λ = %.3f, s = %.4f, Monte Carlo %.4f ± %.4f", row.N, row.Fanout, row.Budget, row.Lambda, row.Demers, row.MC, row.SE))
	}
	return Verdict{
		Claim:    "the share of nodes a budgeted push never reaches solves s = e^{−λ(1−s)} (Demers et al. 1987), λ the transmits a node's budget delivers",
		Verdict:  v,
		Rule:     fmt.Sprintf("the Monte Carlo residue given an outbreak within %g standard errors + 1/√N of the root: holds; else does not hold", float64(claim.ZSignificant)),
		Measured: strings.Join(m, "; "),
	}
}

func (r *Deployed) serfVerdict() Verdict {
	v := claim.Holds
	var m []string
	for _, row := range r.Logistic {
		if row.LogisticT < row.Q05 || row.LogisticT > row.Q95 {
			v = claim.Fails
		}
		m = append(m, fmt.Sprintf("N = %d, loss %g: logistic %.1f rounds, exact mean %.2f (5–95 %%: %g–%g)", row.N, row.Loss, row.LogisticT, row.Mean, row.Q05, row.Q95))
	}
	return Verdict{
		Claim:    "practice: Serf's convergence simulator's logistic curve tells when every node has the message (fanout 3, no budget)",
		Verdict:  v,
		Rule:     "the round at which the logistic curve has all but half a node informed lies within the 5–95 % range of the exact law of T_1 at every setting: holds; else does not hold",
		Measured: strings.Join(m, "; "),
	}
}

func (r *Deployed) missVerdict() Verdict {
	above, lo, hi := 0, math.Inf(1), 0.0
	for _, row := range r.Miss {
		if row.PMiss > deployedMiss {
			above++
		}
		lo, hi = math.Min(lo, row.PMiss), math.Max(hi, row.PMiss)
	}
	v := claim.Holds
	if above < len(r.Miss) {
		v = claim.Qualified
	}
	if above == 0 {
		v = claim.Fails
	}
	return Verdict{
		Claim:    fmt.Sprintf("finding of this toolkit (not a claim of the source documents): memberlist's default retransmit limit (%d·⌈log10(N+1)⌉ transmits at fanout %d) leaves some live node uninformed with probability above %g, at N = 10…10⁵, loss 0–30 %%, failures 0–20 %%", broadcast.DefaultRetransmitMult, deployedFanout, deployedMiss),
		Verdict:  v,
		Rule:     fmt.Sprintf("P(miss) above %g at every setting: holds; at some: holds with a qualification; at none: does not hold", deployedMiss),
		Measured: fmt.Sprintf("%d of %d settings above; P(miss) from %.2g to %.2g (table: the smallest budget that brings it to %g)", above, len(r.Miss), lo, hi, deployedMiss),
	}
}

// Verdicts are the section's claims.
func (r *Deployed) Verdicts() (v []Verdict) {
	defer incompleteVerdicts(&v)
	if r == nil {
		return nil
	}
	return []Verdict{r.pushK1Verdict(), r.pushPullVerdict(), r.residueVerdict(), r.serfVerdict(), r.missVerdict()}
}
