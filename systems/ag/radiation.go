package ag

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// radiationMechanics are the mechanics declared in radiation.go.
func radiationMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{radiation()}
}

// radiation bands: dose threshold (dGy), TN, illness penalty (0 = none; −1
// marks the lethal ≥ 300 band).
var radBands = []struct{ dose, tn, penalty int }{{7, 6, 0}, {10, 8, 1}, {20, 12, 2}, {60, 14, 3}, {80, 16, 4}, {300, 18, -1}}

// shedEvery is the body's purge period: 1 dGy every two weeks.
const shedEvery = 14

// Numbers of a day's Body test: the MoS at or below which a failure is
// fatal, the cap on the immediate action penalty, and the treatment bonus.
const (
	radFatalMoS       = -10
	radImmediateCap   = 4
	radTreatmentBonus = 2
)

// radBandTable writes the bands as the doc gives them: the TN by total
// ("≥7 → 6, ≥10 → 8, …") and the illness by band ("≥10 −1, …; ≥300 death").
func radBandTable() (tns, illness string) {
	var t, ill []string
	for _, b := range radBands {
		t = append(t, fmt.Sprintf("≥%d → %d", b.dose, b.tn))
		switch {
		case b.penalty > 0:
			ill = append(ill, fmt.Sprintf("≥%d %s", b.dose, kit.Num(-b.penalty)))
		case b.penalty < 0:
			ill[len(ill)-1] += fmt.Sprintf("; ≥%d death", b.dose)
		}
	}
	return strings.Join(t, ", "), strings.Join(ill, ", ")
}

// dosePath is the deterministic dose X_t (dGy) for days 0..days, exact:
// each day adds its incoming dose (the acute dose on day 1, the daily
// dose on the exposure days) divided by the RSF. The body sheds 1 dGy
// every two weeks, never below a tenth of the highest total reached: at
// the start of days 15, 29, … (when another 14 days have passed), before
// that day's dose, X drops by 1 to at least peak/10.
//
// The path is kept in big rationals: a dose typed with many decimals,
// divided by an RSF with many decimals and summed over years of days, does
// not fit int64 fractions.
func dosePath(acute, daily expr.Rat, exposureDays int, rsf expr.Rat, days int) []*big.Rat {
	br := func(r expr.Rat) *big.Rat { return big.NewRat(r.N, max(r.D, 1)) }
	if rsf.N == 0 {
		panic("ag.radiation: RSF 0")
	}
	acuteIn := new(big.Rat).Quo(br(acute), br(rsf))
	dailyIn := new(big.Rat).Quo(br(daily), br(rsf))
	one, tenth := big.NewRat(1, 1), big.NewRat(1, 10)
	x := make([]*big.Rat, days+1)
	x[0] = new(big.Rat)
	peak := new(big.Rat)
	for t := 1; t <= days; t++ {
		v := new(big.Rat).Set(x[t-1])
		if t > 1 && (t-1)%shedEvery == 0 {
			v.Sub(v, one)
			if floor := new(big.Rat).Mul(peak, tenth); v.Cmp(floor) < 0 {
				v = floor
			}
		}
		if t == 1 {
			v.Add(v, acuteIn)
		}
		if t <= exposureDays {
			v.Add(v, dailyIn)
		}
		if v.Cmp(peak) > 0 {
			peak.Set(v)
		}
		x[t] = v
	}
	return x
}

// bandOf is the radiation band of a total (−1 below 7, or at 7 with
// above_7).
func bandOf(x *big.Rat, above7 bool) int {
	b := -1
	for i, r := range radBands {
		if x.Cmp(big.NewRat(int64(r.dose), 1)) >= 0 {
			b = i
		}
	}
	if b == 0 && above7 && x.Cmp(big.NewRat(7, 1)) <= 0 {
		return -1
	}
	return b
}

// Options of ag.radiation.
var (
	optRadTrigger = mechanics.SwitchOf("ag.radiation", "trigger",
		"daily_if_increased: a test every day the dose rose; band_crossing_only: only when it enters a higher band",
		radDailyIfIncreased, radBandCrossing)
	optRadThreshold = mechanics.SwitchOf("ag.radiation", "threshold", "at_least_7 or above_7", radAtLeast7, radAbove7)
	optRadIllness   = mechanics.SwitchOf("ag.radiation", "illness_stack",
		"worst_only: the worst illness counts; accumulate_penalties: penalties of failed bands add", radWorstOnly, radAccumulate)
	optRadTreatment = mechanics.SwitchOf("ag.radiation", "treatment",
		fmt.Sprintf("bonus_on_test: %[1]s on every test; bonus_on_later_tests: %[1]s from the second test on", kit.Signed(radTreatmentBonus)), radBonusOnTest, radBonusOnLater)
	optRadOnset = mechanics.SwitchOf("ag.radiation", "penalty_onset",
		"test_result_hours: the immediate penalty starts after as many hours as the Body test total; immediate",
		radOnsetTestHours, radOnsetImmediate)
	optRadTie = mechanics.SwitchOf("ag.radiation", "tie", "failure: MoS 0 fails", zeroMoSFails)
)

// Results of a day of radiation (the kernel's "result" field).
const (
	radNoTest = iota
	radPassed
	radFailed
	radFatal
)

// maxOnsetH caps the recorded onset hours of the immediate penalty.
const maxOnsetH = 62

// radDay is the outcome of one day: whether a test was made and how it
// went; for a failure, the band's illness, the immediate penalty min(−MoS,
// 4) and the hours until it starts.
var (
	radDay = mechanics.NewRecord(
		mechanics.Enum("result", "the day's Body test", "no_test", "passed", "failed", "fatal"),
		mechanics.Int("illness", 0, 4, "the band's illness penalty (a failed test)"),
		mechanics.Int("immediate", 0, radImmediateCap, fmt.Sprintf("the immediate action penalty min(−MoS, %d) (MoS ≤ −1)", radImmediateCap)),
		mechanics.Int("onset_h", 0, maxOnsetH, "hours until the immediate penalty starts"),
	)
	radDayResult    = radDay.Slot("result")
	radDayIllness   = radDay.Slot("illness")
	radDayImmediate = radDay.Slot("immediate")
	radDayOnset     = radDay.Slot("onset_h")
)

func radiation() *mechanics.Mechanic {
	const id = "ag.radiation"
	radTNs, radIllness := radBandTable()
	return &mechanics.Mechanic{
		ID:      id,
		Summary: fmt.Sprintf("radiation: a deterministic dose path with Body tests on days the dose rises (TN %d…%d by band)", radBands[0].tn, radBands[len(radBands)-1].tn),
		Doc: fmt.Sprintf("Dose accumulates in dGy (incoming dose ÷ RSF: unprotected 1, vehicle 1.5, house 15, public shelter 40) and is shed at 1 dGy "+
			"every %d days (at the start of days %d, %d, …), never below a tenth of the peak. At most once a day, when the total has risen and is at least %d, the character "+
			"makes a Body test, TN by the total: %s. Failure brings the band's "+
			"illness (%s); MoS ≤ %s or a fumble is fatal too. Tests are independent given "+
			"the path: a time-inhomogeneous chain, computed by a forward DP over the days. A failed test (MoS ≤ −1) also brings an immediate action penalty equal to the MoS "+
			"(capped at %s), starting after as many hours as the test total by default, easing by 1 every 12 h.",
			shedEvery, 1+shedEvery, 1+2*shedEvery, radBands[0].dose, radTNs, radIllness, kit.Num(radFatalMoS), kit.Num(-radImmediateCap)),
		Params: []mechanics.Param{
			{Name: "acute_dose", Default: 25, Min: 0, Max: 100000, Real: true, Doc: "dose on day 1, dGy before shielding (kiloton air burst at 1 km: 10; megaton at 2/10/25 km: 600/50/10)"},
			{Name: "daily_dose", Default: 0, Min: 0, Max: 100000, Real: true, Doc: "dose per day of exposure, dGy (fallout ≈ 30/12/3/1 per hour at 1 h/2 h/6 h/1 day)"},
			ip("exposure_days", 0, 0, 3650, "days of the daily dose"),
			{Name: "rsf", Default: 1, Min: 1, Max: 10000, Real: true, Doc: "radiation shielding factor: unprotected 1, vehicle 1.5, house 15, public shelter 40"},
			named(pAttr, "body", "Body"), pModifier, ip("treatment", 0, 0, 1, "1: treatment in a modern facility (+2)"), ip("days", 60, 1, 3650, "horizon in days"),
		},
		Options: mechanics.Options(optCritCount, optFumbleCrit, optRadTrigger, optRadThreshold, optRadIllness, optRadTreatment, optRadOnset, optRadTie),
		Build:   buildRadiation,
	}
}

// radRules are the decoded rules of one radiation model: the dose path
// over the days, the options and the Body test's attribute and modifier.
type radRules struct {
	o          CoreOptions
	days       int
	dose       []*big.Rat // X_t for t = 0..days
	above7     bool       // opt.threshold=above_7
	crossing   bool       // opt.trigger=band_crossing_only
	accumulate bool       // opt.illness_stack=accumulate_penalties
	laterOnly  bool       // opt.treatment=bonus_on_later_tests
	immediate  bool       // opt.penalty_onset=immediate
	treated    bool
	body, mod  int
}

func radRulesOf(c mechanics.Config) radRules {
	_ = optRadTie.Of(c) // MoS 0 fails: a test passes at MoS ≥ 1 (radRules.dayTest)
	days := c.Int("days")
	return radRules{
		o:          coreOptionsOf(c),
		days:       days,
		dose:       dosePath(c.Rat("acute_dose"), c.Rat("daily_dose"), c.Int("exposure_days"), c.Rat("rsf"), days),
		above7:     optRadThreshold.Of(c) == radAbove7,
		crossing:   optRadTrigger.Of(c) == radBandCrossing,
		accumulate: optRadIllness.Of(c) == radAccumulate,
		laterOnly:  optRadTreatment.Of(c) == radBonusOnLater,
		immediate:  optRadOnset.Of(c) == radOnsetImmediate,
		treated:    c.Int("treatment") == 1,
		body:       c.Int("body"),
		mod:        c.Int("modifier"),
	}
}

// radSchedule is when the Body tests fall: for each day the band tested
// (−1: no test) and the treatment bonus, and the largest illness penalty
// the tests can bring.
type radSchedule struct {
	band, bonus []int
	maxPen      int
}

// schedule finds the test days of the dose path: a day the total rose and
// is in a band (with band_crossing_only, a higher band than any before).
func (r radRules) schedule() radSchedule {
	x := r.dose
	s := radSchedule{band: make([]int, r.days+1), bonus: make([]int, r.days+1)}
	highest, tests := -1, 0
	for t := 1; t <= r.days; t++ {
		s.band[t] = -1
		b := bandOf(x[t], r.above7)
		if b < 0 || x[t].Cmp(x[t-1]) <= 0 || (r.crossing && b <= highest) {
			continue
		}
		s.band[t] = b
		highest = max(highest, b)
		if r.treated && (!r.laterOnly || tests > 0) {
			s.bonus[t] = radTreatmentBonus
		}
		tests++
		if pen := radBands[b].penalty; r.accumulate {
			s.maxPen += max(pen, 0)
		} else {
			s.maxPen = max(s.maxPen, pen)
		}
	}
	return s
}

// dayTest is a day's Body test in band b with the treatment bonus, as a
// radDay record: passed, fatal (a fumble, MoS ≤ −10, or any failure in the
// lethal band), or failed with the band's illness and, for MoS ≤ −1, the
// immediate penalty and its onset.
func (r radRules) dayTest(roll mechanics.Node, b, bonus int) mechanics.Node {
	band, mod := radBands[b], r.mod+bonus
	noTest := radDay.Start()
	return mechanics.Map{X: roll, Name: "Body test", F: func(x int) int {
		T := rollTotal(x, r.body, mod)
		mos := T - band.tn
		switch {
		case rollFumble(x) || mos <= radFatalMoS || (mos <= 0 && band.penalty < 0):
			return radDayResult.Set(noTest, radFatal)
		case mos >= 1:
			return radDayResult.Set(noTest, radPassed)
		}
		code := radDayIllness.Set(radDayResult.Set(noTest, radFailed), band.penalty)
		if mos <= -1 {
			onset := min(T, maxOnsetH)
			if r.immediate {
				onset = 0
			}
			code = radDayOnset.Set(radDayImmediate.Set(code, min(-mos, radImmediateCap)), onset)
		}
		return code
	}}
}

// radState is a living character's state: the illness penalty so far,
// the onset hours of the first immediate penalty (−1: none yet) and the
// worst immediate penalty.
type radState struct {
	rec                       *mechanics.Record
	illness, onset, immediate mechanics.Slot
}

func newRadState(maxPen int) radState {
	rec := mechanics.NewRecord(
		mechanics.Int("illness", 0, maxPen, "the illness penalty (as a positive number)"),
		mechanics.Int("onset", -1, maxOnsetH, "hours from the first failed test to its penalty (−1: none)"),
		mechanics.Int("immediate", 0, radImmediateCap, "the worst immediate action penalty (as a positive number)"),
	)
	return radState{rec, rec.Slot("illness"), rec.Slot("onset"), rec.Slot("immediate")}
}

func buildRadiation(c mechanics.Config) (*mechanics.Spec, error) {
	r := radRulesOf(c)
	sch := r.schedule()
	st := newRadState(sch.maxPen)
	p := &mechanics.Process{Horizon: r.days, TimeUnit: "day"}
	base := p.AddRecord(false, st.rec)
	fatal := p.Add(true, "fatal")
	p.Start = base + st.onset.Set(st.rec.Start(), -1) // illness 0, no onset yet, immediate 0

	// Kernel: the day's test, one per (band, bonus); a day without a test
	// is the constant no_test.
	roll := Pool(2, r.o)
	noTest := radDay.Start()
	p.Kernel = func(t int) mechanics.Node {
		if sch.band[t] < 0 {
			return mechanics.Const{V: noTest}
		}
		return r.dayTest(roll, sch.band[t], sch.bonus[t])
	}
	// Days with the same band and bonus share a kernel; days without a
	// test share the constant one (key 0).
	keys := make([]int, r.days+1)
	for t := 1; t <= r.days; t++ {
		keys[t] = 1 + sch.band[t] + len(radBands)*sch.bonus[t]/2
	}
	p.KernelKey = func(t int) int { return keys[t] }
	passed, died := radDayResult.Set(noTest, radPassed), radDayResult.Set(noTest, radFatal)
	p.Move = func(_, s, x int) int {
		switch x {
		case noTest, passed:
			return s
		case died:
			return fatal
		}
		code := s - base
		pen, ill := st.illness.Get(code), radDayIllness.Get(x)
		if r.accumulate {
			pen += ill
		} else {
			pen = max(pen, ill)
		}
		imm := radDayImmediate.Get(x)
		if imm > 0 && st.onset.Get(code) < 0 {
			code = st.onset.Set(code, radDayOnset.Get(x))
		}
		code = st.immediate.Set(st.illness.Set(code, pen), max(st.immediate.Get(code), imm))
		return base + code
	}
	return radiationSpec(p, st, base, fatal), nil
}

// radiationSpec reports the chain p: the penalties at the end, the onset
// of the first immediate penalty, and whether any illness came.
func radiationSpec(p *mechanics.Process, st radState, base, fatal int) *mechanics.Spec {
	spec := mechanics.ProcessSpec(p)
	spec.Bands = nil // thousands of states: the variables below summarise them
	field := func(sl mechanics.Slot, sign, dead int) expr.Expr {
		return p.StateTable(func(s int) int {
			if s == fatal {
				return dead
			}
			return sign * sl.Get(s-base)
		})
	}
	spec.Vars = append(spec.Vars,
		mechanics.Var{Name: "penalty", Doc: "illness penalty at the end (fatal counts as none)", Expr: field(st.illness, -1, 0)},
		mechanics.Var{Name: "immediate_penalty", Doc: "worst immediate action penalty", Expr: field(st.immediate, -1, 0)},
		mechanics.Var{Name: "first_onset_h", Doc: "hours from the first failed test to its penalty (−1: none)", Unit: "h", Expr: field(st.onset, 1, -1)})
	dead := p.In(fatal)
	spec.Event("any_illness", "a failed test that brings an illness, or a fatal one", expr.Or(dead, expr.Gt(field(st.illness, 1, 0), expr.K(0)))).
		Event("immediate_penalty", "a failed test (MoS ≤ −1)", expr.Or(dead, expr.Gt(field(st.immediate, 1, 0), expr.K(0))))
	return spec
}
