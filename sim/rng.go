package sim

import (
	"math/bits"
	"math/rand/v2"
)

// Source is the simulator's random source: a concrete PCG (no interface in
// the hot path) with unbiased ranged draws.
type Source struct {
	_   [64]byte // keep each worker's generator on its own cache line
	pcg rand.PCG
	_   [64]byte
}

// splitmix64 is the SplitMix64 finaliser, used to derive stream seeds.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Seed points the source at the stream of chunk c of a run with the given
// seed. Streams depend only on (seed, c), so any worker may run any chunk.
func (s *Source) Seed(seed, chunk uint64) {
	a := splitmix64(seed ^ splitmix64(2*chunk+1))
	b := splitmix64(a ^ splitmix64(2*chunk+2) ^ 0x6a09e667f3bcc909)
	s.pcg.Seed(a, b)
}

// Uint64 returns 64 random bits.
func (s *Source) Uint64() uint64 { return s.pcg.Uint64() }

// Index returns a uniform integer in [0, n) by Lemire's nearly divisionless
// method (multiply, reject a sliver of the low product). n must be ≥ 1.
func (s *Source) Index(n uint64) uint64 {
	hi, lo := bits.Mul64(s.pcg.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(s.pcg.Uint64(), n)
		}
	}
	return hi
}

// batch draws several uniform indices in [0, radix) from each 64-bit word
// (Brackett-Rozinsky and Lemire, "Batched ranged random integer generation",
// 2024): multiply the word by radix k times, each high word is one index and
// the low word feeds the next multiplication; the batch is unbiased when the
// final low word is rejected below (2⁶⁴ − radixᵏ) mod radixᵏ.
type batch struct {
	radix  uint64
	k      int
	bound  uint64 // radix^k
	thresh uint64 // (2^64 − bound) mod bound
}

func newBatch(radix uint64) batch {
	b := batch{radix: radix, k: 1, bound: radix}
	for {
		hi, lo := bits.Mul64(b.bound, radix)
		if hi != 0 || b.k >= 64 {
			break
		}
		b.bound = lo
		b.k++
	}
	b.thresh = -b.bound % b.bound
	return b
}

// fill writes b.k indices into out (len(out) ≥ b.k).
func (b *batch) fill(s *Source, out []uint64) {
	out = out[:b.k]
	for {
		x := s.pcg.Uint64()
		var hi uint64
		for i := range out {
			hi, x = bits.Mul64(x, b.radix)
			out[i] = hi
		}
		if x >= b.thresh {
			return
		}
	}
}
