package d20w

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// What a critical hit buys (docs/mechanics.md#d20w-crit_choice) and the
// crippling penalties it stacks up (docs/mechanics.md#d20w-crippling).

var (
	optPolicy = mechanics.SwitchOf("d20w.crit_choice", "policy",
		"what the attacker takes on a critical hit: oa_first (an opportunity attack while the budget lasts and the weapon is melee, "+
			"else a crippling injury), cripple_first (always a crippling injury), manoeuvre_first (always a combat manoeuvre)",
		policyOAFirst, policyCrippleFirst, policyManoeuvreFirst)
	optOACanCrit = mechanics.SwitchOf("d20w.crit_choice", "oa_can_crit",
		"yes: an opportunity attack bought by a critical can crit again (and chain while the budget lasts); no: its natural in the threat range is only a hit",
		oaCanCritYes, oaCanCritNo)
	optWeapon = mechanics.ChoiceOf("d20w.crit_choice", "weapon",
		"melee, or ranged (no opportunity attack with a ranged weapon: oa_first falls back to a crippling injury)", weaponMelee, weaponRanged)
)

// Finishes of an attack action: what its last critical hit bought beyond
// an opportunity attack.
const (
	finishNone = iota
	finishCrippled
	finishCrippleSaved
	finishManoeuvre
	finishManoeuvreFailed
)

var finishLabels = []string{"none", "crippled", "cripple_saved", "manoeuvre_succeeded", "manoeuvre_failed"}

// saveParams are the target's save against a crippling injury.
func saveParams() []mechanics.Param {
	return []mechanics.Param{
		ip("save", 2, -20, 40, "the target's save bonus s against a crippling injury: Fortitude against STR attacks, Reflex against DEX attacks"),
		ip("save_dc", 15, -20, 60, "the DC of that save (15 on the page)"),
	}
}

func critChoice() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "d20w.crit_choice",
		Summary: "what a critical hit buys: the opportunity-attack chain with its budget, a crippling injury or a manoeuvre",
		Doc: fmt.Sprintf("An attack action: one attack (d20w.attack); on a critical hit the attacker picks one "+
			"of an immediate opportunity attack with the same bonuses (melee only, one of the B left this round; its hit adds damage "+
			"and it may crit again), a combat manoeuvre of choice, or a crippling injury: the target saves N + s ≥ save_dc (match or "+
			"beat; %[1]d + s for a target that takes %[1]d with opt.npc_saves=take_10) or takes a Minor penalty. The manoeuvre is a "+
			"standard one resolved as d20w.cm in the attack's pairing (CMA vs CMD, match or beat, an NPC taking %[1]d, d20w.cm's ", take10) +
			"natural rules and opt.defender_naturals), except between two NPCs: with opt.npc_vs_npc=both_roll both roll it, as " +
			"d20w.cm's pc_pc does, where d20w.cm's npc_npc rolls nothing (with deterministic NPCs nobody crits, so no manoeuvre " +
			"is bought). With oa_first, a melee weapon and opt.oa_can_crit=yes (the defaults), E[hits] follows " +
			"h(B) = P(hit) + P(crit)·[B > 0]·h(B − 1), with h(0) = P(hit); the number of hits per action has the same recursion on " +
			"distributions. With cripple_first, P(crippled) = P(crit)·P(the save fails).",
		Params: critChoiceParams(),
		Options: mechanics.Options(append([]mechanics.Declared{optPolicy, optOACanCrit, optWeapon},
			append(append([]mechanics.Declared{}, attackOpts...), optNPCSaves, optDefenderNaturals)...)...),
		Build: critChoiceSpec,
	}
}

// critChoiceParams are the parameters of d20w.crit_choice: the attack's,
// the save's, the budget and the manoeuvre's.
func critChoiceParams() []mechanics.Param {
	ps := append(attackParams(), saveParams()...)
	return append(ps,
		ip("budget", 1, 0, 10, "B: opportunity attacks left this round, max(1, DEX bonus) at its start"),
		ip("cma", 4, -30, 40, "the attacker's CMA (+ attack modifiers) for a manoeuvre bought by a critical"),
		ip("cmd", 6, -30, 40, "the target's CMD against that manoeuvre"))
}

// critChoiceSpec is the model of d20w.crit_choice: an attack action as a
// chain of attacks, each critical buying what the policy says.
func critChoiceSpec(c mechanics.Config) (*mechanics.Spec, error) {
	o := attackOptionsOf(c)
	r := o.rule(c.Int("attack"), c.Int("defence"), c.Int("threat"))
	save := saveOf(o, optNPCSaves.Of(c), c.Int("save"), c.Int("save_dc"))
	cmo := cmOptions{pairing: o.effective(), naturals: o.naturals, mirror: optDefenderNaturals.Of(c)}
	b := c.Int("budget")
	rec := mechanics.NewRecord(
		mechanics.Int("hits", 0, b+1, "hits in the attack action: the attack and the opportunity attacks its criticals bought"),
		mechanics.Int("crits", 0, b+1, "critical hits in the attack action"),
		mechanics.Int("opportunity_attacks", 0, b, "opportunity attacks the criticals bought (each spends one of the budget)"),
		mechanics.Enum("finish", "what the last critical bought beyond an opportunity attack: a crippling injury (saved or not) or a manoeuvre", finishLabels...),
	)
	ch := critChain{
		attack: r, save: save, manoeuvre: cmo.contest(c.Int("cma"), c.Int("cmd")),
		policy: optPolicy.Of(c), oaCanCrit: optOACanCrit.Of(c) == oaCanCritYes, melee: optWeapon.Of(c) == weaponMelee,
		hits: rec.Slot("hits"), crits: rec.Slot("crits"), oas: rec.Slot("opportunity_attacks"), finish: rec.Slot("finish"),
		start: rec.Start(),
	}
	spec := &mechanics.Spec{Record: rec, Outcome: ch.node(b, true)}
	spec.Report("hits", "crits", "opportunity_attacks")
	spec.Band("finish", "what the last critical of the action bought beyond an opportunity attack", finishLabels, expr.F("finish"))
	f := expr.F("finish")
	spec.Event("hit", "at least one hit in the action: "+r.doc(), expr.Ge(expr.F("hits"), num(1))).
		Event("crit", "at least one critical hit in the action", expr.Ge(expr.F("crits"), num(1))).
		Event("crippled", "the target takes a crippling injury: a critical bought it and the save "+save.doc()+" failed", expr.Eq(f, num(finishCrippled))).
		Event("manoeuvre_success", "a critical bought a combat manoeuvre and it succeeded", expr.Eq(f, num(finishManoeuvre)))
	return spec, nil
}

// critChain is the attack action of d20w.crit_choice: an attack, and on a
// critical hit what the policy buys, written into the action's record
// through its slots.
type critChain struct {
	attack    attackRule
	save      saveRule
	manoeuvre contest
	policy    critPolicy
	// oaCanCrit says an opportunity attack may crit again; melee that the
	// weapon allows opportunity attacks at all.
	oaCanCrit, melee bool
	// hits, crits, oas and finish are the record's fields; start is the
	// record with every field at its lowest value.
	hits, crits, oas, finish mechanics.Slot
	start                    int
}

// node is the attack action with left opportunity attacks in the budget,
// starting with an attack that may crit (canCrit) or not.
func (ch critChain) node(left int, canCrit bool) mechanics.Node {
	x := ch.attack.category(canCrit)
	base := func(cat int) int {
		return ch.crits.Set(ch.hits.Set(ch.start, bit(cat >= catHit)), bit(cat == catCrit))
	}
	switch {
	case !canCrit:
		return mechanics.Map{X: x, Name: "attack", F: base}
	case ch.policy == policyOAFirst && ch.melee && left > 0:
		// The opportunity attack is rolled beside the attack and
		// counts only after a critical: it is independent of it.
		return mechanics.Combine{X: x, Y: ch.node(left-1, ch.oaCanCrit), Name: "opportunity attack", F: func(cat, oa int) int {
			code := base(cat)
			if cat != catCrit {
				return code
			}
			code = ch.hits.Set(code, 1+ch.hits.Get(oa))
			code = ch.crits.Set(code, 1+ch.crits.Get(oa))
			code = ch.oas.Set(code, 1+ch.oas.Get(oa))
			return ch.finish.Set(code, ch.finish.Get(oa))
		}}
	case ch.policy == policyManoeuvreFirst:
		return mechanics.Combine{X: x, Y: ch.manoeuvre.node(), Name: "manoeuvre", F: func(cat, ok int) int {
			if cat != catCrit {
				return base(cat)
			}
			if ok == 1 {
				return ch.finish.Set(base(cat), finishManoeuvre)
			}
			return ch.finish.Set(base(cat), finishManoeuvreFailed)
		}}
	}
	return mechanics.Combine{X: x, Y: ch.save.node(), Name: "crippling injury", F: func(cat, saved int) int {
		if cat != catCrit {
			return base(cat)
		}
		if saved == 1 {
			return ch.finish.Set(base(cat), finishCrippleSaved)
		}
		return ch.finish.Set(base(cat), finishCrippled)
	}}
}

func crippling() *mechanics.Mechanic {
	ps := append(attackParams(), saveParams()...)
	ps = append(ps, ip("attacks", 5, 0, 60, "r: attacks made against the target, every critical buying a crippling injury to the same stat"))
	ps = append(ps, trackParams()...)
	return &mechanics.Mechanic{
		ID:      "d20w.crippling",
		Summary: "crippling penalties stacking through the Minor / Major / Extreme track over r attacks",
		Doc: fmt.Sprintf("Every attack crits as d20w.attack does, every critical buys a crippling injury to the same stat, and the target saves "+
			"N + s ≥ save_dc (match or beat; %[1]d + s for a target that takes %[1]d with opt.npc_saves=take_10) or takes a Minor penalty. After k failed saves the penalty has k points on the track of "+
			"d20w.modtrack (%[2]s) and its value; k ~ Binomial(r, P(crit)·P(save fails)).", take10, levelBands()),
		Params:  ps,
		Options: mechanics.Options(append(append(append([]mechanics.Declared{}, attackOpts...), optNPCSaves), trackOpts...)...),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := attackOptionsOf(c)
			r := o.rule(c.Int("attack"), c.Int("defence"), c.Int("threat"))
			save := saveOf(o, optNPCSaves.Of(c), c.Int("save"), c.Int("save_dc"))
			t := trackOf(c)
			n := c.Int("attacks")
			injury := mechanics.Combine{X: r.category(true), Y: save.node(), Name: "crippling injury", F: func(cat, saved int) int {
				return bit(cat == catCrit && saved == 0)
			}}
			rec := mechanics.NewRecord(mechanics.Int("injuries", 0, n, "crippling injuries taken (failed saves), all on the same stat"))
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Encode(rec, rec.Slot("injuries"), kit.Binomial(injury, n))}
			k := expr.F("injuries")
			values := make([]int64, n+1)
			for i := range values {
				values[i] = int64(t.value(i * minorPoints))
			}
			spec.Report("injuries")
			spec.Var("penalty", "the stacked penalty's value (subtracted from the stat): k Minor points on the track: "+t.describe(max(n, 1)), expr.Table(k, 0, values...))
			lv := kit.Ints(false, levelLabels, minorPoints, majorPoints, extremePoints)
			spec.Band("level", "the level of the stacked penalty after r attacks", levelLabels, lv.Band(k)).
				Event("crippled", "at least one crippling injury: a Minor penalty or worse", expr.Ge(k, num(1))).
				Event("major", fmt.Sprintf("a Major penalty or worse (%d injuries or more)", majorPoints), expr.Ge(k, num(majorPoints))).
				Event("extreme", fmt.Sprintf("an Extreme penalty (%d injuries or more)", extremePoints), expr.Ge(k, num(extremePoints)))
			return spec, nil
		},
	}
}

// critMechanics are the mechanics declared in crit.go.
func critMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{critChoice(), crippling()}
}
