package grim

import (
	"github.com/oddsmith/oddsmith/mechanics"
)

// §4.14–4.16: shield blocks, crafting and the smaller mechanics.

func init() {
	register(shieldBlock(), crafting(), initiative(), grapple(), shove(), splash(), terror(), shieldingOthers(), terrain())
}

func shieldBlock() *mechanics.Mechanic {
	const id = "grim.shield_block"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "shield block: after a failed AGL evasion the shield's bonus may turn it into a success; the shield then rolls instability",
		Doc: "Shields add a bonus to evasion AGL rolls: after a failed evasion, if the bonus turns the failure into a success the shield " +
			"takes the hit and rolls its instability die: 1 destroyed, 2 broken (repairable), 3 the block fails and the hit lands " +
			"(default) (mechanics.md §4.14).",
		Params: []mechanics.Param{attr("agl", "AGL", 2), pMod, ip("tn", 13, 1, 40, "evasion TN (the attack's total)"), ip("bonus", 3, 0, 20, "the shield's bonus"),
			ip("die", 20, 4, 20, "the shield's instability die size")},
		Options: []mechanics.Option{opt(id, "on_3", "block_fails: a 3 on the instability die lets the hit land; no_effect", "block_fails", "no_effect")},
		Outputs: []string{"events: evade, block, hit_lands, shield_destroyed, shield_broken"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a, m, tn, b := c.Int("agl"), c.Int("modifier"), c.Int("tn"), c.Int("bonus")
			fails3 := c.Opt("on_3") == "block_fails"
			// 0 evade, 1 block holds, 2 block: shield broken, 3 block: shield destroyed, 4 hit lands (block failed on a 3), 5 hit lands.
			out := mechanics.Combine{X: d20, Y: mechanics.D(c.Int("die")), Name: "evasion", F: func(n, k int) int {
				switch {
				case CheckSucceeds(n, a, m, tn):
					return 0
				case n == 1 || n+a+m+b < tn:
					return 5
				case k == 1:
					return 3
				case k == 2:
					return 2
				case k == 3 && fails3:
					return 4
				}
				return 1
			}}
			return &mechanics.Spec{
				Outcome: out,
				Events: []mechanics.Event{
					{Name: "evade", Of: func(x int) bool { return x == 0 }},
					{Name: "block", Doc: "the shield takes the hit", Of: func(x int) bool { return x >= 1 && x <= 3 }},
					{Name: "hit_lands", Of: func(x int) bool { return x >= 4 }},
					{Name: "shield_destroyed", Of: func(x int) bool { return x == 3 }},
					{Name: "shield_broken", Of: func(x int) bool { return x == 2 }},
				},
				Bands: []mechanics.Bands{{Name: "outcome", Labels: []string{"evaded", "blocked", "blocked, shield broken", "blocked, shield destroyed", "block failed (3)", "hit"}, Of: func(x int) int { return x }}},
			}, nil
		},
	}
}

func crafting() *mechanics.Mechanic {
	const id = "grim.crafting"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "crafting: MND (first time only) and COR rolls — both succeed: well made; one: unstable; none: nothing",
		Doc: "Building needs a MND roll (only the first time a type of object is made) and a COR roll (assembly; RSN for supernatural " +
			"items). Both succeed → well made; one → unstable; both fail → nothing. Long builds need two successes out of three COR rolls " +
			"(3p² − 2p³: it helps above p = ½ and hurts below) (mechanics.md §4.15).",
		Params: []mechanics.Param{attr("mnd", "MND", 2), attr("cor", "COR (or RSN)", 2), ip("tn_mnd", 12, 1, 40, "TN of the design (MND) roll"),
			ip("tn_cor", 12, 1, 40, "TN of the assembly (COR) roll; lower for repairs and upgrades"), pMod,
			ip("known", 0, 0, 1, "1: this type of object was made before (no MND roll)"), ip("extended", 0, 0, 1, "1: a long build, two successes out of three")},
		Options: []mechanics.Option{opt(id, "extended_applies_to", "cor_only: only the COR roll is 2-of-3; both_rolls", "cor_only", "both_rolls")},
		Outputs: []string{"events: well_made, unstable, failure", "bands: result"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			m := c.Int("modifier")
			roll := func(a, tn int) mechanics.Node {
				return mechanics.Map{X: d20, Name: "roll", F: func(n int) int { return bit(CheckSucceeds(n, a, m, tn)) }}
			}
			twoOfThree := func(n mechanics.Node) mechanics.Node {
				return mechanics.Map{X: mechanics.Repeat{X: n, N: 3}, Name: "2 of 3", F: func(k int) int { return bit(k >= 2) }}
			}
			var mnd mechanics.Node = roll(c.Int("mnd"), c.Int("tn_mnd"))
			cor := roll(c.Int("cor"), c.Int("tn_cor"))
			if c.Int("extended") == 1 {
				cor = twoOfThree(cor)
				if c.Opt("extended_applies_to") == "both_rolls" {
					mnd = twoOfThree(mnd)
				}
			}
			if c.Int("known") == 1 {
				mnd = mechanics.Const{V: 1}
			}
			out := mechanics.Combine{X: mnd, Y: cor, Name: "result", F: func(a, b int) int { return a + b }} // 2 well made, 1 unstable, 0 nothing
			return &mechanics.Spec{
				Outcome: out,
				Events: []mechanics.Event{{Name: "well_made", Of: func(x int) bool { return x == 2 }},
					{Name: "unstable", Of: func(x int) bool { return x == 1 }},
					{Name: "failure", Of: func(x int) bool { return x == 0 }}},
				Bands: []mechanics.Bands{{Name: "result", Labels: []string{"nothing", "unstable", "well made"}, Of: func(x int) int { return x }}},
			}, nil
		},
	}
}

// opposedD20 packs two d20 rolls.
var opposedD20 = mechanics.Combine{X: d20, Y: d20, Name: "rolls", F: func(x, y int) int { return x*32 + y }}

func initiative() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.initiative",
		Summary: "initiative: PER rolls, highest first; ties go to the enemies",
		Doc:     "Everyone rolls PER; highest first; ties go to the enemies (allies tied with each other choose). Pairwise, exact (mechanics.md §4.16).",
		Params:  []mechanics.Param{attr("per", "the character's PER", 2), pMod, attr("enemy_per", "the enemy's PER", 2), ip("enemy_modifier", 0, -30, 30, "the enemy's modifiers")},
		Outputs: []string{"distributions: margin", "events: character_first, enemy_first, tie (goes to the enemy)"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a, m, b, bm := c.Int("per"), c.Int("modifier"), c.Int("enemy_per"), c.Int("enemy_modifier")
			margin := func(o int) int { return o/32 + a + m - (o%32 + b + bm) }
			return &mechanics.Spec{
				Outcome: opposedD20,
				Vars:    []mechanics.Var{{Name: "margin", Of: margin}},
				Events: []mechanics.Event{{Name: "character_first", Of: func(o int) bool { return margin(o) > 0 }},
					{Name: "enemy_first", Of: func(o int) bool { return margin(o) <= 0 }},
					{Name: "tie", Of: func(o int) bool { return margin(o) == 0 }}},
			}, nil
		},
	}
}

func grapple() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.grapple",
		Summary: "acting while grappled: beat the highest roll of all grapplers (ties fail); grappled −5 AGL",
		Doc: "A grapple is a COR roll to grab, then TOG or COR to hold; actions while grappled must beat the highest roll of all " +
			"grapplers: P(N_a + A > maxᵢ(Nᵢ + Bᵢ)) (K4); ties fail. Being grappled is −5 AGL (fold it into the modifier) (mechanics.md §4.16).",
		Params: []mechanics.Param{attr("attribute", "the grappled character's attribute", 2), pMod, ip("grapplers", 2, 1, 8, "number of grapplers"),
			attr("grappler_attribute", "each grappler's TOG or COR", 2)},
		Outputs: []string{"distributions: margin (own total − highest grappler total)", "events: breaks_free"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a, m, g, b := c.Int("attribute"), c.Int("modifier"), c.Int("grapplers"), c.Int("grappler_attribute")
			terms := make([]mechanics.Node, g)
			for i := range terms {
				terms[i] = d20
			}
			out := mechanics.Combine{X: d20, Y: mechanics.Max{Terms: terms}, Name: "margin", F: func(x, y int) int { return x + a + m - (y + b) }}
			return &mechanics.Spec{
				Outcome: out,
				Vars:    []mechanics.Var{{Name: "margin", Of: func(x int) int { return x }}},
				Events:  []mechanics.Event{{Name: "breaks_free", Of: func(x int) bool { return x > 0 }}},
			}, nil
		},
	}
}

func shove() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.shove",
		Summary: "shove: a COR hit, then a TOG roll; the target then rolls AGL or is knocked down",
		Doc:     "A shove needs a COR attack hit, then a TOG roll; the target then rolls AGL (TN by force and terrain) or is knocked down. A product of independent rolls (mechanics.md §4.16).",
		Params: []mechanics.Param{attr("cor", "shover's COR", 2), ip("hit_tn", 12, 1, 40, "TN to hit"), attr("tog", "shover's TOG", 2), ip("tog_tn", 11, 1, 40, "TN of the TOG roll"),
			attr("target_agl", "target's AGL", 2), ip("agl_tn", 11, 1, 40, "TN of the target's AGL roll (force, terrain)")},
		Outputs: []string{"events: hit, pushed (hit and TOG), knocked_down"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			hit := mechanics.Map{X: d20, Name: "hit", F: func(n int) int { return bit(AttackHits(n, c.Int("cor"), 0, c.Int("hit_tn"), 1)) }}
			tog := mechanics.Map{X: d20, Name: "TOG", F: func(n int) int { return bit(CheckSucceeds(n, c.Int("tog"), 0, c.Int("tog_tn"))) }}
			fall := mechanics.Map{X: d20, Name: "AGL", F: func(n int) int { return bit(!CheckSucceeds(n, c.Int("target_agl"), 0, c.Int("agl_tn"))) }}
			out := mechanics.Combine{X: mechanics.Combine{X: hit, Y: tog, Name: "push", F: func(a, b int) int { return a | a&b<<1 }}, Y: fall, Name: "shove",
				F: func(p, f int) int { return p | (p>>1&f)<<2 }}
			return &mechanics.Spec{
				Outcome: out,
				Events: []mechanics.Event{{Name: "hit", Of: func(x int) bool { return x&1 != 0 }},
					{Name: "pushed", Of: func(x int) bool { return x&2 != 0 }},
					{Name: "knocked_down", Of: func(x int) bool { return x&4 != 0 }}},
			}, nil
		},
	}
}

func splash() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.splash",
		Summary: "splash damage: an AGL roll halves it (floor)",
		Doc:     "A character caught in splash damage rolls AGL; success halves the damage (floor) (mechanics.md §4.16).",
		Params:  []mechanics.Param{attr("agl", "AGL", 2), pMod, pTN, ip("dice", 2, 1, 20, "splash damage dice"), ip("die", 6, 2, 20, "die size")},
		Outputs: []string{"distributions: damage", "events: halved"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a, m, tn := c.Int("agl"), c.Int("modifier"), c.Int("tn")
			out := mechanics.Combine{X: d20, Y: mechanics.Repeat{X: mechanics.D(c.Int("die")), N: c.Int("dice")}, Name: "splash", F: func(n, d int) int {
				if CheckSucceeds(n, a, m, tn) {
					return (d/2)*2 + 1
				}
				return d * 2
			}}
			return &mechanics.Spec{
				Outcome: out,
				Vars:    []mechanics.Var{{Name: "damage", Of: func(x int) int { return x / 2 }}},
				Events:  []mechanics.Event{{Name: "halved", Of: func(x int) bool { return x%2 == 1 }}},
			}, nil
		},
	}
}

func terror() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.terror",
		Summary: "terror: a MND roll at the start of each turn; success ends it; turns lost are geometric",
		Doc:     "A terrified character rolls MND at the start of each turn; success ends the terror. Turns lost ~ Geometric (mechanics.md §4.16).",
		Params:  []mechanics.Param{attr("mnd", "MND", 2), pMod, pTN, ip("turns", 30, 1, 1000, "turns simulated at most")},
		Outputs: []string{"distributions: time (turn the terror ends), turns_lost", "events: absorbed:calm, not_absorbed"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			mnd, m, tn := c.Int("mnd"), c.Int("modifier"), c.Int("tn")
			p := &mechanics.Process{States: []string{"terrified", "calm"}, Absorbing: []bool{false, true}, Homogeneous: true, Horizon: c.Int("turns"), TimeUnit: "turn"}
			p.Kernel = func(int) mechanics.Node {
				return mechanics.Map{X: d20, Name: "MND", F: func(n int) int { return bit(CheckSucceeds(n, mnd, m, tn)) }}
			}
			p.Move = func(_, _, ok int) int { return ok }
			spec := mechanics.ProcessSpec(p)
			spec.Vars = append(spec.Vars, mechanics.Var{Name: "turns_lost", Doc: "turns before the successful roll", Of: func(o int) int { t, _ := p.SplitOutcome(o); return t - 1 }})
			return spec, nil
		},
	}
}

func shieldingOthers() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.shielding_others",
		Summary: "shielding another: AGL + 5 opposed by the attacker's COR; on failure the protected character evades normally",
		Doc:     "A character shielding another rolls AGL + 5 against the attacker's COR roll; on a failure the protected character evades normally (mechanics.md §4.16). Ties fail the shielder.",
		Params: []mechanics.Param{attr("agl", "the shielder's AGL", 2), pMod, attr("attacker_cor", "the attacker's COR", 3),
			attr("protected_agl", "the protected character's AGL", 1), ip("evasion_tn", 13, 1, 40, "the protected character's evasion TN")},
		Outputs: []string{"events: shielded, evaded, protected_hit"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a, m, cor := c.Int("agl"), c.Int("modifier"), c.Int("attacker_cor")
			out := mechanics.Combine{X: opposedD20, Y: d20, Name: "shield", F: func(o, n int) int {
				if o/32+a+m+5 > o%32+cor {
					return 0
				}
				if CheckSucceeds(n, c.Int("protected_agl"), 0, c.Int("evasion_tn")) {
					return 1
				}
				return 2
			}}
			return &mechanics.Spec{
				Outcome: out,
				Events: []mechanics.Event{{Name: "shielded", Of: func(x int) bool { return x == 0 }},
					{Name: "evaded", Of: func(x int) bool { return x == 1 }},
					{Name: "protected_hit", Of: func(x int) bool { return x == 2 }}},
			}, nil
		},
	}
}

func terrain() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.terrain",
		Summary: "difficult terrain: an AGL roll or half movement",
		Doc:     "Crossing difficult terrain takes an AGL roll; on a failure the character moves at half speed (mechanics.md §4.16).",
		Params:  []mechanics.Param{attr("agl", "AGL", 2), pMod, pTN, ip("speed", 10, 1, 100, "movement in metres")},
		Outputs: []string{"distributions: metres moved", "events: full_speed"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a, m, tn, v := c.Int("agl"), c.Int("modifier"), c.Int("tn"), c.Int("speed")
			return &mechanics.Spec{
				Outcome: mechanics.Map{X: d20, Name: "AGL", F: func(n int) int { return bit(CheckSucceeds(n, a, m, tn)) }},
				Vars: []mechanics.Var{{Name: "metres", Of: func(ok int) int {
					if ok == 1 {
						return v
					}
					return v / 2
				}}},
				Events: []mechanics.Event{{Name: "full_speed", Of: func(ok int) bool { return ok == 1 }}},
			}, nil
		},
	}
}
