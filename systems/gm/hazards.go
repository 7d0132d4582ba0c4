package gm

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// Falling, jumping, suffocation (docs/mechanics.md#gm-fall,
// docs/mechanics.md#gm-jump, docs/mechanics.md#gm-suffocation).

// hazardsMechanics are the mechanics declared in hazards.go.
func hazardsMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{fall(), jump(), suffocation()}
}

// fallBands are the lowest heights (feet) of the falling table's bands:
// band i deals i+1 d6 (under 10 ft d6 … 320 ft and more 7d6).
var fallBands = []int64{0, 10, 20, 40, 80, 160, 320}

// fallDice is the number of d6 a fall of h feet deals.
func fallDice(h expr.Rat) int {
	n := 0
	for _, lo := range fallBands {
		if h.Cmp(expr.Int(lo)) >= 0 {
			n++
		}
	}
	return max(n, 1)
}

// The heights (feet) of the evasion rule of a fall: a successful evasion
// roll negates the damage of a fall under evasionNegatesBelow and halves
// that of one under evasionHalvesBelow (opt.evasion_limit: or of exactly
// evasionHalvesBelow).
const (
	evasionNegatesBelow = 10
	evasionHalvesBelow  = 20
)

// A fall takes 1 s per die up to aloftPerDieUpTo feet, then goes on at
// fallFeetPerSecond (50 yards a second).
const (
	aloftPerDieUpTo   = 450
	fallFeetPerSecond = 150
)

// secondsAloft is the time of a fall of h feet: 1 s per die up to 450 ft,
// then 50 yards (150 ft) a second, exactly: 7 + (h − 450)/150, a fraction
// between multiples of 150 ft (525 ft → 7.5 s), not rounded.
func secondsAloft(h expr.Rat) expr.Rat {
	if h.Cmp(expr.Int(aloftPerDieUpTo)) <= 0 {
		return expr.Int(int64(fallDice(h)))
	}
	return secondsAloft(expr.Int(aloftPerDieUpTo)).Add(h.Sub(expr.Int(aloftPerDieUpTo)).Mul(expr.Frac(1, fallFeetPerSecond)))
}

// fallBandTable lists the dice of the falling table's bands: "under 10 ft
// 1, 10 ft to under 20 ft 2, 20–40 ft 3, …" up to the last band's, which
// the caller writes.
func fallBandTable() string {
	var rows []string
	for i, lo := range fallBands[:len(fallBands)-1] {
		hi := fallBands[i+1]
		switch i {
		case 0:
			rows = append(rows, fmt.Sprintf("under %d ft %d", hi, i+1))
		case 1:
			rows = append(rows, fmt.Sprintf("%d ft to under %d ft %d", lo, hi, i+1))
		default:
			rows = append(rows, fmt.Sprintf("%d–%d ft %d", lo, hi, i+1))
		}
	}
	return strings.Join(rows, ", ")
}

// aloftText writes the time aloft of a fall of h feet: "7.5".
func aloftText(h int64) string {
	return strconv.FormatFloat(secondsAloft(expr.Int(h)).Float(), 'f', -1, 64)
}

var (
	optEvasionLimit = mechanics.SwitchOf("gm.fall", "evasion_limit",
		fmt.Sprintf("below_20ft: evasion halves falls of %[1]d ft up to but not including %[2]d ft (\"less than twenty feet\"); up_to_20ft: a fall of "+
			"exactly %[2]d ft too (\"twenty feet or less\")", evasionNegatesBelow, evasionHalvesBelow), evasionBelow20ft, evasionUpTo20ft)
	optHalving  = mechanics.SwitchOf("gm.fall", "halving", "floor or ceil when evasion halves the damage", kit.Floor, kit.Ceil)
	optInjHalve = mechanics.SwitchOf("gm.fall", "injuries_when_halved",
		"none: a successful evasion on a short fall takes no injuries; half_the_dice: ⌊n/2⌋ injuries when the damage is halved",
		halvedNoInjuries, halvedHalfTheDice)
)

func fall() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID: "gm.fall",
		Summary: fmt.Sprintf("falling: d6 per band of height (under %d ft d6 … %d ft and more %dd6); evasion negates under %d ft and halves under %d ft",
			fallBands[1], fallBands[len(fallBands)-1], len(fallBands), evasionNegatesBelow, evasionHalvesBelow),
		Doc: fmt.Sprintf("n d6 by height h: %[1]s (each band "+
			"from its lower edge up to but not including the next), %[2]d ft and more %[3]d (no increase past %[3]dd6). Under %[4]d ft a "+
			"successful evasion roll negates the damage; from %[4]d ft to under %[5]d ft it halves it (floor by default); beyond, it does "+
			"nothing. One point per die is an injury (the rest comes off survival) unless the evasion roll succeeded on such a short "+
			"fall (then none, or ⌊n/2⌋ when halved with injuries_when_halved=half_the_dice). Time aloft (not random): 1 s per die up to %[6]d ft, so 1 s under %[7]d ft … %[3]d s from %[2]d ft to %[6]d ft; past %[6]d ft "+
			"the fall goes on at %[8]d ft a second, exactly %[9]s + (h − %[6]d)/%[8]d s, a fraction between multiples of %[8]d ft (%[10]d ft → "+
			"%[11]s s, %[12]d ft → %[13]s s), not rounded. For metres, 1 ft = 0.3048 m.",
			fallBandTable(), fallBands[len(fallBands)-1], len(fallBands), evasionNegatesBelow, evasionHalvesBelow,
			aloftPerDieUpTo, fallBands[1], fallFeetPerSecond, aloftText(aloftPerDieUpTo),
			aloftPerDieUpTo+fallFeetPerSecond/2, aloftText(aloftPerDieUpTo+fallFeetPerSecond/2),
			aloftPerDieUpTo+fallFeetPerSecond, aloftText(aloftPerDieUpTo+fallFeetPerSecond)),
		Params: []mechanics.Param{
			{Name: "height", Default: 30, Min: 0, Max: 2000, Real: true, Doc: "height fallen in feet (sweep 0–600)"},
			score("evasion", 10, "evasion reaction score"), pModifier,
			ip("survival", 15, 1, 500, "survival points S, for P(damage ≥ S) (sweep 5–30)"),
		},
		Options: mechanics.Options(optEvasionLimit, optHalving, optInjHalve, optNaturals),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			h := c.Rat("height")
			n := fallDice(h)
			limit, halving, injHalve := optEvasionLimit.Of(c), optHalving.Of(c), optInjHalve.Of(c)
			r := roll("natural", c.Int("evasion")+c.Int("modifier"), optNaturals.Of(c))
			twenty := h.Cmp(expr.Int(evasionHalvesBelow))
			short := twenty < 0 || (twenty == 0 && limit == evasionUpTo20ft) // evasion counts
			negates := h.Cmp(expr.Int(evasionNegatesBelow)) < 0

			rec := mechanics.NewRecord(kit.Natural("natural", 20), mechanics.Int("dice", n, 6*n, fmt.Sprintf("the %dd6 rolled", n)))
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Roll(rec, part{Field: "natural", Node: d20}, part{Field: "dice", Node: dice(n, 6)})}
			rolled := field("dice")
			var evaded expr.Expr = num(0) // the evasion roll succeeded and counts
			dmg, inj := rolled, num(n)
			if short {
				evaded = r.Success()
				whenEvaded, injEvaded := num(0), num(0)
				if !negates {
					whenEvaded = round(halving, expr.Mul(rolled, expr.Q(1, 2)))
					if injHalve == halvedHalfTheDice {
						injEvaded = num(n / 2)
					}
				}
				dmg = expr.Cond(evaded, whenEvaded, rolled)
				inj = expr.Cond(evaded, injEvaded, num(n))
			}
			spec.Var("damage", "damage D: the dice, negated or halved by a successful evasion on a short fall", dmg).
				Var("injuries", "injury points: one per die unless evasion succeeded on a short fall", inj).
				Var("survival_loss", "the rest of the damage, off survival points: D − injuries", expr.Sub(field("damage"), field("injuries"))).
				Var("seconds_aloft", fmt.Sprintf("time aloft in seconds (not random): 1 per die up to %[1]d ft, then %[2]s + (h − %[1]d)/%[3]d, not rounded",
					aloftPerDieUpTo, aloftText(aloftPerDieUpTo), fallFeetPerSecond), expr.Lit{V: secondsAloft(h)}).
				Event("evaded", "the evasion roll succeeded on a fall short enough for it to count", evaded).
				Event("damage_reaches_survival", "D ≥ the survival points", expr.Ge(field("damage"), num(c.Int("survival"))))
			return spec, nil
		},
	}
}

// jumpPenalty is the penalty for jumping h feet (or yards): 0 up to 1,
// then 1, 2, 4, 8, … doubling each foot (2^(h−2) for h ≥ 2).
func jumpPenalty(h int) int {
	if h <= 1 {
		return 0
	}
	if h-2 >= 30 {
		return 1 << 30
	}
	return 1 << (h - 2)
}

// sizeFactor scales the jumping distance by the creature's size.
func sizeFactor(s size) expr.Rat {
	return [...]expr.Rat{sizeMedium: expr.Int(1), sizeLarge: expr.Int(2), sizeHuge: expr.Int(4), sizeGigantic: expr.Int(8),
		sizeTitanic: expr.Int(16), sizeSmall: expr.Frac(3, 4), sizeTiny: expr.Frac(1, 3), sizeFine: expr.Frac(1, 6)}[s]
}

var (
	optJumpKind = mechanics.ChoiceOf("gm.jump", "kind", "up (feet) or across (the same in yards)", jumpUp, jumpAcross)
	optSize     = mechanics.ChoiceOf("gm.jump", "size", "the jumper's size: "+sizeFactors(jumpSizes),
		jumpSizes...)
)

// jumpSizes are the sizes of gm.jump, the default (medium) first.
var jumpSizes = []size{sizeMedium, sizeLarge, sizeHuge, sizeGigantic, sizeTitanic, sizeSmall, sizeTiny, sizeFine}

// sizeFactors lists the size factors: "the distance ×1, large ×2, …,
// small ×¾, …" (the first size, the default, unnamed).
func sizeFactors(sizes []size) string {
	rows := make([]string, len(sizes))
	for i, s := range sizes {
		name := s.String()
		if i == 0 {
			name = "the distance"
		}
		rows[i] = name + " ×" + fraction(sizeFactor(s))
	}
	return strings.Join(rows, ", ")
}

// fraction writes a rational as the texts do: 2, ¾, ⅓.
func fraction(r expr.Rat) string {
	if r.IsInt() {
		return r.String()
	}
	if g, ok := map[[2]int64]string{{1, 2}: "½", {1, 3}: "⅓", {2, 3}: "⅔", {1, 4}: "¼", {3, 4}: "¾", {1, 6}: "⅙", {5, 6}: "⅚", {1, 8}: "⅛"}[[2]int64{r.N, r.D}]; ok {
		return g
	}
	return r.String()
}

// jumpBase is what a jump roll adds to agility (and strength's bonus).
const jumpBase = 8

// jumpPenalties lists the penalties of the first heights past the free
// one: "2 ft −1, 3 ft −2, 4 ft −4".
func jumpPenalties() string {
	var rows []string
	for h := 2; h <= 4; h++ {
		rows = append(rows, fmt.Sprintf("%d ft %s", h, kit.Num(-jumpPenalty(h))))
	}
	return strings.Join(rows, ", ")
}

func jump() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "gm.jump",
		Summary: fmt.Sprintf("jumping up or leaping across: agility + %d with strength as a major contributor; each foot past the first a doubling penalty", jumpBase),
		Doc: fmt.Sprintf("T = agility + strength bonus (a major contributor) + %d + modifier (+ running movement when leaping across: the rules "+
			"give it to a moving character's leap only, so running > 0 with kind=up is refused); pen(h) = 0 for h ≤ 1 and 2^(h−2) "+
			"after (%s, …). ", jumpBase, jumpPenalties()) + "The roll N reaches H = max{h ≥ 1 : N ≤ T − pen(h)} (0 if even 1 ft fails): a " +
			"failure still gets the height the roll allowed. Leaping across is the same in yards. The distance is H × the size " +
			"factor. reaches_target is the roll at the penalty of the height the target needs, ⌈target / size factor⌉; a target " +
			"of 0 needs no height, so every roll reaches it, a natural 20 too. With the naturals switch a 1 always reaches a target " +
			"above 0 and a 20 never does, while the height stays the roll's.",
		Params: []mechanics.Param{
			score("agility", 10, "agility score"),
			ip("strength_bonus", 0, -10, 10, "strength's bonus, a major contributor (added in full)"),
			pModifier,
			ip("running", 0, 0, 100, "current running movement, added to the roll when leaping across (kind=across; refused with kind=up)"),
			ip("target", 4, 0, 500, "a distance to reach, in feet (up) or yards (across) after the size factor"),
		},
		Options: mechanics.Options(optJumpKind, optSize, optNaturals),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			if run := c.Int("running"); run != 0 && optJumpKind.Of(c) == jumpUp {
				return nil, fmt.Errorf("running=%d needs kind=across: the rules add running movement to the roll when leaping across, not when jumping up", run)
			}
			T := c.Int("agility") + c.Int("strength_bonus") + jumpBase + c.Int("modifier") + c.Int("running")
			nat, factor := optNaturals.Of(c), sizeFactor(optSize.Of(c))
			unit := "ft"
			if optJumpKind.Of(c) == jumpAcross {
				unit = "yd"
			}
			rec := naturalRecord("natural")
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Encode(rec, rec.Slot("natural"), d20)}
			// H counts the heights the roll reaches: they are 1…H, as the
			// penalty only grows.
			var height expr.Expr = num(0)
			for h := 1; T-jumpPenalty(h) >= 1; h++ {
				height = expr.Add(height, expr.Le(field("natural"), num(T-jumpPenalty(h))))
			}
			// The table height the target needs, and the roll at its penalty.
			need, _ := expr.Int(int64(c.Int("target"))).Div(factor)
			var reaches expr.Expr = num(1)
			if h := int(need.Ceil()); h > 0 {
				reaches = roll("natural", T-jumpPenalty(h), nat).Success()
			}
			spec.Vars = []mechanics.Var{
				{Name: "height", Doc: "H: the table distance the roll reaches (feet up, yards across), before the size factor", Unit: unit, Expr: height},
				{Name: "distance", Doc: "H × the size factor", Unit: unit, Expr: expr.Mul(field("height"), expr.Lit{V: factor})},
			}
			spec.Event("reaches_target", "the distance reaches the target (the roll at the penalty of the height it needs)", reaches)
			return spec, nil
		},
	}
}

// roundsPerMinute is the number of rounds in a minute: the time between
// two health rolls of a suffocation.
const roundsPerMinute = 6

func suffocation() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "gm.suffocation",
		Summary: "suffocation: a buffer of rounds, then a health roll each minute at one more point of penalty; each failure one injury",
		Doc: fmt.Sprintf("Buffer B = endurance rounds when prepared (a deep breath), else max(0, d4 + endurance as a minor contributor, half "+
			"its bonus toward zero). When it runs out a health roll (failure: one injury), then one every minute (%[1]d rounds) at a "+
			"cumulative penalty of 1: roll j (j = 0, 1, …) comes after B + %[1]dj rounds without air, at −j. At rest the buffer and "+
			"the minute between rolls double (2B + %[2]dj); the minutes without air do not. A roll is made only if it comes strictly "+
			"before the end of the time without air (its round < %[1]d × minutes): one due exactly at the end is not made, the air being "+
			"back (prepared, endurance=%[2]d, minutes=2: the buffer ends at round %[2]d of %[2]d, so no roll). Injuries by then are a "+
			"Poisson-binomial ", roundsPerMinute, 2*roundsPerMinute) +
			"count; with injury_penalty=on each injury also penalises the " +
			"later rolls, a chain on the injury count (a forward DP), exact (the state is the count). A second part follows the " +
			"same rolls to the k-th injury.",
		Params: []mechanics.Param{
			score("health", 10, "health reaction score"), pModifier,
			ip("prepared", 0, 0, 1, "1: prepared (a deep breath): a buffer of endurance rounds"),
			score("endurance", 10, "endurance score: the prepared buffer in rounds"),
			ip("endurance_bonus", 0, -10, 10, "endurance's bonus: unprepared, half of it (toward zero) is added to the d4 rounds"),
			ip("at_rest", 0, 0, 1, "1: completely inactive and at rest: the buffer and the minute between rolls double"),
			ip("minutes", 10, 0, 120, "minutes without air"),
			pInj,
			ip("k", 1, 1, 60, "the injury count whose time the second part reports"),
		},
		Options: mechanics.Options(optNaturals, optInjuryPenalty),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			r := newSuffocationRolls(c)
			k := c.Int("k")
			main, toK := r.chain(0), r.chain(k)
			spec := main.spec
			spec.Vars = []mechanics.Var{
				{Name: "injuries", Doc: "injuries taken by the end of the minutes without air", Unit: "injuries", Expr: main.table(func(_, _, inj int) int { return inj })},
				{Name: "health_rolls", Doc: "health rolls made", Unit: "rolls", Expr: main.table(func(_, j, _ int) int { return j })},
				{Name: "buffer", Doc: "the buffer in rounds (doubled at rest)", Unit: "rounds", Expr: main.table(func(b, _, _ int) int { return b * r.slow })},
			}
			spec.Event("any_injury", "at least one injury", expr.Ge(field("injuries"), num(1))).
				Event("k_injuries", "at least k injuries", expr.Ge(field("injuries"), num(k)))
			// Part two: the same rolls, absorbed at the k-th injury.
			part2 := toK.spec
			// Roll j comes after b·slow + j·every rounds; the k-th injury's
			// roll is the last one made.
			roundOfK := toK.table(func(b, j, _ int) int { return b*r.slow + (j-1)*r.every })
			part2.Vars = []mechanics.Var{{Name: "rounds_to_k_injuries", Doc: "rounds without air when the k-th injury comes (its roll)",
				Unit: "rounds", Expr: roundOfK, When: toK.reached, Otherwise: "fewer than k injuries in the minutes without air"}}
			spec.Also = []*mechanics.Spec{part2}
			return spec, nil
		},
	}
}

// suffocationRolls are the health rolls of a suffocation, decoded from a
// configuration: a buffer of rounds, then roll j (j = 0, 1, …) after
// b·slow + j·every rounds without air, if that is within the time without
// air, at a penalty of j.
type suffocationRolls struct {
	nat      naturals
	base     int  // the health target before the penalties
	inj0     int  // injuries before, counted with the penalty on
	feedback bool // each injury penalises the later rolls
	buffer   mechanics.Node
	bLo, bHi int // the buffer's range in rounds, before doubling at rest
	slow     int // 2 at rest (the buffer and the time between rolls double), else 1
	every    int // rounds between rolls
	air      int // rounds without air
	rolls    int // the most rolls: those with the shortest buffer
}

func newSuffocationRolls(c mechanics.Config) suffocationRolls {
	r := suffocationRolls{nat: optNaturals.Of(c), base: c.Int("health") + c.Int("modifier"),
		feedback: optInjuryPenalty.Of(c) == injuryPenaltyOn, slow: 1 + c.Int("at_rest")}
	if r.feedback {
		r.inj0 = c.Int("injuries")
	}
	r.every, r.air = roundsPerMinute*r.slow, roundsPerMinute*c.Int("minutes")
	if c.Int("prepared") == 1 {
		r.bLo = c.Int("endurance")
		r.bHi, r.buffer = r.bLo, mechanics.Const{V: r.bLo}
	} else {
		m := minor(c.Int("endurance_bonus"))
		r.bLo, r.bHi = max(0, 1+m), max(0, 4+m)
		r.buffer = mechanics.Map{X: mechanics.D(4), Name: "d4 + minor, at least 0", F: func(v int) int { return max(0, v+m) }}
	}
	for r.happens(r.bLo, r.rolls) {
		r.rolls++
	}
	return r
}

// target is the target of roll j with inj injuries so far.
func (r suffocationRolls) target(j, inj int) int {
	t := r.base - j - r.inj0
	if r.feedback {
		t -= inj
	}
	return t
}

// happens reports whether roll j comes within the time without air after
// a buffer of b rounds.
func (r suffocationRolls) happens(b, j int) bool { return b*r.slow+j*r.every < r.air }

// suffChain is one chain of suffocation rolls.
type suffChain struct {
	spec    *mechanics.Spec
	table   func(f func(b, j, inj int) int) expr.Expr
	reached expr.Expr // the k-th injury has come (stop > 0)
}

// chain follows the rolls: the first step draws the buffer; each step
// makes the next roll j if it comes within the time without air, else
// ends. With stop > 0 it ends at the stop-th injury as well. The state
// holds the rolls made, so the chain is homogeneous: the kernel (a buffer
// and a natural) is the same at every step, the buffer read only on the
// first. The status varies fastest in the state's record, so that a
// step's next states lie side by side.
func (r suffocationRolls) chain(stop int) suffChain {
	bLo, bHi, rolls := r.bLo, r.bHi, r.rolls
	maxInj, statuses := rolls, []string{"without air", "done"}
	if stop > 0 {
		maxInj, statuses = min(rolls, stop), append(statuses, "k injuries")
	}
	const going, done, reached = 0, 1, 2
	p := &mechanics.Process{Horizon: rolls + 1, TimeUnit: "roll", Homogeneous: true}
	start := p.Add(false, "air cut off")
	rec := mechanics.NewRecord(mechanics.Enum("status", "without air, the time is up, or the k-th injury has come", statuses...),
		mechanics.Int("injuries", 0, maxInj, "injuries so far"), mechanics.Int("rolls", 0, rolls, "health rolls made"),
		mechanics.Int("buffer", bLo, bHi, "the buffer rounds drawn"))
	sS, sI, sJ, sB := rec.Slot("status"), rec.Slot("injuries"), rec.Slot("rolls"), rec.Slot("buffer")
	chain := addMixed(p, rec, func(code int) bool { return sS.Get(code) != going })
	p.Start = start
	at := func(status, b, j, inj int) int {
		return chain.state(sB.Set(sJ.Set(sI.Set(sS.Set(rec.Start(), status), inj), j), b))
	}
	kRec := mechanics.NewRecord(mechanics.Int("buffer", bLo, bHi, "the buffer drawn (read on the first step)"), kit.Natural("natural", 20))
	kB, kN := kRec.Slot("buffer"), kRec.Slot("natural")
	kernel := kit.Roll(kRec, part{Field: "buffer", Node: r.buffer}, part{Field: "natural", Node: d20})
	p.Kernel = func(int) mechanics.Node { return kernel }
	p.Move = func(_, s, x int) int {
		var b, j, inj int
		if s == start {
			b = kB.Get(x)
		} else {
			code, ok := chain.code(s)
			if !ok || sS.Get(code) != going {
				bug("suffocation: a step from state %d", s)
			}
			b, j, inj = sB.Get(code), sJ.Get(code), sI.Get(code)
		}
		if !r.happens(b, j) {
			return at(done, b, j, inj)
		}
		if !roll("", r.target(j, inj), r.nat).Holds(kN.Get(x)) {
			inj++
		}
		if stop > 0 && inj >= stop {
			return at(reached, b, j+1, inj)
		}
		return at(going, b, j+1, inj)
	}
	table := func(f func(b, j, inj int) int) expr.Expr {
		return p.StateTable(func(s int) int {
			if code, ok := chain.code(s); ok {
				return f(sB.Get(code), sJ.Get(code), sI.Get(code))
			}
			return 0
		})
	}
	return suffChain{spec: &mechanics.Spec{Process: p, Record: p.Record()}, table: table,
		reached: p.StateSet(func(s int) bool { code, ok := chain.code(s); return ok && sS.Get(code) == reached })}
}
