package sim

import (
	"math"
	"math/bits"
)

// splitmix64 is the finaliser of Steele, Lea and Flood's SplitMix64, used to
// turn (seed, stream) into well-separated PCG states.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Stream identifiers besides replication indices.
const (
	streamTopology = 1 << 62
)

// rng is wyrand (Wang Yi's generator of wyhash, as in Go's runtime.rand and
// Zig's std.Random.Wyrand): a Weyl sequence mixed by one 64×64→128-bit
// multiply. It passes BigCrush and PractRand, has period 2^64 per stream and
// costs about a nanosecond a draw, which matters here: a shuffle takes about
// a hundred bounded draws. Bounded integers use Lemire's unbiased
// multiply-and-reject ("Fast random integer generation in an interval",
// ACM TOMACS 2019).
type rng struct{ s uint64 }

// newStream returns the generator of stream `stream` for a run with `seed`:
// its state is SplitMix64 of both, so streams of neighbouring indices are
// unrelated and every replication's draws depend on (seed, index) only.
func newStream(seed, stream uint64) *rng {
	return &rng{s: splitmix64(seed ^ splitmix64(stream^0x632be59bd9b4e019))}
}

func (r *rng) uint64() uint64 {
	r.s += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(r.s, r.s^0xe7037ed1a0b428db)
	return hi ^ lo
}

// intn returns a uniform integer in [0, n), 0 < n < 2^32.
func (r *rng) intn(n uint32) uint32 {
	hi, lo := bits.Mul64(r.uint64(), uint64(n))
	if lo < uint64(n) {
		t := -uint64(n) % uint64(n)
		for lo < t {
			hi, lo = bits.Mul64(r.uint64(), uint64(n))
		}
	}
	return uint32(hi)
}

// float64 returns a uniform float in [0, 1) with 53 random bits.
func (r *rng) float64() float64 { return float64(r.uint64()>>11) * 0x1p-53 }

// exp returns an exponential variate of rate 1.
func (r *rng) exp() float64 { return -math.Log(1 - r.float64()) }

// perm fills p with a uniform random permutation of 0..len(p)−1.
func (r *rng) perm(p []int32) {
	for i := range p {
		p[i] = int32(i)
	}
	for i := len(p) - 1; i > 0; i-- {
		j := r.intn(uint32(i + 1))
		p[i], p[j] = p[j], p[i]
	}
}

// fill writes len(buf) raw 32-bit draws, two per 64-bit output, keeping the
// state in a register for the whole batch.
func (r *rng) fill(buf []uint32) {
	s := r.s
	i := 0
	for ; i+1 < len(buf); i += 2 {
		s += 0xa0761d6478bd642f
		hi, lo := bits.Mul64(s, s^0xe7037ed1a0b428db)
		v := hi ^ lo
		buf[i], buf[i+1] = uint32(v), uint32(v>>32)
	}
	if i < len(buf) {
		s += 0xa0761d6478bd642f
		hi, lo := bits.Mul64(s, s^0xe7037ed1a0b428db)
		buf[i] = uint32(hi ^ lo)
	}
	r.s = s
}

// bounded maps a raw 32-bit draw u to [0, n) by Lemire's multiply-shift,
// rejecting (and drawing afresh from r) in the rare case, probability
// < n/2^32, where the result would be biased.
func (r *rng) bounded(u, n uint32) uint32 {
	m := uint64(u) * uint64(n)
	if uint32(m) < n {
		t := -n % n
		for uint32(m) < t {
			m = uint64(uint32(r.uint64())) * uint64(n)
		}
	}
	return uint32(m >> 32)
}
