package d20w

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

var optOpposedPairing = mechanics.ChoiceOf("d20w.core.opposed", "pairing",
	fmt.Sprintf("pc_pc: both roll; pc_npc: the NPC takes %[1]d, so success ⇔ N + a ≥ %[1]d + o; npc_pc: the acting NPC takes %[1]d and the PC resists "+
		"only by strictly beating it (N + o > %[1]d + a); npc_npc: nobody rolls, the result is certain (flagged deterministic)", take10),
	pcVsPC, pcVsNPC, npcVsPC, npcVsNPC)

// opposedContest is the contest of d20w.core.opposed: the acting side's
// bonus a against the opposing side's o.
func opposedContest(p pairing, a, o int, n naturalsRule) contest {
	act, opp := side{bonus: a}, side{bonus: o}
	if p.actorRolls() {
		act.field = "roll_a"
	}
	if p.targetRolls() {
		opp.field = "roll_o"
	}
	nat := n == naturalsAllRolls
	return contest{actor: act, target: opp, actorNaturals: nat, targetNaturals: nat}
}

func opposed() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "d20w.core.opposed",
		Summary: fmt.Sprintf("opposed check: both roll d20 + modifiers, the acting side succeeds on a match or a beat; NPCs take %d", take10),
		Doc: fmt.Sprintf("T_a = N_a + mod_a against T_o = N_o + mod_o; the acting side succeeds ⇔ T_a ≥ T_o (match or beat), so with "+
			"k = mod_a − mod_o, P = P(N_a − N_o ≥ −k) where N_a − N_o is triangular, (20 − |j|)/400 on −19..19. An NPC never rolls: "+
			"its total is %[1]d + its modifier. PC→NPC: P = clamp((%[2]d + a − o)/20, 0, 1); NPC→PC: the PC resists only by strictly "+
			"beating, P(resist) = clamp((%[1]d + o − a)/20, 0, 1); NPC→NPC is certain and flagged deterministic. "+
			"These formulas hold without natural rules (the default). With opt.naturals=all_rolls the acting side's natural 20 "+
			"succeeds and its 1 fails (the opposing side's natural then decides nothing); when the acting side takes %[1]d, the "+
			"opposing PC's natural 20 always resists and its 1 always fails to.", take10, take10+1),
		Params: []mechanics.Param{
			ip("mod_a", 0, -20, 40, "the acting side's total modifier"),
			ip("mod_o", 0, -20, 40, "the opposing side's total modifier"),
		},
		Options: mechanics.Options(optOpposedPairing, optNaturals),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			ct := opposedContest(optOpposedPairing.Of(c), c.Int("mod_a"), c.Int("mod_o"), optNaturals.Of(c))
			rec := mechanics.NewRecord(ct.fields()...)
			spec := &mechanics.Spec{Record: rec, Outcome: rollNaturals(rec)}
			win := ct.success()
			spec.Var("margin", "T_a − T_o: ≥ 0 is a success for the acting side (match or beat)", ct.margin()).
				Var("total_a", fmt.Sprintf("T_a = N_a + mod_a (%d + mod_a for an NPC)", take10), ct.actor.total()).
				Var("total_o", fmt.Sprintf("T_o = N_o + mod_o (%d + mod_o for an NPC)", take10), ct.target.total()).
				Event("success", "the acting side matches or beats: T_a ≥ T_o (or per the naturals option)", win).
				Event("resisted", "the opposing side strictly beats the acting side: T_o > T_a (or per the naturals option)", expr.Not(win)).
				Event("tie", "equal totals, which go to the acting side", expr.Eq(ct.actor.total(), ct.target.total())).
				Event("deterministic", "no die is rolled (NPC against NPC): the result is certain", expr.Lit{V: expr.Bool(ct.deterministic())})
			return spec, nil
		},
	}
}

// opposedMechanics are the mechanics declared in opposed.go.
func opposedMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{opposed()}
}
