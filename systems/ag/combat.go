package ag

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// Combat and harming spells: attack vs defence, DV × MoS against wound
// thresholds, and attacks until incapacitation.

// combatMechanics are the mechanics declared in combat.go.
func combatMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{attack(), attackDamage("ag.attack_damage"), attackDamage("ag.magic.harm")}
}

var attackParams = func() []mechanics.Param {
	ps := sideParams("", "attacker's attack skill + attribute", 3, 2)
	ps = append(ps, sideParams("defence_", "defender's Defense + Agility", 2, 2)...)
	return append(ps,
		ip("deception", 0, 0, 20, "deception δ: removes δ dice from both pools"),
		ip("aiming", 0, 0, 40, "aiming rounds r: adds r dice (r ≤ skill)"),
		ip("attacker_number", 1, 1, 20, "this is the n-th attacker on the defender this round"),
		ip("fixed_defence", 0, 0, 1, "1: the target is an object, location or unaware: defence is 1 + defence_modifier, no roll"))
}()

var (
	optMoveBonus = mechanics.SwitchOf("ag.attack", "move_bonus",
		"seed_reading: a moving target defends at "+moveBonuses(moveWalk)+"; none: movement adds nothing (fold your own table into defence_modifier)",
		moveBonusSeedReading, moveBonusNone)
	choiceMovement = mechanics.ChoiceOf("ag.attack", "target_movement", "the target's movement this round", movements...)
	optMultiple    = mechanics.SwitchOf("ag.attack", "multiple_attackers",
		"seed_special_rule: −1/−2/−3 for the second, third, fourth-and-later attacker; modifier_table: −1 per extra attacker, no cap",
		multipleSeedRule, multipleModifierTable)
)

// contest is the outcome of an attack or a spell against a target: the
// record of the totals, the node that rolls them, and the raw MoS (before
// the tie option) as an expression over the record. kernel builds a node of
// a function of the raw MoS straight from the rolls (a process kernel).
type contest struct {
	rec    *mechanics.Record
	node   mechanics.Node
	raw    expr.Expr
	kernel func(name string, f func(raw int) int) mechanics.Node
}

// opposedContest is a's total against b's (two independent totals
// compared), in the record fields an+"_total" and bn+"_total".
func opposedContest(a, b side, an, bn string, o CoreOptions) contest {
	rec := mechanics.NewRecord(
		mechanics.Int(an+"_total", 0, a.maxTotal(), "the "+an+"'s total T = max(0, R + A + M)"),
		mechanics.Int(bn+"_total", 0, b.maxTotal(), "the "+bn+"'s total T = max(0, R + A + M)"),
	)
	sa, sb, start := rec.Slot(an+"_total"), rec.Slot(bn+"_total"), rec.Start()
	return contest{
		rec: rec,
		node: mechanics.Combine{X: a.roll(o), Y: b.roll(o), Name: "totals", F: func(x, y int) int {
			return sb.Set(sa.Set(start, a.total(x)), b.total(y))
		}},
		raw: expr.Sub(expr.F(an+"_total"), expr.F(bn+"_total")),
		kernel: func(name string, f func(int) int) mechanics.Node {
			return mechanics.Combine{X: a.roll(o), Y: b.roll(o), Name: name, F: func(x, y int) int { return f(a.total(x) - b.total(y)) }}
		},
	}
}

// fixedContest is a's total, in the field an+"_total", against a fixed TN.
func fixedContest(a side, an string, tn int, o CoreOptions) contest {
	rec := mechanics.NewRecord(mechanics.Int(an+"_total", 0, a.maxTotal(), "the "+an+"'s total T = max(0, R + A + M)"))
	return contest{
		rec:  rec,
		node: kit.Encode(rec, rec.Slot(an+"_total"), mechanics.Map{X: a.roll(o), Name: "total", F: a.total}),
		raw:  expr.Sub(expr.F(an+"_total"), expr.K(int64(tn))),
		kernel: func(name string, f func(int) int) mechanics.Node {
			return mechanics.Map{X: a.roll(o), Name: name, F: func(x int) int { return f(a.total(x) - tn) }}
		},
	}
}

// maxPool is the largest pool a roll record holds (R ≤ n + 5 ≤ maxRoll).
const maxPool = maxRoll - 5

// attackContest is the attack of ag.attack (docs/mechanics.md#ag-attack):
// deception, aiming, the movement bonus and several attackers adjust the
// pools and the defence, then the attack is opposed by the defence roll or
// meets the fixed defence.
func attackContest(c mechanics.Config, o CoreOptions) (contest, error) {
	a, d := sideOf(c, ""), sideOf(c, "defence_")
	if c.Int("aiming") > a.n {
		return contest{}, fmt.Errorf("aiming=%d exceeds the skill %d (r ≤ skill)", c.Int("aiming"), a.n)
	}
	δ := c.Int("deception")
	a.n += c.Int("aiming") - δ
	d.n -= δ
	if a.n > maxPool {
		return contest{}, fmt.Errorf("the attack pool of %d dice (skill + aiming) exceeds the %d dice a roll can hold", a.n, maxPool)
	}
	d.m += choiceMovement.Of(c).bonus(optMoveBonus.Of(c))
	extra := c.Int("attacker_number") - 1
	if optMultiple.Of(c) == multipleModifierTable {
		d.m -= extra
	} else {
		d.m -= min(extra, 3)
	}
	if c.Int("fixed_defence") == 1 {
		return fixedContest(a, "attack", 1+d.m, o), nil
	}
	return opposedContest(a, d, "attack", "defence", o), nil
}

func attack() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.attack",
		Summary: "attack vs the defender's Defense + Agility roll (deception, aiming, several attackers, fixed defence)",
		Doc: fmt.Sprintf("An attack is contested by the defender's Defense + Agility roll. Deception δ removes δ dice from both pools, aiming adds r dice "+
			"(r ≤ skill); the target's movement adds to its defence (target_movement: %s, by opt.move_bonus); fold cover, lighting, range, "+
			"full defence +3 and the like into the two modifiers. Objects, locations and unaware targets have a fixed defence of 1 + modifiers. Hit ⇔ MoS ≥ 1.",
			moveBonuses(moveWalk)),
		Params:  attackParams,
		Options: coreWith(optNegativePool, optMultiple, optMoveBonus, choiceMovement),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			ct, err := attackContest(c, o)
			if err != nil {
				return nil, err
			}
			mos := reportedMoSExpr(ct.raw, o.Tie)
			hit := successExpr(mos, o.Tie)
			spec := &mechanics.Spec{Record: ct.rec, Outcome: ct.node}
			spec.Var("mos", "the attacker's MoS T_attack − T_defence (or − the fixed defence)", mos).
				Event("hit", "MoS ≥ 1 (or per the tie option)", hit).
				Event("tie", "raw MoS = 0", expr.Eq(ct.raw, expr.K(0))).
				Event("miss", "not a hit", expr.Not(hit)).
				Band("mos_band", "the attacker's seven MoS bands", bandLabels, bandExpr(mos))
			return spec, nil
		},
	}
}

var (
	optCriticalLimb = mechanics.SwitchOf("ag.attack_damage", "critical_limb",
		"sever_no_death: a critical on a limb severs it without killing; death: it kills like any critical", limbSeverNoDeath, limbDeath)
	optThresholdCompare = mechanics.SwitchOf("ag.attack_damage", "threshold_compare", "at_least: D ≥ threshold; greater_than: D > threshold", compareAtLeast, compareGreaterThan)
)

// damageOptions are the choices ag.attack_damage and ag.magic.harm declare
// under their own ids.
type damageOptions struct {
	location   mechanics.OptionOf[hitLocation]
	damageType mechanics.OptionOf[damageType]
	report     mechanics.OptionOf[attackReport]
}

func damageOptionsOf(id string) damageOptions {
	return damageOptions{
		location: mechanics.ChoiceOf(id, "location",
			"body: thresholds as given; head: aimed head/eye shot halves the thresholds; limb: an aimed limb shot", locationBody, locationHead, locationLimb),
		damageType: mechanics.ChoiceOf(id, "damage_type", "wounds (weapons, collisions) or bruises (unarmed, low-impact trauma)", damageWounds, damageBruises),
		report: mechanics.ChoiceOf(id, "report",
			"single_attack: one attack's damage and category; until_incapacitated: the chain of attacks", reportSingleAttack, reportUntilIncapacitated),
	}
}

func attackDamage(id string) *mechanics.Mechanic {
	harm := id == "ag.magic.harm"
	summary := "a hit deals DV × min(MoS, 6), compared with Flesh / Deep / Critical thresholds; attacks until incapacitation"
	doc := "A hit deals weapon DV × MoS (MoS capped at 6), compared with the target's thresholds: below Flesh scrapes, ≥ Flesh a flesh " +
		"wound (1 box), ≥ Deep a deep wound (2 boxes), ≥ Critical a critical (death). Aimed head shots halve the thresholds. With " +
		"report=until_incapacitated, repeated attacks fill the bruise and wound tracks (a full bruise track turns bruises into wounds) " +
		"until the wound track is full (bleeding out), a critical, or a knock-out."
	if harm {
		summary = "damaging spell: Restoration + Psyche vs the target's Psyche; DV = 1 + caster's Psyche, × min(MoS, 6)"
		doc = "Restoration + Psyche opposed by the target's Psyche roll; DV = 1 + the caster's Psyche, damage DV × min(MoS, 6) against the " +
			"thresholds as in ag.attack_damage."
	}
	do := damageOptionsOf(id)
	opts := []mechanics.Declared{do.location, optCriticalLimb, do.damageType, do.report, optThresholdCompare}
	if !harm {
		opts = append(opts, optNegativePool, optMultiple, optMoveBonus, choiceMovement)
	}
	return &mechanics.Mechanic{
		ID:      id,
		Summary: summary,
		Doc:     doc,
		Params:  damageParams(harm),
		Options: coreWith(opts...),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			d, err := do.hitDamageOf(c, harm)
			if err != nil {
				return nil, err
			}
			if do.report.Of(c) == reportUntilIncapacitated {
				return d.untilIncapacitated(c.Int("bruise_boxes"), c.Int("wound_boxes"), c.Int("attacks")), nil
			}
			return d.singleAttack(), nil
		},
	}
}

// damageParams are the parameters of ag.attack_damage (the attack's and
// the weapon's DV) or of ag.magic.harm (the caster's and the target's),
// then the thresholds and the two tracks.
func damageParams(harm bool) []mechanics.Param {
	var ps []mechanics.Param
	if harm {
		ps = append(sideParams("", "caster's Restoration + Psyche", 2, 2),
			ip("target_psyche", 2, 0, 20, "the target's Psyche (it resists with two dice + Psyche)"), ip("target_modifier", 0, -20, 20, "the target's modifiers"))
	} else {
		ps = append(append([]mechanics.Param(nil), attackParams...), ip("dv", 3, 0, 100, "weapon damage value DV (sweep 1–10)"))
	}
	ps = append(ps, thresholdParams(5, 10, 20)...)
	return append(ps, ip("bruise_boxes", 6, 1, 50, "bruise track boxes [placeholder 6]"), ip("wound_boxes", 6, 1, 50, "wound track boxes [placeholder 6]"),
		ip("attacks", 20, 1, 500, "with report=until_incapacitated: attacks simulated at most"))
}

// hitDamage is an attack or a harming spell as ag.attack_damage and
// ag.magic.harm decode it: the contest, the DV, the target's thresholds
// (halved for head shots) and what a critical does (a critical bruise
// knocks out; with sever_no_death a critical on a limb severs it).
type hitDamage struct {
	o       CoreOptions
	ct      contest
	dv      int
	th      kit.Thresholds
	bruises bool
	severs  bool
}

func (do damageOptions) hitDamageOf(c mechanics.Config, harm bool) (hitDamage, error) {
	if err := checkThresholds(c); err != nil {
		return hitDamage{}, err
	}
	d := hitDamage{o: coreOptionsOf(c)}
	if harm {
		a := sideOf(c, "")
		d.dv = 1 + a.a
		d.ct = opposedContest(a, side{2, c.Int("target_psyche"), c.Int("target_modifier")}, "caster", "target", d.o)
	} else {
		var err error
		if d.ct, err = attackContest(c, d.o); err != nil {
			return hitDamage{}, err
		}
		d.dv = c.Int("dv")
	}
	d.th = woundThresholds(c)
	d.th.Strict = optThresholdCompare.Of(c) == compareGreaterThan
	loc := do.location.Of(c)
	d.bruises = do.damageType.Of(c) == damageBruises
	if loc == locationHead {
		d.th = d.th.Scale(halfThresholds)
	}
	d.severs = loc == locationLimb && optCriticalLimb.Of(c) == limbSeverNoDeath && !d.bruises
	return d, nil
}

// untilIncapacitated is report=until_incapacitated: attacks until the
// target is incapacitated (trackChain), each attack's wound category the
// kernel.
func (d hitDamage) untilIncapacitated(bruiseBoxes, woundBoxes, attacks int) *mechanics.Spec {
	o := d.o
	kern := d.ct.kernel("category", func(raw int) int {
		mos := reportedMoS(raw, o.Tie)
		dmg := 0
		if success(mos, o.Tie) {
			dmg = d.dv * min(max(mos, 1), 6)
		}
		return d.th.Of(expr.Int(int64(dmg)))
	})
	critical := "critical"
	if d.severs {
		critical = "limb_lost"
	}
	return mechanics.ProcessSpec(trackChain(kern, bruiseBoxes, woundBoxes, d.bruises, attacks, critical))
}

// singleAttack is report=single_attack: one attack's damage and its
// category against the thresholds.
func (d hitDamage) singleAttack() *mechanics.Spec {
	mos := reportedMoSExpr(d.ct.raw, d.o.Tie)
	hit := successExpr(mos, d.o.Tie)
	damage := expr.Cond(hit, expr.Mul(expr.K(int64(d.dv)), expr.Clamp(mos, 1, 6)), expr.K(0))
	cat := d.th.Band(damage)
	// A critical is damage reaching the Critical threshold.
	critical := kit.Thresholds{Cuts: d.th.Cuts[catCritical-1:], Strict: d.th.Strict}.Band(damage)
	when := func(b bool) expr.Expr {
		if b {
			return critical
		}
		return expr.K(0)
	}
	spec := &mechanics.Spec{Record: d.ct.rec, Outcome: d.ct.node}
	spec.Vars = append(spec.Vars, mechanics.Var{Name: "damage", Doc: "DV × min(MoS, 6) on a hit, else 0", Expr: damage})
	spec.Var("mos", "the attacker's MoS", mos).
		Event("hit", "MoS ≥ 1 (or per the tie option)", hit).
		Event("one_shot_kill", "a critical that kills (not a severed limb, not a bruise knock-out)", when(!d.severs && !d.bruises)).
		Event("limb_lost", "a critical on a limb that severs it (opt.critical_limb=sever_no_death)", when(d.severs)).
		Event("knocked_out", "a critical bruise: out for 1d6 hours", when(d.bruises)).
		Band("category", "the damage against the Flesh / Deep / Critical thresholds (halved for head shots)", d.th.Labels, cat)
	return spec
}

// trackChain is the attacks-to-incapacitation chain on (bruise boxes, wound
// boxes): the kernel yields one attack's wound category; a flesh result
// fills 1 box, deep 2, a critical ends it; bruises that overflow a full
// bruise track become wounds; a full wound track is bleeding out. The
// absorbing states are bleeding_out, critical (named as given) and
// knocked_out (a critical bruise).
func trackChain(kern mechanics.Node, bb, wb int, bruises bool, horizon int, critical string) *mechanics.Process {
	track := mechanics.NewRecord(
		mechanics.Int("bruises", 0, bb, "bruise boxes filled"),
		mechanics.Int("wounds", 0, wb-1, "wound boxes filled"),
	)
	sb, sw := track.Slot("bruises"), track.Slot("wounds")
	p := &mechanics.Process{Homogeneous: true, Horizon: horizon, TimeUnit: "attack"}
	base := p.AddRecord(false, track)
	bleed := p.Add(true, "bleeding_out")
	crit := p.Add(true, critical)
	ko := p.Add(true, "knocked_out")
	p.Start = base + track.Start()
	p.Kernel = func(int) mechanics.Node { return kern }
	boxes := [...]int{catNone: 0, catFlesh: 1, catDeep: 2}
	tabulateMove(p, catNone, catCritical, func(s, cat int) int {
		if cat == catCritical {
			if bruises {
				return ko
			}
			return crit
		}
		code := s - base
		b, w := sb.Get(code), sw.Get(code)
		if bruises {
			b += boxes[cat]
			if b > bb {
				w += b - bb
				b = bb
			}
		} else {
			w += boxes[cat]
		}
		if w >= wb {
			return bleed
		}
		return base + sw.Set(sb.Set(code, b), w)
	})
	return p
}
