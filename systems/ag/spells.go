package ag

import (
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// Spells that are single tests: the fixed-TN spells, the information level
// of Remote Viewing and Scrying, and banishing a spirit. (Dispelling is in
// progress.go, damaging spells in combat.go.)

// spellMechanics are the mechanics declared in spells.go.
func spellMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{tnSpell(), infoLevel(), banish()}
}

// tnSpells are the fixed-TN spells, in order.
var tnSpells = []spell{spellEntropomancy, spellShield, spellWard, spellRemoteViewing, spellScrying, spellInvocate, spellSummon, spellBolster, spellHeal}

var optSpell = mechanics.ChoiceOf("ag.magic.tn_spell", "spell", "the spell (sets the TN)", tnSpells...)

func tnSpell() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.magic.tn_spell",
		Summary: "fixed-TN spells (" + spellTNs(tnSpells, false) + ")",
		Doc:     "A skill test of the spell's skill + attribute against the spell's fixed TN. Heal uses the target's penalties as the modifier.",
		Params:  []mechanics.Param{named(pSkill, "skill", "the spell's skill (Astralmancy, Divination, Evocation, Restoration…)"), named(pAttr, "attribute", "Psyche or Intuition"), pModifier},
		Options: coreWith(optSpell),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			return testSpec(Pool(c.Int("skill"), o), c.Int("attribute"), c.Int("modifier"), optSpell.Of(c).tn(), o), nil
		},
	}
}

var (
	optInfoSpell = mechanics.ChoiceOf("ag.magic.info_level", "spell", spellTNs([]spell{spellRemoteViewing, spellScrying}, true), spellRemoteViewing, spellScrying)
	infoLabels   = []string{"nothing", "vague", "basic", "detailed", "secret", "unknown"}
)

func infoLevel() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.magic.info_level",
		Summary: "Remote Viewing / Scrying information level: MoS 1 vague … 5 unknown",
		Doc:     "MoS 1 vague, 2 basic, 3 detailed, 4 secret, 5 unknown information; MoS ≥ 5 gives level 5, MoS ≤ 0 nothing.",
		Params:  []mechanics.Param{named(pSkill, "skill", "Divination skill"), named(pAttr, "attribute", "Intuition"), pModifier},
		Options: coreWith(optInfoSpell),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			level := expr.Clamp(mosExpr("", c.Int("attribute"), c.Int("modifier"), optInfoSpell.Of(c).tn(), o.Tie), 0, 5)
			spec := &mechanics.Spec{Record: rollRecord, Outcome: Pool(c.Int("skill"), o)}
			spec.Var("level", "information level: min(5, max(0, MoS)); 0 = nothing, 1 vague … 5 unknown", level).
				Band("information", "the information gained, by level", infoLabels, level)
			return spec, nil
		},
	}
}

func banish() *mechanics.Mechanic {
	ps := []mechanics.Param{named(pSkill, "skill", "caster's Evocation skill"), named(pAttr, "attribute", "caster's Psyche"), pModifier,
		ip("spirit_psyche", 2, 0, 20, "the spirit's Psyche (it resists with an attribute roll: two dice + Psyche)"), ip("spirit_modifier", 0, -20, 20, "the spirit's modifiers")}
	return &mechanics.Mechanic{
		ID:      "ag.magic.banish",
		Summary: "banishing: Evocation + Psyche opposed by the spirit's Psyche roll",
		Doc:     "An opposed test: the caster's Evocation + Psyche against the spirit's Psyche attribute roll; the spirit is banished on MoS ≥ 1.",
		Params:  ps,
		Options: coreOpts,
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			a := sideOf(c, "")
			s := side{2, c.Int("spirit_psyche"), c.Int("spirit_modifier")}
			spec := opposedSpec(a, s, o)
			spec.Events = []mechanics.Event{
				redoc(spec.Events[0], "banished", "the spirit is banished: MoS ≥ 1 (or per the tie option)"),
				redoc(spec.Events[1], "tie", "equal totals"),
				redoc(spec.Events[2], "resisted", "the spirit resists: MoS ≤ −1 (a tie too when the tie option is failure)"),
			}
			return spec, nil
		},
	}
}

// redoc renames an event and replaces its doc.
func redoc(e mechanics.Event, name, doc string) mechanics.Event {
	e.Name, e.Doc = name, doc
	return e
}
