package ag

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
)

// §1.4 combat and §1.8 harm: attack vs defence, DV × MoS against wound
// thresholds, and attacks until incapacitation.

func init() {
	register(attack(), attackDamage("ag.attack_damage"), attackDamage("ag.magic.harm"))
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

// attackSpec is the attack of §1.4 as an opposed roll; the packed outcome
// decodes to the attacker's MoS.
func attackModel(c mechanics.Config, o CoreOptions, multiple string) (mechanics.Node, func(x int) int, error) {
	a, d := sideOf(c, ""), sideOf(c, "defence_")
	if c.Int("aiming") > a.n {
		return nil, nil, fmt.Errorf("aiming=%d exceeds the skill %d (r ≤ skill)", c.Int("aiming"), a.n)
	}
	δ := c.Int("deception")
	a.n += c.Int("aiming") - δ
	d.n -= δ
	if c.Opt("move_bonus") == "seed_reading" {
		d.m += map[string]int{"standing": 0, "walk": 1, "run": 2, "sprint": 3}[c.Opt("target_movement")]
	}
	extra := c.Int("attacker_number") - 1
	if multiple == "modifier_table" {
		d.m -= extra
	} else {
		d.m -= min(extra, 3)
	}
	if c.Int("fixed_defence") == 1 {
		tn := 1 + d.m
		return a.roll(o), func(x int) int { return a.total(x) - tn }, nil
	}
	pack := pairNode(a, d, o)
	return pack, func(x int) int {
		return a.total(pairActor.Get(x)) - d.total(pairOpponent.Get(x))
	}, nil
}

var optMoveBonus = opt("ag.attack", "move_bonus", "seed_reading: a moving target defends at +1 walk, +2 run, +3 sprint; none: movement adds nothing (fold your own table into defence_modifier)", "seed_reading", "none")

var choiceMovement = choice("ag.attack", "target_movement", "the target's movement this round", "standing", "walk", "run", "sprint")

var optMultiple = opt("ag.attack", "multiple_attackers", "seed_special_rule: −1/−2/−3 for the second, third, fourth-and-later attacker; modifier_table: −1 per extra attacker, no cap", "seed_special_rule", "modifier_table")

func attack() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.attack",
		Summary: "attack vs the defender's Defense + Agility roll (deception, aiming, several attackers, fixed defence)",
		Doc: "An attack is contested by the defender's Defense + Agility roll. Deception δ removes δ dice from both pools, aiming adds r dice " +
			"(r ≤ skill); fold cover, lighting, range, movement (walk +1, run +2, sprint +3), full defence +3 and the like into the two " +
			"modifiers. Objects, locations and unaware targets have a fixed defence of 1 + modifiers. Hit ⇔ MoS ≥ 1 (mechanics.md §1.4).",
		Params:  attackParams,
		Options: withCore(optNegativePool.Option, optMultiple, optMoveBonus, choiceMovement),
		Outputs: []string{"distributions: mos", "events: hit, tie, miss", "bands: mos_band"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			out, raw, err := attackModel(c, o, c.Opt("multiple_attackers"))
			if err != nil {
				return nil, err
			}
			mos := func(x int) int { return reportedMoS(raw(x), o.Tie) }
			return &mechanics.Spec{
				Outcome: out,
				Vars:    []mechanics.Var{{Name: "mos", Of: mos}},
				Events: []mechanics.Event{
					{Name: "hit", Of: func(x int) bool { return success(mos(x), o.Tie) }},
					{Name: "tie", Of: func(x int) bool { return raw(x) == 0 }},
					{Name: "miss", Of: func(x int) bool { return !success(mos(x), o.Tie) }},
				},
				Bands: []mechanics.Bands{{Name: "mos_band", Labels: BandLabels, Of: func(x int) int { return Band(mos(x)) }}},
			}, nil
		},
	}
}

func attackDamage(id string) *mechanics.Mechanic {
	harm := id == "ag.magic.harm"
	var ps []mechanics.Param
	summary := "a hit deals DV × min(MoS, 6), compared with Flesh / Deep / Critical thresholds; attacks until incapacitation"
	doc := "A hit deals weapon DV × MoS (MoS capped at 6), compared with the target's thresholds: below Flesh scrapes, ≥ Flesh a flesh " +
		"wound (1 box), ≥ Deep a deep wound (2 boxes), ≥ Critical a critical (death). Aimed head shots halve the thresholds. With " +
		"report=until_incapacitated, repeated attacks fill the bruise and wound tracks (a full bruise track turns bruises into wounds) " +
		"until the wound track is full (bleeding out), a critical, or a knock-out (mechanics.md §1.4)."
	if harm {
		ps = append(sideParams("", "caster's Restoration + Psyche", 2, 2),
			ip("target_psyche", 2, 0, 20, "the target's Psyche (it resists with two dice + Psyche)"), ip("target_modifier", 0, -20, 20, "the target's modifiers"))
		summary = "damaging spell: Restoration + Psyche vs the target's Psyche; DV = 1 + caster's Psyche, × min(MoS, 6)"
		doc = "Restoration + Psyche opposed by the target's Psyche roll; DV = 1 + the caster's Psyche, damage DV × min(MoS, 6) against the " +
			"thresholds as in ag.attack_damage (mechanics.md §1.8)."
	} else {
		ps = append(append([]mechanics.Param(nil), attackParams...), ip("dv", 3, 0, 100, "weapon damage value DV (sweep 1–10)"))
	}
	ps = append(ps, thresholdParams(5, 10, 20)...)
	ps = append(ps, ip("bruise_boxes", 6, 1, 50, "bruise track boxes [placeholder 6]"), ip("wound_boxes", 6, 1, 50, "wound track boxes [placeholder 6]"),
		ip("attacks", 20, 1, 500, "with report=until_incapacitated: attacks simulated at most"))
	opts := withCore(
		choice(id, "location", "body: thresholds as given; head: aimed head/eye shot halves the thresholds; limb: an aimed limb shot", "body", "head", "limb"),
		opt("ag.attack_damage", "critical_limb", "sever_no_death: a critical on a limb severs it without killing; death: it kills like any critical", "sever_no_death", "death"),
		choice(id, "damage_type", "wounds (weapons, collisions) or bruises (unarmed, low-impact trauma)", "wounds", "bruises"),
		choice(id, "report", "single_attack: one attack's damage and category; until_incapacitated: the chain of attacks", "single_attack", "until_incapacitated"),
		opt("ag.attack_damage", "threshold_compare", "at_least: D ≥ threshold; greater_than: D > threshold", "at_least", "greater_than"))
	if !harm {
		opts = append(opts, optNegativePool.Option, optMultiple, optMoveBonus, choiceMovement)
	}
	return &mechanics.Mechanic{
		ID:      id,
		Summary: summary,
		Doc:     doc,
		Params:  ps,
		Options: opts,
		Outputs: []string{"single_attack — distributions: damage, mos; events: hit, one_shot_kill; bands: category (none/flesh/deep/critical)",
			"until_incapacitated — time (attacks), events absorbed:bleeding_out / critical / knocked_out, S(t)"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			if err := checkThresholds(c); err != nil {
				return nil, err
			}
			o := coreOptionsOf(c)
			var out mechanics.Node
			var raw func(int) int
			dv := 0
			if harm {
				a := sideOf(c, "")
				dv = 1 + a.a
				t := side{2, c.Int("target_psyche"), c.Int("target_modifier")}
				out = mechanics.Combine{X: a.roll(o), Y: t.roll(o), Name: "caster,target", F: func(x, y int) int { return a.total(x) - t.total(y) }}
				raw = func(x int) int { return x }
			} else {
				var err error
				if out, raw, err = attackModel(c, o, c.Opt("multiple_attackers")); err != nil {
					return nil, err
				}
				dv = c.Int("dv")
			}
			th := thresholdsOf(c)
			th.greaterThan = c.Opt("threshold_compare") == "greater_than"
			mult := 1.0
			if c.Opt("location") == "head" {
				mult = 0.5
			}
			mos := func(x int) int { return reportedMoS(raw(x), o.Tie) }
			damage := func(x int) int {
				if !success(mos(x), o.Tie) {
					return 0
				}
				return dv * min(max(mos(x), 1), 6)
			}
			cat := func(x int) int { return th.category(damage(x), mult) }
			severs := c.Opt("location") == "limb" && c.Opt("critical_limb") == "sever_no_death" && c.Opt("damage_type") == "wounds"
			if c.Opt("report") == "until_incapacitated" {
				kern := mechanics.Map{X: out, Name: "category", F: cat}
				p := trackChain(kern, c.Int("bruise_boxes"), c.Int("wound_boxes"), c.Opt("damage_type") == "bruises", c.Int("attacks"))
				if severs {
					p.States[len(p.States)-2] = "limb_lost"
				}
				return mechanics.ProcessSpec(p), nil
			}
			return &mechanics.Spec{
				Outcome: out,
				Vars:    []mechanics.Var{{Name: "damage", Of: damage}, {Name: "mos", Of: mos}},
				Events: []mechanics.Event{
					{Name: "hit", Of: func(x int) bool { return success(mos(x), o.Tie) }},
					{Name: "one_shot_kill", Doc: "a critical that kills (not a severed limb, not a bruise knock-out)", Of: func(x int) bool {
						return cat(x) == catCritical && !severs && c.Opt("damage_type") == "wounds"
					}},
					{Name: "limb_lost", Of: func(x int) bool { return cat(x) == catCritical && severs }},
					{Name: "knocked_out", Doc: "a critical bruise: out for 1d6 hours", Of: func(x int) bool {
						return cat(x) == catCritical && c.Opt("damage_type") == "bruises"
					}},
				},
				Bands: []mechanics.Bands{{Name: "category", Labels: categoryLabels, Of: cat}},
			}, nil
		},
	}
}

// trackChain is the attacks-to-incapacitation chain on (bruise boxes, wound
// boxes): a flesh result fills 1 box, deep 2, a critical ends it; bruises
// that overflow a full bruise track become wounds; a full wound track is
// bleeding out.
func trackChain(kern mechanics.Node, bb, wb int, bruises bool, horizon int) *mechanics.Process {
	p := &mechanics.Process{Homogeneous: true, Horizon: horizon, TimeUnit: "attack"}
	idx := func(b, w int) int { return b*wb + w }
	for b := 0; b <= bb; b++ {
		for w := 0; w < wb; w++ {
			p.Add(false, fmt.Sprintf("bruises %d wounds %d", b, w))
		}
	}
	bleed := p.Add(true, "bleeding_out", "critical", "knocked_out")
	crit, ko := bleed+1, bleed+2
	p.Kernel = func(int) mechanics.Node { return kern }
	p.Move = func(_, s, cat int) int {
		b, w := s/wb, s%wb
		boxes := map[int]int{catNone: 0, catFlesh: 1, catDeep: 2}[cat]
		if cat == catCritical {
			if bruises {
				return ko
			}
			return crit
		}
		if bruises {
			b += boxes
			if b > bb {
				w += b - bb
				b = bb
			}
		} else {
			w += boxes
		}
		if w >= wb {
			return bleed
		}
		return idx(b, w)
	}
	return p
}
