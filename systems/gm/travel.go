package gm

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// Pushing on without rest (docs/mechanics.md#gm-forced_march,
// docs/mechanics.md#gm-daily_push). Both are a series of health rolls, each
// failure one injury, each roll j at a target that may fall with j; the
// injuries are a Poisson-binomial count, and with injury_penalty=on a
// time-inhomogeneous chain on the injury count (a forward DP), exact
// either way.

// travelMechanics are the mechanics declared in travel.go.
func travelMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{forcedMarch(), dailyPush()}
}

// healthSeries is a chain of health rolls: roll j (j = 0…rolls−1) at
// base − step·j, less the injury penalty; a failure is one injury.
type healthSeries struct {
	rolls, base, step int
	nat               naturals
	inj0              int
	feedback          bool
	unit              string
}

func (h healthSeries) target(j, inj int) int {
	t := h.base - h.step*j - h.inj0
	if h.feedback {
		t -= inj
	}
	return t
}

// process is the chain on the injury count. Without feedback a roll's
// chance depends on j only, so the kernel is a coin with that chance (one
// kernel per chance); with feedback it is the natural, compared with the
// target of the state's injuries.
func (h healthSeries) process() (*mechanics.Process, block, mechanics.Slot) {
	p := &mechanics.Process{Horizon: h.rolls, TimeUnit: h.unit, Homogeneous: h.step == 0 && !h.feedback}
	rec := mechanics.NewRecord(mechanics.Int("injuries", 0, h.rolls, "injuries so far"))
	b := addBlock(p, false, rec)
	sInj := rec.Slot("injuries")
	p.Start = b.state(rec.Start())
	if h.feedback {
		p.Homogeneous = h.step == 0
		p.Kernel = func(int) mechanics.Node { return d20 }
		p.KernelKey = func(int) int { return 0 }
		p.Move = func(t, s, n int) int {
			code, _ := b.code(s)
			inj := sInj.Get(code)
			if roll("", h.target(t-1, inj), h.nat).Holds(n) {
				return s
			}
			return b.state(sInj.Set(code, min(inj+1, h.rolls)))
		}
		return p, b, sInj
	}
	p.Kernel = func(t int) mechanics.Node { return coin(successes(h.target(t-1, 0), h.nat)) }
	p.KernelKey = func(t int) int { return successes(h.target(t-1, 0), h.nat) }
	p.Move = func(_, s, x int) int {
		if x == 1 {
			return s
		}
		code, _ := b.code(s)
		// As many injuries as rolls take all the rolls: the clamp only
		// keeps a homogeneous chain's reachable states declared.
		return b.state(sInj.Set(code, min(sInj.Get(code)+1, h.rolls)))
	}
	return p, b, sInj
}

// spec reports the injuries of the series.
func (h healthSeries) spec() (*mechanics.Spec, expr.Expr) {
	p, b, sInj := h.process()
	inj := p.StateTable(func(s int) int { code, _ := b.code(s); return sInj.Get(code) })
	spec := &mechanics.Spec{Process: p, Record: p.Record()}
	spec.Vars = []mechanics.Var{{Name: "injuries", Doc: "injuries from the failed health rolls", Unit: "injuries", Expr: inj}}
	spec.Event("any_injury", "at least one roll fails", expr.Ge(field("injuries"), num(1))).
		Event("no_injury", "every roll succeeds", expr.Eq(field("injuries"), num(0)))
	return spec, inj
}

func feedbackOf(c mechanics.Config) (bool, int) {
	if optInjuryPenalty.Of(c) == injuryPenaltyOn {
		return true, c.Int("injuries")
	}
	return false, 0
}

func forcedMarch() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "gm.forced_march",
		Summary: "forced march: pushing on without the ten-minute rest needs a health roll per period; each failure one injury",
		Doc: "Push j (j = 0…K−1) after the time base of the speed without the ten-minute rest: a health roll at H + 2r − 2(e + j) − w " +
			"(r: Movement given up for the whole period, e: earlier movement health rolls since the last rest, w: water or salt " +
			"penalty up to 4); a failure is one injury. Injuries ~ Poisson-binomial; with injury_penalty=on each injury " +
			"penalises the later rolls (a chain on the count, exact). injuries_per_distance divides by the distance covered, K " +
			"periods at Movement − r: sweep r for the r that minimises it.",
		Params: []mechanics.Param{
			score("health", 10, "health reaction score"),
			ip("pushes", 4, 1, 60, "K: periods pushed without the rest"),
			ip("movement_given_up", 0, 0, 10, "r: points of Movement given up for the whole period (+2 each)"),
			ip("water", 0, 0, 4, "w: penalty for too little water or salt (up to 4)"),
			ip("earlier_rolls", 0, 0, 30, "e: movement health rolls already made since the last rest (−2 each)"),
			ip("movement", 12, 1, 60, "the character's Movement (for the distance covered)"),
			pInj,
		},
		Options: mechanics.Options(optNaturals, optInjuryPenalty),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			r, mv, K := c.Int("movement_given_up"), c.Int("movement"), c.Int("pushes")
			if r >= mv {
				return nil, fmt.Errorf("movement_given_up=%d leaves no Movement of %d: the march covers no distance", r, mv)
			}
			fb, inj0 := feedbackOf(c)
			h := healthSeries{rolls: K, base: c.Int("health") + 2*r - 2*c.Int("earlier_rolls") - c.Int("water"), step: 2,
				nat: optNaturals.Of(c), inj0: inj0, feedback: fb, unit: "push"}
			spec, _ := h.spec()
			spec.Vars = append(spec.Vars, mechanics.Var{Name: "injuries_per_distance",
				Doc:  "injuries / (K·(Movement − r)): injuries per unit of distance (Movement × a time base)",
				Unit: "injuries per Movement·period", Expr: expr.Mul(field("injuries"), expr.Q(1, int64(K*(mv-r))))})
			return spec, nil
		},
	}
}

var optEarlierRolls = mechanics.SwitchOf("gm.daily_push", "earlier_rolls",
	"no_penalty: every day's push is one health roll at the same target (the rule as stated); minus_2_each: each earlier push "+
		"since the last rest day penalises the next by 2, as the movement rest rule does (\"may push themselves forward as above\")",
	escalationNone, escalationMinus2)

func dailyPush() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "gm.daily_push",
		Summary: "daily push: travelling 50% further in a day needs a health roll; each failure one injury",
		Doc: "Increasing a day's movement by 50% incurs a health roll; a failure is one injury. Over K pushed days the injuries are " +
			"Binomial (or Poisson-binomial with the −2 per earlier push); with injury_penalty=on each injury penalises the later " +
			"rolls (a chain on the count, exact). The extra distance is K half-days of travel.",
		Params: []mechanics.Param{
			score("health", 10, "health reaction score"), pModifier,
			ip("days", 5, 1, 60, "K: days pushed by 50%"),
			pInj,
		},
		Options: mechanics.Options(optEarlierRolls, optNaturals, optInjuryPenalty),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			fb, inj0 := feedbackOf(c)
			step := 0
			if optEarlierRolls.Of(c) == escalationMinus2 {
				step = 2
			}
			h := healthSeries{rolls: c.Int("days"), base: c.Int("health") + c.Int("modifier"), step: step,
				nat: optNaturals.Of(c), inj0: inj0, feedback: fb, unit: "day"}
			spec, _ := h.spec()
			return spec, nil
		},
	}
}
