package gm

import (
	"fmt"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// Single reaction rolls in particular situations: concentration,
// semi-consciousness, disbelieving illusions, item reactions, tracking
// (docs/mechanics.md#gm-concentration, #gm-semiconscious, #gm-disbelieve,
// #gm-item_reaction, #gm-tracking).

// reactionMechanics are the mechanics declared in reactions.go.
func reactionMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{concentration(), semiconscious(), disbelieve(), itemReaction(), tracking()}
}

// rollUnder is the success of the natural n at a target given as an
// expression (one that depends on another roll): kit.RollUnder with the
// naturals switch, for a target that is not a constant.
func rollUnder(n, target expr.Expr, nat naturals) expr.Expr {
	core := expr.Le(n, target)
	if nat == naturals1Succeeds20Fails {
		return expr.Or(expr.Le(n, num(1)), expr.And(expr.Lt(n, num(20)), core))
	}
	return core
}

func concentration() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "gm.concentration",
		Summary: "concentration: each successful attack on a concentrating character forces an evasion roll or concentration breaks",
		Doc: "Someone concentrating for more than a round (a sorcerer, monk or prophet) must make an evasion roll each time an attack " +
			"hits, or the concentration breaks: P(it survives k hits) = p_ev^k, the hit that breaks it Geometric(1 − p_ev). While " +
			"concentrating, defence is at −1 (the attackers' concern).",
		Params:  []mechanics.Param{score("evasion", 10, "evasion reaction score"), pModifier, ip("hits", 3, 1, 1000, "k: successful attacks suffered")},
		Options: mechanics.Options(optNaturals),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			k := successes(c.Int("evasion")+c.Int("modifier"), optNaturals.Of(c))
			p := &mechanics.Process{Homogeneous: true, Horizon: c.Int("hits"), TimeUnit: "hit"}
			holding := p.Add(false, "concentrating")
			broken := p.Add(true, "broken")
			evasion := coin(k)
			p.Kernel = func(int) mechanics.Node { return evasion }
			p.Move = func(_, s, x int) int {
				if x == 1 {
					return s
				}
				return broken
			}
			spec := &mechanics.Spec{Process: p, Record: p.Record()}
			spec.Vars = []mechanics.Var{p.TimeVar("breaking_hit", "the hit whose evasion roll fails and breaks the concentration", field("time"))}
			spec.Event("survives", "concentration holds through all k hits: p_ev^k", p.In(holding)).
				Event("broken", "an evasion roll fails within the k hits", p.In(broken))
			return spec, nil
		},
	}
}

func semiconscious() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "gm.semiconscious",
		Summary: "semi-conscious: acting on a request or answering needs a willpower roll, else d4 rounds of delay",
		Doc: "A semi-conscious character directed to do something (or asked a question) may follow it; the player must make a " +
			"willpower roll or take d4 rounds to react: E[delay] = 2.5·(1 − p).",
		Params:  []mechanics.Param{score("willpower", 10, "willpower reaction score"), pModifier},
		Options: mechanics.Options(optNaturals),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			r := roll("natural", c.Int("willpower")+c.Int("modifier"), optNaturals.Of(c))
			rec := mechanics.NewRecord(kit.Natural("natural", 20), mechanics.Int("slowness", 1, 4, "the d4 rounds a failure costs").In("rounds"))
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Roll(rec, part{Field: "natural", Node: d20}, part{Field: "slowness", Node: mechanics.D(4)})}
			spec.Vars = []mechanics.Var{{Name: "delay", Doc: "rounds before reacting: 0 on a success, d4 on a failure", Unit: "rounds",
				Expr: expr.Cond(r.Success(), num(0), field("slowness"))}}
			spec.Event("reacts_at_once", "the willpower roll succeeds", r.Success())
			return spec, nil
		},
	}
}

var (
	optRoute            = mechanics.ChoiceOf("gm.disbelieve", "route", "perception (looking for flaws) or willpower (standing to accept its effects)", routePerception, routeWillpower)
	optWillpowerPenalty = mechanics.SwitchOf("gm.disbelieve", "willpower_penalty",
		"the phantasm's penalty on the willpower route: half_floor (⌊pen/2⌋, \"usually halved\"), half_ceil or full",
		willpowerHalfFloor, willpowerHalfCeil, willpowerFull)
)

func disbelieve() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "gm.disbelieve",
		Summary: "disbelieving an illusion: a perception roll at the phantasm's penalty, or a willpower roll at half of it that gives others " + kit.Signed(othersDisbelieveBonus),
		Doc: "By perception the roll is at the phantasm's penalty (less any bonus for an obvious illusion); by willpower the penalty " +
			"is halved (⌊pen/2⌋ by default) and a success gives other characters " + kit.Signed(othersDisbelieveBonus) + " to disbelieve by perception (other_disbelieves: " +
			"one such character rolling after). Once the damage is known to be illusory the victim regains all but a tenth of the " +
			"phantasmal damage, rounded up.",
		Params: []mechanics.Param{
			score("perception", 10, "perception reaction score"), score("willpower", 10, "willpower reaction score"),
			ip("penalty", 0, 0, 40, "the phantasm's penalty (more powerful phantasms, more)"),
			ip("bonus", 0, 0, 20, "a bonus for a more obvious illusion"),
			score("other_perception", 10, "another character's perception score, who tries after this roll"),
			ip("phantasmal_damage", 10, 0, 1000, "phantasmal damage taken so far"),
		},
		Options: mechanics.Options(optRoute, optWillpowerPenalty, optNaturals),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			nat, route := optNaturals.Of(c), optRoute.Of(c)
			pen, bonus, D := c.Int("penalty"), c.Int("bonus"), c.Int("phantasmal_damage")
			target := c.Int("perception") + bonus - pen
			if route == routeWillpower {
				switch optWillpowerPenalty.Of(c) {
				case willpowerHalfFloor:
					pen /= 2
				case willpowerHalfCeil:
					pen = (pen + 1) / 2
				}
				target = c.Int("willpower") + bonus - pen
			}
			r := roll("natural", target, nat)
			rec := mechanics.NewRecord(kit.Natural("natural", 20), kit.Natural("other_natural", 20))
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Roll(rec, part{Field: "natural", Node: d20}, part{Field: "other_natural", Node: d20})}
			grant := 0
			if route == routeWillpower {
				grant = othersDisbelieveBonus
			}
			othersBonus := expr.Cond(r.Success(), num(grant), num(0))
			other := rollUnder(field("other_natural"), expr.Add(num(c.Int("other_perception")+c.Int("bonus")-c.Int("penalty")), field("others_bonus")), nat)
			kept := (D + 9) / 10 // a tenth, rounded up
			spec.Var("margin", "the roll's margin: target − N", r.Margin()).
				Var("others_bonus", "the bonus others get to disbelieve by perception: "+kit.Signed(othersDisbelieveBonus)+" after a successful willpower roll", othersBonus).
				Var("damage_remaining", fmt.Sprintf("phantasmal damage still counted after this roll: ⌈%d/10⌉ = %d once disbelieved, else all of it", D, kept),
					expr.Cond(r.Success(), num(kept), num(D))).
				Event("disbelieves", "the roll succeeds: the illusion is seen through", r.Success()).
				Event("other_disbelieves", "another character's perception roll after this one, with the bonus if granted", other)
			return spec, nil
		},
	}
}

// materialRow is one row of the seed's item table as read left to right:
// the bonus against fire, bludgeoning and acid, of which only the first
// printed cells are filled (the rest are blank: opt.blank says what they
// mean), and the base thickness in inches.
type materialRow struct {
	bonus   [3]int
	printed int
	base    expr.Rat
}

// blank reports whether the row's cell for an attack form is blank.
func (r materialRow) blank(a attackForm) bool { return int(a) >= r.printed }

var materialTable = map[material]materialRow{
	materialGlass: {[3]int{8, 16, 0}, 2, expr.Frac(1, 4)},
	materialIce:   {[3]int{8, 0, 0}, 1, expr.Frac(1, 2)},
	materialMetal: {[3]int{6, 5, 0}, 2, expr.Frac(1, 4)},
	materialPaper: {[3]int{-2, 6, 8}, 3, expr.Frac(1, 2)},
	materialStone: {[3]int{8, 10, 0}, 2, expr.Int(1)},
	materialWood:  {[3]int{3, 5, 0}, 2, expr.Int(1)},
}

// itemMaterials are the materials of the item table, in its order.
var itemMaterials = []material{materialGlass, materialIce, materialMetal, materialPaper, materialStone, materialWood}

// itemAttackForms are the attack forms of the item table, in its columns' order.
var itemAttackForms = []attackForm{attackFire, attackBludgeon, attackAcid}

// itemAttackWords name the attack forms in prose.
var itemAttackWords = map[attackForm]string{attackFire: "fire", attackBludgeon: "bludgeoning", attackAcid: "acid"}

// materialBonuses lists the printed cells of the item table: "glass fire
// +8 bludgeon +16, ice fire +8, …".
func materialBonuses() string {
	var rows []string
	for _, m := range itemMaterials {
		row := materialTable[m]
		cells := []string{m.String()}
		for _, a := range itemAttackForms[:row.printed] {
			cells = append(cells, a.String()+" "+kit.Signed(row.bonus[a]))
		}
		rows = append(rows, strings.Join(cells, " "))
	}
	return strings.Join(rows, ", ")
}

// materialThicknesses lists the base thicknesses: "glass ¼″, ice ½″, …".
func materialThicknesses() string {
	var rows []string
	for _, m := range itemMaterials {
		rows = append(rows, m.String()+" "+fraction(materialTable[m].base)+"″")
	}
	return strings.Join(rows, ", ")
}

// blankCells lists the blank cells of the item table by the attack forms
// left blank, in the table's order: "glass, metal, stone and wood against
// acid, ice against bludgeoning and acid".
func blankCells() string {
	var keys []string
	groups := map[string][]string{}
	for _, m := range itemMaterials {
		var forms []string
		for _, a := range itemAttackForms {
			if materialTable[m].blank(a) {
				forms = append(forms, itemAttackWords[a])
			}
		}
		if len(forms) == 0 {
			continue
		}
		k := listAnd(forms)
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], m.String())
	}
	var rows []string
	for _, k := range keys {
		rows = append(rows, listAnd(groups[k])+" against "+k)
	}
	return strings.Join(rows, ", ")
}

// listAnd joins words as a list: "a, b and c".
func listAnd(words []string) string {
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// itemReactionBase is an item's reaction score before its material's bonus
// and its thickness bonus.
const itemReactionBase = 4

// othersDisbelieveBonus is the bonus to disbelieve by perception that a
// successful willpower roll gives other characters.
const othersDisbelieveBonus = 2

// thicknessBonus is +1 at the base thickness and +1 per doubling beyond it
// (0 below the base): glass (¼″) gets 1 at ¼″, 2 at ½″, 3 at 1″.
func thicknessBonus(t, base expr.Rat) int {
	k := 0
	for b := base; t.Cmp(b) >= 0 && k < 64; b = b.Mul(expr.Int(2)) {
		k++
	}
	return k
}

var (
	optMaterial = mechanics.ChoiceOf("gm.item_reaction", "material", "the item's material", itemMaterials...)
	optAttack   = mechanics.ChoiceOf("gm.item_reaction", "attack", "the attack form", itemAttackForms...)
	optTable    = mechanics.SwitchOf("gm.item_reaction", "table",
		"left_to_right: the seed's table read left to right as printed ("+materialBonuses()+", every other cell "+
			"blank (see opt.blank); "+
			"base thickness "+materialThicknesses()+"); user: user_bonus and user_base_thickness",
		tableLeftToRight, tableUser)
	optBlank = mechanics.SwitchOf("gm.item_reaction", "blank",
		"what a blank cell of the table means (with table=left_to_right: "+blankCells()+"): no_roll: the table gives no bonus because that attack form does not damage that material, so "+
			"no reaction is rolled and the item is never damaged (the rule asks for a roll only when \"the attack might damage the "+
			"item\"); zero: a reaction at a bonus of +0, as if the cell read +0",
		blankNoRoll, blankZero)
)

func itemReaction() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "gm.item_reaction",
		Summary: fmt.Sprintf("item reactions: an exposed item rolls at or under %d + its material's bonus against the attack + a thickness bonus, or is damaged", itemReactionBase),
		Doc: "Items not carried, or carried by someone unconscious or injured by the attack, react to an attack that might damage " +
			"them: success ⇔ N ≤ " + kit.Num(itemReactionBase) + " + material/attack bonus + thickness bonus (+1 at the material's base thickness, +1 per doubling " +
			"beyond). A failure damages the item; its survival points are its weight in pounds. The seed's table lost its column " +
			"alignment: see the table switch. A blank cell (no bonus printed for that material and attack form) means by default " +
			"that the attack does not damage the material: no reaction is rolled and damaged = 0 (opt.blank=zero rolls it at +0).",
		Params: []mechanics.Param{
			{Name: "thickness", Default: 1, Min: 0, Max: 1000, Real: true, Doc: "the item's thickness in inches"},
			pModifier,
			ip("user_bonus", 0, -20, 40, "the material/attack bonus with table=user"),
			{Name: "user_base_thickness", Default: 1, Min: 0.001, Max: 1000, Real: true, Doc: "the base thickness in inches with table=user"},
			ip("damage", 10, 0, 10000, "damage the attack deals to the item"),
			{Name: "weight", Default: 5, Min: 0, Max: 10000, Real: true, Doc: "the item's weight in pounds: its survival points"},
		},
		Options: mechanics.Options(optMaterial, optAttack, optTable, optBlank, optNaturals),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			row, attack := materialTable[optMaterial.Of(c)], optAttack.Of(c)
			bonus, base := row.bonus[attack], row.base
			rolled := true
			if optTable.Of(c) == tableUser {
				bonus, base = c.Int("user_bonus"), c.Rat("user_base_thickness")
			} else if row.blank(attack) && optBlank.Of(c) == blankNoRoll {
				rolled = false
			}
			th := thicknessBonus(c.Rat("thickness"), base)
			r := roll("natural", itemReactionBase+bonus+th+c.Int("modifier"), optNaturals.Of(c))
			rec := naturalRecord("natural")
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Encode(rec, rec.Slot("natural"), d20)}
			damaged := expr.Not(r.Success())
			margin := mechanics.Var{Name: "margin", Doc: fmt.Sprintf("the reaction's margin: %d + %d (material) + %d (thickness) + modifier − N", itemReactionBase, bonus, th),
				Expr: r.Margin()}
			if !rolled {
				// No reaction: nothing is rolled, the item is never damaged
				// and the margin is undefined.
				spec.Outcome = kit.Roll(rec)
				damaged = num(0)
				margin.Doc = fmt.Sprintf("the reaction's margin: none here, as the table's cell for %s against %s is blank (opt.blank=no_roll)",
					optMaterial.Of(c), attack)
				margin.When, margin.Otherwise = num(0), "no reaction rolled: a blank cell"
			}
			var destroyed expr.Expr = num(0)
			if expr.Int(int64(c.Int("damage"))).Cmp(c.Rat("weight")) >= 0 {
				destroyed = damaged
			}
			spec.Vars = append(spec.Vars, margin)
			spec.Event("damaged", "the reaction fails: the item takes the damage", damaged).
				Event("destroyed", "damaged by at least its weight in pounds of damage", destroyed)
			return spec, nil
		},
	}
}

func tracking() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "gm.tracking",
		Summary: "tracking: a perception roll at −1 per day since the trail was made, + the tracked group's size bonus, − the quarry's cover margin",
		Doc: "The tracker rolls P − days + G, with P the perception + modifier and G = ⌊log₂ g⌋ (g: the tracked group's size, the " +
			"group-effort chart). A quarry that covers its tracks makes its own perception roll; succeeding by M penalises the " +
			"trackers by M (and halves its movement): P(track) = Σ_m P(M = m)·p(P − days + G − m) + P(cover fails)·p(P − days + G).",
		Params: []mechanics.Param{
			score("perception", 10, "the tracker's perception score"), pModifier,
			ip("days", 0, 0, 365, "days since the trail was made (−1 each)"),
			ip("group", 1, 1, 100000, "size of the tracked group: a bonus of ⌊log₂ g⌋"),
			ip("covers", 0, 0, 1, "1: the quarry covers its tracks (and moves at half speed)"),
			score("quarry_perception", 10, "the quarry's perception score, for covering"),
			modifier("quarry_modifier", "the quarry's bonuses and penalties to cover"),
		},
		Options: mechanics.Options(optNaturals),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			nat := optNaturals.Of(c)
			base := c.Int("perception") + c.Int("modifier") - c.Int("days") + groupBonus(c.Int("group"))
			rec := mechanics.NewRecord(kit.Natural("natural", 20), kit.Natural("cover_natural", 20))
			parts := []part{{Field: "natural", Node: d20}}
			var penalty, covered expr.Expr = num(0), num(0)
			if c.Int("covers") == 1 {
				parts = append(parts, part{Field: "cover_natural", Node: d20})
				cover := roll("cover_natural", c.Int("quarry_perception")+c.Int("quarry_modifier"), nat)
				covered = cover.Success()
				penalty = expr.Cond(covered, expr.Max(num(0), cover.Margin()), num(0))
			}
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Roll(rec, parts...)}
			target := expr.Sub(num(base), field("cover_penalty"))
			spec.Var("margin", "the tracker's margin: perception − days + group bonus − cover penalty − N", expr.Sub(target, field("natural"))).
				Var("cover_penalty", "the margin by which the quarry covered its tracks (0 if it did not)", penalty).
				Event("tracked", "the tracker's perception roll succeeds", rollUnder(field("natural"), target, nat)).
				Event("covered", "the quarry's roll to cover its tracks succeeds", covered)
			return spec, nil
		},
	}
}
