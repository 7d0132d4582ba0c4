package ag

import (
	"fmt"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

// TestJumpGap: P(clear a gap g) = P(MoS ≥ ⌈g / 0.75 m⌉) (see
// docs/mechanics.md#ag-jump), so a gap of 0 needs MoS ≥ 0 — before the fix
// it needed a positive distance, MoS ≥ 1 (P = 12/36 instead of 21/36
// below). Brute force over the two dice.
func TestJumpGap(t *testing.T) {
	t.Parallel()
	// Athletics 2 + Body 2 + sprint 3 against the slippery TN 10: MoS = R₂ − 5.
	atLeast := func(mos int) float64 {
		n := 0
		twoDice(func(r int, _ bool) {
			if r-5 >= mos {
				n++
			}
		})
		return float64(n) / 36
	}
	base := []string{"athletics=2", "body=2", "movement=sprint", "surface=slippery"}
	for _, tc := range []struct {
		sets []string
		need int // ⌈g / per⌉
	}{
		{[]string{"gap_cm=0"}, 0},
		{[]string{"gap_cm=1"}, 1},
		{[]string{"gap_cm=75"}, 1},
		{[]string{"gap_cm=76"}, 2},
		{[]string{"gap_cm=0", "direction=vertical"}, 0},
		{[]string{"gap_cm=26", "direction=vertical"}, 2},
		// A tie that fails still clears no gap at all: the formula is on MoS.
		{[]string{"gap_cm=0", "opt.tie=failure"}, 0},
	} {
		t.Run(fmt.Sprint(tc.sets), func(t *testing.T) {
			got := mechtest.MustExact(t, registry, "ag.jump", append(base, tc.sets...)...).Event("clears_gap").P
			mechtest.Near(t, "P(clears_gap)", got, atLeast(tc.need), 1e-12)
		})
	}
	// With opt.tie=cost_accepted a raw MoS 0 is taken as MoS 1: it jumps
	// 75 cm and clears a 75 cm gap.
	got := mechtest.MustExact(t, registry, "ag.jump", append(base, "gap_cm=75", "opt.tie=cost_accepted")...).Event("clears_gap").P
	mechtest.Near(t, "P(clears 75 cm), cost_accepted", got, atLeast(0), 1e-12)
	p := mechtest.MustExact(t, registry, "ag.jump", append(base, "gap_cm=0")...).Var("distance_cm")
	mechtest.Near(t, "P(distance 0) = P(MoS ≤ 0)", p.P[0-p.Lo], 1-atLeast(1), 1e-12)
}
