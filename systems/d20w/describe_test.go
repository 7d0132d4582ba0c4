package d20w

import (
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

// The claims the describe texts of d20w make, computed: each test runs the
// case a text talks about and checks that the text says what the numbers
// show.

// eventDoc is the doc of event name at the settings.
func eventDoc(t *testing.T, id, name string, sets ...string) string {
	t.Helper()
	for _, e := range mechtest.MustModel(t, registry, id, sets...).Events {
		if e.Name == name {
			return e.Doc
		}
	}
	t.Fatalf("%s %v has no event %s", id, sets, name)
	return ""
}

// says fails the test unless text holds every phrase.
func says(t *testing.T, what, text string, phrases ...string) {
	t.Helper()
	for _, p := range phrases {
		if !strings.Contains(text, p) {
			t.Errorf("%s does not say %q: %s", what, p, text)
		}
	}
}

// d20w.cm opt.defender_naturals=mirror: a defending PC's natural 20 always
// resists; its natural 1 always fails to resist, except against escaping
// bonds, where a natural 1 that beats the NPC's total resists.
func TestDescribeCMMirror(t *testing.T) {
	t.Parallel()
	// The NPC's CMA + 10 is 0: the PC's every roll beats it, so only a
	// natural 1 that fails to resist lets the manoeuvre succeed.
	low := []string{"pairing=npc_pc", "cma=-10", "cmd=0"}
	mechtest.Near(t, "standard, the PC's natural 1 fails to resist", run(t, "d20w.cm", low...).Event("success").P, 1.0/20, 1e-12)
	mechtest.Near(t, "escape_bonds, the PC's natural 1 resists", run(t, "d20w.cm", append(low, "manoeuvre=escape_bonds")...).Event("success").P, 0, 1e-12)
	// The NPC's CMA + 10 is 40: no roll beats it but the natural 20.
	for _, man := range []string{"standard", "escape_bonds"} {
		mechtest.Near(t, man+", the PC's natural 20 resists", run(t, "d20w.cm", "pairing=npc_pc", "cma=30", "cmd=0", "manoeuvre="+man).Event("success").P, 19.0/20, 1e-12)
	}
	says(t, "opt.defender_naturals", mechtest.OptionDoc(t, registry, "d20w.cm", "defender_naturals"), "natural 20 always resists", "except against escaping bonds", "manoeuvre=escape_bonds")
}

// d20w.attack with opt.naturals=all_rolls: the attacker's natural decides
// when it rolls (pc_npc, pc_pc, npc_npc with both_roll), the PC
// defender's, mirrored, when an NPC attacks it (npc_pc).
func TestDescribeAttackNaturals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		sets []string
		want float64
	}{
		// No total hits: only a natural decides.
		{[]string{"pairing=pc_npc", "attack=-20", "defence=0"}, 1.0 / 20},  // the attacker's 20
		{[]string{"pairing=npc_pc", "attack=-20", "defence=0"}, 1.0 / 20},  // the PC defender's 1
		{[]string{"pairing=pc_pc", "attack=-20", "defence=20"}, 1.0 / 20},  // the attacker's 20 only
		{[]string{"pairing=pc_npc", "attack=40", "defence=0"}, 19.0 / 20},  // the attacker's 1 misses
		{[]string{"pairing=npc_pc", "attack=40", "defence=0"}, 19.0 / 20},  // the PC defender's 20 avoids it
		{[]string{"pairing=pc_pc", "attack=40", "defence=-20"}, 19.0 / 20}, // the defender's 20 decides nothing
		{[]string{"pairing=npc_npc", "opt.npc_vs_npc=both_roll", "attack=40", "defence=-20"}, 19.0 / 20},
	}
	for _, c := range cases {
		sets := append(c.sets, "opt.naturals=all_rolls")
		mechtest.Near(t, strings.Join(sets, " "), run(t, "d20w.attack", sets...).Event("hit").P, c.want, 1e-12)
	}
	says(t, "d20w.attack's doc", mechtest.Mechanic(t, registry, "d20w.attack").Doc, "opt.naturals=all_rolls", "NPC→PC (the NPC takes 10) the PC's Defence natural 20 always avoids the hit and its 1 is always hit",
		"PC→PC (and NPC→NPC with opt.npc_vs_npc=both_roll) only the attacker's natural 20 and 1 decide")
	says(t, "the hit of npc_pc under all_rolls", eventDoc(t, "d20w.attack", "hit", "pairing=npc_pc", "opt.naturals=all_rolls"), "natural 20 on Defence always avoids the hit")
	says(t, "the hit of pc_pc under all_rolls", eventDoc(t, "d20w.attack", "hit", "pairing=pc_pc", "opt.naturals=all_rolls"), "the attacker's natural 20 always hits")
	says(t, "the hit under auto_hit", eventDoc(t, "d20w.attack", "hit", "opt.crit_needs_hit=auto_hit"), "always hits (opt.crit_needs_hit=auto_hit)")
}

// d20w.attack's defence leaves the BCB out: heroic=yes adds defender_bcb,
// so a heroic defender with Defence bonus 3 + BCB 2 is defence=3.
func TestDescribeDefenceBCB(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"pc_npc", "npc_pc", "pc_pc"} {
		heroic := run(t, "d20w.attack", "pairing="+p, "heroic=yes", "defence=3", "defender_bcb=2").Event("hit").P
		whole := run(t, "d20w.attack", "pairing="+p, "defence=5").Event("hit").P
		mechtest.Near(t, p+": heroic=yes defence 3 + BCB 2 against defence 5", heroic, whole, 1e-12)
	}
	says(t, "d20w.attack's defence", mechtest.ParamDoc(t, registry, "d20w.attack", "defence"), "without any BCB", "heroic=yes", "never here")
}

// d20w.core.check has no Easy-task rule (d20w.modtrack task=easy has), and
// its clamp holds without natural rules; all_rolls clamps to 1/20..19/20.
func TestDescribeCheck(t *testing.T) {
	t.Parallel()
	m := mechtest.Mechanic(t, registry, "d20w.core.check")
	for _, o := range m.Options {
		if strings.HasSuffix(o.Name, ".task") {
			t.Errorf("d20w.core.check declares %s: its doc sends the Easy task to d20w.modtrack", o.Name)
		}
	}
	// An Easy task at DC 40 would succeed unrolled; the check rolls it.
	mechtest.Near(t, "a check at DC 40", run(t, "d20w.core.check", "dc=40").Event("success").P, 0, 1e-12)
	mechtest.Near(t, "modtrack task=easy at DC 40", run(t, "d20w.modtrack", "task=easy", "dc=40").Event("success").P, 1, 1e-12)
	says(t, "d20w.core.check's doc", m.Doc, "is d20w.modtrack with task=easy", "P = clamp((21 − DC + mod)/20, 1/20, 19/20)")
	for _, mod := range []int{-20, -10, 0, 10, 30} {
		want := min(19.0/20, max(1.0/20, float64(21-15+mod)/20))
		mechtest.Near(t, "all_rolls, mod "+itoa(mod), run(t, "d20w.core.check", "opt.naturals=all_rolls", set("mod", mod)).Event("success").P, want, 1e-12)
	}
}

// d20w.crit_choice's manoeuvre is d20w.cm in the attack's pairing, except
// two NPCs that roll (opt.npc_vs_npc=both_roll), who roll it as d20w.cm's
// pc_pc does where d20w.cm's npc_npc rolls nothing.
func TestDescribeCritChoiceManoeuvre(t *testing.T) {
	t.Parallel()
	both := []string{"pairing=npc_npc", "opt.npc_vs_npc=both_roll", "opt.policy=manoeuvre_first", "threat=4", "cma=4", "cmd=6"}
	crit := run(t, "d20w.crit_choice", both...).Event("crit").P
	got := run(t, "d20w.crit_choice", both...).Event("manoeuvre_success").P
	pcpc := run(t, "d20w.cm", "pairing=pc_pc", "cma=4", "cmd=6").Event("success").P
	npcnpc := run(t, "d20w.cm", "pairing=npc_npc", "cma=4", "cmd=6").Event("success").P
	mechtest.Near(t, "both_roll: P(manoeuvre success)", got, crit*pcpc, 1e-12)
	if crit*npcnpc == got {
		t.Errorf("both_roll: the manoeuvre matches d20w.cm's npc_npc (%v); the test case does not tell them apart", npcnpc)
	}
	// In the other pairings it is d20w.cm in the same pairing.
	for _, p := range []string{"pc_npc", "npc_pc", "pc_pc"} {
		sets := []string{"pairing=" + p, "opt.policy=manoeuvre_first", "threat=4", "cma=4", "cmd=6"}
		r := run(t, "d20w.crit_choice", sets...)
		mechtest.Near(t, p+": P(manoeuvre success)", r.Event("manoeuvre_success").P, r.Event("crit").P*run(t, "d20w.cm", "pairing="+p, "cma=4", "cmd=6").Event("success").P, 1e-12)
	}
	says(t, "d20w.crit_choice's doc", mechtest.Mechanic(t, registry, "d20w.crit_choice").Doc, "opt.npc_vs_npc=both_roll both roll it", "save_dc")
	// The save is against save_dc, as the doc now says: DC 10, save +2,
	// every crit (w = 4) buying the injury: P = 4/20 · P(N + 2 < 10) = 4/20 · 7/20.
	mechtest.Near(t, "cripple_first, save_dc 10", run(t, "d20w.crit_choice", "opt.policy=cripple_first", "threat=4", "save_dc=10").Event("crippled").P, 4.0/20*7/20, 1e-12)
}
