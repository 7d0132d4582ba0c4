package exact

import (
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
)

// TestSumUniformAgainstConvolution: sums of wide uniform dice by moving
// windows equal direct convolution to a relative 1e-12 at every value,
// tails included, and never go negative.
func TestSumUniformAgainstConvolution(t *testing.T) {
	for _, c := range []struct{ lo, w, n int }{{1, 33, 2}, {1, 40, 5}, {0, 100, 12}, {-20, 41, 30}, {1, 1000, 3}} {
		die := engine.Dist{Lo: c.lo, P: make([]float64, c.w)}
		for i := range die.P {
			die.P[i] = 1 / float64(c.w)
		}
		got, err := sumN(nil, die, c.n)
		if err != nil {
			t.Fatal(err)
		}
		want := engine.Point(0)
		for range c.n {
			want = flushTiny(convolved(want, die))
		}
		if got.Lo != want.Lo || len(got.P) != len(want.P) {
			t.Fatalf("%dd%d from %d: support [%d, +%d], want [%d, +%d]", c.n, c.w, c.lo, got.Lo, len(got.P), want.Lo, len(want.P))
		}
		for i, p := range got.P {
			if p < 0 || math.Abs(p-want.P[i]) > 1e-12*want.P[i] {
				t.Fatalf("%dd%d from %d: P(%d) = %.17g, convolution %.17g", c.n, c.w, c.lo, got.Lo+i, p, want.P[i])
			}
		}
	}
}
