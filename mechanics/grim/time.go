package grim

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
)

// §4.8–4.13: falling, burning, drowning, dying, burnout, unstable items.

func init() {
	register(fall(), burning(), drowning(), dying(), burnout(), instability())
}

// fallRows is the §4.8 table: distance (m), dice count, die size, break-fall TN.
var fallRows = []struct {
	dist       float64
	n, die, tn int
}{{4.5, 1, 6, 10}, {9, 2, 8, 13}, {18, 2, 12, 16}, {45, 3, 20, 19}, {81, 4, 20, 22}, {126, 5, 20, 25}, {180, 6, 20, 28}}

func fall() *mechanics.Mechanic {
	const id = "grim.fall"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "falling table (4.5 m d6 … 180 m 6d20) with an AGL break-fall for half damage",
		Doc: "Falls deal the table's dice; an AGL roll vs the row's TN breaks the fall: half damage, no knock-down. A deliberate jump from " +
			"9 m or lower takes no damage if broken. Under 45 m a soft landing (bush, loose sand, dumpster, water) breaks the fall " +
			"automatically; at 45 m or more only a soft surface allows a roll at all and water no longer counts as soft. No increase past " +
			"180 m (mechanics.md §4.8).",
		Params: []mechanics.Param{{Name: "distance", Default: 18, Min: 0, Max: 1000, Real: true, Doc: "metres fallen (sweep 0–250)"},
			attr("agl", "AGL", 3), pMod, ip("intentional", 0, 0, 1, "1: a deliberate jump"), ip("condition", 15, 1, 200, "Condition (sweep 5–40)")},
		Options: []mechanics.Option{
			choice(id, "surface", "hard, soft or water", "hard", "soft", "water"),
			opt(id, "row", "floor_row: the largest listed distance ≤ the fall; nearest_row; interpolate_dice: a mixture of the two neighbouring rows weighted by distance", "floor_row", "nearest_row", "interpolate_dice"),
			opt(id, "below_4_5m", "no_damage or first_row", "no_damage", "first_row"),
			opt(id, "half", "floor or ceil when halving", "floor", "ceil"),
			opt(id, "armour", "no: armour does not reduce falling damage", "no")},
		Outputs: []string{"distributions: damage, condition_after", "events: broken, down (Condition ≤ 0), dead (< −10)"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			h := c.Float("distance")
			agl, m, cond := c.Int("agl"), c.Int("modifier"), c.Int("condition")
			surface := c.Opt("surface")
			ceil := c.Opt("half") == "ceil"
			// Row choice: index (−1 = none) and, for interpolation, the upper row and its weight.
			lo := -1
			for i, r := range fallRows {
				if h >= r.dist-1e-9 {
					lo = i
				}
			}
			rowNode := func(i int) mechanics.Node {
				r := fallRows[i]
				return mechanics.Map{X: mechanics.Repeat{X: mechanics.D(r.die), N: r.n}, Name: "row", F: func(d int) int { return d*16 + i }}
			}
			const noRow = 15 // the fall is too short to do damage
			row := c.Opt("row")
			var dice mechanics.Node
			switch {
			case lo < 0:
				// Below 4.5 m: no damage, or the first row (nearest_row rounds
				// falls of 2.25 m or more up to it).
				if c.Opt("below_4_5m") == "no_damage" && (row != "nearest_row" || h < 2.25) {
					dice = mechanics.Const{V: noRow}
				} else {
					dice = rowNode(0)
				}
			case row == "nearest_row" && lo+1 < len(fallRows) && fallRows[lo+1].dist-h < h-fallRows[lo].dist:
				dice = rowNode(lo + 1)
			case row == "interpolate_dice" && lo+1 < len(fallRows):
				span := fallRows[lo+1].dist - fallRows[lo].dist
				w := int64((h - fallRows[lo].dist) / span * 1000)
				dice = mechanics.Mixture{Weights: []int64{1000 - w, w}, Of: []mechanics.Node{rowNode(lo), rowNode(lo + 1)}}
			default:
				dice = rowNode(lo)
			}
			auto := surface != "hard" && h < 45
			canRoll := h < 45 || surface == "soft"
			out := mechanics.Combine{X: dice, Y: d20, Name: "fall", F: func(dr, n int) int {
				d, ri := dr/16, dr%16
				if ri == noRow {
					return 0
				}
				broken := auto || (canRoll && CheckSucceeds(n, agl, m, fallRows[ri].tn))
				if !broken {
					return d * 2
				}
				if c.Int("intentional") == 1 && h <= 9 {
					return 1
				}
				half := d / 2
				if ceil {
					half = (d + 1) / 2
				}
				return half*2 + 1
			}}
			dmg := func(x int) int { return x / 2 }
			return &mechanics.Spec{
				Outcome: out,
				Vars: []mechanics.Var{{Name: "damage", Of: dmg},
					{Name: "condition_after", Of: func(x int) int { return cond - dmg(x) }}},
				Events: []mechanics.Event{
					{Name: "broken", Of: func(x int) bool { return x%2 == 1 }},
					{Name: "down", Of: func(x int) bool { return cond-dmg(x) <= 0 }},
					{Name: "dead", Of: func(x int) bool { return cond-dmg(x) < -10 }},
				},
			}, nil
		},
	}
}

func burning() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "grim.burning",
		Summary: "burning: 2d6 at the start of each turn until the flames are out",
		Doc: "A burning character takes 2d6 at the start of each of its turns until it has left the area and put out the flames. With " +
			"escape_percent = 0 it burns for exactly `turns` turns; otherwise after each turn's damage it gets out with that chance " +
			"(the seed gives no procedure). Heat is not physical: armour does not apply (mechanics.md §4.9).",
		Params: []mechanics.Param{ip("turns", 3, 1, 100, "turns burning (the horizon)"), ip("escape_percent", 0, 0, 100, "percent chance per turn of escaping and putting the fire out (0 = burn all turns)"),
			ip("condition", 20, 1, 300, "Condition")},
		Outputs: []string{"distributions: damage (total, capped at the Condition), time (turn of going down or escaping)", "events: down, escaped, still_burning"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			C, e := c.Int("condition"), int64(c.Int("escape_percent"))
			p := &mechanics.Process{Homogeneous: true, Horizon: c.Int("turns"), TimeUnit: "turn"}
			for d := 0; d < C; d++ {
				p.Add(false, fmt.Sprintf("burning, %d damage", d))
			}
			for d := 0; d < C; d++ {
				p.Add(true, fmt.Sprintf("escaped with %d damage", d))
			}
			down := p.Add(true, "down")
			var esc mechanics.Node = mechanics.Const{V: 0}
			if e > 0 {
				esc = mechanics.Die{Faces: []int{1, 0}, Weights: []int64{e, 100 - e}}
				if e == 100 {
					esc = mechanics.Const{V: 1}
				}
			}
			p.Kernel = func(int) mechanics.Node {
				return mechanics.Combine{X: mechanics.Repeat{X: mechanics.D(6), N: 2}, Y: esc, Name: "turn", F: func(d, x int) int { return d*2 + x }}
			}
			p.Move = func(_, s, x int) int {
				d := s + x/2
				switch {
				case d >= C:
					return down
				case x%2 == 1:
					return C + d
				}
				return d
			}
			spec := &mechanics.Spec{Process: p}
			stateOf := func(o int) int { _, s := p.SplitOutcome(o); return s }
			spec.Vars = []mechanics.Var{
				{Name: "damage", Doc: "total fire damage (Condition when down)", Of: func(o int) int {
					s := stateOf(o)
					switch {
					case s == down:
						return C
					case s >= C:
						return s - C
					}
					return s
				}},
				{Name: "time", Of: func(o int) int { t, _ := p.SplitOutcome(o); return t }},
			}
			spec.Events = []mechanics.Event{
				{Name: "down", Of: func(o int) bool { return stateOf(o) == down }},
				{Name: "escaped", Of: func(o int) bool { s := stateOf(o); return s >= C && s != down }},
				{Name: "still_burning", Doc: "burning when the turns run out", Of: func(o int) bool { return stateOf(o) < C }},
			}
			return spec, nil
		},
	}
}

func drowning() *mechanics.Mechanic {
	const id = "grim.drowning"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "drowning: breath for 2 + TOG minutes, then a MND 11 roll each round to stay conscious, 6 damage a round after",
		Doc: "Breath lasts 2 minutes + 1 per TOG point. Then conflict rounds: a MND 11 roll each round keeps the character conscious; an " +
			"unconscious character underwater takes 6 damage per round, plus the dying tick (−1 a turn) once Condition ≤ 0 by default; " +
			"dead below −10. The countdown after the blackout is deterministic (mechanics.md §4.10).",
		Params: []mechanics.Param{attr("tog", "TOG (breath B = max(0, 2 + TOG) minutes)", 2), attr("mnd", "MND", 2), pMod,
			ip("condition", 20, 1, 300, "Condition"), ip("rescue_round", 5, 0, 1000, "rescue arrives after this many rounds past the breath"),
			ip("horizon", 60, 1, 5000, "rounds simulated at most")},
		Options: []mechanics.Option{
			opt(id, "dying_tick", "stacks: the −1 per turn of dying adds to the drowning damage once Condition ≤ 0; drowning_only", "stacks", "drowning_only"),
			opt(id, "escalation", "none: the MND roll does not get harder; minus_1_per_round", "none", "minus_1_per_round")},
		Outputs: []string{"distributions: rounds_conscious (after the breath runs out), death_round, time (round of the blackout)",
			"events: alive_at_rescue, conscious_at_rescue, absorbed:blackout", "breath_minutes is in the doc: max(0, 2 + TOG)"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			mnd, m := c.Int("mnd"), c.Int("modifier")
			esc := c.Opt("escalation") == "minus_1_per_round"
			// Rounds from blackout to death (Condition < −10).
			cond, k := c.Int("condition"), 0
			for cond >= -10 {
				if cond <= 0 && c.Opt("dying_tick") == "stacks" {
					cond--
				}
				cond -= 6
				k++
			}
			p := &mechanics.Process{States: []string{"conscious", "blackout"}, Absorbing: []bool{false, true}, Horizon: c.Int("horizon"), TimeUnit: "round", Homogeneous: !esc}
			p.Kernel = func(t int) mechanics.Node {
				mod := m
				if esc {
					mod -= t - 1
				}
				return mechanics.Map{X: d20, Name: "MND 11", F: func(n int) int { return bit(!CheckSucceeds(n, mnd, mod, 11)) }}
			}
			p.Move = func(_, _, out int) int { return out }
			spec := mechanics.ProcessSpec(p)
			r := c.Int("rescue_round")
			blackout := func(o int) int { t, _ := p.SplitOutcome(o); return t }
			spec.Vars = append(spec.Vars,
				mechanics.Var{Name: "rounds_conscious", Doc: "rounds passed before the blackout", Of: func(o int) int { return blackout(o) - 1 }},
				mechanics.Var{Name: "death_round", Doc: "round of death: blackout + the deterministic countdown", Of: func(o int) int { return blackout(o) + k }})
			spec.Events = append(spec.Events,
				mechanics.Event{Name: "alive_at_rescue", Of: func(o int) bool { return blackout(o)+k > r }},
				mechanics.Event{Name: "conscious_at_rescue", Of: func(o int) bool { return blackout(o) > r }})
			return spec, nil
		},
	}
}

func dying() *mechanics.Mechanic {
	const id = "grim.dying"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "dying: Condition −1 a turn from ≤ 0 to dead below −10; a helper's COR roll vs 10 + |c| revives",
		Doc: "At Condition 0 or below the character is dying: −1 each turn, dead below −10. A helper needs a medkit or training (or an " +
			"MND roll, TN 11 by default) and a COR roll vs 10 + |c| to revive; a revived character has Condition 1 and gains a burnout " +
			"level. Chain over c ∈ {0…−10} with absorbing revived/dead (K6) (mechanics.md §4.11).",
		Params: []mechanics.Param{ip("condition", 0, -10, 0, "starting Condition c₀"), attr("helper_cor", "helper's COR", 2),
			ip("medkit", 1, 0, 1, "1: the helper has a medkit or medical training (no knowledge roll)"), attr("helper_mnd", "helper's MND (knowledge roll)", 1),
			ip("knowledge_tn", 11, 1, 40, "TN of the knowledge roll [default 11]"), ip("attempts", 1, 1, 2, "stabilisation attempts per turn")},
		Options: []mechanics.Option{
			opt(id, "cor_tn", "10_plus_abs_c: the COR TN is 10 + |c|", "10_plus_abs_c"),
			opt(id, "int_as", "MND: INT rolls use MND", "MND"),
			opt(id, "knowledge_roll", "once: one knowledge roll decides whether the helper can try at all; each_attempt", "once", "each_attempt")},
		Outputs: []string{"distributions: time (turns until revived or dead)", "events: absorbed:revived, absorbed:dead"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			cor, mnd, ktn := c.Int("helper_cor"), c.Int("helper_mnd"), c.Int("knowledge_tn")
			medkit, each := c.Int("medkit") == 1, c.Opt("knowledge_roll") == "each_attempt"
			tries := c.Int("attempts")
			// States: c = 0…−10 knowing (0..10), c not knowing (11..21), unknown yet (22), revived, dead.
			p := &mechanics.Process{Homogeneous: true, Horizon: 20, TimeUnit: "turn"}
			for k := 0; k < 3; k++ {
				for cc := 0; cc <= 10; cc++ {
					p.Add(false, fmt.Sprintf("condition %d (%s)", -cc, []string{"can treat", "cannot treat", "knowledge unknown"}[k]))
				}
			}
			revived := p.Add(true, "revived", "dead")
			dead := revived + 1
			state := func(k, cc int) int { return k*11 + cc }
			start := -c.Int("condition")
			switch {
			case medkit:
				p.Start = state(0, start)
			case each:
				p.Start = state(0, start) // knowledge rolled with every attempt
			default:
				p.Start = state(2, start)
			}
			knowNode := mechanics.Map{X: d20, Name: "knowledge", F: func(n int) int { return bit(CheckSucceeds(n, mnd, 0, ktn)) }}
			p.Step = func(_, s int) mechanics.Node {
				k, cc := s/11, s%11
				attempt := func(know bool) mechanics.Node {
					var ok mechanics.Node = mechanics.Map{X: d20, Name: "COR", F: func(n int) int { return bit(CheckSucceeds(n, cor, 0, 10+cc)) }}
					if !know {
						ok = mechanics.Const{V: 0}
					} else if each && !medkit {
						ok = mechanics.Combine{X: knowNode, Y: ok, Name: "both", F: func(a, b int) int { return a & b }}
					}
					var any mechanics.Node = ok
					for i := 1; i < tries; i++ {
						any = mechanics.Combine{X: any, Y: ok, Name: "or", F: func(a, b int) int { return a | b }}
					}
					return any
				}
				next := func(success int, k int) int {
					switch {
					case success == 1:
						return revived
					case cc+1 > 10:
						return dead
					}
					return state(k, cc+1)
				}
				switch k {
				case 2:
					return mechanics.Combine{X: knowNode, Y: attempt(true), Name: "first turn", F: func(kn, ok int) int {
						if kn == 0 {
							return next(0, 1)
						}
						return next(ok, 0)
					}}
				case 1:
					return mechanics.Const{V: next(0, 1)}
				}
				return mechanics.Map{X: attempt(true), Name: "turn", F: func(ok int) int { return next(ok, 0) }}
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
			"max Condition 50%; 4: Condition 0 and dying (absorbing). A daily chain on (level, cause active) (K6) (mechanics.md §4.12).",
		Params: []mechanics.Param{ip("start_level", 0, 0, 3, "starting burnout level"), ip("resolve_percent", 30, 0, 100, "r: percent chance per day that the cause is dealt with"),
			ip("rest_percent", 80, 0, 100, "ℓ: percent chance per day of a long rest once the cause is gone"), ip("days", 30, 1, 1000, "horizon in days")},
		Outputs: []string{"distributions: time (day of reaching level 4 or recovering)", "events: absorbed:level 4 (dying), absorbed:recovered", "bands: final_state"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			r, l := int64(c.Int("resolve_percent")), int64(c.Int("rest_percent"))
			p := &mechanics.Process{Homogeneous: true, Horizon: c.Int("days"), TimeUnit: "day"}
			for lv := 0; lv < 4; lv++ {
				p.Add(false, fmt.Sprintf("level %d, cause active", lv))
			}
			for lv := 1; lv < 4; lv++ {
				p.Add(false, fmt.Sprintf("level %d, recovering", lv))
			}
			dying := p.Add(true, "level 4 (dying)", "recovered")
			recovered := dying + 1
			p.Start = c.Int("start_level")
			coin := func(pct int64) mechanics.Node {
				switch pct {
				case 0:
					return mechanics.Const{V: 0}
				case 100:
					return mechanics.Const{V: 1}
				}
				return mechanics.Die{Faces: []int{1, 0}, Weights: []int64{pct, 100 - pct}}
			}
			p.Step = func(_, s int) mechanics.Node {
				if s < 4 { // cause active: +1, then resolved with probability r
					lv := s + 1
					return mechanics.Map{X: coin(r), Name: "resolved", F: func(x int) int {
						switch {
						case lv >= 4:
							return dying
						case x == 1:
							return 3 + lv // recovering at lv
						}
						return lv
					}}
				}
				lv := s - 3
				return mechanics.Map{X: coin(l), Name: "rest", F: func(x int) int {
					switch {
					case x == 0:
						return s
					case lv == 1:
						return recovered
					}
					return 3 + lv - 1
				}}
			}
			return mechanics.ProcessSpec(p), nil
		},
	}
}

func instability() *mechanics.Mechanic {
	const id = "grim.instability"
	return &mechanics.Mechanic{
		ID:      id,
		Summary: "unstable items: each use rolls a die — 3 fails this time, 2 breaks (repairable), 1 breaks for good",
		Doc: "Each use of an unstable item rolls its instability die (d20 by default, smaller for worse items): 3 → it does not work this " +
			"time, 2 → it breaks but can be repaired, 1 → it breaks for good and may hurt people nearby. Consumables roll a d10 (or their " +
			"die): 2–3 dud, 1 harmful. Lifetime: uses until the permanent break ~ Geometric(1/N), mean N; successful uses N − 3 on average " +
			"(mechanics.md §4.13).",
		Params: []mechanics.Param{ip("uses", 100, 1, 1000, "uses simulated at most (the horizon)")},
		Options: []mechanics.Option{
			choice(id, "die", "the instability die", "d20", "d4", "d6", "d8", "d10", "d12"),
			choice(id, "item", "durable (a lifetime of uses) or consumable (one use)", "durable", "consumable")},
		Outputs: []string{"durable — distributions: time (use of the permanent break), successful_uses, repairs; events: absorbed:destroyed",
			"consumable — events: works, dud, harmful"},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			var N int
			fmt.Sscanf(c.Opt("die"), "d%d", &N)
			die := mechanics.D(N)
			if c.Opt("item") == "consumable" {
				return &mechanics.Spec{
					Outcome: die,
					Events: []mechanics.Event{{Name: "works", Of: func(n int) bool { return n > 3 }},
						{Name: "dud", Of: func(n int) bool { return n == 2 || n == 3 }},
						{Name: "harmful", Of: func(n int) bool { return n == 1 }}},
				}, nil
			}
			H := c.Int("uses")
			// State = successful uses·4 + repairs (capped at 3); absorbing "destroyed".
			// Not marked homogeneous: the chain is, but its unlimited-horizon
			// figures have closed forms (mean N uses) and a fundamental matrix
			// of this size would cost seconds; the kernel is shared by key.
			p := &mechanics.Process{Horizon: H, TimeUnit: "use", KernelKey: func(int) int { return 1 }}
			for k := 0; k <= H; k++ {
				for rp := 0; rp < 4; rp++ {
					p.Add(false, fmt.Sprintf("%d uses, %d repairs", k, rp))
				}
			}
			base := len(p.States)
			for k := 0; k <= H; k++ {
				for rp := 0; rp < 4; rp++ {
					p.Add(true, fmt.Sprintf("destroyed after %d uses, %d repairs", k, rp))
				}
			}
			p.Kernel = func(int) mechanics.Node { return die }
			p.Move = func(_, s, n int) int {
				k, rp := s/4, s%4
				switch n {
				case 1:
					return base + s
				case 2:
					return k*4 + min(rp+1, 3)
				case 3:
					return s
				}
				return min(k+1, H)*4 + rp
			}
			spec := &mechanics.Spec{Process: p}
			part := func(o int) (k, rp int, gone bool) {
				_, s := p.SplitOutcome(o)
				if s >= base {
					s -= base
					gone = true
				}
				return s / 4, s % 4, gone
			}
			spec.Vars = []mechanics.Var{
				{Name: "time", Doc: "the use that breaks it for good (uses+1: still going)", Of: func(o int) int { t, _ := p.SplitOutcome(o); return t }},
				{Name: "successful_uses", Of: func(o int) int { k, _, _ := part(o); return k }},
				{Name: "repairs", Doc: "repairable breaks (3 = three or more; mean 1 over a lifetime)", Of: func(o int) int { _, rp, _ := part(o); return rp }},
			}
			spec.Events = []mechanics.Event{{Name: "destroyed", Of: func(o int) bool { _, _, g := part(o); return g }}}
			return spec, nil
		},
	}
}
