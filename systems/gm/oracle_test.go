package gm

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

// Oracles: the rules applied by enumeration, with exact rationals, written
// apart from the chains (maps of outcomes instead of states and kernels),
// compared with the exact engine's results.

// q is the rational n/d.
func q(n, d int64) *big.Rat { return big.NewRat(n, d) }

func mul(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }
func sub(a, b *big.Rat) *big.Rat { return new(big.Rat).Sub(a, b) }
func f64(r *big.Rat) float64     { f, _ := r.Float64(); return f }

// pr is P(a roll-under d20 at target succeeds): the naturals 1…20 with
// N ≤ target, or with the naturals rule N = 1, or N ≠ 20 and N ≤ target.
func pr(target int, nat bool) *big.Rat {
	k := 0
	for n := 1; n <= 20; n++ {
		ok := n <= target
		if nat {
			ok = n == 1 || (n != 20 && ok)
		}
		if ok {
			k++
		}
	}
	return q(int64(k), 20)
}

// dist is a distribution over integers, exact.
type dist map[int]*big.Rat

func (d dist) put(x int, p *big.Rat) {
	if p.Sign() == 0 {
		return
	}
	if d[x] == nil {
		d[x] = new(big.Rat)
	}
	d[x].Add(d[x], p)
}

// ndx is the distribution of n dX.
func ndx(n, x int) dist {
	d := dist{0: q(1, 1)}
	for range n {
		next := dist{}
		for v, p := range d {
			for f := 1; f <= x; f++ {
				next.put(v+f, mul(p, q(1, int64(x))))
			}
		}
		d = next
	}
	return d
}

func (d dist) floats() map[float64]float64 {
	out := map[float64]float64{}
	for x, p := range d {
		out[float64(x)] = f64(p)
	}
	return out
}

// from is the part of d at x ≥ lo (a variable defined only there holds
// that mass; its statistics are the conditional ones).
func (d dist) from(lo int) dist {
	out := dist{}
	for x, p := range d {
		if x >= lo {
			out.put(x, p)
		}
	}
	return out
}

// given is the part of d at x ≥ lo divided by its mass given: a
// conditional variable's distribution (its masses sum to 1 less what is
// undefined given the condition).
func (d dist) given(lo int, given *big.Rat) dist {
	out := dist{}
	for x, p := range d.from(lo) {
		out.put(x, new(big.Rat).Quo(p, given))
	}
	return out
}

// TestContestClosedForm: a contest (and a chase) ends in round
// Geometric(a + b) with A the winner with P = a/(a + b), a = p_A(1 − p_B),
// b = p_B(1 − p_A).
func TestContestClosedForm(t *testing.T) {
	t.Parallel()
	for _, sc := range [][2]int{{10, 10}, {14, 7}, {3, 18}, {19, 19}, {20, 5}} {
		t.Run(fmt.Sprintf("A=%d,B=%d", sc[0], sc[1]), func(t *testing.T) {
			t.Parallel()
			pa, pb := f64(pr(sc[0], false)), f64(pr(sc[1], false))
			a, b := pa*(1-pb), pb*(1-pa)
			r := mechtest.MustExact(t, registry, "gm.contest", "a_score="+strconv.Itoa(sc[0]), "b_score="+strconv.Itoa(sc[1]), "rounds=2000")
			mechtest.Near(t, "P(A wins)", r.Event("a_wins").P, a/(a+b), 1e-12)
			mechtest.Near(t, "P(B wins)", r.Event("b_wins").P, b/(a+b), 1e-12)
			mechtest.Near(t, "E[rounds]", r.Var("rounds").Stats.Mean, 1/(a+b), 1e-9)
		})
	}
	// Both always succeed: it never resolves, and says so.
	r := mechtest.MustExact(t, registry, "gm.contest", "a_score=20", "b_score=25", "rounds=7")
	mechtest.Near(t, "never_resolves", r.Event("never_resolves").P, 1, 0)
	mechtest.Near(t, "unresolved", r.Event("unresolved").P, 1, 0)
	mechtest.Near(t, "undefined rounds", r.Var("rounds").Undefined, 1, 0)
	// A chase: Movement 7 faster gives the pursuer +2; −10 gives the quarry +3.
	for _, c := range []struct {
		diff    string
		pursuer int
		quarry  int
	}{{"7", 12, 10}, {"-10", 10, 13}, {"2", 10, 10}} {
		t.Run("chase movement_difference="+c.diff, func(t *testing.T) {
			t.Parallel()
			pa, pb := f64(pr(c.pursuer, false)), f64(pr(c.quarry, false))
			a, b := pa*(1-pb), pb*(1-pa)
			r := mechtest.MustExact(t, registry, "gm.chase", "movement_difference="+c.diff, "rounds=2000")
			mechtest.Near(t, "P(caught)", r.Event("caught").P, a/(a+b), 1e-12)
		})
	}
}

// chronicCase is one configuration of gm.ailment.chronic for the oracle.
type chronicCase struct {
	sets              []string
	R, H, s0          int
	willing, allRolls bool
	// onR: a willing victim contracts on R (willing_roll=reaction), not
	// on H; same: the throw-offs are on the reaction of the contraction.
	onR, same     bool
	fade          fadeIndex
	n, x          int
	inj0          int
	feedback, nat bool
	horizon       int
}

// chronicOracle follows the ailment step by step on maps of the total
// effect: the distribution of N (and whether it is still ill), of the
// total, exact.
func chronicOracle(c chronicCase) (n, total dist, still *big.Rat) {
	w := 0
	if c.willing {
		w = 4
	}
	e := ndx(c.n, c.x)
	n, total = dist{}, dist{}
	rc := c.R
	if c.willing && !c.onR {
		rc = c.H // "the reaction is health"
	}
	if c.same {
		c.H = rc
	}
	pc := pr(rc-c.s0-w-c.inj0, c.nat)
	n.put(0, pc)
	total.put(0, pc)
	ill := dist{}
	for v, p := range e {
		ill.put(v, mul(sub(q(1, 1), pc), p))
	}
	for k := 2; k <= c.horizon; k++ {
		s := c.s0 - (k - 1)
		switch c.fade {
		case fadeFirstAtS0:
			s = c.s0 - (k - 2)
		case fadeS0MinusK:
			s = c.s0 - k
		}
		next := dist{}
		for tot, m := range ill {
			tgt := c.H - s - c.inj0
			if c.allRolls {
				tgt -= w
			}
			if c.feedback {
				tgt -= tot
			}
			p := pr(tgt, c.nat)
			n.put(k-1, mul(m, p))
			total.put(tot, mul(m, p))
			for v, pe := range e {
				next.put(tot+v, mul(mul(m, sub(q(1, 1), p)), pe))
			}
		}
		ill = next
	}
	still = new(big.Rat)
	for _, m := range ill {
		still.Add(still, m)
	}
	return n, total, still
}

// TestChronicOracle compares gm.ailment.chronic with chronicOracle.
func TestChronicOracle(t *testing.T) {
	t.Parallel()
	cases := []chronicCase{
		{sets: nil, R: 10, H: 10, s0: 3, fade: fadeFirstAtS0Minus1, n: 1, x: 1, horizon: 100},
		{sets: []string{"R=12", "H=12", "s0=3"}, R: 12, H: 12, s0: 3, n: 1, x: 1, horizon: 100},
		{sets: []string{"opt.fade_index=first_throwoff_at_s0", "willing=1", "opt.willing_penalty=all_rolls", "R=14", "H=13"},
			R: 14, H: 13, s0: 3, willing: true, allRolls: true, fade: fadeFirstAtS0, n: 1, x: 1, horizon: 100},
		{sets: []string{"opt.fade_index=first_throwoff_at_s0", "willing=1", "opt.willing_penalty=all_rolls", "R=14", "H=13", "opt.willing_roll=reaction"},
			R: 14, H: 13, s0: 3, willing: true, allRolls: true, onR: true, fade: fadeFirstAtS0, n: 1, x: 1, horizon: 100},
		{sets: []string{"opt.fade_index=s0_minus_k", "willing=1", "opt.throwoff_reaction=same_as_contraction", "R=9", "H=17"},
			R: 9, H: 17, s0: 3, willing: true, same: true, fade: fadeS0MinusK, n: 1, x: 1, horizon: 100},
		{sets: []string{"opt.fade_index=s0_minus_k", "willing=1", "opt.throwoff_reaction=same_as_contraction", "R=9", "H=17", "opt.willing_roll=reaction"},
			R: 9, H: 17, s0: 3, willing: true, same: true, onR: true, fade: fadeS0MinusK, n: 1, x: 1, horizon: 100},
		// A random effect in injuries, with the injury penalty: a feedback chain.
		{sets: []string{"preset=black_widow", "s0=2", "H=13", "opt.injury_penalty=on", "injuries=1", "horizon=30"},
			R: 10, H: 13, s0: 2, n: 1, x: 2, inj0: 1, feedback: true, horizon: 30},
		// Sleep gas as a chronic ailment: 2d10 minutes a time, no feedback.
		{sets: []string{"preset=sleep_gas", "s0=4", "opt.injury_penalty=on", "injuries=2", "horizon=25"},
			R: 10, H: 10, s0: 4, n: 2, x: 10, inj0: 2, horizon: 25},
		// The naturals keep every throw-off at 95% at most: mass left at the horizon.
		{sets: []string{"opt.naturals=1_succeeds_20_fails", "H=25", "s0=-2", "horizon=6", "effect_dice=2", "effect_sides=3"},
			R: 10, H: 25, s0: -2, n: 2, x: 3, nat: true, horizon: 6},
		// Feedback that outruns the fading: 2 injuries a time.
		{sets: []string{"effect_dice=2", "opt.injury_penalty=on", "H=16", "horizon=40"}, R: 10, H: 16, s0: 3, n: 2, x: 1, feedback: true, horizon: 40},
	}
	for _, c := range cases {
		what := "chronic" + joinSets(c.sets)
		t.Run(what, func(t *testing.T) {
			t.Parallel()
			r := mechtest.MustExact(t, registry, "gm.ailment.chronic", c.sets...)
			n, total, still := chronicOracle(c)
			samePMF(t, what, r.Var("effects"), n.floats(), 1e-12)
			samePMF(t, what, r.Var("total_effect"), total.floats(), 1e-12)
			mechtest.Near(t, what+": P(still ill)", r.Event("still_ill").P, f64(still), 1e-12)
			contracted := sub(q(1, 1), n[0])
			samePMF(t, what, r.Var("effects_if_contracted"), n.given(1, contracted).floats(), 1e-12)
			mechtest.Near(t, what+": P(still ill | contracted)", r.Var("effects_if_contracted").Undefined, f64(still)/f64(contracted), 1e-12)
			mechtest.Near(t, what+": P(contracted) of effects_if_contracted", r.Var("effects_if_contracted").GivenP, f64(contracted), 1e-12)
		})
	}
}

// joinSets is the settings as a suffix of a case's name: each after a
// space.
func joinSets(sets []string) string {
	var b strings.Builder
	for _, s := range sets {
		b.WriteString(" " + s)
	}
	return b.String()
}

// pair is a (count, total) state of an oracle, with the seconds the
// victim is still out at the start of the next action time.
type pair struct{ n, total, out int }

// inescapableCase is one configuration of gm.ailment.inescapable for the
// oracle.
type inescapableCase struct {
	sets              []string
	R, s0, L, n, x    int
	willing, autoFail bool
	// tau is the action time in seconds (a round is 10 s) with autoFail:
	// a victim still out (asleep, paralysed) for the whole of an action
	// time fails its roll; each effect, n dX minutes, takes place at the
	// end of its action time and adds to what is left of the others.
	tau int
	// H is the reaction of a willing victim's rolls (willing_roll=health).
	H             int
	inj0          int
	feedback, nat bool
}

// inescapableOracle follows the L rolls in the area on maps of (count,
// total): the distributions of N and of the total effect, exact.
func inescapableOracle(c inescapableCase) (n, total dist) {
	w := 0
	if c.willing {
		w = 4
	}
	e := ndx(c.n, c.x)
	if c.willing && c.H > 0 {
		c.R = c.H // "the reaction is health"
	}
	states := map[pair]*big.Rat{{0, 0, 0}: q(1, 1)}
	for range c.L {
		next := map[pair]*big.Rat{}
		put := func(k pair, p *big.Rat) {
			if next[k] == nil {
				next[k] = new(big.Rat)
			}
			next[k].Add(next[k], p)
		}
		for st, m := range states {
			tgt := c.R - c.s0 - w - c.inj0
			if c.feedback {
				tgt -= st.total
			}
			p := pr(tgt, c.nat)
			if c.autoFail && st.out >= c.tau {
				p = q(0, 1)
			}
			left := max(st.out-c.tau, 0)
			put(pair{st.n, st.total, left}, mul(m, p))
			for v, pe := range e {
				put(pair{st.n + 1, st.total + v, left + 60*v}, mul(mul(m, sub(q(1, 1), p)), pe))
			}
		}
		states = next
	}
	n, total = dist{}, dist{}
	for st, m := range states {
		n.put(st.n, m)
		total.put(st.total, m)
	}
	return n, total
}

// TestInescapableOracle compares gm.ailment.inescapable with
// inescapableOracle, and sleep gas with its binomial closed form.
func TestInescapableOracle(t *testing.T) {
	t.Parallel()
	cases := []inescapableCase{
		{sets: nil, R: 10, s0: 0, L: 5, n: 2, x: 10},
		{sets: []string{"opt.incapacitation=auto_fail_when_incapacitated", "L=6", "R=13"}, R: 13, L: 6, n: 2, x: 10, autoFail: true, tau: 10},
		// Against the action time: 2d10 minutes outlast 2 rounds and a
		// minute, never a day, and outlast 10 or 20 minutes or not.
		{sets: []string{"opt.incapacitation=auto_fail_when_incapacitated", "L=5", "R=13", "tau=2_rounds"}, R: 13, L: 5, n: 2, x: 10, autoFail: true, tau: 20},
		{sets: []string{"opt.incapacitation=auto_fail_when_incapacitated", "L=5", "R=13", "tau=minute"}, R: 13, L: 5, n: 2, x: 10, autoFail: true, tau: 60},
		{sets: []string{"opt.incapacitation=auto_fail_when_incapacitated", "L=6", "R=13", "tau=10_minutes"}, R: 13, L: 6, n: 2, x: 10, autoFail: true, tau: 600},
		{sets: []string{"opt.incapacitation=auto_fail_when_incapacitated", "L=6", "R=11", "s0=1", "tau=20_minutes", "effect_dice=2", "effect_sides=12"},
			R: 11, s0: 1, L: 6, n: 2, x: 12, autoFail: true, tau: 1200},
		{sets: []string{"opt.incapacitation=auto_fail_when_incapacitated", "L=5", "R=12", "tau=30_minutes", "effect_dice=2", "effect_sides=20", "effect_kind=paralysis_minutes"},
			R: 12, L: 5, n: 2, x: 20, autoFail: true, tau: 1800},
		{sets: []string{"opt.incapacitation=auto_fail_when_incapacitated", "L=6", "R=13", "tau=day"}, R: 13, L: 6, n: 2, x: 10, autoFail: true, tau: 86400},
		// A fixed effect: 3 minutes outlast two 1-minute action times.
		{sets: []string{"opt.incapacitation=auto_fail_when_incapacitated", "L=7", "R=9", "tau=minute", "effect_dice=3", "effect_sides=1"},
			R: 9, L: 7, n: 3, x: 1, autoFail: true, tau: 60},
		{sets: []string{"preset=huge_spider", "opt.injury_penalty=on", "L=7", "R=15", "injuries=1"}, R: 15, s0: 2, L: 7, n: 1, x: 3, inj0: 1, feedback: true},
		{sets: []string{"preset=food_poisoning", "opt.injury_penalty=on", "L=9", "R=16", "willing=1", "H=15"}, R: 16, H: 15, s0: 3, L: 9, n: 1, x: 1, willing: true, feedback: true},
		{sets: []string{"preset=food_poisoning", "opt.injury_penalty=on", "L=9", "R=16", "willing=1", "H=15", "opt.willing_roll=reaction"}, R: 16, s0: 3, L: 9, n: 1, x: 1, willing: true, feedback: true},
		// Auto-fail applies only to effects that incapacitate: not to injuries.
		{sets: []string{"preset=large_spider", "opt.incapacitation=auto_fail_when_incapacitated", "L=4", "opt.naturals=1_succeeds_20_fails", "R=30"},
			R: 30, s0: 1, L: 4, n: 1, x: 2, nat: true},
	}
	for _, c := range cases {
		what := "inescapable" + joinSets(c.sets)
		t.Run(what, func(t *testing.T) {
			t.Parallel()
			n, total := inescapableOracle(c)
			r := mechtest.MustExact(t, registry, "gm.ailment.inescapable", c.sets...)
			samePMF(t, what, r.Var("effects"), n.floats(), 1e-12)
			samePMF(t, what, r.Var("total_effect"), total.floats(), 1e-12)
			mechtest.Near(t, what+": P(affected)", r.Event("affected").P, 1-f64(n[0]), 1e-12)
			if n[0].Cmp(q(1, 1)) != 0 {
				samePMF(t, what, r.Var("effects_if_affected"), n.given(1, sub(q(1, 1), n[0])).floats(), 1e-12)
			}
		})
	}
	t.Run("sleep gas closed form", func(t *testing.T) {
		t.Parallel()
		// N ~ Binomial(5, ½); each effect 2d10 minutes.
		r := mechtest.MustExact(t, registry, "gm.ailment.inescapable")
		for k, want := range []float64{1, 5, 10, 10, 5, 1} {
			mechtest.Near(t, "sleep gas P(N = k)", pmf(r.Var("effects"))[float64(k)], want/32, 1e-12)
		}
		mechtest.Near(t, "sleep gas E[minutes]", r.Var("total_effect").Stats.Mean, 2.5*11, 1e-9)
	})
}

// chronicInescapableCase is one configuration of
// gm.ailment.chronic_inescapable for the oracle.
type chronicInescapableCase struct {
	sets                       []string
	R, H, s0, L, horizon, n, x int
	willing, atS0, afterFirst  bool
	onR                        bool // a willing victim rolls on R (willing_roll=reaction)
	inj0                       int
	feedback, nat              bool
}

// chronicInescapableReading is what the oracle computes: the
// distributions of N, of the total effect, of the effects in the area and
// of the time ill after leaving, P(never affected) and P(still ill).
type chronicInescapableReading struct {
	n, total, inArea, after dist
	resisting, still        *big.Rat
}

// chronicInescapableOracle follows the rolls in the area and then the
// throw-offs on maps of (effects in the area, failed throw-offs, total),
// exact.
func chronicInescapableOracle(c chronicInescapableCase) chronicInescapableReading {
	type st struct{ inArea, after, total int }
	w := 0
	if c.willing {
		w = 4
	}
	e := ndx(c.n, c.x)
	rc := c.R
	if c.willing && !c.onR {
		rc = c.H // "the reaction is health"
	}
	// In the area: P(first failure at j) and the total of the L − j
	// effects that follow it.
	resisting := q(1, 1)
	ill := map[st]*big.Rat{}
	put := func(m map[st]*big.Rat, k st, p *big.Rat) {
		if m[k] == nil {
			m[k] = new(big.Rat)
		}
		m[k].Add(m[k], p)
	}
	for j := range c.L {
		next := map[st]*big.Rat{}
		for s, m := range ill { // the effect, no roll
			for v, pe := range e {
				put(next, st{s.inArea + 1, 0, s.total + v}, mul(m, pe))
			}
		}
		s := c.s0 + j
		if c.afterFirst {
			s = c.s0
		}
		p := pr(rc-s-w-c.inj0, c.nat)
		for v, pe := range e {
			put(next, st{1, 0, v}, mul(mul(resisting, sub(q(1, 1), p)), pe))
		}
		resisting = mul(resisting, p)
		ill = next
	}
	o := chronicInescapableReading{n: dist{}, total: dist{}, inArea: dist{}, after: dist{}, resisting: resisting}
	for _, d := range []dist{o.n, o.total, o.inArea, o.after} {
		d.put(0, resisting) // never affected: no effect, no time ill
	}
	for k := 1; k <= c.horizon; k++ {
		s := c.s0 - k
		if c.atS0 {
			s++
		}
		next := map[st]*big.Rat{}
		for x, m := range ill {
			tgt := c.H - s - c.inj0
			if c.feedback {
				tgt -= x.total
			}
			p := pr(tgt, c.nat)
			cured := mul(m, p)
			o.n.put(x.inArea+x.after, cured)
			o.total.put(x.total, cured)
			o.inArea.put(x.inArea, cured)
			o.after.put(x.after, cured)
			for v, pe := range e {
				put(next, st{x.inArea, x.after + 1, x.total + v}, mul(mul(m, sub(q(1, 1), p)), pe))
			}
		}
		ill = next
	}
	o.still = new(big.Rat)
	for x, m := range ill {
		o.still.Add(o.still, m)
		o.inArea.put(x.inArea, m)
	}
	return o
}

// TestChronicInescapableOracle compares gm.ailment.chronic_inescapable
// with chronicInescapableOracle.
func TestChronicInescapableOracle(t *testing.T) {
	t.Parallel()
	cases := []chronicInescapableCase{
		{sets: nil, R: 10, H: 10, L: 5, horizon: 100, n: 1, x: 1},
		{sets: []string{"opt.growth=after_first_effect", "L=8", "R=14", "opt.first_throwoff_after_exit=at_s0", "s0=2"},
			R: 14, H: 10, s0: 2, L: 8, horizon: 100, n: 1, x: 1, afterFirst: true, atS0: true},
		{sets: []string{"preset=large_spider", "opt.injury_penalty=on", "L=4", "H=14", "injuries=1", "horizon=40"},
			R: 10, H: 14, s0: 1, L: 4, horizon: 40, n: 1, x: 2, inj0: 1, feedback: true},
		{sets: []string{"preset=sleep_gas", "L=3", "opt.naturals=1_succeeds_20_fails", "horizon=12", "willing=1", "R=16"},
			R: 16, H: 10, L: 3, horizon: 12, n: 2, x: 10, willing: true, nat: true},
		{sets: []string{"preset=sleep_gas", "L=3", "opt.naturals=1_succeeds_20_fails", "horizon=12", "willing=1", "R=16", "opt.willing_roll=reaction"},
			R: 16, H: 10, L: 3, horizon: 12, n: 2, x: 10, willing: true, nat: true, onR: true},
		{sets: []string{"effect_dice=2", "opt.injury_penalty=on", "L=3", "H=18", "horizon=30"}, R: 10, H: 18, L: 3, horizon: 30, n: 2, x: 1, feedback: true},
	}
	for _, c := range cases {
		what := "chronic inescapable" + joinSets(c.sets)
		t.Run(what, func(t *testing.T) {
			t.Parallel()
			o := chronicInescapableOracle(c)
			r := mechtest.MustExact(t, registry, "gm.ailment.chronic_inescapable", c.sets...)
			samePMF(t, what, r.Var("effects"), o.n.floats(), 1e-12)
			samePMF(t, what, r.Var("total_effect"), o.total.floats(), 1e-12)
			samePMF(t, what, r.Var("effects_in_area"), o.inArea.floats(), 1e-12)
			samePMF(t, what, r.Var("time_ill_after_leaving"), o.after.floats(), 1e-12)
			mechtest.Near(t, what+": P(affected)", r.Event("affected").P, 1-f64(o.resisting), 1e-12)
			mechtest.Near(t, what+": P(still ill)", r.Event("still_ill").P, f64(o.still), 1e-12)
			affected := sub(q(1, 1), o.resisting)
			samePMF(t, what, r.Var("effects_if_affected"), o.n.given(1, affected).floats(), 1e-12)
			mechtest.Near(t, what+": P(still ill | affected)", r.Var("effects_if_affected").Undefined, f64(o.still)/f64(affected), 1e-12)
		})
	}
}

// TestSimpleAilmentOracle: one roll, and on a failure the effect once.
func TestSimpleAilmentOracle(t *testing.T) {
	t.Parallel()
	// Shadow spider (s = 1, d6), willing (−4, on the health reaction H =
	// 13; R does not count), 2 injuries with the penalty: the roll at
	// 13 − 1 − 4 − 2 = 6 resists with P = 6/20.
	r := mechtest.MustExact(t, registry, "gm.ailment.simple", "preset=shadow_spider", "willing=1", "H=13", "R=3", "opt.injury_penalty=on", "injuries=2")
	mechtest.Near(t, "P(affected)", r.Event("affected").P, 0.7, 1e-15)
	want := map[float64]float64{0: 0.3}
	for v := 1; v <= 6; v++ {
		want[float64(v)] = 0.7 / 6
	}
	samePMF(t, "simple", r.Var("effect"), want, 1e-15)
	mechtest.Near(t, "E[effect | affected]", r.Var("effect_if_affected").Stats.Mean, 3.5, 1e-12)
	// Given affected the effect is d6: 1/6 each, as fractions too.
	v := r.Var("effect_if_affected")
	samePMF(t, "simple, given affected", v, map[float64]float64{1: 1.0 / 6, 2: 1.0 / 6, 3: 1.0 / 6, 4: 1.0 / 6, 5: 1.0 / 6, 6: 1.0 / 6}, 1e-15)
	if len(v.Exact) != 6 || v.Exact[0] != "1/6" || v.Exact[5] != "1/6" || v.Undefined != 0 || v.Given != "affected" {
		t.Errorf("effect_if_affected: exact %v, undefined %v, given %q; want 1/6 each, 0, affected", v.Exact, v.Undefined, v.Given)
	}
}

// TestFallOracle compares gm.fall with the falling table applied to every
// natural and every sum of the dice.
func TestFallOracle(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sets               []string
		h                  float64
		ev                 int
		upTo, ceil, halfIn bool
	}{
		{[]string{"height=5", "evasion=12"}, 5, 12, false, false, false},
		{[]string{"height=9.5", "evasion=7"}, 9.5, 7, false, false, false},
		{[]string{"height=15", "evasion=10"}, 15, 10, false, false, false},
		{[]string{"height=15", "evasion=10", "opt.halving=ceil", "opt.injuries_when_halved=half_the_dice"}, 15, 10, false, true, true},
		{[]string{"height=20", "evasion=14"}, 20, 14, false, false, false},
		{[]string{"height=20", "evasion=14", "opt.evasion_limit=up_to_20ft", "opt.injuries_when_halved=half_the_dice"}, 20, 14, true, false, true},
		{[]string{"height=79", "evasion=20"}, 79, 20, false, false, false},
		{[]string{"height=320"}, 320, 10, false, false, false},
	} {
		t.Run("fall"+joinSets(c.sets), func(t *testing.T) {
			t.Parallel()
			n := 0
			for _, lo := range []float64{0, 10, 20, 40, 80, 160, 320} {
				if c.h >= lo {
					n++
				}
			}
			dmg, inj := dist{}, dist{}
			for nat := 1; nat <= 20; nat++ {
				for sum, p := range ndx(n, 6) {
					p := mul(p, q(1, 20))
					evades := nat <= c.ev && (c.h < 20 || (c.h == 20 && c.upTo))
					d, i := sum, n
					switch {
					case evades && c.h < 10:
						d, i = 0, 0
					case evades && c.ceil:
						d, i = (sum+1)/2, 0
					case evades:
						d, i = sum/2, 0
					}
					if evades && c.h >= 10 && c.halfIn {
						i = n / 2
					}
					dmg.put(d, p)
					inj.put(i, p)
				}
			}
			r := mechtest.MustExact(t, registry, "gm.fall", c.sets...)
			samePMF(t, "fall"+joinSets(c.sets), r.Var("damage"), dmg.floats(), 1e-12)
			samePMF(t, "fall"+joinSets(c.sets), r.Var("injuries"), inj.floats(), 1e-12)
		})
	}
}

// TestJumpOracle compares gm.jump with the doubling penalty applied to
// every natural.
func TestJumpOracle(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sets   []string
		T      int
		factor float64
		target float64
	}{
		{nil, 18, 1, 4},
		{[]string{"agility=14", "strength_bonus=3", "modifier=-2"}, 23, 1, 4},
		{[]string{"kind=across", "running=12", "target=6"}, 30, 1, 6},
		{[]string{"size=small", "target=3"}, 18, 0.75, 3},
		{[]string{"size=titanic", "target=50"}, 18, 16, 50},
		{[]string{"agility=0", "modifier=-9"}, -1, 1, 4},
	} {
		t.Run("jump"+joinSets(c.sets), func(t *testing.T) {
			t.Parallel()
			height := dist{}
			reach := 0.0
			for nat := 1; nat <= 20; nat++ {
				H := 0
				for h := 1; ; h++ {
					pen := 0
					if h >= 2 {
						pen = 1 << (h - 2)
					}
					if nat > c.T-pen {
						break
					}
					H = h
				}
				height.put(H, q(1, 20))
				if float64(H)*c.factor >= c.target {
					reach += 1.0 / 20
				}
			}
			r := mechtest.MustExact(t, registry, "gm.jump", c.sets...)
			samePMF(t, "jump"+joinSets(c.sets), r.Var("height"), height.floats(), 1e-15)
			mechtest.Near(t, "P(reach)"+joinSets(c.sets), r.Event("reaches_target").P, reach, 1e-12)
			mechtest.Near(t, "E[distance]"+joinSets(c.sets), r.Var("distance").Stats.Mean, r.Var("height").Stats.Mean*c.factor, 1e-12)
		})
	}
	// The cliff: the doubling penalty stops a human around 4–5 feet.
	mechtest.Near(t, "max height, agility 10", mechtest.MustExact(t, registry, "gm.jump").Var("height").Stats.Max, 6, 0)
}

// series is the Poisson-binomial (or, with feedback, the chain) of K
// health rolls at targets target(j, injuries): the injuries, exact.
func series(K int, nat bool, target func(j, inj int) int) dist {
	d := dist{0: q(1, 1)}
	for j := range K {
		next := dist{}
		for inj, m := range d {
			p := pr(target(j, inj), nat)
			next.put(inj, mul(m, p))
			next.put(inj+1, mul(m, sub(q(1, 1), p)))
		}
		d = next
	}
	return d
}

// TestHealthSeriesOracles compares gm.forced_march and gm.daily_push with
// series.
func TestHealthSeriesOracles(t *testing.T) {
	t.Parallel()
	// Forced march: push j at H + 2r − 2(e + j) − w.
	for _, c := range []struct {
		sets                []string
		H, r, e, w, K, inj0 int
		feedback, nat       bool
	}{
		{nil, 10, 0, 0, 0, 4, 0, false, false},
		{[]string{"movement_given_up=3", "water=2", "earlier_rolls=1", "pushes=6"}, 10, 3, 1, 2, 6, 0, false, false},
		{[]string{"opt.injury_penalty=on", "injuries=1", "pushes=8", "health=16"}, 16, 0, 0, 0, 8, 1, true, false},
		{[]string{"opt.naturals=1_succeeds_20_fails", "health=4", "pushes=5"}, 4, 0, 0, 0, 5, 0, false, true},
	} {
		t.Run("forced march"+joinSets(c.sets), func(t *testing.T) {
			t.Parallel()
			want := series(c.K, c.nat, func(j, inj int) int {
				t := c.H + 2*c.r - 2*(c.e+j) - c.w - c.inj0
				if c.feedback {
					t -= inj
				}
				return t
			})
			r := mechtest.MustExact(t, registry, "gm.forced_march", c.sets...)
			samePMF(t, "forced march"+joinSets(c.sets), r.Var("injuries"), want.floats(), 1e-12)
			mechtest.Near(t, "injuries per distance"+joinSets(c.sets), r.Var("injuries_per_distance").Stats.Mean,
				r.Var("injuries").Stats.Mean/float64(c.K*(12-c.r)), 1e-12)
		})
	}
	// Daily push: Binomial(K, 1 − p), or −2 per earlier push.
	for _, c := range []struct {
		sets             []string
		H, K, step, inj0 int
		feedback         bool
	}{
		{nil, 10, 5, 0, 0, false},
		{[]string{"opt.earlier_rolls=minus_2_each", "days=6", "health=15"}, 15, 6, 2, 0, false},
		{[]string{"opt.injury_penalty=on", "days=10", "health=14", "injuries=2"}, 14, 10, 0, 2, true},
	} {
		t.Run("daily push"+joinSets(c.sets), func(t *testing.T) {
			t.Parallel()
			want := series(c.K, false, func(j, inj int) int {
				t := c.H - c.step*j - c.inj0
				if c.feedback {
					t -= inj
				}
				return t
			})
			samePMF(t, "daily push"+joinSets(c.sets), mechtest.MustExact(t, registry, "gm.daily_push", c.sets...).Var("injuries"), want.floats(), 1e-12)
		})
	}
}

// TestSuffocationOracle compares gm.suffocation with the rolls followed
// for each buffer, and the round of the k-th injury.
func TestSuffocationOracle(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sets                     []string
		health, minutes, k, inj0 int
		buffer                   dist
		slow                     int
		feedback, nat            bool
	}{
		{nil, 10, 10, 1, 0, dist{1: q(1, 4), 2: q(1, 4), 3: q(1, 4), 4: q(1, 4)}, 1, false, false},
		{[]string{"prepared=1", "endurance=14", "minutes=8", "k=3"}, 10, 8, 3, 0, dist{14: q(1, 1)}, 1, false, false},
		{[]string{"at_rest=1", "minutes=20", "endurance_bonus=5", "health=13"}, 13, 20, 1, 0, dist{3: q(1, 4), 4: q(1, 4), 5: q(1, 4), 6: q(1, 4)}, 2, false, false},
		{[]string{"opt.injury_penalty=on", "injuries=2", "k=3", "health=16"}, 16, 10, 3, 2, dist{1: q(1, 4), 2: q(1, 4), 3: q(1, 4), 4: q(1, 4)}, 1, true, false},
		{[]string{"opt.naturals=1_succeeds_20_fails", "endurance_bonus=-8", "minutes=3", "k=2"}, 10, 3, 2, 0, dist{0: q(1, 1)}, 1, false, true},
		{[]string{"minutes=0"}, 10, 0, 1, 0, dist{1: q(1, 4), 2: q(1, 4), 3: q(1, 4), 4: q(1, 4)}, 1, false, false},
	} {
		t.Run("suffocation"+joinSets(c.sets), func(t *testing.T) {
			t.Parallel()
			D, every := 6*c.minutes, 6*c.slow
			inj, roundK := dist{}, dist{}
			for b, pb := range c.buffer {
				// The rolls j with b·slow + 6j·slow < D; the k-th injury's round.
				d := dist{0: pb}
				for j := 0; b*c.slow+j*every < D; j++ {
					next := dist{}
					for n, m := range d {
						tgt := c.health - j - c.inj0
						if c.feedback {
							tgt -= n
						}
						p := pr(tgt, c.nat)
						next.put(n, mul(m, p))
						fail := mul(m, sub(q(1, 1), p))
						if n+1 == c.k {
							roundK.put(b*c.slow+j*every, fail)
						}
						next.put(n+1, fail)
					}
					d = next
				}
				for n, m := range d {
					inj.put(n, m)
				}
			}
			r := mechtest.MustExact(t, registry, "gm.suffocation", c.sets...)
			what := "suffocation" + joinSets(c.sets)
			samePMF(t, what, r.Var("injuries"), inj.floats(), 1e-12)
			// rounds_to_k_injuries is defined where the k-th injury came.
			got := pmf(r.Var("rounds_to_k_injuries"))
			for x, p := range roundK {
				mechtest.Near(t, what+": P(k-th injury at round "+strconv.Itoa(x)+")", got[float64(x)], f64(p), 1e-12)
			}
		})
	}
}

// TestReactionsClosedForms checks concentration, semi-consciousness,
// disbelieving, item reactions and tracking against their closed forms,
// one subtest a mechanic.
func TestReactionsClosedForms(t *testing.T) {
	t.Parallel()
	t.Run("concentration", func(t *testing.T) {
		t.Parallel()
		// Concentration: P(it survives k hits) = p^k.
		for _, c := range []struct {
			ev, k int
		}{{10, 3}, {6, 12}, {17, 1}} {
			r := mechtest.MustExact(t, registry, "gm.concentration", "evasion="+strconv.Itoa(c.ev), "hits="+strconv.Itoa(c.k))
			mechtest.Near(t, "concentration survives", r.Event("survives").P, math.Pow(float64(c.ev)/20, float64(c.k)), 1e-12)
		}
	})
	t.Run("semiconscious", func(t *testing.T) {
		t.Parallel()
		// Semi-consciousness: E[delay] = 2.5·(1 − p).
		for _, w := range []int{0, 7, 12, 20} {
			r := mechtest.MustExact(t, registry, "gm.semiconscious", "willpower="+strconv.Itoa(w))
			mechtest.Near(t, "E[delay]", r.Var("delay").Stats.Mean, 2.5*(1-float64(w)/20), 1e-12)
		}
	})
	t.Run("disbelieve", func(t *testing.T) {
		t.Parallel()
		// Disbelieving: every pair of naturals.
		for _, c := range []struct {
			sets          []string
			target, other int
			grant         bool
		}{
			{[]string{"penalty=7", "bonus=2"}, 10 + 2 - 7, 10 + 2 - 7, false},
			{[]string{"route=willpower", "penalty=5", "willpower=12"}, 12 - 2, 10 - 5, true},
			{[]string{"route=willpower", "penalty=5", "opt.willpower_penalty=half_ceil"}, 10 - 3, 5, true},
			{[]string{"route=willpower", "penalty=5", "opt.willpower_penalty=full"}, 10 - 5, 5, true},
		} {
			var dis, oth float64
			for n := 1; n <= 20; n++ {
				for o := 1; o <= 20; o++ {
					tgt := c.other
					if n <= c.target {
						dis += 1.0 / 400
						if c.grant {
							tgt += 2
						}
					}
					if o <= tgt {
						oth += 1.0 / 400
					}
				}
			}
			r := mechtest.MustExact(t, registry, "gm.disbelieve", c.sets...)
			mechtest.Near(t, "disbelieves"+joinSets(c.sets), r.Event("disbelieves").P, dis, 1e-12)
			mechtest.Near(t, "other disbelieves"+joinSets(c.sets), r.Event("other_disbelieves").P, oth, 1e-12)
		}
		dmg := mechtest.MustExact(t, registry, "gm.disbelieve", "phantasmal_damage=23", "perception=20")
		mechtest.Near(t, "phantasmal damage kept: a tenth, rounded up", dmg.Var("damage_remaining").Stats.Mean, 3, 0)
	})
	t.Run("item_reaction", func(t *testing.T) {
		t.Parallel()
		// Item reactions: the seed's own thickness examples for glass.
		for _, c := range []struct {
			th   string
			want int
		}{{"0.2", 0}, {"0.25", 1}, {"0.5", 2}, {"1", 3}, {"2", 4}, {"3.9", 4}, {"4", 5}} {
			r := mechtest.MustExact(t, registry, "gm.item_reaction", "material=glass", "attack=fire", "thickness="+c.th)
			mechtest.Near(t, "glass "+c.th+"″ P(damaged)", r.Event("damaged").P, 1-math.Min(float64(4+8+c.want)/20, 1), 1e-15)
		}
		r := mechtest.MustExact(t, registry, "gm.item_reaction", "material=paper", "attack=fire", "thickness=0.5", "modifier=-3")
		mechtest.Near(t, "paper vs fire", r.Event("damaged").P, 1-float64(4-2+1-3)/20, 1e-15)
		r = mechtest.MustExact(t, registry, "gm.item_reaction", "opt.table=user", "user_bonus=3", "user_base_thickness=0.3", "thickness=2.5")
		mechtest.Near(t, "user table: 3 doublings past 0.3″", r.Event("damaged").P, 1-float64(4+3+4)/20, 1e-15)
		mechtest.Near(t, "destroyed needs damage ≥ weight", mechtest.MustExact(t, registry, "gm.item_reaction", "damage=4", "weight=4.5").Event("destroyed").P, 0, 0)
	})
	t.Run("tracking", func(t *testing.T) {
		t.Parallel()
		// Tracking: Σ_m P(M = m)·p(P − days + g − m) + P(cover fails)·p(P − days + g).
		for _, c := range []struct {
			P, days, g, qp int
		}{{10, 0, 1, 10}, {14, 3, 6, 8}, {12, 1, 100, 15}} {
			gb := int(math.Floor(math.Log2(float64(c.g))))
			var want float64
			for n := 1; n <= 20; n++ {
				m := 0
				if n <= c.qp {
					m = c.qp - n
				}
				want += f64(pr(c.P-c.days+gb-m, false)) / 20
			}
			r := mechtest.MustExact(t, registry, "gm.tracking", "perception="+strconv.Itoa(c.P), "days="+strconv.Itoa(c.days), "group="+strconv.Itoa(c.g),
				"covers=1", "quarry_perception="+strconv.Itoa(c.qp))
			mechtest.Near(t, "P(track)", r.Event("tracked").P, want, 1e-12)
		}
		mechtest.Near(t, "P(track), no cover, 4 days, group 9", mechtest.MustExact(t, registry, "gm.tracking", "days=4", "group=9").Event("tracked").P, (10-4+3)/20.0, 1e-15)
	})
}

// TestTables: the group bonus, the movement table and a minor
// contributor's share, as the seed gives them.
func TestTables(t *testing.T) {
	t.Parallel()
	for g, want := range map[int]int{1: 0, 2: 1, 3: 1, 4: 2, 7: 2, 8: 3, 1000: 9} {
		if got := groupBonus(g); got != want {
			t.Errorf("groupBonus(%d) = %d; want %d", g, got, want)
		}
	}
	for m, want := range map[movement][2]int{moveNone: {0, 0}, moveDash: {1, 1}, moveWalk: {2, 0}, moveJog: {4, 2}, moveRun: {8, 4}, moveSprint: {16, 8}} {
		if got := [2]int{movementPenalty(m, terrainDangerous), movementPenalty(m, terrainOutdoors)}; got != want {
			t.Errorf("movementPenalty(%s) = %v; want %v", m, got, want)
		}
	}
	for b, want := range map[int]int{-5: -2, -1: 0, 0: 0, 1: 0, 3: 1, 4: 2} {
		if got := minor(b); got != want {
			t.Errorf("minor(%d) = %d; want %d", b, got, want)
		}
	}
}
