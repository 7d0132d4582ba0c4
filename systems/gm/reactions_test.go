package gm

import (
	"fmt"
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

// TestItemReactionBlankCells reads every cell of the item table (left to
// right, as printed): a printed bonus is rolled at 4 + bonus + thickness;
// a blank cell means no roll and no damage by default (opt.blank=no_roll),
// and a roll at +0 with opt.blank=zero. At 1″ the thickness bonus is 3
// for a ¼″ base, 2 for ½″ and 1 for 1″.
func TestItemReactionBlankCells(t *testing.T) {
	t.Parallel()
	// The printed cells against fire, bludgeon, acid; nil: blank.
	three := func(v ...int) []*int {
		out := make([]*int, 3)
		for i := range v {
			out[i] = &v[i]
		}
		return out
	}
	rows := []struct {
		material string
		cells    []*int
		thick    int // the thickness bonus at 1″
	}{
		{"glass", three(8, 16), 3},
		{"ice", three(8), 2},
		{"metal", three(6, 5), 3},
		{"paper", three(-2, 6, 8), 2},
		{"stone", three(8, 10), 1},
		{"wood", three(3, 5), 1},
	}
	blanks := 0
	for _, blank := range []string{"no_roll", "zero"} {
		for _, row := range rows {
			for i, attack := range []string{"fire", "bludgeon", "acid"} {
				cell := row.cells[i]
				what := fmt.Sprintf("%s vs %s, opt.blank=%s", row.material, attack, blank)
				sets := []string{"material=" + row.material, "attack=" + attack}
				if blank != "no_roll" { // the default, also on a binary without the option
					sets = append(sets, "opt.blank="+blank)
				}
				r := mechtest.MustExact(t, registry, "gm.item_reaction", sets...)
				p := func(bonus int) float64 { return 1 - math.Min(math.Max(float64(4+bonus+row.thick)/20, 0), 1) }
				switch {
				case cell != nil:
					mechtest.Near(t, what+": P(damaged)", r.Event("damaged").P, p(*cell), 1e-15)
				case blank == "no_roll":
					blanks++
					mechtest.Near(t, what+", a blank cell: P(damaged) with no roll", r.Event("damaged").P, 0, 0)
					mechtest.Near(t, what+", a blank cell: P(destroyed) with no roll", r.Event("destroyed").P, 0, 0)
					mechtest.Near(t, what+", a blank cell: P(no margin)", r.Var("margin").Undefined, 1, 0)
				default:
					mechtest.Near(t, what+", a blank cell read as +0: P(damaged)", r.Event("damaged").P, p(0), 1e-15)
				}
			}
		}
	}
	// A user table has no blank cell: opt.blank changes nothing.
	r := mechtest.MustExact(t, registry, "gm.item_reaction", "material=glass", "attack=acid", "opt.table=user", "user_bonus=0", "user_base_thickness=1")
	mechtest.Near(t, "user table, bonus 0, 1″ at a 1″ base", r.Event("damaged").P, 1-5.0/20, 1e-15)
}
