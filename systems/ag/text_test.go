package ag

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

// The tables the describe texts state are the ones the models compute
// with (the texts are formatted from them; these tests read the text back
// and compute each row).

func texts(t *testing.T, id string) (summary, doc string) {
	t.Helper()
	m, err := registry.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return m.Summary, m.Doc
}

func pSuccess(t *testing.T, id string, sets ...string) float64 {
	t.Helper()
	return mechtest.MustExact(t, registry, id, sets...).Event("success").P
}

// Every spell of the summary's list succeeds as a skill test at the TN the
// list gives.
func TestTNSpellListIsTheModels(t *testing.T) {
	t.Parallel()
	summary, _ := texts(t, "ag.magic.tn_spell")
	rows := regexp.MustCompile(`([A-Z][a-z]+(?: [A-Z][a-z]+)?) (\d+)`).FindAllStringSubmatch(summary, -1)
	if len(rows) != len(tnSpells) {
		t.Fatalf("the summary lists %d spells; the choice has %d: %s", len(rows), len(tnSpells), summary)
	}
	for i, r := range rows {
		name := strings.ToLower(strings.ReplaceAll(r[1], " ", "_"))
		if name != tnSpells[i].String() {
			t.Errorf("row %d names %s; the choice's value is %s", i, name, tnSpells[i])
		}
		mechtest.Near(t, r[0], pSuccess(t, "ag.magic.tn_spell", "spell="+name, "skill=3", "attribute=1"),
			pSuccess(t, "ag.skill_test", "tn="+r[2], "skill=3", "attribute=1"), 1e-12)
	}
}

// Each surface of ag.jump's doc is jumped as a skill test at the TN the
// doc gives, and each movement adds the bonus it gives.
func TestJumpTablesAreTheModels(t *testing.T) {
	t.Parallel()
	_, doc := texts(t, "ag.jump")
	surfaces := regexp.MustCompile(`surface TN \(([^)]*)\)`).FindStringSubmatch(doc)
	moves := regexp.MustCompile(`our reading: ([^)]*)\)`).FindStringSubmatch(doc)
	if surfaces == nil || moves == nil {
		t.Fatalf("the doc gives no surface or movement table: %s", doc)
	}
	for _, row := range strings.Split(surfaces[1], ", ") {
		name, tn, _ := strings.Cut(row, " ")
		mechtest.Near(t, row, pSuccess(t, "ag.jump", "surface="+name, "athletics=2", "body=1"),
			pSuccess(t, "ag.skill_test", "tn="+tn, "skill=2", "attribute=1"), 1e-12)
	}
	for _, row := range strings.Split(moves[1], ", ") {
		bonus, name, _ := strings.Cut(row, " ")
		mechtest.Near(t, row, pSuccess(t, "ag.jump", "movement="+name, "surface=rough"),
			pSuccess(t, "ag.skill_test", "tn=6", "modifier="+fmt.Sprint(mechtest.TextInt(t, bonus))), 1e-12)
	}
}

// ag.assist's summary table is its bonus b(g), for every group size listed.
func TestAssistTableIsTheModels(t *testing.T) {
	t.Parallel()
	summary, _ := texts(t, "ag.assist")
	rows := regexp.MustCompile(`\+(\d+) for (\d+)–(\d+)`).FindAllStringSubmatch(summary, -1)
	if len(rows) != assistCap {
		t.Fatalf("the summary has %d rows: %s", len(rows), summary)
	}
	for _, r := range rows {
		for g := mechtest.TextInt(t, r[2]); g <= mechtest.TextInt(t, r[3]); g++ {
			if b := mechtest.MustExact(t, registry, "ag.assist", fmt.Sprintf("group=%d", g)).Var("bonus").Stats.Mean; b != float64(mechtest.TextInt(t, r[1])) {
				t.Errorf("group %d: bonus %v; the summary says %s", g, b, r[0])
			}
		}
	}
}

// ag.attack applies the target's movement itself (target_movement): the
// doc must not also ask for it to be folded into the modifiers, which
// would count it twice (the old doc did).
func TestAttackDocDoesNotCountMovementTwice(t *testing.T) {
	t.Parallel()
	_, doc := texts(t, "ag.attack")
	_, fold, _ := strings.Cut(doc, "fold ")
	if fold, _, _ = strings.Cut(fold, "into the two"); strings.Contains(fold, "movement") || !strings.Contains(doc, "target_movement") {
		t.Errorf("the doc asks for movement in the modifiers, or does not name target_movement: %s", doc)
	}
	hit := func(sets ...string) float64 {
		return mechtest.MustExact(t, registry, "ag.attack", sets...).Event("hit").P
	}
	mechtest.Near(t, "walk = +1 defence", hit("target_movement=walk"), hit("defence_modifier=1"), 1e-12)
}

// ag.suffocation's numbers: the first test comes the stated step after the
// first minute, at the stated TN.
func TestSuffocationNumbersAreTheModels(t *testing.T) {
	t.Parallel()
	summary, _ := texts(t, "ag.suffocation")
	m := regexp.MustCompile(`vs TN (\d+) every (\d+) s`).FindStringSubmatch(summary)
	if m == nil {
		t.Fatalf("no TN and step in %q", summary)
	}
	r := mechtest.MustExact(t, registry, "ag.suffocation", "horizon=3", "body=1")
	bs, at := r.Var("blackout_s"), 60+mechtest.TextInt(t, m[2])
	if bs.Lo != at {
		t.Fatalf("the first possible blackout is at %d s; the text says the first minute then %s s", bs.Lo, m[2])
	}
	first := mechtest.MustExact(t, registry, "ag.attribute_test", "attribute=1", "tn="+m[1])
	mechtest.Near(t, "P(blackout at the first test)", bs.P[0], 1-first.Event("success").P, 1e-12)
}
