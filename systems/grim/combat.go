package grim

import (
	"fmt"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// The combat mechanics: player vs player, assistance, the damage pipeline,
// friendly fire, heavy weapons and light-weapon attacks per turn.

// combatMechanics are the mechanics declared in combat.go.
func combatMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{pvp(), assist(), damage(), friendlyFire(), heavyWeapon(), lightAttacks()}
}

var (
	optPvPKind  = mechanics.ChoiceOf("grim.pvp", "kind", "attack (vs a defence roll) or nonattack (any other contest)", pvpAttack, pvpNonattack)
	optNaturals = mechanics.SwitchOf("grim.pvp", "naturals",
		"attack_naturals_apply: an attacker's natural 20 hits and doubles even against a higher total, a natural 1 misses; ignore_naturals",
		naturalsApply, naturalsIgnore)
	optNonattackTie = mechanics.SwitchOf("grim.pvp", "nonattack_tie",
		"status_quo: the initiator fails on a tie; reroll: both roll again until the totals differ", tieStatusQuo, tieReroll)
)

func pvp() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.pvp",
		Summary: "player vs player: both roll d20 + bonus, the higher total wins; attack ties give half damage",
		Doc: "Both roll with their bonuses; the higher total wins. On a tie in attack vs defence the defender takes half damage; other " +
			"ties: the initiator fails (status quo) or both reroll.",
		Params: []mechanics.Param{attr("attribute", "initiator's (attacker's) bonus", 3), ip("modifier", 0, -30, 30, "initiator's modifiers"),
			attr("opp_attribute", "opponent's (defender's) bonus", 2), ip("opp_modifier", 0, -30, 30, "opponent's modifiers"),
			ip("horizon", 50, 1, 1000, "non-attack with reroll: rerolls simulated at most")},
		Options: mechanics.Options(optPvPKind, optNaturals, optNonattackTie),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			mine, theirs := c.Int("attribute")+c.Int("modifier"), c.Int("opp_attribute")+c.Int("opp_modifier")
			kind, nat, tie, horizon := optPvPKind.Of(c), optNaturals.Of(c), optNonattackTie.Of(c), c.Int("horizon")
			rec := naturals("natural", "opp_natural")
			rolls := rollNaturals(rec)
			margin := expr.Sub(expr.Add(field("natural"), num(mine)), expr.Add(field("opp_natural"), num(theirs)))
			if kind == pvpNonattack && tie == tieReroll {
				// A chain over rerolls: ties roll again.
				sn, so := rec.Slot("natural"), rec.Slot("opp_natural")
				p := &mechanics.Process{Homogeneous: true, Horizon: horizon, TimeUnit: "roll"}
				rolling := p.Add(false, "rolling")
				wins := p.Add(true, "initiator_wins")
				fails := p.Add(true, "initiator_fails")
				p.Kernel = func(int) mechanics.Node { return rolls }
				p.Move = func(_, _, x int) int {
					switch kit.OpposedOf(sn.Get(x)+mine-(so.Get(x)+theirs), kit.TieStands) {
					case kit.Win:
						return wins
					case kit.Lose:
						return fails
					}
					return rolling
				}
				return mechanics.ProcessSpec(p), nil
			}
			spec := &mechanics.Spec{Record: rec, Outcome: rolls}
			if kind == pvpNonattack {
				spec.Var("margin", "initiator's total − opponent's total", margin).
					Event("initiator_wins", "a higher total", expr.Gt(margin, num(0))).
					Event("tie", "equal totals", expr.Eq(margin, num(0))).
					Event("initiator_fails", "a lower or equal total: the status quo stands", expr.Le(margin, num(0)))
				return spec, nil
			}
			// 2 × the share of damage dealt: a lower total misses (0), a
			// tie halves (1), a higher total hits (2); with the attack
			// naturals a natural 20 crits (4) and a natural 1 misses.
			frac := expr.Table(kit.Opposed(margin, kit.TieStands), kit.Lose, 0, 1, 2)
			if nat == naturalsApply {
				n := field("natural")
				frac = expr.Cond(expr.Eq(n, num(20)), num(4), expr.Cond(expr.Eq(n, num(1)), num(0), frac))
			}
			spec.Var("damage_fraction_x2", "2 × the share of damage dealt: 0 miss, 1 half (tie), 2 full, 4 crit", frac).
				Var("margin", "attacker's total − defender's total", margin).
				Event("attacker_wins", "full or double damage", expr.Ge(frac, num(2))).
				Event("tie", "equal totals: half damage", expr.Eq(frac, num(1))).
				Event("defender_wins", "no damage", expr.Eq(frac, num(0))).
				Event("crit", "a natural 20 with the attack naturals: double damage", expr.Eq(frac, num(4)))
			return spec, nil
		},
	}
}

func assist() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.assist",
		Summary: "assistance: helpers each roll, the best result is used (a natural 1 still fails)",
		Doc: "Helpers each roll with their own attribute; the highest result is used, so the group succeeds when at least one roll does " +
			"(a natural 1 fails even if its total is highest): P = 1 − Π(1 − pᵢ).",
		Params: []mechanics.Param{attr("attribute", "the actor's attribute", 2), ip("helpers", 2, 0, 8, "number of helpers"),
			attr("helper_attribute", "each helper's attribute", 1), pMod, pTN},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a, h, ha, m, tn := c.Int("attribute"), c.Int("helpers"), c.Int("helper_attribute"), c.Int("modifier"), c.Int("tn")
			// A natural 1 counts as no result at all; it stands below every total.
			const none = -99
			hi := 20 + max(a, ha) + m
			rec := mechanics.NewRecord(
				mechanics.Int("best_total", none, max(hi, none), "highest total of a roll that is not a natural 1 (−99 if every roll is a 1)"),
				mechanics.Int("actor_total", none, max(hi, none), "the actor's own total (−99 for a natural 1)"))
			sBest, sActor := rec.Slot("best_total"), rec.Slot("actor_total")
			total := func(attr int) mechanics.Node {
				return mechanics.Map{X: d20, Name: "total", F: func(n int) int {
					if n == 1 {
						return none
					}
					return n + attr + m
				}}
			}
			var group mechanics.Node = mechanics.Const{V: none}
			if h > 0 {
				terms := make([]mechanics.Node, h)
				for i := range terms {
					terms[i] = total(ha)
				}
				group = mechanics.Max{Terms: terms}
			}
			// The best of all rolls is a field: keeping every helper's
			// natural in the record would take 20^(helpers+1) records.
			start := rec.Start()
			out := mechanics.Combine{X: total(a), Y: group, Name: "best", F: func(x, y int) int {
				return sActor.Set(sBest.Set(start, max(x, y)), x)
			}}
			spec := &mechanics.Spec{Record: rec, Outcome: out}
			spec.Report("best_total").
				Event("success", "the best total reaches the TN", expr.Ge(field("best_total"), num(tn))).
				Event("actor_alone_success", "the actor's own roll would have succeeded", expr.Ge(field("actor_total"), num(tn)))
			return spec, nil
		},
	}
}

// pipeline is the damage pipeline of grim.damage
// (docs/mechanics.md#grim-damage): B = max(1, W + TOG for melee and thrown,
// or TOG unarmed) → ×2 on a crit → × the target type → armour.
// It has two forms that agree (a test checks them): damage for the node
// functions that sum several attacks, and expr for the outputs.
type pipeline struct {
	tog, armour int
	weapon      weaponDice
	kind        weaponKind
	target      targetType
	dtype       damageType
	critOrder   critOrder
	resist      kit.Rounding
	min1        yesNo
}

// damage is the pipeline for a weapon roll w.
func (p pipeline) damage(w int, crit bool) int {
	b := w
	switch {
	case p.weapon == weaponUnarmed:
		b = p.tog
	case p.kind != ranged:
		b += p.tog
	}
	b = max(1, b)
	if crit && p.critOrder == critBeforeArmour {
		b *= 2
	}
	switch p.target {
	case targetImmune:
		return 0 // no damage, and armour has nothing to reduce
	case targetWeak:
		b *= 2
	case targetResistant:
		b = int(kit.Resist(b, expr.Frac(1, 2), p.resist).Floor())
		if p.min1 == yes {
			b = max(1, b)
		}
	}
	if p.dtype == damagePhysical {
		b = kit.AfterArmour(b, p.armour, 1)
	}
	if crit && p.critOrder == critAfterArmour {
		b *= 2
	}
	return b
}

// expr is the pipeline as an expression of the weapon roll w.
func (p pipeline) expr(w expr.Expr, crit bool) expr.Expr {
	b := w
	switch {
	case p.weapon == weaponUnarmed:
		b = num(p.tog)
	case p.kind != ranged:
		b = expr.Add(w, num(p.tog))
	}
	b = expr.Max(num(1), b)
	if crit && p.critOrder == critBeforeArmour {
		b = expr.Mul(b, num(2))
	}
	switch p.target {
	case targetImmune:
		return num(0)
	case targetWeak:
		b = expr.Mul(b, num(2))
	case targetResistant:
		b = round(p.resist, expr.Mul(b, expr.Q(1, 2)))
		if p.min1 == yes {
			b = expr.Max(num(1), b)
		}
	}
	if p.dtype == damagePhysical {
		b = expr.Max(num(1), expr.Sub(b, num(p.armour)))
	}
	if crit && p.critOrder == critAfterArmour {
		b = expr.Mul(b, num(2))
	}
	return b
}

// weaponRange is the lowest and highest weapon roll.
func weaponRange(w weaponDice) (lo, hi int) {
	n, s := w.dice()
	return n, n * s
}

// weaponNode rolls the weapon dice (unarmed: 0, the pipeline uses TOG).
func weaponNode(w weaponDice) mechanics.Node {
	n, s := w.dice()
	if n == 0 {
		return mechanics.Const{V: 0}
	}
	return mechanics.Repeat{X: mechanics.D(s), N: n}
}

// maxDamage is the most the pipeline can deal in one attack.
func (p pipeline) maxDamage() int {
	lo, hi := weaponRange(p.weapon)
	best := 0
	for w := lo; w <= hi; w++ {
		best = max(best, p.damage(w, false), p.damage(w, true))
	}
	return best
}

var damageParams = []mechanics.Param{
	attr("tog", "wielder's TOG (added to melee and thrown damage; unarmed damage = TOG, minimum 1)", 2),
	ip("armour", 0, 0, 20, "target's armour (removes 1 per point from each physical hit, never below 1)"),
	attr("cor", "attack attribute (COR)", 3), ip("tn", 12, 1, 40, "attack TN"), pMod,
	ip("condition", 10, 1, 200, "target's Condition (for P(down in one attack))"),
}

// The pipeline switches are shared by every mechanic that deals weapon damage.
var (
	optCritOrder = mechanics.SwitchOf("grim.damage", "crit_order", "before_armour: the crit doubles before armour; after_armour",
		critBeforeArmour, critAfterArmour)
	optResistRounding = mechanics.SwitchOf("grim.damage", "resist_rounding", "floor or ceil when halving for resistance", kit.Floor, kit.Ceil)
	optMin1           = mechanics.SwitchOf("grim.damage", "min1_after_resist", "yes: the attack minimum of 1 survives halving; no", yes, no)
)

// damageOptions are the weapon choices of one damage mechanic (named after
// it) and the shared pipeline switches.
type damageOptions struct {
	weapon mechanics.OptionOf[weaponDice]
	kind   mechanics.OptionOf[weaponKind]
	target mechanics.OptionOf[targetType]
	dtype  mechanics.OptionOf[damageType]
}

func damageOptionsOf(id string) damageOptions {
	return damageOptions{
		weapon: mechanics.ChoiceOf(id, "weapon", "weapon dice (unarmed: TOG, a light weapon)",
			weaponD6, weaponD4, weaponD8, weapon2D6, weaponD10, weapon2D8, weaponD12, weaponUnarmed),
		kind:   mechanics.ChoiceOf(id, "weapon_kind", "melee and thrown add TOG; ranged does not", melee, thrown, ranged),
		target: mechanics.ChoiceOf(id, "target_type", "normal ×1, weak ×2, resistant ×½, immune ×0", targetNormal, targetWeak, targetResistant, targetImmune),
		dtype:  mechanics.ChoiceOf(id, "damage_type", "physical (armour applies) or other (heat, supernatural…)", damagePhysical, damageOther),
	}
}

func (o damageOptions) declared() []mechanics.Declared {
	return []mechanics.Declared{o.weapon, o.kind, o.target, o.dtype, optCritOrder, optResistRounding, optMin1}
}

func (o damageOptions) pipeline(c mechanics.Config) pipeline {
	return pipeline{tog: c.Int("tog"), armour: c.Int("armour"), weapon: o.weapon.Of(c), kind: o.kind.Of(c), target: o.target.Of(c),
		dtype: o.dtype.Of(c), critOrder: optCritOrder.Of(c), resist: optResistRounding.Of(c), min1: optMin1.Of(c)}
}

// attackRecord is one attack roll: the natural and the weapon roll.
func attackRecord(w weaponDice) *mechanics.Record {
	lo, hi := weaponRange(w)
	return mechanics.NewRecord(kit.Natural("natural", 20), mechanics.Int("weapon", lo, hi, "weapon roll W (the dice sum)"))
}

func damage() *mechanics.Mechanic {
	const id = "grim.damage"
	opts := damageOptionsOf(id)
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "damage pipeline: weapon (+TOG for melee/thrown, min 1) ×2 on a natural 20 × weakness/resistance − armour (min 1)",
		Doc: "B = max(1, W + TOG for melee/thrown), ×2 on a natural-20 attack, × the type multiplier (½ floors), then if armour applies " +
			"max(1, B − armour) (immune stays 0). Reported per attack roll (miss, hit, crit) and for a hit and a crit.",
		Params:  damageParams,
		Options: mechanics.Options(opts.declared()...),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			p := opts.pipeline(c)
			atk := coreAttack("natural", c.Int("cor")+c.Int("modifier"), c.Int("tn"), 1)
			cond := c.Int("condition")
			rec := attackRecord(p.weapon)
			w, crit := field("weapon"), expr.Eq(field("natural"), num(20))
			dmg := expr.Cond(atk.Success(), expr.Cond(crit, p.expr(w, true), p.expr(w, false)), num(0))
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Roll(rec, part{Field: "natural", Node: d20}, part{Field: "weapon", Node: weaponNode(p.weapon)})}
			spec.Var("damage", "damage of one attack roll (0 on a miss)", dmg).
				Var("hit_damage", "damage of the weapon roll on an ordinary hit", p.expr(w, false)).
				Var("crit_damage", "damage of the weapon roll on a crit", p.expr(w, true)).
				Event("hit", "the attack hits", atk.Success()).
				Event("crit", "natural 20: hits, double damage", crit).
				Event("down_in_one_attack", "damage ≥ the target's Condition", expr.Ge(dmg, num(cond)))
			return spec, nil
		},
	}
}

// frenzyRange is how far frenzy widens the friendly-fire range: naturals
// up to 1 + frenzyRange.
const frenzyRange = 5

// dodgeTN is the TN of the AGL roll of a character an astray attack lands
// on (grim.friendly_fire), before the attacker's COR help.
const dodgeTN = 11

// lightAttackCOR are the least COR for 2, 3, 4 attacks per turn with light
// weapons (1 below the first); lightAttackMaxCOR ends the table.
var lightAttackCOR = []int{3, 6, 9}

const lightAttackMaxCOR = 10

// attacksPerTurn is m(COR), the attacks per turn with light weapons
// (docs/mechanics.md#grim-light_attacks).
func attacksPerTurn(cor int, frenzy bool) int {
	m := 1
	for _, least := range lightAttackCOR {
		if cor >= least {
			m++
		}
	}
	if frenzy {
		m++
	}
	return m
}

// lightAttackTable writes the table of attacksPerTurn: "1–2 → 1, 3–5 → 2,
// 6–8 → 3, 9–10 → 4".
func lightAttackTable() string {
	var rows []string
	lo := 1
	for i, hi := range append(append([]int(nil), lightAttackCOR...), lightAttackMaxCOR+1) {
		rows = append(rows, fmt.Sprintf("%d–%d → %d", lo, hi-1, i+1))
		lo = hi
	}
	return strings.Join(rows, ", ")
}

// sumOf is the field-wise sum of n independent copies of one, a node whose
// records hold counts in the given slots (and start values elsewhere).
func sumOf(one mechanics.Node, n int, name string, slots ...mechanics.Slot) mechanics.Node {
	acc := one
	for i := 1; i < n; i++ {
		acc = mechanics.Combine{X: acc, Y: one, Name: name, F: func(a, b int) int {
			for _, s := range slots {
				a = s.Set(a, s.Get(a)+s.Get(b))
			}
			return a
		}}
	}
	return acc
}

func lightAttacks() *mechanics.Mechanic {
	const id = "grim.light_attacks"
	opts := damageOptionsOf(id)
	return &mechanics.Mechanic{
		ID:      id,
		Summary: fmt.Sprintf("light weapons: 1–%d attacks per turn by COR (%s); damage per turn", len(lightAttackCOR)+1, lightAttackTable()),
		Doc: fmt.Sprintf("COR %s (≤ 0 → 1) attacks with light weapons; frenzy +1; unarmed counts as light. The "+
			"attacks are independent; per-turn damage is the m-fold convolution of the per-attack mixture (miss, hit, crit).", lightAttackTable()),
		Params:  append(append([]mechanics.Param(nil), damageParams...), ip("frenzy", 0, 0, 1, fmt.Sprintf("1: frenzy, one more attack (and friendly fire up to %d)", 1+frenzyRange))),
		Options: mechanics.Options(opts.declared()...),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			p := opts.pipeline(c)
			frenzy := c.Int("frenzy") == 1
			ff := 1
			if frenzy {
				ff += frenzyRange
			}
			atk := coreAttack("", c.Int("cor")+c.Int("modifier"), c.Int("tn"), ff)
			m := attacksPerTurn(c.Int("cor"), frenzy)
			cond := c.Int("condition")
			rec := mechanics.NewRecord(
				mechanics.Int("damage", 0, m*p.maxDamage(), "damage dealt this turn (the sum over the attacks)"),
				mechanics.Int("attacks_hit", 0, m, "attacks that hit this turn"),
				mechanics.Int("friendly_fire_triggers", 0, m, "attacks whose natural is ≤ f (not 20): misses that trigger friendly fire"))
			sDmg, sHit, sFF := rec.Slot("damage"), rec.Slot("attacks_hit"), rec.Slot("friendly_fire_triggers")
			// One attack's contribution to the turn; the damage goes through
			// the pipeline's Go form because the turn sums it.
			start := rec.Start()
			one := mechanics.Combine{X: d20, Y: weaponNode(p.weapon), Name: "attack", F: func(n, w int) int {
				o := start
				if atk.Holds(n) {
					o = sHit.Set(sDmg.Set(o, p.damage(w, n == 20)), 1)
				}
				return sFF.SetBool(o, n <= ff && n != 20)
			}}
			spec := &mechanics.Spec{Record: rec, Outcome: sumOf(one, m, "turn", sDmg, sHit, sFF)}
			spec.Report("damage", "attacks_hit", "friendly_fire_triggers").
				Event("down_this_turn", "damage this turn ≥ the target's Condition", expr.Ge(field("damage"), num(cond))).
				Event("any_friendly_fire", "at least one attack triggers friendly fire", expr.Gt(field("friendly_fire_triggers"), num(0)))
			return spec, nil
		},
	}
}

var optTogTN = mechanics.SwitchOf("grim.heavy_weapon", "tog_tn", "11: the TOG roll is against 11, whatever the attack's tn [not in the seed]; 10_plus_deficit: against 10 + the deficit", togTN11, togTN10PlusDeficit)

func heavyWeapon() *mechanics.Mechanic {
	const id = "grim.heavy_weapon"
	opts := damageOptionsOf(id)
	ps := append(append([]mechanics.Param(nil), damageParams...), ip("requirement", 3, -10, 10, "the weapon's TOG requirement"))
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "heavy weapon below its TOG requirement: a TOG roll to swing at all, and friendly fire on naturals 1…1+deficit",
		Doc: "A weaker wielder must pass a TOG roll before each attack or cannot swing; the friendly-fire range widens to naturals " +
			"1…1 + (requirement − TOG). Heavy weapons never get extra attacks from COR. P(hit) = P(TOG roll) · P_attack(f).",
		Params:  ps,
		Options: mechanics.Options(append([]mechanics.Declared{optTogTN}, opts.declared()...)...),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			p := opts.pipeline(c)
			deficit := max(0, c.Int("requirement")-p.tog)
			tn := 11
			if optTogTN.Of(c) == togTN10PlusDeficit {
				tn = 10 + deficit
			}
			ff := 1 + deficit
			atk := coreAttack("natural", c.Int("cor")+c.Int("modifier"), c.Int("tn"), ff)
			// The TOG roll is made only below the requirement.
			var swing mechanics.Node = mechanics.Const{V: 1}
			if deficit > 0 {
				tog := coreCheck("", p.tog, tn)
				swing = mechanics.Map{X: d20, Name: "TOG roll", F: func(n int) int {
					if tog.Holds(n) {
						return 1
					}
					return 0
				}}
			}
			lo, hi := weaponRange(p.weapon)
			rec := mechanics.NewRecord(mechanics.Flag("can_swing", "the TOG roll succeeds (or the wielder meets the requirement)"),
				kit.Natural("natural", 20), mechanics.Int("weapon", lo, hi, "weapon roll W (the dice sum)"))
			out := kit.Roll(rec, part{Field: "can_swing", Node: swing}, part{Field: "natural", Node: d20}, part{Field: "weapon", Node: weaponNode(p.weapon)})
			n, w, swings := field("natural"), field("weapon"), field("can_swing")
			crit := expr.Eq(n, num(20))
			dmg := expr.Cond(atk.Success(), expr.Cond(crit, p.expr(w, true), p.expr(w, false)), num(0))
			spec := &mechanics.Spec{Record: rec, Outcome: out}
			spec.Var("damage", "damage of one attack action (0 when the wielder cannot swing or misses)", expr.Cond(swings, dmg, num(0))).
				Report("can_swing").
				Event("hit", "swings and hits", expr.And(swings, atk.Success())).
				Event("crit", "swings and rolls a natural 20", expr.And(swings, crit)).
				Event("friendly_fire_trigger", "swings and rolls a natural ≤ f (not 20)", expr.And(swings, expr.Le(n, num(ff)), expr.Ne(n, num(20))))
			return spec, nil
		},
	}
}

var (
	optExtendedRange = mechanics.SwitchOf("grim.friendly_fire", "extended_range_naturals",
		"miss_and_ff: naturals 2…f miss the intended target and trigger friendly fire; resolve_and_ff: they are resolved normally and also trigger it",
		missAndFF, resolveAndFF)
	optTrigger       = mechanics.SwitchOf("grim.friendly_fire", "trigger", "always (the text's 'may' taken as always); gm_probability: gm_percent", triggerAlways, triggerGMProbability)
	optIncludeTarget = mechanics.SwitchOf("grim.friendly_fire", "candidates_include_target", "yes: the intended target can be picked", yes)
)

func friendlyFire() *mechanics.Mechanic {
	const id = "grim.friendly_fire"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: fmt.Sprintf("friendly fire: naturals ≤ f send the attack at a random nearby character, who rolls AGL vs %d − the attacker's COR", dodgeTN),
		Doc: fmt.Sprintf("A natural 1 (or up to f = 1 + the TOG deficit of a heavy weapon, +%d in frenzy) sends the attack at a target the GM picks at "+
			"random among k candidates (the intended target included); an ally picked rolls AGL against %d (not the attack's tn), lowered by the attacker's COR if "+
			"the attacker tries to avoid them; an enemy picked gets no COR help. Per turn with m attacks.", frenzyRange, dodgeTN),
		Params: []mechanics.Param{attr("tog", "attacker's TOG", 1), ip("requirement", 1, -10, 10, "weapon's TOG requirement (heavy weapons)"),
			ip("frenzy", 0, 0, 1, fmt.Sprintf("1: frenzy or amok (+%d to the friendly-fire range)", frenzyRange)), attr("cor", "attacker's COR", 3),
			ip("tn", 12, 1, 40, "TN against the intended target"),
			ip("candidates", 3, 1, 20, "k: characters the attack may land on, the intended target included"), ip("allies", 1, 0, 19, "a: allies among them"),
			attr("ally_agl", "an ally's AGL", 2), attr("enemy_agl", "another enemy's AGL", 2), ip("avoid", 1, 0, 1, "1: the attacker tries to avoid allies (their TN is lowered by COR)"),
			ip("attacks", 1, 1, 8, "attacks this turn (m)"), ip("gm_percent", 100, 0, 100, "with opt.trigger=gm_probability: percent chance the GM applies friendly fire")},
		Options: mechanics.Options(optExtendedRange, optTrigger, optIncludeTarget),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			k, a := c.Int("candidates"), c.Int("allies")
			if a >= k {
				return nil, fmt.Errorf("allies=%d must be fewer than candidates=%d (the intended target is one of them)", a, k)
			}
			ff := 1 + max(0, c.Int("requirement")-c.Int("tog")) + frenzyRange*c.Int("frenzy")
			cor, tn, m := c.Int("cor"), c.Int("tn"), c.Int("attacks")
			allyTN, enemyTN := dodgeTN, dodgeTN
			if c.Int("avoid") == 1 {
				allyTN -= cor
			}
			pct := 100
			if optTrigger.Of(c) == triggerGMProbability {
				pct = c.Int("gm_percent")
			}
			resolve := optExtendedRange.Of(c) == resolveAndFF
			_ = optIncludeTarget.Of(c) // its only value: the intended target is one of the k candidates
			intended, resolved := coreAttack("", cor, tn, ff), coreAttack("", cor, tn, 1)
			allyDodge, enemyDodge := coreCheck("", c.Int("ally_agl"), allyTN), coreCheck("", c.Int("enemy_agl"), enemyTN)

			// One attack: its natural, whether the GM applies friendly fire,
			// the candidate picked (1 the intended target, 2…a+1 allies, the
			// rest other enemies) and that character's AGL natural.
			attack := mechanics.NewRecord(kit.Natural("natural", 20), mechanics.Flag("gm_applies", "the GM applies friendly fire"),
				mechanics.Int("pick", 1, k, "the candidate the attack lands on"), kit.Natural("dodge", 20))
			sN, sG, sP, sD := attack.Slot("natural"), attack.Slot("gm_applies"), attack.Slot("pick"), attack.Slot("dodge")
			raw := kit.Roll(attack, part{Field: "natural", Node: d20}, part{Field: "gm_applies", Node: coin(pct)}, part{Field: "pick", Node: mechanics.D(k)}, part{Field: "dodge", Node: d20})

			rec := mechanics.NewRecord(
				mechanics.Int("allies_hit", 0, m, "allies hit by friendly fire this turn"),
				mechanics.Int("friendly_fire_events", 0, m, "attacks that went astray this turn"),
				mechanics.Int("intended_hits", 0, m, "attacks that hit the intended target"),
				mechanics.Int("other_enemies_hit", 0, m, "other enemies hit by an astray attack"))
			sAlly, sFF, sInt, sEnemy := rec.Slot("allies_hit"), rec.Slot("friendly_fire_events"), rec.Slot("intended_hits"), rec.Slot("other_enemies_hit")
			start := rec.Start()
			one := mechanics.Map{X: raw, Name: "attack", F: func(x int) int {
				n := sN.Get(x)
				hit := intended.Holds(n)
				if resolve && n > 1 {
					hit = resolved.Holds(n)
				}
				o := sInt.SetBool(start, hit)
				if n > ff || n == 20 || !sG.Bool(x) {
					return o // no friendly fire
				}
				o = sFF.Set(o, 1)
				switch p := sP.Get(x) - 1; {
				case p >= 1 && p <= a:
					o = sAlly.SetBool(o, !allyDodge.Holds(sD.Get(x)))
				case p > a:
					o = sEnemy.SetBool(o, !enemyDodge.Holds(sD.Get(x)))
				}
				return o
			}}
			spec := &mechanics.Spec{Record: rec, Outcome: sumOf(one, m, "turn", sAlly, sFF, sInt, sEnemy)}
			spec.Report("allies_hit", "friendly_fire_events", "intended_hits").
				Event("ally_hit_this_turn", "at least one ally hit", expr.Gt(field("allies_hit"), num(0))).
				Event("any_friendly_fire", "at least one attack went astray", expr.Gt(field("friendly_fire_events"), num(0))).
				Event("other_enemy_hit", "an astray attack hit another enemy", expr.Gt(field("other_enemies_hit"), num(0))).
				Event("intended_target_hit", "at least one attack hit the intended target", expr.Gt(field("intended_hits"), num(0)))
			return spec, nil
		},
	}
}
