package bd

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// The damage track (Durability, then Health, then shock), the reaction
// economy on Vigor, and shock and emergency aid; skirmish.go combines the
// track and the economy (simulated only).

// trackMechanics are the mechanics declared in track.go.
func trackMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{track(), vigor(), shockAndAid()}
}

// attackProfile is one attack on a defender, as the chains of this file
// see it: the attacker's roll against Guard, the defender's counter-roll
// (fresh, and once wounded: its Speed dice one step down) and the damage
// after armour.
type attackProfile struct {
	atk            bonusDice
	guard          int
	react          bool
	fresh, wounded bonusDice
	dmg            damageRoll
	ar             int
	// cap bounds the recorded damage: more does no more harm to the chain.
	cap int
}

// Parameters of the attack profile (bd.track and bd.skirmish).
var (
	pReact = ip("react", 1, 0, 1, "1: the defender counter-rolls (per the reaction policy); 0: it never reacts")
	pKD    = ip("k_d", 2, 0, 6, "the defender's Speed bonus dice (one step down once it is wounded)")
	pRankD = ip("rank_d", 10, 4, 20, "die of the defender's Speed dice while unwounded: "+ladderSizes())
	pRankB = ip("rank_b", 10, 4, 20, "die of the attacker's damage bonus dice: "+ladderSizes())
	pAR    = ip("ar", 0, 0, 100, "the defender's effective armour rank (see bd.armor), subtracted from each hit")
)

// profileParams are the attack profile of the chains, with dice counts
// bounded lower than for a single roll: a chain rolls the whole profile at
// every step of every simulated trial.
var profileParams = []mechanics.Param{within(pK, 6), pRank, pGuard, pReact, pKD, pRankD, within(pDV, 6), pQuality, within(pKB, 6), pRankB, pAR}

// within is a parameter with a lower maximum.
func within(p mechanics.Param, hi float64) mechanics.Param { p.Max = hi; return p }

// profileOf reads the attack profile; cap is the most damage the chain can
// tell apart.
func profileOf(c mechanics.Config, cap int) (attackProfile, error) {
	var rung [4]int
	for i, name := range []string{"rank", "rank_d", "quality", "rank_b"} {
		r, err := rungOf(name, c.Int(name))
		if err != nil {
			return attackProfile{}, err
		}
		rung[i] = r
	}
	l := ladderOf(c)
	p := attackProfile{
		atk:     l.bonus(c.Int("k"), rung[0], steps{}),
		guard:   c.Int("guard"),
		react:   c.Int("react") == 1,
		fresh:   l.bonus(c.Int("k_d"), rung[1], steps{}),
		wounded: l.bonus(c.Int("k_d"), rung[1], steps{wounded: true}),
		dmg: damageRoll{w: weapon{n: c.Int("dv"), sides: ladder[rung[2]], bursts: optWeaponDiceBurst.OrDefault(c) == yes},
			b: l.bonus(c.Int("k_b"), rung[3], steps{})},
		ar:  c.Int("ar"),
		cap: cap,
	}
	return p, nil
}

// hitDamage is the damage of a hit after armour, at most cap: declared as
// a clamp, so that the simulator can table it (no more rolls are followed
// once the damage reaches cap).
func (p attackProfile) hitDamage() mechanics.Node {
	return mechanics.Clamp{X: mechanics.Sum{Terms: []mechanics.Node{p.dmg.node(), mechanics.Const{V: -p.ar}}}, Lo: 0, Hi: p.cap}
}

// attackKernel is the record of one attack and the node that rolls it:
// whether it beats Guard, whether the counter-roll would beat it from a
// fresh and from a wounded defender (each chain reads the one its state
// needs; the two are independent rolls, only one of which is ever made),
// and the damage after armour.
type attackKernel struct {
	rec                                   *mechanics.Record
	beats, parryFresh, parryWounded, hurt mechanics.Slot
	node                                  mechanics.Node
}

// attackRecord is the record of one attack of attackKernel, its damage
// told apart up to cap.
func attackRecord(cap int) *mechanics.Record {
	return mechanics.NewRecord(
		mechanics.Flag("beats_guard", "the attack roll beats Guard"),
		mechanics.Flag("parry_fresh", "an unwounded defender's counter-roll beats the attack roll"),
		mechanics.Flag("parry_wounded", "a wounded defender's counter-roll beats the attack roll"),
		mechanics.Int("damage", 0, cap, "the damage of the attack if it hits, after armour"))
}

func (p attackProfile) kernel() attackKernel {
	k := attackKernel{rec: attackRecord(p.cap)}
	k.beats, k.parryFresh, k.parryWounded, k.hurt = k.rec.Slot("beats_guard"), k.rec.Slot("parry_fresh"), k.rec.Slot("parry_wounded"), k.rec.Slot("damage")
	start, g := k.rec.Start(), p.guard
	var rolls mechanics.Node
	if !p.react {
		rolls = mechanics.Map{X: actionRoll(p.atk), Name: "attack", F: func(a int) int { return k.beats.SetBool(start, a > g) }}
	} else {
		// The attack roll travels with the fresh parry until the wounded
		// counter-roll has been compared with it.
		mid := mechanics.NewRecord(mechanics.Flag("parry_fresh", "an unwounded defender's counter-roll beats the attack roll"),
			totalField("attack_total", "T_a", p.atk))
		mParry, mTotal := mid.Slot("parry_fresh"), mid.Slot("attack_total")
		mStart := mid.Start()
		first := mechanics.Combine{X: actionRoll(p.atk), Y: actionRoll(p.fresh), Name: "attack and fresh defence", F: func(a, d int) int {
			return mTotal.Set(mParry.SetBool(mStart, d > a), a)
		}}
		rolls = mechanics.Combine{X: first, Y: actionRoll(p.wounded), Name: "wounded defence", F: func(m, d int) int {
			a := mTotal.Get(m)
			return k.parryWounded.SetBool(k.parryFresh.Set(k.beats.SetBool(start, a > g), mParry.Get(m)), d > a)
		}}
	}
	k.node = mechanics.Combine{X: rolls, Y: p.hitDamage(), Name: "damage", F: func(r, d int) int { return k.hurt.Set(r, d) }}
	return k
}

// hit reports whether attack x hits a defender (wounded or not) that
// counter-rolls when react says so, and its damage.
func (k attackKernel) hit(x int, wounded, react bool) (bool, int) {
	if !k.beats.Bool(x) {
		return false, 0
	}
	if react {
		parry := k.parryFresh
		if wounded {
			parry = k.parryWounded
		}
		if parry.Bool(x) {
			return false, 0
		}
	}
	return true, k.hurt.Get(x)
}

var optOverflow = mechanics.SwitchOf("bd.track", "overflow",
	"carries: the damage of the hit that breaks Durability beyond what was left goes on into Health; lost: it is lost", overflowCarries, overflowLost)

// pools is the damage track of a creature: Durability U, then Health H.
type pools struct {
	durability, health int
	overflow           overflowRule
}

// hurt applies damage d to a creature with u Durability and h Health left
// (u > 0 means h = H): the new (u, h), with h ≤ 0 for shock.
func (t pools) hurt(u, h, d int) (int, int) {
	if u > 0 {
		if d < u {
			return u - d, h
		}
		rest := d - u
		if t.overflow == overflowLost {
			rest = 0
		}
		return 0, h - rest
	}
	return 0, h - d
}

// trackChain is a chain on the damage track: one absorbing state (shock,
// or wounded when untilWounded), then the wounded states (durability 0,
// health 1…H), then the unwounded ones (durability 1…U, health H), so that
// a step only ever leads to a lower state.
type trackChain struct {
	p                 *mechanics.Process
	end               int
	woundBase, unhurt int // first states of the blocks (−1: none)
	pools
}

func newTrackChain(t pools, horizon int, unit string, untilWounded bool) *trackChain {
	ch := &trackChain{p: &mechanics.Process{Homogeneous: true, Horizon: horizon, TimeUnit: unit}, pools: t, woundBase: -1}
	dur := func(lo, hi int) mechanics.Field {
		return mechanics.Int("durability", lo, hi, "Durability left")
	}
	hp := func(lo, hi int) mechanics.Field { return mechanics.Int("health", lo, hi, "Health left") }
	if untilWounded {
		ch.end = ch.p.Add(true, "wounded")
	} else {
		ch.end = ch.p.Add(true, "shock")
		ch.woundBase = ch.p.AddRecord(false, mechanics.NewRecord(dur(0, 0), hp(1, t.health)))
	}
	ch.unhurt = ch.p.AddRecord(false, mechanics.NewRecord(dur(1, t.durability), hp(t.health, t.health)))
	ch.p.Start = ch.state(t.durability, t.health)
	return ch
}

// state is the state of (u, h) (the absorbing one past it).
func (ch *trackChain) state(u, h int) int {
	switch {
	case u > 0:
		return ch.unhurt + u - 1
	case ch.woundBase < 0 || h <= 0:
		return ch.end
	}
	return ch.woundBase + h - 1
}

// pools is (u, h) of a state (0, 0 for the absorbing one).
func (ch *trackChain) at(s int) (u, h int) {
	switch {
	case s >= ch.unhurt:
		return s - ch.unhurt + 1, ch.health
	case ch.woundBase >= 0 && s >= ch.woundBase:
		return 0, s - ch.woundBase + 1
	}
	return 0, 0
}

// run sets the step: hit(x, wounded) says whether kernel value x hits the
// creature and for how much.
func (ch *trackChain) run(kernel mechanics.Node, hit func(x int, wounded bool) (bool, int)) {
	ch.p.Kernel = func(int) mechanics.Node { return kernel }
	ch.p.Move = func(_, s, x int) int {
		u, h := ch.at(s)
		ok, d := hit(x, u == 0)
		if !ok || d == 0 {
			return s
		}
		return ch.state(ch.hurt(u, h, d))
	}
}

// inRounds marks a time variable of a per-attack chain as counted in rounds.
func inRounds(v mechanics.Var) mechanics.Var { v.Unit = "round"; return v }

// ceilDiv is ⌈x/n⌉ as an expression.
func ceilDiv(x expr.Expr, n int) expr.Expr { return expr.Ceil(expr.Div(x, num(n))) }

func track() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "bd.track",
		Summary: "the damage track: Durability, the wounded step-down, Health, shock — attacks and hits until wounded and until shock",
		Doc: "Damage comes off Durability first; at 0 the creature is wounded: its bonus dice (here its Speed dice, so its " +
			"counter-rolls) drop one step, and further damage comes off Health (the hit that breaks Durability carries its " +
			"excess on by default); at 0 Health it is in shock and dies Stamina rounds later unless stabilised (bd.shock_and_aid). " +
			"An exact chain on (Durability left, Health left), one step per attack, `attacks` per round: the attack beats Guard " +
			"(bd.attack), the defender counter-rolls if react=1 (bd.defense, with unlimited Vigor: see bd.skirmish), a hit deals " +
			"bd.damage less the armour rank. While Durability is left Health is full, so the chain has U + H + 1 states; the " +
			"per-attack distribution (attack, both counter-rolls, damage) is computed once and shared by every state. Beside it " +
			"the same track per hit (the number of hits, whatever the rolls to land them). Survival is per attack.",
		Params: append([]mechanics.Param{
			ip("durability", 30, 1, 200, "Durability U"),
			ip("health", 20, 1, 200, "Health H"),
			ip("stamina", 10, 0, 100, "Stamina score: rounds from shock to death"),
			ip("attacks", 2, 1, 8, "attacks on the creature per round"),
			ip("rounds", 30, 1, 100, "rounds followed at most (the horizon is rounds × attacks)")},
			profileParams...),
		Options: mechanics.Options(optOverflow, optWeaponDiceBurst),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			t := pools{durability: c.Int("durability"), health: c.Int("health"), overflow: optOverflow.Of(c)}
			a, stamina := c.Int("attacks"), c.Int("stamina")
			horizon := c.Int("rounds") * a
			prof, err := profileOf(c, t.durability+t.health)
			if err != nil {
				return nil, err
			}
			k := prof.kernel()
			perAttack := func(x int, wounded bool) (bool, int) { return k.hit(x, wounded, prof.react) }
			perHit := func(x int, _ bool) (bool, int) { return true, x }
			dmg := prof.hitDamage()

			main := newTrackChain(t, horizon, "attack", false)
			main.run(k.node, perAttack)
			p := main.p
			time := field("time")
			spec := &mechanics.Spec{Process: p, Record: p.Record()}
			spec.Vars = []mechanics.Var{
				p.TimeVar("attacks_to_shock", "attacks until the creature is in shock", time),
				inRounds(p.TimeVar("rounds_to_shock", "the round of the shock: ⌈attacks/attacks per round⌉", ceilDiv(time, a))),
				inRounds(p.TimeVar("death_round", fmt.Sprintf("the round it dies in if not stabilised: %d (Stamina) rounds after the shock", stamina),
					expr.Add(ceilDiv(time, a), num(stamina)))),
				{Name: "durability_left", Doc: "Durability left at the shock or the horizon", Expr: p.StateTable(func(s int) int { u, _ := main.at(s); return u })},
				{Name: "health_left", Doc: "Health left at the shock or the horizon", Expr: p.StateTable(func(s int) int { _, h := main.at(s); return h })},
			}
			spec.Event("shock", "in shock within the horizon", p.In(main.end)).
				Event("wounded", "wounded (Durability 0) within the horizon", p.StateSet(func(s int) bool { u, _ := main.at(s); return u == 0 }))

			wounded := newTrackChain(t, horizon, "attack", true)
			wounded.run(k.node, perAttack)
			wp := wounded.p
			woundPart := &mechanics.Spec{Process: wp, Record: wp.Record()}
			woundPart.Vars = []mechanics.Var{
				wp.TimeVar("attacks_to_wounded", "attacks until Durability is 0", time),
				inRounds(wp.TimeVar("rounds_to_wounded", "the round the creature is wounded in", ceilDiv(time, a))),
			}

			hits := newTrackChain(t, horizon, "hit", false)
			hits.run(dmg, perHit)
			hitsPart := &mechanics.Spec{Process: hits.p, Record: hits.p.Record()}
			hitsPart.Vars = []mechanics.Var{hits.p.TimeVar("hits_to_shock", "hits until the creature is in shock (whatever it took to land them)", time)}

			hitsW := newTrackChain(t, horizon, "hit", true)
			hitsW.run(dmg, perHit)
			hitsWPart := &mechanics.Spec{Process: hitsW.p, Record: hitsW.p.Record()}
			hitsWPart.Vars = []mechanics.Var{hitsW.p.TimeVar("hits_to_wounded", "hits until Durability is 0", time)}

			spec.Also = []*mechanics.Spec{woundPart, hitsPart, hitsWPart}
			return spec, nil
		},
	}
}

var optSpendBelowCost = mechanics.SwitchOf("bd.vigor", "spend_below_cost",
	"forbidden: a reaction needs its full cost in Vigor; allowed_to_zero: one may be taken with less, Vigor going to 0", forbidden, allowedToZero)

// economy is the reaction economy of bd.vigor (docs/mechanics.md#bd-vigor).
type economy struct {
	vmax, cost, recovery int
	spend                spendBelowCost
	// decideAfter: react to attacks that beat Guard only (else to every
	// attack); reserve: Vigor kept back (bd.skirmish).
	decideAfter bool
	reserve     int
}

// The numbers of the reaction economy: what a reaction costs (after the
// Defend action, less), the Stamina that gives back one Vigor a round, and
// the Vigor a winded creature must recover to act again.
const (
	reactionCost       = 5
	defendReactionCost = 3
	staminaPerVigor    = 5
	windedUntil        = 5
)

func economyOf(c mechanics.Config, vmax, reserve int) economy {
	cost := reactionCost
	if c.Int("defend") == 1 {
		cost = defendReactionCost
	}
	return economy{vmax: vmax, cost: cost, recovery: c.Int("stamina") / staminaPerVigor, spend: optSpendBelowCost.Of(c),
		decideAfter: optDecideAfterRoll.Of(c) == yes, reserve: reserve}
}

// wants says whether the policy reacts to an attack.
func (e economy) wants(beats bool) bool { return beats || !e.decideAfter }

// pay takes a reaction's cost from v when the creature can react: the
// Vigor left, whether it reacted, and whether it is winded now.
func (e economy) pay(v int, winded bool) (int, bool, bool) {
	if winded || (v < e.cost && (e.spend == forbidden || v == 0)) || max(0, v-e.cost) < e.reserve {
		return v, false, winded
	}
	v = max(0, v-e.cost)
	return v, true, v == 0
}

// startWinded says whether the creature starts winded: at 0 Vigor it is
// (a maximum of 0 leaves it no Vigor to begin with).
func (e economy) startWinded() bool { return e.vmax == 0 }

// recover is the end of a round: Vigor back, capped, and a winded
// creature acts again from windedUntil. At 0 Vigor a creature is winded,
// however it came to have none.
func (e economy) recover(v int, winded bool) (int, bool) {
	v = min(e.vmax, v+e.recovery)
	return v, (winded || v == 0) && v < windedUntil
}

func vigor() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "bd.vigor",
		Summary: fmt.Sprintf("the reaction economy: Vigor spent on counter-rolls, winded at 0, 1 back per %d Stamina a round — when does an attack go unanswered?", staminaPerVigor),
		Doc: fmt.Sprintf("A defence reaction costs %d Vigor (%d after a Defend action); at 0 Vigor the creature is winded and cannot act until "+
			"it is back to %d; at the end of each round it recovers 1 Vigor per %d Stamina (capped at its maximum), so it sustains ",
			reactionCost, defendReactionCost, windedUntil, staminaPerVigor) +
			"about recovery/cost reactions a round. An exact chain on (Vigor, winded), one step per round: each of the `attacks` " +
			"attacks beats Guard with P(T_a > G) (bd.attack), so the demand is Binomial(a, P(T_a > G)); the defender reacts to " +
			"those (or, committing before the roll, to every attack) while it has the Vigor. Reported: the round of the first " +
			"attack that beat Guard and went unanswered for lack of Vigor (its CDF is P(some attack went unanswered by round r)) " +
			"and, beside it, the round the creature is first winded (round 0 with a maximum of 0 Vigor: at 0 it is winded).",
		Params: params(
			ip("vigor", 20, 0, 100, "maximum (and starting) Vigor"),
			ip("stamina", 10, 0, 100, fmt.Sprintf("Stamina score: 1 Vigor back per %d a round", staminaPerVigor)),
			ip("defend", 0, 0, 1, fmt.Sprintf("1: the defender took the Defend action: reactions cost %d", defendReactionCost)),
			ip("attacks", 2, 1, 8, "attacks on the creature per round"),
			ip("rounds", 20, 1, 200, "rounds followed at most"),
			within(pK, 6), pRank, pGuard, within(pCharges, 6), within(pChallenges, 6), pWounded),
		Options: mechanics.Options(optSpendBelowCost, optDecideAfterRoll, optAboveD20, optWoundedCancellable),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			b, err := bonusOf(c, 0)
			if err != nil {
				return nil, err
			}
			e := economyOf(c, c.Int("vigor"), 0)
			round := roundOf(b, c.Int("attacks"), c.Int("guard"))
			state := mechanics.NewRecord(mechanics.Int("vigor", 0, e.vmax, "Vigor"), mechanics.Flag("winded", windedFlag()))
			main := newVigorChain(e, round, state, c.Int("rounds"), false)
			spec := main.spec(e)
			winded := newVigorChain(e, round, state, c.Int("rounds"), true)
			windedPart := &mechanics.Spec{Process: winded.p, Record: winded.p.Record()}
			windedPart.Vars = []mechanics.Var{winded.p.TimeVar("rounds_to_winded", "the round the creature is first winded (0 Vigor; round 0 when it starts with none)", field("time"))}
			windedPart.Event("winded", "winded within the rounds", winded.p.In(winded.end))
			spec.Also = []*mechanics.Spec{windedPart}
			return spec, nil
		},
	}
}

// attackRound is one round of attacks on the defender of bd.vigor: a
// record with one flag per attack, in order (whether it beats Guard), its
// slots, and the node that rolls it.
type attackRound struct {
	slots []mechanics.Slot
	node  mechanics.Node
}

// roundOf is a round of a attacks with bonus dice b against Guard g.
func roundOf(b bonusDice, a, g int) attackRound {
	var fields []mechanics.Field
	for i := 1; i <= a; i++ {
		fields = append(fields, mechanics.Flag(fmt.Sprintf("attack_%d", i), fmt.Sprintf("attack %d of the round beats Guard", i)))
	}
	rec := mechanics.NewRecord(fields...)
	r := attackRound{slots: make([]mechanics.Slot, a), node: mechanics.Const{V: rec.Start()}}
	for i := range r.slots {
		s := rec.Slot(fields[i].Name)
		r.slots[i] = s
		r.node = mechanics.Combine{X: r.node, Y: mechanics.Compare{X: actionRoll(b), Op: mechanics.GT, T: g}, Name: fields[i].Name,
			F: func(code, beats int) int { return s.Set(code, beats) }}
	}
	return r
}

// vigorChain is a chain of bd.vigor, one step a round, on the defender's
// state (its Vigor and whether it is winded, the record at base): it ends
// at the first attack that beats Guard and goes unanswered for lack of
// Vigor or, untilWinded, when the creature is first winded.
type vigorChain struct {
	p         *mechanics.Process
	end, base int
	// vigor and winded are the slots of the state record.
	vigor, winded mechanics.Slot
}

func newVigorChain(e economy, round attackRound, state *mechanics.Record, rounds int, untilWinded bool) vigorChain {
	p := &mechanics.Process{Homogeneous: true, Horizon: rounds, TimeUnit: "round"}
	ch := vigorChain{p: p, vigor: state.Slot("vigor"), winded: state.Slot("winded")}
	ch.end = p.Add(true, map[bool]string{false: "unanswered", true: "winded"}[untilWinded])
	ch.base = p.AddRecord(false, state)
	sV, sW, end, base := ch.vigor, ch.winded, ch.end, ch.base
	p.Start = base + sW.SetBool(sV.Set(state.Start(), e.vmax), e.startWinded())
	if untilWinded && e.startWinded() {
		p.Start = end // winded from the start: round 0
	}
	p.Kernel = func(int) mechanics.Node { return round.node }
	p.Move = func(_, s, x int) int {
		code := s - base
		v, w := sV.Get(code), sW.Bool(code)
		for _, sl := range round.slots {
			beats := sl.Bool(x)
			if !e.wants(beats) {
				continue
			}
			var reacted bool
			v, reacted, w = e.pay(v, w)
			switch {
			case untilWinded && w:
				return end
			case !untilWinded && beats && !reacted:
				return end
			}
		}
		v, w = e.recover(v, w)
		return base + sW.SetBool(sV.Set(code, v), w)
	}
	return ch
}

// spec reports the chain that ends at the first unanswered attack: the
// round of that attack, the Vigor left and whether the creature is winded
// at the horizon.
func (ch vigorChain) spec(e economy) *mechanics.Spec {
	p, end, base, sV, sW := ch.p, ch.end, ch.base, ch.vigor, ch.winded
	spec := &mechanics.Spec{Process: p, Record: p.Record()}
	spec.Vars = []mechanics.Var{
		p.TimeVar("rounds_to_unanswered", "the round of the first attack that beat Guard and went unanswered for lack of Vigor", field("time")),
		{Name: "vigor_left", Doc: "Vigor at the horizon, every attack answered so far", Unit: "Vigor",
			Expr: p.StateTable(func(s int) int {
				if s < base {
					return 0
				}
				return sV.Get(s - base)
			}),
			When: expr.Not(p.In(end)), Otherwise: "an attack went unanswered"},
	}
	spec.Event("unanswered", fmt.Sprintf("an attack that beat Guard went unanswered within the rounds (recovery %d a round sustains %.3g reactions)",
		e.recovery, float64(e.recovery)/float64(e.cost)), p.In(end)).
		Event("winded_at_end", "winded at the horizon, every attack answered so far", p.StateSet(func(s int) bool { return s >= base && sW.Bool(s-base) }))
	return spec
}

func shockAndAid() *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID:      "bd.shock_and_aid",
		Summary: "shock: a helper's Medicine checks against VS (vs, 20 by the rules) to stabilise before Stamina rounds run out; emergency aid restores 1d10 Durability on such a check",
		Doc: "A creature in shock dies after as many rounds as its Stamina score (any damage kills it at once); a helper's " +
			"successful Medicine or Medical Science check (d20 + its bonus dice) against VS stabilises it (it stays unconscious " +
			"until back to 1 Health). With `attempts` checks a round, P(stabilised before death) = 1 − (1 − p)^(attempts·Stamina). " +
			"Emergency aid (2 actions) gives back 1d10 Durability on a Medicine (treatment) check against the same VS: a mixture " +
			"of 0 and d10, reported beside the chain. Both checks use the parameter vs; the rules set both at 20, its default.",
		Params: params(pK, pRank, ip("vs", 20, 0, 500, "victory sum VS of both Medicine checks, stabilising and emergency aid (the rules: 20)"),
			ip("stamina", 10, 1, 100, "the patient's Stamina score: rounds before death in shock"),
			ip("attempts", 1, 0, 4, "the helper's stabilising checks per round"),
			pCharges, pChallenges, pWounded),
		Options: mechanics.Options(optVsCompare, optAboveD20, optWoundedCancellable),
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			b, err := bonusOf(c, 0)
			if err != nil {
				return nil, err
			}
			vs, cmp, stamina, m := c.Int("vs"), optVsCompare.Of(c), c.Int("stamina"), c.Int("attempts")
			op := mechanics.GE
			if cmp == greaterThan {
				op = mechanics.GT
			}
			passes := func() mechanics.Node { return mechanics.Compare{X: actionRoll(b), Op: op, T: vs} }
			var round mechanics.Node = mechanics.Const{V: 0}
			if m > 0 {
				tries := make([]mechanics.Node, m)
				for i := range tries {
					tries[i] = passes()
				}
				round = mechanics.Max{Terms: tries}
			}
			// Death comes at the end of round Stamina: the step depends on
			// the round, the kernel does not. The last round has a key of
			// its own, so that every other round's step is the same and the
			// simulator shares their rows.
			p := &mechanics.Process{Horizon: stamina, TimeUnit: "round"}
			shock := p.Add(false, "in shock")
			stable := p.Add(true, "stabilised")
			dead := p.Add(true, "dead")
			p.Start = shock
			p.Kernel = func(int) mechanics.Node { return round }
			p.KernelKey = func(t int) int {
				if t >= stamina {
					return 1
				}
				return 0
			}
			p.Move = func(t, _, x int) int {
				switch {
				case x == 1:
					return stable
				case t >= stamina:
					return dead
				}
				return shock
			}
			spec := &mechanics.Spec{Process: p, Record: p.Record()}
			spec.Vars = []mechanics.Var{{Name: "stabilised_round", Doc: "the round of the check that stabilises the patient", Unit: "round",
				Expr: field("time"), When: p.In(stable), Otherwise: fmt.Sprintf("dead after %d rounds", stamina)}}
			spec.Event("stabilised", fmt.Sprintf("a check %s %d succeeds within %d rounds", successDoc(cmp), vs, stamina), p.In(stable)).
				Event("dead", "no check succeeds before the Stamina rounds run out", p.In(dead))

			aid := mechanics.NewRecord(mechanics.Flag("aid_succeeds", fmt.Sprintf("the emergency aid's Medicine (treatment) check succeeds: %s %d", successDoc(cmp), vs)),
				mechanics.Int("durability_restored", 0, 10, "Durability given back: 1d10 on a success, else 0"))
			sOK, sBack := aid.Slot("aid_succeeds"), aid.Slot("durability_restored")
			aStart := aid.Start()
			aidPart := &mechanics.Spec{Record: aid, Outcome: mechanics.Combine{X: passes(), Y: mechanics.D(10), Name: "emergency aid",
				F: func(ok, d int) int {
					if ok == 0 {
						return aStart
					}
					return sBack.Set(sOK.Set(aStart, 1), d)
				}}}
			aidPart.Report("durability_restored", "aid_succeeds")
			spec.Also = []*mechanics.Spec{aidPart}
			return spec, nil
		},
	}
}
