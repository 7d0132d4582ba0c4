package grim

import (
	"fmt"
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

func TestCoreGoldens(t *testing.T) {
	t.Parallel()
	// The goldens of grim.core.attack and grim.core.check.
	a := mechtest.MustExact(t, registry, "grim.core.attack", "attribute=3", "tn=14")
	mechtest.Near(t, "P(hit) COR+3 vs 14", a.Event("hit").P, 0.5, 1e-12)
	mechtest.Near(t, "P(crit)", a.Event("crit").P, 0.05, 1e-12)
	mechtest.Near(t, "P(hit) COR+4 vs 12", mechtest.MustExact(t, registry, "grim.core.attack", "attribute=4", "tn=12").Event("hit").P, 0.65, 1e-12)
	// A natural 20 need not succeed on a check: +0 vs TN 25 never succeeds.
	c := mechtest.MustExact(t, registry, "grim.core.check", "attribute=0", "tn=25")
	mechtest.Near(t, "impossible check", c.Event("success").P, 0, 0)
	mechtest.Near(t, "flavour 20", c.Event("flavour_20").P, 0.05, 1e-12)
}

func TestCombatSanity(t *testing.T) {
	t.Parallel()
	// Damage: d6 + TOG 2 on a normal target, COR +3 vs 12: hit faces 9..20 (12/20), crit 1/20.
	d := mechtest.MustExact(t, registry, "grim.damage")
	mechtest.Near(t, "P(hit)", d.Event("hit").P, 12.0/20, 1e-12)
	mechtest.Near(t, "E[hit damage]", d.Var("hit_damage").Stats.Mean, 5.5, 1e-12)
	mechtest.Near(t, "E[crit damage]", d.Var("crit_damage").Stats.Mean, 11, 1e-12)
	mechtest.Near(t, "E[damage per attack]", d.Var("damage").Stats.Mean, 11.0/20*5.5+1.0/20*11, 1e-12)
	// Attacks per turn by COR.
	for cor, want := range map[int]int{-2: 1, 0: 1, 2: 1, 3: 2, 5: 2, 6: 3, 8: 3, 9: 4, 10: 4} {
		if got := attacksPerTurn(cor, false); got != want {
			t.Errorf("AttacksPerTurn(%d) = %d; want %d", cor, got, want)
		}
	}
	// Friendly fire, closed form: (f/20)·(a/k)·P(ally fails AGL 11 − COR), per turn 1 − (1 − x)^m.
	ff := mechtest.MustExact(t, registry, "grim.friendly_fire", "tog=1", "requirement=3", "cor=3", "candidates=3", "allies=1", "ally_agl=2", "attacks=2")
	// f = 3; the ally fails AGL vs 8: N + 2 < 8 or N = 1 → N ≤ 5 → 5/20.
	x := 3.0 / 20 * (1.0 / 3) * (5.0 / 20)
	mechtest.Near(t, "P(ally hit per turn)", ff.Event("ally_hit_this_turn").P, 1-math.Pow(1-x, 2), 1e-12)
	// Player vs player with reroll: P(win) = P(win)/(1 − P(tie)).
	a := mechtest.MustExact(t, registry, "grim.pvp", "kind=nonattack")
	b := mechtest.MustExact(t, registry, "grim.pvp", "kind=nonattack", "opt.nonattack_tie=reroll", "horizon=200")
	mechtest.Near(t, "reroll", b.Event("absorbed:initiator_wins").P, a.Event("initiator_wins").P/(1-a.Event("tie").P), 1e-12)
}

func TestTimeGoldens(t *testing.T) {
	t.Parallel()
	// grim.fall: 18 m, AGL +3, hard surface.
	f := mechtest.MustExact(t, registry, "grim.fall", "distance=18", "agl=3")
	mechtest.Near(t, "P(break)", f.Event("broken").P, 0.4, 1e-12)
	mechtest.Near(t, "E[damage]", f.Var("damage").Stats.Mean, 10.30, 5e-3)
	// grim.drowning: MND +2 stays conscious with P = 0.6, E[rounds conscious] = 1.5.
	d := mechtest.MustExact(t, registry, "grim.drowning", "mnd=2", "horizon=400")
	mechtest.Near(t, "E[rounds conscious]", d.Var("rounds_conscious").Stats.Mean, 1.5, 1e-9)
	// Burning for a fixed 3 turns: 6d6, mean 21.
	mechtest.Near(t, "burning 3 turns", mechtest.MustExact(t, registry, "grim.burning", "turns=3", "condition=300").Var("damage").Stats.Mean, 21, 1e-9)
	// Unstable d20 item: the permanent break is Geometric(1/20), mean 20.
	mechtest.Near(t, "uses until destroyed", mechtest.MustExact(t, registry, "grim.instability", "uses=400").Var("time").Stats.Mean, 20, 1e-6)
	mechtest.Near(t, "successful uses", mechtest.MustExact(t, registry, "grim.instability", "uses=400").Var("successful_uses").Stats.Mean, 17, 1e-6)
	// Dying without a helper who can treat: dead after c₀ + 11 turns.
	dy := mechtest.MustExact(t, registry, "grim.dying", "condition=-3", "medkit=0", "helper_mnd=-10", "knowledge_tn=40")
	mechtest.Near(t, "P(dead)", dy.Event("absorbed:dead").P, 1, 1e-12)
	mechtest.Near(t, "turns to death", dy.Var("time").Stats.Mean, 8, 1e-12)
}

func TestMiscClosedForms(t *testing.T) {
	t.Parallel()
	// Crafting 2 of 3: p_ext = 3p² − 2p³; COR +2 vs 12 → p = 0.55.
	p := 0.55
	mechtest.Near(t, "extended COR", mechtest.MustExact(t, registry, "grim.crafting", "known=1", "extended=1").Event("well_made").P, 3*p*p-2*p*p*p, 1e-12)
	// MND and COR +2 vs 12, unknown design: well made p², unstable 2p(1−p).
	cr := mechtest.MustExact(t, registry, "grim.crafting")
	mechtest.Near(t, "well made", cr.Event("well_made").P, p*p, 1e-12)
	mechtest.Near(t, "unstable", cr.Event("unstable").P, 2*p*(1-p), 1e-12)
	// Terror: geometric, mean turns = 1/p with p = P(MND +2 vs 11) = 0.6.
	mechtest.Near(t, "terror turns", mechtest.MustExact(t, registry, "grim.terror", "turns=400").Var("time").Stats.Mean, 1/0.6, 1e-9)
	// One grappler with equal attributes: P(break free) = P(X > Y) for two d20 = 190/400.
	mechtest.Near(t, "grapple", mechtest.MustExact(t, registry, "grim.grapple", "grapplers=1").Event("breaks_free").P, 190.0/400, 1e-12)
}

// TOG sets the breath: underwater_rounds is the breath's rounds, 6 a
// minute for max(0, 2 + TOG) minutes, before the rounds conscious (TOG
// changed nothing before it was reported).
func TestDrowningBreathFromTOG(t *testing.T) {
	t.Parallel()
	for tog, breath := range map[int]float64{-3: 0, -2: 0, 0: 12, 3: 30} {
		r := mechtest.MustExact(t, registry, "grim.drowning", fmt.Sprintf("tog=%d", tog))
		mechtest.Near(t, fmt.Sprintf("tog=%d: underwater − conscious", tog), r.Var("underwater_rounds").Stats.Mean-r.Var("rounds_conscious").Stats.Mean, breath, 1e-9)
		mechtest.Near(t, fmt.Sprintf("tog=%d: least underwater", tog), r.Var("underwater_rounds").Stats.Min, breath, 0)
	}
}
