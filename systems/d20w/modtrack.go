package d20w

import (
	"fmt"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// The switches of the Minor / Major / Extreme track
// (docs/mechanics.md#d20w-modtrack), shared by the mechanics that put
// penalties on it.
var (
	optTrackValues = mechanics.SwitchOf("d20w.modtrack", "values",
		fmt.Sprintf("the numbers of the steps (the page gives none): doubling %s (two Minors are a Major in value too), "+
			"d20_circumstance %s, custom (minor_value, major_value, extreme_value)", stepValues(doublingValues), stepValues(d20CircumstanceValues)),
		valuesDoubling, valuesD20Circumstance, valuesCustom)
	optTrackCap = mechanics.SwitchOf("d20w.modtrack", "cap",
		fmt.Sprintf("extreme: %[1]d net points or more are Extreme and no more; open: each point beyond %[1]d adds the Minor value again", extremePoints),
		capExtreme, capOpen)
	optMajorPlusMinor = mechanics.SwitchOf("d20w.modtrack", "major_plus_minor",
		fmt.Sprintf("the value of %[1]d net points (a Major and a Minor): major (it stays Major) or interpolate (%[1]d × the Minor value)", majorPlusMinorPoints),
		threePointsMajor, threePointsInterpolate)
	optTask = mechanics.ChoiceOf("d20w.modtrack", "task",
		"rolled: the check is rolled; easy: an Easy task is not rolled, it succeeds, unless conditions are Extreme (which net "+
			"steps count as Extreme conditions is opt.easy_rolls): then it is rolled as usual", taskRolled, taskEasy)
	optEasyRolls = mechanics.SwitchOf("d20w.modtrack", "easy_rolls",
		fmt.Sprintf("which net stack makes an Easy task (task=easy) rolled: extreme_penalty (a net Extreme penalty, p ≤ %s: we read the "+
			"page's 'don't roll except under Extreme conditions' as adverse conditions, so bonuses never make an Easy task harder) "+
			"or any_extreme (a net Extreme step either way, |p| ≥ %d: an Extreme bonus rolls the task too, so it can fail although "+
			"fewer bonuses would leave it certain); with task=rolled it changes nothing", kit.Num(-extremePoints), extremePoints),
		easyRollsExtremePenalty, easyRollsAnyExtreme)
	optSameSource = mechanics.SwitchOf("d20w.modtrack", "same_source",
		"keep_largest: modifiers from one source do not combine, only the largest counts (the page: 'usually not combined'); "+
			"stack: the GM lets them combine, so the repeated modifiers count too",
		sameSourceKeepLargest, sameSourceStack)
)

// trackOpts are the switches of the track's values.
var trackOpts = []mechanics.Declared{optTrackValues, optTrackCap, optMajorPlusMinor}

// Points of the steps: Minor 1, Major 2, Extreme 4 reproduce every
// combination of the page (two Minors a Major; a Major and two Minors, or
// two Majors, an Extreme; a Minor penalty turns a Major bonus into a Minor).
const (
	minorPoints   = 1
	majorPoints   = 2
	extremePoints = 4
	// majorPlusMinorPoints are a Major and a Minor: Major by level, and
	// its value is opt.major_plus_minor.
	majorPlusMinorPoints = majorPoints + minorPoints
)

// Levels of the track by net points: 0 none, 1 Minor, 2–3 Major, ≥ 4
// Extreme.
var levelLabels = []string{"none", "minor", "major", "extreme"}

// levelBands writes the levels by net points: "1 Minor, 2–3 Major, ≥ 4
// Extreme".
func levelBands() string {
	return fmt.Sprintf("%d Minor, %d–%d Major, ≥ %d Extreme", minorPoints, majorPoints, extremePoints-1, extremePoints)
}

// The values of the Minor, Major and Extreme steps under opt.values
// doubling (the default) and d20_circumstance.
var (
	doublingValues        = [3]int{2, 4, 8}
	d20CircumstanceValues = [3]int{2, 5, 10}
)

// stepValues writes the values of the three steps: "±2/±4/±8".
func stepValues(v [3]int) string {
	return fmt.Sprintf("±%d/±%d/±%d", v[0], v[1], v[2])
}

// track turns net points into the value of a modifier.
type track struct {
	minor, major, extreme int
	cap                   trackCap
	three                 majorPlusMinor
}

// trackParams are the values of opt.values=custom.
func trackParams() []mechanics.Param {
	return []mechanics.Param{
		ip("minor_value", float64(doublingValues[0]), 0, 40, "the value of a Minor step with opt.values=custom"),
		ip("major_value", float64(doublingValues[1]), 0, 40, "the value of a Major step with opt.values=custom"),
		ip("extreme_value", float64(doublingValues[2]), 0, 80, "the value of an Extreme step with opt.values=custom"),
	}
}

// trackOf decodes the track's switches (and its custom values).
func trackOf(c mechanics.Config) track {
	v := doublingValues
	t := track{cap: optTrackCap.Of(c), three: optMajorPlusMinor.Of(c)}
	switch optTrackValues.Of(c) {
	case valuesD20Circumstance:
		v = d20CircumstanceValues
	case valuesCustom:
		v = [3]int{c.Int("minor_value"), c.Int("major_value"), c.Int("extreme_value")}
	}
	t.minor, t.major, t.extreme = v[0], v[1], v[2]
	return t
}

// level is the step of p net points (its size: 0 none … 3 Extreme).
func level(p int) int {
	switch a := abs(p); {
	case a == 0:
		return 0
	case a < majorPoints:
		return 1
	case a < extremePoints:
		return 2
	}
	return 3
}

// value is the signed value of p net points.
func (t track) value(p int) int {
	a, v := abs(p), 0
	switch {
	case a == 0:
	case a == minorPoints:
		v = t.minor
	case a == majorPoints:
		v = t.major
	case a == majorPlusMinorPoints && t.three == threePointsInterpolate:
		v = majorPlusMinorPoints * t.minor
	case a == majorPlusMinorPoints:
		v = t.major
	case t.cap == capOpen:
		v = t.extreme + (a-extremePoints)*t.minor
	default:
		v = t.extreme
	}
	if p < 0 {
		return -v
	}
	return v
}

// valueTable is value over −span..span, for a lookup.
func (t track) valueTable(span int) []int64 {
	out := make([]int64, 2*span+1)
	for p := -span; p <= span; p++ {
		out[p+span] = int64(t.value(p))
	}
	return out
}

// describe lists the values of 1..span net points, the lookup table a
// designer reads.
func (t track) describe(span int) string {
	var b strings.Builder
	for p := 1; p <= span; p++ {
		if p > 1 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d → %d (%s)", p, t.value(p), levelLabels[level(p)])
	}
	return b.String()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// stack is one side of the modifiers: counts of Minor, Major and Extreme
// modifiers from distinct sources, and of further modifiers repeating a
// source already counted.
type stack struct {
	counts, repeats [3]int
}

var stepNames = [3]string{"minor", "major", "extreme"}
var stepPoints = [3]int{minorPoints, majorPoints, extremePoints}

func stackOf(c mechanics.Config, kind string) stack {
	var s stack
	for i, n := range stepNames {
		s.counts[i] = c.Int(n + "_" + kind)
		s.repeats[i] = c.Int("repeated_" + n + "_" + kind)
	}
	return s
}

// check refuses a repeated modifier whose source is not among the counted
// ones: a source's counted modifier is its largest, so a repeat of size k
// needs a counted modifier of size k or more.
func (s stack) check(kind string) error {
	for i := range stepNames {
		if s.repeats[i] == 0 {
			continue
		}
		larger := 0
		for j := i; j < 3; j++ {
			larger += s.counts[j]
		}
		if larger == 0 {
			return fmt.Errorf("repeated_%s_%s=%d: a repeat comes from a source already counted, and a source counts its largest modifier, "+
				"so it needs a counted %s or larger one among the %s (raise %s_%s or a larger size)", stepNames[i], kind, s.repeats[i], stepNames[i], kind, stepNames[i], kind)
		}
	}
	return nil
}

// points is the side's points: the counted modifiers, and the repeats
// when the same source stacks; dropped is the number of repeats left out.
func (s stack) points(same sameSource) (points, dropped int) {
	for i := range stepNames {
		points += s.counts[i] * stepPoints[i]
		if same == sameSourceStack {
			points += s.repeats[i] * stepPoints[i]
		} else {
			dropped += s.repeats[i]
		}
	}
	return points, dropped
}

func (s stack) words(kind string) string {
	var parts []string
	for i, n := range stepNames {
		if s.counts[i] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", s.counts[i], n))
		}
		if s.repeats[i] > 0 {
			parts = append(parts, fmt.Sprintf("%d repeated %s", s.repeats[i], n))
		}
	}
	if len(parts) == 0 {
		return "no " + kind
	}
	return strings.Join(parts, ", ") + " " + kind
}

// signedLevelLabels label the signed level band: index 3 + sign × level.
var signedLevelLabels = []string{"extreme_penalty", "major_penalty", "minor_penalty", "none", "minor_bonus", "major_bonus", "extreme_bonus"}

func modtrack() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "d20w.modtrack",
		Summary: "the Minor / Major / Extreme modifier track: stacks of bonuses and penalties to one net value, and the check it modifies",
		Doc: fmt.Sprintf("Circumstances are a bonus or a penalty of size Minor, Major or Extreme. Points Minor %d, Major %d, Extreme %d; modifiers from "+
			"one source do not stack (only its largest counts); net p = Σ bonus points − Σ penalty points, so opposite modifiers cancel; "+
			"level of |p|: 0 none, %s, and the value of that level with the sign of p (by default "+
			"%d points keep the Major value, opt.major_plus_minor, and the value stops at Extreme, opt.cap). The "+
			"check is then N + mod + value ≥ DC (match or beat); an Easy task (task=easy) is not rolled (it succeeds) unless conditions "+
			"are Extreme: by default a net Extreme penalty, p ≤ %s (opt.easy_rolls). ",
			minorPoints, majorPoints, extremePoints, levelBands(), majorPlusMinorPoints, kit.Num(-extremePoints)) +
			"The lookup table from net points to value is the doc of net_value; sweep minor_bonuses and minor_penalties for the " +
			"P(success) surface (it saturates at Extreme unless opt.cap=open).",
		Params:  modtrackParams(),
		Options: mechanics.Options(append(append([]mechanics.Declared{optTask, optEasyRolls}, trackOpts...), optSameSource, optNaturals)...),
		Build:   modtrackSpec,
	}
}

// modtrackParams are the parameters of d20w.modtrack: the counts of
// bonuses and penalties of each size, the repeats, the check and the
// track's custom values.
func modtrackParams() []mechanics.Param {
	var ps []mechanics.Param
	for _, kind := range []string{"bonuses", "penalties"} {
		for i, n := range stepNames {
			def := 0.0
			if kind == "bonuses" && i == 0 {
				def = 2
			}
			ps = append(ps, ip(n+"_"+kind, def, 0, 10, fmt.Sprintf("%s %s from distinct sources (%d point%s each)", strings.ToUpper(n[:1])+n[1:], kind, stepPoints[i], map[bool]string{true: "", false: "s"}[i == 0])))
		}
	}
	for _, kind := range []string{"bonuses", "penalties"} {
		for _, n := range stepNames {
			ps = append(ps, ip("repeated_"+n+"_"+kind, 0, 0, 10, fmt.Sprintf("further %s %s from a source already counted (a second laser sight): dropped unless opt.same_source=stack", n, kind)))
		}
	}
	ps = append(ps, ip("mod", 0, -20, 40, "the check's modifier before the track: ability modifier + skill ranks or combat bonus"),
		ip("dc", 15, -20, 60, "Difficulty Class of the check the track modifies"))
	return append(ps, trackParams()...)
}

// modtrackSpec is the model of d20w.modtrack: the stack's net points and
// their value on the track (fixed by the configuration), and the check
// they modify.
func modtrackSpec(c mechanics.Config) (*mechanics.Spec, error) {
	t, same := trackOf(c), optSameSource.Of(c)
	bon, pen := stackOf(c, "bonuses"), stackOf(c, "penalties")
	if err := bon.check("bonuses"); err != nil {
		return nil, err
	}
	if err := pen.check("penalties"); err != nil {
		return nil, err
	}
	bp, bd := bon.points(same)
	pp, pd := pen.points(same)
	p := bp - pp
	span := max(abs(p), 2*extremePoints)
	values := t.valueTable(span)
	// The stack is part of every outcome: fields with one value each.
	rec := mechanics.NewRecord(kit.Natural("natural", 20),
		mechanics.Int("net_points", p, p, fmt.Sprintf("net points p = %d − %d: %s against %s", bp, pp, bon.words("bonuses"), pen.words("penalties"))),
		mechanics.Int("dropped", bd+pd, bd+pd, "modifiers left out because their source already counts (opt.same_source=keep_largest)"))
	// The signed level: 3 + the steps p reaches upwards − those it reaches downwards.
	pts := expr.F("net_points")
	signedLevel := num(3)
	for _, step := range stepPoints {
		signedLevel = expr.Sub(expr.Add(signedLevel, expr.Ge(pts, num(step))), expr.Le(pts, num(-step)))
	}
	mod, dc := c.Int("mod"), c.Int("dc")
	ch := kit.Check{Field: "natural", Sides: 20, Bonus: mod, Target: dc, Cmp: mechanics.GE, AutoSucceed: 21}
	if optNaturals.Of(c) == naturalsAllRolls {
		ch.AutoFail, ch.AutoSucceed = 1, 20
	}
	n, value := expr.F("natural"), expr.F("net_value")
	total := expr.Add(expr.Add(n, num(mod)), value)
	success := expr.Ge(total, num(dc)) // match or beat
	if ch.AutoFail > 0 {
		success = expr.Or(expr.Eq(n, num(20)), expr.And(expr.Ne(n, num(1)), success))
	}
	successDoc := "T ≥ DC (match or beat) with the track's value, or per the naturals option"
	without, withoutDoc := ch.Success(), "the same roll without the track: N + mod ≥ DC"
	if optTask.Of(c) == taskEasy {
		// Not rolled, hence a success, unless the stack is Extreme in
		// the way opt.easy_rolls says.
		rolls, when := expr.Le(pts, num(-extremePoints)), fmt.Sprintf("a net Extreme penalty (p ≤ %s)", kit.Num(-extremePoints))
		if optEasyRolls.Of(c) == easyRollsAnyExtreme {
			rolls, when = expr.Ge(expr.Abs(pts), num(extremePoints)), fmt.Sprintf("a net Extreme step (|p| ≥ %d)", extremePoints)
		}
		success = expr.Or(expr.Not(rolls), success)
		successDoc = "the Easy task succeeds unrolled unless the stack is " + when + "; then T ≥ DC (match or beat) with the " +
			"track's value, or per the naturals option"
		// Without the track nothing is Extreme: the Easy task is not
		// rolled and succeeds, so the comparison credits the track only
		// with what it changes.
		without = expr.Lit{V: expr.Bool(true)}
		withoutDoc = "the same Easy task without the track: no conditions, so it is not rolled and succeeds"
	}
	spec := &mechanics.Spec{Record: rec, Outcome: rollNaturals(rec, "natural")}
	marginDoc := "T − DC with T = N + mod + net_value: ≥ 0 succeeds (match or beat), unless a natural decides"
	if optTask.Of(c) == taskEasy {
		marginDoc += "; it decides only when the Easy task is rolled"
	}
	spec.Var("margin", marginDoc, expr.Sub(total, num(dc))).
		Var("total", "T = N + mod + net_value", total).
		Var("net_value", "the value of the net points, read off the track (points → value): "+t.describe(span), expr.Table(pts, int64(-span), values...)).
		Band("level", "the net level of the stack: the step of |p| with the sign of p", signedLevelLabels, signedLevel).
		Event("success", successDoc, success).
		Event("success_without_track", withoutDoc, without)
	spec.Report("net_points", "dropped")
	return spec, nil
}

// modtrackMechanics are the mechanics declared in modtrack.go.
func modtrackMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{modtrack()}
}
