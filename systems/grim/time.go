package grim

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// Hazards and states that unfold over time: falling, burning, drowning,
// dying, burnout and unstable items.

// timeMechanics are the mechanics declared in time.go.
func timeMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{fall(), burning(), drowning(), dying(), burnout(), instability()}
}

// fallRow is one row of the falling table (docs/mechanics.md#grim-fall):
// the distance (exact: 4.5 m is 9/2), the damage dice and the break-fall TN.
type fallRow struct {
	dist       expr.Rat
	n, die, tn int
}

var fallRows = []fallRow{
	{expr.Frac(9, 2), 1, 6, 10}, {expr.Int(9), 2, 8, 13}, {expr.Int(18), 2, 12, 16}, {expr.Int(45), 3, 20, 19},
	{expr.Int(81), 4, 20, 22}, {expr.Int(126), 5, 20, 25}, {expr.Int(180), 6, 20, 28},
}

func (r fallRow) label() string {
	return fmt.Sprintf("%s m: %dd%d, TN %d", metres(r.dist), r.n, r.die, r.tn)
}

// short is the row as the summary gives it: "4.5 m d6".
func (r fallRow) short() string { return metres(r.dist) + " m " + r.dice() }

// dice are the row's dice: d6, 2d8.
func (r fallRow) dice() string {
	if r.n == 1 {
		return fmt.Sprintf("d%d", r.die)
	}
	return fmt.Sprintf("%dd%d", r.n, r.die)
}

// metres writes a distance of the falling rules: 4.5, 45.
func metres(d expr.Rat) string { return fmt.Sprintf("%g", d.Float()) }

var (
	optSurface  = mechanics.ChoiceOf("grim.fall", "surface", "hard, soft or water", surfaceHard, surfaceSoft, surfaceWater)
	optFallRow  = mechanics.SwitchOf("grim.fall", "row", "floor_row: the largest listed distance ≤ the fall; nearest_row; interpolate_dice: a mixture of the two neighbouring rows weighted by distance", floorRow, nearestRow, interpolateDice)
	optBelow45  = mechanics.SwitchOf("grim.fall", "below_4_5m", "no_damage or first_row", below45NoDamage, below45FirstRow)
	optFallHalf = mechanics.SwitchOf("grim.fall", "half", "floor or ceil when halving", kit.Floor, kit.Ceil)
	optFallArm  = mechanics.SwitchOf("grim.fall", "armour", "no: armour does not reduce falling damage", no)
)

// The Condition below which a character is dead (falling, drowning, dying).
const deadBelow = -10

// Numbers of the drowning rules: the MND roll's TN that keeps a drowning
// character conscious, and the damage a round once unconscious underwater.
const (
	drowningTN     = 11
	drowningDamage = 6
)

// reviveTN is the base of the COR roll that revives the dying: vs
// reviveTN + |c|.
const reviveTN = 10

// Thresholds of the falling rules, exact.
var (
	softLimit      = expr.Int(45)    // soft landings break falls below 45 m
	deliberateJump = expr.Int(9)     // a broken deliberate jump from 9 m or lower does no damage
	halfFirstRow   = expr.Frac(9, 4) // nearest_row: the first row is nearest from 2.25 m
	noRow          = 0               // the "row" label of a fall too short to do damage
	fallMaxDice    = 6 * 20          // 6d20
	fallRowLabels  = rowLabels()
)

// rowLabels names the rows of the fall table, after "none".
func rowLabels() []string {
	labels := []string{"none"}
	for _, r := range fallRows {
		labels = append(labels, r.label())
	}
	return labels
}

// fallDice is the dice node of the falling table's row choice for a fall of h metres:
// it yields the record with the row (1-based; 0 none) and its dice sum.
func fallDice(rec *mechanics.Record, h expr.Rat, row rowRule, below below45) mechanics.Node {
	sRow, sDice := rec.Slot("row"), rec.Slot("dice")
	start := rec.Start()
	rowNode := func(i int) mechanics.Node {
		r := fallRows[i]
		return mechanics.Map{X: mechanics.Repeat{X: mechanics.D(r.die), N: r.n}, Name: "row " + r.label(), F: func(d int) int {
			return sDice.Set(sRow.Set(start, i+1), d)
		}}
	}
	lo := -1 // the largest row whose distance the fall reaches
	for i, r := range fallRows {
		if h.Cmp(r.dist) >= 0 {
			lo = i
		}
	}
	switch {
	case lo < 0:
		// Below 4.5 m: no damage, or the first row (nearest_row rounds
		// falls of 2.25 m or more up to it).
		if below == below45NoDamage && (row != nearestRow || h.Cmp(halfFirstRow) < 0) {
			return mechanics.Const{V: start}
		}
		return rowNode(0)
	case lo+1 == len(fallRows):
		return rowNode(lo) // no increase past the last row
	}
	next, this := fallRows[lo+1].dist, fallRows[lo].dist
	switch row {
	case nearestRow:
		if next.Sub(h).Cmp(h.Sub(this)) < 0 {
			return rowNode(lo + 1)
		}
	case interpolateDice:
		// The upper row's weight is (h − lower)/(upper − lower), exactly.
		w, _ := h.Sub(this).Div(next.Sub(this))
		if w.N > 0 {
			return mechanics.Mixture{Weights: []int64{w.D - w.N, w.N}, Of: []mechanics.Node{rowNode(lo), rowNode(lo + 1)}}
		}
	}
	return rowNode(lo)
}

func fall() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.fall",
		Summary: fmt.Sprintf("falling table (%s … %s) with an AGL break-fall for half damage", fallRows[0].short(), fallRows[len(fallRows)-1].short()),
		Doc: fmt.Sprintf("Falls deal the table's dice; an AGL roll vs the row's TN breaks the fall: half damage, no knock-down. A deliberate jump from "+
			"%s m or lower takes no damage if broken. Under %[2]s m a soft landing (bush, loose sand, dumpster, water) breaks the fall "+
			"automatically; at %[2]s m or more only a soft surface allows a roll at all and water no longer counts as soft. No increase past "+
			"%[3]s m.", metres(deliberateJump), metres(softLimit), metres(fallRows[len(fallRows)-1].dist)),
		Params: []mechanics.Param{{Name: "distance", Default: 18, Min: 0, Max: 1000, Real: true, Doc: "metres fallen (sweep 0–250)"},
			attr("agl", "AGL", 3), pMod, ip("intentional", 0, 0, 1, "1: a deliberate jump"), ip("condition", 15, 1, 200, "Condition (sweep 5–40)")},
		Options: mechanics.Options(optSurface, optFallRow, optBelow45, optFallHalf, optFallArm),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			h := c.Rat("distance")
			agl, m, cond, intentional := c.Int("agl"), c.Int("modifier"), c.Int("condition"), c.Int("intentional") == 1
			surface, row, below, half := optSurface.Of(c), optFallRow.Of(c), optBelow45.Of(c), optFallHalf.Of(c)
			_ = optFallArm.Of(c) // its only value: armour does not reduce falling damage

			rec := mechanics.NewRecord(
				mechanics.Enum("row", "the table row that sets the dice and the break-fall TN (none: too short a fall to hurt)", fallRowLabels...),
				mechanics.Int("dice", 0, fallMaxDice, "the row's damage dice"),
				kit.Natural("natural", 20))
			sNat := rec.Slot("natural")
			out := mechanics.Combine{X: fallDice(rec, h, row, below), Y: d20, Name: "fall", F: func(code, n int) int { return sNat.Set(code, n) }}

			// Broken: automatically on a soft landing below 45 m; by an AGL
			// roll vs the row's TN below 45 m, or on a soft surface above.
			rowF, dice := field("row"), field("dice")
			var broken expr.Expr = num(0)
			switch {
			case surface != surfaceHard && h.Cmp(softLimit) < 0:
				broken = num(1)
			case h.Cmp(softLimit) < 0 || surface == surfaceSoft:
				var byRow []expr.Expr
				for i, r := range fallRows {
					byRow = append(byRow, expr.And(expr.Eq(rowF, num(i+1)), coreCheck("natural", agl+m, r.tn).Success()))
				}
				broken = expr.Or(byRow...)
			}
			broken = expr.And(expr.Ne(rowF, num(noRow)), broken)
			halved := round(half, expr.Mul(dice, expr.Q(1, 2)))
			if intentional && h.Cmp(deliberateJump) <= 0 {
				halved = num(0)
			}
			dmg := expr.Cond(broken, halved, dice)
			after := expr.Sub(num(cond), dmg)
			spec := &mechanics.Spec{Record: rec, Outcome: out}
			spec.Var("damage", "falling damage: the row's dice, halved when the fall is broken", dmg).
				Var("condition_after", "Condition after the fall", after).
				Event("broken", "the fall is broken (half damage, no knock-down)", broken).
				Event("down", "Condition ≤ 0 after the fall", expr.Le(after, num(0))).
				Event("dead", "Condition < "+kit.Num(deadBelow)+" after the fall", expr.Lt(after, num(deadBelow)))
			return spec, nil
		},
	}
}

func burning() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.burning",
		Summary: "burning: 2d6 at the start of each turn until the flames are out",
		Doc: "A burning character takes 2d6 at the start of each of its turns until it has left the area and put out the flames. With " +
			"escape_percent = 0 it burns for exactly `turns` turns; otherwise after each turn's damage it gets out with that chance " +
			"(the seed gives no procedure). Heat is not physical: armour does not apply.",
		Params: []mechanics.Param{ip("turns", 3, 1, 100, "turns burning (the horizon)"), ip("escape_percent", 0, 0, 100, "percent chance per turn of escaping and putting the fire out (0 = burn all turns)"),
			ip("condition", 20, 1, 300, "Condition")},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			C, e := c.Int("condition"), c.Int("escape_percent")
			p := &mechanics.Process{Homogeneous: true, Horizon: c.Int("turns"), TimeUnit: "turn"}
			onFire := mechanics.NewRecord(mechanics.Enum("status", "on fire or out of it", "burning"), mechanics.Int("damage", 0, C-1, "fire damage so far"))
			outRec := mechanics.NewRecord(mechanics.Enum("status", "on fire or out of it", "escaped"), mechanics.Int("damage", 0, C-1, "fire damage taken"))
			burn, out := addBlock(p, false, onFire), addBlock(p, true, outRec)
			down := p.Add(true, "down")
			sBurn, sOut := onFire.Slot("damage"), outRec.Slot("damage")
			p.Start = burn.state(onFire.Start())

			turn := mechanics.NewRecord(mechanics.Int("fire", 2, 12, "this turn's 2d6"), mechanics.Flag("escapes", "gets out and puts the flames out after this turn's damage"))
			sFire, sEsc := turn.Slot("fire"), turn.Slot("escapes")
			kernel := kit.Roll(turn, part{Field: "fire", Node: mechanics.Repeat{X: mechanics.D(6), N: 2}}, part{Field: "escapes", Node: coin(e)})
			p.Kernel = func(int) mechanics.Node { return kernel }
			p.Move = func(_, s, x int) int {
				code, ok := burn.code(s)
				if !ok {
					bug("burning: a step from state %d", s)
				}
				d := sBurn.Get(code) + sFire.Get(x)
				switch {
				case d >= C:
					return down
				case sEsc.Bool(x):
					return out.state(sOut.Set(outRec.Start(), d))
				}
				return burn.state(sBurn.Set(code, d))
			}
			damage := p.StateTable(func(s int) int {
				if code, ok := burn.code(s); ok {
					return sBurn.Get(code)
				}
				if code, ok := out.code(s); ok {
					return sOut.Get(code)
				}
				return C // down
			})
			spec := &mechanics.Spec{Process: p, Record: p.Record()}
			spec.Vars = []mechanics.Var{
				{Name: "damage", Doc: "total fire damage (the Condition when down)", Expr: damage},
				p.TimeVar("time", "turn of going down or escaping", field("time")),
			}
			spec.Event("down", "the fire takes the Condition to 0", p.In(down)).
				Event("escaped", "out of the fire before going down", p.StateSet(out.has)).
				Event("still_burning", "burning when the turns run out", p.StateSet(burn.has))
			return spec, nil
		},
	}
}

var (
	optDyingTick  = mechanics.SwitchOf("grim.drowning", "dying_tick", "stacks: the −1 per turn of dying adds to the drowning damage once Condition ≤ 0; drowning_only", tickStacks, tickDrowningOnly)
	optEscalation = mechanics.SwitchOf("grim.drowning", "escalation", "none: the MND roll does not get harder; minus_1_per_round", escalationNone, escalationMinus1PerRound)
)

// Drowning's breath: breathMinutes + TOG minutes of roundsPerMinute
// rounds each.
const (
	breathMinutes   = 2
	roundsPerMinute = 6
)

func drowning() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.drowning",
		Summary: fmt.Sprintf("drowning: breath for %d + TOG minutes, then a MND roll vs TN %d each round to stay conscious, %d damage a round after", breathMinutes, drowningTN, drowningDamage),
		Doc: fmt.Sprintf("Breath lasts %d minutes + 1 per TOG point (%d rounds a minute). Then conflict rounds: a MND roll vs TN %d each round keeps the character conscious; an "+
			"unconscious character underwater takes %d damage per round, plus the dying tick (−1 a turn) once Condition ≤ 0 by default; "+
			"dead below %s. The countdown after the blackout is deterministic. The round counts start when the breath runs out, except underwater_rounds, which adds the breath.", breathMinutes, roundsPerMinute, drowningTN, drowningDamage, kit.Num(deadBelow)),
		Params: []mechanics.Param{attr("tog", fmt.Sprintf("TOG (breath B = max(0, %d + TOG) minutes)", breathMinutes), 2), attr("mnd", "MND", 2), pMod,
			ip("condition", 20, 1, 300, "Condition"), ip("rescue_round", 5, 0, 1000, "rescue arrives after this many rounds past the breath"),
			ip("horizon", 60, 1, 5000, "rounds simulated at most")},
		Options: mechanics.Options(optDyingTick, optEscalation),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			mnd, m, rescue := c.Int("mnd"), c.Int("modifier"), c.Int("rescue_round")
			esc := optEscalation.Of(c) == escalationMinus1PerRound
			stacks := optDyingTick.Of(c) == tickStacks
			// Rounds from blackout to death (Condition < deadBelow).
			cond, k := c.Int("condition"), 0
			for cond >= deadBelow {
				if cond <= 0 && stacks {
					cond--
				}
				cond -= drowningDamage
				k++
			}
			p := &mechanics.Process{Horizon: c.Int("horizon"), TimeUnit: "round", Homogeneous: !esc}
			conscious := p.Add(false, "conscious")
			blackout := p.Add(true, "blackout")
			// The die is the same every round; with escalation the round
			// number lowers the roll (in Move), so the one kernel is shared.
			p.Kernel = func(int) mechanics.Node { return d20 }
			p.KernelKey = func(int) int { return 0 }
			stay := coreCheck("", mnd+m, drowningTN)
			p.Move = func(t, _, n int) int {
				chk := stay
				if esc {
					chk.Bonus -= t - 1
				}
				if chk.Holds(n) {
					return conscious
				}
				return blackout
			}
			spec := mechanics.ProcessSpec(p)
			t := field("time")
			breath := roundsPerMinute * max(0, breathMinutes+c.Int("tog"))
			spec.Vars = append(spec.Vars,
				p.TimeVar("rounds_conscious", "rounds passed before the blackout", expr.Sub(t, num(1))),
				p.TimeVar("underwater_rounds", fmt.Sprintf("rounds under water before the blackout: the breath's %d a minute for B = max(0, %d + TOG) minutes, then the rounds conscious", roundsPerMinute, breathMinutes),
					expr.Add(t, num(breath-1))),
				p.TimeVar("death_round", "round of death: blackout + the deterministic countdown", expr.Add(t, num(k))))
			spec.Event("alive_at_rescue", "death comes after the rescue round", expr.Gt(expr.Add(t, num(k)), num(rescue))).
				Event("conscious_at_rescue", "the blackout comes after the rescue round", expr.Gt(t, num(rescue)))
			return spec, nil
		},
	}
}

// pKnowledgeTN is the TN of the helper's knowledge roll (grim.dying).
var pKnowledgeTN = ip("knowledge_tn", 11, 1, 40, "TN of the knowledge roll")

var (
	optCorTN         = mechanics.SwitchOf("grim.dying", "cor_tn", fmt.Sprintf("10_plus_abs_c: the COR TN is %d + |c|", reviveTN), corTN10PlusAbsC)
	optIntAs         = mechanics.SwitchOf("grim.dying", "int_as", "MND: INT rolls use MND", intAsMND)
	optKnowledgeRoll = mechanics.SwitchOf("grim.dying", "knowledge_roll", "once: one knowledge roll decides whether the helper can try at all; each_attempt", knowledgeOnce, knowledgeEachAttempt)
)

// What a helper knows about treating the dying.
const (
	canTreat = iota
	cannotTreat
	unknownYet
)

func dying() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.dying",
		Summary: fmt.Sprintf("dying: Condition −1 a turn from ≤ 0 to dead below %s; a helper's COR roll vs %d + |c| revives", kit.Num(deadBelow), reviveTN),
		Doc: fmt.Sprintf("At Condition 0 or below the character is dying: −1 each turn, dead below %[1]s. A helper needs a medkit or training (or an "+
			"MND roll, TN knowledge_tn, %[2]s by default) and a COR roll vs %[3]d + |c| to revive; a revived character has Condition 1 and gains a burnout "+
			"level. An absorbing Markov chain over c ∈ {0…%[1]s}, revived and dead absorbing.", kit.Num(deadBelow), mechanics.FormatNum(pKnowledgeTN.Default), reviveTN),
		Params: []mechanics.Param{ip("condition", 0, deadBelow, 0, "starting Condition c₀"), attr("helper_cor", "helper's COR", 2),
			ip("medkit", 1, 0, 1, "1: the helper has a medkit or medical training (no knowledge roll)"), attr("helper_mnd", "helper's MND (knowledge roll)", 1),
			pKnowledgeTN, ip("attempts", 1, 1, 2, "stabilisation attempts per turn")},
		Options: mechanics.Options(optCorTN, optIntAs, optKnowledgeRoll),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			medkit, each, tries := c.Int("medkit") == 1, optKnowledgeRoll.Of(c) == knowledgeEachAttempt, c.Int("attempts")
			_, _ = optCorTN.Of(c), optIntAs.Of(c) // their only values: COR vs reviveTN + |c|, the knowledge roll on MND
			know := coreCheck("", c.Int("helper_mnd"), c.Int("knowledge_tn"))
			// The COR roll vs reviveTN + |c| for c = 0…deadBelow.
			var cor [1 - deadBelow]kit.Check
			for depth := range cor {
				cor[depth] = coreCheck("", c.Int("helper_cor"), reviveTN+depth)
			}

			p := &mechanics.Process{Homogeneous: true, Horizon: 20, TimeUnit: "turn"}
			rec := mechanics.NewRecord(mechanics.Int("condition", deadBelow, 0, "Condition c: −1 a turn, dead below "+kit.Num(deadBelow)),
				mechanics.Enum("knowledge", "whether the helper knows how to treat", "can treat", "cannot treat", "unknown"))
			sCond, sKnow := rec.Slot("condition"), rec.Slot("knowledge")
			alive := addBlock(p, false, rec)
			revived := p.Add(true, "revived")
			dead := p.Add(true, "dead")
			first := canTreat // a medkit or training; or the knowledge rolled with every attempt
			if !medkit && !each {
				first = unknownYet // one knowledge roll, on the first turn
			}
			p.Start = alive.state(sKnow.Set(sCond.Set(rec.Start(), c.Int("condition")), first))

			// One turn's rolls: the knowledge roll (the one roll of
			// knowledge_roll=once, or the first attempt's), the COR roll, and
			// the second attempt's knowledge and COR rolls.
			turn := mechanics.NewRecord(mechanics.Flag("knows", "the (first) knowledge roll succeeds"), kit.Natural("cor", 20),
				mechanics.Flag("knows_2", "the second attempt's knowledge roll succeeds"), kit.Natural("cor_2", 20))
			sKnows, sCor, sKnows2, sCor2 := turn.Slot("knows"), turn.Slot("cor"), turn.Slot("knows_2"), turn.Slot("cor_2")
			knowNode := mechanics.Map{X: d20, Name: "knowledge", F: func(n int) int {
				if know.Holds(n) {
					return 1
				}
				return 0
			}}
			sure := mechanics.Const{V: 1}
			parts := []part{{Field: "knows", Node: sure}, {Field: "cor", Node: d20}, {Field: "knows_2", Node: sure}}
			if !medkit {
				parts[0].Node = knowNode
				if each && tries == 2 {
					parts[2].Node = knowNode
				}
			}
			if tries == 2 {
				parts = append(parts, part{Field: "cor_2", Node: d20})
			}
			kernel := kit.Roll(turn, parts...)
			perAttempt := each && !medkit // each attempt needs its own knowledge roll
			p.Kernel = func(int) mechanics.Node { return kernel }
			p.Move = func(_, s, x int) int {
				code, ok := alive.code(s)
				if !ok {
					bug("dying: a step from state %d", s)
				}
				cc, kn := sCond.Get(code), sKnow.Get(code)
				chk := cor[-cc]
				ok1 := chk.Holds(sCor.Get(x)) && (!perAttempt || sKnows.Bool(x))
				ok2 := tries == 2 && chk.Holds(sCor2.Get(x)) && (!perAttempt || sKnows2.Bool(x))
				success := ok1 || ok2
				switch kn {
				case unknownYet:
					if sKnows.Bool(x) {
						kn = canTreat
					} else {
						kn, success = cannotTreat, false
					}
				case cannotTreat:
					success = false
				}
				switch {
				case success:
					return revived
				case cc-1 < deadBelow:
					return dead
				}
				return alive.state(sKnow.Set(sCond.Set(code, cc-1), kn))
			}
			return mechanics.ProcessSpec(p), nil
		},
	}
}

func burnout() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.burnout",
		Summary: "burnout levels over days: +1 a day while the cause persists, −1 per long rest once it is gone; level 4 is dying",
		Doc: "While the cause persists the level rises by one per day; it is dealt with with probability r each day. Once it is gone, a " +
			"long rest (available with probability ℓ a day) removes one level. Level 1: −1 to all rolls; 2: −3, max Condition 80%; 3: −5, " +
			"max Condition 50%; 4: Condition 0 and dying (absorbing). An absorbing Markov chain on (level, cause active), one step a day.",
		Params: []mechanics.Param{ip("start_level", 0, 0, 3, "starting burnout level"), ip("resolve_percent", 30, 0, 100, "r: percent chance per day that the cause is dealt with"),
			ip("rest_percent", 80, 0, 100, "ℓ: percent chance per day of a long rest once the cause is gone"), ip("days", 30, 1, 1000, "horizon in days")},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			p := &mechanics.Process{Homogeneous: true, Horizon: c.Int("days"), TimeUnit: "day"}
			activeRec := mechanics.NewRecord(mechanics.Int("level", 0, 3, "burnout level"), mechanics.Enum("cause", "whether the cause persists", "active"))
			goneRec := mechanics.NewRecord(mechanics.Int("level", 1, 3, "burnout level"), mechanics.Enum("cause", "whether the cause persists", "gone"))
			active, gone := addBlock(p, false, activeRec), addBlock(p, false, goneRec)
			dying := p.Add(true, "level 4 (dying)")
			recovered := p.Add(true, "recovered")
			sActive, sGone := activeRec.Slot("level"), goneRec.Slot("level")
			p.Start = active.state(sActive.Set(activeRec.Start(), c.Int("start_level")))

			day := mechanics.NewRecord(mechanics.Flag("resolved", "the cause is dealt with today"), mechanics.Flag("rested", "a long rest is had today"))
			sResolved, sRested := day.Slot("resolved"), day.Slot("rested")
			kernel := kit.Roll(day, part{Field: "resolved", Node: coin(c.Int("resolve_percent"))}, part{Field: "rested", Node: coin(c.Int("rest_percent"))})
			p.Kernel = func(int) mechanics.Node { return kernel }
			p.Move = func(_, s, x int) int {
				if code, ok := active.code(s); ok { // +1 today, then the cause may be dealt with
					lv := sActive.Get(code) + 1
					switch {
					case lv >= 4:
						return dying
					case sResolved.Bool(x):
						return gone.state(sGone.Set(goneRec.Start(), lv))
					}
					return active.state(sActive.Set(code, lv))
				}
				code, ok := gone.code(s)
				if !ok {
					bug("burnout: a step from state %d", s)
				}
				lv := sGone.Get(code)
				switch {
				case !sRested.Bool(x):
					return s
				case lv == 1:
					return recovered
				}
				return gone.state(sGone.Set(code, lv-1))
			}
			return mechanics.ProcessSpec(p), nil
		},
	}
}

var (
	optInstabilityDie = mechanics.ChoiceOf("grim.instability", "die", "the instability die",
		instabilityD20, instabilityD4, instabilityD6, instabilityD8, instabilityD10, instabilityD12)
	optItemKind = mechanics.ChoiceOf("grim.instability", "item", "durable (a lifetime of uses) or consumable (one use)", durable, consumable)
)

func instability() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.instability",
		Summary: "unstable items: each use rolls a die — 3 fails this time, 2 breaks (repairable), 1 breaks for good",
		Doc: "Each use of an unstable item rolls its instability die (d20 by default, smaller for worse items): 3 → it does not work this " +
			"time, 2 → it breaks but can be repaired, 1 → it breaks for good and may hurt people nearby. Consumables roll a d10 (or their " +
			"die): 2–3 dud, 1 harmful. Lifetime: uses until the permanent break ~ Geometric(1/N), mean N; successful uses N − 3 on average; " +
			"repairs before it ~ Geometric(½), mean 1.",
		Params:  []mechanics.Param{ip("uses", 100, 1, 1000, "uses simulated at most (the horizon)")},
		Options: mechanics.Options(optInstabilityDie, optItemKind),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			N, H := optInstabilityDie.Of(c).sides(), c.Int("uses")
			if optItemKind.Of(c) == consumable {
				rec := mechanics.NewRecord(kit.Natural("instability", N))
				n := field("instability")
				spec := &mechanics.Spec{Record: rec, Outcome: kit.Roll(rec, part{Field: "instability", Node: mechanics.D(N)})}
				spec.Event("works", "the die shows more than 3", expr.Gt(n, num(3))).
					Event("dud", "the die shows 2 or 3: used up, no effect", expr.And(expr.Ge(n, num(2)), expr.Le(n, num(3)))).
					Event("harmful", "the die shows 1: a harmful effect", expr.Eq(n, num(1)))
				return spec, nil
			}
			return instabilitySpec(N, H), nil
		},
	}
}

// instabilitySpec is the lifetime of a durable unstable item with an N-sided
// instability die over at most H uses, in two parts computed on their own:
// a chain on the successful uses so far (in use or destroyed), whose time
// is the use of the permanent break, and a chain on the repairs so far.
// Each part's distributions are exact; together the three counts would
// need about H³/6 joint outcomes (1.7·10⁸ at H = 1000), so they are not
// reported jointly. Repairs are counted in full (0…H: the horizon is their
// only bound).
func instabilitySpec(N, H int) *mechanics.Spec {
	die := mechanics.D(N)
	// counter is a chain that counts the uses whose face satisfies count
	// until a 1 breaks the item for good.
	counter := func(name, doc string, count func(n int) bool) (*mechanics.Process, expr.Expr, expr.Expr) {
		p := &mechanics.Process{Homogeneous: true, Horizon: H, TimeUnit: "use"}
		inUse := mechanics.NewRecord(mechanics.Enum("item", "in use or destroyed", "in use"), mechanics.Int(name, 0, H, doc))
		broken := mechanics.NewRecord(mechanics.Enum("item", "in use or destroyed", "destroyed"), mechanics.Int(name, 0, H, doc))
		live, gone := addBlock(p, false, inUse), addBlock(p, true, broken)
		sLive, sGone := inUse.Slot(name), broken.Slot(name)
		p.Start = live.state(inUse.Start())
		p.Kernel = func(int) mechanics.Node { return die }
		p.Move = func(_, s, n int) int {
			code, ok := live.code(s)
			if !ok {
				bug("instability: a step from state %d", s)
			}
			switch {
			case n == 1: // broken for good
				return gone.state(sGone.Set(broken.Start(), sLive.Get(code)))
			case count(n):
				// H counted uses take all H uses: no use follows them
				// within the horizon, so the step from there is never taken.
				return live.state(sLive.Set(code, min(sLive.Get(code)+1, H)))
			}
			return s
		}
		counted := p.StateTable(func(s int) int {
			if code, ok := live.code(s); ok {
				return sLive.Get(code)
			}
			code, _ := gone.code(s)
			return sGone.Get(code)
		})
		return p, counted, p.StateSet(gone.has)
	}
	// 4…N works, 3 is a dud, 2 a repairable break, 1 the permanent break.
	life, uses, destroyed := counter("successful_uses", "uses that worked so far", func(n int) bool { return n >= 4 })
	spec := &mechanics.Spec{Process: life, Record: life.Record()}
	spec.Vars = []mechanics.Var{
		life.TimeVar("time", "the use that breaks it for good", field("time")),
		{Name: "successful_uses", Doc: "uses that worked before the permanent break (or within the uses); mean N − 3 without a horizon", Unit: "use", Expr: uses},
	}
	spec.Event("destroyed", "broken for good within the uses", destroyed)
	fix, repairs, _ := counter("repairs", "repairable breaks so far", func(n int) bool { return n == 2 })
	repairsPart := &mechanics.Spec{Process: fix, Record: fix.Record()}
	repairsPart.Var("repairs", "repairable breaks before the permanent one (or within the uses): Geometric(½) without a horizon, mean 1", repairs)
	spec.Also = []*mechanics.Spec{repairsPart}
	return spec
}
