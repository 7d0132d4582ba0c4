package ag

import (
	"fmt"
	"math"

	"github.com/oddsmith/oddsmith/mechanics"
)

func init() { register(radiation()) }

// radiation bands: dose threshold (dGy), TN, illness penalty (0 = none; −1
// marks the lethal ≥ 300 band).
var radBands = []struct{ dose, tn, penalty int }{{7, 6, 0}, {10, 8, 1}, {20, 12, 2}, {60, 14, 3}, {80, 16, 4}, {300, 18, -1}}

// DosePath is the deterministic dose X_t (dGy) for days 1..days: daily
// accrual divided by the RSF, shedding 1 dGy per 14 days (1/14 a day) but
// never below a tenth of the peak.
func DosePath(acute, daily float64, exposureDays int, rsf float64, days int) []float64 {
	x := make([]float64, days+1)
	peak := 0.0
	for t := 1; t <= days; t++ {
		in := 0.0
		if t == 1 {
			in += acute
		}
		if t <= exposureDays {
			in += daily
		}
		v := x[t-1] + in/rsf
		peak = math.Max(peak, v)
		if in == 0 {
			v = math.Max(v-1.0/14, 0.1*peak)
		}
		x[t] = v
	}
	return x
}

func bandOf(x float64, above7 bool) int {
	b := -1
	for i, r := range radBands {
		if x >= float64(r.dose)-1e-12 {
			b = i
		}
	}
	if b == 0 && above7 && x <= 7+1e-12 {
		return -1
	}
	return b
}

func radiation() *mechanics.Mechanic {
	const id = "ag.radiation"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "radiation: a deterministic dose path with Body tests on days the dose rises (TN 6…18 by band)",
		Doc: "Dose accumulates in dGy (incoming dose ÷ RSF: unprotected 1, vehicle 1.5, house 15, public shelter 40) and is shed at 1 dGy " +
			"per 2 weeks, never below a tenth of the peak. At most once a day, when the total has risen and is at least 7, the character " +
			"makes a Body test, TN by the total: ≥7 → 6, ≥10 → 8, ≥20 → 12, ≥60 → 14, ≥80 → 16, ≥300 → 18. Failure brings the band's " +
			"illness (≥10 −1, ≥20 −2, ≥60 −3, ≥80 −4; ≥300 death); MoS ≤ −10 or a fumble is fatal too. Tests are independent given " +
			"the path: a forward DP over the days (K7). A failed test (MoS ≤ −1) also brings an immediate action penalty equal to the MoS " +
			"(capped at −4), starting after as many hours as the test total by default, easing by 1 every 12 h (mechanics.md §1.6).",
		Params: []mechanics.Param{
			{Name: "acute_dose", Default: 25, Min: 0, Max: 100000, Real: true, Doc: "dose on day 1, dGy before shielding (kiloton air burst at 1 km: 10; megaton at 2/10/25 km: 600/50/10)"},
			{Name: "daily_dose", Default: 0, Min: 0, Max: 100000, Real: true, Doc: "dose per day of exposure, dGy (fallout ≈ 30/12/3/1 per hour at 1 h/2 h/6 h/1 day)"},
			ip("exposure_days", 0, 0, 3650, "days of the daily dose"),
			{Name: "rsf", Default: 1, Min: 1, Max: 10000, Real: true, Doc: "radiation shielding factor: unprotected 1, vehicle 1.5, house 15, public shelter 40"},
			named(pAttr, "body", "Body"), pModifier, ip("treatment", 0, 0, 1, "1: treatment in a modern facility (+2)"), ip("days", 60, 1, 3650, "horizon in days"),
		},
		Options: []mechanics.Option{optCritCount.Option, optFumbleCrit.Option,
			opt(id, "trigger", "daily_if_increased: a test every day the dose rose; band_crossing_only: only when it enters a higher band", "daily_if_increased", "band_crossing_only"),
			opt(id, "threshold", "at_least_7 or above_7", "at_least_7", "above_7"),
			opt(id, "illness_stack", "worst_only: the worst illness counts; accumulate_penalties: penalties of failed bands add", "worst_only", "accumulate_penalties"),
			opt(id, "treatment", "bonus_on_test: +2 on every test; bonus_on_later_tests: +2 from the second test on", "bonus_on_test", "bonus_on_later_tests"),
			opt(id, "penalty_onset", "test_result_hours: the immediate penalty starts after as many hours as the Body test total; immediate", "test_result_hours", "immediate"),
			opt(id, "tie", "failure: MoS 0 fails", "failure")},
		Outputs: []string{"distributions: time (day of a fatal test; days+1 = alive), penalty (illness penalty at the end), immediate_penalty (worst immediate action penalty), first_onset_h (hours after the first failed test until its penalty starts; −1 none)",
			"events: absorbed:fatal, any_illness, immediate_penalty, not_absorbed", "bands: final_state"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			H := c.Int("days")
			x := DosePath(c.Float("acute_dose"), c.Float("daily_dose"), c.Int("exposure_days"), c.Float("rsf"), H)
			above7 := c.Opt("threshold") == "above_7"
			crossing := c.Opt("trigger") == "band_crossing_only"
			accumulate := c.Opt("illness_stack") == "accumulate_penalties"
			body, m := c.Int("body"), c.Int("modifier")
			// Test days and their bands.
			testBand := make([]int, H+1)
			highest, tests := -1, 0
			bonus := make([]int, H+1)
			for t := 1; t <= H; t++ {
				testBand[t] = -1
				b := bandOf(x[t], above7)
				if b < 0 || x[t] <= x[t-1] || (crossing && b <= highest) {
					continue
				}
				testBand[t] = b
				highest = max(highest, b)
				if c.Int("treatment") == 1 && (c.Opt("treatment") == "bonus_on_test" || tests > 0) {
					bonus[t] = 2
				}
				tests++
			}
			maxPen := 4
			if accumulate {
				maxPen = 4 * tests
			}
			// State: illness penalty, onset hours of the first immediate penalty
			// (−1 = none yet) and the worst immediate penalty (0..4).
			immediate := c.Opt("penalty_onset") == "immediate"
			const onsets, imms = 64, 5
			enc := func(pen, onset, imm int) int { return (pen*onsets+onset+1)*imms + imm }
			p := &mechanics.Process{Horizon: H, TimeUnit: "day"}
			for pen := 0; pen <= maxPen; pen++ {
				for on := -1; on < onsets-1; on++ {
					for im := 0; im < imms; im++ {
						p.Add(false, fmt.Sprintf("illness -%d, immediate -%d from hour %d", pen, im, on))
					}
				}
			}
			fatal := p.Add(true, "fatal")
			p.Start = enc(0, -1, 0)
			roll := Pool(2, o)
			p.Step = func(t, s int) mechanics.Node {
				b := testBand[t]
				if b < 0 {
					return mechanics.Const{V: s}
				}
				tn, mod := radBands[b].tn, m+bonus[t]
				pen, onset, imm := s/imms/onsets, s/imms%onsets-1, s%imms
				return mechanics.Map{X: roll, Name: "body test", F: func(r int) int {
					T := Total(r, body, mod)
					mos := T - tn
					switch {
					case rollFumble(r) || mos <= -10:
						return fatal
					case mos >= 1:
						return s
					case radBands[b].penalty < 0:
						return fatal
					}
					np := max(pen, radBands[b].penalty)
					if accumulate {
						np = pen + radBands[b].penalty
					}
					no := onset
					if no < 0 && mos <= -1 {
						no = min(T, onsets-2)
						if immediate {
							no = 0
						}
					}
					return enc(np, no, max(imm, min(-mos, 4)))
				}}
			}
			spec := mechanics.ProcessSpec(p)
			part := func(x int) (pen, onset, imm int, dead bool) {
				_, s := p.SplitOutcome(x)
				if s == fatal {
					return 0, -1, 0, true
				}
				return s / imms / onsets, s/imms%onsets - 1, s % imms, false
			}
			spec.Bands = nil // thousands of states: the variables below summarise them
			spec.Vars = append(spec.Vars,
				mechanics.Var{Name: "penalty", Doc: "illness penalty at the end (fatal counts as none)", Of: func(x int) int { pen, _, _, _ := part(x); return -pen }},
				mechanics.Var{Name: "immediate_penalty", Doc: "worst immediate action penalty", Of: func(x int) int { _, _, im, _ := part(x); return -im }},
				mechanics.Var{Name: "first_onset_h", Doc: "hours from the first failed test to its penalty (−1: none)", Of: func(x int) int { _, on, _, _ := part(x); return on }})
			spec.Events = append(spec.Events,
				mechanics.Event{Name: "any_illness", Doc: "a failed test that brings an illness, or a fatal one", Of: func(x int) bool { pen, _, _, dead := part(x); return dead || pen > 0 }},
				mechanics.Event{Name: "immediate_penalty", Doc: "a failed test (MoS ≤ −1)", Of: func(x int) bool { _, _, im, dead := part(x); return dead || im > 0 }})
			return spec, nil
		},
	}
}
