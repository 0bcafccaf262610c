package game

import "math/bits"

// rng is splitmix64: one uint64 of state, so it is trivially copied, reset
// and hashed into the checksum, and drawing allocates nothing. Every draw is
// made in a fixed place of the step, never while a pool is being iterated,
// so the sequence does not depend on a pool's slot order.
type rng struct{ state uint64 }

func (r *rng) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	return fmix(r.state)
}

// fmix is splitmix64's finaliser: a bijection that spreads every input bit
// over every output bit. The checksum uses it too.
func fmix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// float returns a number in [0, 1).
func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// between returns a number in [lo, hi).
func (r *rng) between(lo, hi float64) float64 { return lo + (hi-lo)*r.float() }

// intn returns a number in [0, n); n must be positive.
func (r *rng) intn(n int) int {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}

// inclusive returns a number in [lo, hi]; hi < lo yields lo.
func (r *rng) inclusive(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + r.intn(hi-lo+1)
}
