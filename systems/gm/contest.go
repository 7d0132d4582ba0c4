package gm

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// Contests resolved when exactly one side succeeds
// (docs/mechanics.md#gm-contest, docs/mechanics.md#gm-chase). Both sides roll
// every round; the contest ends in the round where one succeeds and the
// other fails. Per round A wins with a = p_A(1 − p_B), B with
// b = p_B(1 − p_A); the rounds are Geometric(a + b) and P(A wins) =
// a/(a + b). When a + b = 0 (both always succeed, or both always fail) the
// contest never resolves: the chain then keeps all its mass unresolved at
// the horizon, and the event never_resolves says so.

// contestMechanics are the mechanics declared in contest.go.
func contestMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{
		contestMechanic(contestSides{
			id: "gm.contest", a: "a", b: "b", aName: "side A", bName: "side B",
			aWins: "a_wins", bWins: "b_wins",
			aDoc: "A succeeds while B fails in the deciding round", bDoc: "B succeeds while A fails in the deciding round",
			summary: "contest: both sides roll under their scores each round until exactly one succeeds",
			doc:     "Each round both sides roll d20 under their scores (group effort: the median score + ⌊log₂ g⌋); the contest ends when one side succeeds and the other fails. ",
		}), contestMechanic(contestSides{
			id: "gm.chase", a: "pursuer", b: "quarry", aName: "the pursuer", bName: "the quarry", chase: true,
			aWins: "caught", bWins: "escaped",
			aDoc: "the pursuer succeeds while the quarry fails: caught", bDoc: "the quarry succeeds while the pursuer fails: escaped",
			summary: fmt.Sprintf("chase: an agility contest each round until exactly one side succeeds; the faster side gets +1 per full %d points of Movement", chaseMovementPerBonus),
			doc: fmt.Sprintf("A chase is an agility contest (skills modify): each round both roll d20 under agility; a success by one and a failure by the "+
				"other ends it (the quarry escapes or is caught). The side whose Movement is higher gains +1 per full %[1]d points of difference "+
				"(⌊|Δ|/%[1]d⌋); groups chasing use group effort (the median score + ⌊log₂ g⌋). ", chaseMovementPerBonus),
		}),
	}
}

// chaseMovementPerBonus is the Movement a chasing side must be faster by
// for each +1 to its roll.
const chaseMovementPerBonus = 3

// contestSides names the two sides of a contest mechanic.
type contestSides struct {
	id, a, b, aName, bName string
	aWins, bWins           string
	aDoc, bDoc             string
	summary, doc           string
	chase                  bool
}

func contestMechanic(cs contestSides) *mechanics.Mechanic {
	params := []mechanics.Param{
		score(cs.a+"_score", 10, cs.aName+"'s score (agility for a chase; a group's median)"),
		modifier(cs.a+"_modifier", cs.aName+"'s bonuses and penalties (skills)"),
		ip(cs.a+"_group", 1, 1, 100000, cs.aName+": size of the group acting together (+⌊log₂ g⌋)"),
		score(cs.b+"_score", 10, cs.bName+"'s score (agility for a chase; a group's median)"),
		modifier(cs.b+"_modifier", cs.bName+"'s bonuses and penalties (skills)"),
		ip(cs.b+"_group", 1, 1, 100000, cs.bName+": size of the group acting together (+⌊log₂ g⌋)"),
	}
	if cs.chase {
		params = append(params, ip("movement_difference", 0, -60, 60,
			fmt.Sprintf("the pursuer's Movement − the quarry's: the faster side gains +1 per full %[1]d points (⌊|Δ|/%[1]d⌋)", chaseMovementPerBonus)))
	}
	params = append(params, ip("rounds", 100, 1, 10000, "rounds followed at most (the horizon); what is unresolved by then is reported apart"))
	return &mechanics.Mechanic{
		ID:      cs.id,
		Summary: cs.summary,
		Doc: cs.doc + "Per round a = p_A(1 − p_B), b = p_B(1 − p_A): rounds ~ Geometric(a + b), P(A wins) = a/(a + b) over an " +
			"unlimited horizon, a/(a + b)·(1 − (1 − a − b)^rounds) within the rounds followed (the event). If a + b = 0 the " +
			"contest never resolves; it is then reported as unresolved at the horizon (never_resolves = 1). An absorbing Markov chain.",
		Params:  params,
		Options: mechanics.Options(optNaturals),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			ta := c.Int(cs.a+"_score") + c.Int(cs.a+"_modifier") + groupBonus(c.Int(cs.a+"_group"))
			tb := c.Int(cs.b+"_score") + c.Int(cs.b+"_modifier") + groupBonus(c.Int(cs.b+"_group"))
			if cs.chase {
				d := c.Int("movement_difference")
				if d > 0 {
					ta += d / chaseMovementPerBonus
				} else {
					tb += -d / chaseMovementPerBonus
				}
			}
			return contestSpec(ta, tb, optNaturals.Of(c), c.Int("rounds"), cs), nil
		},
	}
}

// contestSpec is the chain of a contest between roll-under targets ta and tb.
func contestSpec(ta, tb int, nat naturals, horizon int, cs contestSides) *mechanics.Spec {
	round := mechanics.NewRecord(mechanics.Flag(cs.a+"_succeeds", cs.aName+"'s roll succeeds"), mechanics.Flag(cs.b+"_succeeds", cs.bName+"'s roll succeeds"))
	sA, sB := round.Slot(cs.a+"_succeeds"), round.Slot(cs.b+"_succeeds")
	// One round: the two rolls, reduced to success or failure.
	kernel := kit.Roll(round, part{Field: cs.a + "_succeeds", Node: coin(successes(ta, nat))}, part{Field: cs.b + "_succeeds", Node: coin(successes(tb, nat))})
	p := &mechanics.Process{Homogeneous: true, Horizon: horizon, TimeUnit: "round"}
	going := p.Add(false, "unresolved")
	aWins := p.Add(true, cs.aWins)
	bWins := p.Add(true, cs.bWins)
	p.Kernel = func(int) mechanics.Node { return kernel }
	p.Move = func(_, _, x int) int {
		switch a, b := sA.Bool(x), sB.Bool(x); {
		case a && !b:
			return aWins
		case b && !a:
			return bWins
		}
		return going
	}
	never := successes(ta, nat)*(20-successes(tb, nat))+successes(tb, nat)*(20-successes(ta, nat)) == 0
	spec := &mechanics.Spec{Process: p, Record: p.Record()}
	spec.Vars = []mechanics.Var{p.TimeVar("rounds", "rounds until the contest is resolved (Geometric(a + b))", field("time"))}
	spec.Event(cs.aWins, cs.aDoc+" within the rounds", p.In(aWins)).
		Event(cs.bWins, cs.bDoc+" within the rounds", p.In(bWins)).
		Event("unresolved", "neither side has won when the rounds run out", p.In(going)).
		Event("never_resolves", "a + b = 0: both sides always succeed or both always fail, so no round can decide (a property of the scores)",
			num(boolInt(never)))
	return spec
}
