package ag

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// The §1.2–1.5 and §1.8 mechanics that are single tests or a few independent
// tests.

// testsMechanics are the mechanics declared in tests.go.
func testsMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{
		takeAverage(), assist(), multiAction(), woundPenalty(), swim(), social(), jump(), initiative(), surprise(),
		tnSpell(), infoLevel(), banish(),
	}
}

var optAveragePenalties = mechanics.SwitchOf("ag.take_average", "penalties",
	"ignored: the average ignores modifiers (the text); applied: wound penalties and modifiers still apply to the average",
	AveragePenaltiesIgnored, AveragePenaltiesApplied)

func takeAverage() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.take_average",
		Summary: "rolling vs taking the average (2 + skill, no attribute or modifiers)",
		Doc: "When not rushed or threatened a character may take 2 + skill as the result instead of rolling; attributes and modifiers " +
			"are not added. The rolled result is the skill test. Averaging succeeds exactly when TN ≤ skill + 1, so the break-even TN " +
			"(where rolling becomes the better choice for success) is skill + 2 — and averaging ignores the attribute, so high-attribute " +
			"characters should almost never average (mechanics.md §1.2).",
		Params:  []mechanics.Param{pSkill, pAttr, named(pModifier, "modifier", "situational modifiers (wound penalties…); added to the average only with opt.penalties=applied"), pTN},
		Options: coreWith(optAveragePenalties),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			n, a, m, tn := c.Int("skill"), c.Int("attribute"), c.Int("modifier"), c.Int("tn")
			avg := 2 + n
			if optAveragePenalties.Of(c) == AveragePenaltiesApplied {
				avg = max(0, avg+m)
			}
			// The average is a constant: its MoS, success and band are
			// numbers, and the outputs compare the roll with them.
			avgMoS := reportedMoS(avg-tn, o.Tie)
			avgOK := expr.K(int64(bit(success(avgMoS, o.Tie))))
			avgBand := expr.K(int64(Band(avgMoS)))
			mos := mosExpr("", a, m, tn, o.Tie)
			ok := successExpr(mos, o.Tie)
			band := bandExpr(mos)
			spec := &mechanics.Spec{Record: RollRecord, Outcome: Pool(n, o)}
			spec.Var("mos", "MoS when rolling", mos).
				Var("average_mos", "MoS when taking the average 2 + skill (a constant)", expr.K(int64(avgMoS))).
				Event("roll_success", "rolling succeeds (MoS ≥ 1, or per the tie option)", ok).
				Event("average_success", "taking the average succeeds (certain or impossible)", avgOK).
				Event("roll_better_band", "the roll lands in a better MoS band than the average", expr.Gt(band, avgBand)).
				Event("roll_same_band", "the roll lands in the average's MoS band", expr.Eq(band, avgBand)).
				Event("roll_worse_band", "the roll lands in a worse MoS band than the average", expr.Lt(band, avgBand)).
				Event("roll_success_average_fails", "rolling succeeds where the average fails", expr.And(ok, expr.Not(avgOK))).
				Event("roll_fails_average_succeeds", "rolling fails where the average succeeds", expr.And(expr.Not(ok), avgOK)).
				Band("mos_band", "the seven MoS bands of the roll", BandLabels, band)
			return spec, nil
		},
	}
}

// AssistBonus is b(g) of §1.2: 0 alone, then +1 for 2–4, +2 for 5–8, +3 for
// 9–16, +4 for 17–32, capped at +4 unless extend is set.
func AssistBonus(g int, extend bool) int {
	if g <= 1 {
		return 0
	}
	b := max(1, ceilLog2(g)-1)
	if !extend {
		b = min(b, 4)
	}
	return b
}

var (
	optGroupCounts = mechanics.SwitchOf("ag.assist", "group_counts",
		"includes_actor: g counts the actor (one helper → size 2 → +1); helpers_only: g counts the helpers", GroupIncludesActor, GroupHelpersOnly)
	optBeyond32 = mechanics.SwitchOf("ag.assist", "beyond_32", "cap_4: at most +4; extend_log: +5 for 33–64, …", BeyondCap4, BeyondExtendLog)
)

func assist() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.assist",
		Summary: "group assistance: +1 for 2–4, +2 for 5–8, +3 for 9–16, +4 for 17–32 people",
		Doc: "Helpers with at least one rank in the skill who can coordinate give the actor a bonus by group size: " +
			"b(g) = max(1, ⌈log₂ g⌉ − 1) for g ≥ 2. The events compare the same roll with one helper fewer and with no help, " +
			"showing the logarithmic saturation (mechanics.md §1.2).",
		Params:  []mechanics.Param{ip("group", 3, 1, 200, "group size g (see opt.group_counts; sweep 1–40)"), pSkill, pAttr, pModifier, pTN},
		Options: coreWith(optGroupCounts, optBeyond32),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			g := c.Int("group")
			if optGroupCounts.Of(c) == GroupHelpersOnly {
				g++ // the bonus table is by group size including the actor
			}
			ext := optBeyond32.Of(c) == BeyondExtendLog
			n, a, m, tn := c.Int("skill"), c.Int("attribute"), c.Int("modifier"), c.Int("tn")
			b, b1 := AssistBonus(g, ext), AssistBonus(g-1, ext)
			mos := mosExpr("", a, m+b, tn, o.Tie)
			ok := func(bonus int) expr.Expr { return successExpr(mosExpr("", a, m+bonus, tn, o.Tie), o.Tie) }
			spec := &mechanics.Spec{Record: RollRecord, Outcome: Pool(n, o)}
			spec.Var("mos", "MoS with the group's help", mos).
				Var("bonus", "assistance bonus b(g) (a constant)", expr.K(int64(b))).
				Event("success", "succeeds with the group's help", ok(b)).
				Event("success_one_fewer", "the same roll succeeds with one helper fewer", ok(b1)).
				Event("success_alone", "the same roll succeeds without help", ok(0)).
				Event("gain_from_last_helper", "succeeds with the group, fails with one helper fewer", expr.And(ok(b), expr.Not(ok(b1)))).
				Band("mos_band", "the seven MoS bands with the group's help", BandLabels, bandExpr(mos))
			return spec, nil
		},
	}
}

func multiAction() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.multi_action",
		Summary: "j major actions in a round, each at −(j − 1): how many succeed",
		Doc: "One major action per round is free; each extra declared action imposes −1 on all major action tests that round. " +
			"The j tests are independent rolls at modifier M − (j − 1) (mechanics.md §1.2). Compare E[successes] across j " +
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

// maxWoundPenalty bounds |WoundPenalty| over the parameter ranges: 20 of
// each injury are (20·2 + 20·4 + 20·1 + 20·2) halves = −90.
const maxWoundPenalty = 90

// WoundPenalty is the §1.2 penalty (a negative number or 0) for flesh/deep
// wounds and flesh/deep bruises under the given options.
func WoundPenalty(fw, dw, fb, db int, rows WoundRows, rounding WoundRounding, stacking WoundStacking) int {
	// Penalties in halves, per injury in order of severity.
	var items []int
	add := func(count, halves int) {
		for i := 0; i < count; i++ {
			items = append(items, halves)
		}
	}
	if rows == RowsSubsequentWounds {
		// First wound of each kind −1 / −2, later ones −½ / −1; bruises free.
		if fw > 0 {
			add(1, 2)
			add(fw-1, 1)
		}
		if dw > 0 {
			add(1, 4)
			add(dw-1, 2)
		}
	} else {
		add(fw, 2)
		add(dw, 4)
		add(fb, 1)
		add(db, 2)
	}
	halves := 0
	for _, h := range items {
		if stacking == StackWorstOnly {
			halves = max(halves, h)
		} else {
			halves += h
		}
	}
	if rounding == WoundRoundHalfUp {
		return -((halves + 1) / 2)
	}
	return -(halves / 2)
}

var (
	optWoundRows = mechanics.SwitchOf("ag.wound_penalty", "rows",
		"second_pair_is_bruises: −½ / −1 are flesh / deep bruises; second_pair_is_subsequent_wounds: they are the second and later wounds of each kind (bruises then cost nothing)",
		RowsBruises, RowsSubsequentWounds)
	optWoundRounding = mechanics.SwitchOf("ag.wound_penalty", "rounding", "truncate: drop the half; round_half_up: −½ counts as −1", WoundTruncate, WoundRoundHalfUp)
	optWoundStacking = mechanics.SwitchOf("ag.wound_penalty", "stacking", "per_wound: penalties add; worst_only: only the worst injury counts", StackPerWound, StackWorstOnly)
)

func woundPenalty() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.wound_penalty",
		Summary: "penalty from wounds and bruises (deterministic helper of the injury chains)",
		Doc: "A flesh wound −1, a deep wound −2, a flesh bruise −½, a deep bruise −1 (our reading of the seed table's two pairs of rows); " +
			"the total is truncated. One flesh wound forbids sprinting, a deep wound running, two deep wounds standing (mechanics.md §1.2). " +
			"Deterministic: both engines return a point mass.",
		Params: []mechanics.Param{
			ip("flesh_wounds", 1, 0, 20, "flesh wounds"), ip("deep_wounds", 0, 0, 20, "deep wounds"),
			ip("flesh_bruises", 0, 0, 20, "flesh bruises"), ip("deep_bruises", 0, 0, 20, "deep bruises"),
		},
		Options: mechanics.Options(optWoundRows, optWoundRounding, optWoundStacking),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			fw, dw := c.Int("flesh_wounds"), c.Int("deep_wounds")
			p := WoundPenalty(fw, dw, c.Int("flesh_bruises"), c.Int("deep_bruises"), optWoundRows.Of(c), optWoundRounding.Of(c), optWoundStacking.Of(c))
			rec := mechanics.NewRecord(mechanics.Int("penalty", -maxWoundPenalty, 0, "the modifier on every test (0 or negative)"))
			flag := func(b bool) expr.Expr { return expr.K(int64(bit(b))) }
			spec := &mechanics.Spec{Record: rec, Outcome: mechanics.Const{V: rec.Slot("penalty").Set(rec.Start(), p)}}
			spec.Report("penalty").
				Event("no_sprinting", "at least one wound: no sprinting", flag(fw+dw >= 1)).
				Event("no_running", "a deep wound: no running", flag(dw >= 1)).
				Event("cannot_stand", "two deep wounds: standing is impossible", flag(dw >= 2))
			return spec, nil
		},
	}
}

func swim() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.swim",
		Summary: "acting in water: the lower of the skill and Athletics, encumbrance penalties doubled",
		Doc: "Staying afloat is free; swimming against a current is an Athletics + Body test with a GM-set TN; actions in water use the " +
			"lower of the relevant skill and Athletics, and encumbrance penalties are doubled (mechanics.md §1.5).",
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
			"TN modifiers. The attempts are independent: P(any) = 1 − Π(1 − pᵢ) (mechanics.md §1.5).",
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
	optJumpMovement  = mechanics.ChoiceOf("ag.jump", "movement", "movement before the jump", MoveStanding, MoveWalk, MoveRun, MoveSprint)
	optJumpSurface   = mechanics.ChoiceOf("ag.jump", "surface", "take-off surface: standard TN 3, rough 6, slippery 10, climbing 14", SurfaceStandard, SurfaceRough, SurfaceSlippery, SurfaceClimbing)
	optJumpDirection = mechanics.ChoiceOf("ag.jump", "direction", "horizontal: 0.75 m per MoS; vertical: 0.25 m", JumpHorizontal, JumpVertical)
	optJumpBonus     = mechanics.SwitchOf("ag.jump", "move_bonus",
		"seed_reading: +1 walk, +2 run, +3 sprint (the movement's defence bonus); none: movement adds nothing", MoveBonusSeedReading, MoveBonusNone)
)

func jump() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.jump",
		Summary: "jumping: Athletics + Body + movement bonus vs the surface TN; 0.75 m (horizontal) per MoS",
		Doc: "Athletics + Body plus the defensive bonus of the current movement (our reading: +0 standing, +1 walk, +2 run, +3 sprint) " +
			"vs the surface TN (standard 3, rough 6, slippery 10, climbing 14). Horizontal distance 0.75 m per point of MoS, vertical " +
			"0.25 m; MoS 0 gives no distance. P(clear a gap g) = P(MoS ≥ ⌈g / 0.75⌉), so a gap of 0 needs MoS ≥ 0 (mechanics.md §1.5).",
		Params: []mechanics.Param{
			named(pSkill, "athletics", "Athletics skill"), named(pAttr, "body", "Body attribute"), pModifier,
			ip("gap_cm", 150, 0, 5000, "the gap (or height) to clear, in centimetres"),
		},
		Options: coreWith(optJumpMovement, optJumpSurface, optJumpDirection, optJumpBonus),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			m := c.Int("modifier") + optJumpMovement.Of(c).Bonus(optJumpBonus.Of(c))
			tn := optJumpSurface.Of(c).TN()
			per := optJumpDirection.Of(c).CmPerMoS()
			gap := c.Int("gap_cm")
			// The MoS needed to clear the gap: ⌈gap / per⌉, 0 for no gap.
			need := (gap + per - 1) / per
			mos := mosExpr("", c.Int("body"), m, tn, o.Tie)
			spec := &mechanics.Spec{Record: RollRecord, Outcome: Pool(c.Int("athletics"), o)}
			spec.Vars = append(spec.Vars, mechanics.Var{Name: "distance_cm", Doc: fmt.Sprintf("distance jumped: %d cm per point of MoS, none for MoS ≤ 0", per), Unit: "cm",
				Expr: expr.Mul(expr.K(int64(per)), expr.Max(expr.K(0), mos))})
			spec.Var("mos", "margin of success T − TN", mos).
				Event("clears_gap", fmt.Sprintf("MoS ≥ ⌈gap / %d cm⌉ = %d: the jump clears the gap", per, need), expr.Ge(mos, expr.K(int64(need)))).
				Event("success", "MoS ≥ 1 (or per the tie option)", successExpr(mos, o.Tie)).
				Event("fumble", "every die shows 1 (a mishap)", expr.F("fumble")).
				Band("mos_band", "the seven MoS bands of §1.1", BandLabels, bandExpr(mos))
			return spec, nil
		},
	}
}

var optInitiativeTie = mechanics.SwitchOf("ag.initiative", "tie",
	"coin: a tie is broken by a coin; reroll: reroll until different (same probabilities as coin); simultaneous: both act at once",
	InitiativeCoin, InitiativeReroll, InitiativeSimultaneous)

func initiative() *mechanics.Mechanic {
	ps := append(sideParams("", "first combatant (A)", 2, 2), sideParams("other_", "second combatant (B)", 2, 2)...)
	ps = append(ps, sideParams("third_", "third combatant (C; with combatants ≥ 3)", 2, 2)...)
	ps = append(ps, sideParams("fourth_", "fourth combatant (D; with combatants = 4)", 2, 2)...)
	ps = append(ps, ip("combatants", 2, 2, 4, "combatants in the tier: 2 gives the pairwise margin, 3–4 the full ordering (exact enumeration)"))
	return &mechanics.Mechanic{
		ID:      "ag.initiative",
		Summary: "who acts first within a tier: opposed Awareness + Perception, highest first",
		Doc: "Declared intents act in three tiers; within a tier, opposed Awareness + Perception, highest first. Pairwise " +
			"P(A before B) = P(T_A > T_B) + ½·P(T_A = T_B) with a coin for ties (reroll has the same marginal) (mechanics.md §1.3). " +
			"For three or four combatants the whole ordering is enumerated exactly: ties are broken by a uniformly random order " +
			"(coin, reroll) or left as shared places (simultaneous).",
		Params:  ps,
		Options: mechanics.Options(optCritCount, optFumbleCrit, optUnskilledCrit, optInitiativeTie),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			coin := optInitiativeTie.Of(c) != InitiativeSimultaneous
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
			"with an opposed roll (mechanics.md §1.3).",
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

var optSpell = mechanics.ChoiceOf("ag.magic.tn_spell", "spell", "the spell (sets the TN)",
	SpellEntropomancy, SpellShield, SpellWard, SpellRemoteViewing, SpellScrying, SpellInvocate, SpellSummon, SpellBolster, SpellHeal)

func tnSpell() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.magic.tn_spell",
		Summary: "fixed-TN spells (Entropomancy 5, Shield 3, Ward 4, Remote Viewing 5, Scrying 3, Invocate 5, Summon 5, Bolster 5, Heal 1)",
		Doc:     "A skill test of the spell's skill + attribute against the spell's fixed TN (mechanics.md §1.8). Heal uses the target's penalties as the modifier.",
		Params:  []mechanics.Param{named(pSkill, "skill", "the spell's skill (Astralmancy, Divination, Evocation, Restoration…)"), named(pAttr, "attribute", "Psyche or Intuition"), pModifier},
		Options: coreWith(optSpell),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			return testSpec(Pool(c.Int("skill"), o), c.Int("attribute"), c.Int("modifier"), optSpell.Of(c).TN(), o), nil
		},
	}
}

var (
	optInfoSpell = mechanics.ChoiceOf("ag.magic.info_level", "spell", "remote_viewing: TN 5; scrying: TN 3", SpellRemoteViewing, SpellScrying)
	infoLabels   = []string{"nothing", "vague", "basic", "detailed", "secret", "unknown"}
)

func infoLevel() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.magic.info_level",
		Summary: "Remote Viewing / Scrying information level: MoS 1 vague … 5 unknown",
		Doc:     "MoS 1 vague, 2 basic, 3 detailed, 4 secret, 5 unknown information; MoS ≥ 5 gives level 5, MoS ≤ 0 nothing (mechanics.md §1.8).",
		Params:  []mechanics.Param{named(pSkill, "skill", "Divination skill"), named(pAttr, "attribute", "Intuition"), pModifier},
		Options: coreWith(optInfoSpell),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			level := expr.Clamp(mosExpr("", c.Int("attribute"), c.Int("modifier"), optInfoSpell.Of(c).TN(), o.Tie), 0, 5)
			spec := &mechanics.Spec{Record: RollRecord, Outcome: Pool(c.Int("skill"), o)}
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
		Doc:     "An opposed test: the caster's Evocation + Psyche against the spirit's Psyche attribute roll; the spirit is banished on MoS ≥ 1 (mechanics.md §1.8).",
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
