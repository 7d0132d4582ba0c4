package exact

import (
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// TestProcessTruncationCountsEveryStep: a chain whose every step rolls a
// bursting die loses the dropped tail at every step it takes; the chain
// reports that total (1 − what its outcome holds), not one step's loss.
func TestProcessTruncationCountsEveryStep(t *testing.T) {
	for _, homogeneous := range []bool{true, false} {
		const H = 40
		p := &mechanics.Process{Homogeneous: homogeneous, Horizon: H, TimeUnit: "step"}
		walk := p.Add(false, "walking")
		done := p.Add(true, "done")
		// d2! (a coin that bursts on 2): a total of 2 or more never ends
		// the walk, 1 ends it; half the steps go on.
		p.Kernel = func(int) mechanics.Node { return mechanics.Explode{Die: mechanics.D(2)} }
		p.Move = func(_, s, x int) int {
			if x == 1 {
				return done
			}
			return walk
		}
		ch, err := SolveProcess(p)
		if err != nil {
			t.Fatal(err)
		}
		_, one, err := Eval(mechanics.Explode{Die: mechanics.D(2)})
		if err != nil {
			t.Fatal(err)
		}
		missing := 1 - ch.Outcome.Total()
		if one <= 0 || ch.Truncated < 1.5*one || math.Abs(ch.Truncated-missing) > 1e-15 {
			t.Errorf("homogeneous=%v: Truncated = %g, outcome misses %g, one step drops %g", homogeneous, ch.Truncated, missing, one)
		}
	}
}
