package gm

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// The roll-under core (the package doc; docs/mechanics.md#gm-core-roll).
// A roll succeeds when a d20 comes up at or under the score plus its
// bonuses (N ≤ S′); the margin is S′ − N ("succeeded by 2"). Everything
// else in the package is built on the function roll.

// d20 is the natural die of every gm roll.
var d20 = mechanics.D(20)

// The switches every gm roll shares.
var (
	optNaturals = mechanics.SwitchOf("gm.core", "naturals",
		"none: no natural rule (none in the sources); 1_succeeds_20_fails: a natural 1 always succeeds and a natural 20 always fails, "+
			"keeping every roll within 5–95%", naturalsNone, naturals1Succeeds20Fails)
	optInjuryPenalty = mechanics.SwitchOf("gm.core", "injury_penalty",
		"off: injuries do not change rolls (the seed); on: every roll is at a penalty of the character's current injuries "+
			"(the author's Q&A), which turns the chains of injuries into feedback chains", injuryPenaltyOff, injuryPenaltyOn)
)

// roll is gm.core.roll on the natural in field: success ⇔ N ≤ target,
// margin = target − N, except that with the naturals switch a 1 always
// succeeds and a 20 always fails.
func roll(field string, target int, nat naturals) kit.RollUnder {
	r := kit.RollUnder{Field: field, Sides: 20, Target: target, AutoSucceed: 0, AutoFail: 21}
	if nat == naturals1Succeeds20Fails {
		r.AutoSucceed, r.AutoFail = 1, 20
	}
	return r
}

// successes is the number of naturals 1…20 with which a roll at target
// succeeds: P(success) = successes/20.
func successes(target int, nat naturals) int {
	r, k := roll("", target, nat), 0
	for n := 1; n <= 20; n++ {
		if r.Holds(n) {
			k++
		}
	}
	return k
}

// groupBonus is the group-effort bonus ⌊log₂ g⌋ of a group of g ≥ 1
// acting together (1 → 0, 2 → 1, 4 → 2, 8 → 3); the group rolls with its
// median score.
func groupBonus(g int) int {
	if g < 1 {
		return 0
	}
	return bits.Len(uint(g)) - 1
}

// minor is a minor contributor's share of an ability bonus b: half of it,
// rounded toward zero (a placeholder: the size tables are not in the seed).
func minor(b int) int { return b / 2 }

// movementPenalty is the reaction penalty while moving at a speed (dash
// −1, walk −2, jog −4, run −8, sprint −16); outdoors the walking speeds
// shift up one row (walk 0, jog −2, run −4, sprint −8) while a dash, a
// combat speed, keeps its −1.
func movementPenalty(m movement, t terrain) int {
	if t == terrainOutdoors {
		return [...]int{moveNone: 0, moveDash: 1, moveWalk: 0, moveJog: 2, moveRun: 4, moveSprint: 8}[m]
	}
	return [...]int{moveNone: 0, moveDash: 1, moveWalk: 2, moveJog: 4, moveRun: 8, moveSprint: 16}[m]
}

// movementPenalties lists the reaction penalties of the speeds where the
// going is dangerous: "dash −1, walk −2, jog −4, run −8, sprint −16".
func movementPenalties() string {
	var rows []string
	for m := moveDash; m <= moveSprint; m++ {
		rows = append(rows, m.String()+" "+kit.Num(-movementPenalty(m, terrainDangerous)))
	}
	return strings.Join(rows, ", ")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Shorthands for declarations and output expressions.
var (
	ip    = mechanics.IntParam
	field = expr.F
)

func num(n int) expr.Expr { return expr.K(int64(n)) }

// score declares a roll-under score (an ability 3–18 or a reaction).
func score(name string, def float64, doc string) mechanics.Param {
	return ip(name, def, 0, 40, doc)
}

func modifier(name, doc string) mechanics.Param { return ip(name, 0, -40, 40, doc) }

var pModifier = modifier("modifier", "net bonuses (+) and penalties (−) to the score")

// naturalRecord is the record of one natural d20 in the field name.
func naturalRecord(name string) *mechanics.Record {
	return mechanics.NewRecord(kit.Natural(name, 20))
}

// part is one field of a record and the independent node that rolls it.
type part = kit.Part

// coin is 1 with probability k/20 and 0 otherwise.
func coin(k int) mechanics.Node {
	switch {
	case k <= 0:
		return mechanics.Const{V: 0}
	case k >= 20:
		return mechanics.Const{V: 1}
	}
	return mechanics.Die{Faces: []int{1, 0}, Weights: []int64{int64(k), int64(20 - k)}}
}

// dice is n dX (X = 1: the constant n; n = 0: nothing).
func dice(n, x int) mechanics.Node {
	switch {
	case n == 0:
		return mechanics.Const{V: 0}
	case x == 1:
		return mechanics.Const{V: n}
	case n == 1:
		return mechanics.D(x)
	}
	return mechanics.Repeat{X: mechanics.D(x), N: n}
}

// round is a kit.Rounding as an expression (kit has only the Go form).
func round(r kit.Rounding, x expr.Expr) expr.Expr {
	switch r {
	case kit.Floor:
		return expr.Floor(x)
	case kit.Ceil:
		return expr.Ceil(x)
	}
	return x
}

var (
	optMovement = mechanics.ChoiceOf("gm.core.roll", "movement",
		"speed while rolling (reaction penalty "+movementPenalties()+")", moveNone, moveDash, moveWalk, moveJog, moveRun, moveSprint)
	optTerrain = mechanics.ChoiceOf("gm.core.roll", "terrain",
		"dangerous (ruins, dungeons, caves, combat) or outdoors (roads and similar: the walking speeds shift up one row)", terrainDangerous, terrainOutdoors)
)

// coreMechanics are the mechanics declared in core.go.
func coreMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{
		{
			ID:      "gm.core.roll",
			Summary: "roll under: d20 ≤ score + bonuses succeeds; the margin is how much it succeeded or failed by",
			Doc: fmt.Sprintf("N ~ d20; S′ = score + modifier + major + half of minor rounded toward zero (%s → %s, %d → %d) + ⌊log₂ group⌋ − the ",
				kit.Num(-3), kit.Num(minor(-3)), 3, minor(3)) +
				"movement penalty − injuries (with injury_penalty=on); success ⇔ N ≤ S′, so P = clamp(S′/20, 0, 1) (with the naturals " +
				"switch clamp(S′/20, 1/20, 19/20)); margin M = S′ − N (≥ 0: succeeded by M). " +
				"Groups acting together roll with their median score. Opponents attacking a mover get dash +4, walk +2, jog +4, run +8, " +
				"sprint +16 (not a roll of the mover).",
			Params: []mechanics.Param{
				score("score", 10, "the score rolled under: an ability (3–18) or a reaction (evasion, fortitude, health, perception, reason, willpower); a group's median"),
				pModifier,
				ip("major", 0, -10, 10, "a major contributor: the contributing ability's bonus, added in full (the size tables are not in the seed)"),
				ip("minor", 0, -10, 10, "a minor contributor: the contributing ability's bonus, of which half (toward zero) is added"),
				ip("group", 1, 1, 100000, "group size g acting together: a bonus of ⌊log₂ g⌋"),
				ip("injuries", 0, 0, 60, "current injuries (a penalty with injury_penalty=on)"),
			},
			Options: mechanics.Options(optMovement, optTerrain, optNaturals, optInjuryPenalty),
			Build: func(c mechanics.Config) (*mechanics.Spec, error) {
				mv := optMovement.Of(c)
				target := c.Int("score") + c.Int("modifier") + c.Int("major") + minor(c.Int("minor")) + groupBonus(c.Int("group")) -
					movementPenalty(mv, optTerrain.Of(c))
				if optInjuryPenalty.Of(c) == injuryPenaltyOn {
					target -= c.Int("injuries")
				}
				r := roll("natural", target, optNaturals.Of(c))
				rec := naturalRecord("natural")
				spec := &mechanics.Spec{Record: rec, Outcome: kit.Encode(rec, rec.Slot("natural"), d20)}
				spec.Var("margin", "M = S′ − N: succeeded by M (≥ 0) or failed by −M", r.Margin()).
					Event("success", "N ≤ S′ (or per the naturals switch)", r.Success()).
					Event("natural_1", "the die shows 1", expr.Eq(field("natural"), num(1))).
					Event("natural_20", "the die shows 20", expr.Eq(field("natural"), num(20)))
				return spec, nil
			},
		},
	}
}
