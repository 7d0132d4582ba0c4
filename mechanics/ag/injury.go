package ag

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
)

// §1.6–1.7 over time: suffocation, disease, stabilising, recovery.

func init() {
	register(suffocation(), disease(), stabilize(), recovery())
}

func suffocation() *mechanics.Mechanic {
	const id = "ag.suffocation"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "holding breath: a Body test vs TN 2 every 30 s after the first minute, −1 more each time; the first failure is the blackout",
		Doc: "After the first minute, every 30 s the character makes a Body test vs TN 2 with an extra −1 each time; strenuous activity halves " +
			"all times. Test j (at 60 + 30·j s by default) has modifier −(j − 1); the first failure (MoS ≤ 0) is the blackout. A " +
			"time-inhomogeneous chain (K7). Running out of air (at the first test) also forces a Psyche roll at TN 3; a failure means panic. " +
			"What happens after the blackout is not stated (mechanics.md §1.6).",
		Params: []mechanics.Param{named(pAttr, "body", "Body"), pModifier, ip("psyche", 2, 0, 20, "Psyche, for the panic roll at TN 3"),
			ip("strenuous", 0, 0, 1, "1: strenuous activity halves all times"),
			ip("horizon", 30, 1, 500, "tests simulated at most")},
		Options: []mechanics.Option{optCritCount.Option, optFumbleCrit.Option,
			opt(id, "first_test", "90s: 30 s after the first minute; 150s: the text's two-minute limit, then every 30 s", "90s", "150s"),
			opt(id, "penalty_index", "j_minus_1: the first test is unpenalised; j: it is at −1", "j_minus_1", "j"),
			opt(id, "tie", "failure: MoS 0 is a blackout", "failure")},
		Outputs: []string{"distributions: time (test of the blackout; horizon+1 = none yet), blackout_s (seconds)", "events: blackout, panic, not_absorbed", "process: S(t)"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			body, m := c.Int("body"), c.Int("modifier")
			shift := 1
			if c.Opt("penalty_index") == "j" {
				shift = 0
			}
			first := 90
			if c.Opt("first_test") == "150s" {
				first = 150
			}
			p := &mechanics.Process{States: []string{"conscious", "conscious, panicked", "blackout", "blackout, panicked"},
				Absorbing: []bool{false, false, true, true}, Horizon: c.Int("horizon"), TimeUnit: "test"}
			roll := Pool(2, o)
			psyche := c.Int("psyche")
			p.Kernel = func(t int) mechanics.Node {
				mod := m - (t - shift)
				pass := mechanics.Map{X: roll, Name: "passes", F: func(r int) int { return bit(Total(r, body, mod)-2 >= 1) }}
				if t > 1 {
					return pass
				}
				// The first test is when the air runs out: the panic roll too.
				return mechanics.Combine{X: pass, Y: roll, Name: "panic", F: func(ok, r int) int { return ok | bit(Total(r, psyche, m)-3 <= 0)<<1 }}
			}
			p.Move = func(_, s, x int) int {
				panicked := s%2 == 1 || x>>1 == 1
				return 2*(1-x&1) + bit(panicked)
			}
			spec := mechanics.ProcessSpec(p)
			spec.Events = []mechanics.Event{
				{Name: "blackout", Of: func(x int) bool { _, s := p.SplitOutcome(x); return s >= 2 }},
				{Name: "panic", Doc: "the Psyche roll at TN 3 failed", Of: func(x int) bool { _, s := p.SplitOutcome(x); return s%2 == 1 }},
				spec.Events[len(spec.Events)-1],
			}
			strenuous := c.Int("strenuous") == 1
			spec.Vars = append(spec.Vars, mechanics.Var{Name: "blackout_s", Doc: "seconds until the blackout (halved when strenuous)", Of: func(x int) int {
				t, _ := p.SplitOutcome(x)
				s := first + 30*(t-1)
				if strenuous {
					s /= 2
				}
				return s
			}})
			return spec, nil
		},
	}
}

func disease() *mechanics.Mechanic {
	const id = "ag.disease"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "contracting a disease: a Body test vs virulence sets onset, days ill, penalties; a fumble is a week of deadly fever",
		Doc: "On exposure the character makes a Body test vs the virulence. MoS ≥ 0: a mild cold for max(0, 4 − MoS) days; −4…−1: a penalty " +
			"equal to the MoS improving by 1 a day (|MoS| days, |MoS|(|MoS|+1)/2 penalty-days); ≤ −5: incapacitated |MoS| + 6 days, then " +
			"the −4 row; a fumble: 7 days of fever, dying on a daily d6 roll of 1 (with medical aid) or 1–2 (without), survivors then take " +
			"the MoS −8 row. Onset = listed onset / max(1, |MoS|), a tenth on a fumble. The fumble gives a fixed lethality floor of about " +
			"2% per exposure whatever the Body (mechanics.md §1.6).",
		Params: []mechanics.Param{ip("virulence", 9, 1, 30, "virulence V (the TN; sweep 1–14)"), ip("onset_days", 7, 1, 365, "listed onset O in days"),
			named(pAttr, "body", "Body"), named(pModifier, "modifier", "modifiers: Bolster +2, wound penalties"), ip("aid", 1, 0, 1, "1: medical aid during a fever")},
		Options: []mechanics.Option{optCritCount.Option, optFumbleCrit.Option,
			opt(id, "incap_days", "abs_mos_plus_6: |MoS| + 6 days; signed_mos_plus_6: max(0, MoS + 6) (the literal formula); minus_mos_minus_4: −(MoS + 4)", "abs_mos_plus_6", "signed_mos_plus_6", "minus_mos_minus_4"),
			opt(id, "success_effect", "table_applies: MoS 0…3 still gives mild symptoms; success_immune: MoS ≥ 1 means not contracted", "table_applies", "success_immune"),
			opt(id, "onset_divisor", "abs_mos_min_1: onset / max(1, |MoS|)", "abs_mos_min_1"),
			opt(id, "fever_day_count", "7_rolls or 6_rolls during the fever week", "7_rolls", "6_rolls")},
		Outputs: []string{"distributions: days_ill, penalty_days, incapacitated_days, onset_hours", "events: died, incapacitated, contracted, fever"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			v, body, m := c.Int("virulence"), c.Int("body"), c.Int("modifier")
			rolls := 7
			if c.Opt("fever_day_count") == "6_rolls" {
				rolls = 6
			}
			// Day of death during the fever (1..rolls) or rolls+1 = survived:
			// P(day d) = q(1−q)^(d−1), q = 1/6 with aid, 1/3 without.
			num, den := int64(1), int64(6)
			if c.Int("aid") == 0 {
				num, den = 1, 3
			}
			var faces []int
			var ws []int64
			pow := func(b int64, e int) int64 {
				r := int64(1)
				for i := 0; i < e; i++ {
					r *= b
				}
				return r
			}
			for d := 1; d <= rolls; d++ {
				faces, ws = append(faces, d), append(ws, num*pow(den-num, d-1)*pow(den, rolls-d))
			}
			faces, ws = append(faces, rolls+1), append(ws, pow(den-num, rolls))
			fever := mechanics.Die{Faces: faces, Weights: ws}
			incap := func(mos int) int {
				switch c.Opt("incap_days") {
				case "signed_mos_plus_6":
					return max(0, mos+6)
				case "minus_mos_minus_4":
					return -(mos + 4)
				}
				return -mos + 6
			}
			onsetH := c.Int("onset_days") * 24
			immune := c.Opt("success_effect") == "success_immune"
			// The outcome is small: (MoS + 128)·32 + fumble·16 + fever death day;
			// every reported quantity is decoded from it.
			out := mechanics.Combine{X: Pool(2, o), Y: fever, Name: "disease", F: func(r, death int) int {
				return (Total(r, body, m)-v+128)*32 + bit(rollFumble(r))*16 + death
			}}
			type course struct{ days, pen, inc, died, got, fev, onset int }
			decode := func(x int) course {
				mos, fum, death := x/32-128, x/16%2 == 1, x%16
				k := course{got: 1}
				k.onset = onsetH / max(1, abs(mos))
				row := func(mos int) {
					switch {
					case mos >= 0:
						k.days = max(0, 4-mos)
					case mos >= -4:
						k.days, k.pen = -mos, (-mos)*(-mos+1)/2
					default:
						k.inc = incap(mos)
						k.days, k.pen = k.inc+4, 10
					}
				}
				switch {
				case fum:
					k.fev, k.onset = 1, onsetH/10
					if death <= rolls {
						k.died, k.days = 1, death
					} else {
						row(-8)
						k.days += rolls
					}
				case immune && mos >= 1:
					k.got, k.onset = 0, 0
				default:
					row(mos)
				}
				return k
			}
			return &mechanics.Spec{
				Outcome: out,
				Vars: []mechanics.Var{
					{Name: "days_ill", Of: func(x int) int { return decode(x).days }},
					{Name: "penalty_days", Doc: "Σ of the daily action penalty", Of: func(x int) int { return decode(x).pen }},
					{Name: "incapacitated_days", Of: func(x int) int { return decode(x).inc }},
					{Name: "onset_hours", Doc: "onset delay (hours, rounded down)", Of: func(x int) int { return decode(x).onset }},
				},
				Events: []mechanics.Event{
					{Name: "died", Of: func(x int) bool { return decode(x).died == 1 }},
					{Name: "incapacitated", Of: func(x int) bool { return decode(x).inc > 0 }},
					{Name: "contracted", Of: func(x int) bool { return decode(x).got == 1 }},
					{Name: "fever", Of: func(x int) bool { return decode(x).fev == 1 }},
				},
			}, nil
		},
	}
}

func abs(x int) int { return max(x, -x) }

func stabilize() *mechanics.Mechanic {
	const id = "ag.stabilize"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "stabilising wounds: 5-minute Medicine + Logic attempts at TN 1; bleeding out allows two",
		Doc: "Five minutes of work and a Medicine + Logic roll at TN 1, adjusted by the patient's Body and the patient's wound and bruise " +
			"penalties. Success stabilises one wound, failure wastes the time, a fumble wastes it and adds a flesh wound (one more wound " +
			"to stabilise and −1 more). Bleeding out (deadline 10 minutes = two attempts) needs one success by default. Fumbles beyond " +
			"ten are not tracked further (mechanics.md §1.7).",
		Params: []mechanics.Param{named(pSkill, "skill", "medic's Medicine"), named(pAttr, "logic", "medic's Logic"), pModifier,
			ip("patient_body", 2, 0, 20, "patient's Body"), ip("patient_penalty", 1, 0, 20, "patient's current wound and bruise penalty (as a positive number)"),
			ip("wounds", 2, 1, 20, "unstabilised wounds U"), ip("bleeding_out", 0, 0, 1, "1: the patient is bleeding out (a deadline)"),
			ip("attempts", 24, 1, 500, "attempts simulated at most (5 minutes each)")},
		Options: withCore(
			opt(id, "body_sign", "plus_body: the patient's Body adds; minus_body: it subtracts", "plus_body", "minus_body"),
			opt(id, "bleed_out_needs", "one_success: one success saves a bleeding patient; all_wounds: every wound must be stabilised", "one_success", "all_wounds"),
			opt(id, "deadline_attempts", "2: attempts ending at 5 and 10 minutes; 1", "2", "1")),
		Outputs: []string{"distributions: time (attempts until stabilised or saved)", "events: absorbed:stabilised / saved / dead, not_absorbed", "process: S(t)"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			U, fmax := c.Int("wounds"), 10
			body := c.Int("patient_body")
			if c.Opt("body_sign") == "minus_body" {
				body = -body
			}
			a, m0 := c.Int("logic"), c.Int("modifier")+body-c.Int("patient_penalty")
			bleeding := c.Int("bleeding_out") == 1
			deadline := 2
			if c.Opt("deadline_attempts") == "1" {
				deadline = 1
			}
			W := U + fmax + 1
			p := &mechanics.Process{Horizon: c.Int("attempts"), TimeUnit: "attempt", Homogeneous: !bleeding}
			for f := 0; f <= fmax; f++ {
				for u := 0; u < W; u++ {
					p.Add(false, fmt.Sprintf("%d open, %d fumbles", u, f))
				}
			}
			stab := p.Add(true, "stabilised", "saved", "dead")
			saved, dead := stab+1, stab+2
			p.Start = U
			roll := Pool(c.Int("skill"), o)
			needAll := c.Opt("bleed_out_needs") == "all_wounds"
			p.Step = func(t, s int) mechanics.Node {
				f, u := s/W, s%W
				mod := m0 - f
				return mechanics.Map{X: roll, Name: "attempt", F: func(r int) int {
					nf, nu := f, u
					switch {
					case rollFumble(r):
						nf, nu = min(f+1, fmax), min(u+1, W-1)
					case success(Total(r, a, mod)-1, o.Tie):
						nu = u - 1
					}
					switch {
					case nu == 0:
						if bleeding {
							return saved
						}
						return stab
					case bleeding && !needAll && nu < u:
						return saved
					case bleeding && t >= deadline:
						return dead
					}
					return nf*W + nu
				}}
			}
			return mechanics.ProcessSpec(p), nil
		},
	}
}

func recovery() *mechanics.Mechanic {
	const id = "ag.recovery"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "healing time: bruises 1d6 hours / 1d6 days each, wounds 3 days–1 month each, one after another",
		Doc: "Injuries heal one after another, flesh ones first: flesh bruise 1d6 hours, deep bruise 1d6 days; aided wound: flesh 3 days, " +
			"deep 2 weeks; unaided: flesh 1 week, deep 1 month (30 days). After a resuscitation nothing heals for the first week. The " +
			"bruise queue is a sum of dice (K1); the wound queue is deterministic (mechanics.md §1.7).",
		Params: []mechanics.Param{ip("flesh_bruises", 2, 0, 30, "flesh bruises"), ip("deep_bruises", 1, 0, 30, "deep bruises"),
			ip("flesh_wounds", 1, 0, 30, "flesh wounds"), ip("deep_wounds", 0, 0, 30, "deep wounds"), ip("aided", 1, 0, 1, "1: wounds are medically aided"),
			ip("resuscitated", 0, 0, 1, "1: after a resuscitation nothing heals for the first week")},
		Options: []mechanics.Option{opt(id, "queues", "bruises_and_wounds_in_parallel: the two queues run at once; single_queue: one after the other", "bruises_and_wounds_in_parallel", "single_queue")},
		Outputs: []string{"distributions: hours (until fully healed), days (rounded up)"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			d6h := mechanics.D(6)
			d6d := mechanics.Scale{X: mechanics.D(6), K: 24}
			bruises := mechanics.Sum{Terms: []mechanics.Node{mechanics.Repeat{X: d6h, N: c.Int("flesh_bruises")}, mechanics.Repeat{X: d6d, N: c.Int("deep_bruises")}}}
			fw, dw := 7*24, 30*24
			if c.Int("aided") == 1 {
				fw, dw = 3*24, 14*24
			}
			wounds := mechanics.Const{V: c.Int("flesh_wounds")*fw + c.Int("deep_wounds")*dw}
			var total mechanics.Node = mechanics.Max{Terms: []mechanics.Node{bruises, wounds}}
			if c.Opt("queues") == "single_queue" {
				total = mechanics.Sum{Terms: []mechanics.Node{bruises, wounds}}
			}
			if c.Int("resuscitated") == 1 {
				total = mechanics.Sum{Terms: []mechanics.Node{total, mechanics.Const{V: 7 * 24}}}
			}
			return &mechanics.Spec{
				Outcome: total,
				Vars:    []mechanics.Var{{Name: "hours", Of: func(h int) int { return h }}, {Name: "days", Of: func(h int) int { return (h + 23) / 24 }}},
			}, nil
		},
	}
}
