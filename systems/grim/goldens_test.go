package grim

import (
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/mechtest"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.6f; want %.6f (±%g)", what, got, want, tol)
	}
}

func runExact(t *testing.T, id string, sets ...string) *engine.Result {
	t.Helper()
	r, err := mechtest.Exact(registry, id, sets...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCoreGoldens(t *testing.T) {
	t.Parallel()
	// The goldens of grim.core.attack and grim.core.check.
	a := runExact(t, "grim.core.attack", "attribute=3", "tn=14")
	near(t, "P(hit) COR+3 vs 14", a.Event("hit").P, 0.5, 1e-12)
	near(t, "P(crit)", a.Event("crit").P, 0.05, 1e-12)
	near(t, "P(hit) COR+4 vs 12", runExact(t, "grim.core.attack", "attribute=4", "tn=12").Event("hit").P, 0.65, 1e-12)
	// A natural 20 need not succeed on a check: +0 vs TN 25 never succeeds.
	c := runExact(t, "grim.core.check", "attribute=0", "tn=25")
	near(t, "impossible check", c.Event("success").P, 0, 0)
	near(t, "flavour 20", c.Event("flavour_20").P, 0.05, 1e-12)
}

func TestCombatSanity(t *testing.T) {
	t.Parallel()
	// Damage: d6 + TOG 2 on a normal target, COR +3 vs 12: hit faces 9..20 (12/20), crit 1/20.
	d := runExact(t, "grim.damage")
	near(t, "P(hit)", d.Event("hit").P, 12.0/20, 1e-12)
	near(t, "E[hit damage]", d.Var("hit_damage").Stats.Mean, 5.5, 1e-12)
	near(t, "E[crit damage]", d.Var("crit_damage").Stats.Mean, 11, 1e-12)
	near(t, "E[damage per attack]", d.Var("damage").Stats.Mean, 11.0/20*5.5+1.0/20*11, 1e-12)
	// Attacks per turn by COR.
	for cor, want := range map[int]int{-2: 1, 0: 1, 2: 1, 3: 2, 5: 2, 6: 3, 8: 3, 9: 4, 10: 4} {
		if got := attacksPerTurn(cor, false); got != want {
			t.Errorf("AttacksPerTurn(%d) = %d; want %d", cor, got, want)
		}
	}
	// Friendly fire, closed form: (f/20)·(a/k)·P(ally fails AGL 11 − COR), per turn 1 − (1 − x)^m.
	ff := runExact(t, "grim.friendly_fire", "tog=1", "requirement=3", "cor=3", "candidates=3", "allies=1", "ally_agl=2", "attacks=2")
	// f = 3; the ally fails AGL vs 8: N + 2 < 8 or N = 1 → N ≤ 5 → 5/20.
	x := 3.0 / 20 * (1.0 / 3) * (5.0 / 20)
	near(t, "P(ally hit per turn)", ff.Event("ally_hit_this_turn").P, 1-math.Pow(1-x, 2), 1e-12)
	// Player vs player with reroll: P(win) = P(win)/(1 − P(tie)).
	a := runExact(t, "grim.pvp", "kind=nonattack")
	b := runExact(t, "grim.pvp", "kind=nonattack", "opt.nonattack_tie=reroll", "horizon=200")
	near(t, "reroll", b.Event("absorbed:initiator_wins").P, a.Event("initiator_wins").P/(1-a.Event("tie").P), 1e-12)
}

func TestTimeGoldens(t *testing.T) {
	t.Parallel()
	// grim.fall: 18 m, AGL +3, hard surface.
	f := runExact(t, "grim.fall", "distance=18", "agl=3")
	near(t, "P(break)", f.Event("broken").P, 0.4, 1e-12)
	near(t, "E[damage]", f.Var("damage").Stats.Mean, 10.30, 5e-3)
	// grim.drowning: MND +2 stays conscious with P = 0.6, E[rounds conscious] = 1.5.
	d := runExact(t, "grim.drowning", "mnd=2", "horizon=400")
	near(t, "E[rounds conscious]", d.Var("rounds_conscious").Stats.Mean, 1.5, 1e-9)
	// Burning for a fixed 3 turns: 6d6, mean 21.
	near(t, "burning 3 turns", runExact(t, "grim.burning", "turns=3", "condition=300").Var("damage").Stats.Mean, 21, 1e-9)
	// Unstable d20 item: the permanent break is Geometric(1/20), mean 20.
	near(t, "uses until destroyed", runExact(t, "grim.instability", "uses=400").Var("time").Stats.Mean, 20, 1e-6)
	near(t, "successful uses", runExact(t, "grim.instability", "uses=400").Var("successful_uses").Stats.Mean, 17, 1e-6)
	// Dying without a helper who can treat: dead after c₀ + 11 turns.
	dy := runExact(t, "grim.dying", "condition=-3", "medkit=0", "helper_mnd=-10", "knowledge_tn=40")
	near(t, "P(dead)", dy.Event("absorbed:dead").P, 1, 1e-12)
	near(t, "turns to death", dy.Var("time").Stats.Mean, 8, 1e-12)
}

func TestMiscClosedForms(t *testing.T) {
	t.Parallel()
	// Crafting 2 of 3: p_ext = 3p² − 2p³; COR +2 vs 12 → p = 0.55.
	p := 0.55
	near(t, "extended COR", runExact(t, "grim.crafting", "known=1", "extended=1").Event("well_made").P, 3*p*p-2*p*p*p, 1e-12)
	// MND and COR +2 vs 12, unknown design: well made p², unstable 2p(1−p).
	cr := runExact(t, "grim.crafting")
	near(t, "well made", cr.Event("well_made").P, p*p, 1e-12)
	near(t, "unstable", cr.Event("unstable").P, 2*p*(1-p), 1e-12)
	// Terror: geometric, mean turns = 1/p with p = P(MND +2 vs 11) = 0.6.
	near(t, "terror turns", runExact(t, "grim.terror", "turns=400").Var("time").Stats.Mean, 1/0.6, 1e-9)
	// One grappler with equal attributes: P(break free) = P(X > Y) for two d20 = 190/400.
	near(t, "grapple", runExact(t, "grim.grapple", "grapplers=1").Event("breaks_free").P, 190.0/400, 1e-12)
}
