package ag

import (
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// Hazards: falling, fire, fire in vehicles, electricity.

// hazardsMechanics are the mechanics declared in hazards.go.
func hazardsMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{fallDamage(), fire(), fireVehicle(), electricity()}
}

// damageDice is the "two dice" damage roll of falls and fire, yielding
// rollRecord codes: two dice keep the highest with or without the +1 on
// doubles, or the sum of 2d6; double ones are its fumble (scoring 1 when
// the dice are kept, 2 when summed).
func damageDice(kind fallDamageRoll) mechanics.Node {
	switch kind {
	case fallSum2d6:
		start := rollRecord.Start()
		return mechanics.Combine{X: mechanics.D(6), Y: mechanics.D(6), Name: "2d6", F: func(a, b int) int {
			return slotFumble.SetBool(slotRoll.Set(start, a+b), a == 1 && b == 1)
		}}
	case fallKeepHighNoCrit:
		return mechanics.Pool{Die: mechanics.D(6), N: 2, Eval: poolEval{n: 2, critCount: CritExtraCopies}}
	}
	return Pool(2, CoreOptions{CritCount: CritExtraCopies, FumbleCrit: FumbleSuppress})
}

// maxDamageDice bounds the damage dice: 12 on 2d6.
const maxDamageDice = 12

// denOf is the denominator of a rational (1 for the zero value).
func denOf(r expr.Rat) int64 {
	if r.D == 0 {
		return 1
	}
	return r.D
}

// woundCategoryEvents adds the usual events of a wound category
// expression (flesh or worse, deep or worse, critical) and, with band, the
// band "category".
func woundCategoryEvents(spec *mechanics.Spec, cat expr.Expr, band bool) {
	spec.Event("flesh_or_worse", "damage reaches the Flesh threshold", expr.Ge(cat, expr.K(catFlesh))).
		Event("deep_or_worse", "damage reaches the Deep threshold", expr.Ge(cat, expr.K(catDeep))).
		Event("critical", "damage reaches the Critical threshold", expr.Eq(cat, expr.K(catCritical)))
	if band {
		spec.Band("category", "the wound category of the damage", categoryLabels, cat)
	}
}

// Options of ag.fall_damage.
var (
	optFallSurface = mechanics.ChoiceOf("ag.fall_damage", "surface", "landing surface",
		fallConcrete, fallGrass, fallDirt, fallSand, fallShallowWater, fallDeepWater, fallCrashPads)
	optFallDVSteps = mechanics.SwitchOf("ag.fall_damage", "dv_per_3m", "floor: whole 3 m steps; ceil; real: (h − T)/3 without rounding",
		fallDVFloor, fallDVCeil, fallDVReal)
	optFallCapOrder = mechanics.SwitchOf("ag.fall_damage", "cap_order",
		"cap_after_reduction: DV = min(10, steps of h − T); cap_before_reduction: the height is capped at 30 m before T is taken off",
		fallCapAfter, fallCapBefore)
	optFallRounding = roundingOpt("ag.fall_damage",
		"rounding of DV × surface × roll: floor, round_half_up, or exact_fraction (the damage is the unrounded fraction, compared exactly with the thresholds)")
	optFallFeet = mechanics.SwitchOf("ag.fall_damage", "feet_rule", "strictly_greater: T > h lands on the feet; at_least: T ≥ h",
		fallFeetGreater, fallFeetAtLeast)
	optFallDamageRoll = mechanics.SwitchOf("ag.fall_damage", "damage_roll", "the damage dice",
		fallKeepHighCrit, fallKeepHighNoCrit, fallSum2d6)
	optFallAthletics = mechanics.SwitchOf("ag.fall_damage", "athletics", "always_rolled; optional: the faller does not roll (no reduction, no fumble)",
		fallAthleticsRolled, fallAthleticsOptional)
)

// surfaceFactor is the DV multiplier of each landing surface.
var surfaceFactor = map[fallSurface]expr.Rat{
	fallConcrete: expr.Int(2), fallGrass: expr.Int(1), fallDirt: expr.Int(1), fallSand: expr.Frac(1, 2),
	fallShallowWater: expr.Frac(1, 2), fallDeepWater: expr.Frac(1, 4), fallCrashPads: expr.Frac(1, 10),
}

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
			"thresholds. Damage is wounds.",
		Params: ps,
		Options: mechanics.Options(optCritCount, optFumbleCrit, optUnskilledCrit, optTie,
			optFallSurface, optFallDVSteps, optFallCapOrder, optFallRounding, optFallFeet, optFallDamageRoll, optFallAthletics),
		Build: buildFall,
	}
}

// fallDV is the DV of a fall of h metres after an Athletics total T
// (docs/mechanics.md#ag-fall_damage): one per 3 m of what is left (whole steps, rounded up, or the
// exact fraction), at most 10; the height is capped at 30 m first under
// cap_before_reduction.
func fallDV(h expr.Rat, T int, steps fallDVSteps, capBefore bool) expr.Rat {
	if capBefore && h.Cmp(expr.Int(30)) > 0 {
		h = expr.Int(30)
	}
	rest := h.Sub(expr.Int(int64(T)))
	if rest.Cmp(expr.Int(0)) < 0 {
		rest = expr.Int(0)
	}
	dv := rest.Mul(expr.Frac(1, 3))
	switch steps {
	case fallDVFloor:
		dv = expr.Int(dv.Floor())
	case fallDVCeil:
		dv = expr.Int(dv.Ceil())
	}
	if dv.Cmp(expr.Int(10)) > 0 {
		dv = expr.Int(10)
	}
	return dv
}

func buildFall(c mechanics.Config) (*mechanics.Spec, error) {
	if err := checkThresholds(c); err != nil {
		return nil, err
	}
	o := coreOptionsOf(c)
	th := woundThresholds(c)
	h := c.Rat("height")
	s := surfaceFactor[optFallSurface.Of(c)]
	steps, capBefore := optFallDVSteps.Of(c), optFallCapOrder.Of(c) == fallCapBefore
	rounding := optFallRounding.Of(c)
	atLeast := optFallFeet.Of(c) == fallFeetAtLeast
	dice := damageDice(optFallDamageRoll.Of(c))
	a, m := c.Int("agility"), c.Int("modifier")
	head := c.Int("head_first") == 1
	var ath mechanics.Node = Pool(c.Int("athletics"), o)
	if optFallAthletics.Of(c) == fallAthleticsOptional {
		ath = mechanics.Const{V: autoFailRoll}
	}

	// Everything the trial needs is tabulated here, by the Athletics total
	// T and the damage roll R, in exact rationals: the DV, whether the
	// faller lands on the feet, and the damage DV × surface × R (rounded
	// unless exact_fraction). The damage field's lattice 1/den is the lcm
	// of the denominators of every damage value.
	maxT := maxRoll + a + max(m, 0)
	dvs := make([]expr.Rat, maxT+1)
	damage := make([][maxDamageDice + 1]expr.Rat, maxT+1)
	den := int64(1)
	for T := 0; T <= maxT; T++ {
		dvs[T] = expr.Int(0)
		tr := expr.Int(int64(T))
		if !(tr.Cmp(h) > 0 || (atLeast && tr.Cmp(h) == 0)) { // else on the feet: DV 0, no damage
			dvs[T] = fallDV(h, T, steps, capBefore)
		}
		for R := 1; R <= maxDamageDice; R++ {
			damage[T][R] = rounding.Round(dvs[T].Mul(s).Mul(expr.Int(int64(R))))
			den = expr.Lcm(den, denOf(damage[T][R]))
		}
	}
	units := make([][maxDamageDice + 1]int, maxT+1)
	maxUnits := 0
	for T := range units {
		for R := 1; R <= maxDamageDice; R++ {
			units[T][R] = int(damage[T][R].Mul(expr.Int(den)).N)
			maxUnits = max(maxUnits, units[T][R])
		}
	}
	rec := mechanics.NewRecord(
		mechanics.Scaled("damage", int(den), 0, maxUnits, "wounds: DV × surface × damage roll, rounded per opt.rounding (the exact fraction with exact_fraction)").In("wounds"),
		mechanics.Int("athletics_total", 0, maxT, "the Athletics total T taken off the height (0 when not rolled)"),
		mechanics.Flag("athletics_fumble", "the Athletics roll fumbled (halves the thresholds)"),
	)
	sDamage, sTotal, sFumble := rec.Slot("damage"), rec.Slot("athletics_total"), rec.Slot("athletics_fumble")
	start := rec.Start()
	out := mechanics.Combine{X: ath, Y: dice, Name: "fall", F: func(x, y int) int {
		T := rollTotal(x, a, m)
		code := sFumble.SetBool(sTotal.Set(start, T), rollFumble(x))
		return sDamage.Set(code, units[T][rollValue(y)])
	}}

	dmg := expr.F("damage")
	half := th.Scale(halfThresholds)
	var cat expr.Expr
	switch {
	case head:
		cat = half.Band(dmg)
	default:
		cat = expr.Cond(expr.F("athletics_fumble"), half.Band(dmg), th.Band(dmg))
	}
	spec := &mechanics.Spec{Record: rec, Outcome: out}
	spec.Report("damage").
		Var("dv", "the fall's DV before the surface multiplier: one per 3 m left after the Athletics total, at most 10 (0 on the feet)",
			expr.Lookup{X: expr.F("athletics_total"), Lo: 0, Table: dvs}).
		Event("no_damage", "no damage (on the feet, or too short a fall)", expr.Eq(dmg, expr.K(0)))
	woundCategoryEvents(spec, cat, false)
	spec.Event("athletics_fumble", "the Athletics roll fumbled (halves the thresholds)", expr.F("athletics_fumble")).
		Band("category", "the wound category, against thresholds halved for a head-first landing or a fumbled Athletics roll", categoryLabels, cat)
	return spec, nil
}

// Options of ag.fire.
var (
	optFireExposure = mechanics.ChoiceOf("ag.fire", "exposure", "full round or partial (halves the DV)", fireFull, firePartial)
	optFireDice     = mechanics.SwitchOf("ag.fire", "dice", "keep_high_2: two dice keep highest, +1 on doubles (the global rule); sum_2d6",
		fireKeepHigh2, fireSum2d6)
	optFireHalving = mechanics.SwitchOf("ag.fire", "halving_stack", "multiply: partial and fumble give ¼; once: at most ½",
		fireHalvingMultiply, fireHalvingOnce)
	optFireRounding = roundingOpt("ag.fire", "rounding of DV × roll (exact_fraction keeps the fraction and compares it exactly with the thresholds)")
)

// halving is the DV factor for partial exposure and a fumbled damage roll:
// ½ each, or ½ at most when they do not stack.
func halving(partial, fumble, stack bool) expr.Rat {
	k := bit(partial) + bit(fumble)
	if !stack {
		k = min(k, 1)
	}
	return expr.Frac(1, int64(1)<<k)
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
			"rounds. With rounds = 1 the damage PMF is reported; over several rounds the wound counts.",
		Params:  ps,
		Options: mechanics.Options(optFireExposure, optFireDice, optFireHalving, optFireRounding),
		Build:   buildFire,
	}
}

func buildFire(c mechanics.Config) (*mechanics.Spec, error) {
	if err := checkThresholds(c); err != nil {
		return nil, err
	}
	dv, r, boxes := c.Int("dv"), c.Int("rounds"), c.Int("wound_boxes")
	th := woundThresholds(c)
	partial := optFireExposure.Of(c) == firePartial
	stack := optFireHalving.Of(c) == fireHalvingMultiply
	rounding := optFireRounding.Of(c)
	kind := fallKeepHighCrit
	if optFireDice.Of(c) == fireSum2d6 {
		kind = fallSum2d6
	}
	// One round's damage by the damage roll, exact: DV × ½ᵏ × R, rounded
	// unless exact_fraction; the damage field's lattice 1/den is the lcm of
	// the denominators of every damage value (quarters at most).
	type roundDamage struct {
		damage expr.Rat
		cat    int
	}
	var byRoll [2][maxDamageDice + 1]roundDamage // [fumble][R]
	den := int64(1)
	for f := range 2 {
		for R := 1; R <= maxDamageDice; R++ {
			d := rounding.Round(expr.Int(int64(dv * R)).Mul(halving(partial, f == 1, stack)))
			byRoll[f][R] = roundDamage{d, th.Of(d)}
			den = expr.Lcm(den, denOf(d))
		}
	}
	maxUnits := int(byRoll[0][maxDamageDice].damage.Mul(expr.Int(den)).N)
	if r == 1 {
		rec := mechanics.NewRecord(
			mechanics.Scaled("damage", int(den), 0, maxUnits, "wounds this round: DV × ½ᵏ × damage roll, rounded per opt.rounding (the exact fraction with exact_fraction)").In("wounds"),
			mechanics.Int("incapacitated_rounds", 0, 6, "1d6 rounds of incapacitation after a deep wound, else 0").In("rounds"),
		)
		sDamage, sInc := rec.Slot("damage"), rec.Slot("incapacitated_rounds")
		start := rec.Start()
		one := mechanics.Combine{X: damageDice(kind), Y: mechanics.D(6), Name: "round", F: func(x, d6 int) int {
			rd := byRoll[bit(rollFumble(x))][rollValue(x)]
			code := sDamage.SetRat(start, rd.damage)
			if rd.cat == catDeep {
				code = sInc.Set(code, d6)
			}
			return code
		}}
		spec := &mechanics.Spec{Record: rec, Outcome: one}
		spec.Report("damage", "incapacitated_rounds")
		woundCategoryEvents(spec, th.Band(expr.F("damage")), true)
		return spec, nil
	}
	// Several rounds: each round adds one wound of its category (and its
	// incapacitation); the rounds are independent, so the counts are the
	// fold of r rounds by field-wise addition.
	rec := mechanics.NewRecord(
		mechanics.Int("flesh_wounds", 0, r, "flesh wounds taken over the rounds"),
		mechanics.Int("deep_wounds", 0, r, "deep wounds taken over the rounds"),
		mechanics.Int("critical_wounds", 0, r, "critical wounds taken over the rounds"),
		mechanics.Int("incapacitated_rounds", 0, 6*r, "Σ over deep results of d6").In("rounds"),
	)
	sFlesh, sDeep, sCrit, sInc := rec.Slot("flesh_wounds"), rec.Slot("deep_wounds"), rec.Slot("critical_wounds"), rec.Slot("incapacitated_rounds")
	slots := []mechanics.Slot{sFlesh, sDeep, sCrit, sInc}
	start := rec.Start()
	one := mechanics.Combine{X: damageDice(kind), Y: mechanics.D(6), Name: "round", F: func(x, d6 int) int {
		switch byRoll[bit(rollFumble(x))][rollValue(x)].cat {
		case catFlesh:
			return sFlesh.Set(start, 1)
		case catDeep:
			return sInc.Set(sDeep.Set(start, 1), d6)
		case catCritical:
			return sCrit.Set(start, 1)
		}
		return start
	}}
	add := func(a, b int) int {
		for _, s := range slots {
			a = s.Set(a, s.Get(a)+s.Get(b))
		}
		return a
	}
	var all mechanics.Node = one
	for i := 1; i < r; i++ {
		all = mechanics.Combine{X: all, Y: one, Name: "next round", F: add}
	}
	flesh, deep, crit := expr.F("flesh_wounds"), expr.F("deep_wounds"), expr.F("critical_wounds")
	spec := &mechanics.Spec{Record: rec, Outcome: all}
	spec.Report("deep_wounds", "flesh_wounds", "incapacitated_rounds").
		Event("any_deep", "at least one deep wound", expr.Ge(deep, expr.K(1))).
		Event("any_critical", "at least one critical wound", expr.Ge(crit, expr.K(1))).
		Event("track_full", "flesh + 2·deep ≥ wound boxes, or a critical",
			expr.Or(expr.Ge(expr.Add(flesh, expr.Mul(expr.K(2), deep)), expr.K(int64(boxes))), expr.Ge(crit, expr.K(1))))
	return spec, nil
}

var optVehicleVictim = mechanics.ChoiceOf("ag.fire_vehicle", "victim", "whose thresholds the damage meets (set them accordingly)",
	victimVehicle, victimOccupants)

func fireVehicle() *mechanics.Mechanic {
	const id = "ag.fire_vehicle"
	ps := []mechanics.Param{named(pSkill, "pilot", "driver's Pilot skill"), named(pAttr, "agility", "driver's Agility"), pModifier,
		ip("dv", 2, 0, 20, "fire DV (the TN is 3 × DV)")}
	ps = append(ps, thresholdParams(5, 10, 20)...)
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "driving through fire: Pilot + Agility vs 3 × DV; a failure hits like an attack that succeeded by the failure",
		Doc:     "A vehicle crossing burning terrain needs Pilot + Agility vs TN 3 × DV; on MoS ≤ −1 the fire deals DV × min(|MoS|, 6) to the victim's thresholds.",
		Params:  ps,
		Options: mechanics.Options(optCritCount, optFumbleCrit, optUnskilledCrit, optTie, optVehicleVictim),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			if err := checkThresholds(c); err != nil {
				return nil, err
			}
			o := coreOptionsOf(c)
			_ = optVehicleVictim.Of(c) // the victim only says whose thresholds were given
			dv, a, m := c.Int("dv"), c.Int("agility"), c.Int("modifier")
			th := woundThresholds(c)
			mos := expr.Sub(totalExpr("", a, m), expr.K(int64(3*dv)))
			burned := expr.Le(mos, expr.K(-1))
			dmg := expr.Cond(burned, expr.Mul(expr.K(int64(dv)), expr.Min(expr.Neg(mos), expr.K(6))), expr.K(0))
			spec := &mechanics.Spec{Record: rollRecord, Outcome: Pool(c.Int("pilot"), o)}
			spec.Var("damage", "DV × min(|MoS|, 6) on MoS ≤ −1, else 0", dmg).
				Var("mos", "the driver's MoS T − 3·DV", mos).
				Event("burned", "MoS ≤ −1: the fire hits", burned)
			woundCategoryEvents(spec, th.Band(dmg), true)
			return spec, nil
		},
	}
}

// Options of ag.electricity.
var (
	optShockExposure = mechanics.ChoiceOf("ag.electricity", "exposure", "full contact or partial (halves the DV)", fireFull, firePartial)
	optShockTrigger  = mechanics.SwitchOf("ag.electricity", "test_trigger", "any_wound: the Body test only follows damage ≥ Flesh; always",
		shockAnyWound, shockAlways)
	optShockTN = mechanics.SwitchOf("ag.electricity", "tn_dv", "effective: the TN uses the DV after halvings; listed: the listed DV",
		shockTNEffective, shockTNListed)
	optShockPenalty = mechanics.SwitchOf("ag.electricity", "wound_penalty_in_test", "yes: the new wound already penalises the test (flesh −1, deep −2); no",
		shockPenaltyYes, shockPenaltyNo)
)

// Results of the Body test after a shock (band indices).
const (
	shockNone = iota
	shockKO
	shockComa
	shockDeath
)

var shockLabels = []string{"none", "knocked_out", "coma", "death"}

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
			"near-certain coma from DV 3–4.",
		Params:  ps,
		Options: mechanics.Options(optCritCount, optFumbleCrit, optShockExposure, optShockTrigger, optShockTN, optShockPenalty),
		Build:   buildElectricity,
	}
}

func buildElectricity(c mechanics.Config) (*mechanics.Spec, error) {
	if err := checkThresholds(c); err != nil {
		return nil, err
	}
	o := coreOptionsOf(c)
	dv, body, m := c.Int("dv"), c.Int("body"), c.Int("modifier")
	th := woundThresholds(c)
	partial := optShockExposure.Of(c) == firePartial
	always, listed := optShockTrigger.Of(c) == shockAlways, optShockTN.Of(c) == shockTNListed
	pen := optShockPenalty.Of(c) == shockPenaltyYes
	woundPenalty := [4]int{catFlesh: 1, catDeep: 2, catCritical: 2}
	rec := mechanics.NewRecord(
		mechanics.Int("damage", 0, 40*7, "wounds: ⌊DV × ½ᵏ × damage roll⌋").In("wounds"),
		mechanics.Enum("test", "the Body test after the shock: none (not tested or passed), knocked out, coma, death", shockLabels...),
	)
	sDamage, sTest := rec.Slot("damage"), rec.Slot("test")
	start := rec.Start()
	// The damage dice always follow the global rule (two dice keep the
	// highest, +1 on doubles); the Body test uses the core options.
	out := mechanics.Combine{X: damageDice(fallKeepHighCrit), Y: Pool(2, o), Name: "shock", F: func(x, y int) int {
		eff := expr.Int(int64(dv)).Mul(halving(partial, rollFumble(x), true))
		d := kit.Floor.Round(eff.Mul(expr.Int(int64(rollValue(x)))))
		cat := th.Of(d)
		code := sDamage.Set(start, int(d.N))
		if !always && cat < catFlesh {
			return code
		}
		tn := eff.Mul(expr.Int(5))
		if listed {
			tn = expr.Int(int64(5 * dv))
		}
		mod := m
		if pen {
			mod -= woundPenalty[cat]
		}
		mos := expr.Int(int64(rollTotal(y, body, mod))).Sub(tn)
		res := shockNone
		switch {
		case rollFumble(y):
			res = shockDeath
		case mos.Cmp(expr.Int(-5)) <= 0:
			res = shockComa
		case mos.Cmp(expr.Int(-1)) <= 0:
			res = shockKO
		}
		return sTest.Set(code, res)
	}}
	cat := th.Band(expr.F("damage"))
	tested := expr.Ge(cat, expr.K(catFlesh))
	if always {
		tested = expr.K(1)
	}
	test := expr.F("test")
	spec := &mechanics.Spec{Record: rec, Outcome: out}
	spec.Report("damage").
		Event("paralysis_local", "a flesh wound", expr.Eq(cat, expr.K(catFlesh))).
		Event("paralysis_full", "a deep wound or worse", expr.Ge(cat, expr.K(catDeep))).
		Event("tested", "the Body test was made (damage ≥ Flesh, or always)", tested).
		Event("ko_or_worse", "the Body test failed: MoS ≤ −1 or worse", expr.Ge(test, expr.K(shockKO))).
		Event("coma_or_worse", "MoS ≤ −5 or a fumble", expr.Ge(test, expr.K(shockComa))).
		Event("death", "a fumbled Body test", expr.Eq(test, expr.K(shockDeath))).
		Event("critical_wound", "damage reaches the Critical threshold", expr.Eq(cat, expr.K(catCritical))).
		Band("test", "the Body test's result", shockLabels, test)
	return spec, nil
}
