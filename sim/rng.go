package sim

import (
	"math/bits"
	"math/rand/v2"
)

// source is the simulator's random source: a concrete PCG (no interface in
// the hot path) with unbiased ranged draws.
type source struct {
	_   [64]byte // keep each worker's generator on its own cache line
	pcg rand.PCG
	// epoch changes at every Seed, so that samplers that buffer draws can
	// drop what they drew from the previous chunk's stream (a chunk's
	// draws must depend on that chunk alone).
	epoch uint64
	_     [64]byte
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
func (s *source) Seed(seed, chunk uint64) {
	a := splitmix64(seed ^ splitmix64(2*chunk+1))
	b := splitmix64(a ^ splitmix64(2*chunk+2) ^ 0x6a09e667f3bcc909)
	s.pcg.Seed(a, b)
	s.epoch++
}

// Uint64 returns 64 random bits.
func (s *source) Uint64() uint64 { return s.pcg.Uint64() }

// Index returns a uniform integer in [0, n) by Lemire's nearly divisionless
// method (multiply, reject a sliver of the low product). n must be ≥ 1.
func (s *source) Index(n uint64) uint64 {
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
func (b *batch) fill(s *source, out []uint64) {
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

// fillWide writes 4·b.k indices into out (len(out) ≥ 4·b.k) from four words
// at once: segment j (out[j·k : (j+1)·k]) is one word's batch, and the four
// multiplication chains run interleaved, which the processor overlaps (one
// chain is a series of dependent multiplications). A segment whose word is
// rejected is redrawn on its own, so each segment is an unbiased batch of
// its own word, independent of the others.
func (b *batch) fillWide(s *source, out []uint64) {
	k, r := b.k, b.radix
	out = out[:4*k]
	o0, o1, o2, o3 := out[:k], out[k:2*k], out[2*k:3*k], out[3*k:]
	x0, x1, x2, x3 := s.pcg.Uint64(), s.pcg.Uint64(), s.pcg.Uint64(), s.pcg.Uint64()
	for i := range o0 {
		var h0, h1, h2, h3 uint64
		h0, x0 = bits.Mul64(x0, r)
		h1, x1 = bits.Mul64(x1, r)
		h2, x2 = bits.Mul64(x2, r)
		h3, x3 = bits.Mul64(x3, r)
		o0[i], o1[i], o2[i], o3[i] = h0, h1, h2, h3
	}
	if x0 < b.thresh {
		b.fill(s, o0)
	}
	if x1 < b.thresh {
		b.fill(s, o1)
	}
	if x2 < b.thresh {
		b.fill(s, o2)
	}
	if x3 < b.thresh {
		b.fill(s, o3)
	}
}

// newLeanBatch is newBatch with a k that wastes few words: radix^k just
// below 2⁶⁴ can reject nearly a quarter of them (36¹², 46656⁴), and a
// rejected word costs a redraw. It takes the smallest k whose accepted
// indices per word, k·(1 − thresh/2⁶⁴), come within 3% of the best.
func newLeanBatch(radix uint64) batch {
	full := newBatch(radix)
	bs := make([]batch, 0, full.k)
	eff := make([]float64, 0, full.k)
	bound, top := uint64(1), 0.0
	for k := 1; k <= full.k; k++ {
		bound *= radix
		thresh := -bound % bound
		bs = append(bs, batch{radix: radix, k: k, bound: bound, thresh: thresh})
		eff = append(eff, float64(k)*(1-float64(thresh)/(1<<64)))
		top = max(top, eff[k-1])
	}
	for i, e := range eff {
		if e >= 0.97*top {
			return bs[i]
		}
	}
	return full
}

// fillClasses is fillWide writing cls[index] (the index itself when cls is
// nil) into out, len(out) ≥ 4·b.k, as 16-bit numbers.
func (b *batch) fillClasses(s *source, cls []uint16, out []uint16) {
	k, r := b.k, b.radix
	out = out[:4*k]
	if r == 1 {
		v := uint16(0)
		if cls != nil {
			v = cls[0]
		}
		for i := range out {
			out[i] = v
		}
		return
	}
	if cls != nil {
		fillLookup(b, s, cls, out)
		return
	}
	o0, o1, o2, o3 := out[:k], out[k:2*k], out[2*k:3*k], out[3*k:]
	x0, x1, x2, x3 := s.pcg.Uint64(), s.pcg.Uint64(), s.pcg.Uint64(), s.pcg.Uint64()
	for i := range o0 {
		var h0, h1, h2, h3 uint64
		h0, x0 = bits.Mul64(x0, r)
		h1, x1 = bits.Mul64(x1, r)
		h2, x2 = bits.Mul64(x2, r)
		h3, x3 = bits.Mul64(x3, r)
		o0[i], o1[i], o2[i], o3[i] = uint16(h0), uint16(h1), uint16(h2), uint16(h3)
	}
	for j, x := range [4]uint64{x0, x1, x2, x3} {
		if x < b.thresh {
			b.fillClassesOne(s, out[j*k:(j+1)*k])
		}
	}
}

// fillLookup is fillWide writing tab[index] for each index drawn into out,
// len(out) ≥ 4·b.k: four words' indices at once, a word whose last low
// part falls below the threshold redrawn whole.
func fillLookup[T uint16 | uint64](b *batch, s *source, tab []T, out []T) {
	k, r := b.k, b.radix
	out = out[:4*k]
	tab = tab[:r]
	o0, o1, o2, o3 := out[:k], out[k:2*k], out[2*k:3*k], out[3*k:]
	x0, x1, x2, x3 := s.pcg.Uint64(), s.pcg.Uint64(), s.pcg.Uint64(), s.pcg.Uint64()
	for i := range o0 {
		var h0, h1, h2, h3 uint64
		h0, x0 = bits.Mul64(x0, r)
		h1, x1 = bits.Mul64(x1, r)
		h2, x2 = bits.Mul64(x2, r)
		h3, x3 = bits.Mul64(x3, r)
		o0[i], o1[i], o2[i], o3[i] = tab[h0], tab[h1], tab[h2], tab[h3]
	}
	for j, x := range [4]uint64{x0, x1, x2, x3} {
		for x < b.thresh { // redraw this word's indices
			x = s.pcg.Uint64()
			seg := out[j*k : (j+1)*k]
			for i := range seg {
				var h uint64
				h, x = bits.Mul64(x, r)
				seg[i] = tab[h]
			}
		}
	}
}

// fillClassesOne redraws one segment of fillClasses' indices from fresh
// words.
func (b *batch) fillClassesOne(s *source, out []uint16) {
	for {
		x := s.pcg.Uint64()
		var hi uint64
		for i := range out {
			hi, x = bits.Mul64(x, b.radix)
			out[i] = uint16(hi)
		}
		if x >= b.thresh {
			return
		}
	}
}

// pairBatch draws pairs of indices, x in [0, rx) and y in [0, ry), m pairs
// per 64-bit word: the word is multiplied by rx, ry, rx, ry, … in turn, a
// batch of mixed radices, unbiased when the final low word is rejected below
// 2⁶⁴ mod (rx·ry)^m (Brackett-Rozinsky and Lemire allow any sequence of
// ranges in one batch).
type pairBatch struct {
	rx, ry uint64
	m      int
	thresh uint64
}

func newPairBatch(rx, ry uint64) pairBatch {
	r := rx * ry
	b := pairBatch{rx: rx, ry: ry, m: 1}
	bound := r
	for b.m < 32 {
		hi, lo := bits.Mul64(bound, r)
		if hi != 0 {
			break
		}
		bound = lo
		b.m++
	}
	b.thresh = -bound % bound
	return b
}

// fillClasses writes into out (a multiple of 4·m long) the class
// cls[clsX[x]·ny + clsY[y]] of each pair drawn, four words at a time.
func (b *pairBatch) fillClasses(s *source, clsX, clsY, cls []uint16, ny int, out []uint16) {
	m, rx, ry := b.m, b.rx, b.ry
	for len(out) >= 4*m {
		o0, o1, o2, o3 := out[:m], out[m:2*m], out[2*m:3*m], out[3*m:4*m]
		x0, x1, x2, x3 := s.pcg.Uint64(), s.pcg.Uint64(), s.pcg.Uint64(), s.pcg.Uint64()
		for i := range o0 {
			var a0, a1, a2, a3, b0, b1, b2, b3 uint64
			a0, x0 = bits.Mul64(x0, rx)
			a1, x1 = bits.Mul64(x1, rx)
			a2, x2 = bits.Mul64(x2, rx)
			a3, x3 = bits.Mul64(x3, rx)
			b0, x0 = bits.Mul64(x0, ry)
			b1, x1 = bits.Mul64(x1, ry)
			b2, x2 = bits.Mul64(x2, ry)
			b3, x3 = bits.Mul64(x3, ry)
			o0[i] = cls[int(clsX[a0])*ny+int(clsY[b0])]
			o1[i] = cls[int(clsX[a1])*ny+int(clsY[b1])]
			o2[i] = cls[int(clsX[a2])*ny+int(clsY[b2])]
			o3[i] = cls[int(clsX[a3])*ny+int(clsY[b3])]
		}
		for j, x := range [4]uint64{x0, x1, x2, x3} {
			for x < b.thresh { // redraw this word's pairs
				x = s.pcg.Uint64()
				seg := out[j*m : (j+1)*m]
				for i := range seg {
					var a, c uint64
					a, x = bits.Mul64(x, rx)
					c, x = bits.Mul64(x, ry)
					seg[i] = cls[int(clsX[a])*ny+int(clsY[c])]
				}
			}
		}
		out = out[4*m:]
	}
}
