package bd

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

// The rank ladder (see the package doc) with its three options.
func TestLadder(t *testing.T) {
	t.Parallel()
	type want struct{ n, sides int }
	cases := []struct {
		l      ladderRules
		k, die int
		s      steps
		want   want
	}{
		{ladderRules{}, 2, 10, steps{}, want{2, 10}},
		{ladderRules{}, 2, 10, steps{challenges: 1}, want{2, 8}},
		{ladderRules{}, 2, 10, steps{challenges: 9}, want{2, 4}},                             // floor d4
		{ladderRules{}, 2, 10, steps{charges: 1}, want{2, 12}},                               // d10 → d12
		{ladderRules{}, 2, 10, steps{charges: 2}, want{2, 20}},                               // d12 → d20
		{ladderRules{}, 2, 10, steps{charges: 5}, want{2, 20}},                               // cap
		{ladderRules{}, 2, 10, steps{charges: 2, challenges: 2}, want{2, 10}},                // cancel one for one
		{ladderRules{}, 2, 10, steps{wounded: true}, want{2, 8}},                             // heroic → ordinary
		{ladderRules{}, 2, 10, steps{charges: 1, wounded: true}, want{2, 10}},                // a charge cancels the wound
		{ladderRules{}, 2, 10, steps{charges: 3, wounded: true}, want{2, 20}},                // surplus charges absorb it
		{ladderRules{cancellable: no}, 2, 10, steps{charges: 3, wounded: true}, want{2, 12}}, // not past d12 wounded
		{ladderRules{cancellable: no}, 2, 10, steps{charges: 1, wounded: true}, want{2, 10}},
		{ladderRules{cancellable: no}, 2, 4, steps{wounded: true}, want{2, 4}},
		{ladderRules{above: aboveExtraDie}, 2, 10, steps{charges: 2}, want{2, 20}},
		{ladderRules{above: aboveExtraDie}, 2, 10, steps{charges: 4}, want{4, 20}}, // two steps past d20: two more d20
		{ladderRules{above: aboveExtraDie}, 0, 10, steps{charges: 4}, want{0, 20}}, // no bonus dice, none added
		{ladderRules{above: aboveExtraDie}, 1, 10, steps{charges: 4, wounded: true}, want{2, 20}},
		// Not cancellable with extra d20s: the wound takes one step off the
		// top of what was built, so one extra d20 goes.
		{ladderRules{above: aboveExtraDie, cancellable: no}, 1, 10, steps{charges: 4, wounded: true}, want{2, 20}},
		{ladderRules{above: aboveExtraDie, cancellable: no}, 2, 20, steps{charges: 3, wounded: true}, want{4, 20}},
		{ladderRules{above: aboveExtraDie, cancellable: no}, 2, 10, steps{charges: 2, wounded: true}, want{2, 12}}, // d20 → d12
		{ladderRules{above: aboveExtraDie, cancellable: no}, 2, 10, steps{charges: 1, challenges: 3, wounded: true}, want{2, 4}},
		{ladderRules{above: aboveExtraDie, cancellable: no}, 0, 10, steps{charges: 4, wounded: true}, want{0, 12}}, // no dice: capped
		{ladderRules{cancellable: no}, 2, 20, steps{charges: 3, wounded: true}, want{2, 12}},                       // cap: at most d12
		{ladderRules{}, 1, 20, steps{}, want{1, 20}},
		{ladderRules{}, 1, 4, steps{charges: 1}, want{1, 6}},
	}
	for _, c := range cases {
		base, err := rungOf("rank", c.die)
		if err != nil {
			t.Fatal(err)
		}
		b := c.l.bonus(c.k, base, c.s)
		if b.n != c.want.n || b.sides != c.want.sides {
			t.Errorf("%+v: %d dice of rank d%d %+v → %s; want %dd%d!", c.l, c.k, c.die, c.s, b, c.want.n, c.want.sides)
		}
	}
	for _, bad := range []int{3, 5, 7, 9, 11, 13, 19, 21} {
		if _, err := rungOf("rank", bad); err == nil {
			t.Errorf("rank %d accepted", bad)
		}
	}
	// Off the ladder is bad input at the command level.
	m, _ := registry.Lookup("bd.core.check")
	c, err := m.Configure([]string{"rank=7"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Model(c); !mechanics.IsInput(err) {
		t.Errorf("rank=7: %v; want bad input", err)
	}
	// The options reach the model: a wounded d10 roll with a charge.
	mechtest.Near(t, "wounded with a charge", event(t, mechtest.MustExact(t, registry, "bd.core.check", "wounded=1", "charges=1", "vs=16"), "success"), .7915, 5e-5)
	mechtest.Near(t, "extra d20s", event(t, mechtest.MustExact(t, registry, "bd.core.check", "k=1", "charges=3", "vs=30", "opt.above_d20=extra_die"), "success"),
		event(t, mechtest.MustExact(t, registry, "bd.core.check", "k=2", "rank=20", "vs=30"), "success"), 1e-12)
	// The case end to end: two d20s and three charges past d20, a
	// wound charges cannot cancel: one extra d20 goes, four d20s are left.
	woundedTop := mechtest.MustExact(t, registry, "bd.check", "k=2", "rank=20", "charges=3", "wounded=1", "vs=40",
		"opt.above_d20=extra_die", "opt.wounded_cancellable=no")
	mechtest.Near(t, "a wound takes one extra d20", event(t, woundedTop, "success"),
		event(t, mechtest.MustExact(t, registry, "bd.check", "k=4", "rank=20", "vs=40"), "success"), 1e-12)
	gt := event(t, mechtest.MustExact(t, registry, "bd.core.check", "vs=20", "opt.vs_compare=greater_than"), "success")
	mechtest.Near(t, "greater_than is at_least one higher", gt, event(t, mechtest.MustExact(t, registry, "bd.core.check", "vs=21"), "success"), 1e-12)
}

// Guard: size, cover, behind-unaware (bd.attack).
func TestGuard(t *testing.T) {
	t.Parallel()
	cases := []struct {
		base   int
		a, tg  size
		cover  coverKind
		behind bool
		want   int
		doc    string
	}{
		{15, medium, medium, coverNone, false, 15, "plain"},
		{15, medium, tiny, coverNone, false, 25, "a human attacking a mouse: +10"},
		{15, colossal, medium, coverNone, false, 35, "a behemoth attacking a human: +20"},
		{15, tiny, colossal, coverNone, false, 15, "smaller attackers get nothing"},
		{15, medium, medium, coverLight, false, 25, "light cover"},
		{15, medium, medium, coverPartial, false, 18, "partial cover"},
		{15, medium, medium, coverFull, false, 20, "full cover"},
		{15, medium, medium, coverNone, true, 8, "behind, unaware: 15 → 8"},
		{16, large, medium, coverPartial, true, 12, "⌈24/2⌉"},
	}
	for _, c := range cases {
		t.Run(c.doc, func(t *testing.T) {
			t.Parallel()
			if g := guardOf(c.base, c.a, c.tg, c.cover, c.behind); g != c.want {
				t.Errorf("%s: Guard %d; want %d", c.doc, g, c.want)
			}
		})
	}
	// Prone is one challenge, off-hand two.
	mechtest.Near(t, "prone", event(t, mechtest.MustExact(t, registry, "bd.attack", "prone=1"), "hit"), event(t, mechtest.MustExact(t, registry, "bd.attack", "rank=8"), "hit"), 1e-12)
	mechtest.Near(t, "off-hand", event(t, mechtest.MustExact(t, registry, "bd.attack", "off_hand=1"), "hit"), event(t, mechtest.MustExact(t, registry, "bd.attack", "rank=6"), "hit"), 1e-12)
	mechtest.Near(t, "size", event(t, mechtest.MustExact(t, registry, "bd.attack", "size_a=large", "size_t=small"), "hit"), event(t, mechtest.MustExact(t, registry, "bd.attack", "guard=25"), "hit"), 1e-12)
}

// Armour: the rank subtracted, the quality rules (bd.armor).
func TestArmor(t *testing.T) {
	t.Parallel()
	cases := []struct {
		w, a, d int
		ar      int
		cover   coverKind
		dt      damageType
		ig      ignoredArmor
		want    armour
	}{
		{2, 2, 2, 3, coverNone, physical, ignoresWorn, armour{effective: 3, worn: 3}},
		{3, 0, 2, 3, coverNone, physical, ignoresWorn, armour{}},                      // heroic ignores feeble armour
		{3, 1, 2, 3, coverNone, physical, ignoresWorn, armour{effective: 3, worn: 3}}, // two steps: not ignored
		{2, 0, 2, 3, coverNone, physical, ignoresWorn, armour{effective: 3, worn: 3}}, // ordinary weapons ignore nothing
		{5, 2, 2, 3, coverFull, physical, ignoresWorn, armour{effective: 10}},         // legendary ignores ordinary armour, not the cover
		{5, 2, 2, 3, coverFull, energy, ignoresWorn, armour{effective: 10}},           // energy: the cover still stops some
		{5, 2, 2, 3, coverFull, physical, ignoresWornAndCover, armour{}},              // the earlier reading: cover too
		{5, 2, 2, 3, coverFull, energy, ignoresWornAndCover, armour{}},
		{5, 3, 2, 3, coverFull, physical, ignoresWornAndCover, armour{effective: 13, worn: 3}}, // two steps: nothing ignored
		{0, 3, 2, 3, coverPartial, physical, ignoresWorn, armour{effective: 8, worn: 3, unharmed: true}},
		{2, 2, 2, 3, coverPartial, energy, ignoresWorn, armour{effective: 5}},
		{3, 2, 4, 3, coverNone, physical, ignoresWorn, armour{effective: 3, worn: 3, immune: true}}, // epic Durability
		{4, 2, 4, 3, coverNone, physical, ignoresWorn, armour{effective: 3, worn: 3}},
		{1, 2, 2, 3, coverNone, physical, ignoresWorn, armour{effective: 3, worn: 3}}, // below heroic: no immunity rule
	}
	for _, c := range cases {
		if got := armourOf(c.w, c.a, c.d, c.ar, c.cover, c.dt, c.ig); got != c.want {
			t.Errorf("weapon %d armour %d durability %d AR %d %v %v %v: %+v; want %+v", c.w, c.a, c.d, c.ar, c.cover, c.dt, c.ig, got, c.want)
		}
	}
	// d8 + d10! against AR 3: D_after = max(0, D − 3).
	r := mechtest.MustExact(t, registry, "bd.armor")
	d := variable(t, r, "damage")
	after, got := 0.0, 0.0
	for i, p := range d.P {
		v := d.Value(i)
		after += p * math.Max(0, v-3)
		if v > 3 {
			got += p
		}
	}
	mechtest.Near(t, "E[D_after]", variable(t, r, "damage_after").Stats.Mean, after, 1e-9)
	mechtest.Near(t, "P(gets through)", event(t, r, "gets_through"), got, 1e-12)
	mechtest.Near(t, "minimum one", event(t, mechtest.MustExact(t, registry, "bd.armor", "ar=50", "opt.minimum=one"), "gets_through"), 1, 1e-12)
	mechtest.Near(t, "immune", event(t, mechtest.MustExact(t, registry, "bd.armor", "durability_quality=10"), "gets_through"), 0, 0)
	// A legendary weapon against ordinary armour behind full cover: the worn
	// armour is ignored, the cover's 10 still stops damage (by default), as
	// if the armour were not there.
	legend := mechtest.MustExact(t, registry, "bd.armor", "quality=20", "armor_quality=8", "cover=full")
	mechtest.Near(t, "worn armour ignored, cover counts", variable(t, legend, "damage_after").Stats.Mean,
		variable(t, mechtest.MustExact(t, registry, "bd.armor", "quality=20", "ar=0", "cover=full"), "damage_after").Stats.Mean, 1e-9)
	if p := event(t, legend, "gets_through"); p > .99 {
		t.Errorf("full cover against a legendary weapon stops nothing: P(gets through) = %v", p)
	}
	mechtest.Near(t, "worn_and_cover: nothing subtracted, energy damage too",
		variable(t, mechtest.MustExact(t, registry, "bd.armor", "quality=20", "armor_quality=8", "cover=full", "damage_type=energy",
			"opt.ignored_armor=worn_and_cover"), "damage_after").Stats.Mean,
		variable(t, legend, "damage").Stats.Mean, 1e-9)
	mechtest.Near(t, "highest AR counts", variable(t, mechtest.MustExact(t, registry, "bd.armor", "ar=1", "ar_second=3"), "damage_after").Stats.Mean, after, 1e-9)
}

// The damage track against sums it must equal.
func TestTrack(t *testing.T) {
	t.Parallel()
	// Every attack hits for d4 (Guard 0, no reaction, no bonus dice):
	// one Durability, three Health. carries: the first hit shocks on a 4.
	base := []string{"durability=1", "health=3", "guard=0", "react=0", "dv=1", "quality=4", "k_b=0", "rounds=50"}
	c := mechtest.MustExact(t, registry, "bd.track", base...)
	mechtest.Near(t, "P(1 hit to shock), carries", variable(t, c, "hits_to_shock").P[0], .25, 1e-12)
	mechtest.Near(t, "P(1 attack to shock), carries", variable(t, c, "attacks_to_shock").P[0], .25, 1e-12)
	mechtest.Near(t, "hits to wounded", variable(t, c, "hits_to_wounded").Stats.Mean, 1, 1e-12)
	l := mechtest.MustExact(t, registry, "bd.track", append(base, "opt.overflow=lost")...)
	if v := variable(t, l, "hits_to_shock"); v.Lo != 2 {
		t.Errorf("overflow lost: shock can come with hit %d", v.Lo)
	}
	// lost: the first hit only wounds; then d4s until they reach 3:
	// N(3) = 1 + N(2)/4 + N(1)/4 with N(2) = 1 + N(1)/4, N(1) = 1.
	mechtest.Near(t, "lost: hits to shock", variable(t, l, "hits_to_shock").Stats.Mean, 1+(1+1.25/4+1.0/4), 1e-12)

	// The reaction switches when wounded: U = H = 1 and no overflow, each
	// hit does damage, so E[attacks to shock] = 1/P(hit fresh) + 1/P(hit
	// wounded).
	fresh := event(t, mechtest.MustExact(t, registry, "bd.defense"), "hit")
	wounded := event(t, mechtest.MustExact(t, registry, "bd.defense", "wounded_d=1"), "hit")
	if wounded <= fresh {
		t.Fatalf("a wounded defender is hit less often: %v ≤ %v", wounded, fresh)
	}
	r := mechtest.MustExact(t, registry, "bd.track", "durability=1", "health=1", "rounds=100", "opt.overflow=lost")
	mechtest.Near(t, "E[attacks to wounded]", variable(t, r, "attacks_to_wounded").Stats.Mean, 1/fresh, 1e-9)
	mechtest.Near(t, "E[attacks to shock]", r.Process.MeanTimeUnbounded, 1/fresh+1/wounded, 1e-9)
	mechtest.Near(t, "E[rounds to shock] over rounds", variable(t, r, "death_round").Stats.Mean-variable(t, r, "rounds_to_shock").Stats.Mean, 10, 1e-9)

	// Without reactions the attacks are a thinning of the hits (Wald):
	// E[attacks] = E[hits]/P(hit).
	h := event(t, mechtest.MustExact(t, registry, "bd.attack"), "hit")
	w := mechtest.MustExact(t, registry, "bd.track", "react=0", "rounds=100")
	mechtest.Near(t, "Wald", w.Process.MeanTimeUnbounded, variable(t, w, "hits_to_shock").Stats.Mean/h, 1e-6)
	// Durability 60 × Health 40 runs exactly (timed in BenchmarkTrackExact).
	big := mechtest.MustExact(t, registry, "bd.track", "durability=60", "health=40", "rounds=100")
	if p := event(t, big, "shock"); p < .99 {
		t.Errorf("60 × 40: P(shock within 100 rounds) = %v", p)
	}
}

// The reaction economy, on rounds where every attack beats Guard and
// nothing recovers, against the count by hand.
func TestVigor(t *testing.T) {
	t.Parallel()
	base := []string{"guard=0", "attacks=1", "stamina=0", "rounds=50"}
	cases := []struct {
		sets                     []string
		unanswered, windedRounds float64 // 0: undefined
	}{
		{[]string{"vigor=20"}, 5, 4},                                         // four reactions, winded, the fifth unanswered
		{[]string{"vigor=12"}, 3, 0},                                         // 12 → 7 → 2, then too little
		{[]string{"vigor=12", "opt.spend_below_cost=allowed_to_zero"}, 4, 3}, // 12 → 7 → 2 → 0
		{[]string{"vigor=12", "defend=1"}, 5, 4},                             // 12 → 9 → 6 → 3 → 0: winded at 4
	}
	for _, c := range cases {
		t.Run(join(c.sets), func(t *testing.T) {
			t.Parallel()
			r := mechtest.MustExact(t, registry, "bd.vigor", append(append([]string(nil), base...), c.sets...)...)
			u := variable(t, r, "rounds_to_unanswered")
			mechtest.Near(t, "rounds to unanswered "+join(c.sets), u.Stats.Mean, c.unanswered, 1e-12)
			mechtest.Near(t, "P(unanswered)", event(t, r, "unanswered"), 1, 1e-12)
			wv := variable(t, r, "rounds_to_winded")
			if c.windedRounds == 0 {
				mechtest.Near(t, "never winded "+join(c.sets), wv.Undefined, 1, 1e-9)
			} else {
				mechtest.Near(t, "rounds to winded "+join(c.sets), wv.Stats.Mean, c.windedRounds, 1e-12)
			}
		})
	}
	// At 0 Vigor the creature is winded: with no Vigor at all it is winded
	// from the start (round 0) and stays so, whatever the attacks do.
	for _, guard := range []string{"guard=15", "guard=200"} {
		z := mechtest.MustExact(t, registry, "bd.vigor", "vigor=0", guard)
		mechtest.Near(t, "P(winded) at 0 Vigor, "+guard, event(t, z, "winded"), 1, 1e-12)
		mechtest.Near(t, "rounds to winded at 0 Vigor, "+guard, variable(t, z, "rounds_to_winded").Stats.Mean, 0, 0)
	}
	mechtest.Near(t, "winded at the end at 0 Vigor", event(t, mechtest.MustExact(t, registry, "bd.vigor", "vigor=0", "guard=200"), "winded_at_end"), 1, 1e-9)
	// The economy keeps it so (bd.skirmish starts from the same state).
	if _, w := (economy{vmax: 0, recovery: 2}).recover(0, false); !w {
		t.Error("a creature with 0 Vigor after recovery is not winded")
	}
	if _, w := (economy{vmax: 20, recovery: 2}).recover(3, true); w {
		t.Error("a winded creature back to 5 Vigor is still winded")
	}
	// Committing before the roll: reactions on attacks that miss too.
	r := mechtest.MustExact(t, registry, "bd.vigor", "guard=200", "attacks=1", "stamina=0", "vigor=20", "opt.decide_after_roll=no")
	mechtest.Near(t, "nothing beats Guard 200", event(t, r, "unanswered"), 0, 1e-9)
	mechtest.Near(t, "winded by reacting to misses", variable(t, r, "rounds_to_winded").Stats.Mean, 4, 1e-12)
	// Recovery 2 a round for two reactions of 5: sustained only with luck.
	s := mechtest.MustExact(t, registry, "bd.vigor", "stamina=50", "attacks=2")
	mechtest.Near(t, "recovery 10 sustains two reactions a round", event(t, s, "unanswered"), 0, 0)
	// One attack a round with P(beat) = p and no recovery, 5 Vigor: the
	// first threat is answered, the second is not: NegBin(2, p).
	p := event(t, mechtest.MustExact(t, registry, "bd.attack"), "hit")
	g := mechtest.MustExact(t, registry, "bd.vigor", "vigor=5", "stamina=0", "attacks=1", "rounds=200")
	mechtest.Near(t, "E[rounds to unanswered]", g.Process.MeanTimeUnbounded, 2/p, 1e-9)
}

// Shock: P(stabilised) = 1 − (1 − p)^(attempts·Stamina); aid: 0 or d10.
func TestShockAndAid(t *testing.T) {
	t.Parallel()
	p := event(t, mechtest.MustExact(t, registry, "bd.core.check"), "success")
	for _, c := range []struct{ attempts, stamina int }{{1, 10}, {2, 3}, {0, 5}, {4, 1}} {
		t.Run(fmt.Sprintf("%d attempts, Stamina %d", c.attempts, c.stamina), func(t *testing.T) {
			t.Parallel()
			r := mechtest.MustExact(t, registry, "bd.shock_and_aid", "attempts="+itoa(c.attempts), "stamina="+itoa(c.stamina))
			want := 1 - math.Pow(1-p, float64(c.attempts*c.stamina))
			mechtest.Near(t, "P(stabilised)", event(t, r, "stabilised"), want, 1e-12)
			mechtest.Near(t, "P(dead)", event(t, r, "dead"), 1-want, 1e-12)
		})
	}
	r := mechtest.MustExact(t, registry, "bd.shock_and_aid")
	mechtest.Near(t, "P(aid)", event(t, r, "aid_succeeds"), p, 1e-12)
	mechtest.Near(t, "E[restored]", variable(t, r, "durability_restored").Stats.Mean, 5.5*p, 1e-12)
	// Both checks, stabilising and emergency aid, are against vs, and the
	// describe text says so rather than a fixed VS 20.
	p25 := event(t, mechtest.MustExact(t, registry, "bd.core.check", "vs=25"), "success")
	r25 := mechtest.MustExact(t, registry, "bd.shock_and_aid", "vs=25", "stamina=1")
	mechtest.Near(t, "P(stabilised) at vs=25", event(t, r25, "stabilised"), p25, 1e-12)
	mechtest.Near(t, "P(aid) at vs=25", event(t, r25, "aid_succeeds"), p25, 1e-12)
	m, _ := registry.Lookup("bd.shock_and_aid")
	for _, text := range []string{m.Summary, m.Doc} {
		if strings.Contains(text, "VS 20") || !strings.Contains(text, "vs") {
			t.Errorf("bd.shock_and_aid says the checks are at a fixed VS 20, or does not name vs: %q", text)
		}
	}
}

// bd.skirmish is simulated only; with Vigor to spare it is bd.track.
func TestSkirmishAgreesWithTrack(t *testing.T) {
	t.Parallel()
	m, _ := registry.Lookup("bd.skirmish")
	if !m.MCOnly || m.MCReason == "" {
		t.Fatal("bd.skirmish must be simulation-only, with a reason")
	}
	n := int64(400_000)
	if testing.Short() {
		n = 100_000
	}
	for _, sets := range [][]string{{"vigor=60", "stamina=100"}, {"vigor=0", "react=0"}} {
		t.Run(join(sets), func(t *testing.T) {
			t.Parallel()
			c, err := m.Configure(sets)
			if err != nil {
				t.Fatal(err)
			}
			r, err := sim.Run(context.Background(), m, c, sim.Options{Trials: n, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			tr := mechtest.MustExact(t, registry, "bd.track", sets[1:]...)
			want := variable(t, tr, "attacks_to_shock").Stats
			got := variable(t, r, "attacks_to_shock").Stats.Mean
			mechtest.Near(t, "skirmish "+join(sets)+" mean attacks to shock", got, want.Mean, 5*want.SD/math.Sqrt(float64(n)))
		})
	}
	// Short of Vigor, the creature goes down sooner.
	c, _ := m.Configure([]string{"vigor=5", "stamina=0"})
	r, err := sim.Run(context.Background(), m, c, sim.Options{Trials: 50_000, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got, full := variable(t, r, "attacks_to_shock").Stats.Mean, variable(t, mechtest.MustExact(t, registry, "bd.track"), "attacks_to_shock").Stats.Mean; got >= full-0.5 {
		t.Errorf("5 Vigor and no recovery: %v attacks to shock, about as many as with unlimited reactions (%v)", got, full)
	}
}

func join(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += " "
		}
		out += s
	}
	return out
}

// BenchmarkCoreCheckExact: d20 + 5 d20! (bd.core.check k=5 rank=20).
func BenchmarkCoreCheckExact(b *testing.B) {
	for b.Loop() {
		mechtest.MustExact(b, registry, "bd.core.check", "k=5", "rank=20")
	}
}

// BenchmarkTrackExact: bd.track at Durability 60 × Health 40.
func BenchmarkTrackExact(b *testing.B) {
	for b.Loop() {
		mechtest.MustExact(b, registry, "bd.track", "durability=60", "health=40")
	}
}

// What describe says holds at the defaults: a record field whose top is
// only room for the simulator's longest burst run is an open end, which
// describe prints as ∞ with its note, and "no VS is
// out of reach" is qualified by the bonus dice it needs (with none, T ≤ 20).
func TestDescribeClaims(t *testing.T) {
	t.Parallel()
	for _, m := range Mechanics() {
		if m.MCOnly {
			continue
		}
		c, err := m.Configure(nil)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := m.Model(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range spec.Record.Fields {
			if _, hi, _ := spec.OpenEnds(f); f.Kind == mechanics.IntField && f.Hi >= 1000 && !hi {
				t.Errorf("%s: field %s runs to %d, which describe does not show as an open end: %q", m.ID, f.Name, f.Hi, f.Doc)
			}
		}
		if strings.Contains(strings.ToLower(m.Doc), "no vs is") && !strings.Contains(m.Doc, "at most 20") {
			t.Errorf("%s says no VS is out of reach without the k = 0 case: %q", m.ID, m.Doc)
		}
	}
	for _, id := range []string{"bd.core.check", "bd.check"} {
		mechtest.Near(t, id+": k=0 never reaches VS 21", event(t, mechtest.MustExact(t, registry, id, "k=0", "vs=21"), "success"), 0, 0)
	}
}
