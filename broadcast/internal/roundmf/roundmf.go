package roundmf

import (
	"math"

	"github.com/gossipkit/gossipkit/broadcast/internal/pmf"
)

// CrossFrac is the θ in [0, 1] where log u, linear between u0 and u1,
// equals log goal.
func CrossFrac(u0, u1, goal float64) float64 {
	if u0 <= goal {
		return 0
	}
	if u1 <= 0 {
		u1 = math.SmallestNonzeroFloat64
	}
	th := math.Log(u0/goal) / math.Log(u0/u1)
	return math.Min(math.Max(th, 0), 1)
}

// State is the state of the recursion.
type State struct {
	M, n1, k   int
	kl, R      int
	eps        float64
	push, pull bool
	Budget     bool      // a budget: the senders are split by age
	U          float64   // uninformed live (expected)
	Ages       []float64 // budget: senders by rounds pushed
	hbuf       []float64
}

// Params are the configuration's figures the recursion uses: M live nodes
// of N (N1 = N − 1), fanout K, budget B in R = ⌈B/K⌉ rounds of pushes (0:
// none), loss Eps, and the protocol's pushes and pulls.
type Params struct {
	M, N1, K, Budget, R int
	Eps                 float64
	Push, Pull          bool
}

// New is the recursion of p at its start: the source informed.
func New(p Params) *State {
	mf := &State{M: p.M, n1: p.N1, k: p.K, eps: p.Eps,
		push: p.Push, pull: p.Pull, Budget: p.Budget > 0}
	mf.U = float64(mf.M - 1)
	if mf.Budget {
		mf.R = p.R
		mf.kl = p.Budget - p.K*(mf.R-1)
		mf.Ages = make([]float64, mf.R)
		mf.Ages[0] = 1
	}
	return mf
}

// pullMissAt is the pull miss at real i, interpolated between whole
// counts (pmf.PullMissAt).
func (mf *State) pullMissAt(i float64) float64 {
	if mf.hbuf == nil {
		mf.hbuf = make([]float64, 0, mf.k+1)
	}
	return pmf.PullMissAt(mf.hbuf, i, mf.M, mf.k, mf.n1, mf.eps)
}

// Senders returns the full and last-round senders.
func (mf *State) Senders() (full, last float64) {
	i := float64(mf.M) - mf.U
	if !mf.Budget {
		return i, 0
	}
	for a := 0; a < mf.R-1; a++ {
		full += mf.Ages[a]
	}
	return full, mf.Ages[mf.R-1]
}

// Miss is π: the probability that an uninformed live node stays so this
// round.
func (mf *State) Miss() float64 {
	i := float64(mf.M) - mf.U
	p := 1.0
	if mf.push {
		full, last := mf.Senders()
		p *= pmf.PushMiss(full, mf.k, mf.n1, mf.eps)
		if last > 0 {
			p *= pmf.PushMiss(last, mf.kl, mf.n1, mf.eps)
		}
	}
	if mf.pull {
		p *= mf.pullMissAt(i)
	}
	return p
}

// Messages is the expected messages of the round.
func (mf *State) Messages() float64 {
	m := 0.0
	i := float64(mf.M) - mf.U
	if mf.push {
		full, last := mf.Senders()
		m += full*float64(mf.k) + last*float64(mf.kl)
	}
	if mf.pull {
		k := float64(mf.k)
		m += mf.U*k + mf.U*k*i/float64(mf.n1)*(1-mf.eps)
	}
	return m
}

// Step runs one round of the recursion.
func (mf *State) Step() {
	newU := mf.U * mf.Miss()
	if mf.Budget {
		copy(mf.Ages[1:], mf.Ages[:mf.R-1])
		mf.Ages[0] = mf.U - newU
	}
	mf.U = newU
}

// Stopped: with a budget on push alone, no node can act (fewer than
// 10⁻¹² senders); with pull, never before everyone is informed.
func (mf *State) Stopped() bool {
	if mf.pull {
		return mf.U < 1e-12
	}
	full, last := mf.Senders()
	return full+last < 1e-12 || mf.U < 1e-12
}

// Demers solves s = exp(−λ(1−s)) for its root in (0, 1) (1 when λ ≤ 1),
// the residue of a push with a budget at large N (Demers et al. 1987),
// by bisection on g(s) = s − exp(−λ(1−s)): g(0) = −e^{−λ} < 0 and, for
// λ > 1, g(1−δ) ≈ (λ−1)δ > 0, and g is convex, so the root below 1 is
// the one sign change in (0, 1−δ).
func Demers(lam float64) float64 {
	if lam <= 1 {
		return 1
	}
	lo, hi := 0.0, 1.0-1e-12
	for range 200 { // 64 halvings reach adjacent floats
		mid := (lo + hi) / 2
		if mid <= lo || mid >= hi {
			break // adjacent floats: a tolerance such as 10⁻¹⁷ is never met near s = 0.2
		}
		if mid-math.Exp(-lam*(1-mid)) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
