package ag

import (
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// Who acts first: the initiative order of two to four combatants, and
// noticing an ambush.

// initiativeMechanics are the mechanics declared in initiative.go.
func initiativeMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{initiative(), surprise()}
}

var optInitiativeTie = mechanics.SwitchOf("ag.initiative", "tie",
	"coin: a tie is broken by a coin; reroll: reroll until different (same probabilities as coin); simultaneous: both act at once",
	initiativeCoin, initiativeReroll, initiativeSimultaneous)

func initiative() *mechanics.Mechanic {
	ps := append(sideParams("", "first combatant (A)", 2, 2), sideParams("other_", "second combatant (B)", 2, 2)...)
	ps = append(ps, sideParams("third_", "third combatant (C; with combatants ≥ 3)", 2, 2)...)
	ps = append(ps, sideParams("fourth_", "fourth combatant (D; with combatants = 4)", 2, 2)...)
	ps = append(ps, ip("combatants", 2, 2, 4, "combatants in the tier: 2 gives the pairwise margin, 3–4 the full ordering (exact enumeration)"))
	return &mechanics.Mechanic{
		ID:      "ag.initiative",
		Summary: "who acts first within a tier: opposed Awareness + Perception, highest first",
		Doc: "Declared intents act in three tiers; within a tier, opposed Awareness + Perception, highest first. Pairwise " +
			"P(A before B) = P(T_A > T_B) + ½·P(T_A = T_B) with a coin for ties (reroll has the same marginal). " +
			"For three or four combatants the whole ordering is enumerated exactly: ties are broken by a uniformly random order " +
			"(coin, reroll) or left as shared places (simultaneous).",
		Params:  ps,
		Options: mechanics.Options(optCritCount, optFumbleCrit, optUnskilledCrit, optInitiativeTie),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			coin := optInitiativeTie.Of(c) != initiativeSimultaneous
			if k := c.Int("combatants"); k > 2 {
				sides := []side{sideOf(c, ""), sideOf(c, "other_"), sideOf(c, "third_"), sideOf(c, "fourth_")}[:k]
				return initiativeOrder(sides, o, coin), nil
			}
			a, b := sideOf(c, ""), sideOf(c, "other_")
			rec := mechanics.NewRecord(
				mechanics.Int("margin", -b.maxTotal(), a.maxTotal(), "T_A − T_B"),
				mechanics.Flag("heads", "the tie-breaking coin favours A (no coin when ties are simultaneous)"),
			)
			sm, sh := rec.Slot("margin"), rec.Slot("heads")
			start := rec.Start()
			var out mechanics.Node = mechanics.Combine{X: a.roll(o), Y: b.roll(o), Name: "margin", F: func(x, y int) int { return sm.Set(start, a.total(x)-b.total(y)) }}
			margin, heads := expr.F("margin"), expr.F("heads")
			tie := expr.Eq(margin, expr.K(0))
			aTie, bTie, simultaneous := expr.K(0), expr.K(0), tie
			if coin {
				out = mechanics.Combine{X: out, Y: mechanics.D(2), Name: "coin", F: func(x, k int) int { return sh.SetBool(x, k == 1) }}
				aTie, bTie, simultaneous = expr.And(tie, heads), expr.And(tie, expr.Not(heads)), expr.K(0)
			}
			spec := &mechanics.Spec{Record: rec, Outcome: out}
			spec.Report("margin").
				Event("a_first", "A acts first: a higher total, or a tie the coin gives A", expr.Or(expr.Gt(margin, expr.K(0)), aTie)).
				Event("b_first", "B acts first: a higher total, or a tie the coin gives B", expr.Or(expr.Lt(margin, expr.K(0)), bTie)).
				Event("simultaneous", "equal totals, acting at once (opt.tie=simultaneous)", simultaneous).
				Event("tie_roll", "equal totals", tie)
			return spec, nil
		},
	}
}

// combatantNames name the combatants of the initiative ordering.
var combatantNames = []string{"a", "b", "c", "d"}

// initiativeOrder enumerates the ordering of 3 or 4 combatants: the totals
// of every side, then a uniformly random order that breaks ties (coin,
// reroll) or none (simultaneous: tied sides share a place).
func initiativeOrder(sides []side, o CoreOptions, coin bool) *mechanics.Spec {
	k := len(sides)
	// The totals of all sides, then the ordering they give.
	var totFields, fields []mechanics.Field
	for i, s := range sides {
		totFields = append(totFields, mechanics.Int(combatantNames[i]+"_total", 0, s.maxTotal(), "T of combatant "+combatantNames[i]))
		fields = append(fields, mechanics.Flag(combatantNames[i]+"_top", "combatant "+combatantNames[i]+" is first or tied for first"))
	}
	fields = append(fields, mechanics.Int("a_position", 1, k, "A's place in the order (1 = first; shared places count as one)"))
	totals, rec := mechanics.NewRecord(totFields...), mechanics.NewRecord(fields...)
	var totSlots, topSlots [4]mechanics.Slot
	var acc mechanics.Node = mechanics.Const{V: totals.Start()}
	for i, s := range sides {
		slot := totals.Slot(totFields[i].Name)
		totSlots[i], topSlots[i] = slot, rec.Slot(fields[i].Name)
		acc = mechanics.Combine{X: acc, Y: s.roll(o), Name: "totals", F: func(x, r int) int { return slot.Set(x, s.total(r)) }}
	}
	pos, start := rec.Slot("a_position"), rec.Start()
	// A uniformly random order π breaks ties (k! equally likely orders).
	perms := permutations(k)
	var tieBreak mechanics.Node = mechanics.Const{V: 1}
	if coin {
		tieBreak = mechanics.D(len(perms))
	}
	out := mechanics.Combine{X: acc, Y: tieBreak, Name: "order", F: func(x, pi int) int {
		var tot, rank [4]int
		for i := 0; i < k; i++ {
			tot[i] = totSlots[i].Get(x)
		}
		if coin {
			for place, who := range perms[pi-1] {
				rank[who] = place
			}
		}
		before := func(i, j int) bool { return tot[i] > tot[j] || (coin && tot[i] == tot[j] && rank[i] < rank[j]) }
		code, aPos := start, 1
		for i := 0; i < k; i++ {
			beaten := false
			for j := 0; j < k; j++ {
				if j != i && before(j, i) {
					beaten = true
				}
			}
			code = topSlots[i].SetBool(code, !beaten)
			if i > 0 && before(i, 0) {
				aPos++
			}
		}
		return pos.Set(code, aPos)
	}}
	spec := &mechanics.Spec{Record: rec, Outcome: out}
	spec.Report("a_position")
	var tops []expr.Expr
	for i := 0; i < k; i++ {
		tops = append(tops, expr.F(fields[i].Name))
	}
	for i := 0; i < k; i++ {
		alone := []expr.Expr{tops[i]}
		for j := 0; j < k; j++ {
			if j != i {
				alone = append(alone, expr.Not(tops[j]))
			}
		}
		spec.Event(combatantNames[i]+"_first", "combatant "+combatantNames[i]+" acts first, alone", expr.And(alone...))
	}
	count := tops[0]
	for _, t := range tops[1:] {
		count = expr.Add(count, t)
	}
	spec.Event("tie_for_first", "two or more combatants share the first place (simultaneous ties)", expr.Ge(count, expr.K(2)))
	return spec
}

// permutations lists the orders of 0..k−1.
func permutations(k int) [][]int {
	if k == 1 {
		return [][]int{{0}}
	}
	var out [][]int
	for _, p := range permutations(k - 1) {
		for pos := 0; pos <= len(p); pos++ {
			q := append(append(append([]int(nil), p[:pos]...), k-1), p[pos:]...)
			out = append(out, q)
		}
	}
	return out
}

// surpriseRecord is the outcome of an ambush: whether the victim noticed,
// and whether the attack would hit an unaware and an aware victim.
var (
	surpriseRecord = mechanics.NewRecord(
		mechanics.Flag("notice", "the victim notices the ambush (MoS ≥ 1; a tie keeps the surprise)"),
		mechanics.Flag("hit_unaware", "the attack hits an unaware victim (vs TN 1 + its combat modifiers)"),
		mechanics.Flag("hit_aware", "the attack hits an aware victim (opposed by its defence roll)"),
	)
	slotNotice     = surpriseRecord.Slot("notice")
	slotHitUnaware = surpriseRecord.Slot("hit_unaware")
	slotHitAware   = surpriseRecord.Slot("hit_aware")
)

func surprise() *mechanics.Mechanic {
	ps := append(sideParams("victim_", "the would-be victim's Awareness + Perception", 2, 2), sideParams("ambusher_", "the ambusher's Stealth + Agility", 2, 2)...)
	ps = append(ps, sideParams("attack_", "the attacker's attack", 2, 2)...)
	ps = append(ps, sideParams("defence_", "the defender's Defense + Agility (when aware)", 2, 2)...)
	ps = append(ps, ip("defence_combat_modifier", 0, -10, 20, "the defender's combat modifiers (cover, lighting…): the unaware TN is 1 + this"))
	return &mechanics.Mechanic{
		ID:      "ag.surprise",
		Summary: "noticing an ambush, and the size of the bonus for attacking the unwary",
		Doc: "The victim rolls Awareness + Perception against the ambusher's Stealth + Agility and notices only on MoS ≥ 1 (a tie keeps " +
			"the surprise). An unaware target is attacked as an unopposed test vs TN = 1 + its combat modifiers; an aware one defends " +
			"with an opposed roll.",
		Params:  ps,
		Options: coreOpts,
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			v, am, at, df := sideOf(c, "victim_"), sideOf(c, "ambusher_"), sideOf(c, "attack_"), sideOf(c, "defence_")
			unawareTN := 1 + c.Int("defence_combat_modifier")
			start := surpriseRecord.Start()
			notice := mechanics.Combine{X: v.roll(o), Y: am.roll(o), Name: "notice", F: func(x, y int) int {
				return slotNotice.SetBool(start, v.total(x)-am.total(y) >= 1)
			}}
			hits := mechanics.Combine{X: at.roll(o), Y: df.roll(o), Name: "hits", F: func(x, y int) int {
				unaware := success(reportedMoS(at.total(x)-unawareTN, o.Tie), o.Tie)
				aware := success(reportedMoS(at.total(x)-df.total(y), o.Tie), o.Tie)
				return slotHitAware.SetBool(slotHitUnaware.SetBool(start, unaware), aware)
			}}
			// The two halves set disjoint fields of the record.
			out := mechanics.Combine{X: notice, Y: hits, Name: "ambush", F: func(n, h int) int {
				return slotHitAware.Set(slotHitUnaware.Set(n, slotHitUnaware.Get(h)), slotHitAware.Get(h))
			}}
			noticed, unaware, aware := expr.F("notice"), expr.F("hit_unaware"), expr.F("hit_aware")
			spec := &mechanics.Spec{Record: surpriseRecord, Outcome: out}
			spec.Report("notice", "hit_unaware", "hit_aware").
				Event("hit", "the attack hits: opposed if the victim noticed, else vs the unaware TN",
					expr.Or(expr.And(noticed, aware), expr.And(expr.Not(noticed), unaware))).
				Event("ambush_bonus", "the attack would hit the unaware victim but not the aware one", expr.And(unaware, expr.Not(aware)))
			return spec, nil
		},
	}
}
