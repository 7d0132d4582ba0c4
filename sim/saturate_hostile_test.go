package sim

import (
	"fmt"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// TestSaturatingDeclinesLargeLowBursts: a large die bursting on a low face
// under a far cap (clamp(d65536!>=70, 0, 1400)) has a denominator that
// cannot fit after a few rolls. It used to be followed level by level to
// the end before the denominator was checked (some 10⁹ faces tried a node,
// so six such clamps in one expression took 10 s to compile); it is now
// declined at the first level past the limit, and the faces tried to
// decide are at most saturateMaxBurstWork, counted here.
func TestSaturatingDeclinesLargeLowBursts(t *testing.T) {
	big := mechanics.D(65536)
	var clamps []mechanics.Node
	for _, thr := range []int{2, 20, 70, 200} {
		e := mechanics.Explode{Die: big, ByThreshold: true, Threshold: thr}
		for _, sat := range []int{100, 1000, 1400, 1449} {
			t.Run(fmt.Sprintf("d65536!>=%d capped at %d", thr, sat), func(t *testing.T) {
				t.Parallel()
				_, steps, ok := burstTruncated(e, sat-1) // the cut above the least face, 1
				if steps > saturateMaxBurstWork {
					t.Errorf("%d faces tried to decide, want at most %d", steps, saturateMaxBurstWork)
				}
				// Only a die that rolls on at most once below the cap (two
				// rolls: 65536² fits) is followed.
				if want := 2*thr >= sat; ok != want {
					t.Errorf("followed %v, want %v", ok, want)
				}
			})
		}
		clamps = append(clamps, mechanics.Clamp{X: e, Lo: 0, Hi: 1400})
	}
	if _, err := compile(mechanics.Sum{Terms: append(clamps, clamps...)}); err != nil {
		t.Fatal(err)
	}
}
