package sim

import (
	"testing"
	"time"

	"github.com/oddsmith/oddsmith/mechanics"
)

// TestSaturatingDeclinesLargeLowBurstsQuickly: a large die bursting on a
// low face under a far cap (clamp(d65536!>=70, 0, 1400)) has a denominator
// that cannot fit after a few rolls. It used to be followed level by level
// to the end before the denominator was checked (1.3–1.8 s a node, so six
// such clamps in one expression took 10 s to compile); it is now declined
// at the first level past the limit, and the steps are bounded.
func TestSaturatingDeclinesLargeLowBurstsQuickly(t *testing.T) {
	big := mechanics.D(65536)
	var clamps []mechanics.Node
	for _, thr := range []int{2, 20, 70, 200} {
		e := mechanics.Explode{Die: big, ByThreshold: true, Threshold: thr}
		for _, sat := range []int{100, 1000, 1400, 1449} {
			start := time.Now()
			_, ok := saturating(e, func(v int) int { return min(v, sat) }, sat)
			if d := time.Since(start); d > 250*time.Millisecond {
				t.Errorf("d65536!>=%d capped at %d: %v to decide (ok=%v)", thr, sat, d, ok)
			}
		}
		clamps = append(clamps, mechanics.Clamp{X: e, Lo: 0, Hi: 1400})
	}
	start := time.Now()
	if _, err := compile(mechanics.Sum{Terms: append(clamps, clamps...)}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("eight clamps of large bursting dice took %v to compile", d)
	}
}
