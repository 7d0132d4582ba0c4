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

// TestIncapacitationAgainstActionTime: with auto_fail_when_incapacitated a
// roll fails only while the victim is still out (asleep, paralysed) for
// the whole of its action time. Sleep gas (2d10 minutes, even odds, L = 5):
// a day between rolls outlasts every sleep, so the rolls go on as with
// keep_rolling, N ~ Binomial(5, ½); a round (a sixth of a minute) never
// outlasts one, so the first failure at j leaves the victim out for the
// L − j − 1 rolls after it: P(N = L − j) = (½)^(j+1).
func TestIncapacitationAgainstActionTime(t *testing.T) {
	t.Parallel()
	day := pmf(mechtest.MustExact(t, registry, "gm.ailment.inescapable", "opt.incapacitation=auto_fail_when_incapacitated", "tau=day").Var("effects"))
	for k, want := range []float64{1, 5, 10, 10, 5, 1} {
		mechtest.Near(t, "day: P(N = k)", day[float64(k)], want/32, 1e-12)
	}
	round := pmf(mechtest.MustExact(t, registry, "gm.ailment.inescapable", "opt.incapacitation=auto_fail_when_incapacitated", "tau=round").Var("effects"))
	mechtest.Near(t, "round: P(N = 0)", round[0], 1.0/32, 1e-12)
	for j := range 5 {
		mechtest.Near(t, "round: P(N = L − j)", round[float64(5-j)], 1/float64(int(2)<<j), 1e-12)
	}
	// 10-minute action times: 2d10 minutes cover the next one when they
	// come to 10 or more (P = 64/100), and the one after when 20.
	ten := mechtest.MustExact(t, registry, "gm.ailment.inescapable", "opt.incapacitation=auto_fail_when_incapacitated", "tau=10_minutes", "L=2")
	// N = 2: the first roll fails (½) and the second fails, by the sleep
	// (0.64) or by the roll (0.36 × ½).
	mechtest.Near(t, "10 minutes, L = 2: P(N = 2)", pmf(ten.Var("effects"))[2], 0.5*(0.64+0.36*0.5), 1e-12)
}
