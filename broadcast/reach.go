package broadcast

import (
	"fmt"
	"math"

	"github.com/gossipkit/gossipkit/gossip"
)

// The reach of the laws and of the Monte Carlo in rounds.
//
// Near total loss (ε → 1) or with a fanout tiny against N, a broadcast
// takes very many rounds: one informed node informs k(1−ε)·M/(N−1) others
// a round by push and k(1−ε)²·M/(N−1) by pull, so with ε = 1 − 10⁻¹⁶ a
// push of fanout 3 over 1,000 nodes needs about 10¹⁶ rounds. The
// asymptotic law follows the rounds one by one (its start phase stops
// after 100,000 and counts the rest as lost, which made its stated bound
// 1: "within 1"), and the Monte Carlo plays them; neither is asked to.
// MeanRounds estimates the rounds before any work; AsymptoticLaw refuses
// (ErrNotCovered) beyond MaxAsymRounds, and a law whose stated bound
// DevP reaches 1; Simulate refuses (gossip.ErrTooLarge)
// replications whose rounds together exceed MaxSimRounds.

// MaxAsymRounds bounds MeanRounds for AsymptoticLaw: beyond it the law is
// not computed (ErrNotCovered). The law follows the count round by round,
// at most 100,000 rounds in its start phase; 5,000 rounds already cost it
// about a minute at N = 10⁶ (push–pull, k = 1, ε = 0.99: 2,856 rounds,
// 35 s).
const MaxAsymRounds = 5000

// A law whose stated bound DevP reaches 1 says nothing ("every
// probability within 1"): AsymptoticLaw does not return it
// (ErrNotCovered). DevP is 1 where the start phase does not end within its
// 100,000 rounds (the rest is counted as lost) or the closures' terms
// add up to 1 or more.

// MaxSimRounds bounds the rounds Simulate plays in all, the replications
// times MeanRounds: beyond it the Monte Carlo is refused before any work
// (an error wrapping gossip.ErrTooLarge that names Config.Loss). A round
// costs the default engine microseconds at least (measured on a loaded
// 2-core machine: 3.8 µs a round for pull, N = 1,000, k = 3, ε = 0.999;
// 9.4 µs at N = 10⁴ and 0.66 ms at N = 10⁶ for push–pull, k = 1, ε =
// 0.99), so 2^26 ≈ 6.7·10⁷ rounds are minutes at least; the default 1,000
// replications of a broadcast of 2,000 rounds are 2·10⁶.
const MaxSimRounds = 1 << 26

// MeanRounds estimates the mean of T_L in rounds (cfg valid; +Inf
// otherwise): the growth of the count from 1 to ⌈L·M⌉ at the rate g a
// round of one informed node while few are, ln(L·M)/ln(1+g), plus the
// rounds in which the uninformed count falls from M to M·(1−L) (to 1/2 for
// L = 1) at the rate g of the last nodes:
//
//	g = k(1−ε)·M/(N−1) (push) + k(1−ε)²·M/(N−1) (pull).
//
// It is the order of the truth, not a bound (push–pull, N = 10⁶, k = 1, ε
// = 0.99: 2,741 against the mean 2,856; push k = 3, N = 1,000, ε = 0.9: 49
// against 53). With a budget on push alone a node pushes for R = ⌈B/k⌉
// rounds and the run ends when no node can: below the critical rate
// (g·R ≤ 1) the informed die out within a few generations of R rounds (a
// critical Galton–Watson tree of M nodes at most lives O(ln M)
// generations), so the estimate is then at most R·(2 + ln M).
func MeanRounds(cfg Config) float64 {
	if cfg.Validate() != nil {
		return math.Inf(1)
	}
	M, N1, k, eps := float64(cfg.Live()), float64(cfg.Nodes-1), float64(cfg.Fanout), cfg.Loss
	g := 0.0
	if cfg.Protocol.pushes() {
		g += k * (1 - eps) * M / N1
	}
	if cfg.Protocol.pulls() {
		g += k * (1 - eps) * (1 - eps) * M / N1
	}
	if !(g > 0) {
		return math.Inf(1)
	}
	L := float64(cfg.Target()) / M
	grow := math.Log(math.Max(L*M, 1)) / math.Log1p(g)
	left := 2 * M // L = 1: down to half a node
	if L < 1 {
		left = 1 / (1 - L)
	}
	r := grow + math.Log(left)/g
	if cfg.Budget > 0 && !cfg.Protocol.pulls() {
		r = math.Min(r, float64(rounds(cfg.Budget, cfg.Fanout))*(2+math.Log(M)))
	}
	return r
}

// asymReach refuses (ErrNotCovered) a configuration whose rounds are
// beyond the asymptotic law's reach.
func asymReach(cfg Config) error {
	if r := MeanRounds(cfg); !(r <= MaxAsymRounds) {
		return fmt.Errorf("broadcast: asymptotic law: about %.3g rounds expected (loss %g, fanout %d, N = %d), beyond its %d: %w",
			r, cfg.Loss, cfg.Fanout, cfg.Nodes, MaxAsymRounds, ErrNotCovered)
	}
	return nil
}

// asymVacuous refuses (ErrNotCovered) a law whose stated bound reaches 1.
func asymVacuous(cfg Config, law *Law) error {
	if d := law.Accuracy.DevP; !(d < 1) {
		return fmt.Errorf("broadcast: asymptotic law: its stated accuracy (every P(T_L ≤ t) within %.2g) says nothing here (loss %g, fanout %d, N = %d): %w",
			d, cfg.Loss, cfg.Fanout, cfg.Nodes, ErrNotCovered)
	}
	return nil
}

// simReach refuses (gossip.ErrTooLarge, a field error on Config.Loss) a
// Monte Carlo of reps replications (those of a shard where !all) whose
// rounds exceed MaxSimRounds.
func simReach(cfg Config, shard int, all bool, reps int) error {
	if !all {
		reps = shard // a shard plays its own replications
	}
	r := MeanRounds(cfg)
	if total := r * float64(max(reps, 1)); !(total <= MaxSimRounds) {
		return fmt.Errorf("%w: %w", fieldErr("Config.Loss", "= %g: about %.3g rounds a replication expected (fanout %d, N = %d), %.3g for %d replications, beyond the Monte Carlo's %d (MaxSimRounds); lower Config.Loss, raise Config.Fanout or run fewer Settings.Reps",
			cfg.Loss, r, cfg.Fanout, cfg.Nodes, total, reps, MaxSimRounds), gossip.ErrTooLarge)
	}
	return nil
}
