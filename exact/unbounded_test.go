package exact

import (
	"fmt"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// TestNoAbsorbingStateNoUnboundedSearch: a homogeneous chain with no
// absorbing state has no unlimited-horizon figures to solve for, so the
// exact engine takes steps only from the states that hold mass within the
// horizon, not from every state the chain could ever reach (a counter of
// 1000 states over 2 steps: 2 states stepped from, not 1000).
func TestNoAbsorbingStateNoUnboundedSearch(t *testing.T) {
	const S = 1000
	p := &mechanics.Process{Homogeneous: true, Horizon: 2, TimeUnit: "step"}
	for s := range S {
		p.Add(false, fmt.Sprint("count ", s))
	}
	from := map[int]bool{}
	p.Kernel = func(int) mechanics.Node { return mechanics.D(2) }
	p.Move = func(_, s, x int) int {
		from[s] = true
		return min(s+x-1, S-1)
	}
	ch, err := SolveProcess(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(from) != 2 || ch.Unbounded {
		t.Errorf("stepped from %d states (want 0 and 1), unbounded figures %v", len(from), ch.Unbounded)
	}
	if d := ch.Outcome; len(d.P) == 0 || d.Total() < 1-1e-12 {
		t.Errorf("outcome %v does not hold the whole mass", d)
	}
}
