package notation

import (
	"regexp"
	"strings"
	"testing"
)

// readingCases: forms Roll20, Foundry or rpg-dice-roller read with another
// meaning (issue 26, item 2), each with every reading named, in order.
var readingCases = []struct {
	src  string
	want []string
}{
	// Success targets glued to dice.
	{"5d10>=8", []string{"line 1, column 5: 5d10>=8: here the total compared with 8; Roll20 and rpg-dice-roller count the dice of at least 8 (5d10#>=8 here) — write (5d10) >= 8 for the total"}},
	{"3d6>3", []string{"line 1, column 4: 3d6>3: here the total compared with 3; Roll20 counts the dice of at least 3 (3d6#>=3 here), rpg-dice-roller the dice over 3 (3d6#>3) — write (3d6) > 3 for the total"}},
	{"10d6<4", []string{"line 1, column 5: 10d6<4: here the total compared with 4; Roll20 counts the dice of at most 4 (10d6#<=4 here), rpg-dice-roller the dice under 4 (10d6#<4) — write (10d6) < 4 for the total"}},
	{"4d6kh3>4", []string{"line 1, column 7: 4d6kh3>4: here the total compared with 4; Roll20 counts the dice of at least 4 (4d6kh3#>=4 here), rpg-dice-roller the dice over 4 (4d6kh3#>4) — write (4d6kh3) > 4 for the total"}},
	{"2d6<=tn", []string{"line 1, column 4: 2d6<=tn: here the total compared with tn; Roll20 and rpg-dice-roller count the dice of at most tn (2d6#<=(tn) here) — write (2d6) <= tn for the total"}},
	// Success targets glued to groups.
	{"{3d20+5, 2d20}>21", []string{"line 1, column 15: {3d20+5, 2d20}>21: here the group's total compared with 21; Roll20 counts the sums of at least 21 ({3d20+5, 2d20}cs>=21 here), rpg-dice-roller the sums over 21 ({3d20+5, 2d20}cs>21) — write ({3d20+5, 2d20}) > 21 for the total"}},
	{"{4d6+3d8}kh4", []string{"line 1, column 10: {4d6+3d8}kh4: kh4 keeps or drops the dice of the group's one expression (as in Roll20 and rpg-dice-roller); Foundry keeps or drops the expression whole (4d6 + 3d8 here), and has no form of this reading"}},
	{"{4d6, 3d8}kh1", nil},
	{"{4d6}kh3>=12", []string{"line 1, column 6: {4d6}kh3: kh3 keeps or drops the dice of the group's one expression (as in Roll20 and rpg-dice-roller); Foundry keeps or drops the expression whole (4d6 here) — write 4d6kh3 for this reading", "line 1, column 9: {4d6}kh3>=12: here the group's total compared with 12; Roll20 counts its dice one by one, with the group's constants added to each (see docs/translating.md), rpg-dice-roller gives 1 when the total is at least 12 ({4d6}kh3cs>=12) — write ({4d6}kh3) >= 12 for the total"}},
	{"{3d20+5}cs>=21", nil}, {"{2d6, d12}kh1 >= 7", nil},
	// cs and cf.
	{"8d10cs>=7", []string{"line 1, column 5: 8d10cs>=7: cs>=7 counts the dice of at least 7 (as in Foundry); Roll20's and rpg-dice-roller's cs only marks critical successes, the term being the total of its dice (8d10 here) — write 8d10#>=7 for this reading"}},
	{"6d6cs", []string{"line 1, column 4: 6d6cs: cs counts the dice showing the highest face (as in Foundry); Roll20's and rpg-dice-roller's cs only marks critical successes, the term being the total of its dice (6d6 here) — write 6d6#6 for this reading"}},
	{"10d10cs>=7cf1", []string{
		"line 1, column 6: 10d10cs>=7cf1: cs>=7 counts the dice of at least 7 (as in Foundry); Roll20's and rpg-dice-roller's cs only marks critical successes, the term being the total of its dice (10d10 here) — write 10d10#>=7cf1 for this reading",
		"line 1, column 11: 10d10cs>=7cf1: cf1 takes the dice showing 1 away from the count (Foundry's df1); Foundry's cf counts them instead, and Roll20's and rpg-dice-roller's cf only marks critical failures — there is no other way to write this reading yet",
	}},
	{"6d6cf<=3", []string{"line 1, column 4: 6d6cf<=3: cf<=3 takes the dice of at most 3 away from the count (Foundry's df<=3); Foundry's cf counts them instead (6d6#<=3 here), and Roll20's and rpg-dice-roller's cf only marks critical failures — there is no other way to write this reading yet"}},
	// Roll20's inclusive < and > in r, ro and !; Foundry's r and rr.
	{"2d8r<2", []string{"line 1, column 4: 2d8r<2: r<2 rerolls the dice under 2 until they show another face (as in rpg-dice-roller); Roll20's r<2 rerolls the dice of at most 2 (2d{3..8} here) and Foundry's r rerolls once (2d8ro<2) — write 2d{2..8} for this reading"}},
	{"5d6r1", []string{"line 1, column 4: 5d6r1: r1 rerolls the dice showing 1 until they show another face (as in Roll20 and rpg-dice-roller); Foundry's r rerolls once (5d6ro1 here) — write 5d{2..6} for this reading"}},
	{"d20ro<2", []string{"line 1, column 4: d20ro<2: ro<2 rerolls once a die under 2; Roll20's ro<2 rerolls once a die of at most 2 (d20ro<=2 here) — write d20ro<=1 for this reading"}},
	{"1d20rr>18", []string{"line 1, column 5: 1d20rr>18: rr>18 is two rerolls here, r (of the lowest face) and r>18; Foundry's rr>18 is one, rerolling the dice over 18 until they show another face (1d{1..18} here) — write 1d{2..18} for this reading"}},
	{"8d6mt3<3", []string{"line 1, column 4: 8d6mt3<3: mt3<3 counts the matched sets of faces under 3; Roll20's mt3<3 counts those of faces of at most 3 (8d6mt3<=3 here) — write 8d6mt3<=2 for this reading"}},
	{"8d6mt>=3", nil},
	{"3d6!>5", []string{"line 1, column 4: 3d6!>5: !>5 explodes the dice over 5 (as in rpg-dice-roller); Roll20's !>5 explodes the dice of at least 5 (3d6!>=5 here) — write 3d6!>=6 for this reading"}},
	{"3d6!<3", []string{"line 1, column 4: 3d6!<3: !<3 explodes the dice under 3 (as in rpg-dice-roller); Roll20's !<3 explodes the dice of at most 3 (3d6!<=3 here) — write 3d6!<=2 for this reading"}},
	{"3d6!!p>4{2}", []string{"line 1, column 4: 3d6!!p>4{2}: !!p>4 explodes the dice over 4 (as in rpg-dice-roller); Roll20's !!p>4 explodes the dice of at least 4 (3d6!!p>=4{2} here) — write 3d6!!p>=5{2} for this reading"}},
	{"d6r(n)", []string{"line 1, column 3: d6r(n): r(n) rerolls the dice showing (n) until they show another face (as in Roll20 and rpg-dice-roller); Foundry's r rerolls once (d6ro(n) here)"}},
	// Explode, then keep or drop.
	{"5d10!k2", []string{"line 1, column 1: 5d10!k2: k2 keeps or drops each exploded die with its extra rolls as one die (as !! does); Roll20 and Foundry keep and drop the extra rolls as dice of their own (5d10!ekh2 here) — write 5d10!!kh2 for this reading"}},
	{"4d6!d1", []string{"line 1, column 1: 4d6!d1: d1 keeps or drops each exploded die with its extra rolls as one die (as !! does); Roll20 and Foundry keep and drop the extra rolls as dice of their own (4d6!edl1 here) — write 4d6!!dl1 for this reading"}},
	// Forms every tool reads alike, or that only oddsmith reads.
	{"3d6 > 3", nil}, {"(3d6)>3", nil}, {"d20+5>=15", nil}, {"8d10#>=7", nil}, {"5d10!!k2", nil}, {"5d10!ek2", nil}, {"4d6!e>5d1", []string{"line 1, column 4: 4d6!e>5d1: !e>5 explodes the dice over 5 (as in rpg-dice-roller); Roll20's !e>5 explodes the dice of at least 5 (4d6!e>=5dl1 here) — write 4d6!e>=6dl1 for this reading"}}, {"d20ro1", nil},
	{"d{2..6}", nil}, {"3d6!>=5", nil}, {"3d6!p<=2", nil}, {"d6!=5", nil}, {"4d6kh3", nil}, {"count(5d6 >= 5)", nil}, {"8d10!#>=8", nil}, {"2d10!", nil},
	{"8d10#>=7 >= 3", nil}, {"if d20 >= 11 then 2d6 else d6", nil},
}

func TestReadings(t *testing.T) {
	t.Parallel()
	for _, c := range readingCases {
		e, err := Parse(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		var got []string
		for _, r := range Readings(c.src, e) {
			got = append(got, r.String())
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("Readings(%q):\n  got  %q\n  want %q", c.src, got, c.want)
		}
	}
}

// TestReadingsSuggestSilentForms: what a reading says to write parses, and
// (when it was the only reading) is read alike by every tool; the other
// tools' readings, written here, parse too.
func TestReadingsSuggestSilentForms(t *testing.T) {
	t.Parallel()
	write := regexp.MustCompile(` — write (.+?) for (this reading|the total)`)
	here := regexp.MustCompile(`\(([^()]*(?:\([^()]*\))?[^()]*) here\)`)
	for _, c := range readingCases {
		e, _ := Parse(c.src)
		rs := Readings(c.src, e)
		for _, r := range rs {
			for _, m := range write.FindAllStringSubmatch(r.Msg, -1) {
				x, err := Parse(m[1])
				if err != nil {
					t.Errorf("%s suggests %q: %v", c.src, m[1], err)
					continue
				}
				if len(rs) == 1 {
					if more := Readings(m[1], x); len(more) > 0 {
						t.Errorf("%s suggests %q, which is read otherwise too: %s", c.src, m[1], more[0])
					}
				}
			}
			for _, m := range here.FindAllStringSubmatch(r.Msg, -1) {
				if _, err := Parse(m[1]); err != nil {
					t.Errorf("%s: another tool's reading %q does not parse: %v", c.src, m[1], err)
				}
			}
		}
	}
}

// TestFaceBoundReading: min or max with a reroll or an explosion is read
// in another order by rpg-dice-roller.
func TestFaceBoundReading(t *testing.T) {
	for src, want := range map[string]int{"d6min3!": 1, "d6r1max5": 1, "4d6min2": 0, "4d6min2kh3": 0} {
		x, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		rs := Readings(src, x)
		n := 0
		for _, r := range rs {
			if strings.Contains(r.Msg, "rpg-dice-roller applies min and max before any reroll or explosion") {
				n++
			}
		}
		if n != want {
			t.Errorf("%s: %d readings of min/max (%v); want %d", src, n, rs, want)
		}
	}
}
