package bd

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// skirmishMechanics are the mechanics declared in skirmish.go.
func skirmishMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{skirmish()}
}

// skirmishChain is the chain of bd.skirmish: the damage track of bd.track
// with the Vigor of bd.vigor and the place of the next attack in the
// round. States: shock (absorbing), then one block of wounded states and
// one of unwounded ones, each a record (durability, health, vigor,
// winded, attack).
type skirmishChain struct {
	p              *mechanics.Process
	shock          int
	wound, fresh   *mechanics.Record
	woundB, freshB int
	// slots of each block: durability, health, vigor, winded, attack
	ws, fs [5]mechanics.Slot
}

var skirmishFields = [5]string{"durability", "health", "vigor", "winded", "attack"}

// skirmishBlocks are the records of the wounded and of the unwounded
// states of bd.skirmish for a creature with Durability u, Health h and at
// most vmax Vigor, attacked a times a round.
func skirmishBlocks(u, h, vmax, a int) (wound, fresh *mechanics.Record) {
	block := func(ulo, uhi, hlo, hhi int) *mechanics.Record {
		return mechanics.NewRecord(
			mechanics.Int("durability", ulo, uhi, "Durability left"),
			mechanics.Int("health", hlo, hhi, "Health left"),
			mechanics.Int("vigor", 0, vmax, "Vigor"),
			mechanics.Flag("winded", windedFlag()),
			mechanics.Int("attack", 1, a, "the next attack of the round"))
	}
	return block(0, 0, 1, h), block(1, u, h, h)
}

// skirmishStates is the number of states of bd.skirmish's chain: shock and
// the two blocks.
func skirmishStates(u, h, vmax, a int) int {
	wound, fresh := skirmishBlocks(u, h, vmax, a)
	return 1 + wound.Size() + fresh.Size()
}

func newSkirmishChain(t pools, vmax, a, horizon int) *skirmishChain {
	ch := &skirmishChain{p: &mechanics.Process{Homogeneous: true, Horizon: horizon, TimeUnit: "attack"}}
	ch.wound, ch.fresh = skirmishBlocks(t.durability, t.health, vmax, a)
	ch.shock = ch.p.Add(true, "shock")
	ch.woundB = ch.p.AddRecord(false, ch.wound)
	ch.freshB = ch.p.AddRecord(false, ch.fresh)
	for i, f := range skirmishFields {
		ch.ws[i], ch.fs[i] = ch.wound.Slot(f), ch.fresh.Slot(f)
	}
	ch.p.Start = ch.state(t.durability, t.health, vmax, false, 1)
	return ch
}

// state is the state of (u, h, v, winded, i); shock when h ≤ 0.
func (ch *skirmishChain) state(u, h, v int, w bool, i int) int {
	if h <= 0 {
		return ch.shock
	}
	rec, sl, base := ch.wound, &ch.ws, ch.woundB
	if u > 0 {
		rec, sl, base = ch.fresh, &ch.fs, ch.freshB
	}
	code := rec.Start()
	code = sl[0].Set(code, u)
	code = sl[1].Set(code, h)
	code = sl[2].Set(code, v)
	code = sl[3].SetBool(code, w)
	return base + sl[4].Set(code, i)
}

// at decodes a transient state.
func (ch *skirmishChain) at(s int) (u, h, v int, w bool, i int) {
	sl, code := &ch.ws, s-ch.woundB
	if s >= ch.freshB {
		sl, code = &ch.fs, s-ch.freshB
	}
	return sl[0].Get(code), sl[1].Get(code), sl[2].Get(code), sl[3].Bool(code), sl[4].Get(code)
}

// The parameters of bd.skirmish that size its chain.
var (
	pSkDurability = ip("durability", 30, 1, 60, "Durability U")
	pSkHealth     = ip("health", 20, 1, 40, "Health H")
	pSkVigor      = ip("vigor", 20, 0, 60, "maximum (and starting) Vigor")
	pSkAttacks    = ip("attacks", 2, 1, 6, "attacks on the creature per round")
	pSkRounds     = ip("rounds", 30, 1, 100, "rounds followed at most")
)

// skirmishSize is the size of bd.skirmish's chain for the exact engine:
// its states, the outcomes of one attack each step goes over, and the
// steps. The engines line of describe states it from the chain built at
// the settings (Spec.NoExact), and at the largest settings (MCReason).
func skirmishSize(states, outcomes, steps int) string {
	return fmt.Sprintf("%d states, each step over up to %d outcomes of one attack, for up to %d steps", states, outcomes, steps)
}

// skirmishReason is why bd.skirmish is simulated only, with its size at
// the largest settings, from the parameters' ranges.
func skirmishReason() string {
	u, h, v, a, r := int(pSkDurability.Max), int(pSkHealth.Max), int(pSkVigor.Max), int(pSkAttacks.Max), int(pSkRounds.Max)
	return fmt.Sprintf("its chain follows Durability, Health, Vigor, winded and the attack of the round together, so its states multiply; "+
		"at the largest settings (durability %d, health %d, vigor %d, attacks %d, rounds %d): %s",
		u, h, v, a, r, skirmishSize(skirmishStates(u, h, v, a), attackRecord(u+h).Size(), r*a))
}

func skirmish() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "bd.skirmish",
		Summary: "a defender under attack with its damage track, its Vigor and a reaction policy together (simulated only)",
		Doc: fmt.Sprintf("bd.track and bd.vigor at once: every attack is rolled against Guard (bd.attack); the defender counter-rolls "+
			"(bd.defense) when its policy says so and it can pay the Vigor — %d a reaction, %d after Defend, none while winded, "+
			"keeping `reserve` back — and a hit deals bd.damage less the armour rank to Durability, then Health, until shock. "+
			"Wounded, its Speed dice step down; at the end of each round it recovers 1 Vigor per %d Stamina. Simulated only: "+
			"its one-attack building blocks are the exact bd.attack, bd.defense and bd.damage, and "+
			"its two halves the exact chains bd.track (unlimited Vigor) and bd.vigor (no damage track).",
			reactionCost, defendReactionCost, staminaPerVigor),
		MCOnly:   true,
		MCReason: skirmishReason(),
		Params: append([]mechanics.Param{
			pSkDurability,
			pSkHealth,
			ip("stamina", 10, 0, 100, fmt.Sprintf("Stamina score: 1 Vigor back per %d a round", staminaPerVigor)),
			pSkVigor,
			ip("defend", 0, 0, 1, fmt.Sprintf("1: the defender took the Defend action: reactions cost %d", defendReactionCost)),
			ip("reserve", 0, 0, 60, "Vigor the defender keeps back: it reacts only if at least this much is left after paying"),
			pSkAttacks,
			pSkRounds},
			profileParams...),
		Options: mechanics.Options(optOverflow, optDecideAfterRoll, optSpendBelowCost, optWeaponDiceBurst),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			t := pools{durability: c.Int("durability"), health: c.Int("health"), overflow: optOverflow.Of(c)}
			a := c.Int("attacks")
			e := economyOf(c, c.Int("vigor"), c.Int("reserve"))
			prof, err := profileOf(c, t.durability+t.health)
			if err != nil {
				return nil, err
			}
			k := prof.kernel()
			ch := newSkirmishChain(t, e.vmax, a, c.Int("rounds")*a)
			p := ch.p
			p.Kernel = func(int) mechanics.Node { return k.node }
			p.Move = func(_, s, x int) int {
				u, h, v, w, i := ch.at(s)
				reacted := false
				if prof.react && e.wants(k.beats.Bool(x)) {
					v, reacted, w = e.pay(v, w)
				}
				if hit, d := k.hit(x, u == 0, reacted); hit && d > 0 {
					if u, h = t.hurt(u, h, d); h <= 0 {
						return ch.shock
					}
				}
				if i++; i > a {
					i = 1
					v, w = e.recover(v, w)
				}
				return ch.state(u, h, v, w, i)
			}
			table := func(f func(u, h, v int, w bool) int) expr.Expr {
				return p.StateTable(func(s int) int {
					if s == ch.shock {
						return f(0, 0, 0, false)
					}
					u, h, v, w, _ := ch.at(s)
					return f(u, h, v, w)
				})
			}
			time := field("time")
			spec := &mechanics.Spec{Process: p, Record: p.Record(), NoExact: skirmishSize(len(p.States), k.rec.Size(), p.Horizon)}
			spec.Vars = []mechanics.Var{
				p.TimeVar("attacks_to_shock", "attacks until the creature is in shock", time),
				inRounds(p.TimeVar("rounds_to_shock", "the round of the shock", ceilDiv(time, a))),
				{Name: "durability_left", Doc: "Durability left at the shock or the horizon", Expr: table(func(u, _, _ int, _ bool) int { return u })},
				{Name: "health_left", Doc: "Health left at the shock or the horizon", Expr: table(func(_, h, _ int, _ bool) int { return h })},
				{Name: "vigor_left", Doc: "Vigor at the horizon (shock: 0)", Expr: table(func(_, _, v int, _ bool) int { return v })},
			}
			spec.Event("shock", "in shock within the horizon", p.In(ch.shock)).
				Event("wounded", "wounded (Durability 0) within the horizon", p.StateSet(func(s int) bool { return s < ch.freshB })).
				Event("winded_at_end", "winded at the horizon", p.StateSet(func(s int) bool {
					if s == ch.shock {
						return false
					}
					_, _, _, w, _ := ch.at(s)
					return w
				}))
			return spec, nil
		},
	}
}
