package ag

import (
	"fmt"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// The mechanics of using a skill: rolling or taking the average, group
// assistance, several actions in a round, the penalty of wounds, swimming,
// social persuasion and jumping. Each is one roll or a few independent
// rolls of the core pool.

// skillMechanics are the mechanics declared in skills.go.
func skillMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{takeAverage(), assist(), multiAction(), woundPenalty(), swim(), social(), jump()}
}

var optAveragePenalties = mechanics.SwitchOf("ag.take_average", "penalties",
	"ignored: the average ignores modifiers (the text); applied: wound penalties and modifiers still apply to the average",
	averagePenaltiesIgnored, averagePenaltiesApplied)

func takeAverage() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.take_average",
		Summary: "rolling vs taking the average (2 + skill, no attribute or modifiers)",
		Doc: "When not rushed or threatened a character may take 2 + skill as the result instead of rolling; attributes and modifiers " +
			"are not added. The rolled result is the skill test. Averaging succeeds exactly when TN ≤ skill + 1, so the break-even TN " +
			"(where rolling becomes the better choice for success) is skill + 2 — and averaging ignores the attribute, so high-attribute " +
			"characters should almost never average.",
		Params:  []mechanics.Param{pSkill, pAttr, named(pModifier, "modifier", "situational modifiers (wound penalties…); added to the average only with opt.penalties=applied"), pTN},
		Options: coreWith(optAveragePenalties),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			n, a, m, tn := c.Int("skill"), c.Int("attribute"), c.Int("modifier"), c.Int("tn")
			avg := 2 + n
			if optAveragePenalties.Of(c) == averagePenaltiesApplied {
				avg = max(0, avg+m)
			}
			// The average is a constant: its MoS, success and band are
			// numbers, and the outputs compare the roll with them.
			avgMoS := reportedMoS(avg-tn, o.Tie)
			avgOK := expr.K(int64(bit(success(avgMoS, o.Tie))))
			avgBand := expr.K(int64(mosBand(avgMoS)))
			mos := mosExpr("", a, m, tn, o.Tie)
			ok := successExpr(mos, o.Tie)
			band := bandExpr(mos)
			spec := &mechanics.Spec{Record: rollRecord, Outcome: Pool(n, o)}
			spec.Var("mos", "MoS when rolling", mos).
				Var("average_mos", "MoS when taking the average 2 + skill (a constant)", expr.K(int64(avgMoS))).
				Event("roll_success", "rolling succeeds (MoS ≥ 1, or per the tie option)", ok).
				Event("average_success", "taking the average succeeds (certain or impossible)", avgOK).
				Event("roll_better_band", "the roll lands in a better MoS band than the average", expr.Gt(band, avgBand)).
				Event("roll_same_band", "the roll lands in the average's MoS band", expr.Eq(band, avgBand)).
				Event("roll_worse_band", "the roll lands in a worse MoS band than the average", expr.Lt(band, avgBand)).
				Event("roll_success_average_fails", "rolling succeeds where the average fails", expr.And(ok, expr.Not(avgOK))).
				Event("roll_fails_average_succeeds", "rolling fails where the average succeeds", expr.And(expr.Not(ok), avgOK)).
				Band("mos_band", "the seven MoS bands of the roll", bandLabels, band)
			return spec, nil
		},
	}
}

// assistCap is the largest group bonus of ag.assist (opt.beyond_32=cap_4).
const assistCap = 4

// assistBonus is b(g) of ag.assist (docs/mechanics.md#ag-assist): 0
// alone, then +1 for 2–4, +2 for 5–8, +3 for 9–16, +4 for 17–32, capped at
// assistCap unless extend is set.
func assistBonus(g int, extend bool) int {
	if g <= 1 {
		return 0
	}
	b := max(1, ceilLog2(g)-1)
	if !extend {
		b = min(b, assistCap)
	}
	return b
}

// assistTable writes assistBonus for the bonuses from..to (extended past
// the cap): "+1 for 2–4, +2 for 5–8, …".
func assistTable(from, to int) string {
	var rows []string
	for g := 2; assistBonus(g, true) <= to; g++ {
		b := assistBonus(g, true)
		if b < from || assistBonus(g-1, true) == b {
			continue
		}
		last := g
		for assistBonus(last+1, true) == b {
			last++
		}
		rows = append(rows, fmt.Sprintf("%s for %d–%d", kit.Signed(b), g, last))
	}
	return strings.Join(rows, ", ")
}

// ceilLog2 is ⌈log₂ g⌉ for g ≥ 1.
func ceilLog2(g int) int {
	k := 0
	for 1<<k < g {
		k++
	}
	return k
}

var (
	optGroupCounts = mechanics.SwitchOf("ag.assist", "group_counts",
		"includes_actor: g counts the actor (one helper → size 2 → +1); helpers_only: g counts the helpers", groupIncludesActor, groupHelpersOnly)
	optBeyond32 = mechanics.SwitchOf("ag.assist", "beyond_32", fmt.Sprintf("cap_4: at most %s; extend_log: %s, …", kit.Signed(assistCap), assistTable(assistCap+1, assistCap+1)), beyondCap4, beyondExtendLog)
)

func assist() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.assist",
		Summary: "group assistance: " + assistTable(1, assistCap) + " people",
		Doc: "Helpers with at least one rank in the skill who can coordinate give the actor a bonus by group size: " +
			"b(g) = max(1, ⌈log₂ g⌉ − 1) for g ≥ 2. The events compare the same roll with one helper fewer and with no help, " +
			"showing the logarithmic saturation.",
		Params:  []mechanics.Param{ip("group", 3, 1, 200, "group size g (see opt.group_counts; sweep 1–40)"), pSkill, pAttr, pModifier, pTN},
		Options: coreWith(optGroupCounts, optBeyond32),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			g := c.Int("group")
			if optGroupCounts.Of(c) == groupHelpersOnly {
				g++ // the bonus table is by group size including the actor
			}
			ext := optBeyond32.Of(c) == beyondExtendLog
			n, a, m, tn := c.Int("skill"), c.Int("attribute"), c.Int("modifier"), c.Int("tn")
			b, b1 := assistBonus(g, ext), assistBonus(g-1, ext)
			mos := mosExpr("", a, m+b, tn, o.Tie)
			ok := func(bonus int) expr.Expr { return successExpr(mosExpr("", a, m+bonus, tn, o.Tie), o.Tie) }
			spec := &mechanics.Spec{Record: rollRecord, Outcome: Pool(n, o)}
			spec.Var("mos", "MoS with the group's help", mos).
				Var("bonus", "assistance bonus b(g) (a constant)", expr.K(int64(b))).
				Event("success", "succeeds with the group's help", ok(b)).
				Event("success_one_fewer", "the same roll succeeds with one helper fewer", ok(b1)).
				Event("success_alone", "the same roll succeeds without help", ok(0)).
				Event("gain_from_last_helper", "succeeds with the group, fails with one helper fewer", expr.And(ok(b), expr.Not(ok(b1)))).
				Band("mos_band", "the seven MoS bands with the group's help", bandLabels, bandExpr(mos))
			return spec, nil
		},
	}
}

func multiAction() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.multi_action",
		Summary: "j major actions in a round, each at −(j − 1): how many succeed",
		Doc: "One major action per round is free; each extra declared action imposes −1 on all major action tests that round. " +
			"The j tests are independent rolls at modifier M − (j − 1). Compare E[successes] across j " +
			"to see whether a second attack at −1 beats one attack.",
		Params:  []mechanics.Param{ip("actions", 2, 1, 10, "number of major actions j this round"), pSkill, pAttr, pModifier, pTN},
		Options: coreOpts,
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			j := c.Int("actions")
			a, m, tn := c.Int("attribute"), c.Int("modifier")-(j-1), c.Int("tn")
			rec := mechanics.NewRecord(mechanics.Int("successes", 0, j, "major actions that succeed"))
			one := mechanics.Map{X: Pool(c.Int("skill"), o), Name: "success", F: func(r int) int {
				return bit(success(rollMoS(r, a, m, tn, o.Tie), o.Tie))
			}}
			k := expr.F("successes")
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Encode(rec, rec.Slot("successes"), kit.Binomial(one, j))}
			spec.Report("successes").
				Event("all_succeed", "every action succeeds", expr.Eq(k, expr.K(int64(j)))).
				Event("at_least_one", "at least one action succeeds", expr.Ge(k, expr.K(1))).
				Event("none", "no action succeeds", expr.Eq(k, expr.K(0)))
			return spec, nil
		},
	}
}

// maxWoundPenalty bounds |woundRules.penalty| over the parameter ranges:
// 20 of each injury are (20·2 + 20·4 + 20·1 + 20·2) halves = −90.
const maxWoundPenalty = 90

// injuries are the wounds and bruises a character carries.
type injuries struct{ fleshWounds, deepWounds, fleshBruises, deepBruises int }

// woundRules are the readings of the wound penalty table, the options of
// ag.wound_penalty.
type woundRules struct {
	rows     woundRows
	rounding woundRounding
	stacking woundStacking
}

func woundRulesOf(c mechanics.Config) woundRules {
	return woundRules{optWoundRows.Of(c), optWoundRounding.Of(c), optWoundStacking.Of(c)}
}

// penalty is the penalty of ag.wound_penalty (a negative number or 0) for
// the injuries in.
func (r woundRules) penalty(in injuries) int {
	// Penalties in halves, per injury in order of severity.
	var items []int
	add := func(count, halves int) {
		for i := 0; i < count; i++ {
			items = append(items, halves)
		}
	}
	if r.rows == rowsSubsequentWounds {
		// First wound of each kind −1 / −2, later ones −½ / −1; bruises free.
		if in.fleshWounds > 0 {
			add(1, 2)
			add(in.fleshWounds-1, 1)
		}
		if in.deepWounds > 0 {
			add(1, 4)
			add(in.deepWounds-1, 2)
		}
	} else {
		add(in.fleshWounds, 2)
		add(in.deepWounds, 4)
		add(in.fleshBruises, 1)
		add(in.deepBruises, 2)
	}
	halves := 0
	for _, h := range items {
		if r.stacking == stackWorstOnly {
			halves = max(halves, h)
		} else {
			halves += h
		}
	}
	if r.rounding == woundRoundHalfUp {
		return -((halves + 1) / 2)
	}
	return -(halves / 2)
}

var (
	optWoundRows = mechanics.SwitchOf("ag.wound_penalty", "rows",
		"second_pair_is_bruises: −½ / −1 are flesh / deep bruises; second_pair_is_subsequent_wounds: they are the second and later wounds of each kind (bruises then cost nothing)",
		rowsBruises, rowsSubsequentWounds)
	optWoundRounding = mechanics.SwitchOf("ag.wound_penalty", "rounding", "truncate: drop the half; round_half_up: −½ counts as −1", woundTruncate, woundRoundHalfUp)
	optWoundStacking = mechanics.SwitchOf("ag.wound_penalty", "stacking", "per_wound: penalties add; worst_only: only the worst injury counts", stackPerWound, stackWorstOnly)
)

func woundPenalty() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.wound_penalty",
		Summary: "penalty from wounds and bruises (deterministic helper of the injury chains)",
		Doc: "A flesh wound −1, a deep wound −2, a flesh bruise −½, a deep bruise −1 (our reading of the seed table's two pairs of rows); " +
			"the total is truncated. One flesh wound forbids sprinting, a deep wound running, two deep wounds standing. " +
			"Deterministic: both engines return a point mass.",
		Params: []mechanics.Param{
			ip("flesh_wounds", 1, 0, 20, "flesh wounds"), ip("deep_wounds", 0, 0, 20, "deep wounds"),
			ip("flesh_bruises", 0, 0, 20, "flesh bruises"), ip("deep_bruises", 0, 0, 20, "deep bruises"),
		},
		Options: mechanics.Options(optWoundRows, optWoundRounding, optWoundStacking),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			in := injuries{c.Int("flesh_wounds"), c.Int("deep_wounds"), c.Int("flesh_bruises"), c.Int("deep_bruises")}
			p := woundRulesOf(c).penalty(in)
			rec := mechanics.NewRecord(mechanics.Int("penalty", -maxWoundPenalty, 0, "the modifier on every test (0 or negative)"))
			flag := func(b bool) expr.Expr { return expr.K(int64(bit(b))) }
			spec := &mechanics.Spec{Record: rec, Outcome: mechanics.Const{V: rec.Slot("penalty").Set(rec.Start(), p)}}
			spec.Report("penalty").
				Event("no_sprinting", "at least one wound: no sprinting", flag(in.fleshWounds+in.deepWounds >= 1)).
				Event("no_running", "a deep wound: no running", flag(in.deepWounds >= 1)).
				Event("cannot_stand", "two deep wounds: standing is impossible", flag(in.deepWounds >= 2))
			return spec, nil
		},
	}
}

func swim() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.swim",
		Summary: "acting in water: the lower of the skill and Athletics, encumbrance penalties doubled",
		Doc: "Staying afloat is free; swimming against a current is an Athletics + Body test with a GM-set TN; actions in water use the " +
			"lower of the relevant skill and Athletics, and encumbrance penalties are doubled.",
		Params: []mechanics.Param{
			named(pSkill, "skill", "the relevant skill (Athletics itself when swimming against a current)"),
			ip("athletics", 2, 0, 40, "Athletics skill"), named(pAttr, "attribute", "attribute (Body when swimming)"),
			pModifier, ip("encumbrance", 0, 0, 10, "encumbrance penalty on land (doubled in water)"), pTN,
		},
		Options: coreOpts,
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			n := min(c.Int("skill"), c.Int("athletics"))
			return testSpec(Pool(n, o), c.Int("attribute"), c.Int("modifier")-2*c.Int("encumbrance"), c.Int("tn"), o), nil
		},
	}
}

var socialSkills = []string{"deception", "intimidation", "negotiation", "wrangle"}

func social() *mechanics.Mechanic {
	ps := []mechanics.Param{}
	for i, s := range socialSkills {
		ps = append(ps, ip(s, float64(2-min(i, 2)), 0, 40, s+" skill (0 = not usable: one attempt per scene per skill with at least one rank)"))
	}
	ps = append(ps, named(pAttr, "attribute", "the attribute added to the social skills"),
		ip("disposition_tn", 4, 1, 20, "TN by disposition: hostile 6, neutral 4, friendly 2"),
		ip("tn_modifier", 0, -10, 10, "sum of: simple −1, complex +1, violates the NPC's values +2, benefits the NPC −3, dangerous to the NPC +3"),
		pModifier)
	return &mechanics.Mechanic{
		ID:      "ag.social",
		Summary: "persuading an NPC: one attempt per usable social skill, does any succeed?",
		Doc: "One attempt per scene per skill (Deception, Intimidation, Negotiation, Wrangle) against TN by disposition plus situational " +
			"TN modifiers. The attempts are independent: P(any) = 1 − Π(1 − pᵢ).",
		Params:  ps,
		Options: coreOpts,
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			tn := c.Int("disposition_tn") + c.Int("tn_modifier")
			a, m := c.Int("attribute"), c.Int("modifier")
			// The record holds one success flag per usable skill.
			var fields []mechanics.Field
			var pools []int
			for _, s := range socialSkills {
				if n := c.Int(s); n >= 1 {
					fields = append(fields, mechanics.Flag(s+"_success", "the "+s+" attempt succeeds"))
					pools = append(pools, n)
				}
			}
			if len(fields) == 0 {
				return nil, fmt.Errorf("ag.social: no usable skill (set at least one of %v to 1 or more)", socialSkills)
			}
			rec := mechanics.NewRecord(fields...)
			var acc mechanics.Node = mechanics.Const{V: rec.Start()}
			var names []string
			var flags []expr.Expr
			for i, f := range fields {
				slot := rec.Slot(f.Name)
				try := mechanics.Map{X: Pool(pools[i], o), Name: f.Name, F: func(r int) int { return bit(success(rollMoS(r, a, m, tn, o.Tie), o.Tie)) }}
				acc = mechanics.Combine{X: acc, Y: try, Name: f.Name, F: func(x, ok int) int { return slot.Set(x, ok) }}
				names = append(names, f.Name)
				flags = append(flags, expr.F(f.Name))
			}
			count := flags[0]
			for _, f := range flags[1:] {
				count = expr.Add(count, f)
			}
			spec := &mechanics.Spec{Record: rec, Outcome: acc}
			spec.Var("successes", "number of usable skills whose attempt succeeds", count).
				Event("any_success", "at least one attempt succeeds", expr.Or(flags...)).
				Report(names...)
			return spec, nil
		},
	}
}

var (
	optJumpMovement  = mechanics.ChoiceOf("ag.jump", "movement", "movement before the jump", movements...)
	optJumpSurface   = mechanics.ChoiceOf("ag.jump", "surface", "take-off surface, with its TN: "+surfaceTNs(), jumpSurfaces...)
	optJumpDirection = mechanics.ChoiceOf("ag.jump", "direction", fmt.Sprintf("horizontal: %s per MoS; vertical: %s",
		metres(jumpHorizontal.cmPerMoS()), metres(jumpVertical.cmPerMoS())), jumpHorizontal, jumpVertical)
	optJumpBonus = mechanics.SwitchOf("ag.jump", "move_bonus",
		fmt.Sprintf("seed_reading: %s (the movement's defence bonus); none: movement adds nothing", moveBonuses(moveWalk)), moveBonusSeedReading, moveBonusNone)
)

func jump() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.jump",
		Summary: fmt.Sprintf("jumping: Athletics + Body + movement bonus vs the surface TN; %s (horizontal) per MoS", metres(jumpHorizontal.cmPerMoS())),
		Doc: fmt.Sprintf("Athletics + Body plus the defensive bonus of the current movement (our reading: %s) "+
			"vs the surface TN (%s). Horizontal distance %s per point of MoS, vertical "+
			"%s; MoS 0 gives no distance. P(clear a gap g) = P(MoS ≥ ⌈g / %s⌉), so a gap of 0 needs MoS ≥ 0.",
			moveBonuses(moveStanding), surfaceTNs(), metres(jumpHorizontal.cmPerMoS()), metres(jumpVertical.cmPerMoS()),
			strings.TrimSuffix(metres(jumpHorizontal.cmPerMoS()), " m")),
		Params: []mechanics.Param{
			named(pSkill, "athletics", "Athletics skill"), named(pAttr, "body", "Body attribute"), pModifier,
			ip("gap_cm", 150, 0, 5000, "the gap (or height) to clear, in centimetres"),
		},
		Options: coreWith(optJumpMovement, optJumpSurface, optJumpDirection, optJumpBonus),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			m := c.Int("modifier") + optJumpMovement.Of(c).bonus(optJumpBonus.Of(c))
			tn := optJumpSurface.Of(c).tn()
			per := optJumpDirection.Of(c).cmPerMoS()
			gap := c.Int("gap_cm")
			// The MoS needed to clear the gap: ⌈gap / per⌉, 0 for no gap.
			need := (gap + per - 1) / per
			mos := mosExpr("", c.Int("body"), m, tn, o.Tie)
			spec := &mechanics.Spec{Record: rollRecord, Outcome: Pool(c.Int("athletics"), o)}
			spec.Vars = append(spec.Vars, mechanics.Var{Name: "distance_cm", Doc: fmt.Sprintf("distance jumped: %d cm per point of MoS, none for MoS ≤ 0", per), Unit: "cm",
				Expr: expr.Mul(expr.K(int64(per)), expr.Max(expr.K(0), mos))})
			spec.Var("mos", "margin of success T − TN", mos).
				Event("clears_gap", fmt.Sprintf("MoS ≥ ⌈gap / %d cm⌉ = %d: the jump clears the gap", per, need), expr.Ge(mos, expr.K(int64(need)))).
				Event("success", "MoS ≥ 1 (or per the tie option)", successExpr(mos, o.Tie)).
				Event("fumble", "every die shows 1 (a mishap)", expr.F("fumble")).
				Band("mos_band", "the seven MoS bands of the core roll", bandLabels, bandExpr(mos))
			return spec, nil
		},
	}
}
