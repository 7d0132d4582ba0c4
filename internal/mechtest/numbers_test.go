package mechtest

import (
	"slices"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// toy is a mechanic with the given texts and parameters.
func toy(summary, doc string, ps ...mechanics.Param) *mechanics.Mechanic {
	return &mechanics.Mechanic{ID: "t.x", Summary: summary, Doc: doc, Params: ps,
		Options: []mechanics.Option{{Name: "t.x.opt.o", Doc: "a: the check is at VS 21; b", Values: []string{"a", "b"}}}}
}

func phrases(ss []Stated) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Text+": "+s.Phrase)
	}
	return out
}

// The checker finds a number stated for a parameter that is not its
// default — by the parameter's name in any case, the symbol its doc
// declares, either side of the number — and a default stated without
// saying so; it leaves cases, ranges, rates, modifiers, limits, special
// values and commands alone. Each case fails if the checker misses it or
// reports what it should not.
func TestStatedNumbers(t *testing.T) {
	t.Parallel()
	vs := mechanics.IntParam("vs", 25, 0, 500, "victory sum VS")
	vs20 := mechanics.IntParam("vs", 20, 0, 500, "victory sum VS")
	stamina := mechanics.IntParam("stamina", 12, 1, 100, "Stamina score")
	dur := mechanics.IntParam("durability", 25, 1, 60, "Durability U")
	tn := mechanics.IntParam("tn", 12, 1, 40, "TN against the intended target")
	skill := mechanics.IntParam("skill", 2, 0, 40, "skill (dice in the pool; 0 = two dice keep lowest)")
	k := mechanics.IntParam("k", 2, 0, 10, "k: bonus dice")
	vigor := mechanics.IntParam("vigor", 20, 0, 100, "maximum Vigor")
	cases := []struct {
		m                  *mechanics.Mechanic
		mismatches, frozen []string
	}{
		// bd.shock_and_aid's kind: "VS 20" while vs defaults to 25, in
		// the summary, the doc and an option.
		{toy("a Medicine check at VS 20", "Medicine at vs 20 stabilises.", vs),
			[]string{"summary: VS 20", "doc: vs 20", "option t.x.opt.o: VS 21"}, nil},
		// At the default, "VS 20" freezes a settable number; "by default"
		// says what it is.
		{toy("a check at VS 20", "At VS 20 by default.", vs20), []string{"option t.x.opt.o: VS 21"}, []string{"summary: VS 20"}},
		// The symbol the doc declares, and the number before the name.
		{toy("a creature at Stamina 10 and U 30", "It starts at 10 Stamina.", stamina, dur),
			[]string{"summary: Stamina 10", "doc: 10 Stamina", "summary: U 30"}, nil},
		{toy("the ally rolls AGL vs TN 11", "", tn), []string{"summary: TN 11"}, nil},
		{toy("", "k = 3 dice; k 3 is no symbol in prose", k), []string{"doc: k = 3"}, nil},
		// Left alone: cases, settings, ranges, lists, expressions, rates,
		// modifiers, amounts, limits, special values, commands and code.
		{toy("with VS 30 the check is hard; if vs = 40 harder; VS=45",
			"VS 5–45; VS 10, 20, 30; vs 10 + |c|; flesh −1; Stamina −1 a turn; 1 Vigor per 5 Stamina; costs 5 Vigor; "+
				"VS 0 always succeeds; skill 0 rolls two dice; VS 500 at most; `oddsmith exact t.x --set vs=30`; oddsmith sweep t.x --vary vs=1..40",
			vs, stamina, skill, vigor), []string{"option t.x.opt.o: VS 21"}, nil},
	}
	for _, c := range cases {
		if got := phrases(DefaultMismatches(c.m)); !sameSet(got, c.mismatches) {
			t.Errorf("%q / %q: mismatches %q; want %q", c.m.Summary, c.m.Doc, got, c.mismatches)
		}
		if got := phrases(Frozen(c.m)); !sameSet(got, c.frozen) {
			t.Errorf("%q / %q: frozen %q; want %q", c.m.Summary, c.m.Doc, got, c.frozen)
		}
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
