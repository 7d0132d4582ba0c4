package gm

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

// The numbers the describe texts of gm (but its ailments) state are the
// ones the models compute with (the texts are formatted from the constants
// and tables the models read; these tests read the text back and compute
// with it).

// numbersText is the first group of pattern's first match in text.
func numbersText(t *testing.T, pattern, text string) string {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("%q matches nowhere in %s", pattern, text)
	}
	return m[1]
}

func sets(kv ...any) []string {
	var out []string
	for i := 0; i < len(kv); i += 2 {
		out = append(out, fmt.Sprintf("%v=%v", kv[i], kv[i+1]))
	}
	return out
}

// gm.suffocation's rounds a minute, wherever its doc states them, are the
// rounds between the rolls the model makes and the rounds of the minutes
// without air.
func TestSuffocationNumbersAreTheModels(t *testing.T) {
	t.Parallel()
	doc := mechtest.Mechanic(t, registry, "gm.suffocation").Doc
	rolls := func(kv ...any) float64 {
		t.Helper()
		return mechtest.MustExact(t, registry, "gm.suffocation", append(sets("prepared", 1), sets(kv...)...)...).Var("health_rolls").Stats.Mean
	}
	minute := mechtest.Matched(t, `one every minute \((\d+) rounds\)`, "the doc", doc)[0]
	step := mechtest.Matched(t, `after B \+ (\d+)j rounds without air`, "the doc", doc)[0]
	end := mechtest.Matched(t, `its round < (\d+) × minutes`, "the doc", doc)[0]
	rest := mechtest.Matched(t, `double \(2B \+ (\d+)j\)`, "the doc", doc)[0]
	// A buffer one round short of a minute leaves one roll in a minute
	// without air; a buffer of a minute none.
	for _, r := range []float64{minute, end} {
		mechtest.Near(t, fmt.Sprintf("rolls in a minute after %v rounds of buffer", r-1), rolls("endurance", r-1, "minutes", 1), 1, 0)
		mechtest.Near(t, fmt.Sprintf("rolls in a minute after %v rounds of buffer", r), rolls("endurance", r, "minutes", 1), 0, 0)
	}
	// Rolls step by a minute: after a buffer of b, rolls at b, b + step, …
	mechtest.Near(t, "rolls in 3 minutes after a buffer of 1", rolls("endurance", 1, "minutes", 3), float64(int((3*end-1-1)/step)+1), 0)
	// At rest by twice the minute.
	mechtest.Near(t, "rolls at rest in 4 minutes", rolls("endurance", 0, "minutes", 4, "at_rest", 1), float64(int((4*end-1)/rest)+1), 0)
	ex := mechtest.Matched(t, `prepared, endurance=(\d+), minutes=(\d+): the buffer ends at round (\d+) of (\d+), so no roll`, "the doc", doc)
	if ex[2] != ex[0] || ex[3] != ex[1]*end {
		t.Errorf("the example's buffer ends at round %v of %v; endurance=%v and %v minutes make round %v of %v", ex[2], ex[3], ex[0], ex[1], ex[0], ex[1]*end)
	}
	mechtest.Near(t, "the example's rolls", rolls("endurance", ex[0], "minutes", ex[1]), 0, 0)
	mechtest.Near(t, "the example's rolls a round earlier", rolls("endurance", ex[0]-1, "minutes", ex[1]), 1, 0)
}

// gm.fall's bands, evasion heights and time aloft are the model's.
func TestFallNumbersAreTheModels(t *testing.T) {
	t.Parallel()
	m := mechtest.Mechanic(t, registry, "gm.fall")
	fall := func(name string, kv ...any) float64 {
		t.Helper()
		v := mechtest.MustExact(t, registry, "gm.fall", sets(kv...)...).Var(name)
		if v == nil || v.Stats.Mean != v.Stats.Mean {
			t.Fatalf("gm.fall %v: no %s", kv, name)
		}
		return v.Stats.Mean
	}
	dice := func(h float64) float64 { return fall("injuries", "height", h, "evasion", 0) }
	// The bands: "under 10 ft 1, 10 ft to under 20 ft 2, 20–40 ft 3, …, 320 ft and more 7".
	type band struct{ lo, hi, n float64 }
	var bands []band
	first := mechtest.Matched(t, `by height h: under (\d+) ft (\d+), `, "the doc", m.Doc)
	bands = append(bands, band{0, first[0], first[1]})
	second := mechtest.Matched(t, `, (\d+) ft to under (\d+) ft (\d+), `, "the doc", m.Doc)
	bands = append(bands, band{second[0], second[1], second[2]})
	for _, r := range regexp.MustCompile(`(\d+)–(\d+) ft (\d+)`).FindAllStringSubmatch(m.Doc, -1) {
		bands = append(bands, band{mechtest.TextNumber(t, r[1]), mechtest.TextNumber(t, r[2]), mechtest.TextNumber(t, r[3])})
	}
	last := mechtest.Matched(t, `(\d+) ft and more (\d+) \(no increase past (\d+)d6\)`, "the doc", m.Doc)
	if len(bands) != len(fallBands)-1 || last[1] != last[2] {
		t.Fatalf("the doc gives %d bands and %v: %s", len(bands), last, m.Doc)
	}
	for i, b := range bands {
		if i > 0 && b.lo != bands[i-1].hi {
			t.Errorf("band %d starts at %v, the one before ends at %v", i, b.lo, bands[i-1].hi)
		}
		for _, h := range []float64{b.lo, b.hi - 0.01} {
			mechtest.Near(t, fmt.Sprintf("dice of a %v ft fall", h), dice(h), b.n, 0)
		}
	}
	for _, h := range []float64{last[0], 2000} {
		mechtest.Near(t, fmt.Sprintf("dice of a %v ft fall", h), dice(h), last[1], 0)
	}
	sum := mechtest.Matched(t, `\(under (\d+) ft d6 … (\d+) ft and more (\d+)d6\); evasion negates under (\d+) ft and halves under (\d+) ft`, "the summary", m.Summary)
	if sum[0] != first[0] || sum[1] != last[0] || sum[2] != last[1] {
		t.Errorf("the summary's bands %v are not the doc's", sum[:3])
	}
	// Evasion: a certain evasion roll (score 20) negates, halves or does nothing.
	damage := func(h float64) float64 { return fall("damage", "height", h, "evasion", 20) }
	full := func(h float64) float64 { return fall("damage", "height", h, "evasion", 0) }
	neg, halves := sum[3], sum[4]
	for _, text := range []string{m.Doc, mechtest.OptionDoc(t, registry, "gm.fall", "evasion_limit")} {
		got := mechtest.Matched(t, `(?:Under |falls of )(\d+) ft.*?(?:to under|not including) (\d+) ft`, "an evasion text", text)
		if got[0] != neg || got[1] != halves {
			t.Errorf("an evasion text gives %v; the summary %v, %v: %s", got, neg, halves, text)
		}
	}
	mechtest.Near(t, "damage just under the negating height", damage(neg-0.01), 0, 0)
	for _, h := range []float64{neg, halves - 0.01} {
		if d := damage(h); d <= 0 || d >= full(h) {
			t.Errorf("a certain evasion on a %v ft fall leaves %v of %v damage; the texts say it halves it", h, d, full(h))
		}
	}
	mechtest.Near(t, "damage at the halving height", damage(halves), full(halves), 0)
	// Time aloft.
	aloft := func(h float64) float64 { return fall("seconds_aloft", "height", h) }
	upTo := mechtest.Matched(t, `1 s per die up to (\d+) ft`, "the doc", m.Doc)[0]
	speed := mechtest.Matched(t, `goes on at (\d+) ft a second`, "the doc", m.Doc)[0]
	formula := mechtest.Matched(t, `exactly (\d+) \+ \(h − (\d+)\)/(\d+) s`, "the doc", m.Doc)
	if formula[1] != upTo || formula[2] != speed {
		t.Errorf("the formula %v does not use %v ft and %v ft a second", formula, upTo, speed)
	}
	mechtest.Near(t, "time aloft at the end of 1 s per die", aloft(upTo), formula[0], 0)
	mechtest.Near(t, "time aloft just before", aloft(upTo-1), last[1], 0)
	for _, r := range regexp.MustCompile(`(\d+) ft → ([\d.]+) s`).FindAllStringSubmatch(m.Doc, -1) {
		h := mechtest.TextNumber(t, r[1])
		mechtest.Near(t, "time aloft at "+r[1]+" ft", aloft(h), mechtest.TextNumber(t, r[2]), 1e-12)
		mechtest.Near(t, "time aloft at "+r[1]+" ft by the formula", formula[0]+(h-formula[1])/formula[2], mechtest.TextNumber(t, r[2]), 1e-12)
	}
	for _, v := range mechtest.MustModel(t, registry, "gm.fall").Vars {
		if v.Name == "seconds_aloft" && !strings.Contains(v.Doc, fmt.Sprintf("up to %v ft, then %v + (h − %v)/%v", upTo, formula[0], upTo, speed)) {
			t.Errorf("seconds_aloft: %s", v.Doc)
		}
	}
}

// gm.jump's base, penalties and size factors are the model's.
func TestJumpNumbersAreTheModels(t *testing.T) {
	t.Parallel()
	m := mechtest.Mechanic(t, registry, "gm.jump")
	base := mechtest.Matched(t, `agility \+ (\d+) with strength`, "the summary", m.Summary)[0]
	if mechtest.Matched(t, `strength bonus \(a major contributor\) \+ (\d+) \+ modifier`, "the doc", m.Doc)[0] != base {
		t.Errorf("the doc's base is not the summary's %v", base)
	}
	reaches := func(kv ...any) float64 {
		t.Helper()
		return mechtest.MustExact(t, registry, "gm.jump", sets(kv...)...).Event("reaches_target").P
	}
	mechtest.Near(t, "P(1 ft at agility 0)", reaches("agility", 0, "target", 1), base/20, 1e-12)
	for _, r := range regexp.MustCompile(`(\d+) ft (−\d+)`).FindAllStringSubmatch(m.Doc, -1) {
		h, pen := mechtest.TextNumber(t, r[1]), mechtest.TextNumber(t, r[2])
		mechtest.Near(t, "P("+r[1]+" ft at agility 0)", reaches("agility", 0, "target", h), (base+pen)/20, 1e-12)
	}
	rows := regexp.MustCompile(`(\w+(?: \w+)?) ×([\d¼½¾⅓⅙]+)`).FindAllStringSubmatch(mechtest.OptionDoc(t, registry, "gm.jump", "size"), -1)
	if len(rows) != len(jumpSizes) {
		t.Fatalf("the size option lists %d factors: %v", len(rows), rows)
	}
	for _, r := range rows {
		s := strings.TrimPrefix(r[1], "the ")
		if s == "distance" {
			s = "medium"
		}
		res := mechtest.MustExact(t, registry, "gm.jump", "size="+s)
		mechtest.Near(t, "the distance of a "+s+" jumper", res.Var("distance").Stats.Mean, mechtest.TextNumber(t, r[2])*res.Var("height").Stats.Mean, 1e-12)
	}
}

// gm.chase's Movement per +1, gm.core.roll's movement penalties and minor
// contributor, gm.item_reaction's base and table and gm.disbelieve's bonus
// to others are the model's.
func TestRollTablesAreTheModels(t *testing.T) {
	t.Parallel()
	p := func(id, event string, kv ...any) float64 {
		t.Helper()
		return mechtest.MustExact(t, registry, id, sets(kv...)...).Event(event).P
	}
	chase := mechtest.Mechanic(t, registry, "gm.chase")
	per := mechtest.Matched(t, `\+1 per full (\d+) points of Movement`, "the summary", chase.Summary)[0]
	for _, text := range []string{chase.Doc, mechtest.ParamDoc(t, registry, "gm.chase", "movement_difference")} {
		if got := mechtest.Matched(t, `\+1 per full (\d+) points(?: of difference)? \(⌊\|Δ\|/(\d+)⌋\)`, "a chase text", text); got[0] != per || got[1] != per {
			t.Errorf("a chase text gives %v; the summary %v: %s", got, per, text)
		}
	}
	for k := 1; k <= 3; k++ {
		mechtest.Near(t, fmt.Sprintf("caught %d Movement faster", k*int(per)), p("gm.chase", "caught", "movement_difference", k*int(per)+int(per)-1), p("gm.chase", "caught", "pursuer_modifier", k), 1e-12)
		mechtest.Near(t, fmt.Sprintf("caught %d Movement slower", k*int(per)), p("gm.chase", "caught", "movement_difference", -k*int(per)), p("gm.chase", "caught", "quarry_modifier", k), 1e-12)
	}

	for _, r := range regexp.MustCompile(`(\w+) (−\d+)`).FindAllStringSubmatch(mechtest.OptionDoc(t, registry, "gm.core.roll", "movement"), -1) {
		mechtest.Near(t, "success at movement "+r[1], p("gm.core.roll", "success", "movement", r[1]), p("gm.core.roll", "success", "modifier", mechtest.TextNumber(t, r[2])), 1e-12)
	}
	for _, r := range regexp.MustCompile(`(−?\d+) → (−?\d+)`).FindAllStringSubmatch(mechtest.Mechanic(t, registry, "gm.core.roll").Doc, -1) {
		mechtest.Near(t, "success with minor "+r[1], p("gm.core.roll", "success", "minor", mechtest.TextNumber(t, r[1])), p("gm.core.roll", "success", "modifier", mechtest.TextNumber(t, r[2])), 1e-12)
	}

	item := mechtest.Mechanic(t, registry, "gm.item_reaction")
	base := mechtest.Matched(t, `at or under (\d+) \+`, "the summary", item.Summary)[0]
	if mechtest.Matched(t, `N ≤ (\d+) \+ material/attack bonus`, "the doc", item.Doc)[0] != base {
		t.Errorf("the doc's base is not the summary's %v", base)
	}
	// Below the base thickness there is no thickness bonus.
	mechtest.Near(t, "P(damaged) at the base", p("gm.item_reaction", "damaged", "opt.table", "user", "user_bonus", 0, "thickness", 0), 1-base/20, 1e-12)
	table := mechtest.OptionDoc(t, registry, "gm.item_reaction", "table")
	thick := map[string]string{}
	for _, r := range regexp.MustCompile(`(\w+) ([\d¼½¾]+)″`).FindAllStringSubmatch(table, -1) {
		thick[r[1]] = r[2]
	}
	printed := map[[2]string]bool{}
	for _, row := range regexp.MustCompile(`(glass|ice|metal|paper|stone|wood)((?: (?:fire|bludgeon|acid) [+−]\d+)+)`).FindAllStringSubmatch(table, -1) {
		for _, cell := range regexp.MustCompile(`(fire|bludgeon|acid) ([+−]\d+)`).FindAllStringSubmatch(row[2], -1) {
			printed[[2]string{row[1], cell[1]}] = true
			got := p("gm.item_reaction", "damaged", "material", row[1], "attack", cell[1], "thickness", 4)
			want := p("gm.item_reaction", "damaged", "opt.table", "user", "user_bonus", mechtest.TextNumber(t, cell[2]), "user_base_thickness", mechtest.TextNumber(t, thick[row[1]]), "thickness", 4)
			mechtest.Near(t, "P(damaged) of "+row[1]+" against "+cell[1], got, want, 1e-12)
		}
	}
	if len(thick) != len(itemMaterials) || len(printed) == 0 {
		t.Fatalf("the table option gives %d thicknesses and %d cells: %s", len(thick), len(printed), table)
	}
	// "glass, metal, stone and wood against acid, ice against bludgeoning and acid".
	forms := map[string]string{"fire": "fire", "bludgeoning": "bludgeon", "acid": "acid"}
	list := numbersText(t, `with table=left_to_right: ([^)]*)\)`, mechtest.OptionDoc(t, registry, "gm.item_reaction", "blank"))
	blank := map[[2]string]bool{}
	var mats []string
	against := false
	for _, w := range regexp.MustCompile(`\w+`).FindAllString(list, -1) {
		switch {
		case w == "and":
		case w == "against":
			against = true
		case forms[w] != "":
			for _, m := range mats {
				blank[[2]string{m, forms[w]}] = true
			}
		default:
			if against {
				mats, against = nil, false
			}
			mats = append(mats, w)
		}
	}
	for _, mat := range itemMaterials {
		for _, a := range itemAttackForms {
			cell := [2]string{mat.String(), a.String()}
			if printed[cell] == blank[cell] {
				t.Errorf("%v is printed %v and listed blank %v", cell, printed[cell], blank[cell])
			}
			if blank[cell] {
				mechtest.Near(t, fmt.Sprintf("P(damaged) of a blank cell %v", cell), p("gm.item_reaction", "damaged", "material", cell[0], "attack", cell[1]), 0, 0)
			}
		}
	}

	dis := mechtest.Mechanic(t, registry, "gm.disbelieve")
	grant := mechtest.Matched(t, `gives others \+(\d+)`, "the summary", dis.Summary)[0]
	if mechtest.Matched(t, `gives other characters \+(\d+) to disbelieve`, "the doc", dis.Doc)[0] != grant {
		t.Errorf("the doc's bonus to others is not the summary's %v", grant)
	}
	r := mechtest.MustExact(t, registry, "gm.disbelieve", "route=willpower", "willpower=40")
	mechtest.Near(t, "the bonus others get after a certain willpower roll", r.Var("others_bonus").Stats.Mean, grant, 0)
	for _, v := range mechtest.MustModel(t, registry, "gm.disbelieve").Vars {
		if v.Name == "others_bonus" && !strings.Contains(v.Doc, fmt.Sprintf("+%v after", grant)) {
			t.Errorf("others_bonus: %s", v.Doc)
		}
	}
}
