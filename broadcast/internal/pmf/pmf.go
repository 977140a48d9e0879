package pmf

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// Hyp is the hypergeometric law of the number of marked items among k
// drawn without replacement from n items of which K are marked: dst[j] for
// j = 0, …, min(k, K) (entries outside the support are 0). It reuses dst.
func Hyp(dst []float64, k, K, n int) []float64 {
	top := min(k, K)
	dst = Resize(dst, top+1)
	if top < 0 {
		return dst[:0]
	}
	lo := max(0, k-(n-K))
	if lo > top {
		return dst
	}
	mode := int((float64(k+1) * float64(K+1)) / float64(n+2))
	mode = min(max(mode, lo), top)
	dst[mode] = 1
	sum := 1.0
	for j := mode; j < top; j++ { // P(j+1)/P(j)
		r := float64(K-j) * float64(k-j) / (float64(j+1) * float64(n-K-k+j+1))
		dst[j+1] = dst[j] * r
		sum += dst[j+1]
	}
	for j := mode; j > lo; j-- { // P(j−1)/P(j)
		r := float64(j) * float64(n-K-k+j) / (float64(K-j+1) * float64(k-j+1))
		dst[j-1] = dst[j] * r
		sum += dst[j-1]
	}
	for j := lo; j <= top; j++ {
		dst[j] /= sum
	}
	return dst
}

// Bin is the binomial law Bin(n, p) on 0, …, n in dst.
func Bin(dst []float64, n int, p float64) []float64 {
	dst = Resize(dst, n+1)
	switch {
	case p <= 0:
		dst[0] = 1
		return dst
	case p >= 1:
		dst[n] = 1
		return dst
	}
	mode := min(int(float64(n+1)*p), n)
	odds := p / (1 - p)
	dst[mode] = 1
	sum := 1.0
	for j := mode; j < n; j++ {
		dst[j+1] = dst[j] * float64(n-j) / float64(j+1) * odds
		if dst[j+1] == 0 {
			break
		}
		sum += dst[j+1]
	}
	for j := mode; j > 0; j-- {
		dst[j-1] = dst[j] * float64(j) / float64(n-j+1) / odds
		if dst[j-1] == 0 {
			break
		}
		sum += dst[j-1]
	}
	for j := range dst {
		dst[j] /= sum
	}
	return dst
}

// Resize returns dst with length n, zeroed.
func Resize(dst []float64, n int) []float64 {
	if n < 0 {
		n = 0
	}
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	clear(dst)
	return dst
}

// PullMiss is the probability that an uninformed live node's k requests
// all fail when i nodes are informed: Σ_j Hyp(j; k, i, N−1)·q^j with
// q = 1 − (1−ε)², the chance that a request to an informed peer or its
// reply is lost.
func PullMiss(buf []float64, i, k, n1 int, eps float64) float64 {
	if i <= 0 {
		return 1
	}
	q := 1 - (1-eps)*(1-eps)
	h := Hyp(buf, k, i, n1)
	s, qj := 0.0, 1.0
	for j := range h {
		s += h[j] * qj
		qj *= q
	}
	return s
}

// PullHit is 1 − PullMiss, summed directly, Σ_{j≥1} Hyp(j; k, i, N−1)·(1
// − q^j), so that it keeps its digits where it is near 0 (1 − PullMiss
// lost five at N 2⁴⁰).
func PullHit(buf []float64, i, k, n1 int, eps float64) float64 {
	if i <= 0 {
		return 0
	}
	q := eps * (2 - eps)
	lq := math.Log(q)
	s := 0.0
	for j, hj := range Hyp(buf, k, i, n1) {
		switch {
		case j == 0:
		case q == 0:
			s += hj
		default:
			s -= hj * math.Expm1(float64(j)*lq)
		}
	}
	return s
}

// PullMissAt is PullMiss at real i, interpolated between whole counts,
// for M live nodes: an uninformed asker sees at most M − 1 informed
// nodes, so i is capped there.
func PullMissAt(buf []float64, i float64, M, k, n1 int, eps float64) float64 {
	i = math.Min(math.Max(i, 0), float64(M-1))
	lo := math.Floor(i)
	a := PullMiss(buf, int(lo), k, n1, eps)
	if i == lo {
		return a
	}
	b := PullMiss(buf, int(lo)+1, k, n1, eps)
	return a + (b-a)*(i-lo)
}

// PushMiss is the probability that a given uninformed live node receives
// none of the pushes of s senders of k transmits each: a sender picks it
// with probability k/(N−1) and the push arrives with probability 1 − ε,
// independently over senders: (1 − k(1−ε)/(N−1))^s.
func PushMiss(s float64, k int, n1 int, eps float64) float64 {
	if s <= 0 {
		return 1
	}
	return math.Exp(s * math.Log1p(-float64(k)*(1-eps)/float64(n1)))
}

// PushHit is 1 − PushMiss, computed directly (−expm1), so that it keeps
// its digits where it is near 0.
func PushHit(s float64, k int, n1 int, eps float64) float64 {
	if s <= 0 {
		return 0
	}
	return -math.Expm1(s * math.Log1p(-float64(k)*(1-eps)/float64(n1)))
}

// BinWindow is the law of Binomial(n, p) (real n ≥ 0 rounded to the
// nearest whole number) on the window where its terms exceed 10⁻²⁵ of the
// mode: lo and the normalised terms.
func BinWindow(dst []float64, n float64, p float64) (int, []float64) {
	nn := int(math.Round(n))
	if nn <= 0 || p <= 0 {
		return 0, append(dst[:0], 1)
	}
	if p >= 1 {
		return nn, append(dst[:0], 1)
	}
	mode := min(int(float64(nn+1)*p), nn)
	odds := p / (1 - p)
	var up, down []float64
	for j, t := mode, 1.0; j < nn; j++ {
		t *= float64(nn-j) / float64(j+1) * odds
		if t < 1e-25 {
			break
		}
		up = append(up, t)
	}
	for j, t := mode, 1.0; j > 0; j-- {
		t *= float64(j) / float64(nn-j+1) / odds
		if t < 1e-25 {
			break
		}
		down = append(down, t)
	}
	dst = dst[:0]
	for j := len(down) - 1; j >= 0; j-- {
		dst = append(dst, down[j])
	}
	dst = append(dst, 1)
	dst = append(dst, up...)
	s := 0.0
	for _, t := range dst {
		s += t
	}
	for j := range dst {
		dst[j] /= s
	}
	return mode - len(down), dst
}

// UninformedCDF is P(U ≤ m) for U binomial with mean mu and variance V
// (Binomial(n, q), q = 1 − V/mu, n = mu/q; real n).
func UninformedCDF(mu, V, m float64) float64 {
	if mu <= m {
		if V <= 0 {
			return 1
		}
	}
	if V <= 0 {
		return 0
	}
	if V >= mu*(1-1e-12) { // the Poisson limit: q → 0, n → ∞
		if m < 0.5 {
			return math.Exp(-mu)
		}
		return mathext.GammaIncRegComp(m+1, mu)
	}
	q := 1 - V/mu
	n := mu / q
	if n <= m {
		return 1
	}
	if m < 0.5 {
		return math.Exp(n * math.Log(V/mu)) // (1−q)^n
	}
	return BinCDF(n, q, m)
}

// BinCDF is P(Binomial(n, ρ) ≤ m) for real n > m ≥ 0, whole m:
// I_{1−ρ}(n − m, m + 1).
func BinCDF(n, rho, m float64) float64 {
	if rho <= 0 {
		return 1
	}
	if rho >= 1 {
		return 0
	}
	return mathext.RegIncBeta(n-m, m+1, 1-rho)
}

// BinTail is P(Binomial(n, q) > a), summed over its terms (n small).
func BinTail(n int, q float64, a int) float64 {
	if a >= n || q <= 0 {
		return 0
	}
	if a < 0 {
		return 1
	}
	if a == 0 {
		return -math.Expm1(float64(n) * math.Log1p(-q))
	}
	if q >= 1 {
		return 1
	}
	s := 0.0
	lq, lp := math.Log(q), math.Log1p(-q)
	for j := a + 1; j <= n; j++ {
		s += math.Exp(LChoose(float64(n), float64(j)) + float64(j)*lq + float64(n-j)*lp)
	}
	return math.Min(s, 1)
}

// LChoose is log C(n, k) for real n ≥ k ≥ 0.
func LChoose(n, k float64) float64 {
	a, _ := math.Lgamma(n + 1)
	b, _ := math.Lgamma(k + 1)
	c, _ := math.Lgamma(n - k + 1)
	return a - b - c
}
