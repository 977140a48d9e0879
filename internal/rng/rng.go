// Package rng is the random number generator of gossipkit's simulations:
// wyrand (Wang Yi's generator of wyhash, as in Go's runtime.rand and Zig's
// std.Random.Wyrand), a Weyl sequence mixed by one 64×64→128-bit multiply.
// It passes BigCrush and PractRand, has period 2^64 per stream and costs
// about a nanosecond a draw, which matters: a shuffle takes about a hundred
// bounded draws. Streams are seeded by SplitMix64 of (seed, stream), so
// streams of neighbouring indices are unrelated and a replication's draws
// depend on (seed, index) only.
//
// # Contract
//
// No function takes a context or validates: every seed and stream is
// valid, Intn(0) and Bounded with n = 0 return 0, Perm and Fill of an empty
// slice do nothing. A nil *Rand is the caller's bug (its methods panic):
// the simulators make each with NewStream. TestContract checks the
// zero arguments.
package rng

import (
	"math"
	"math/bits"
)

// SplitMix64 is the finaliser of Steele, Lea and Flood's SplitMix64.
func SplitMix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Rand is one stream. The zero value is a valid (fixed) stream.
type Rand struct{ s uint64 }

// NewStream returns stream `stream` of `seed`.
func NewStream(seed, stream uint64) *Rand {
	return &Rand{s: SplitMix64(seed ^ SplitMix64(stream^0x632be59bd9b4e019))}
}

// Uint64 returns 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.s += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(r.s, r.s^0xe7037ed1a0b428db)
	return hi ^ lo
}

// Intn returns a uniform integer in [0, n), 0 < n < 2^32, by Lemire's
// unbiased multiply-and-reject ("Fast random integer generation in an
// interval", ACM TOMACS 2019).
func (r *Rand) Intn(n uint32) uint32 {
	hi, lo := bits.Mul64(r.Uint64(), uint64(n))
	if lo < uint64(n) {
		t := -uint64(n) % uint64(n)
		for lo < t {
			hi, lo = bits.Mul64(r.Uint64(), uint64(n))
		}
	}
	return uint32(hi)
}

// Float64 returns a uniform float in [0, 1) with 53 random bits.
func (r *Rand) Float64() float64 { return float64(r.Uint64()>>11) * 0x1p-53 }

// Exp returns an exponential variate of rate 1.
func (r *Rand) Exp() float64 { return -math.Log(1 - r.Float64()) }

// Perm fills p with a uniform random permutation of 0..len(p)−1.
func (r *Rand) Perm(p []int32) {
	for i := range p {
		p[i] = int32(i)
	}
	for i := len(p) - 1; i > 0; i-- {
		j := r.Intn(uint32(i + 1))
		p[i], p[j] = p[j], p[i]
	}
}

// Fill writes len(buf) raw 32-bit draws, two per 64-bit output, keeping the
// state in a register for the whole batch.
func (r *Rand) Fill(buf []uint32) {
	s := r.s
	// Re-slicing rather than indexing lets the compiler drop the bounds
	// checks, which took a third of the loop's time.
	for ; len(buf) >= 2; buf = buf[2:] {
		s += 0xa0761d6478bd642f
		hi, lo := bits.Mul64(s, s^0xe7037ed1a0b428db)
		v := hi ^ lo
		buf[0], buf[1] = uint32(v), uint32(v>>32)
	}
	if len(buf) == 1 {
		s += 0xa0761d6478bd642f
		hi, lo := bits.Mul64(s, s^0xe7037ed1a0b428db)
		buf[0] = uint32(hi ^ lo)
	}
	r.s = s
}

// Bounded maps a raw 32-bit draw u to [0, n) by Lemire's multiply-shift,
// drawing afresh from r in the rare case (probability < n/2^32) where the
// result would be biased.
func (r *Rand) Bounded(u, n uint32) uint32 {
	m := uint64(u) * uint64(n)
	if uint32(m) < n {
		t := -n % n
		for uint32(m) < t {
			m = uint64(uint32(r.Uint64())) * uint64(n)
		}
	}
	return uint32(m >> 32)
}
