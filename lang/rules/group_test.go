package rules

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/sim"
)

// TestGroupsExactAgainstSim: grouped rolls through both engines as whole
// mechanics, with a fixed seed; every value's simulated frequency must lie
// within five standard errors of the exact probability. The groups are
// large enough that the exact engine takes each of its paths (the
// boundary DP for unlike sums at either end, the pool DP for alike ones,
// every combination for a window in the middle, a keep of one
// expression's dice) and the oracle cannot enumerate them.
func TestGroupsExactAgainstSim(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"{6d6, 5d8, 4d10, 3d12}kh2",
		"{6d6, 5d8, 4d10, 3d12}dh1kl2",
		"{4d6, 4d6, 4d6, 4d6, 4d6}dl2",
		"{3d6, 2d8, d20, 2d10}dl1dh1",
		"{5d6+4d8+2}kh5 - 1",
		"{3d10+2, 2d12, 4d6}cs>=15cf<=8",
	} {
		t.Run(src, func(t *testing.T) {
			t.Parallel()
			r, err := FromExpr(src)
			if err != nil {
				t.Fatal(err)
			}
			m := r.Mechanic()
			ex, err := exact.Run(m, m.DefaultConfig())
			if err != nil {
				t.Fatalf("exact: %v", err)
			}
			const n = 200_000
			sr, err := sim.Run(context.Background(), m, m.DefaultConfig(), sim.Options{Trials: n, Seed: 26, Workers: 2})
			if err != nil {
				t.Fatalf("sim: %v", err)
			}
			ev, sv := variable(t, ex, "value"), variable(t, sr, "value")
			got := map[int]float64{}
			for i, p := range sv.P {
				got[sv.Lo+i] = p
			}
			for i, p := range ev.P {
				x := ev.Lo + i
				if sd := math.Sqrt(p * (1 - p) / n); math.Abs(got[x]-p) > 5*sd+1e-9 {
					t.Errorf("P(%d): sim %v, exact %v ± %v", x, got[x], p, 5*sd)
				}
				delete(got, x)
			}
			for x, p := range got {
				if p > 0 {
					t.Errorf("sim gives %d (%v), which the exact engine does not", x, p)
				}
			}
		})
	}
}

// TestGroupRefusals: what a group cannot compute is refused in one line
// that names it.
func TestGroupRefusals(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]string{
		"{4d6-2d8}k4":      "subtracting dice (- 2d8) is not supported here",
		"{4d6!}kh2":        "4d6! explodes, keeps, drops or counts its dice on its own",
		"{2d6*2}k1":        "must be dice terms and constants added ({4d6+3d8+2}kh4); found *",
		"{d6/2, d4}kh1":    "an expression of a group must be a whole-number roll of its own or a constant: d6 / 2",
		"{0.5, d4}":        "an expression of a group must have whole values: 0.5",
		"{200d6+100d6}kh1": "at most 255 dice",
	} {
		r, err := FromExpr(src)
		if err == nil {
			m := r.Mechanic()
			_, err = m.Model(m.DefaultConfig())
		}
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", src, err, want)
		}
	}
}
