package gm

import (
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

// TestWillingRollsOnHealth: a victim who accepts the ailment rolls to
// contract it on health ("the reaction is health"), at −4, in every
// ailment mechanic; opt.willing_roll=reaction keeps R. R = 18 and H = 6,
// strength 0: on H the roll at 6 − 4 = 2 resists with P = 2/20, on R at
// 18 − 4 = 14 with P = 14/20. One action time in the area (L = 1) makes the
// inescapable ailments one roll too.
func TestWillingRollsOnHealth(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ id, event string }{
		{"gm.ailment.simple", "affected"},
		{"gm.ailment.chronic", "contract"},
		{"gm.ailment.inescapable", "affected"},
		{"gm.ailment.chronic_inescapable", "affected"},
	} {
		sets := []string{"willing=1", "R=18", "H=6", "s0=0"}
		if c.id == "gm.ailment.inescapable" || c.id == "gm.ailment.chronic_inescapable" {
			sets = append(sets, "L=1")
		}
		mechtest.Near(t, c.id+" willing, on health", mechtest.MustExact(t, registry, c.id, sets...).Event(c.event).P, 0.9, 1e-15)
		mechtest.Near(t, c.id+" willing, willing_roll=reaction", mechtest.MustExact(t, registry, c.id, append(sets, "opt.willing_roll=reaction")...).Event(c.event).P, 0.3, 1e-15)
		// An unwilling victim rolls on R whatever the switch says.
		unwilling := append([]string{"willing=0"}, sets[1:]...)
		mechtest.Near(t, c.id+" unwilling", mechtest.MustExact(t, registry, c.id, unwilling...).Event(c.event).P, 0.1, 1e-15)
	}
}
