package grim

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
)

// §4.2–4.7: player vs player, assistance, the damage pipeline, friendly
// fire, heavy weapons and light-weapon attacks per turn.

func init() {
	register(pvp(), assist(), damage(), friendlyFire(), heavyWeapon(), lightAttacks())
}

func pvp() *mechanics.Mechanic {
	const id = "grim.pvp"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "player vs player: both roll d20 + bonus, the higher total wins; attack ties give half damage",
		Doc: "Both roll with their bonuses; the higher total wins. On a tie in attack vs defence the defender takes half damage; other " +
			"ties: the initiator fails (status quo) or both reroll (mechanics.md §4.2).",
		Params: []mechanics.Param{attr("attribute", "initiator's (attacker's) bonus", 3), ip("modifier", 0, -30, 30, "initiator's modifiers"),
			attr("opp_attribute", "opponent's (defender's) bonus", 2), ip("opp_modifier", 0, -30, 30, "opponent's modifiers"),
			ip("horizon", 50, 1, 1000, "non-attack with reroll: rerolls simulated at most")},
		Options: []mechanics.Option{
			choice(id, "kind", "attack (vs a defence roll) or nonattack (any other contest)", "attack", "nonattack"),
			opt(id, "naturals", "attack_naturals_apply: an attacker's natural 20 hits and doubles even against a higher total, a natural 1 misses; ignore_naturals", "attack_naturals_apply", "ignore_naturals"),
			opt(id, "nonattack_tie", "status_quo: the initiator fails on a tie; reroll: both roll again until the totals differ", "status_quo", "reroll")},
		Outputs: []string{"attack — distributions: margin, damage_fraction_x2 (0 miss, 1 half, 2 full, 4 crit); events: attacker_wins, tie, defender_wins, crit",
			"nonattack — events: initiator_wins, tie, initiator_fails (with reroll: a chain over rerolls)"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a, m, b, bm := c.Int("attribute"), c.Int("modifier"), c.Int("opp_attribute"), c.Int("opp_modifier")
			naturals := c.Opt("naturals") == "attack_naturals_apply"
			pack := mechanics.Combine{X: d20, Y: d20, Name: "rolls", F: func(x, y int) int { return x*32 + y }}
			margin := func(o int) int { return o/32 + a + m - (o%32 + b + bm) }
			if c.Opt("kind") == "nonattack" {
				if c.Opt("nonattack_tie") == "reroll" {
					p := &mechanics.Process{States: []string{"rolling", "initiator_wins", "initiator_fails"}, Absorbing: []bool{false, true, true},
						Homogeneous: true, Horizon: c.Int("horizon"), TimeUnit: "roll"}
					p.Kernel = func(int) mechanics.Node { return pack }
					p.Move = func(_, s, o int) int {
						switch d := margin(o); {
						case d > 0:
							return 1
						case d < 0:
							return 2
						}
						return 0
					}
					return mechanics.ProcessSpec(p), nil
				}
				return &mechanics.Spec{
					Outcome: pack,
					Vars:    []mechanics.Var{{Name: "margin", Of: margin}},
					Events: []mechanics.Event{
						{Name: "initiator_wins", Of: func(o int) bool { return margin(o) > 0 }},
						{Name: "tie", Of: func(o int) bool { return margin(o) == 0 }},
						{Name: "initiator_fails", Of: func(o int) bool { return margin(o) <= 0 }},
					},
				}, nil
			}
			frac := func(o int) int {
				n := o / 32
				switch {
				case naturals && n == 20:
					return 4
				case naturals && n == 1:
					return 0
				case margin(o) > 0:
					return 2
				case margin(o) == 0:
					return 1
				}
				return 0
			}
			return &mechanics.Spec{
				Outcome: pack,
				Vars:    []mechanics.Var{{Name: "damage_fraction_x2", Doc: "2 × the share of damage dealt: 0 miss, 1 half (tie), 2 full, 4 crit", Of: frac}, {Name: "margin", Of: margin}},
				Events: []mechanics.Event{
					{Name: "attacker_wins", Of: func(o int) bool { return frac(o) >= 2 }},
					{Name: "tie", Doc: "half damage", Of: func(o int) bool { return frac(o) == 1 }},
					{Name: "defender_wins", Of: func(o int) bool { return frac(o) == 0 }},
					{Name: "crit", Of: func(o int) bool { return frac(o) == 4 }},
				},
			}, nil
		},
	}
}

func assist() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.assist",
		Summary: "assistance: helpers each roll, the best result is used (a natural 1 still fails)",
		Doc: "Helpers each roll with their own attribute; the highest result is used, so the group succeeds when at least one roll does " +
			"(a natural 1 fails even if its total is highest): P = 1 − Π(1 − pᵢ) (mechanics.md §4.3).",
		Params: []mechanics.Param{attr("attribute", "the actor's attribute", 2), ip("helpers", 2, 0, 8, "number of helpers"),
			attr("helper_attribute", "each helper's attribute", 1), pMod, pTN},
		Outputs: []string{"distributions: best_total (highest total of a roll that is not a natural 1; −99 if all are 1s)", "events: success, actor_alone_success"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a, h, ha, m, tn := c.Int("attribute"), c.Int("helpers"), c.Int("helper_attribute"), c.Int("modifier"), c.Int("tn")
			const none = -99
			best := func(attr int) mechanics.Node {
				return mechanics.Map{X: d20, Name: "total", F: func(n int) int {
					if n == 1 {
						return none
					}
					return n + attr + m
				}}
			}
			// Actor's total packed with the group's best: best·128 + actor (offset).
			actor := best(a)
			terms := []mechanics.Node{}
			for i := 0; i < h; i++ {
				terms = append(terms, best(ha))
			}
			var group mechanics.Node = mechanics.Const{V: none}
			if h > 0 {
				group = mechanics.Max{Terms: terms}
			}
			out := mechanics.Combine{X: actor, Y: group, Name: "best", F: func(x, y int) int { return (max(x, y)+128)*256 + x + 128 }}
			bestOf := func(o int) int { return o/256 - 128 }
			actorOf := func(o int) int { return o%256 - 128 }
			return &mechanics.Spec{
				Outcome: out,
				Vars:    []mechanics.Var{{Name: "best_total", Of: bestOf}},
				Events: []mechanics.Event{
					{Name: "success", Of: func(o int) bool { return bestOf(o) >= tn }},
					{Name: "actor_alone_success", Of: func(o int) bool { return actorOf(o) >= tn }},
				},
			}, nil
		},
	}
}

// weaponDice are the sweep weapons of §4.4.
var weaponDice = map[string][2]int{"d4": {1, 4}, "d6": {1, 6}, "d8": {1, 8}, "2d6": {2, 6}, "d10": {1, 10}, "2d8": {2, 8}, "d12": {1, 12}, "unarmed": {0, 0}}

func weaponNode(w string) mechanics.Node {
	d := weaponDice[w]
	if d[0] == 0 {
		return mechanics.Const{V: 0}
	}
	return mechanics.Repeat{X: mechanics.D(d[1]), N: d[0]}
}

// pipeline is the §4.4 damage pipeline for a weapon roll w.
type pipeline struct {
	tog, armour               int
	addTog, unarmed, armourOn bool
	typeNum, typeDen          int // ×2, ×1, ×½, ×0
	critAfterArmour, ceilHalf bool
	min1AfterResist           bool
}

func (p pipeline) damage(w int, crit bool) int {
	b := w
	if p.unarmed {
		b = p.tog
	} else if p.addTog {
		b += p.tog
	}
	b = max(1, b)
	if crit && !p.critAfterArmour {
		b *= 2
	}
	if p.typeNum == 0 {
		return 0
	}
	b *= p.typeNum
	if p.typeDen == 2 {
		if p.ceilHalf {
			b = (b + 1) / 2
		} else {
			b /= 2
		}
		if p.min1AfterResist {
			b = max(1, b)
		}
	}
	if p.armourOn {
		b = max(1, b-p.armour)
	}
	if crit && p.critAfterArmour {
		b *= 2
	}
	return b
}

var damageParams = []mechanics.Param{
	attr("tog", "wielder's TOG (added to melee and thrown damage; unarmed damage = TOG, minimum 1)", 2),
	ip("armour", 0, 0, 20, "target's armour (removes 1 per point from each physical hit, never below 1)"),
	attr("cor", "attack attribute (COR)", 3), ip("tn", 12, 1, 40, "attack TN"), pMod,
	ip("condition", 10, 1, 200, "target's Condition (for P(down in one attack))"),
}

func damageOptions(id string) []mechanics.Option {
	return []mechanics.Option{
		choice(id, "weapon", "weapon dice (unarmed: TOG, a light weapon)", "d6", "d4", "d8", "2d6", "d10", "2d8", "d12", "unarmed"),
		choice(id, "weapon_kind", "melee and thrown add TOG; ranged does not", "melee", "thrown", "ranged"),
		choice(id, "target_type", "normal ×1, weak ×2, resistant ×½, immune ×0", "normal", "weak", "resistant", "immune"),
		choice(id, "damage_type", "physical (armour applies) or other (heat, supernatural…)", "physical", "other"),
		opt("grim.damage", "crit_order", "before_armour: the crit doubles before armour; after_armour", "before_armour", "after_armour"),
		opt("grim.damage", "resist_rounding", "floor or ceil when halving for resistance", "floor", "ceil"),
		opt("grim.damage", "min1_after_resist", "yes: the attack minimum of 1 survives halving; no", "yes", "no"),
	}
}

func pipelineOf(c mechanics.Config) pipeline {
	t := map[string][2]int{"normal": {1, 1}, "weak": {2, 1}, "resistant": {1, 2}, "immune": {0, 1}}[c.Opt("target_type")]
	return pipeline{tog: c.Int("tog"), armour: c.Int("armour"), addTog: c.Opt("weapon_kind") != "ranged", unarmed: c.Opt("weapon") == "unarmed",
		armourOn: c.Opt("damage_type") == "physical", typeNum: t[0], typeDen: t[1], critAfterArmour: c.Opt("crit_order") == "after_armour",
		ceilHalf: c.Opt("resist_rounding") == "ceil", min1AfterResist: c.Opt("min1_after_resist") == "yes"}
}

// attackDamage is one attack roll's damage: the d20 and the weapon roll
// packed as n·1024 + w; f is the friendly-fire threshold.
func attackDamage(c mechanics.Config, f int) (mechanics.Node, func(o int) int, func(o int) bool, func(o int) bool) {
	p := pipelineOf(c)
	cor, m, tn := c.Int("cor"), c.Int("modifier"), c.Int("tn")
	out := mechanics.Combine{X: d20, Y: weaponNode(c.Opt("weapon")), Name: "attack", F: func(n, w int) int { return n*1024 + w }}
	hit := func(o int) bool { return AttackHits(o/1024, cor, m, tn, f) }
	crit := func(o int) bool { return o/1024 == 20 }
	dmg := func(o int) int {
		if !hit(o) {
			return 0
		}
		return p.damage(o%1024, crit(o))
	}
	return out, dmg, hit, crit
}

func damage() *mechanics.Mechanic {
	const id = "grim.damage"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "damage pipeline: weapon (+TOG for melee/thrown, min 1) ×2 on a natural 20 × weakness/resistance − armour (min 1)",
		Doc: "B = max(1, W + TOG for melee/thrown), ×2 on a natural-20 attack, × the type multiplier (½ floors), then if armour applies " +
			"max(1, B − armour) (immune stays 0). Reported per attack roll (miss, hit, crit) and for a hit and a crit (mechanics.md §4.4).",
		Params:  damageParams,
		Options: damageOptions(id),
		Outputs: []string{"distributions: damage (per attack roll), hit_damage, crit_damage", "events: hit, crit, down_in_one_attack (damage ≥ condition)"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			out, dmg, hit, crit := attackDamage(c, 1)
			p := pipelineOf(c)
			cond := c.Int("condition")
			return &mechanics.Spec{
				Outcome: out,
				Vars: []mechanics.Var{{Name: "damage", Of: dmg},
					{Name: "hit_damage", Doc: "damage of the weapon roll on an ordinary hit", Of: func(o int) int { return p.damage(o%1024, false) }},
					{Name: "crit_damage", Doc: "damage of the weapon roll on a crit", Of: func(o int) int { return p.damage(o%1024, true) }}},
				Events: []mechanics.Event{{Name: "hit", Of: hit}, {Name: "crit", Of: crit},
					{Name: "down_in_one_attack", Of: func(o int) bool { return dmg(o) >= cond }}},
			}, nil
		},
	}
}

// AttacksPerTurn is m(COR) of §4.7 for light weapons.
func AttacksPerTurn(cor int, frenzy bool) int {
	m := 1
	switch {
	case cor >= 9:
		m = 4
	case cor >= 6:
		m = 3
	case cor >= 3:
		m = 2
	}
	if frenzy {
		m++
	}
	return m
}

func lightAttacks() *mechanics.Mechanic {
	const id = "grim.light_attacks"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "light weapons: 1–4 attacks per turn by COR (1–2 → 1, 3–5 → 2, 6–8 → 3, 9–10 → 4); damage per turn",
		Doc: "COR 1–2 → 1 attack with light weapons, 3–5 → 2, 6–8 → 3, 9–10 → 4 (≤ 0 → 1); frenzy +1; unarmed counts as light. The " +
			"attacks are independent; per-turn damage is the m-fold convolution of the per-attack mixture (miss, hit, crit) (mechanics.md §4.7).",
		Params:  append(append([]mechanics.Param(nil), damageParams...), ip("frenzy", 0, 0, 1, "1: frenzy, one more attack (and friendly fire up to 6)")),
		Options: damageOptions(id),
		Outputs: []string{"distributions: damage (per turn), attacks_hit, friendly_fire_triggers", "events: down_this_turn (damage ≥ condition), any_friendly_fire"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			frenzy := c.Int("frenzy") == 1
			f := 1
			if frenzy {
				f = 6
			}
			out, dmg, hit, _ := attackDamage(c, f)
			m := AttacksPerTurn(c.Int("cor"), frenzy)
			// Per attack, additively packed: damage + 512·hit + 8192·(FF trigger).
			one := mechanics.Map{X: out, Name: "attack", F: func(o int) int {
				ff := bit(o/1024 <= f && o/1024 != 20)
				return dmg(o) + 512*bit(hit(o)) + 8192*ff
			}}
			cond := c.Int("condition")
			return &mechanics.Spec{
				Outcome: mechanics.Repeat{X: one, N: m},
				Vars: []mechanics.Var{{Name: "damage", Of: func(x int) int { return x % 512 }},
					{Name: "attacks_hit", Of: func(x int) int { return x / 512 % 16 }},
					{Name: "friendly_fire_triggers", Of: func(x int) int { return x / 8192 }}},
				Events: []mechanics.Event{{Name: "down_this_turn", Of: func(x int) bool { return x%512 >= cond }},
					{Name: "any_friendly_fire", Of: func(x int) bool { return x >= 8192 }}},
			}, nil
		},
	}
}

func heavyWeapon() *mechanics.Mechanic {
	const id = "grim.heavy_weapon"
	ps := append(append([]mechanics.Param(nil), damageParams...), ip("requirement", 3, -10, 10, "the weapon's TOG requirement"))
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "heavy weapon below its TOG requirement: a TOG roll to swing at all, and friendly fire on naturals 1…1+deficit",
		Doc: "A weaker wielder must pass a TOG roll before each attack or cannot swing; the friendly-fire range widens to naturals " +
			"1…1 + (requirement − TOG). Heavy weapons never get extra attacks from COR. P(hit) = P(TOG roll) · P_attack(f) (mechanics.md §4.6).",
		Params: ps,
		Options: append([]mechanics.Option{
			opt(id, "tog_tn", "11: the TOG roll is vs TN 11 [not in the seed]; 10_plus_deficit", "11", "10_plus_deficit")}, damageOptions(id)...),
		Outputs: []string{"distributions: damage (per attack action)", "events: can_swing, hit, crit, friendly_fire_trigger"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			deficit := max(0, c.Int("requirement")-c.Int("tog"))
			tn := 11
			if c.Opt("tog_tn") == "10_plus_deficit" {
				tn = 10 + deficit
			}
			f := 1 + deficit
			atk, dmg, hit, crit := attackDamage(c, f)
			tog := c.Int("tog")
			swing := mechanics.Map{X: d20, Name: "TOG roll", F: func(n int) int {
				if deficit == 0 {
					return 1
				}
				return bit(CheckSucceeds(n, tog, 0, tn))
			}}
			out := mechanics.Combine{X: swing, Y: atk, Name: "action", F: func(s, o int) int { return s<<20 | o }}
			ok := func(x int) bool { return x>>20 == 1 }
			a := func(x int) int { return x & (1<<20 - 1) }
			return &mechanics.Spec{
				Outcome: out,
				Vars:    []mechanics.Var{{Name: "damage", Of: func(x int) int { return bit(ok(x)) * dmg(a(x)) }}},
				Events: []mechanics.Event{
					{Name: "can_swing", Of: ok},
					{Name: "hit", Of: func(x int) bool { return ok(x) && hit(a(x)) }},
					{Name: "crit", Of: func(x int) bool { return ok(x) && crit(a(x)) }},
					{Name: "friendly_fire_trigger", Of: func(x int) bool { n := a(x) / 1024; return ok(x) && n <= f && n != 20 }},
				},
			}, nil
		},
	}
}

func friendlyFire() *mechanics.Mechanic {
	const id = "grim.friendly_fire"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "friendly fire: naturals ≤ f send the attack at a random nearby character, who rolls AGL vs 11 − the attacker's COR",
		Doc: "A natural 1 (or up to f = 1 + the TOG deficit of a heavy weapon, +5 in frenzy) sends the attack at a target the GM picks at " +
			"random among k candidates (the intended target included); an ally picked rolls AGL vs TN 11, lowered by the attacker's COR if " +
			"the attacker tries to avoid them; an enemy picked gets no COR help. Per turn with m attacks (mechanics.md §4.5).",
		Params: []mechanics.Param{attr("tog", "attacker's TOG", 1), ip("requirement", 1, -10, 10, "weapon's TOG requirement (heavy weapons)"),
			ip("frenzy", 0, 0, 1, "1: frenzy or amok (+5 to the friendly-fire range)"), attr("cor", "attacker's COR", 3),
			ip("tn", 12, 1, 40, "TN against the intended target"),
			ip("candidates", 3, 1, 20, "k: characters the attack may land on, the intended target included"), ip("allies", 1, 0, 19, "a: allies among them"),
			attr("ally_agl", "an ally's AGL", 2), attr("enemy_agl", "another enemy's AGL", 2), ip("avoid", 1, 0, 1, "1: the attacker tries to avoid allies (their TN is lowered by COR)"),
			ip("attacks", 1, 1, 8, "attacks this turn (m)"), ip("gm_percent", 100, 0, 100, "with opt.trigger=gm_probability: percent chance the GM applies friendly fire")},
		Options: []mechanics.Option{
			opt(id, "extended_range_naturals", "miss_and_ff: naturals 2…f miss the intended target and trigger friendly fire; resolve_and_ff: they are resolved normally and also trigger it", "miss_and_ff", "resolve_and_ff"),
			opt(id, "trigger", "always (the text's 'may' taken as always); gm_probability: gm_percent", "always", "gm_probability"),
			opt(id, "candidates_include_target", "yes: the intended target can be picked", "yes")},
		Outputs: []string{"distributions: allies_hit (per turn), friendly_fire_events", "events: ally_hit_this_turn, any_friendly_fire, other_enemy_hit"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			k, a := c.Int("candidates"), c.Int("allies")
			if a >= k {
				return nil, fmt.Errorf("allies=%d must be fewer than candidates=%d (the intended target is one of them)", a, k)
			}
			f := 1 + max(0, c.Int("requirement")-c.Int("tog")) + 5*c.Int("frenzy")
			cor := c.Int("cor")
			allyTN, enemyTN := 11, 11
			if c.Int("avoid") == 1 {
				allyTN -= cor
			}
			pct := int64(100)
			if c.Opt("trigger") == "gm_probability" {
				pct = int64(c.Int("gm_percent"))
			}
			applies := mechanics.Die{Faces: []int{1, 0}, Weights: []int64{max(pct, 0), max(100-pct, 0)}}
			if pct == 100 {
				applies = mechanics.Die{Faces: []int{1}}
			} else if pct == 0 {
				applies = mechanics.Die{Faces: []int{0}}
			}
			// Candidate picked: 0 = the intended target, 1..a allies, the rest other enemies.
			pick := mechanics.D(k)
			dodge := d20
			one := mechanics.Combine{X: mechanics.Combine{X: d20, Y: applies, Name: "trigger", F: func(n, g int) int { return bit(n <= f && n != 20 && g == 1)*64 + n }},
				Y: mechanics.Combine{X: pick, Y: dodge, Name: "victim", F: func(p, n int) int { return p*32 + n }}, Name: "attack",
				F: func(x, y int) int {
					n0 := x % 64
					intended := AttackHits(n0, cor, 0, c.Int("tn"), f)
					if c.Opt("extended_range_naturals") == "resolve_and_ff" && n0 > 1 {
						intended = AttackHits(n0, cor, 0, c.Int("tn"), 1)
					}
					hitIntended := 4096 * bit(intended)
					if x < 64 {
						return hitIntended // no friendly fire
					}
					p, n := y/32-1, y%32
					switch {
					case p >= 1 && p <= a:
						return hitIntended + 1 + 16*bit(!CheckSucceeds(n, c.Int("ally_agl"), 0, allyTN))
					case p > a:
						return hitIntended + 1 + 256*bit(!CheckSucceeds(n, c.Int("enemy_agl"), 0, enemyTN))
					}
					return hitIntended + 1
				}}
			m := c.Int("attacks")
			return &mechanics.Spec{
				Outcome: mechanics.Repeat{X: one, N: m},
				Vars: []mechanics.Var{{Name: "allies_hit", Of: func(x int) int { return x / 16 % 16 }},
					{Name: "friendly_fire_events", Of: func(x int) int { return x % 16 }},
					{Name: "intended_hits", Of: func(x int) int { return x / 4096 }}},
				Events: []mechanics.Event{
					{Name: "ally_hit_this_turn", Of: func(x int) bool { return x/16%16 > 0 }},
					{Name: "any_friendly_fire", Of: func(x int) bool { return x%16 > 0 }},
					{Name: "other_enemy_hit", Of: func(x int) bool { return x/256%16 > 0 }},
					{Name: "intended_target_hit", Of: func(x int) bool { return x/4096 > 0 }},
				},
			}, nil
		},
	}
}
