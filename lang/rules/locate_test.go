package rules

import (
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// Locate finds the line and column of a rule's text that its error
// names: in a one-liner, in a file's expression (quoted, in an inline
// table, on a later line of a multi-line string), at a TOML syntax error,
// and only the line for a problem with a key.
func TestLocate(t *testing.T) {
	t.Parallel()
	build := func(rs []*Rule, err error) error {
		if err != nil {
			return err
		}
		for _, r := range rs {
			m := r.Mechanic()
			if _, err := m.Model(m.DefaultConfig()); err != nil {
				return err
			}
		}
		return nil
	}
	const head = "[[rule]]\nid = \"house.check\"\nsummary = \"s\"\n\n[rule.params]\nbonus = { default = 3, min = -10, max = 20 }\n\n"
	cases := []struct {
		name, src string
		want      Place
		msg       string // in the message
	}{
		{"expr syntax", "3d6 + ", Place{1, 7}, "expected an expression"},
		{"expr unknown function", "3d6 + foo(2)", Place{1, 7}, `unknown function "foo"`},
		{"file syntax in let", head + "[rule.let]\nnat   = \"d20\"\ntotal = \"nat + bonus +\"\n\n[rule.events]\nsuccess = \"total >= 12\"\n",
			Place{10, 23}, "expected an expression"},
		{"file unknown name", head + "[rule.let]\ntotal = \"d20 + frob\"\n\n[rule.events]\nsuccess = \"total >= 12\"\n",
			Place{9, 16}, `unknown name "frob"`},
		{"inline table", head + "[rule.events]\nsuccess = { doc = \"a roll\", expr = \"d20 >= é\" }\n",
			Place{9, 44}, "line 1, column 8"},
		{"multi-line string", head + "[rule.vars]\nv = \"\"\"\nd20 +\n  2 * zz\"\"\"\n",
			Place{11, 7}, `unknown name "zz"`},
		{"toml syntax", "[[rule]]\nid = \"x\nsummary = 3\n", Place{2, 8}, "rules.toml:2:"},
		{"key problem", head + "[rule.vars]\n", Place{1, 0}, "reports nothing"},
	}
	for _, c := range cases {
		var err error
		file := "rules.toml"
		if !strings.Contains(c.src, "[[rule]]") {
			file = ""
			var r *Rule
			if r, err = FromExpr(c.src); err == nil {
				err = build([]*Rule{r}, nil)
			}
		} else {
			err = build(ParseFile(file, []byte(c.src)))
		}
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if !mechanics.IsInput(err) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %q; want bad input saying %q", c.name, err, c.msg)
		}
		if got := Locate(err, file, c.src); got != c.want {
			t.Errorf("%s: Locate = %+v, want %+v (error %q)", c.name, got, c.want, err)
		}
	}
}
