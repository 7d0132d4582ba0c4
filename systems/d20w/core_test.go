package d20w

import (
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics"
)

// The golden value of d20w.core.check: P(d20 + 5 ≥ 15) = 11/20.
func TestCheckGolden(t *testing.T) {
	t.Parallel()
	r, err := mechtest.Exact(registry, "d20w.core.check", "mod=5", "dc=15")
	if err != nil {
		t.Fatal(err)
	}
	if p := r.Event("success").P; math.Abs(p-11.0/20) > 1e-12 {
		t.Errorf("P(success) = %v; want 0.55", p)
	}
	if got := r.Var("margin").Exact[0]; got != "1/20" {
		t.Errorf("P(margin = −9) = %s; want 1/20", got)
	}
}

// Brute force: enumerate the 20 faces and apply the rule directly, for
// every DC and modifier combination of a grid and every naturals option.
func TestCheckBruteForce(t *testing.T) {
	t.Parallel()
	for _, nat := range []string{"manoeuvres_only", "all_rolls", "none"} {
		t.Run(nat, func(t *testing.T) {
			t.Parallel()
			for mod := -5; mod <= 25; mod += 3 {
				for dc := 0; dc <= 40; dc += 4 {
					wins := 0
					for n := 1; n <= 20; n++ {
						ok := n+mod >= dc
						if nat == "all_rolls" {
							ok = n == 20 || (n != 1 && ok)
						}
						if ok {
							wins++
						}
					}
					r, err := mechtest.Exact(registry, "d20w.core.check", "mod="+itoa(mod), "dc="+itoa(dc), "opt.naturals="+nat)
					if err != nil {
						t.Fatal(err)
					}
					if p := r.Event("success").P; math.Abs(p-float64(wins)/20) > 1e-12 {
						t.Errorf("mod %d dc %d: P = %v; want %d/20", mod, dc, p, wins)
					}
				}
			}
		})
	}
}

func itoa(n int) string { return mechanics.FormatNum(float64(n)) }
