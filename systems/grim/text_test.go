package grim

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

// The numbers the describe texts state are the ones the models compute
// with (the texts are formatted from the constants and tables the models
// read; these tests read the text back and compute with it).

// The COR table of grim.light_attacks gives the attacks the model makes
// at both ends of every row, and frenzy's friendly-fire range is the one
// the frenzy parameter states.
func TestLightAttackTableIsTheModels(t *testing.T) {
	t.Parallel()
	m := mechtest.Mechanic(t, registry, "grim.light_attacks")
	rows := regexp.MustCompile(`(\d+)–(\d+) → (\d+)`).FindAllStringSubmatch(m.Summary, -1)
	if len(rows) != len(lightAttackCOR)+1 || !strings.Contains(m.Doc, rows[0][0]) {
		t.Fatalf("the table has %d rows: %s / %s", len(rows), m.Summary, m.Doc)
	}
	for _, r := range rows {
		for _, cor := range r[1:3] {
			spec := mechtest.MustModel(t, registry, "grim.light_attacks", "cor="+cor)
			if hi := spec.Record.Fields[spec.Record.Index("attacks_hit")].Hi; hi != mechtest.TextInt(t, r[3]) {
				t.Errorf("COR %s: %d attacks; the table says %s", cor, hi, r[0])
			}
		}
	}
	var doc string
	for _, p := range m.Params {
		if p.Name == "frenzy" {
			doc = p.Doc
		}
	}
	upTo := regexp.MustCompile(`friendly fire up to (\d+)`).FindStringSubmatch(doc)
	if upTo == nil {
		t.Fatalf("the frenzy parameter states no range: %q", doc)
	}
	r := mechtest.MustExact(t, registry, "grim.light_attacks", "frenzy=1", "cor=1")
	mechtest.Near(t, "friendly-fire triggers in frenzy", r.Var("friendly_fire_triggers").Stats.Mean, 2*float64(mechtest.TextInt(t, upTo[1]))/20, 1e-12)
}

// grim.drowning: the MND roll is at the TN the summary states, and the
// countdown after the blackout takes the stated damage a round to the
// stated death.
func TestDrowningNumbersAreTheModels(t *testing.T) {
	t.Parallel()
	m := mechtest.Mechanic(t, registry, "grim.drowning")
	roll := regexp.MustCompile(`MND roll vs TN (\d+) each round`).FindStringSubmatch(m.Summary)
	dmg := regexp.MustCompile(`(\d+) damage a round`).FindStringSubmatch(m.Summary)
	dead := regexp.MustCompile(`dead below (−\d+)`).FindStringSubmatch(m.Doc)
	if roll == nil || dmg == nil || dead == nil {
		t.Fatalf("the texts do not give the TN, the damage and the death: %s / %s", m.Summary, m.Doc)
	}
	r := mechtest.MustExact(t, registry, "grim.drowning", "mnd=0", "condition=20", "opt.dying_tick=drowning_only")
	check := mechtest.MustExact(t, registry, "grim.core.check", "attribute=0", "tn="+roll[1])
	mechtest.Near(t, "P(blackout in round 1)", r.Var("time").P[0], 1-check.Event("success").P, 1e-12)
	k := (20-mechtest.TextInt(t, dead[1]))/mechtest.TextInt(t, dmg[1]) + 1 // rounds of damage until the Condition is below the death
	mechtest.Near(t, fmt.Sprintf("rounds from the blackout to death, %s damage a round from 20 to below %s", dmg[1], dead[1]),
		r.Var("death_round").Stats.Mean-r.Var("time").Stats.Mean, float64(k), 1e-9)
}

// grim.dying: the Condition runs down to the stated death, and the COR
// roll that revives is against the stated base + |c|.
func TestDyingNumbersAreTheModels(t *testing.T) {
	t.Parallel()
	m := mechtest.Mechanic(t, registry, "grim.dying")
	dead := regexp.MustCompile(`dead below (−\d+)`).FindStringSubmatch(m.Summary)
	cor := regexp.MustCompile(`COR roll vs (\d+) \+ \|c\|`).FindStringSubmatch(m.Summary)
	if dead == nil || cor == nil {
		t.Fatalf("the summary gives no death or revival roll: %s", m.Summary)
	}
	if lo := m.Params[0].Min; lo != float64(mechtest.TextInt(t, dead[1])) {
		t.Errorf("the starting Condition goes down to %v; the summary's death is below %s", lo, dead[1])
	}
	for _, c := range []int{0, -3, mechtest.TextInt(t, dead[1])} {
		r := mechtest.MustExact(t, registry, "grim.dying", fmt.Sprintf("condition=%d", c), "helper_cor=2")
		check := mechtest.MustExact(t, registry, "grim.core.check", "attribute=2", fmt.Sprintf("tn=%d", mechtest.TextInt(t, cor[1])-c))
		revived := r.Var("time").P[0] // revived on the first turn: nothing else ends it then …
		if c == mechtest.TextInt(t, dead[1]) {
			revived = r.Event("absorbed:revived").P // … but death, at the last Condition: revived then or never
		}
		mechtest.Near(t, fmt.Sprintf("P(revived on the first turn at c = %d)", c), revived, check.Event("success").P, 1e-12)
	}
}
