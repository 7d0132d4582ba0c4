package ag

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
)

// The §1.2–1.5 and §1.8 mechanics that are single tests or a few independent
// tests.

func init() {
	register(takeAverage(), assist(), multiAction(), woundPenalty(), swim(), social(), jump(), initiative(), surprise(),
		tnSpell(), infoLevel(), banish())
}

func takeAverage() *mechanics.Mechanic {
	const id = "ag.take_average"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "rolling vs taking the average (2 + skill, no attribute or modifiers)",
		Doc: "When not rushed or threatened a character may take 2 + skill as the result instead of rolling; attributes and modifiers " +
			"are not added. The rolled result is the skill test. Averaging succeeds exactly when TN ≤ skill + 1, so the break-even TN " +
			"(where rolling becomes the better choice for success) is skill + 2 — and averaging ignores the attribute, so high-attribute " +
			"characters should almost never average (mechanics.md §1.2).",
		Params:  []mechanics.Param{pSkill, pAttr, named(pModifier, "modifier", "situational modifiers (wound penalties…); added to the average only with opt.penalties=applied"), pTN},
		Options: withCore(opt(id, "penalties", "ignored: the average ignores modifiers (the text); applied: wound penalties and modifiers still apply to the average", "ignored", "applied")),
		Outputs: []string{"distributions: mos (rolling), average_mos (constant)", "events: roll_success, average_success, roll_better_band, roll_same_band, roll_worse_band, roll_success_average_fails, roll_fails_average_succeeds"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			n, a, m, tn := c.Int("skill"), c.Int("attribute"), c.Int("modifier"), c.Int("tn")
			avg := 2 + n
			if c.Opt("penalties") == "applied" {
				avg = max(0, avg+m)
			}
			avgMoS := reportedMoS(avg-tn, o.Tie)
			mos := func(r int) int { return reportedMoS(Total(r, a, m)-tn, o.Tie) }
			avgOK := success(avgMoS, o.Tie)
			return &mechanics.Spec{
				Outcome: Pool(n, o),
				Vars: []mechanics.Var{
					{Name: "mos", Doc: "MoS when rolling", Of: mos},
					{Name: "average_mos", Doc: "MoS when taking the average", Of: func(int) int { return avgMoS }},
				},
				Events: []mechanics.Event{
					{Name: "roll_success", Of: func(r int) bool { return success(mos(r), o.Tie) }},
					{Name: "average_success", Of: func(int) bool { return avgOK }},
					{Name: "roll_better_band", Of: func(r int) bool { return Band(mos(r)) > Band(avgMoS) }},
					{Name: "roll_same_band", Of: func(r int) bool { return Band(mos(r)) == Band(avgMoS) }},
					{Name: "roll_worse_band", Of: func(r int) bool { return Band(mos(r)) < Band(avgMoS) }},
					{Name: "roll_success_average_fails", Of: func(r int) bool { return success(mos(r), o.Tie) && !avgOK }},
					{Name: "roll_fails_average_succeeds", Of: func(r int) bool { return !success(mos(r), o.Tie) && avgOK }},
				},
				Bands: []mechanics.Bands{{Name: "mos_band", Labels: BandLabels, Of: func(r int) int { return Band(mos(r)) }}},
			}, nil
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

func assist() *mechanics.Mechanic {
	const id = "ag.assist"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "group assistance: +1 for 2–4, +2 for 5–8, +3 for 9–16, +4 for 17–32 people",
		Doc: "Helpers with at least one rank in the skill who can coordinate give the actor a bonus by group size: " +
			"b(g) = max(1, ⌈log₂ g⌉ − 1) for g ≥ 2. The events compare the same roll with one helper fewer and with no help, " +
			"showing the logarithmic saturation (mechanics.md §1.2).",
		Params: []mechanics.Param{ip("group", 3, 1, 200, "group size g (see opt.group_counts; sweep 1–40)"), pSkill, pAttr, pModifier, pTN},
		Options: withCore(
			opt(id, "group_counts", "includes_actor: g counts the actor (one helper → size 2 → +1); helpers_only: g counts the helpers", "includes_actor", "helpers_only"),
			opt(id, "beyond_32", "cap_4: at most +4; extend_log: +5 for 33–64, …", "cap_4", "extend_log")),
		Outputs: []string{"distributions: mos (with help), bonus", "events: success, success_one_fewer (same roll, one helper fewer), success_alone, gain_from_last_helper"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			g := c.Int("group")
			if c.Opt("group_counts") == "helpers_only" {
				g++ // the bonus table is by group size including the actor
			}
			ext := c.Opt("beyond_32") == "extend_log"
			n, a, m, tn := c.Int("skill"), c.Int("attribute"), c.Int("modifier"), c.Int("tn")
			ok := func(r, bonus int) bool { return success(reportedMoS(Total(r, a, m+bonus)-tn, o.Tie), o.Tie) }
			b, b1 := AssistBonus(g, ext), AssistBonus(g-1, ext)
			mos := func(r int) int { return reportedMoS(Total(r, a, m+b)-tn, o.Tie) }
			return &mechanics.Spec{
				Outcome: Pool(n, o),
				Vars: []mechanics.Var{
					{Name: "mos", Of: mos},
					{Name: "bonus", Doc: "assistance bonus b(g)", Of: func(int) int { return b }},
				},
				Events: []mechanics.Event{
					{Name: "success", Of: func(r int) bool { return ok(r, b) }},
					{Name: "success_one_fewer", Of: func(r int) bool { return ok(r, b1) }},
					{Name: "success_alone", Of: func(r int) bool { return ok(r, 0) }},
					{Name: "gain_from_last_helper", Doc: "succeeds with the group, fails with one helper fewer", Of: func(r int) bool { return ok(r, b) && !ok(r, b1) }},
				},
				Bands: []mechanics.Bands{{Name: "mos_band", Labels: BandLabels, Of: func(r int) int { return Band(mos(r)) }}},
			}, nil
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
		Outputs: []string{"distributions: successes", "events: all_succeed, at_least_one, none"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			j, a, m, tn := c.Int("actions"), c.Int("attribute"), c.Int("modifier")-(c.Int("actions")-1), c.Int("tn")
			one := mechanics.Map{X: Pool(c.Int("skill"), o), Name: "success", F: func(r int) int {
				return bit(success(reportedMoS(Total(r, a, m)-tn, o.Tie), o.Tie))
			}}
			return &mechanics.Spec{
				Outcome: mechanics.Repeat{X: one, N: j},
				Vars:    []mechanics.Var{{Name: "successes", Of: func(k int) int { return k }}},
				Events: []mechanics.Event{
					{Name: "all_succeed", Of: func(k int) bool { return k == j }},
					{Name: "at_least_one", Of: func(k int) bool { return k >= 1 }},
					{Name: "none", Of: func(k int) bool { return k == 0 }},
				},
			}, nil
		},
	}
}

// WoundPenalty is the §1.2 penalty (a negative number or 0) for flesh/deep
// wounds and flesh/deep bruises under the given options.
func WoundPenalty(fw, dw, fb, db int, rows, rounding, stacking string) int {
	// Penalties in halves, per injury in order of severity.
	var items []int
	add := func(count, halves int) {
		for i := 0; i < count; i++ {
			items = append(items, halves)
		}
	}
	if rows == "second_pair_is_subsequent_wounds" {
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
		if stacking == "worst_only" {
			halves = max(halves, h)
		} else {
			halves += h
		}
	}
	if rounding == "round_half_up" {
		return -((halves + 1) / 2)
	}
	return -(halves / 2)
}

func woundPenalty() *mechanics.Mechanic {
	const id = "ag.wound_penalty"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "penalty from wounds and bruises (deterministic helper of the injury chains)",
		Doc: "A flesh wound −1, a deep wound −2, a flesh bruise −½, a deep bruise −1 (our reading of the seed table's two pairs of rows); " +
			"the total is truncated. One flesh wound forbids sprinting, a deep wound running, two deep wounds standing (mechanics.md §1.2). " +
			"Deterministic: both engines return a point mass.",
		Params: []mechanics.Param{
			ip("flesh_wounds", 1, 0, 20, "flesh wounds"), ip("deep_wounds", 0, 0, 20, "deep wounds"),
			ip("flesh_bruises", 0, 0, 20, "flesh bruises"), ip("deep_bruises", 0, 0, 20, "deep bruises"),
		},
		Options: []mechanics.Option{
			opt(id, "rows", "second_pair_is_bruises: −½ / −1 are flesh / deep bruises; second_pair_is_subsequent_wounds: they are the second and later wounds of each kind (bruises then cost nothing)", "second_pair_is_bruises", "second_pair_is_subsequent_wounds"),
			opt(id, "rounding", "truncate: drop the half; round_half_up: −½ counts as −1", "truncate", "round_half_up"),
			opt(id, "stacking", "per_wound: penalties add; worst_only: only the worst injury counts", "per_wound", "worst_only"),
		},
		Outputs: []string{"distributions: penalty (a point mass)", "events: no_sprinting, no_running, cannot_stand"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			fw, dw := c.Int("flesh_wounds"), c.Int("deep_wounds")
			p := WoundPenalty(fw, dw, c.Int("flesh_bruises"), c.Int("deep_bruises"), c.Opt("rows"), c.Opt("rounding"), c.Opt("stacking"))
			return &mechanics.Spec{
				Outcome: mechanics.Const{V: p},
				Vars:    []mechanics.Var{{Name: "penalty", Of: func(v int) int { return v }}},
				Events: []mechanics.Event{
					{Name: "no_sprinting", Of: func(int) bool { return fw+dw >= 1 }},
					{Name: "no_running", Of: func(int) bool { return dw >= 1 }},
					{Name: "cannot_stand", Of: func(int) bool { return dw >= 2 }},
				},
			}, nil
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
		Outputs: []string{"distributions: successes (number of skills that succeed)", "events: any_success, and one per usable skill"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			tn := c.Int("disposition_tn") + c.Int("tn_modifier")
			a, m := c.Int("attribute"), c.Int("modifier")
			var acc mechanics.Node = mechanics.Const{V: 0}
			var used []string
			for _, s := range socialSkills {
				n := c.Int(s)
				if n < 1 {
					continue
				}
				k := uint(len(used))
				used = append(used, s)
				ok := mechanics.Map{X: Pool(n, o), Name: s, F: func(r int) int { return bit(success(reportedMoS(Total(r, a, m)-tn, o.Tie), o.Tie)) << k }}
				acc = mechanics.Combine{X: acc, Y: ok, Name: "or", F: func(x, y int) int { return x | y }}
			}
			if len(used) == 0 {
				return nil, fmt.Errorf("ag.social: no usable skill (set at least one of %v to 1 or more)", socialSkills)
			}
			spec := &mechanics.Spec{
				Outcome: acc,
				Vars: []mechanics.Var{{Name: "successes", Of: func(x int) int {
					k := 0
					for ; x > 0; x &= x - 1 {
						k++
					}
					return k
				}}},
				Events: []mechanics.Event{{Name: "any_success", Of: func(x int) bool { return x != 0 }}},
			}
			for i, s := range used {
				i := i
				spec.Events = append(spec.Events, mechanics.Event{Name: s + "_success", Of: func(x int) bool { return x>>i&1 == 1 }})
			}
			return spec, nil
		},
	}
}

func jump() *mechanics.Mechanic {
	const id = "ag.jump"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "jumping: Athletics + Body + movement bonus vs the surface TN; 0.75 m (horizontal) per MoS",
		Doc: "Athletics + Body plus the defensive bonus of the current movement (our reading: +0 standing, +1 walk, +2 run, +3 sprint) " +
			"vs the surface TN (standard 3, rough 6, slippery 10, climbing 14). Horizontal distance 0.75 m per point of MoS, vertical " +
			"0.25 m; MoS 0 gives no distance. P(clear a gap g) = P(MoS ≥ ⌈g / 0.75⌉) (mechanics.md §1.5).",
		Params: []mechanics.Param{
			named(pSkill, "athletics", "Athletics skill"), named(pAttr, "body", "Body attribute"), pModifier,
			ip("gap_cm", 150, 0, 5000, "the gap (or height) to clear, in centimetres"),
		},
		Options: withCore(
			choice(id, "movement", "movement before the jump", "standing", "walk", "run", "sprint"),
			choice(id, "surface", "take-off surface: standard TN 3, rough 6, slippery 10, climbing 14", "standard", "rough", "slippery", "climbing"),
			choice(id, "direction", "horizontal: 0.75 m per MoS; vertical: 0.25 m", "horizontal", "vertical"),
			opt(id, "move_bonus", "seed_reading: +1 walk, +2 run, +3 sprint (the movement's defence bonus); none: movement adds nothing", "seed_reading", "none")),
		Outputs: []string{"distributions: distance_cm (primary), mos", "events: clears_gap, success, fumble (mishap)"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			bonus := map[string]int{"standing": 0, "walk": 1, "run": 2, "sprint": 3}[c.Opt("movement")]
			if c.Opt("move_bonus") == "none" {
				bonus = 0
			}
			tn := map[string]int{"standard": 3, "rough": 6, "slippery": 10, "climbing": 14}[c.Opt("surface")]
			per := 75
			if c.Opt("direction") == "vertical" {
				per = 25
			}
			a, m, gap := c.Int("body"), c.Int("modifier")+bonus, c.Int("gap_cm")
			mos := func(r int) int { return reportedMoS(Total(r, a, m)-tn, o.Tie) }
			dist := func(r int) int { return per * max(0, mos(r)) }
			return &mechanics.Spec{
				Outcome: Pool(c.Int("athletics"), o),
				Vars:    []mechanics.Var{{Name: "distance_cm", Of: dist}, {Name: "mos", Of: mos}},
				Events: []mechanics.Event{
					{Name: "clears_gap", Of: func(r int) bool { return dist(r) >= gap && dist(r) > 0 }},
					{Name: "success", Of: func(r int) bool { return success(mos(r), o.Tie) }},
					{Name: "fumble", Of: rollFumble},
				},
				Bands: []mechanics.Bands{{Name: "mos_band", Labels: BandLabels, Of: func(r int) int { return Band(mos(r)) }}},
			}, nil
		},
	}
}

func initiative() *mechanics.Mechanic {
	const id = "ag.initiative"
	ps := append(sideParams("", "first combatant (A)", 2, 2), sideParams("other_", "second combatant (B)", 2, 2)...)
	ps = append(ps, sideParams("third_", "third combatant (C; with combatants ≥ 3)", 2, 2)...)
	ps = append(ps, sideParams("fourth_", "fourth combatant (D; with combatants = 4)", 2, 2)...)
	ps = append(ps, ip("combatants", 2, 2, 4, "combatants in the tier: 2 gives the pairwise margin, 3–4 the full ordering (exact enumeration)"))
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "who acts first within a tier: opposed Awareness + Perception, highest first",
		Doc: "Declared intents act in three tiers; within a tier, opposed Awareness + Perception, highest first. Pairwise " +
			"P(A before B) = P(T_A > T_B) + ½·P(T_A = T_B) with a coin for ties (reroll has the same marginal) (mechanics.md §1.3). " +
			"For three or four combatants the whole ordering is enumerated exactly: ties are broken by a uniformly random order " +
			"(coin, reroll) or left as shared places (simultaneous).",
		Params: ps,
		Options: []mechanics.Option{optCritCount.Option, optFumbleCrit.Option, optUnskilledCrit.Option,
			opt(id, "tie", "coin: a tie is broken by a coin; reroll: reroll until different (same probabilities as coin); simultaneous: both act at once",
				"coin", "reroll", "simultaneous")},
		Outputs: []string{"2 combatants — distributions: margin (T_A − T_B); events: a_first, b_first, simultaneous, tie_roll",
			"3–4 combatants — distributions: a_position; events: a_first … d_first, tie_for_first"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			if k := c.Int("combatants"); k > 2 {
				return initiativeOrder(c, o, k), nil
			}
			a, b := sideOf(c, ""), sideOf(c, "other_")
			const base = 1 << 10
			diff := mechanics.Combine{X: a.roll(o), Y: b.roll(o), Name: "margin", F: func(x, y int) int { return a.total(x) - b.total(y) }}
			coin := c.Opt("tie") != "simultaneous"
			out := mechanics.Combine{X: diff, Y: mechanics.D(2), Name: "coin", F: func(d, k int) int { return (d+base/2)*2 + k - 1 }}
			margin := func(x int) int { return x/2 - base/2 }
			heads := func(x int) bool { return x%2 == 0 }
			return &mechanics.Spec{
				Outcome: out,
				Vars:    []mechanics.Var{{Name: "margin", Of: margin}},
				Events: []mechanics.Event{
					{Name: "a_first", Of: func(x int) bool { return margin(x) > 0 || (margin(x) == 0 && coin && heads(x)) }},
					{Name: "b_first", Of: func(x int) bool { return margin(x) < 0 || (margin(x) == 0 && coin && !heads(x)) }},
					{Name: "simultaneous", Of: func(x int) bool { return margin(x) == 0 && !coin }},
					{Name: "tie_roll", Of: func(x int) bool { return margin(x) == 0 }},
				},
			}, nil
		},
	}
}

// initiativeOrder enumerates the ordering of k = 3 or 4 combatants.
func initiativeOrder(c mechanics.Config, o CoreOptions, k int) *mechanics.Spec {
	sides := []side{sideOf(c, ""), sideOf(c, "other_"), sideOf(c, "third_"), sideOf(c, "fourth_")}[:k]
	coin := c.Opt("tie") != "simultaneous"
	// Totals packed in mixed radix: side i's total lies in
	// [T(R = 1), T(R = max(n, 2) + 5)].
	lo, base := make([]int, k), make([]int, k)
	var acc mechanics.Node = mechanics.Const{V: 0}
	radix := 1
	for i, s := range sides {
		lo[i] = s.total(1 << 2)
		base[i] = radix
		radix *= s.total((max(s.n, 2)+5)<<2) - lo[i] + 1
		s, i := s, i
		acc = mechanics.Combine{X: acc, Y: s.roll(o), Name: "totals", F: func(x, r int) int { return x + (s.total(r)-lo[i])*base[i] }}
	}
	width := func(i int) int {
		if i+1 < k {
			return base[i+1] / base[i]
		}
		return radix / base[i]
	}
	// A uniformly random order π breaks ties (k! equally likely orders).
	perms := permutations(k)
	var tieBreak mechanics.Node = mechanics.Const{V: 0}
	if coin {
		tieBreak = mechanics.D(len(perms))
	}
	out := mechanics.Combine{X: acc, Y: tieBreak, Name: "order", F: func(x, pi int) int {
		tot := make([]int, k)
		for i := range tot {
			tot[i] = lo[i] + x/base[i]%width(i)
		}
		rank := make([]int, k) // position of combatant i in the tie-break order
		if coin {
			for pos, who := range perms[pi-1] {
				rank[who] = pos
			}
		}
		before := func(i, j int) bool { return tot[i] > tot[j] || (coin && tot[i] == tot[j] && rank[i] < rank[j]) }
		first, aPos := 0, 1
		for i := 0; i < k; i++ {
			beaten := false
			for j := 0; j < k; j++ {
				if j != i && before(j, i) {
					beaten = true
				}
			}
			if !beaten {
				first |= 1 << uint(i)
			}
			if i > 0 && before(i, 0) {
				aPos++
			}
		}
		return first | aPos<<4
	}}
	spec := &mechanics.Spec{
		Outcome: out,
		Vars:    []mechanics.Var{{Name: "a_position", Doc: "A's place in the order (1 = first; shared places count as one)", Of: func(x int) int { return x >> 4 }}},
	}
	for i := 0; i < k; i++ {
		b := 1 << uint(i)
		spec.Events = append(spec.Events, mechanics.Event{Name: string(rune('a'+i)) + "_first", Of: func(x int) bool { return x&15 == b }})
	}
	spec.Events = append(spec.Events, mechanics.Event{Name: "tie_for_first", Of: func(x int) bool { return x&15&(x&15-1) != 0 }})
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
		Outputs: []string{"events: notice, hit_unaware, hit_aware, hit (aware if noticed, else unaware), ambush_bonus (hits unaware but not aware)"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			v, am, at, df := sideOf(c, "victim_"), sideOf(c, "ambusher_"), sideOf(c, "attack_"), sideOf(c, "defence_")
			unawareTN := 1 + c.Int("defence_combat_modifier")
			notice := mechanics.Combine{X: v.roll(o), Y: am.roll(o), Name: "notice", F: func(x, y int) int { return bit(v.total(x)-am.total(y) >= 1) }}
			hits := mechanics.Combine{X: at.roll(o), Y: df.roll(o), Name: "hits", F: func(x, y int) int {
				unaware := success(reportedMoS(at.total(x)-unawareTN, o.Tie), o.Tie)
				aware := success(reportedMoS(at.total(x)-df.total(y), o.Tie), o.Tie)
				return bit(unaware)<<1 | bit(aware)<<2
			}}
			out := mechanics.Combine{X: notice, Y: hits, Name: "pack", F: func(x, y int) int { return x | y }}
			return &mechanics.Spec{
				Outcome: out,
				Events: []mechanics.Event{
					{Name: "notice", Of: func(x int) bool { return x&1 != 0 }},
					{Name: "hit_unaware", Of: func(x int) bool { return x&2 != 0 }},
					{Name: "hit_aware", Of: func(x int) bool { return x&4 != 0 }},
					{Name: "hit", Of: func(x int) bool { return (x&1 != 0 && x&4 != 0) || (x&1 == 0 && x&2 != 0) }},
					{Name: "ambush_bonus", Of: func(x int) bool { return x&2 != 0 && x&4 == 0 }},
				},
			}, nil
		},
	}
}

// spellTNs are the fixed TNs of §1.8.
var spellTNs = map[string]int{"entropomancy": 5, "shield": 3, "ward": 4, "remote_viewing": 5, "scrying": 3, "invocate": 5, "summon": 5, "bolster": 5, "heal": 1}

func tnSpell() *mechanics.Mechanic {
	const id = "ag.magic.tn_spell"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "fixed-TN spells (Entropomancy 5, Shield 3, Ward 4, Remote Viewing 5, Scrying 3, Invocate 5, Summon 5, Bolster 5, Heal 1)",
		Doc:     "A skill test of the spell's skill + attribute against the spell's fixed TN (mechanics.md §1.8). Heal uses the target's penalties as the modifier.",
		Params:  []mechanics.Param{named(pSkill, "skill", "the spell's skill (Astralmancy, Divination, Evocation, Restoration…)"), named(pAttr, "attribute", "Psyche or Intuition"), pModifier},
		Options: withCore(choice(id, "spell", "the spell (sets the TN)", "entropomancy", "shield", "ward", "remote_viewing", "scrying", "invocate", "summon", "bolster", "heal")),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			return testSpec(Pool(c.Int("skill"), o), c.Int("attribute"), c.Int("modifier"), spellTNs[c.Opt("spell")], o), nil
		},
	}
}

func infoLevel() *mechanics.Mechanic {
	const id = "ag.magic.info_level"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "Remote Viewing / Scrying information level: MoS 1 vague … 5 unknown",
		Doc:     "MoS 1 vague, 2 basic, 3 detailed, 4 secret, 5 unknown information; MoS ≥ 5 gives level 5, MoS ≤ 0 nothing (mechanics.md §1.8).",
		Params:  []mechanics.Param{named(pSkill, "skill", "Divination skill"), named(pAttr, "attribute", "Intuition"), pModifier},
		Options: withCore(choice(id, "spell", "remote_viewing: TN 5; scrying: TN 3", "remote_viewing", "scrying")),
		Outputs: []string{"distributions: level (0 = nothing, 1 vague … 5 unknown)", "bands: information (nothing … unknown)"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			a, m, tn := c.Int("attribute"), c.Int("modifier"), spellTNs[c.Opt("spell")]
			level := func(r int) int { return min(5, max(0, reportedMoS(Total(r, a, m)-tn, o.Tie))) }
			return &mechanics.Spec{
				Outcome: Pool(c.Int("skill"), o),
				Vars:    []mechanics.Var{{Name: "level", Of: level}},
				Bands:   []mechanics.Bands{{Name: "information", Labels: []string{"nothing", "vague", "basic", "detailed", "secret", "unknown"}, Of: level}},
			}, nil
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
		Outputs: []string{"distributions: mos", "events: banished, tie, resisted"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			a := sideOf(c, "")
			s := side{2, c.Int("spirit_psyche"), c.Int("spirit_modifier")}
			spec := opposedSpec(a, s, o)
			spec.Events = []mechanics.Event{renamed(spec.Events[0], "banished"), spec.Events[1], renamed(spec.Events[2], "resisted")}
			return spec, nil
		},
	}
}

func renamed(e mechanics.Event, name string) mechanics.Event {
	e.Name = name
	return e
}
