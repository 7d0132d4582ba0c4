package sim

import (
	"testing"

	"github.com/oddsmith/oddsmith/engine"
)

// uniformMod is the distribution of U mod m for U uniform on [0, radix).
func uniformMod(radix, m uint64) engine.Dist {
	p := make([]float64, m)
	for v := range radix {
		p[v%m] += 1 / float64(radix)
	}
	return engine.Dist{P: p}
}

// TestWideFillUniform: every segment of fillWide and fillClasses is
// uniform, positions across segments are independent, and a segment
// redrawn after a rejected word is too (46656⁴ rejects 23% of words).
func TestWideFillUniform(t *testing.T) {
	for _, b := range []batch{newLeanBatch(6), newLeanBatch(20), newLeanBatch(36), newBatch(36), newBatch(46656)} {
		var src source
		src.Seed(7, 0)
		k := b.k
		buf := make([]uint64, 4*k)
		cls := make([]uint16, b.radix)
		for i := range cls {
			cls[i] = uint16(i % 5)
		}
		out := make([]uint16, 4*k)
		m := min(b.radix, 8)
		var seg [4]Hist
		var cross, classes Hist
		n := int(trials(40_000, 200_000))
		for range n {
			b.fillWide(&src, buf)
			for j := range 4 {
				seg[j].add(int(buf[j*k+k-1]%m), 1)
			}
			cross.add(int(buf[0]%m*m+buf[3*k]%m), 1)
			b.fillClasses(&src, cls, out)
			classes.add(int(out[k]), 1)
		}
		want := uniformMod(b.radix, m)
		for j := range 4 {
			requireAgreement(t, "segment", seg[j], want)
		}
		pp := make([]float64, m*m)
		for i := range pp {
			pp[i] = want.P[uint64(i)/m] * want.P[uint64(i)%m]
		}
		requireAgreement(t, "segments 0 and 3", cross, engine.Dist{P: pp})
		requireAgreement(t, "classes", classes, uniformMod(b.radix, 5))
	}
}

func TestLeanBatch(t *testing.T) {
	for radix, k := range map[uint64]int{36: 11, 46656: 3, 20: 14, 1296: 5, 7776: 4} {
		b := newLeanBatch(radix)
		bound := uint64(1)
		for range b.k {
			bound *= radix
		}
		if b.k != k || b.bound != bound || b.thresh != -bound%bound {
			t.Errorf("radix %d: k %d bound %d thresh %d; want k %d", radix, b.k, b.bound, b.thresh, k)
		}
	}
}

// TestPairBatchUniform: pairs drawn as one batch of mixed radices are
// uniform and independent within a pair, across the pairs of a word and
// across words, also where a quarter of the words are rejected (46656²
// per pair, two pairs per word).
func TestPairBatchUniform(t *testing.T) {
	for _, r := range [][2]uint64{{6, 7}, {7776, 7776}, {46656, 46656}, {36, 1}} {
		pb := newPairBatch(r[0], r[1])
		var src source
		src.Seed(8, 0)
		mod := func(n uint64) []uint16 {
			c := make([]uint16, n)
			for i := range c {
				c[i] = uint16(i % 8)
			}
			return c
		}
		cls := make([]uint16, 64)
		for i := range cls {
			cls[i] = uint16(i)
		}
		out := make([]uint16, 4*pb.m*2)
		clsX, clsY := mod(r[0]), mod(r[1])
		var first, last, cross Hist
		for range int(trials(40_000, 200_000)) {
			pb.fillClasses(&src, clsX, clsY, cls, 8, out)
			first.add(int(out[0]), 1)
			last.add(int(out[len(out)-1]), 1)
			cross.add(int(out[0]%8*8+out[pb.m]/8), 1) // y of word 0, x of word 1
		}
		px, py := uniformMod(r[0], 8), uniformMod(r[1], 8)
		joint := func(a, b engine.Dist) engine.Dist {
			p := make([]float64, 64)
			for i := range p {
				p[i] = a.Prob(i/8) * b.Prob(i%8)
			}
			return engine.Dist{P: p}
		}
		requireAgreement(t, "first pair", first, joint(px, py))
		requireAgreement(t, "last pair", last, joint(px, py))
		requireAgreement(t, "across words", cross, joint(py, px))
	}
}
