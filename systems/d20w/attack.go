package d20w

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// The switches of d20w.attack (docs/mechanics.md#d20w-attack), shared by
// every mechanic built on an attack roll.
var (
	optAttackPairing = mechanics.ChoiceOf("d20w.attack", "pairing",
		fmt.Sprintf("who attacks whom: pc_npc (the PC rolls d20 + A against the NPC's %[1]d + D), npc_pc (the PC rolls its Defence against the NPC's "+
			"%[1]d + A and must strictly beat it), pc_pc (both roll), npc_npc (per opt.npc_vs_npc)", take10),
		pcVsNPC, npcVsPC, pcVsPC, npcVsNPC)
	optHeroic = mechanics.ChoiceOf("d20w.attack", "heroic",
		"whether the defender has heroic class levels: yes adds defender_bcb to its Defence bonus (so defence leaves the BCB out)", heroicNo, heroicYes)
	optCritNeedsHit = mechanics.SwitchOf("d20w.attack", "crit_needs_hit",
		"yes: a natural in the threat range crits only if the total also hits; auto_hit: a natural in the range always hits and crits",
		critNeedsHitYes, critAutoHit)
	optPvPCritSource = mechanics.SwitchOf("d20w.attack", "pvp_crit_source",
		"when both roll: attacker_natural (only the attacker's high natural threatens) or either (also the defender's natural ≤ w)",
		critSourceAttacker, critSourceEither)
	optNPCvsNPC = mechanics.SwitchOf("d20w.attack", "npc_vs_npc",
		fmt.Sprintf("deterministic: two NPCs both take %d, so the attack hits or misses for certain and never crits; both_roll: they roll as PCs do", take10),
		npcDeterministic, npcBothRoll)
	optNPCSaves = mechanics.SwitchOf("d20w.core", "npc_saves",
		fmt.Sprintf("roll: every target rolls its saving throws (the page lists only attack, defence and manoeuvres as take-%[1]d); "+
			"take_10: a target that takes %[1]d on Defence also takes %[1]d on its saves", take10),
		npcSavesRoll, npcSavesTake10)
)

// attackOpts are the switches an attack-based mechanic declares.
var attackOpts = []mechanics.Declared{optAttackPairing, optCritNeedsHit, optPvPCritSource, optNPCvsNPC, optNaturals}

// attackOptions are the decoded switches of an attack roll.
type attackOptions struct {
	pairing  pairing
	needsHit critNeedsHit
	source   pvpCritSource
	npc      npcPair
	naturals naturalsRule
}

func attackOptionsOf(c mechanics.Config) attackOptions {
	return attackOptions{optAttackPairing.Of(c), optCritNeedsHit.Of(c), optPvPCritSource.Of(c), optNPCvsNPC.Of(c), optNaturals.Of(c)}
}

// effective is the pairing as rolled: two NPCs that both roll are rolled
// like two PCs.
func (o attackOptions) effective() pairing {
	if o.pairing == npcVsNPC && o.npc == npcBothRoll {
		return pcVsPC
	}
	return o.pairing
}

// attackRule is one attack roll of d20w.attack: hit ⇔ T_attack ≥ T_defence (match
// or beat; an NPC counts 10), crit on a natural in the threat range of
// width w: the attacker's natural ≥ 21 − w, or the defender's natural ≤ w.
type attackRule struct {
	contest
	threat int
	// actorThreat: the attacker's high natural threatens; targetThreat:
	// the defender's low natural threatens.
	actorThreat, targetThreat bool
	autoHit                   bool
}

// rule builds the attack of bonus a against Defence bonus d with threat
// width w, the naturals in the fields attack_roll and defence_roll.
func (o attackOptions) rule(a, d, w int) attackRule {
	p := o.effective()
	att, def := side{bonus: a}, side{bonus: d}
	if p.actorRolls() {
		att.field = "attack_roll"
	}
	if p.targetRolls() {
		def.field = "defence_roll"
	}
	nat := o.naturals == naturalsAllRolls
	return attackRule{
		contest:      contest{actor: att, target: def, actorNaturals: nat, targetNaturals: nat},
		threat:       w,
		actorThreat:  att.rolls(),
		targetThreat: def.rolls() && (!att.rolls() || o.source == critSourceEither),
		autoHit:      o.needsHit == critAutoHit,
	}
}

// threatens is "a natural in the threat range" as an expression.
func (r attackRule) threatens() expr.Expr {
	var terms []expr.Expr
	if r.actorThreat {
		terms = append(terms, expr.Ge(expr.F(r.actor.field), num(21-r.threat)))
	}
	if r.targetThreat {
		terms = append(terms, expr.Le(expr.F(r.target.field), num(r.threat)))
	}
	return expr.Or(terms...)
}

// hit is the attack's hit.
func (r attackRule) hit() expr.Expr {
	if r.autoHit {
		return expr.Or(r.threatens(), r.success())
	}
	return r.success()
}

// crit is the attack's critical hit.
func (r attackRule) crit() expr.Expr {
	if r.autoHit {
		return r.threatens()
	}
	return expr.And(r.hit(), r.threatens())
}

// threatOf, hitOf and critOf are the same in Go, for the naturals na
// (attacker) and nd (defender).
func (r attackRule) threatOf(na, nd int) bool {
	return (r.actorThreat && na >= 21-r.threat) || (r.targetThreat && nd <= r.threat)
}

func (r attackRule) hitOf(na, nd int) bool {
	return (r.autoHit && r.threatOf(na, nd)) || r.holds(na, nd)
}

func (r attackRule) critOf(na, nd int) bool { return r.threatOf(na, nd) && r.hitOf(na, nd) }

// Outcome categories of one attack roll.
const (
	catMiss = iota
	catHit
	catCrit
)

// category is the outcome of the attack as a node: catMiss, catHit or
// catCrit, from its own dice. With crits off, a crit counts as a hit.
func (r attackRule) category(crits bool) mechanics.Node {
	f := func(na, nd int) int {
		switch {
		case crits && r.critOf(na, nd):
			return catCrit
		case r.hitOf(na, nd):
			return catHit
		}
		return catMiss
	}
	switch {
	case r.actor.rolls() && r.target.rolls():
		return mechanics.Combine{X: d20, Y: d20, Name: "attack", F: f}
	case r.actor.rolls():
		return mechanics.Map{X: d20, Name: "attack", F: func(n int) int { return f(n, 0) }}
	case r.target.rolls():
		return mechanics.Map{X: d20, Name: "attack", F: func(n int) int { return f(0, n) }}
	}
	return mechanics.Const{V: f(0, 0)}
}

// doc explains the hit of the attack in words: the inequality of its
// pairing, and the naturals and threats that decide beside it.
func (r attackRule) doc() string {
	var s string
	switch {
	case r.deterministic():
		return fmt.Sprintf("no die is rolled: %[1]d + A ≥ %[1]d + D decides", take10)
	case !r.actor.rolls():
		s = fmt.Sprintf("the PC rolls Defence: hit ⇔ %d + A ≥ N_d + D (the PC must strictly beat the NPC to avoid the hit)", take10)
	case !r.target.rolls():
		s = fmt.Sprintf("hit ⇔ N_a + A ≥ %d + D (match or beat)", take10)
	default:
		s = "hit ⇔ N_a + A ≥ N_d + D (match or beat)"
	}
	switch {
	case r.useActor():
		s += "; the attacker's natural 20 always hits and its 1 always misses (opt.naturals=all_rolls)"
	case r.useTarget():
		s += "; the PC's natural 20 on Defence always avoids the hit and its 1 is always hit (opt.naturals=all_rolls)"
	}
	if r.autoHit {
		s += "; a natural in the threat range always hits (opt.crit_needs_hit=auto_hit)"
	}
	return s
}

// saveRule is a saving throw of the target against a DC: success ⇔
// N + bonus ≥ DC (match or beat), or 10 + bonus for a target that takes 10;
// naturals decide only under opt.naturals=all_rolls.
type saveRule struct {
	check  kit.Check
	rolls  bool
	bonus  int
	target int
}

// saveOf builds the target's save: it rolls unless it takes 10 on Defence
// in this pairing and opt.npc_saves says take_10.
func saveOf(o attackOptions, npc npcSaves, bonus, dc int) saveRule {
	rolls := o.effective().targetRolls() || npc == npcSavesRoll
	ch := kit.Check{Field: "save_roll", Sides: 20, Bonus: bonus, Target: dc, Cmp: mechanics.GE, AutoSucceed: 21}
	if o.naturals == naturalsAllRolls {
		ch.AutoFail, ch.AutoSucceed = 1, 20
	}
	return saveRule{check: ch, rolls: rolls, bonus: bonus, target: dc}
}

// success is the save's success as an expression.
func (s saveRule) success() expr.Expr {
	if !s.rolls {
		return expr.Ge(num(take10+s.bonus), num(s.target))
	}
	return s.check.Success()
}

// doc states the save's inequality.
func (s saveRule) doc() string {
	if !s.rolls {
		return fmt.Sprintf("%[1]d + %[2]d ≥ %[3]d (the target takes %[1]d)", take10, s.bonus, s.target)
	}
	return fmt.Sprintf("N + %d ≥ %d (match or beat)", s.bonus, s.target)
}

// holds is the save's success for the natural n, in Go.
func (s saveRule) holds(n int) bool {
	if !s.rolls {
		return take10+s.bonus >= s.target
	}
	return s.check.Holds(n)
}

// node is 1 when the save succeeds and 0 when it fails, from its own die.
func (s saveRule) node() mechanics.Node {
	if !s.rolls {
		return mechanics.Const{V: bit(s.holds(0))}
	}
	return mechanics.Map{X: d20, Name: "save", F: func(n int) int { return bit(s.holds(n)) }}
}

func (s saveRule) field() []mechanics.Field {
	if !s.rolls {
		return nil
	}
	return []mechanics.Field{mechanics.Int("save_roll", 1, 20, "natural d20 of "+fieldWho["save_roll"])}
}

// attackParams are the parameters of an attack roll.
func attackParams() []mechanics.Param {
	return []mechanics.Param{
		ip("attack", 5, -20, 40, "attack bonus A: BCB + STR or DEX modifier + other modifiers"),
		ip("defence", 3, -20, 40, "Defence bonus D: DEX modifier + armour + shield + other modifiers, + BCB for a defender with heroic class levels"),
		ip("threat", 1, 1, 10, "threat width w: 1 crits on a natural 20 only, 2 on 19–20, …; for a PC defender, naturals ≤ w on Defence"),
	}
}

func attack() *mechanics.Mechanic {
	params := append(attackParams(), ip("defender_bcb", 2, 0, 30, "the defender's Base Combat Bonus, added to its Defence when heroic=yes"))
	// heroic=yes adds defender_bcb: D must leave the BCB out, or a heroic
	// defender's BCB counts twice.
	params[1].Doc = "the Defence bonus without any BCB: DEX modifier + armour + shield + other modifiers (a heroic defender's BCB " +
		"is added by heroic=yes from defender_bcb, never here)"
	return &mechanics.Mechanic{
		ID:      "d20w.attack",
		Summary: "attack vs Defence, match or beat; threat ranges and criticals from the defence roll",
		Doc: fmt.Sprintf("Attack = d20 + A, Defence = d20 + D, with A = attack and D = defence, + defender_bcb for a heroic defender "+
			"(heroic=yes); an NPC takes %[1]d instead of rolling. The attacker hits on a match or a beat "+
			"(T_a ≥ T_d): PC→NPC N_a + A ≥ %[1]d + D; NPC→PC %[1]d + A ≥ N_d + D (the PC must strictly beat the NPC); PC→PC N_a + A ≥ N_d + D. ", take10) +
			"A critical hit: the attacker's natural ≥ 21 − w, or a PC defender's natural ≤ w when an NPC attacks (and, with " +
			"opt.pvp_crit_source=either, when a PC does); by default it needs the hit as well. Naturals decide the hit only with " +
			"opt.naturals=all_rolls, and then on one die: PC→NPC the attacker's natural 20 always hits and its 1 always misses; " +
			fmt.Sprintf("NPC→PC (the NPC takes %[1]d) the PC's Defence natural 20 always avoids the hit and its 1 is always hit; PC→PC (and "+
				"NPC→NPC with opt.npc_vs_npc=both_roll) only the attacker's natural 20 and 1 decide, the defender's natural counts "+
				"only as a threat (opt.pvp_crit_source=either); NPC→NPC taking %[1]d rolls no die.", take10),
		Params:  params,
		Options: mechanics.Options(append([]mechanics.Declared{optHeroic}, attackOpts...)...),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := attackOptionsOf(c)
			d := c.Int("defence")
			if optHeroic.Of(c) == heroicYes {
				d += c.Int("defender_bcb")
			}
			r := o.rule(c.Int("attack"), d, c.Int("threat"))
			rec := mechanics.NewRecord(r.fields()...)
			spec := &mechanics.Spec{Record: rec, Outcome: rollNaturals(rec)}
			hit, crit := r.hit(), r.crit()
			spec.Var("margin", "T_attack − T_defence: ≥ 0 is a hit (match or beat), before any critical rule", r.margin())
			spec.Vars = append(spec.Vars, mechanics.Var{Name: "crit_if_hit", Doc: "1 for a critical hit, 0 for an ordinary one, given a hit: its mean is P(crit | hit)",
				Expr: crit, When: hit, Otherwise: "a miss"})
			spec.Var("crit_effects", "critical effects per attack (one per critical hit): its mean is E[crit effects per attack]", crit).
				Event("hit", r.doc(), hit).
				Event("crit", fmt.Sprintf("a critical hit: a natural in the threat range (w = %d)%s", r.threat, map[bool]string{true: ", which always hits", false: " on a hit"}[r.autoHit]), crit).
				Event("miss", "not a hit", expr.Not(hit)).
				Event("threat", "a natural in the threat range, hit or not", r.threatens()).
				Event("deterministic", fmt.Sprintf("no die is rolled (two NPCs taking %d): the result is certain", take10), expr.Lit{V: expr.Bool(r.deterministic())})
			return spec, nil
		},
	}
}

func flatfooted() *mechanics.Mechanic {
	params := append(attackParams(),
		ip("dex", 2, -10, 20, "the defender's DEX modifier: a bonus (> 0) is lost while flat-footed, a penalty still applies"),
		ip("reflex", 2, -20, 40, "the defender's Reflex save bonus"),
		ip("save_dc", 15, -20, 60, "the DC of the Reflex save that keeps damage off the Wound Points (15 on the page)"))
	params[1].Doc = "the defender's Defence bonus without DEX: armour + shield + other modifiers (+ BCB for heroic classes)"
	return &mechanics.Mechanic{
		ID:      "d20w.flatfooted",
		Summary: "attacking a flat-footed target: no DEX bonus to Defence, damage to Wound Points unless a Reflex save against save_dc succeeds",
		Doc: "Before its first turn a creature is flat-footed: it loses its DEX bonus to Defence (D + min(DEX, 0) instead of D + DEX) " +
			fmt.Sprintf("and damage goes to Wound Points instead of Vitality unless it makes a Reflex save, N + Ref ≥ save_dc (15 on the page; match or beat; %[1]d + Ref for a target that "+
				"takes %[1]d with opt.npc_saves=take_10). The ", take10) +
			"attack is d20w.attack without the DEX bonus; the same dice also give the hit against the target when not flat-footed.",
		Params:  params,
		Options: mechanics.Options(append(attackOpts, optNPCSaves)...),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := attackOptionsOf(c)
			a, d, dex, w := c.Int("attack"), c.Int("defence"), c.Int("dex"), c.Int("threat")
			ff, normal := o.rule(a, d+min(dex, 0), w), o.rule(a, d+dex, w)
			save := saveOf(o, optNPCSaves.Of(c), c.Int("reflex"), c.Int("save_dc"))
			rec := mechanics.NewRecord(append(ff.fields(), save.field()...)...)
			spec := &mechanics.Spec{Record: rec, Outcome: rollNaturals(rec)}
			hit, hitNormal, saved := ff.hit(), normal.hit(), save.success()
			spec.Var("margin", "T_attack − T_defence against the flat-footed Defence", ff.margin()).
				Event("hit", "a hit on the flat-footed target: "+ff.doc()+", D without the DEX bonus", hit).
				Event("crit", "a critical hit on the flat-footed target", ff.crit()).
				Event("hit_normal", "the same dice against the target's full Defence (D + DEX): the hit when not flat-footed", hitNormal).
				Event("extra_hit", "a hit only because the target is flat-footed", expr.And(hit, expr.Not(hitNormal))).
				Event("save", "the Reflex save succeeds: "+save.doc(), saved).
				Event("wound_damage", "a hit whose Reflex save fails: its damage goes straight to Wound Points", expr.And(hit, expr.Not(saved))).
				Event("vitality_damage", "a hit whose Reflex save succeeds: its damage goes to Vitality as usual", expr.And(hit, saved))
			return spec, nil
		},
	}
}

// attackMechanics are the mechanics declared in attack.go.
func attackMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{attack(), flatfooted()}
}
