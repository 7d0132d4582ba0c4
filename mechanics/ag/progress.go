package ag

import (
	"fmt"
	"math"

	"github.com/oddsmith/oddsmith/mechanics"
)

// The §1.3, §1.5 and §1.8 mechanics that unfold over time: accumulated
// success (and acting fast, dispelling) as a random walk to a MoS
// requirement, and chases as a walk of the gap.

func init() {
	register(accumulated(), actingFast(), dispel(), chase(false), chase(true))
}

const accID = "ag.accumulated"

var accOptions = []mechanics.Option{
	opt(accID, "failure", "subtract_mos: the signed MoS is added, so a failure by 3 removes 3; subtract_one: failures remove 1; no_loss: failures remove nothing", "subtract_mos", "subtract_one", "no_loss"),
	opt(accID, "floor", "zero: progress cannot go below 0; none: it can (see opt.abandon and lower_limit)", "zero", "none"),
	opt(accID, "tie", "zero: MoS 0 adds nothing; cost_plus_one: MoS 0 adds 1 (accepted at a cost)", "zero", "cost_plus_one"),
	opt(accID, "abandon", "never; at_minus_Q: progress at −Q or below is an absorbing failure", "never", "at_minus_Q"),
	opt(accID, "fumble", "none: a fumble is just its MoS; reset: a fumble loses all progress", "none", "reset"),
}

// accOpts reads the accumulated-success switches from any mechanic that
// declares them (dispel and acting_fast share them through accID names).
type accOpts struct{ failure, floor, tie, abandon, fumble string }

func accOptsOf(c mechanics.Config) accOpts {
	return accOpts{c.Options[accID+".opt.failure"], c.Options[accID+".opt.floor"], c.Options[accID+".opt.tie"],
		c.Options[accID+".opt.abandon"], c.Options[accID+".opt.fumble"]}
}

// increment is what one test adds to the running total.
func (a accOpts) increment(mos int) int {
	switch {
	case mos >= 1:
		return mos
	case mos == 0:
		if a.tie == "cost_plus_one" {
			return 1
		}
		return 0
	case a.failure == "subtract_one":
		return -1
	case a.failure == "no_loss":
		return 0
	default:
		return mos
	}
}

// progressChain is the walk S_t = S_{t−1} + Δ_t to Q. States: progress lo..Q−1,
// then "done", "abandoned" (only with abandon=at_minus_Q) and "below_limit"
// (only without a floor or abandon: mass that fell under −lowerLimit, where
// the chain is truncated — reported as its own absorbing state).
func progressChain(q, lowerLimit, horizon int, a accOpts, kernel mechanics.Node, inc func(x int) (delta int, reset bool)) *mechanics.Process {
	lo := 0
	if a.floor == "none" {
		lo = -lowerLimit
		if a.abandon == "at_minus_Q" {
			lo = -q + 1
		}
	}
	p := &mechanics.Process{Homogeneous: true, Horizon: horizon, TimeUnit: "test"}
	for v := lo; v < q; v++ {
		p.Add(false, fmt.Sprintf("progress %d", v))
	}
	done := p.Add(true, "done")
	abandoned, below := -1, -1
	if a.floor == "none" && a.abandon == "at_minus_Q" {
		abandoned = p.Add(true, "abandoned")
	} else if a.floor == "none" {
		below = p.Add(true, "below_limit")
	}
	p.Start = -lo
	p.Kernel = func(int) mechanics.Node { return kernel }
	p.Move = func(_, s, x int) int {
		v := s + lo
		d, reset := inc(x)
		if reset {
			v = min(v, 0)
			if a.floor == "zero" || v >= 0 {
				v = 0
			}
		}
		v += d
		if a.floor == "zero" {
			v = max(v, 0)
		}
		switch {
		case v >= q:
			return done
		case abandoned >= 0 && v <= -q:
			return abandoned
		case v < lo:
			return below
		}
		return v - lo
	}
	return p
}

var pQ = ip("q", 6, 1, 500, "MoS requirement Q of the task (sweep 1–30)")
var pHorizon = ip("horizon", 100, 1, 5000, "tests simulated at most (t_max)")
var pLower = ip("lower_limit", 60, 1, 1000, "with opt.floor=none and opt.abandon=never: progress below −lower_limit is cut off and reported as below_limit")

func testKernel(c mechanics.Config, mod int, a accOpts) (mechanics.Node, func(int) (int, bool)) {
	o := coreOptionsOf(c)
	attr, tn := c.Int("attribute"), c.Int("tn")
	return Pool(c.Int("skill"), o), func(r int) (int, bool) {
		return a.increment(Total(r, attr, mod) - tn), a.fumble == "reset" && rollFumble(r)
	}
}

func accumulated() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      accID,
		Summary: "accumulated success: add each test's MoS until the running total reaches Q",
		Doc: "A long task has a MoS requirement Q. Each test adds its MoS when it succeeds and subtracts when it fails; S_t = max(0, S_{t−1} + Δ_t) " +
			"by default, absorbed when S_t ≥ Q. Solved as an absorbing Markov chain (K6): the number of tests to finish (PMF, S(t)), and " +
			"for an unlimited horizon the mean from N = (I − Q)⁻¹ (mechanics.md §1.3).",
		Params:  []mechanics.Param{pQ, pSkill, pAttr, pModifier, pTN, pHorizon, pLower},
		Options: append([]mechanics.Option{optCritCount.Option, optFumbleCrit.Option, optUnskilledCrit.Option}, accOptions...),
		Outputs: []string{"distributions: time (tests until done; horizon+1 = not done)", "events: absorbed:done (within the horizon), absorbed:abandoned, not_absorbed",
			"process: S(t), mean tests for an unlimited horizon", "bands: final_state"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a := accOptsOf(c)
			k, inc := testKernel(c, c.Int("modifier"), a)
			return mechanics.ProcessSpec(progressChain(c.Int("q"), c.Int("lower_limit"), c.Int("horizon"), a, k, inc)), nil
		},
	}
}

func actingFast() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.acting_fast",
		Summary: "acting fast: ½, ¼, ⅛, 1/16 of the time per test at −1…−4 — is hurrying worth it?",
		Doc: "An extended action can be done in 2^−k of the time at modifier −k (k = 0…4). Combined with ag.accumulated: wall-clock time " +
			"= tests × base time × 2^−k; the events give P(finishing within a deadline) (mechanics.md §1.2).",
		Params: []mechanics.Param{ip("k", 1, 0, 4, "hurry level: 2^−k of the time per test at −k"), ip("base_minutes", 60, 1, 100000, "time of one test at normal speed, in minutes"),
			ip("deadline_minutes", 240, 1, 10000000, "the deadline, in minutes"), pQ, pSkill, pAttr, pModifier, pTN, pHorizon, pLower},
		Options: append([]mechanics.Option{optCritCount.Option, optFumbleCrit.Option, optUnskilledCrit.Option}, accOptions...),
		Outputs: []string{"distributions: time (tests), elapsed_s (wall-clock seconds, rounded)", "events: done_by_deadline, absorbed:done, not_absorbed"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a := accOptsOf(c)
			k := c.Int("k")
			kern, inc := testKernel(c, c.Int("modifier")-k, a)
			p := progressChain(c.Int("q"), c.Int("lower_limit"), c.Int("horizon"), a, kern, inc)
			spec := mechanics.ProcessSpec(p)
			perTest := float64(c.Int("base_minutes")) * 60 / float64(int(1)<<k) // seconds
			deadline := float64(c.Int("deadline_minutes")) * 60
			doneState := len(p.States) - 1
			for i, s := range p.States {
				if s == "done" {
					doneState = i
				}
			}
			spec.Vars = append(spec.Vars, mechanics.Var{Name: "elapsed_s", Doc: "tests × base time × 2^−k, in seconds", Of: func(o int) int {
				t, _ := p.SplitOutcome(o)
				return int(math.Round(float64(t) * perTest))
			}})
			spec.Events = append([]mechanics.Event{{Name: "done_by_deadline", Of: func(o int) bool {
				t, s := p.SplitOutcome(o)
				return s == doneState && t <= p.Horizon && float64(t)*perTest <= deadline
			}}}, spec.Events...)
			return spec, nil
		},
	}
}

func dispel() *mechanics.Mechanic {
	const id = "ag.magic.dispel"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "dispelling: opposed Restoration + Psyche tests deal MoS damage to a spell until it exceeds 5",
		Doc: "Restoration + Psyche opposed by the original caster's Psyche; each success deals its MoS as damage to the spell, failures " +
			"do not heal it; the spell ends once its damage exceeds 5 (ag.accumulated with Q = 6 and increments max(0, MoS)) (mechanics.md §1.8).",
		Params: []mechanics.Param{named(pSkill, "skill", "dispeller's Restoration skill"), named(pAttr, "attribute", "dispeller's Psyche"), pModifier,
			ip("caster_psyche", 2, 0, 20, "the original caster's Psyche"), ip("horizon", 30, 1, 1000, "attempts simulated at most")},
		Options: append(coreOpts[:3:3], opt(id, "resist_roll", "psyche_attribute_roll: the caster's two dice + Psyche; fixed_psyche_tn: a fixed TN equal to the caster's Psyche", "psyche_attribute_roll", "fixed_psyche_tn")),
		Outputs: []string{"distributions: time (attempts until dispelled)", "events: absorbed:dispelled, not_absorbed", "process: S(t), mean attempts"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			a := sideOf(c, "")
			psy := c.Int("caster_psyche")
			var res mechanics.Node = Pool(2, o)
			resist := func(r int) int { return Total(r, psy, 0) }
			if c.Opt("resist_roll") == "fixed_psyche_tn" {
				res, resist = mechanics.Const{V: 0}, func(int) int { return psy }
			}
			kern := mechanics.Combine{X: a.roll(o), Y: res, Name: "damage", F: func(x, y int) int { return max(0, a.total(x)-resist(y)) }}
			p := progressChain(6, 0, c.Int("horizon"), accOpts{floor: "zero"}, kern, func(x int) (int, bool) { return x, false })
			p.States[len(p.States)-1] = "dispelled"
			return mechanics.ProcessSpec(p), nil
		},
	}
}

func chase(obstacles bool) *mechanics.Mechanic {
	id := "ag.chase"
	if obstacles {
		id = "ag.chase_obstacle"
	}
	ps := []mechanics.Param{
		ip("quarry_speed", 20, 0, 200, "quarry's base speed, m/round [placeholder: walk 10 / run 20 / sprint 30]"),
		ip("pursuer_speed", 20, 0, 200, "pursuer's base speed, m/round"),
	}
	ps = append(ps, sideParams("quarry_", "quarry's Athletics + Body", 2, 2)...)
	ps = append(ps, sideParams("pursuer_", "pursuer's Athletics + Body", 2, 2)...)
	ps = append(ps, ip("gap", 10, 0, 500, "initial gap g₀ in metres (sweep 0–50)"), ip("escape_gap", 30, 1, 500, "the quarry escapes at a gap of G metres (sweep 10–100)"),
		ip("rounds", 10, 1, 200, "round limit R_max (sweep 1–30)"))
	opts := append(coreOpts[:3:3], opt("ag.chase", "fumble", "speed_plus_result_minus_d6: a fumble loses 1d6 m from speed + result; speed_minus_d6: the fumble replaces the bonus", "speed_plus_result_minus_d6", "speed_minus_d6"))
	doc := "Each round each runner makes Athletics + Body and adds the result to its speed; a fumble loses 1d6 m. Gap_{t+1} = Gap_t + d_q − d_p; " +
		"caught at gap ≤ 0, escaped at gap ≥ G, undecided after R_max rounds (our end conditions). An absorbing chain on the integer gap (mechanics.md §1.5)."
	if obstacles {
		ps = append(ps, ip("obstacle_tn", 4, 1, 20, "obstacle TN: low fence 2, bench or bins 4, tall fence 6"), ip("obstacle_every", 3, 1, 200, "an obstacle every k-th round (1 = every round)"))
		opts = append(opts, opt(id, "winner_bonus", "own_mos_vs_obstacle: the party with the larger MoS against the obstacle adds max(0, MoS); opposed_margin: a party with MoS < 1 loses the round, the winner adds T_w − T_l", "own_mos_vs_obstacle", "opposed_margin"))
		doc += " In obstacle rounds each party also rolls Athletics + Body against the obstacle; the better one adds its margin to the round's distance, and a fumble on it loses the round (mechanics.md §1.5)."
	}
	return &mechanics.Mechanic{
		ID:      id,
		Summary: map[bool]string{false: "foot chase: speed + Athletics + Body per round; caught, escaped or still running", true: "foot chase with obstacles every k rounds (extra opposed crossing test)"}[obstacles],
		Doc:     doc,
		Params:  ps,
		Options: opts,
		Outputs: []string{"distributions: time (round of capture or escape; rounds+1 = undecided)", "events: absorbed:caught, absorbed:escaped, not_absorbed", "bands: final_state (gap at the end)"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			q, pu := sideOf(c, "quarry_"), sideOf(c, "pursuer_")
			vq, vp := c.Int("quarry_speed"), c.Int("pursuer_speed")
			G, g0 := c.Int("escape_gap"), c.Int("gap")
			minusOnly := c.Opt("fumble") == "speed_minus_d6"
			// One runner's distance this round, packed with its obstacle result:
			// distance | (obstacle MoS + 512) << 10 | obstacle fumble << 20.
			dist := func(s side, v int) mechanics.Node {
				return mechanics.Combine{X: s.roll(o), Y: mechanics.D(6), Name: "distance", F: func(r, d6 int) int {
					if !rollFumble(r) {
						return v + s.total(r)
					}
					if minusOnly {
						return max(0, v-d6)
					}
					return max(0, v+s.total(r)-d6)
				}}
			}
			regular := mechanics.Combine{X: dist(q, vq), Y: dist(pu, vp), Name: "gap change", F: func(a, b int) int { return a - b }}
			p := &mechanics.Process{Horizon: c.Int("rounds"), TimeUnit: "round", Homogeneous: !obstacles}
			for gap := 1; gap < G; gap++ {
				p.Add(false, fmt.Sprintf("gap %d", gap))
			}
			caught := p.Add(true, "caught", "escaped")
			escaped := caught + 1
			p.Start = min(max(g0, 0), G)
			switch {
			case g0 <= 0:
				p.Start = caught
			case g0 >= G:
				p.Start = escaped
			default:
				p.Start = g0 - 1
			}
			p.Move = func(_, s, x int) int {
				g := s + 1 + x
				switch {
				case g <= 0:
					return caught
				case g >= G:
					return escaped
				}
				return g - 1
			}
			p.Kernel = func(int) mechanics.Node { return regular }
			if obstacles {
				every, otn := c.Int("obstacle_every"), c.Int("obstacle_tn")
				margin := c.Opt("winner_bonus") == "opposed_margin"
				withObstacle := func(s side, v int) mechanics.Node {
					return mechanics.Combine{X: dist(s, v), Y: s.roll(o), Name: "obstacle", F: func(d, r int) int {
						return d | (s.total(r)-otn+512)<<10 | bit(rollFumble(r))<<20
					}}
				}
				obst := mechanics.Combine{X: withObstacle(q, vq), Y: withObstacle(pu, vp), Name: "obstacle round", F: func(a, b int) int {
					da, db := a&1023, b&1023
					ma, mb := (a>>10)&1023-512, (b>>10)&1023-512
					if margin {
						if ma < 1 {
							da = 0
						}
						if mb < 1 {
							db = 0
						}
						switch {
						case ma > mb && ma >= 1:
							da += ma - mb // T_w − T_l: the TN cancels
						case mb > ma && mb >= 1:
							db += mb - ma
						}
					} else {
						switch {
						case ma > mb:
							da += max(0, ma)
						case mb > ma:
							db += max(0, mb)
						}
					}
					if a>>20 != 0 {
						da = 0
					}
					if b>>20 != 0 {
						db = 0
					}
					return da - db
				}}
				isObstacle := func(t int) bool { return t%every == 0 }
				p.Kernel = func(t int) mechanics.Node {
					if isObstacle(t) {
						return obst
					}
					return regular
				}
				p.KernelKey = func(t int) int { return bit(isObstacle(t)) }
			}
			return mechanics.ProcessSpec(p), nil
		},
	}
}
