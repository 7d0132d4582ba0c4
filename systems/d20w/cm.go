package d20w

import (
	"fmt"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

var (
	optCMPairing = mechanics.ChoiceOf("d20w.cm", "pairing",
		fmt.Sprintf("pc_npc: the PC rolls d20 + CMA + m against the NPC's CMD + %[1]d; npc_pc: the PC rolls d20 + CMD against the NPC's CMA + %[1]d + m "+
			"and must strictly beat it; pc_pc: both roll; npc_npc: nobody rolls (deterministic)", take10),
		pcVsNPC, npcVsPC, pcVsPC, npcVsNPC)
	optManoeuvre = mechanics.ChoiceOf("d20w.cm", "manoeuvre",
		"standard: a natural 20 always succeeds; escape_bonds: escaping from bonds gets no automatic success on a natural 20", manoeuvreStandard, manoeuvreEscapeBonds)
	optBabIsBcb = mechanics.SwitchOf("d20w.cm", "bab_is_bcb",
		"yes: the 'Base attack bonus' of the page's CMD formula is the defender's BCB; no: it is a separate number, defender_bab", babIsBcbYes, babIsBcbNo)
	optDefenderNaturals = mechanics.SwitchOf("d20w.cm", "defender_naturals",
		fmt.Sprintf("mirror: when an NPC acts against a PC (the NPC takes %d, the PC rolls d20 + CMD), the PC's natural 20 always resists, and its "+
			"natural 1 always fails to resist except against escaping bonds (manoeuvre=escape_bonds, the mirror of that manoeuvre's "+
			"missing automatic success: there a natural 1 resists when the totals say so); none: the PC's roll has no natural rule. "+
			"With opt.naturals=none neither applies; when the actor rolls, only its own naturals decide", take10),
		defenderMirror, defenderNone)
)

// sizeNames and sizeMods are the size categories −4 (Fine) … +4 (Colossal)
// and their special size modifiers for combat manoeuvres.
var (
	sizeNames = []string{"Fine", "Diminutive", "Tiny", "Small", "Medium", "Large", "Huge", "Gargantuan", "Colossal"}
	sizeMods  = []int{-8, -4, -2, -1, 0, 1, 2, 4, 8}
)

// sizeMod is the special size modifier of size category s (−4..4).
func sizeMod(s int) int { return sizeMods[s+4] }

// sizeTable lists the size categories with their special size modifiers:
// "−4 Fine (−8), …, 0 Medium, 1 Large (+1), …".
func sizeTable() string {
	rows := make([]string, len(sizeNames))
	for i, name := range sizeNames {
		rows[i] = kit.Num(i-4) + " " + name
		if sizeMods[i] != 0 {
			rows[i] += " (" + kit.Signed(sizeMods[i]) + ")"
		}
	}
	return strings.Join(rows, ", ")
}

// cmOptions are the decoded switches of a combat manoeuvre.
type cmOptions struct {
	pairing  pairing
	naturals naturalsRule
	mirror   defenderNaturals
	escape   bool
}

// cmContest is the manoeuvre roll: the attacker's CMA + m against the
// defender's CMD, NPCs adding 10 instead of rolling; match or beat
// succeeds, with the natural rules of the manoeuvre (a natural 20 always
// succeeds except when escaping bonds, a natural 1 always fails) unless
// opt.naturals=none.
func (o cmOptions) contest(cma, cmd int) contest {
	att, def := side{bonus: cma}, side{bonus: cmd}
	if o.pairing.actorRolls() {
		att.field = "cma_roll"
	}
	if o.pairing.targetRolls() {
		def.field = "cmd_roll"
	}
	nat := o.naturals != naturalsNone
	return contest{actor: att, target: def, actorNaturals: nat, targetNaturals: nat && o.mirror == defenderMirror, no20: o.escape}
}

func cm() *mechanics.Mechanic {
	size := func(name, who string) mechanics.Param {
		return ip(name, 0, -4, 4, who+"'s size category: "+sizeTable())
	}
	return &mechanics.Mechanic{
		ID:      "d20w.cm",
		Summary: "combat manoeuvre: d20 + CMA against CMD, match or beat; naturals 20/1; size modifiers; degrees of the margin",
		Doc: fmt.Sprintf("CMA = BCB + STR (DEX for Tiny or smaller) + special size modifier; CMD = BCB + STR + DEX + special size modifier (no built-in "+
			"%[1]d: the defender rolls). PC→NPC: success ⇔ N = 20 (unless escaping bonds) ∨ (N ≠ 1 ∧ N + CMA + m ≥ CMD + %[1]d); NPC→PC: the "+
			"PC rolls N + CMD and the manoeuvre succeeds ⇔ CMA + %[1]d + m ≥ N + CMD, with the naturals mirrored by default; PC→PC: ", take10) +
			"N_a + CMA + m ≥ N_d + CMD with the attacker's naturals. Margin M = total − target, degree ⌊M / W⌋ for manoeuvres that " +
			"scale (bull rush). If the defender wins it may take an attack of opportunity. cma and cmd hold the " +
			"terms not given by the component parameters: leave the components at 0 to give the whole CMA and CMD there.",
		Params: []mechanics.Param{
			ip("cma", 4, -30, 40, "the attacker's CMA terms beyond the components below (with the components at 0: the whole CMA)"),
			ip("cmd", 6, -30, 40, "the defender's CMD terms beyond the components below (with the components at 0: the whole CMD)"),
			ip("bonus", 0, -20, 20, "m: the attacker's applicable attack-roll modifiers (spells, feats, penalties)"),
			ip("attacker_bcb", 0, 0, 30, "the attacker's Base Combat Bonus"),
			ip("attacker_str", 0, -10, 20, "the attacker's STR modifier (its CMA term unless Tiny or smaller)"),
			ip("attacker_dex", 0, -10, 20, "the attacker's DEX modifier (its CMA term when Tiny or smaller)"),
			size("attacker_size", "the attacker"),
			ip("defender_bcb", 0, 0, 30, "the defender's Base Combat Bonus"),
			ip("defender_bab", 0, 0, 30, "the defender's base attack bonus, used in its CMD only with opt.bab_is_bcb=no"),
			ip("defender_str", 0, -10, 20, "the defender's STR modifier"),
			ip("defender_dex", 0, -10, 20, "the defender's DEX modifier"),
			size("defender_size", "the defender"),
			ip("margin_width", 5, 1, 40, "W: the margin per degree of success of a scaling manoeuvre (a placeholder: 5)"),
		},
		Options: mechanics.Options(optCMPairing, optManoeuvre, optBabIsBcb, optDefenderNaturals, optNaturals),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := cmOptions{optCMPairing.Of(c), optNaturals.Of(c), optDefenderNaturals.Of(c), optManoeuvre.Of(c) == manoeuvreEscapeBonds}
			as, ds := c.Int("attacker_size"), c.Int("defender_size")
			cmaTerm, cmaWhich := c.Int("attacker_str"), "STR"
			if as <= -2 {
				cmaTerm, cmaWhich = c.Int("attacker_dex"), "DEX"
			}
			cma := c.Int("cma") + c.Int("attacker_bcb") + cmaTerm + sizeMod(as)
			bab, babWhich := c.Int("defender_bcb"), "BCB"
			if optBabIsBcb.Of(c) == babIsBcbNo {
				bab, babWhich = c.Int("defender_bab"), "BAB"
			}
			cmd := c.Int("cmd") + bab + c.Int("defender_str") + c.Int("defender_dex") + sizeMod(ds)
			m, w := c.Int("bonus"), c.Int("margin_width")
			ct := o.contest(cma+m, cmd)
			rec := mechanics.NewRecord(ct.fields()...)
			spec := &mechanics.Spec{Record: rec, Outcome: rollNaturals(rec)}
			win, margin := ct.success(), expr.F("margin")
			var how strings.Builder
			fmt.Fprintf(&how, "CMA %s (%s, %s, %s size %s) + m %s against CMD %s (%s, STR, DEX, %s size %s)", signed(cma), "BCB", cmaWhich, sizeNames[as+4],
				signed(sizeMod(as)), signed(m), signed(cmd), babWhich, sizeNames[ds+4], signed(sizeMod(ds)))
			spec.Var("margin", "M = total − target: "+how.String()+"; ≥ 0 succeeds unless a natural decides", ct.margin())
			spec.Vars = append(spec.Vars, mechanics.Var{Name: "degree", Doc: fmt.Sprintf("degree of success ⌊M / %d⌋ (0 when a natural decides a success with M < 0), given success", w),
				Expr: expr.Max(num(0), expr.Floor(expr.Div(margin, num(w)))), When: win, Otherwise: "the manoeuvre fails"})
			spec.Event("success", "the manoeuvre succeeds: the attacker's total matches or beats the target, or a natural decides", win).
				Event("defender_aoo", "the defender wins and may take an attack of opportunity: 1 − P(success)", expr.Not(win)).
				Event("natural_success", "a natural decides a success the totals would refuse (M < 0)", expr.And(win, expr.Lt(margin, num(0)))).
				Event("natural_failure", "a natural decides a failure the totals would allow (M ≥ 0)", expr.And(expr.Not(win), expr.Ge(margin, num(0)))).
				Event("deterministic", "no die is rolled (NPC against NPC): the result is certain", expr.Lit{V: expr.Bool(ct.deterministic())})
			return spec, nil
		},
	}
}

// cmMechanics are the mechanics declared in cm.go.
func cmMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{cm()}
}
