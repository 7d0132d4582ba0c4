package ag

import (
	"math"

	"github.com/oddsmith/oddsmith/mechanics"
)

// §1.6 hazards: falling, fire, fire in vehicles, electricity.

func init() {
	register(fallDamage(), fire(), fireVehicle(), electricity())
}

// damageRoll is the "two dice" damage roll, packed like a pool roll
// (value << 2 | fumble flag): keep the highest with or without the +1 on
// doubles, or the sum of 2d6; double ones are its fumble.
func damageRoll(kind string) mechanics.Node {
	switch kind {
	case "sum_2d6":
		return mechanics.Combine{X: mechanics.D(6), Y: mechanics.D(6), Name: "2d6", F: func(a, b int) int {
			return slotFumble.SetBool(slotRoll.Set(RollRecord.Start(), a+b), a == 1 && b == 1)
		}}
	case "two_dice_keep_high_no_crit":
		return mechanics.Pool{Die: mechanics.D(6), N: 2, Eval: poolEval{n: 2, critCount: CritExtraCopies}}
	default:
		return Pool(2, CoreOptions{CritCount: CritExtraCopies, FumbleCrit: FumbleSuppress})
	}
}

// round applies a rounding option to a non-negative real damage; exact
// comparisons with thresholds use the real value (see category).
func round(d float64, how string) int {
	const eps = 1e-9
	if how == "round_half_up" {
		return int(math.Floor(d + 0.5 + eps))
	}
	return int(math.Floor(d + eps))
}

var roundingValues = []string{"floor", "round_half_up", "exact_fraction"}

var surfaces = map[string]float64{"concrete": 2, "grass": 1, "dirt": 1, "sand": 0.5, "shallow_water": 0.5, "deep_water": 0.25, "crash_pads": 0.1}

func fallDamage() *mechanics.Mechanic {
	const id = "ag.fall_damage"
	ps := []mechanics.Param{
		{Name: "height", Default: 9, Min: 0, Max: 1000, Real: true, Doc: "height fallen, metres (sweep 0–40)"},
		named(pSkill, "athletics", "faller's Athletics"), named(pAttr, "agility", "faller's Agility"), pModifier,
		ip("head_first", 0, 0, 1, "1: landing on the head halves the thresholds"),
	}
	ps = append(ps, thresholdParams(5, 10, 20)...)
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "falling: Athletics + Agility off the distance; DV per 3 m × surface × two-dice roll vs thresholds",
		Doc: "The faller rolls Athletics + Agility and takes the result off the distance; if it exceeds the distance they land on their feet. " +
			"Otherwise DV = one per full 3 m of the rest (max 10), × the surface (concrete 2, grass/dirt 1, sand or shallow water ½, deep " +
			"water ¼, crash pads 0.1), × a two-dice-keep-highest roll. Landing on the head or fumbling the Athletics roll halves the " +
			"thresholds. Damage is wounds (mechanics.md §1.6).",
		Params: ps,
		Options: withCore(
			choice(id, "surface", "landing surface", "concrete", "grass", "dirt", "sand", "shallow_water", "deep_water", "crash_pads"),
			opt(id, "dv_per_3m", "floor: whole 3 m steps; ceil; real: (h − T)/3 without rounding", "floor", "ceil", "real"),
			opt(id, "cap_order", "cap_after_reduction: DV = min(10, steps of h − T); cap_before_reduction: the height is capped at 30 m before T is taken off", "cap_after_reduction", "cap_before_reduction"),
			opt(id, "rounding", "rounding of DV × surface × roll: floor, round_half_up, or exact_fraction (thresholds compare the unrounded damage)", roundingValues...),
			opt(id, "feet_rule", "strictly_greater: T > h lands on the feet; at_least: T ≥ h", "strictly_greater", "at_least"),
			opt(id, "damage_roll", "the damage dice", "two_dice_keep_high_with_crit", "two_dice_keep_high_no_crit", "sum_2d6"),
			opt(id, "athletics", "always_rolled; optional: the faller does not roll (no reduction, no fumble)", "always_rolled", "optional")),
		Outputs: []string{"distributions: damage, dv", "events: no_damage, flesh_or_worse, deep_or_worse, critical, athletics_fumble", "bands: category"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			if err := checkThresholds(c); err != nil {
				return nil, err
			}
			o := coreOptionsOf(c)
			h := c.Float("height")
			s := surfaces[c.Opt("surface")]
			th := thresholdsOf(c)
			a, m := c.Int("agility"), c.Int("modifier")
			head := c.Int("head_first") == 1
			var ath mechanics.Node = Pool(c.Int("athletics"), o)
			if c.Opt("athletics") == "optional" {
				ath = mechanics.Const{V: autoFailRoll}
			}
			dvOf := func(T int) float64 {
				hh := h
				if c.Opt("cap_order") == "cap_before_reduction" {
					hh = math.Min(h, 30)
				}
				rest := math.Max(0, hh-float64(T))
				var dv float64
				switch c.Opt("dv_per_3m") {
				case "ceil":
					dv = math.Ceil(rest/3 - 1e-12)
				case "real":
					dv = rest / 3
				default:
					dv = math.Floor(rest/3 + 1e-12)
				}
				return math.Min(10, dv)
			}
			// Outcome: damage << 5 | dv*... packed below.
			out := mechanics.Combine{X: ath, Y: damageRoll(c.Opt("damage_roll")), Name: "fall", F: func(x, y int) int {
				T := Total(x, a, m)
				fum := rollFumble(x)
				if (c.Opt("feet_rule") == "at_least" && float64(T) >= h) || float64(T) > h {
					return bit(fum)
				}
				dv := dvOf(T)
				mult := 1.0
				if fum || head {
					mult = 0.5
				}
				d, cat := th.categorise(dv*s*float64(rollValue(y)), c.Opt("rounding"), mult)
				return d<<3 | cat<<1 | bit(fum)
			}}
			dmg := func(x int) int { return x >> 3 }
			cat := func(x int) int { return (x >> 1) & 3 }
			return &mechanics.Spec{
				Outcome: out,
				Vars:    []mechanics.Var{{Name: "damage", Of: dmg}},
				Events: []mechanics.Event{
					{Name: "no_damage", Of: func(x int) bool { return dmg(x) == 0 }},
					{Name: "flesh_or_worse", Of: func(x int) bool { return cat(x) >= catFlesh }},
					{Name: "deep_or_worse", Of: func(x int) bool { return cat(x) >= catDeep }},
					{Name: "critical", Of: func(x int) bool { return cat(x) == catCritical }},
					{Name: "athletics_fumble", Of: func(x int) bool { return x&1 == 1 }},
				},
				Bands: []mechanics.Bands{{Name: "category", Labels: categoryLabels, Of: cat}},
			}, nil
		},
	}
}

// halving returns the DV factor for partial exposure and a fumbled damage roll.
func halving(partial, fumble bool, stack string) float64 {
	k := bit(partial) + bit(fumble)
	if stack == "once" {
		k = min(k, 1)
	}
	return math.Pow(0.5, float64(k))
}

func fire() *mechanics.Mechanic {
	const id = "ag.fire"
	ps := []mechanics.Param{ip("dv", 2, 0, 20, "fire DV: lighter/match 0; campfire, torch, flare 1; bonfire, chemical fire, inferno 2"),
		ip("rounds", 1, 1, 10, "rounds of exposure r")}
	ps = append(ps, thresholdParams(5, 10, 20)...)
	ps = append(ps, ip("wound_boxes", 6, 1, 50, "wound track boxes (flesh 1, deep 2) [placeholder 6]"))
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "fire: 2 dice × DV per round (halved for partial rounds and fumbled damage) vs thresholds; deep wounds incapacitate 1d6 rounds",
		Doc: "A full round in fire deals 2 dice × DV automatically; less than a full round halves the DV, and so does a fumble on the " +
			"damage dice. Each round's damage is compared with the thresholds separately; a deep wound from fire incapacitates for 1d6 " +
			"rounds. With rounds = 1 the damage PMF is reported; over several rounds the wound counts (mechanics.md §1.6).",
		Params: ps,
		Options: []mechanics.Option{
			choice(id, "exposure", "full round or partial (halves the DV)", "full", "partial"),
			opt(id, "dice", "keep_high_2: two dice keep highest, +1 on doubles (the global rule); sum_2d6", "keep_high_2", "sum_2d6"),
			opt(id, "halving_stack", "multiply: partial and fumble give ¼; once: at most ½", "multiply", "once"),
			opt(id, "rounding", "rounding of DV × roll", roundingValues...),
		},
		Outputs: []string{"rounds = 1 — distributions: damage, incapacitated_rounds; bands: category",
			"rounds > 1 — distributions: flesh_wounds, deep_wounds, incapacitated_rounds; events: any_deep, track_full, any_critical"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			if err := checkThresholds(c); err != nil {
				return nil, err
			}
			dv, r, boxes := float64(c.Int("dv")), c.Int("rounds"), c.Int("wound_boxes")
			th := thresholdsOf(c)
			partial := c.Opt("exposure") == "partial"
			kind := "two_dice_keep_high_with_crit"
			if c.Opt("dice") == "sum_2d6" {
				kind = "sum_2d6"
			}
			// One round: damage << 6 | category << 3 | incapacitation rounds.
			one := mechanics.Combine{X: damageRoll(kind), Y: mechanics.D(6), Name: "round", F: func(x, d6 int) int {
				real := dv * halving(partial, rollFumble(x), c.Opt("halving_stack")) * float64(rollValue(x))
				d, cat := th.categorise(real, c.Opt("rounding"), 1)
				inc := 0
				if cat == catDeep {
					inc = d6
				}
				return d<<6 | cat<<3 | inc
			}}
			if r == 1 {
				cat := func(x int) int { return (x >> 3) & 7 }
				return &mechanics.Spec{
					Outcome: one,
					Vars:    []mechanics.Var{{Name: "damage", Of: func(x int) int { return x >> 6 }}, {Name: "incapacitated_rounds", Of: func(x int) int { return x & 7 }}},
					Events: []mechanics.Event{
						{Name: "flesh_or_worse", Of: func(x int) bool { return cat(x) >= catFlesh }},
						{Name: "deep_or_worse", Of: func(x int) bool { return cat(x) >= catDeep }},
						{Name: "critical", Of: func(x int) bool { return cat(x) == catCritical }},
					},
					Bands: []mechanics.Bands{{Name: "category", Labels: categoryLabels, Of: cat}},
				}, nil
			}
			// Several rounds: counts add, so pack them additively:
			// incap + 64·(flesh + 11·(deep + 11·critical)).
			counts := mechanics.Map{X: one, Name: "counts", F: func(x int) int {
				cat := (x >> 3) & 7
				v := x & 7
				switch cat {
				case catFlesh:
					v += 64
				case catDeep:
					v += 64 * 11
				case catCritical:
					v += 64 * 121
				}
				return v
			}}
			flesh := func(x int) int { return (x / 64) % 11 }
			deep := func(x int) int { return (x / 64 / 11) % 11 }
			crit := func(x int) int { return x / 64 / 121 }
			return &mechanics.Spec{
				Outcome: mechanics.Repeat{X: counts, N: r},
				Vars: []mechanics.Var{
					{Name: "deep_wounds", Of: deep}, {Name: "flesh_wounds", Of: flesh},
					{Name: "incapacitated_rounds", Doc: "Σ over deep results of d6", Of: func(x int) int { return x % 64 }},
				},
				Events: []mechanics.Event{
					{Name: "any_deep", Of: func(x int) bool { return deep(x) >= 1 }},
					{Name: "any_critical", Of: func(x int) bool { return crit(x) >= 1 }},
					{Name: "track_full", Doc: "flesh + 2·deep ≥ wound boxes, or a critical", Of: func(x int) bool { return flesh(x)+2*deep(x) >= boxes || crit(x) >= 1 }},
				},
			}, nil
		},
	}
}

func fireVehicle() *mechanics.Mechanic {
	const id = "ag.fire_vehicle"
	ps := []mechanics.Param{named(pSkill, "pilot", "driver's Pilot skill"), named(pAttr, "agility", "driver's Agility"), pModifier,
		ip("dv", 2, 0, 20, "fire DV (the TN is 3 × DV)")}
	ps = append(ps, thresholdParams(5, 10, 20)...)
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "driving through fire: Pilot + Agility vs 3 × DV; a failure hits like an attack that succeeded by the failure",
		Doc:     "A vehicle crossing burning terrain needs Pilot + Agility vs TN 3 × DV; on MoS ≤ −1 the fire deals DV × min(|MoS|, 6) to the victim's thresholds (mechanics.md §1.6).",
		Params:  ps,
		Options: withCore(choice(id, "victim", "whose thresholds the damage meets (set them accordingly)", "vehicle", "occupants")),
		Outputs: []string{"distributions: damage, mos", "events: burned, flesh_or_worse, deep_or_worse, critical", "bands: category"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			if err := checkThresholds(c); err != nil {
				return nil, err
			}
			o := coreOptionsOf(c)
			dv, a, m := c.Int("dv"), c.Int("agility"), c.Int("modifier")
			th := thresholdsOf(c)
			mos := func(r int) int { return Total(r, a, m) - 3*dv }
			dmg := func(r int) int {
				if mos(r) <= -1 {
					return dv * min(-mos(r), 6)
				}
				return 0
			}
			cat := func(r int) int { return th.category(dmg(r), 1) }
			return &mechanics.Spec{
				Outcome: Pool(c.Int("pilot"), o),
				Vars:    []mechanics.Var{{Name: "damage", Of: dmg}, {Name: "mos", Of: mos}},
				Events: []mechanics.Event{
					{Name: "burned", Of: func(r int) bool { return mos(r) <= -1 }},
					{Name: "flesh_or_worse", Of: func(r int) bool { return cat(r) >= catFlesh }},
					{Name: "deep_or_worse", Of: func(r int) bool { return cat(r) >= catDeep }},
					{Name: "critical", Of: func(r int) bool { return cat(r) == catCritical }},
				},
				Bands: []mechanics.Bands{{Name: "category", Labels: categoryLabels, Of: cat}},
			}, nil
		},
	}
}

func electricity() *mechanics.Mechanic {
	const id = "ag.electricity"
	ps := []mechanics.Param{ip("dv", 2, 0, 40, "DV: wall outlet 1, power lines 2, mains 4, small lightning 5, large lightning 10, dam generator 20"),
		named(pAttr, "body", "victim's Body"), pModifier}
	ps = append(ps, thresholdParams(5, 10, 20)...)
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "electric shock: fire-like damage (flesh: local paralysis, deep: full) and a Body test vs 5 × DV (KO, coma, death)",
		Doc: "Damage as fire (2 dice × DV, halved for partial contact and on a fumbled damage roll); a flesh wound paralyses the touched " +
			"area, a deep wound fully. Whatever wound is taken, the victim also makes a Body test vs TN 5 × DV: MoS ≤ −1 knocked out, " +
			"≤ −5 coma, a fumble instant death. With attributes in single digits the test is a near-certain KO from DV 2 and a " +
			"near-certain coma from DV 3–4 (mechanics.md §1.6).",
		Params: ps,
		Options: []mechanics.Option{optCritCount.Option, optFumbleCrit.Option,
			choice(id, "exposure", "full contact or partial (halves the DV)", "full", "partial"),
			opt(id, "test_trigger", "any_wound: the Body test only follows damage ≥ Flesh; always", "any_wound", "always"),
			opt(id, "tn_dv", "effective: the TN uses the DV after halvings; listed: the listed DV", "effective", "listed"),
			opt(id, "wound_penalty_in_test", "yes: the new wound already penalises the test (flesh −1, deep −2); no", "yes", "no")},
		Outputs: []string{"distributions: damage", "events: paralysis_local, paralysis_full, tested, ko_or_worse, coma_or_worse, death, critical_wound", "bands: test (none, KO, coma, death)"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			if err := checkThresholds(c); err != nil {
				return nil, err
			}
			o := coreOptionsOf(c)
			dv, body, m := float64(c.Int("dv")), c.Int("body"), c.Int("modifier")
			th := thresholdsOf(c)
			partial := c.Opt("exposure") == "partial"
			always, listed, pen := c.Opt("test_trigger") == "always", c.Opt("tn_dv") == "listed", c.Opt("wound_penalty_in_test") == "yes"
			// damage << 5 | category << 3 | tested << 2 | test result (0 none, 1 KO, 2 coma, 3 death)
			out := mechanics.Combine{X: damageRoll("two_dice_keep_high_with_crit"), Y: Pool(2, o), Name: "shock", F: func(x, y int) int {
				eff := dv * halving(partial, rollFumble(x), "multiply")
				d, cat := th.categorise(eff*float64(rollValue(x)), "floor", 1)
				tested := always || cat >= catFlesh
				res := 0
				if tested {
					tn := 5 * eff
					if listed {
						tn = 5 * dv
					}
					mod := m
					if pen {
						mod -= map[int]int{catFlesh: 1, catDeep: 2, catCritical: 2}[cat]
					}
					mos := float64(Total(y, body, mod)) - tn
					switch {
					case rollFumble(y):
						res = 3
					case mos <= -5:
						res = 2
					case mos <= -1:
						res = 1
					}
				}
				return d<<5 | cat<<3 | bit(tested)<<2 | res
			}}
			cat := func(x int) int { return (x >> 3) & 3 }
			res := func(x int) int { return x & 3 }
			return &mechanics.Spec{
				Outcome: out,
				Vars:    []mechanics.Var{{Name: "damage", Of: func(x int) int { return x >> 5 }}},
				Events: []mechanics.Event{
					{Name: "paralysis_local", Doc: "a flesh wound", Of: func(x int) bool { return cat(x) == catFlesh }},
					{Name: "paralysis_full", Doc: "a deep wound or worse", Of: func(x int) bool { return cat(x) >= catDeep }},
					{Name: "tested", Of: func(x int) bool { return x&4 != 0 }},
					{Name: "ko_or_worse", Of: func(x int) bool { return res(x) >= 1 }},
					{Name: "coma_or_worse", Of: func(x int) bool { return res(x) >= 2 }},
					{Name: "death", Doc: "a fumbled Body test", Of: func(x int) bool { return res(x) == 3 }},
					{Name: "critical_wound", Of: func(x int) bool { return cat(x) == catCritical }},
				},
				Bands: []mechanics.Bands{{Name: "test", Labels: []string{"none", "knocked_out", "coma", "death"}, Of: res}},
			}, nil
		},
	}
}
