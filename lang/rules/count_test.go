package rules

import (
	"strings"
	"testing"
)

// TestRandomCountRefusals: what needs a fixed number of dice, and a count
// that is not a roll of its own or can be negative or too large, is
// refused with one line naming it.
func TestRandomCountRefusals(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"(d4)d6kh1", "keep and drop (kh, kl, dh, dl)"},
		{"(d4)d6dl1", "keep and drop"},
		{"(d4)d6u", "unique dice (u, uo)"},
		{"(d4)d6mt", "counting matches (mt)"},
		{"(d3)d6!e", "(!e)"},
		{"(d3)d6!{2 in all}", "({n in all})"},
		{"highest((d4)d6, 1)", "a pool"},
		{"count((d4)d6 >= 5)", "a pool"},
		{"highest((d3)d6!e, 1)", "a pool"},
		{"{(d4)d6}kh1", "group of one expression"},
		{"(d4 - 2)d6", "can be -1"},
		{"(1000d100 + 1)d6", "can be up to 100001"},
		{"(d6 / 2)d6", "written in place"},
	} {
		err := modelErr(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line with %q", c.src, err, c.want)
		}
	}
	// A count read through a name is refused: the named roll is a field
	// of its own, which the dice could not share.
	src := "[[rule]]\nid = \"c.a\"\n[rule.let]\nn = \"d4\"\n[rule.vars]\nv = \"(n)d6 + n\"\n"
	rs, err := Parse("count.toml", []byte(src))
	if err == nil {
		m := rs[0].Mechanic()
		_, err = m.Model(m.DefaultConfig())
	}
	if err == nil || !strings.Contains(err.Error(), "written in place") {
		t.Errorf("named count: %v", err)
	}
}

// modelErr is the error of compiling a one-line expression.
func modelErr(src string) error {
	r, err := FromExpr(src)
	if err != nil {
		return err
	}
	m := r.Mechanic()
	_, err = m.Model(m.DefaultConfig())
	return err
}
