package ag

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// The mechanics that unfold over time: accumulated success (and acting
// fast, dispelling) as a random walk to a MoS requirement, and chases as a
// walk of the gap. Every one is a Kernel/Move process: one random increment
// per step, shared by all states, and a Move tabulated when the model is
// built.

// progressMechanics are the mechanics declared in progress.go.
func progressMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{accumulated(), actingFast(), dispel(), chase(false), chase(true)}
}

const accID = "ag.accumulated"

var (
	optAccFailure = mechanics.SwitchOf(accID, "failure",
		"subtract_mos: the signed MoS is added, so a failure by 3 removes 3; subtract_one: failures remove 1; no_loss: failures remove nothing",
		accSubtractMoS, accSubtractOne, accNoLoss)
	optAccFloor   = mechanics.SwitchOf(accID, "floor", "zero: progress cannot go below 0; none: it can (see opt.abandon and lower_limit)", accFloorZero, accFloorNone)
	optAccTie     = mechanics.SwitchOf(accID, "tie", "zero: MoS 0 adds nothing; cost_plus_one: MoS 0 adds 1 (accepted at a cost)", accTieZero, accTieCostPlusOne)
	optAccAbandon = mechanics.SwitchOf(accID, "abandon", "never; at_minus_Q: progress at −Q or below is an absorbing failure", accAbandonNever, accAbandonAtMinusQ)
	optAccFumble  = mechanics.SwitchOf(accID, "fumble", "none: a fumble is just its MoS; reset: a fumble loses all progress", accFumbleNone, accFumbleReset)
)

var accOptions = mechanics.Options(optAccFailure, optAccFloor, optAccTie, optAccAbandon, optAccFumble)

// accOpts are the accumulated-success switches, decoded from any mechanic
// that declares them (acting_fast shares them through the accID names);
// the ones a mechanic does not declare keep their defaults.
type accOpts struct {
	failure accFailure
	floor   accFloor
	tie     accTie
	abandon accAbandon
	fumble  accFumble
}

func accOptsOf(c mechanics.Config) accOpts {
	return accOpts{optAccFailure.OrDefault(c), optAccFloor.OrDefault(c), optAccTie.OrDefault(c), optAccAbandon.OrDefault(c), optAccFumble.OrDefault(c)}
}

// increment is what one test adds to the running total.
func (a accOpts) increment(mos int) int {
	switch {
	case mos >= 1:
		return mos
	case mos == 0:
		if a.tie == accTieCostPlusOne {
			return 1
		}
		return 0
	case a.failure == accSubtractOne:
		return -1
	case a.failure == accNoLoss:
		return 0
	default:
		return mos
	}
}

// stepRecord is one test's effect on the running total: the increment and
// whether a fumble reset the progress (opt.fumble=reset). It is the value
// of a progress chain's kernel.
type stepRecord struct {
	rec          *mechanics.Record
	delta, reset mechanics.Slot
}

func newStepRecord(lo, hi int) stepRecord {
	rec := mechanics.NewRecord(
		mechanics.Int("delta", lo, hi, "added to the running total"),
		mechanics.Flag("reset", "a fumble loses the progress"),
	)
	return stepRecord{rec, rec.Slot("delta"), rec.Slot("reset")}
}

// code is the kernel value of an increment d.
func (r stepRecord) code(d int, reset bool) int {
	return r.reset.SetBool(r.delta.Set(r.rec.Start(), d), reset)
}

// progressChain is the walk S_t = S_{t−1} + Δ_t to Q. States: progress lo..Q−1,
// then "done", "abandoned" (only with abandon=at_minus_Q) and "below_limit"
// (only without a floor or abandon: mass that fell under −lowerLimit, where
// the chain is truncated — reported as its own absorbing state). The kernel
// yields step records; it returns the process and the index of "done".
func progressChain(q, lowerLimit, horizon int, a accOpts, kernel mechanics.Node, step stepRecord) (*mechanics.Process, int) {
	lo := 0
	if a.floor == accFloorNone {
		lo = -lowerLimit
		if a.abandon == accAbandonAtMinusQ {
			lo = -q + 1
		}
	}
	p := &mechanics.Process{Homogeneous: true, Horizon: horizon, TimeUnit: "test"}
	for v := lo; v < q; v++ {
		p.Add(false, fmt.Sprintf("progress %d", v))
	}
	done := p.Add(true, "done")
	abandoned, below := -1, -1
	if a.floor == accFloorNone && a.abandon == accAbandonAtMinusQ {
		abandoned = p.Add(true, "abandoned")
	} else if a.floor == accFloorNone {
		below = p.Add(true, "below_limit")
	}
	p.Start = -lo
	p.Kernel = func(int) mechanics.Node { return kernel }
	tabulateMove(p, 0, step.rec.Size()-1, func(s, x int) int {
		v := s + lo
		if step.reset.Bool(x) {
			v = min(v, 0)
			if a.floor == accFloorZero || v >= 0 {
				v = 0
			}
		}
		v += step.delta.Get(x)
		if a.floor == accFloorZero {
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
	})
	return p, done
}

var pQ = ip("q", 6, 1, 500, "MoS requirement Q of the task (sweep 1–30)")
var pHorizon = ip("horizon", 100, 1, 5000, "tests simulated at most (t_max)")
var pLower = ip("lower_limit", 60, 1, 1000, "with opt.floor=none and opt.abandon=never: progress below −lower_limit is cut off and reported as below_limit")

// testKernel is one test of the skill pool at modifier mod, as the step
// record of its increment.
func testKernel(c mechanics.Config, mod int, a accOpts) (mechanics.Node, stepRecord) {
	o := coreOptionsOf(c)
	s := side{c.Int("skill"), c.Int("attribute"), mod}
	tn := c.Int("tn")
	lo, hi := 0, 0
	for mos := -tn; mos <= s.maxTotal()-tn; mos++ {
		d := a.increment(mos)
		lo, hi = min(lo, d), max(hi, d)
	}
	step := newStepRecord(lo, hi)
	reset := a.fumble == accFumbleReset
	return mechanics.Map{X: s.roll(o), Name: "increment", F: func(r int) int {
		return step.code(a.increment(s.total(r)-tn), reset && rollFumble(r))
	}}, step
}

func accumulated() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      accID,
		Summary: "accumulated success: add each test's MoS until the running total reaches Q",
		Doc: "A long task has a MoS requirement Q. Each test adds its MoS when it succeeds and subtracts when it fails; S_t = max(0, S_{t−1} + Δ_t) " +
			"by default, absorbed when S_t ≥ Q. Solved as an absorbing Markov chain: the number of tests to finish (PMF, S(t)), and " +
			"for an unlimited horizon the mean from N = (I − Q)⁻¹.",
		Params:  []mechanics.Param{pQ, pSkill, pAttr, pModifier, pTN, pHorizon, pLower},
		Options: append(mechanics.Options(optCritCount, optFumbleCrit, optUnskilledCrit), accOptions...),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a := accOptsOf(c)
			k, step := testKernel(c, c.Int("modifier"), a)
			p, _ := progressChain(c.Int("q"), c.Int("lower_limit"), c.Int("horizon"), a, k, step)
			return mechanics.ProcessSpec(p), nil
		},
	}
}

func actingFast() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.acting_fast",
		Summary: "acting fast: ½, ¼, ⅛, 1/16 of the time per test at −1…−4 — is hurrying worth it?",
		Doc: "An extended action can be done in 2^−k of the time at modifier −k (k = 0…4). Combined with ag.accumulated: wall-clock time " +
			"= tests × base time × 2^−k; the events give P(finishing within a deadline).",
		Params: []mechanics.Param{ip("k", 1, 0, 4, "hurry level: 2^−k of the time per test at −k"), ip("base_minutes", 60, 1, 100000, "time of one test at normal speed, in minutes"),
			ip("deadline_minutes", 240, 1, 10000000, "the deadline, in minutes"), pQ, pSkill, pAttr, pModifier, pTN, pHorizon, pLower},
		Options: append(mechanics.Options(optCritCount, optFumbleCrit, optUnskilledCrit), accOptions...),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			a := accOptsOf(c)
			k := c.Int("k")
			kern, step := testKernel(c, c.Int("modifier")-k, a)
			p, done := progressChain(c.Int("q"), c.Int("lower_limit"), c.Int("horizon"), a, kern, step)
			spec := mechanics.ProcessSpec(p)
			// One test takes base × 60 / 2^k seconds (exact: a multiple of
			// 1/4 s); elapsed time is rounded half up, as math.Round does
			// for these non-negative values.
			perTest := expr.Q(int64(c.Int("base_minutes"))*60, int64(1)<<k)
			elapsed := expr.Mul(expr.F("time"), perTest)
			deadline := expr.K(int64(c.Int("deadline_minutes")) * 60)
			el := p.TimeVar("elapsed_s", "tests × base time × 2^−k, in seconds (rounded)", expr.Floor(expr.Add(elapsed, expr.Q(1, 2))))
			el.Unit = "s"
			spec.Vars = append(spec.Vars, el)
			spec.Events = append([]mechanics.Event{{Name: "done_by_deadline", Doc: "done within the horizon, and tests × base time × 2^−k ≤ the deadline",
				Expr: expr.And(p.In(done), expr.Le(expr.F("time"), expr.K(int64(p.Horizon))), expr.Le(elapsed, deadline))}}, spec.Events...)
			return spec, nil
		},
	}
}

var optDispelResist = mechanics.SwitchOf("ag.magic.dispel", "resist_roll",
	"psyche_attribute_roll: the caster's two dice + Psyche; fixed_psyche_tn: a fixed TN equal to the caster's Psyche", resistPsycheRoll, resistFixedTN)

func dispel() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "ag.magic.dispel",
		Summary: "dispelling: opposed Restoration + Psyche tests deal MoS damage to a spell until it exceeds 5",
		Doc: "Restoration + Psyche opposed by the original caster's Psyche; each success deals its MoS as damage to the spell, failures " +
			"do not heal it; the spell ends once its damage exceeds 5 (ag.accumulated with Q = 6 and increments max(0, MoS)).",
		Params: []mechanics.Param{named(pSkill, "skill", "dispeller's Restoration skill"), named(pAttr, "attribute", "dispeller's Psyche"), pModifier,
			ip("caster_psyche", 2, 0, 20, "the original caster's Psyche"), ip("horizon", 30, 1, 1000, "attempts simulated at most")},
		Options: mechanics.Options(optCritCount, optFumbleCrit, optUnskilledCrit, optDispelResist),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			o := coreOptionsOf(c)
			a := sideOf(c, "")
			psy := c.Int("caster_psyche")
			step := newStepRecord(0, a.maxTotal())
			var kern mechanics.Node
			if optDispelResist.Of(c) == resistFixedTN {
				kern = mechanics.Map{X: a.roll(o), Name: "damage", F: func(x int) int { return step.code(max(0, a.total(x)-psy), false) }}
			} else {
				kern = mechanics.Combine{X: a.roll(o), Y: Pool(2, o), Name: "damage", F: func(x, y int) int {
					return step.code(max(0, a.total(x)-rollTotal(y, psy, 0)), false)
				}}
			}
			p, done := progressChain(6, 0, c.Int("horizon"), accOpts{}, kern, step)
			p.States[done] = "dispelled"
			return mechanics.ProcessSpec(p), nil
		},
	}
}

var (
	optChaseFumble = mechanics.SwitchOf("ag.chase", "fumble",
		"speed_plus_result_minus_d6: a fumble loses 1d6 m from speed + result; speed_minus_d6: the fumble replaces the bonus",
		chaseFumbleSpeedPlusResult, chaseFumbleSpeedOnly)
	optWinnerBonus = mechanics.SwitchOf("ag.chase_obstacle", "winner_bonus",
		"own_mos_vs_obstacle: the party with the larger MoS against the obstacle adds max(0, MoS); opposed_margin: a party with MoS < 1 loses the round, the winner adds T_w − T_l",
		winnerOwnMoS, winnerOpposedMargin)
)

// runner is one party of a chase: its Athletics + Body roll and base speed.
type runner struct {
	side
	speed int
}

// distance is the runner's distance this round (docs/mechanics.md#ag-chase):
// speed + T, or on a fumble speed + T − d6 (speed − d6 with
// opt.fumble=speed_minus_d6), never below 0. It yields metres.
func (r runner) distance(o CoreOptions, fumble chaseFumble) mechanics.Node {
	return mechanics.Combine{X: r.roll(o), Y: mechanics.D(6), Name: "distance", F: func(x, d6 int) int {
		if !rollFumble(x) {
			return r.speed + r.total(x)
		}
		if fumble == chaseFumbleSpeedOnly {
			return max(0, r.speed-d6)
		}
		return max(0, r.speed+r.total(x)-d6)
	}}
}

// maxDistance bounds distance.
func (r runner) maxDistance() int { return r.speed + r.maxTotal() }

// obstacleRound is a runner's round with an obstacle: its distance and its
// crossing roll against the obstacle TN. It is the value of one side of the
// obstacle kernel.
type obstacleRound struct {
	rec               *mechanics.Record
	dist, mos, fumble mechanics.Slot
}

func newObstacleRound(r runner, tn int) obstacleRound {
	rec := mechanics.NewRecord(
		mechanics.Int("distance", 0, r.maxDistance(), "the round's distance before the obstacle (m)"),
		mechanics.Int("mos", -tn, r.maxTotal()-tn, "the crossing roll's MoS against the obstacle TN"),
		mechanics.Flag("fumble", "the crossing roll fumbled: the round is lost"),
	)
	return obstacleRound{rec, rec.Slot("distance"), rec.Slot("mos"), rec.Slot("fumble")}
}

// obstacleValues are the fields of one obstacleRound code.
type obstacleValues struct {
	dist, mos int
	fumble    bool
}

// values decodes every code of the record when the model is built.
func (or obstacleRound) values() []obstacleValues {
	out := make([]obstacleValues, or.rec.Size())
	for code := range out {
		out[code] = obstacleValues{or.dist.Get(code), or.mos.Get(code), or.fumble.Bool(code)}
	}
	return out
}

func chase(obstacles bool) *mechanics.Mechanic {
	id := "ag.chase"
	opts := []mechanics.Declared{optCritCount, optFumbleCrit, optUnskilledCrit, optChaseFumble}
	doc := "Each round each runner makes Athletics + Body and adds the result to its speed; a fumble loses 1d6 m. Gap_{t+1} = Gap_t + d_q − d_p; " +
		"caught at gap ≤ 0, escaped at gap ≥ G, undecided after R_max rounds (our end conditions). An absorbing chain on the integer gap."
	summary := "foot chase: speed + Athletics + Body per round; caught, escaped or still running"
	if obstacles {
		id = "ag.chase_obstacle"
		opts = append(opts, optWinnerBonus)
		doc += " In obstacle rounds each party also rolls Athletics + Body against the obstacle; the better one adds its margin to the round's distance, and a fumble on it loses the round."
		summary = "foot chase with obstacles every k rounds (extra opposed crossing test)"
	}
	return &mechanics.Mechanic{
		ID:      id,
		Summary: summary,
		Doc:     doc,
		Params:  chaseParams(obstacles),
		Options: mechanics.Options(opts...),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			p := &mechanics.Process{Horizon: c.Int("rounds"), TimeUnit: "round", Homogeneous: true}
			setChaseKernels(p, c, obstacles)
			setGapStates(p, c.Int("gap"), c.Int("escape_gap"))
			return mechanics.ProcessSpec(p), nil
		},
	}
}

// chaseParams are the parameters of ag.chase, and with obstacles those of
// ag.chase_obstacle.
func chaseParams(obstacles bool) []mechanics.Param {
	ps := []mechanics.Param{
		ip("quarry_speed", 20, 0, 200, "quarry's base speed, m/round [placeholder: walk 10 / run 20 / sprint 30]"),
		ip("pursuer_speed", 20, 0, 200, "pursuer's base speed, m/round"),
	}
	ps = append(ps, sideParams("quarry_", "quarry's Athletics + Body", 2, 2)...)
	ps = append(ps, sideParams("pursuer_", "pursuer's Athletics + Body", 2, 2)...)
	ps = append(ps, ip("gap", 10, 0, 500, "initial gap g₀ in metres (sweep 0–50)"), ip("escape_gap", 30, 1, 500, "the quarry escapes at a gap of G metres (sweep 10–100)"),
		ip("rounds", 10, 1, 200, "round limit R_max (sweep 1–30)"))
	if obstacles {
		ps = append(ps, ip("obstacle_tn", 4, 1, 20, "obstacle TN: low fence 2, bench or bins 4, tall fence 6"), ip("obstacle_every", 3, 1, 200, "an obstacle every k-th round (1 = every round)"))
	}
	return ps
}

// setChaseKernels gives the chase p its kernels, the change of the gap in
// one round, d_q − d_p: the same every round, or with obstacles one for
// obstacle rounds and one for the others (each computed once).
func setChaseKernels(p *mechanics.Process, c mechanics.Config, obstacles bool) {
	o := coreOptionsOf(c)
	q := runner{sideOf(c, "quarry_"), c.Int("quarry_speed")}
	pu := runner{sideOf(c, "pursuer_"), c.Int("pursuer_speed")}
	fumble := optChaseFumble.Of(c)
	regular := mechanics.Combine{X: q.distance(o, fumble), Y: pu.distance(o, fumble), Name: "gap change", F: func(a, b int) int { return a - b }}
	p.Kernel = func(int) mechanics.Node { return regular }
	if !obstacles {
		return
	}
	every := c.Int("obstacle_every")
	obst := obstacleKernel(q, pu, c.Int("obstacle_tn"), optWinnerBonus.Of(c), o, fumble)
	if every == 1 {
		// Every round has an obstacle: one kernel for all.
		p.Kernel = func(int) mechanics.Node { return obst }
		return
	}
	// The key of every round is listed up front.
	keys := make([]int, p.Horizon+1)
	for t := every; t <= p.Horizon; t += every {
		keys[t] = 1
	}
	p.Homogeneous = false
	p.Kernel = func(t int) mechanics.Node {
		if keys[t] == 1 {
			return obst
		}
		return regular
	}
	p.KernelKey = func(t int) int { return keys[t] }
}

// setGapStates gives the chase p its states — the gap in metres, 1 ≤ gap
// < G (state gap−1), then caught and escaped — its start at the gap g0,
// and its move by the kernel's change of the gap.
func setGapStates(p *mechanics.Process, g0, G int) {
	for gap := 1; gap < G; gap++ {
		p.Add(false, fmt.Sprintf("gap %d", gap))
	}
	caught := p.Add(true, "caught")
	escaped := p.Add(true, "escaped")
	at := func(g int) int {
		switch {
		case g <= 0:
			return caught
		case g >= G:
			return escaped
		}
		return g - 1
	}
	p.Start = at(g0)
	// Move is at(s + 1 + x), written out: it runs on every step.
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
}

// obstacleKernel is the change of the gap in an obstacle round
// (docs/mechanics.md#ag-chase_obstacle): both runners' distances, then
// their crossing rolls against the obstacle TN. A fumbled crossing loses
// the round (distance 0). With own_mos_vs_obstacle
// the larger MoS adds max(0, MoS); with opposed_margin a MoS < 1 loses the
// round and the winner adds T_w − T_l.
func obstacleKernel(q, pu runner, tn int, bonus winnerBonus, o CoreOptions, fumble chaseFumble) mechanics.Node {
	rq, rp := newObstacleRound(q, tn), newObstacleRound(pu, tn)
	round := func(r runner, or obstacleRound) mechanics.Node {
		start := or.rec.Start()
		return mechanics.Combine{X: r.distance(o, fumble), Y: r.roll(o), Name: "obstacle", F: func(d, x int) int {
			return or.fumble.SetBool(or.mos.Set(or.dist.Set(start, d), r.total(x)-tn), rollFumble(x))
		}}
	}
	// This Combine runs on every obstacle round of every trial (the two
	// sides are too many dice for one table): it reads the fields from
	// tables of the side records.
	qv, pv := rq.values(), rp.values()
	return mechanics.Combine{X: round(q, rq), Y: round(pu, rp), Name: "obstacle round", F: func(a, b int) int {
		da, db := qv[a].dist, pv[b].dist
		ma, mb := qv[a].mos, pv[b].mos
		if bonus == winnerOpposedMargin {
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
		if qv[a].fumble {
			da = 0
		}
		if pv[b].fumble {
			db = 0
		}
		return da - db
	}}
}

// tabulateMove sets p.Move to a table of move(s, x) over every state and
// every kernel value x in [lo, hi], built once when the model is built: a
// step then costs one lookup. Absorbing states map to themselves (the
// engines never move from them). Move panics on a kernel value outside
// [lo, hi].
func tabulateMove(p *mechanics.Process, lo, hi int, move func(s, x int) int) {
	w := hi - lo + 1
	tab := make([]int32, len(p.States)*w)
	for s := range p.States {
		for x := lo; x <= hi; x++ {
			next := s
			if !p.Absorbing[s] {
				next = move(s, x)
			}
			tab[s*w+x-lo] = int32(next)
		}
	}
	p.Move = func(_, s, x int) int {
		if uint(x-lo) >= uint(w) {
			panic(fmt.Sprintf("ag: kernel value %d outside its declared range [%d, %d]", x, lo, hi))
		}
		return int(tab[s*w+x-lo])
	}
}
