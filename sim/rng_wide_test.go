package sim

import (
	"testing"

	"github.com/oddsmith/oddsmith/exact"
)

// uniformMod is the distribution of U mod m for U uniform on [0, radix).
func uniformMod(radix, m uint64) exact.Dist {
	p := make([]float64, m)
	for v := range radix {
		p[v%m] += 1 / float64(radix)
	}
	return exact.Dist{P: p}
}

// TestWideFillUniform: every segment of fillWide and fillClasses is
// uniform, positions across segments are independent, and a segment
// redrawn after a rejected word is too (46656⁴ rejects 23% of words).
func TestWideFillUniform(t *testing.T) {
	for _, b := range []batch{newLeanBatch(6), newLeanBatch(20), newLeanBatch(36), newBatch(36), newBatch(46656)} {
		var src Source
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
		requireAgreement(t, "segments 0 and 3", cross, exact.Dist{P: pp})
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
