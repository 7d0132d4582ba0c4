package d20w

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// Combat stances (docs/mechanics.md#d20w-stance): a bonus s to one of
// attack, defence and damage and an equal penalty to another, s at most a
// BCB-based maximum (the page's table is empty).

var (
	optStance = mechanics.ChoiceOf("d20w.stance", "stance",
		"the trade: aggressive (+attack −defence), defensive (+defence −attack), precision (+attack −damage), reckless (+damage −defence), "+
			"power (+damage −attack), guarded (+defence −damage), aggressive_reckless (+attack +damage −2s defence, the page's "+
			"combined example), neutral (no stance)",
		stanceAggressive, stanceDefensive, stancePrecision, stanceReckless, stancePower, stanceGuarded, stanceAggressiveReckless, stanceNeutral)
	optStancePairing = mechanics.ChoiceOf("d20w.stance", "pairing",
		fmt.Sprintf("pc_npc: you roll your attack and Defence, the enemy takes %[1]d on both; npc_pc: you take %[1]d, the enemy rolls; pc_pc: everyone rolls", take10),
		pcVsNPC, npcVsPC, pcVsPC)
	optStanceMax = mechanics.SwitchOf("d20w.stance", "max",
		"the largest s a BCB allows (the page's table is empty): bcb (S_max = BCB), half_bcb (⌊BCB/2⌋), custom (custom_max)",
		maxBCB, maxHalfBCB, maxCustom)
)

func stance() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "d20w.stance",
		Summary: "combat stances: +s to one of attack, defence and damage, −s to another; hit and being hit, and the net damage per round",
		Doc: "One round of exchange: you attack the enemy (hit ⇔ T_attack ≥ T_defence, match or beat) and it attacks you, with your " +
			"stance shifting your attack, Defence and damage rolls by ±s (s ≤ S_max(BCB)). Damage on a hit is d(die) + bonus (your " +
			"stance's damage shift included), never below 0; critical hits count as hits only. Outputs: P(hit) and P(being hit) at s " +
			"and without a stance, E[damage dealt − damage taken], and the same net for every s from 0 to S_max on the same dice, so " +
			"the best s against this enemy is the variable net_s<k> with the largest mean. Natural 20s and 1s " +
			"decide nothing here (the default reading of d20w.core.opt.naturals).",
		Params:  stanceParams(),
		Options: mechanics.Options(optStance, optStancePairing, optStanceMax),
		Build:   stanceSpec,
	}
}

// stanceParams are the parameters of d20w.stance.
func stanceParams() []mechanics.Param {
	return []mechanics.Param{
		ip("bcb", 4, 0, 20, "your Base Combat Bonus, which sets the largest adjustment"),
		ip("s", 2, 0, 20, "the stance's adjustment s (at most S_max)"),
		ip("attack", 5, -20, 40, "your attack bonus without a stance"),
		ip("defence", 5, -20, 40, "your Defence bonus without a stance"),
		ip("damage_die", 8, 1, 20, "your weapon's damage die (sides)"),
		ip("damage_bonus", 2, -10, 30, "your damage bonus without a stance"),
		ip("enemy_attack", 5, -20, 40, "the enemy's attack bonus"),
		ip("enemy_defence", 3, -20, 40, "the enemy's Defence bonus"),
		ip("enemy_damage_die", 8, 1, 20, "the enemy's damage die (sides)"),
		ip("enemy_damage_bonus", 2, -10, 30, "the enemy's damage bonus"),
		ip("custom_max", 2, 0, 20, "S_max with opt.max=custom"),
	}
}

// stanceSpec is the model of d20w.stance: the dice of one round of
// exchange, and its outputs at s and at every adjustment up to S_max.
func stanceSpec(c mechanics.Config) (*mechanics.Spec, error) {
	bcb, s := c.Int("bcb"), c.Int("s")
	smax := bcb
	switch optStanceMax.Of(c) {
	case maxHalfBCB:
		smax = bcb / 2
	case maxCustom:
		smax = c.Int("custom_max")
	}
	if s > smax {
		return nil, fmt.Errorf("s=%d is beyond the largest adjustment S_max = %d allowed with bcb=%d (opt.max=%s)", s, smax, bcb, optStanceMax.Of(c))
	}
	st := optStance.Of(c)
	rec, out := exchangeDice(c, optStancePairing.Of(c))
	r := newStanceRound(st, c.Int("damage_bonus"), c.Int("enemy_damage_bonus"))
	spec := &mechanics.Spec{Record: rec, Outcome: out}
	spec.Var("net", fmt.Sprintf("damage dealt − damage taken this round, in the %s stance at s = %d", st, s), r.net(s)).
		Var("dealt", "damage you deal this round: your damage roll on a hit, never below 0", r.dealt(s)).
		Var("taken", "damage you take this round: the enemy's damage roll on its hit", r.taken(s)).
		Var("gain", "net − the net without a stance, on the same dice: what the stance buys", expr.Sub(expr.F("net"), r.net(0))).
		Event("hit", fmt.Sprintf("you hit: attack margin %s ≥ 0 (match or beat)", signed(r.attack*s)), r.hit(s)).
		Event("hit_taken", fmt.Sprintf("the enemy hits you: its margin %s ≥ 0", signed(-r.defence*s)), r.hitTaken(s)).
		Event("hit_neutral", "you hit without a stance", r.hit(0)).
		Event("hit_taken_neutral", "the enemy hits you without a stance", r.hitTaken(0))
	for k := 0; k <= smax; k++ {
		spec.Var(fmt.Sprintf("net_s%d", k), fmt.Sprintf("net damage in the %s stance at s = %d (the curve over s: the best s has the largest mean)", st, k), r.net(k))
	}
	return spec, nil
}

// exchangeDice is the record of one round of exchange without a stance,
// and the node that rolls it: your attack's margin against the enemy's
// Defence, your damage die, the enemy's attack's margin against your
// Defence and its damage die (who rolls a d20 is per the pairing).
func exchangeDice(c mechanics.Config, who pairing) (*mechanics.Record, mechanics.Node) {
	me, enemy := "", ""
	if who.actorRolls() {
		me = "x"
	}
	if who.targetRolls() {
		enemy = "x"
	}
	// Your attack against its Defence, and its attack against
	// yours, without a stance (the fields only tell who rolls).
	off := contest{actor: side{me, c.Int("attack")}, target: side{enemy, c.Int("enemy_defence")}}
	def := contest{actor: side{enemy, c.Int("enemy_attack")}, target: side{me, c.Int("defence")}}
	offNode, offLo, offHi := off.marginNode()
	defNode, defLo, defHi := def.marginNode()
	die, edie := c.Int("damage_die"), c.Int("enemy_damage_die")
	rec := mechanics.NewRecord(
		mechanics.Int("attack_margin", offLo, offHi, fmt.Sprintf("T_attack − T_defence of your attack, without a stance (%[1]d for a side that takes %[1]d)", take10)),
		mechanics.Int("damage_roll", 1, die, "your damage die"),
		mechanics.Int("defence_margin", defLo, defHi, "T_attack − T_defence of the enemy's attack on you, without a stance"),
		mechanics.Int("enemy_damage_roll", 1, edie, "the enemy's damage die"),
	)
	var out mechanics.Node = mechanics.Const{V: rec.Start()}
	for _, p := range []struct {
		field string
		node  mechanics.Node
	}{{"attack_margin", offNode}, {"damage_roll", mechanics.D(die)}, {"defence_margin", defNode}, {"enemy_damage_roll", mechanics.D(edie)}} {
		slot := rec.Slot(p.field)
		out = mechanics.Combine{X: out, Y: p.node, Name: p.field, F: func(code, v int) int { return slot.Set(code, v) }}
	}
	return rec, out
}

// stanceRound gives the outputs of a round of exchange at adjustment k of
// a stance, as expressions over the record of exchangeDice.
type stanceRound struct {
	// attack, defence and damage are the multiples of k the stance adds to
	// your attack, Defence and damage rolls.
	attack, defence, damage int
	// bonus and enemyBonus are the damage bonuses without a stance.
	bonus, enemyBonus int
	// attackMargin and defenceMargin are the margins without a stance.
	attackMargin, defenceMargin expr.Expr
}

// newStanceRound is the round of stance st, with the damage bonuses
// without a stance.
func newStanceRound(st stanceKind, bonus, enemyBonus int) stanceRound {
	sa, sd, sdmg := st.shifts()
	return stanceRound{attack: sa, defence: sd, damage: sdmg, bonus: bonus, enemyBonus: enemyBonus,
		attackMargin: expr.F("attack_margin"), defenceMargin: expr.F("defence_margin")}
}

// hit is whether you hit: your margin + attack·k ≥ 0 (match or beat).
func (r stanceRound) hit(k int) expr.Expr {
	return expr.Ge(expr.Add(r.attackMargin, num(r.attack*k)), num(0))
}

// hitTaken is whether the enemy hits you: its margin − defence·k ≥ 0.
func (r stanceRound) hitTaken(k int) expr.Expr {
	return expr.Ge(expr.Add(r.defenceMargin, num(-r.defence*k)), num(0))
}

// dealt is the damage you deal: your damage roll on a hit, never below 0.
func (r stanceRound) dealt(k int) expr.Expr {
	return expr.Mul(r.hit(k), expr.Max(num(0), expr.Add(expr.F("damage_roll"), num(r.bonus+r.damage*k))))
}

// taken is the damage you take: the enemy's damage roll on its hit.
func (r stanceRound) taken(k int) expr.Expr {
	return expr.Mul(r.hitTaken(k), expr.Max(num(0), expr.Add(expr.F("enemy_damage_roll"), num(r.enemyBonus))))
}

// net is the damage dealt − the damage taken.
func (r stanceRound) net(k int) expr.Expr { return expr.Sub(r.dealt(k), r.taken(k)) }

// stanceMechanics are the mechanics declared in stance.go.
func stanceMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{stance()}
}
