package tree

import "math/bits"

// rng is wyrand (see package sim), seeded by SplitMix64 of the seed.
type rng struct{ s uint64 }

func newRNG(seed uint64) *rng {
	x := seed + 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return &rng{s: x ^ (x >> 31)}
}

func (r *rng) uint64() uint64 {
	r.s += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(r.s, r.s^0xe7037ed1a0b428db)
	return hi ^ lo
}

func (r *rng) float64() float64 { return float64(r.uint64()>>11) * 0x1p-53 }

// intn returns a uniform integer in [0, n) (Lemire's method).
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
