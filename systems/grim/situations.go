package grim

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// Rolls for situations outside the attack itself: shield blocks, crafting,
// initiative, grapples, shoves, splash damage, terror, shielding others and
// difficult terrain.

// situationMechanics are the mechanics declared in situations.go.
func situationMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{
		shieldBlock(), crafting(), initiative(), grapple(), shove(), splash(), terror(), shieldingOthers(), terrain(),
	}
}

var optOn3 = mechanics.SwitchOf("grim.shield_block", "on_3", "block_fails: a 3 on the instability die lets the hit land; no_effect", on3BlockFails, on3NoEffect)

// Shield block results, the labels of the band "outcome".
const (
	shieldEvaded = iota
	shieldBlocked
	shieldBroken
	shieldDestroyed
	shieldFailed
	shieldHit
)

func shieldBlock() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.shield_block",
		Summary: "shield block: after a failed AGL evasion the shield's bonus may turn it into a success; the shield then rolls instability",
		Doc: "Shields add a bonus to evasion AGL rolls: after a failed evasion, if the bonus turns the failure into a success the shield " +
			"takes the hit and rolls its instability die: 1 destroyed, 2 broken (repairable), 3 the block fails and the hit lands " +
			"(default).",
		Params: []mechanics.Param{attr("agl", "AGL", 2), pMod, ip("tn", 13, 1, 40, "evasion TN (the attack's total)"), ip("bonus", 3, 0, 20, "the shield's bonus"),
			ip("die", 20, 4, 20, "the shield's instability die size")},
		Options: mechanics.Options(optOn3),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a, m, tn, b, die := c.Int("agl"), c.Int("modifier"), c.Int("tn"), c.Int("bonus"), c.Int("die")
			fails3 := optOn3.Of(c) == on3BlockFails
			rec := mechanics.NewRecord(kit.Natural("natural", 20), kit.Natural("instability", die))
			evade := coreCheck("natural", a+m, tn).Success()
			// The shield covers a failed evasion that its bonus turns into a success.
			covered := coreCheck("natural", a+m+b, tn).Success()
			k := field("instability")
			onShield := expr.Cond(expr.Eq(k, num(1)), num(shieldDestroyed), expr.Cond(expr.Eq(k, num(2)), num(shieldBroken), num(shieldBlocked)))
			if fails3 {
				onShield = expr.Cond(expr.Eq(k, num(3)), num(shieldFailed), onShield)
			}
			out := expr.Cond(evade, num(shieldEvaded), expr.Cond(covered, onShield, num(shieldHit)))
			is := func(r int) expr.Expr { return expr.Eq(out, num(r)) }
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Roll(rec, part{Field: "natural", Node: d20}, part{Field: "instability", Node: mechanics.D(die)})}
			spec.Event("evade", "the AGL roll succeeds on its own", is(shieldEvaded)).
				Event("block", "the shield takes the hit", expr.And(expr.Ge(out, num(shieldBlocked)), expr.Le(out, num(shieldDestroyed)))).
				Event("hit_lands", "the hit lands (no cover, or the block failed on a 3)", expr.Ge(out, num(shieldFailed))).
				Event("shield_destroyed", "the instability die shows 1", is(shieldDestroyed)).
				Event("shield_broken", "the instability die shows 2: broken, repairable", is(shieldBroken)).
				Band("outcome", "what happens to an incoming attack",
					[]string{"evaded", "blocked", "blocked, shield broken", "blocked, shield destroyed", "block failed (3)", "hit"}, out)
			return spec, nil
		},
	}
}

var optExtendedAppliesTo = mechanics.SwitchOf("grim.crafting", "extended_applies_to", "cor_only: only the COR roll is 2-of-3; both_rolls",
	extendedCorOnly, extendedBothRolls)

func crafting() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.crafting",
		Summary: "crafting: MND (first time only) and COR rolls — both succeed: well made; one: unstable; none: nothing",
		Doc: "Building needs a MND roll (only the first time a type of object is made) and a COR roll (assembly; RSN for supernatural " +
			"items). Both succeed → well made; one → unstable; both fail → nothing. Long builds need two successes out of three COR rolls " +
			"(3p² − 2p³: it helps above p = ½ and hurts below).",
		Params: []mechanics.Param{attr("mnd", "MND", 2), attr("cor", "COR (or RSN)", 2), ip("tn_mnd", 12, 1, 40, "TN of the design (MND) roll"),
			ip("tn_cor", 12, 1, 40, "TN of the assembly (COR) roll; lower for repairs and upgrades"), pMod,
			ip("known", 0, 0, 1, "1: this type of object was made before (no MND roll)"), ip("extended", 0, 0, 1, "1: a long build, two successes out of three")},
		Options: mechanics.Options(optExtendedAppliesTo),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			m := c.Int("modifier")
			applies := optExtendedAppliesTo.Of(c)
			try := func(a, tn int) mechanics.Node {
				chk := coreCheck("", a+m, tn)
				return mechanics.Map{X: d20, Name: "roll", F: func(n int) int {
					if chk.Holds(n) {
						return 1
					}
					return 0
				}}
			}
			twoOfThree := func(try mechanics.Node) mechanics.Node { return kit.Success(kit.Binomial(try, 3), mechanics.GE, 2) }
			design, assembly := try(c.Int("mnd"), c.Int("tn_mnd")), try(c.Int("cor"), c.Int("tn_cor"))
			if c.Int("extended") == 1 {
				assembly = twoOfThree(assembly)
				if applies == extendedBothRolls {
					design = twoOfThree(design)
				}
			}
			if c.Int("known") == 1 {
				design = mechanics.Const{V: 1}
			}
			rec := mechanics.NewRecord(mechanics.Flag("design", "the MND (design) roll succeeds, or the design is known"),
				mechanics.Flag("assembly", "the COR (assembly) roll succeeds"))
			got := expr.Add(field("design"), field("assembly"))
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Roll(rec, part{Field: "design", Node: design}, part{Field: "assembly", Node: assembly})}
			spec.Event("well_made", "both rolls succeed", expr.Eq(got, num(2))).
				Event("unstable", "exactly one roll succeeds", expr.Eq(got, num(1))).
				Event("failure", "both rolls fail: nothing is made", expr.Eq(got, num(0))).
				Band("result", "the crafting result", []string{"nothing", "unstable", "well made"}, got)
			return spec, nil
		},
	}
}

// opposedMargin is (own natural + bonus) − (their natural + their bonus).
func opposedMargin(own string, bonus int, their string, theirBonus int) expr.Expr {
	return expr.Sub(expr.Add(field(own), num(bonus)), expr.Add(field(their), num(theirBonus)))
}

func initiative() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.initiative",
		Summary: "initiative: PER rolls, highest first; ties go to the enemies",
		Doc:     "Everyone rolls PER; highest first; ties go to the enemies (allies tied with each other choose). Pairwise, exact.",
		Params:  []mechanics.Param{attr("per", "the character's PER", 2), pMod, attr("enemy_per", "the enemy's PER", 2), ip("enemy_modifier", 0, -30, 30, "the enemy's modifiers")},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			rec := naturals("natural", "enemy_natural")
			margin := opposedMargin("natural", c.Int("per")+c.Int("modifier"), "enemy_natural", c.Int("enemy_per")+c.Int("enemy_modifier"))
			first := kit.Opposed(margin, kit.TieToTarget) // ties go to the enemy
			spec := &mechanics.Spec{Record: rec, Outcome: rollNaturals(rec)}
			spec.Var("margin", "the character's PER total − the enemy's", margin).
				Event("character_first", "a higher total", expr.Eq(first, num(kit.Win))).
				Event("enemy_first", "a lower or equal total (ties go to the enemy)", expr.Eq(first, num(kit.Lose))).
				Event("tie", "equal totals (goes to the enemy)", expr.Eq(margin, num(0)))
			return spec, nil
		},
	}
}

func grapple() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.grapple",
		Summary: "acting while grappled: beat the highest roll of all grapplers (ties fail); grappled −5 AGL",
		Doc: "A grapple is a COR roll to grab, then TOG or COR to hold; actions while grappled must beat the highest roll of all " +
			"grapplers: P(N_a + A > maxᵢ(Nᵢ + Bᵢ)), an order statistic of the grapplers' rolls; ties fail. Being grappled is −5 AGL (fold it into the modifier).",
		Params: []mechanics.Param{attr("attribute", "the grappled character's attribute", 2), pMod, ip("grapplers", 2, 1, 8, "number of grapplers"),
			attr("grappler_attribute", "each grappler's TOG or COR", 2)},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			g := c.Int("grapplers")
			terms := make([]mechanics.Node, g)
			for i := range terms {
				terms[i] = d20
			}
			rec := mechanics.NewRecord(kit.Natural("natural", 20), mechanics.Int("grapplers_natural", 1, 20, "the highest natural among the grapplers"))
			margin := opposedMargin("natural", c.Int("attribute")+c.Int("modifier"), "grapplers_natural", c.Int("grappler_attribute"))
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Roll(rec, part{Field: "natural", Node: d20}, part{Field: "grapplers_natural", Node: mechanics.Max{Terms: terms}})}
			spec.Var("margin", "own total − the highest grappler total", margin).
				Event("breaks_free", "beats every grappler (ties fail)", expr.Eq(kit.Opposed(margin, kit.TieToTarget), num(kit.Win)))
			return spec, nil
		},
	}
}

func shove() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.shove",
		Summary: "shove: a COR hit, then a TOG roll; the target then rolls AGL or is knocked down",
		Doc:     "A shove needs a COR attack hit, then a TOG roll; the target then rolls AGL (TN by force and terrain) or is knocked down. A product of independent rolls.",
		Params: []mechanics.Param{attr("cor", "shover's COR", 2), ip("hit_tn", 12, 1, 40, "TN to hit"), attr("tog", "shover's TOG", 2), ip("tog_tn", 11, 1, 40, "TN of the TOG roll"),
			attr("target_agl", "target's AGL", 2), ip("agl_tn", 11, 1, 40, "TN of the target's AGL roll (force, terrain)")},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			rec := naturals("cor_natural", "tog_natural", "agl_natural")
			hit := coreAttack("cor_natural", c.Int("cor"), c.Int("hit_tn"), 1).Success()
			pushed := expr.And(hit, coreCheck("tog_natural", c.Int("tog"), c.Int("tog_tn")).Success())
			spec := &mechanics.Spec{Record: rec, Outcome: rollNaturals(rec)}
			spec.Event("hit", "the COR attack hits", hit).
				Event("pushed", "hit and the TOG roll succeeds", pushed).
				Event("knocked_down", "pushed and the target fails its AGL roll", expr.And(pushed, expr.Not(coreCheck("agl_natural", c.Int("target_agl"), c.Int("agl_tn")).Success())))
			return spec, nil
		},
	}
}

func splash() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.splash",
		Summary: "splash damage: an AGL roll halves it (floor)",
		Doc:     "A character caught in splash damage rolls AGL; success halves the damage (floor).",
		Params:  []mechanics.Param{attr("agl", "AGL", 2), pMod, pTN, ip("dice", 2, 1, 20, "splash damage dice"), ip("die", 6, 2, 20, "die size")},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			n, die := c.Int("dice"), c.Int("die")
			rec := mechanics.NewRecord(kit.Natural("natural", 20), mechanics.Int("dice", n, n*die, "the splash damage rolled"))
			halved := coreCheck("natural", c.Int("agl")+c.Int("modifier"), c.Int("tn")).Success()
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Roll(rec, part{Field: "natural", Node: d20}, part{Field: "dice", Node: mechanics.Repeat{X: mechanics.D(die), N: n}})}
			spec.Var("damage", "damage taken: the dice, halved (floor) on a successful AGL roll", expr.Cond(halved, round(kit.Floor, expr.Mul(field("dice"), expr.Q(1, 2))), field("dice"))).
				Event("halved", "the AGL roll succeeds", halved)
			return spec, nil
		},
	}
}

func terror() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.terror",
		Summary: "terror: a MND roll at the start of each turn; success ends it; turns lost are geometric",
		Doc:     "A terrified character rolls MND at the start of each turn; success ends the terror. Turns lost ~ Geometric.",
		Params:  []mechanics.Param{attr("mnd", "MND", 2), pMod, pTN, ip("turns", 30, 1, 1000, "turns simulated at most")},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			mnd := coreCheck("", c.Int("mnd")+c.Int("modifier"), c.Int("tn"))
			p := &mechanics.Process{Homogeneous: true, Horizon: c.Int("turns"), TimeUnit: "turn"}
			terrified := p.Add(false, "terrified")
			calm := p.Add(true, "calm")
			p.Kernel = func(int) mechanics.Node { return d20 }
			p.Move = func(_, _, n int) int {
				if mnd.Holds(n) {
					return calm
				}
				return terrified
			}
			spec := mechanics.ProcessSpec(p)
			spec.Vars = append(spec.Vars, p.TimeVar("turns_lost", "turns before the successful roll", expr.Sub(field("time"), num(1))))
			return spec, nil
		},
	}
}

// shieldingBonus is what a character shielding another adds to its AGL.
const shieldingBonus = 5

func shieldingOthers() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.shielding_others",
		Summary: fmt.Sprintf("shielding another: AGL + %d opposed by the attacker's COR; on failure the protected character evades normally", shieldingBonus),
		Doc:     fmt.Sprintf("A character shielding another rolls AGL + %d against the attacker's COR roll; on a failure the protected character evades normally. Ties fail the shielder.", shieldingBonus),
		Params: []mechanics.Param{attr("agl", "the shielder's AGL", 2), pMod, attr("attacker_cor", "the attacker's COR", 3),
			attr("protected_agl", "the protected character's AGL", 1), ip("evasion_tn", 13, 1, 40, "the protected character's evasion TN")},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			rec := naturals("natural", "attacker_natural", "protected_natural")
			margin := opposedMargin("natural", c.Int("agl")+c.Int("modifier")+shieldingBonus, "attacker_natural", c.Int("attacker_cor"))
			shielded := expr.Eq(kit.Opposed(margin, kit.TieToTarget), num(kit.Win)) // ties fail the shielder
			evades := coreCheck("protected_natural", c.Int("protected_agl"), c.Int("evasion_tn")).Success()
			spec := &mechanics.Spec{Record: rec, Outcome: rollNaturals(rec)}
			spec.Event("shielded", fmt.Sprintf("the shielder's AGL + %d beats the attacker's COR", shieldingBonus), shielded).
				Event("evaded", "not shielded, and the protected character evades", expr.And(expr.Not(shielded), evades)).
				Event("protected_hit", "not shielded, and the evasion fails", expr.And(expr.Not(shielded), expr.Not(evades)))
			return spec, nil
		},
	}
}

func terrain() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.terrain",
		Summary: "difficult terrain: an AGL roll or half movement",
		Doc:     "Crossing difficult terrain takes an AGL roll; on a failure the character moves at half speed.",
		Params:  []mechanics.Param{attr("agl", "AGL", 2), pMod, pTN, ip("speed", 10, 1, 100, "movement in metres")},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			v := c.Int("speed")
			rec := naturals("natural")
			ok := coreCheck("natural", c.Int("agl")+c.Int("modifier"), c.Int("tn")).Success()
			spec := &mechanics.Spec{Record: rec, Outcome: rollNaturals(rec)}
			spec.Vars = append(spec.Vars, mechanics.Var{Name: "metres", Doc: "metres moved: full speed, or half (floor) after a failed AGL roll", Unit: "m",
				Expr: expr.Cond(ok, num(v), round(kit.Floor, expr.Mul(num(v), expr.Q(1, 2))))})
			spec.Event("full_speed", "the AGL roll succeeds", ok)
			return spec, nil
		},
	}
}
