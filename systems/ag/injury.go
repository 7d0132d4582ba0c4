package ag

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// Injury over time: suffocation, disease, stabilising, recovery.

// injuryMechanics are the mechanics declared in injury.go.
func injuryMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{suffocation(), disease(), stabilize(), recovery()}
}

// Options of ag.suffocation.
var (
	optSuffFirst = mechanics.SwitchOf("ag.suffocation", "first_test", fmt.Sprintf("90s: %[1]d s after the first minute; 150s: the text's two-minute limit, then every %[1]d s", breathStep),
		suffFirst90s, suffFirst150s)
	optSuffIndex = mechanics.SwitchOf("ag.suffocation", "penalty_index", "j_minus_1: the first test is unpenalised; j: it is at −1",
		suffJMinus1, suffJ)
	optSuffTie = mechanics.SwitchOf("ag.suffocation", "tie", "failure: MoS 0 is a blackout", zeroMoSFails)
)

// Numbers of holding breath: the TN of the Body tests and of the Psyche
// roll against panic, the seconds between tests, and the seconds before
// the first one (the first minute, then a step; opt.first_test=150s: the
// text's two-minute limit, then a step).
const (
	breathTN      = 2
	panicTN       = 3
	breathStep    = 30
	breathFirst   = 60 + breathStep
	breathFirst2m = 120 + breathStep
)

// breathRecord is the result of one step of holding breath: the Body test
// passed, and (first test only) the Psyche roll against panic failed.
var (
	breathRecord = mechanics.NewRecord(mechanics.Flag("passed", fmt.Sprintf("the Body test vs TN %d succeeded", breathTN)),
		mechanics.Flag("panicked", fmt.Sprintf("the Psyche roll vs TN %d failed", panicTN)))
	breathPassed   = breathRecord.Slot("passed")
	breathPanicked = breathRecord.Slot("panicked")
)

func suffocation() *mechanics.Mechanic {
	const id = "ag.suffocation"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: fmt.Sprintf("holding breath: a Body test vs TN %d every %d s after the first minute, −1 more each time; the first failure is the blackout", breathTN, breathStep),
		Doc: fmt.Sprintf("After the first minute, every %[2]d s the character makes a Body test vs TN %[1]d with an extra −1 each time; strenuous activity halves "+
			"all times. Test j (at %[3]d + %[2]d·j s by default) has modifier −(j − 1); the first failure (MoS ≤ 0) is the blackout. A "+
			"time-inhomogeneous chain (a forward DP over the tests). Running out of air (at the first test) also forces a Psyche roll at TN %[4]d; a failure means panic. "+
			"What happens after the blackout is not stated.", breathTN, breathStep, breathFirst-breathStep, panicTN),
		Params: []mechanics.Param{named(pAttr, "body", "Body"), pModifier, ip("psyche", 2, 0, 20, fmt.Sprintf("Psyche, for the panic roll at TN %d", panicTN)),
			ip("strenuous", 0, 0, 1, "1: strenuous activity halves all times"),
			ip("horizon", 30, 1, 500, "tests simulated at most")},
		Options: mechanics.Options(optCritCount, optFumbleCrit, optSuffFirst, optSuffIndex, optSuffTie),
		Build:   buildSuffocation,
	}
}

func buildSuffocation(c mechanics.Config) (*mechanics.Spec, error) {
	o := coreOptionsOf(c)
	body, m, psyche := c.Int("body"), c.Int("modifier"), c.Int("psyche")
	shift := 1
	if optSuffIndex.Of(c) == suffJ {
		shift = 0
	}
	first := breathFirst
	if optSuffFirst.Of(c) == suffFirst150s {
		first = breathFirst2m
	}
	_ = optSuffTie.Of(c) // MoS 0 fails: the test passes at MoS ≥ 1 below
	strenuous := c.Int("strenuous") == 1

	p := &mechanics.Process{Horizon: c.Int("horizon"), TimeUnit: "test"}
	conscious := p.Add(false, "conscious", "conscious, panicked")
	blackout := p.Add(true, "blackout", "blackout, panicked")
	// state[blacked out][panicked], and whether a state is panicked.
	state := [2][2]int{{conscious, conscious + 1}, {blackout, blackout + 1}}
	panicked := []bool{false, true, false, true}

	roll := Pool(2, o)
	start := breathRecord.Start()
	p.Kernel = func(t int) mechanics.Node {
		mod := m - (t - shift)
		pass := mechanics.Map{X: roll, Name: "Body test", F: func(r int) int {
			return breathPassed.SetBool(start, rollTotal(r, body, mod)-breathTN >= 1)
		}}
		if t > 1 {
			return pass
		}
		// The first test is when the air runs out: the panic roll too.
		return mechanics.Combine{X: pass, Y: roll, Name: "panic roll", F: func(x, r int) int {
			return breathPanicked.SetBool(x, rollTotal(r, psyche, m)-panicTN <= 0)
		}}
	}
	// move[s][x]: the state after a step with result x from state s.
	var move [2][4]int
	for s := range move {
		for x := range breathRecord.Size() {
			move[s][x] = state[1-bit(breathPassed.Bool(x))][bit(panicked[s] || breathPanicked.Bool(x))]
		}
	}
	p.Move = func(_, s, x int) int { return move[s][x] }
	spec := mechanics.ProcessSpec(p)
	notAbsorbed := spec.Events[len(spec.Events)-1]
	secs := expr.Add(expr.K(int64(first)), expr.Mul(expr.K(breathStep), expr.Sub(expr.F("time"), expr.K(1))))
	if strenuous {
		secs = expr.Floor(expr.Div(secs, expr.K(2)))
	}
	spec.Events = nil
	spec.Event("blackout", "the character blacked out within the horizon", p.StateSet(func(s int) bool { return p.Absorbing[s] })).
		Event("panic", fmt.Sprintf("the Psyche roll at TN %d failed", panicTN), p.StateSet(func(s int) bool { return panicked[s] }))
	spec.Events = append(spec.Events, notAbsorbed)
	bs := p.TimeVar("blackout_s", "seconds until the blackout (halved when strenuous)", secs)
	bs.Unit = "s"
	spec.Vars = append(spec.Vars, bs)
	return spec, nil
}

// Options of ag.disease.
var (
	optDiseaseIncap = mechanics.SwitchOf("ag.disease", "incap_days",
		"abs_mos_plus_6: |MoS| + 6 days; signed_mos_plus_6: max(0, MoS + 6) (the literal formula); minus_mos_minus_4: −(MoS + 4)",
		incapAbsPlus6, incapSignedPlus6, incapMinusMinus4)
	optDiseaseSuccess = mechanics.SwitchOf("ag.disease", "success_effect",
		"table_applies: MoS 0…3 still gives mild symptoms; success_immune: MoS ≥ 1 means not contracted",
		diseaseTableApplies, diseaseImmune)
	optDiseaseOnset = mechanics.SwitchOf("ag.disease", "onset_divisor", "abs_mos_min_1: onset / max(1, |MoS|)", onsetAbsMoSMin1)
	optDiseaseFever = mechanics.SwitchOf("ag.disease", "fever_day_count",
		fmt.Sprintf("7_rolls or 6_rolls: the number of daily death rolls during the fever week (the fever lasts %d days either way)", feverDays),
		fever7Rolls, fever6Rolls)
)

// feverDays is the length of the fever after a fumbled disease test: a
// week, whatever the number of death rolls in it.
const feverDays = 7

func disease() *mechanics.Mechanic {
	const id = "ag.disease"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: fmt.Sprintf("contracting a disease: a Body test vs virulence sets onset, days ill, penalties; a fumble is %d days of deadly fever", feverDays),
		Doc: "On exposure the character makes a Body test vs the virulence. MoS ≥ 0: a mild cold for max(0, 4 − MoS) days; −4…−1: a penalty " +
			"equal to the MoS improving by 1 a day (|MoS| days, |MoS|(|MoS|+1)/2 penalty-days); ≤ −5: incapacitated |MoS| + 6 days, then " +
			"the −4 row; a fumble: " + fmt.Sprint(feverDays) + " days of fever, dying on a daily d6 roll of 1 (with medical aid) or 1–2 (without), survivors then take " +
			"the MoS −8 row. Onset = listed onset / max(1, |MoS|), a tenth on a fumble. The fumble gives a fixed lethality floor of about " +
			"2% per exposure whatever the Body.",
		Params: []mechanics.Param{ip("virulence", 9, 1, 30, "virulence V (the TN; sweep 1–14)"), ip("onset_days", 7, 1, 365, "listed onset O in days"),
			named(pAttr, "body", "Body"), named(pModifier, "modifier", "modifiers: Bolster +2, wound penalties"), ip("aid", 1, 0, 1, "1: medical aid during a fever")},
		Options: mechanics.Options(optCritCount, optFumbleCrit, optDiseaseIncap, optDiseaseSuccess, optDiseaseOnset, optDiseaseFever),
		Build:   buildDisease,
	}
}

// diseaseCourse is what one row of the disease table gives.
type diseaseCourse struct{ days, pen, inc int }

// diseaseRules are the decoded rules of one disease model.
type diseaseRules struct {
	virulence, body, mod int
	incap                diseaseIncap
	immune               bool // opt.success_effect=success_immune
	rolls                int  // the fever's daily death rolls
	onsetH               int  // the listed onset in hours
	aid                  bool
}

func diseaseRulesOf(c mechanics.Config) diseaseRules {
	_ = optDiseaseOnset.Of(c) // the one reading: onset / max(1, |MoS|)
	rolls := feverDays        // a death roll each day of the fever (7_rolls)
	if optDiseaseFever.Of(c) == fever6Rolls {
		rolls = feverDays - 1
	}
	return diseaseRules{
		virulence: c.Int("virulence"), body: c.Int("body"), mod: c.Int("modifier"),
		incap: optDiseaseIncap.Of(c), immune: optDiseaseSuccess.Of(c) == diseaseImmune,
		rolls: rolls, onsetH: c.Int("onset_days") * 24, aid: c.Int("aid") == 1,
	}
}

// row is the disease table's row for a MoS: a mild cold for MoS ≥ 0, a
// penalty easing by 1 a day for −4…−1, incapacitation then the −4 row
// below that (the incapacitation per opt.incap_days).
func (r diseaseRules) row(mos int) diseaseCourse {
	switch {
	case mos >= 0:
		return diseaseCourse{days: max(0, 4-mos)}
	case mos >= -4:
		return diseaseCourse{days: -mos, pen: (-mos) * (-mos + 1) / 2}
	}
	inc := -mos + 6
	switch r.incap {
	case incapSignedPlus6:
		inc = max(0, mos+6)
	case incapMinusMinus4:
		inc = -(mos + 4)
	}
	return diseaseCourse{days: inc + 4, pen: 10, inc: inc}
}

// got is whether a test with this MoS contracts the disease.
func (r diseaseRules) got(mos int) bool { return !(r.immune && mos >= 1) }

// feverDie is the day of death during the fever (1..rolls) or rolls+1 =
// survived: P(day d) = q(1−q)^(d−1), q = 1/6 with aid, 1/3 without.
func (r diseaseRules) feverDie() mechanics.Die {
	num, den := int64(1), int64(6)
	if !r.aid {
		num, den = 1, 3
	}
	pow := func(b int64, e int) int64 {
		p := int64(1)
		for range e {
			p *= b
		}
		return p
	}
	var fever mechanics.Die
	for d := 1; d <= r.rolls; d++ {
		fever.Faces, fever.Weights = append(fever.Faces, d), append(fever.Weights, num*pow(den-num, d-1)*pow(den, r.rolls-d))
	}
	fever.Faces, fever.Weights = append(fever.Faces, r.rolls+1), append(fever.Weights, pow(den-num, r.rolls))
	return fever
}

// diseaseOutcome is the record of an exposure — the test's MoS in
// [lo, hi], the fumble and the fever's death day — and the node that rolls
// it.
func (r diseaseRules) diseaseOutcome(o CoreOptions, lo, hi int) (*mechanics.Record, mechanics.Node) {
	rec := mechanics.NewRecord(
		mechanics.Int("mos", lo, hi, "MoS of the Body test vs the virulence"),
		mechanics.Flag("fumble", "the Body test fumbled: a week of fever"),
		mechanics.Int("fever_day", 0, r.rolls+1, "day of death during the fever, rolls+1 = survived it; 0 without a fever"),
	)
	sMoS, sFumble, sDay := rec.Slot("mos"), rec.Slot("fumble"), rec.Slot("fever_day")
	// The record of each (roll, fever day), tabulated: the simulator calls
	// the combination once per trial.
	days := r.rolls + 2
	codes := make([]int, rollRecord.Size()*days)
	for x := range rollRecord.Size() {
		code := sMoS.Set(rec.Start(), min(max(rollTotal(x, r.body, r.mod)-r.virulence, lo), hi))
		for death := 1; death < days; death++ {
			codes[x*days+death] = code
			if rollFumble(x) {
				codes[x*days+death] = sDay.Set(sFumble.SetBool(code, true), death)
			}
		}
	}
	return rec, mechanics.Combine{X: Pool(2, o), Y: r.feverDie(), Name: "disease", F: func(x, death int) int { return codes[x*days+death] }}
}

func buildDisease(c mechanics.Config) (*mechanics.Spec, error) {
	r := diseaseRulesOf(c)
	// The record holds the test's MoS, the fumble and the fever's death
	// day; every reported quantity is a table over the MoS (computed here)
	// or the fever's course.
	lo, hi := -r.virulence, maxRoll+r.body+max(r.mod, 0)-r.virulence
	rec, out := r.diseaseOutcome(coreOptionsOf(c), lo, hi)
	// byMoS is a table over the MoS of a quantity of a contracted disease
	// (0 when not contracted).
	byMoS := func(f func(mos int) int) expr.Expr {
		t := make([]int64, hi-lo+1)
		for mos := lo; mos <= hi; mos++ {
			if r.got(mos) {
				t[mos-lo] = int64(f(mos))
			}
		}
		return expr.Table(expr.F("mos"), int64(lo), t...)
	}
	fum, day := expr.F("fumble"), expr.F("fever_day")
	died := expr.And(fum, expr.Le(day, expr.K(int64(r.rolls))))
	// A fever survivor has the fever week, then the MoS −8 row.
	after := r.row(-8)
	fever3 := func(dead expr.Expr, alive int) expr.Expr { return expr.Cond(died, dead, expr.K(int64(alive))) }
	daysIll := expr.Cond(fum, fever3(day, feverDays+after.days), byMoS(func(mos int) int { return r.row(mos).days }))
	pen := expr.Cond(fum, fever3(expr.K(0), after.pen), byMoS(func(mos int) int { return r.row(mos).pen }))
	inc := expr.Cond(fum, fever3(expr.K(0), after.inc), byMoS(func(mos int) int { return r.row(mos).inc }))
	onset := expr.Cond(fum, expr.K(int64(r.onsetH/10)), byMoS(func(mos int) int { return r.onsetH / max(1, abs(mos)) }))
	contracted := expr.Or(fum, byMoS(func(int) int { return 1 }))
	spec := &mechanics.Spec{Record: rec, Outcome: out}
	spec.Vars = []mechanics.Var{
		{Name: "days_ill", Doc: "days of illness (a fever death: its day)", Unit: "days", Expr: daysIll},
		{Name: "penalty_days", Doc: "Σ of the daily action penalty", Unit: "penalty-days", Expr: pen},
		{Name: "incapacitated_days", Doc: "days incapacitated", Unit: "days", Expr: inc},
		{Name: "onset_hours", Doc: "onset delay (hours, rounded down)", Unit: "h", Expr: onset},
	}
	spec.Event("died", "died of the fever", died).
		Event("incapacitated", "incapacitated for at least a day", expr.Gt(inc, expr.K(0))).
		Event("contracted", "the disease was contracted", contracted).
		Event("fever", "a fumble: a week of life-threatening fever", fum)
	return spec, nil
}

func abs(x int) int { return max(x, -x) }

// Options of ag.stabilize.
var (
	optStabBodySign = mechanics.SwitchOf("ag.stabilize", "body_sign", "plus_body: the patient's Body adds; minus_body: it subtracts",
		stabPlusBody, stabMinusBody)
	optStabNeeds = mechanics.SwitchOf("ag.stabilize", "bleed_out_needs",
		"one_success: one success saves a bleeding patient; all_wounds: every wound must be stabilised", stabOneSuccess, stabAllWounds)
	optStabDeadline = mechanics.SwitchOf("ag.stabilize", "deadline_attempts", "2: attempts ending at 5 and 10 minutes; 1",
		stabDeadline2, stabDeadline1)
)

// maxStabFumbles is the number of fumbles tracked by ag.stabilize.
const maxStabFumbles = 10

// stabilizeTN is the TN of the medic's Medicine + Logic roll.
const stabilizeTN = 1

func stabilize() *mechanics.Mechanic {
	const id = "ag.stabilize"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: fmt.Sprintf("stabilising wounds: 5-minute Medicine + Logic attempts at TN %d; bleeding out allows two", stabilizeTN),
		Doc: "Five minutes of work and a Medicine + Logic roll at TN " + fmt.Sprint(stabilizeTN) + ", adjusted by the patient's Body and the patient's wound and bruise " +
			"penalties. Success stabilises one wound, failure wastes the time, a fumble wastes it and adds a flesh wound (one more wound " +
			"to stabilise and −1 more). Bleeding out (deadline 10 minutes = two attempts) needs one success by default. Fumbles beyond " +
			fmt.Sprint(maxStabFumbles) + " are not tracked further.",
		Params: []mechanics.Param{named(pSkill, "skill", "medic's Medicine"), named(pAttr, "logic", "medic's Logic"), pModifier,
			ip("patient_body", 2, 0, 20, "patient's Body"), ip("patient_penalty", 1, 0, 20, "patient's current wound and bruise penalty (as a positive number)"),
			ip("wounds", 2, 1, 20, "unstabilised wounds U"), ip("bleeding_out", 0, 0, 1, "1: the patient is bleeding out (a deadline)"),
			ip("attempts", 24, 1, 500, "attempts simulated at most (5 minutes each)")},
		Options: mechanics.Options(optCritCount, optFumbleCrit, optUnskilledCrit, optTie, optStabBodySign, optStabNeeds, optStabDeadline),
		Build:   buildStabilize,
	}
}

// Results of one stabilising attempt.
const (
	attemptFails = iota
	attemptSucceeds
	attemptFumbles
)

func buildStabilize(c mechanics.Config) (*mechanics.Spec, error) {
	o := coreOptionsOf(c)
	U := c.Int("wounds")
	body := c.Int("patient_body")
	if optStabBodySign.Of(c) == stabMinusBody {
		body = -body
	}
	a, m0 := c.Int("logic"), c.Int("modifier")+body-c.Int("patient_penalty")
	bleeding := c.Int("bleeding_out") == 1
	deadline := 2
	if optStabDeadline.Of(c) == stabDeadline1 {
		deadline = 1
	}
	needAll := optStabNeeds.Of(c) == stabAllWounds
	skill := c.Int("skill")

	// States: wounds still open (a fumble opens one more) and fumbles so
	// far (each −1 on later attempts).
	W := U + maxStabFumbles + 1
	open := mechanics.NewRecord(mechanics.Int("open", 0, W-1, "unstabilised wounds"), mechanics.Int("fumbles", 0, maxStabFumbles, "fumbles so far (−1 each)"))
	sOpen, sFumbles := open.Slot("open"), open.Slot("fumbles")
	p := &mechanics.Process{Horizon: c.Int("attempts"), TimeUnit: "attempt", Homogeneous: !bleeding}
	base := p.AddRecord(false, open)
	stab := p.Add(true, "stabilised", "saved", "dead")
	saved, dead := stab+1, stab+2
	p.Start = base + sOpen.Set(open.Start(), U)

	// One kernel for every state: the medic's roll. What it does depends
	// on the state's fumbles (the penalty), tabulated per roll here.
	roll := Pool(skill, o)
	class := make([][]uint8, maxStabFumbles+1) // [fumbles][roll record] → attempt result
	for f := range class {
		class[f] = make([]uint8, rollRecord.Size())
		for r := range class[f] {
			switch {
			case rollFumble(r):
				class[f][r] = attemptFumbles
			case success(rollTotal(r, a, m0-f)-stabilizeTN, o.Tie):
				class[f][r] = attemptSucceeds
			}
		}
	}
	// next[late][state][result], late = the deadline has come.
	var next [2][][3]int
	for late := range next {
		next[late] = make([][3]int, open.Size())
		for code := range next[late] {
			f, u := sFumbles.Get(code), sOpen.Get(code)
			for res := range 3 {
				nf, nu := f, u
				switch res {
				case attemptFumbles:
					nf, nu = min(f+1, maxStabFumbles), min(u+1, W-1)
				case attemptSucceeds:
					nu = max(u-1, 0)
				}
				ns := base + sFumbles.Set(sOpen.Set(code, nu), nf)
				switch {
				case nu == 0:
					ns = stab
					if bleeding {
						ns = saved
					}
				case bleeding && !needAll && nu < u:
					ns = saved
				case bleeding && late == 1:
					ns = dead
				}
				next[late][code][res] = ns
			}
		}
	}
	// move[late][state·rolls + roll]: the state after an attempt.
	rolls := rollRecord.Size()
	var move [2][]int32
	for late := range move {
		move[late] = make([]int32, open.Size()*rolls)
		for code := range open.Size() {
			f := sFumbles.Get(code)
			for r := range rolls {
				move[late][code*rolls+r] = int32(next[late][code][class[f][r]])
			}
		}
	}
	p.Kernel = func(int) mechanics.Node { return roll }
	p.KernelKey = func(int) int { return 0 } // the same roll every attempt
	p.Move = func(t, s, r int) int {
		return int(move[bit(bleeding && t >= deadline)][(s-base)*rolls+r])
	}
	return mechanics.ProcessSpec(p), nil
}

var optRecoveryQueues = mechanics.SwitchOf("ag.recovery", "queues",
	"bruises_and_wounds_in_parallel: the two queues run at once; single_queue: one after the other", queuesParallel, queuesSingle)

func recovery() *mechanics.Mechanic {
	const id = "ag.recovery"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "healing time: bruises 1d6 hours / 1d6 days each, wounds 3 days–1 month each, one after another",
		Doc: "Injuries heal one after another, flesh ones first: flesh bruise 1d6 hours, deep bruise 1d6 days; aided wound: flesh 3 days, " +
			"deep 2 weeks; unaided: flesh 1 week, deep 1 month (30 days). After a resuscitation nothing heals for the first week. The " +
			"bruise queue is a sum of dice (a convolution); the wound queue is deterministic.",
		Params: []mechanics.Param{ip("flesh_bruises", 2, 0, 30, "flesh bruises"), ip("deep_bruises", 1, 0, 30, "deep bruises"),
			ip("flesh_wounds", 1, 0, 30, "flesh wounds"), ip("deep_wounds", 0, 0, 30, "deep wounds"), ip("aided", 1, 0, 1, "1: wounds are medically aided"),
			ip("resuscitated", 0, 0, 1, "1: after a resuscitation nothing heals for the first week")},
		Options: mechanics.Options(optRecoveryQueues),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			fb, db := c.Int("flesh_bruises"), c.Int("deep_bruises")
			fw, dw := 7*24, 30*24
			if c.Int("aided") == 1 {
				fw, dw = 3*24, 14*24
			}
			wounds := c.Int("flesh_wounds")*fw + c.Int("deep_wounds")*dw
			single := optRecoveryQueues.Of(c) == queuesSingle
			wait := 7 * 24 * c.Int("resuscitated")

			d6d := mechanics.Scale{X: mechanics.D(6), K: 24}
			bruises := mechanics.Sum{Terms: []mechanics.Node{mechanics.Repeat{X: mechanics.D(6), N: fb}, mechanics.Repeat{X: d6d, N: db}}}
			var total mechanics.Node = mechanics.Max{Terms: []mechanics.Node{bruises, mechanics.Const{V: wounds}}}
			if single {
				total = mechanics.Sum{Terms: []mechanics.Node{bruises, mechanics.Const{V: wounds}}}
			}
			if wait > 0 {
				total = mechanics.Sum{Terms: []mechanics.Node{total, mechanics.Const{V: wait}}}
			}
			rec := mechanics.NewRecord(mechanics.Int("hours", 0, 6*fb+6*24*db+wounds+wait, "hours until fully healed").In("h"))
			spec := &mechanics.Spec{Record: rec, Outcome: kit.Encode(rec, rec.Slot("hours"), total)}
			spec.Report("hours")
			spec.Vars = append(spec.Vars, mechanics.Var{Name: "days", Doc: "days until fully healed (rounded up)", Unit: "days",
				Expr: expr.Ceil(expr.Div(expr.F("hours"), expr.K(24)))})
			return spec, nil
		},
	}
}
