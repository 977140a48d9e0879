package broadcast

import "math"

// The probability mass functions of the chains, in float64, with only
// nonnegative terms: each is built from its mode by the ratio of
// consecutive terms (a product of nonnegative factors), then normalised.
// No logarithm or gamma function enters, so the relative error of every
// term is a few units of the last place per step from the mode, and terms
// that underflow are below 10⁻³⁰⁰ of the mode.

// hypPMF is the hypergeometric law of the number of marked items among k
// drawn without replacement from n items of which K are marked: dst[j] for
// j = 0, …, min(k, K) (entries outside the support are 0). It reuses dst.
func hypPMF(dst []float64, k, K, n int) []float64 {
	top := min(k, K)
	dst = resize(dst, top+1)
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

// binPMF is the binomial law Bin(n, p) on 0, …, n in dst.
func binPMF(dst []float64, n int, p float64) []float64 {
	dst = resize(dst, n+1)
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

// resize returns dst with length n, zeroed.
func resize(dst []float64, n int) []float64 {
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

// pullMiss is the probability that an uninformed live node's k requests
// all fail when i nodes are informed: Σ_j Hyp(j; k, i, N−1)·q^j with
// q = 1 − (1−ε)², the chance that a request to an informed peer or its
// reply is lost.
func pullMiss(buf []float64, i, k, n1 int, eps float64) float64 {
	if i <= 0 {
		return 1
	}
	q := 1 - (1-eps)*(1-eps)
	h := hypPMF(buf, k, i, n1)
	s, qj := 0.0, 1.0
	for j := range h {
		s += h[j] * qj
		qj *= q
	}
	return s
}

// pushMiss is the probability that a given uninformed live node receives
// none of the pushes of s senders of k transmits each: a sender picks it
// with probability k/(N−1) and the push arrives with probability 1 − ε,
// independently over senders: (1 − k(1−ε)/(N−1))^s.
func pushMiss(s float64, k int, n1 int, eps float64) float64 {
	if s <= 0 {
		return 1
	}
	return math.Exp(s * math.Log1p(-float64(k)*(1-eps)/float64(n1)))
}
