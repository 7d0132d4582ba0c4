// Package grim registers the GRIMWIRE mechanics of mechanics.md §4: a d20 plus
// an attribute (at most 10, possibly negative) against a TN. A natural 1
// always fails; on an attack a natural 20 always hits and doubles damage, and
// a natural 1 (or up to f for a heavy weapon wielded without the strength)
// misses and may hit someone else.
package grim

import (
	"github.com/oddsmith/oddsmith/mechanics"
)

// d20 is the natural die.
var d20 = mechanics.D(20)

// CheckSucceeds is grim.core.check: N ≠ 1 ∧ N + A + M ≥ TN (a natural 20
// does not guarantee success).
func CheckSucceeds(n, attr, mod, tn int) bool { return n != 1 && n+attr+mod >= tn }

// AttackHits is grim.core.attack: N = 20 ∨ (N > f ∧ N + A + M ≥ TN).
func AttackHits(n, attr, mod, tn, f int) bool { return n == 20 || (n > f && n+attr+mod >= tn) }

// Shorthands for the declarations of mechanics.
var (
	ip     = mechanics.IntParam
	opt    = mechanics.Switch
	choice = mechanics.Choice
)

func attr(name, doc string, def float64) mechanics.Param { return ip(name, def, -10, 10, doc) }

var (
	pMod = ip("modifier", 0, -30, 30, "situational modifiers (drinking −2, burnout −1/−3/−5, stunned −3, sensory impairment −5, …)")
	pTN  = ip("tn", 11, 1, 40, "target number (typical 5–30)")
)

func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

func register(ms ...*mechanics.Mechanic) {
	for _, m := range ms {
		mechanics.Register(m)
	}
}

// checkSpec reports a single non-attack check on the natural die.
func checkSpec(a, m, tn int) *mechanics.Spec {
	return &mechanics.Spec{
		Outcome: d20,
		Vars:    []mechanics.Var{{Name: "total", Of: func(n int) int { return n + a + m }}, {Name: "margin", Doc: "T − TN", Of: func(n int) int { return n + a + m - tn }}},
		Events: []mechanics.Event{
			{Name: "success", Of: func(n int) bool { return CheckSucceeds(n, a, m, tn) }},
			{Name: "natural_1", Of: func(n int) bool { return n == 1 }},
			{Name: "flavour_20", Doc: "a natural 20 that still fails (a GM-granted side benefit)", Of: func(n int) bool { return n == 20 && !CheckSucceeds(n, a, m, tn) }},
		},
	}
}

func init() {
	register(&mechanics.Mechanic{
		ID:      "grim.core.check",
		Summary: "non-attack check: d20 + attribute + modifiers ≥ TN; a natural 1 always fails, a natural 20 does not always succeed",
		Doc:     "N ~ d20, T = N + A + M; success ⇔ N ≠ 1 ∧ T ≥ TN. A natural 20 that fails is exported as the 'flavour 20' rate (mechanics.md §4.1).",
		Params:  []mechanics.Param{attr("attribute", "the attribute (TOG, AGL, COR, MND, PER, RSN; at most 10, may be negative)", 2), pMod, pTN},
		Outputs: []string{"distributions: total, margin", "events: success, natural_1, flavour_20"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			return checkSpec(c.Int("attribute"), c.Int("modifier"), c.Int("tn")), nil
		},
	}, &mechanics.Mechanic{
		ID:      "grim.core.attack",
		Summary: "attack roll: a natural 20 always hits and doubles damage; naturals ≤ f miss and risk friendly fire",
		Doc: "Success ⇔ N = 20 ∨ (N > f ∧ N + A + M ≥ TN); f = 1 normally, 1 + the TOG deficit for a heavy weapon, +5 in frenzy. " +
			"Typical attack attribute: COR (mechanics.md §4.1).",
		Params: []mechanics.Param{attr("attribute", "attack attribute (COR)", 3), pMod, ip("tn", 14, 1, 40, "target number"),
			ip("ff_threshold", 1, 1, 20, "friendly-fire threshold f: naturals ≤ f miss and trigger the friendly-fire procedure")},
		Outputs: []string{"distributions: total", "events: hit, crit, friendly_fire_trigger, miss"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a, m, tn, f := c.Int("attribute"), c.Int("modifier"), c.Int("tn"), c.Int("ff_threshold")
			return &mechanics.Spec{
				Outcome: d20,
				Vars:    []mechanics.Var{{Name: "total", Of: func(n int) int { return n + a + m }}},
				Events: []mechanics.Event{
					{Name: "hit", Of: func(n int) bool { return AttackHits(n, a, m, tn, f) }},
					{Name: "crit", Doc: "natural 20: hits, double damage", Of: func(n int) bool { return n == 20 }},
					{Name: "friendly_fire_trigger", Doc: "natural ≤ f", Of: func(n int) bool { return n <= f && n != 20 }},
					{Name: "miss", Of: func(n int) bool { return !AttackHits(n, a, m, tn, f) }},
				},
			}, nil
		},
	})
}
