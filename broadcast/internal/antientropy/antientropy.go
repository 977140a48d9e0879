package antientropy

import (
	"math"
	"slices"

	"github.com/gossipkit/gossipkit/internal/rng"
)

// Steps is the number of grid steps per scaled sync interval of
// RepairCurve: a node's own sync is placed at the middle of its phase's
// step, which is exact for the share of the nodes that have synced by a
// grid time; the chance that the peer holds the update is taken at the
// step's middle (an error O(step²) on a smooth curve).
const Steps = 256

// Floor ends the curve: the chance falls below it.
const Floor = 1e-15

// MaxSteps bounds the curve's steps (4,096 scaled intervals).
const MaxSteps = 1 << 20

// LateWeights are the weights of the phase bins of a node's own syncs
// (MeanField) when a share late of the nodes lacking the update at
// start have their next sync in the last start seconds of the scaled
// interval S after it (their sync fell during the broadcast's spread and
// failed) and the others theirs uniformly in the rest; nil (uniform) when
// late < 0 or when the spread covers no bin or every bin. The weights sum
// to Steps.
func LateWeights(S, start, late float64) []float64 {
	if late < 0 {
		return nil
	}
	nl := int(math.Round(start / S * Steps))
	if nl <= 0 || nl >= Steps {
		return nil
	}
	wt := make([]float64, Steps)
	for b := range wt {
		if b >= Steps-nl {
			wt[b] = late * Steps / float64(nl)
		} else {
			wt[b] = (1 - late) * Steps / float64(Steps-nl)
		}
	}
	return wt
}

// MeanField is u(t) = u₀·g(t | u₀) on the grid (RepairCurve), the
// iterations and the last change. Given that X lacks the update, the
// others lacking it are k − 1 = M·u₀ − 1 at the start (none below one),
// each still lacking it at s with probability g(s): the live others that
// hold it are n(s) = M − 1 − (k − 1)·g(s), and q(s) = n(s)/(N − 1). The
// others' syncs reach X as their phases bring them: for one other node
// at a uniform phase the chance that none of its syncs up to t repaired X
// is F(t) = E_ψ[(1 − c)^{its syncs by t}], c = 1/(N − 1), and n(s)
// others contribute d log F(s) each; this is exact for a constant n. A
// sync that fails as a whole with probability fail (independently of the
// rest) scales both q(s) and c by 1 − fail.
func MeanField(nodes, live int, S, u0, fail float64, wt []float64) (u []float64, iterations int, change float64) {
	w := func(b int) float64 {
		if wt == nil {
			return 1
		}
		return wt[b]
	}
	N, M := float64(nodes), float64(live)
	c := (1 - fail) / (N - 1)
	k1 := math.Max(M*u0-1, 0)
	u = []float64{u0}
	bins := make([]float64, Steps) // X's own syncs, per phase
	fbin := make([]float64, Steps) // one other node's syncs, per phase
	for it := 1; it <= 200; it++ {
		for b := range bins {
			bins[b], fbin[b] = 1, 1
		}
		sum, fsum, logIn := float64(Steps), float64(Steps), 0.0
		next := []float64{u0}
		for n := 0; n < MaxSteps; n++ {
			uMid := u[min(n, len(u)-1)]
			if n+1 < len(u) {
				uMid = (uMid + u[n+1]) / 2
			}
			others := M - 1 - k1*uMid/u0
			q := (1 - fail) * others / (N - 1)
			b := n % Steps
			sum -= w(b) * bins[b]
			bins[b] *= 1 - q
			sum += w(b) * bins[b]
			before := math.Log(fsum / Steps)
			fsum -= fbin[b]
			fbin[b] *= 1 - c
			fsum += fbin[b]
			logIn += others * (math.Log(fsum/Steps) - before)
			g := math.Max(sum, 0) / Steps * math.Exp(logIn)
			next = append(next, u0*g)
			if u0*g < Floor {
				break
			}
		}
		change = 0
		for n := range max(len(next), len(u)) {
			a, b := 0.0, 0.0
			if n < len(next) {
				a = next[n]
			}
			if n < len(u) {
				b = u[n]
			}
			change = math.Max(change, math.Abs(a-b))
		}
		u, iterations = next, it
		if change <= 1e-12*u0 {
			break
		}
	}
	return u, iterations, change
}

// Run plays the syncs of one replication from missed uninformed
// live nodes (nodes 1..missed; the nodes are exchangeable) and returns the
// share lacking at each time. informed is a buffer of N. A sync to a live
// peer fails as a whole with probability fail (one more draw per such
// sync where fail > 0, none otherwise).
func Run(nodes, live int, S float64, missed int, fail float64, r *rng.Rand, times []float64, informed []bool) []float64 {
	N, M := nodes, live
	out := make([]float64, len(times))
	for i := range informed {
		informed[i] = i == 0 || i > missed
	}
	lack := missed
	type node struct {
		phase float64
		id    int32
	}
	order := make([]node, M)
	for i := range order {
		order[i] = node{r.Float64() * S, int32(i)}
	}
	slices.SortFunc(order, func(a, b node) int {
		switch {
		case a.phase < b.phase:
			return -1
		case a.phase > b.phase:
			return 1
		}
		return int(a.id - b.id)
	})
	k := 0 // the next time to record
	for period := 0; k < len(times); period++ {
		for _, nd := range order {
			s := nd.phase + float64(period)*S
			for k < len(times) && times[k] < s {
				out[k] = float64(lack) / float64(M)
				k++
			}
			if k == len(times) || lack == 0 {
				break
			}
			i := int(nd.id)
			p := int(r.Intn(uint32(N - 1)))
			if p >= i {
				p++
			}
			if p >= M || fail > 0 && r.Float64() < fail {
				continue
			}
			inI, inP := informed[i], informed[p]
			if inI && !inP {
				informed[p] = true
				lack--
			}
			if inP && !inI {
				informed[i] = true
				lack--
			}
		}
		if lack == 0 {
			break
		}
	}
	for ; k < len(times); k++ {
		out[k] = float64(lack) / float64(M)
	}
	return out
}

// Syncs yields the live nodes' syncs in time order: their phases,
// M independent uniforms on [0, S'), are drawn lazily in increasing order
// (the next order statistic after x with r nodes left is
// x + (S' − x)(1 − U^{1/r}), its node uniform among the r left), so a
// replication that stops within the first scaled interval draws only the
// syncs it meets; from the second interval on the list repeats, S' later
// each time.
type Syncs struct {
	S      float64
	List   []PhaseNode // the phases drawn, in increasing order
	next   int         // the next entry of list in the current period
	period int
	left   int     // nodes whose phase is not drawn yet
	last   float64 // the last phase drawn
	perm   []int32 // perm[:left]: the nodes left
}

// PhaseNode is a node's sync phase.
type PhaseNode struct {
	Phase float64
	Node  int32
}

// Reset starts the stream of M live nodes, scaled interval S.
func (s *Syncs) Reset(M int, S float64) {
	s.S, s.List, s.next, s.period, s.left, s.last = S, s.List[:0], 0, 0, M, 0
	if cap(s.perm) < M {
		s.perm = make([]int32, M)
	}
	s.perm = s.perm[:M]
	for i := range s.perm {
		s.perm[i] = int32(i)
	}
}

// Peek is the time of the next sync, drawing its phase if needed.
func (s *Syncs) Peek(r *rng.Rand) float64 {
	if s.next == len(s.List) {
		if s.period == 0 && s.left > 0 {
			s.last += (s.S - s.last) * (1 - math.Pow(r.Float64(), 1/float64(s.left)))
			j := int(r.Intn(uint32(s.left)))
			nd := s.perm[j]
			s.perm[j] = s.perm[s.left-1]
			s.left--
			s.List = append(s.List, PhaseNode{s.last, nd})
		} else {
			s.period++
			s.next = 0
		}
	}
	return s.List[s.next].Phase + float64(s.period)*s.S
}

// Pop is the node of the next sync (after Peek).
func (s *Syncs) Pop() int32 {
	nd := s.List[s.next].Node
	s.next++
	return nd
}
