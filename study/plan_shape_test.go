package study

import (
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/systems"
)

// TestPlanShape: every key of a plan is checked against the plan structs
// with its line — a dotted key or a sub-table anywhere (set.skill.x = 1,
// [analysis.sett]) and a value of the wrong type (set = 3 was accepted and
// dropped) are refused in the docs' words, never the TOML decoder's Go
// type names ("destination has type slice", "not a []interface {}") (issue
// 27, items 1 and 12).
func TestPlanShape(t *testing.T) {
	t.Parallel()
	head := "title = \"t\"\n[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\n"
	for _, c := range []struct{ src, want string }{
		{head + "set = 3\n", `p.toml:5: analysis.set must be a table ({ name = value, … }), not a whole number (3)`},
		{head + "vary = \"skill\"\n", `p.toml:5: analysis.vary must be a table ({ name = value, … }), not a string ("skill")`},
		{head + "set = { skill = { a = 1 } }\n", `p.toml:5: analysis.set.skill must be a number or a quoted value, not a table`},
		{head + "set.skill.x = 1\n", `p.toml:5: analysis.set.skill must be a number or a quoted value, not a table`},
		{head + "vary = { skill = { a = 1 } }\n", `p.toml:5: analysis.vary.skill must be a number or a quoted value, not a table`},
		{head + "foo.bar = 1\n", `p.toml:5: unknown key "analysis.foo": analysis takes name, mechanic, expr, engine, set, vary, order, metric, delta, trials, seed, plot (docs/plans.md)`},
		{head + "[analysis.sett]\nskill = 1\n", `p.toml:5: unknown key "analysis.sett" — did you mean "set"? (docs/plans.md lists every plan key)`},
		{head + "trials = \"x\"\n", `p.toml:5: analysis.trials must be a whole number, not a string ("x")`},
		{head + "trials = 1e3\n", `p.toml:5: analysis.trials must be a whole number, not a float (1000)`},
		{head + "seed = 1.5\n", `p.toml:5: analysis.seed must be a whole number, not a float (1.5)`},
		{head + "engine = 3\n", `p.toml:5: analysis.engine must be a string in quotes, not a whole number (3)`},
		{head + "order = \"skill\"\n", `p.toml:5: analysis.order must be an array of strings ["…", …], not a string ("skill")`},
		{head + "order = [\"skill\", 2]\n", `p.toml:5: analysis.order: item 2 must be a string in quotes, not a whole number (2)`},
		{head + "metric = { a = 1 }\n", `p.toml:5: metric: give a metric or a list of metrics as quoted strings, not a table`},
		{head + "set = { skill = [1] }\n", `p.toml:2: analysis 1 (a): skill is an array: give a number or a quoted name`},
		{head + "set = { skill = 1979-05-27 }\n", `p.toml:2: analysis 1 (a): skill is a date: give a number or a quoted name`},
		{head + "vary = { skill = \"1..3\" }\norder = [\"skill\", \"tn\"]\n", `p.toml:2: analysis 1 (a): order lists 2 (skill, tn) but vary has 1 parameters`},
		{head + "vary = { skill = [[1]] }\n", `p.toml:2: analysis 1 (a): vary skill: an array is neither a number nor a quoted word`},
		{"title = 3\n" + head[len("title = \"t\"\n"):], `p.toml:1: title must be a string in quotes, not a whole number (3)`},
		{"rules = \"x.toml\"\n" + head, `p.toml:1: rules must be an array of strings ["…", …], not a string ("x.toml")`},
		{"rule = 3\n" + head, `p.toml:1: rule must be an array of tables ([[rule]]), not a whole number (3)`},
		{"chart = 3\n" + head, `p.toml:1: chart must be an array of tables, not a whole number (3)`},
		{head + "[[overlay]]\nname = \"o\"\nrange = \"0..3\"\n[[overlay.series]]\nmechanic = \"ag.skill_test\"\nx = \"skill\"\nset.a.b = 1\n",
			`p.toml:11: overlay.series.set.a must be a number or a quoted value, not a table`},
		{head + "[[chart]]\nname = \"c\"\n[[chart.panel]]\nkind = \"bars\"\ntrials = [1, \"x\"]\n", `p.toml:9: chart.panel.trials: item 2 must be a whole number, not a string ("x")`},
		{head + "[[compare]]\nname = \"c\"\na = { mechanic = \"ag.skill_test\", set = { skill = { x = 1 } } }\n", `p.toml:7: compare.a.set.skill must be a number or a quoted value, not a table`},
		// A rule inside a plan is checked by package rules, with its line.
		{head + "[[rule]]\nid = \"t.x\"\n[rule.vars]\nv = \"d6\"\n[rules.events]\nhit = \"d6 > 3\"\n", `p.toml:9: rules must be an array of strings ["…", …], not a table`},
		{head + "[[rule]]\nid = \"t.x\"\n[rule.params]\nq = { default = 1, real = \"yes\" }\n[rule.vars]\nv = \"d6\"\n", `p.toml:8: rule t.x: params.q.real must be true or false, not a string`},
	} {
		_, err := ParsePlan(systems.Default, "p.toml", []byte(c.src))
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
}

// TestPlanTOMLLimits: a plan nested past the limits of package tomlscan is
// refused with its line before it is parsed — before, 48 KB of nested
// inline tables took 2.6 GB (issue 27, item 2).
func TestPlanTOMLLimits(t *testing.T) {
	t.Parallel()
	head := "[[analysis]]\nname = \"a\"\nmechanic = \"ag.skill_test\"\n"
	for _, c := range []struct{ src, want string }{
		{head + "set = " + strings.Repeat("{a = ", 8000) + "1" + strings.Repeat("}", 8000) + "\n", "p.toml:4: the TOML nests more than 32 levels deep"},
		{head + strings.Repeat("a.", 8000) + "b = 1\n", "p.toml:4: the TOML nests more than 32 levels deep"},
		{head + "order = " + strings.Repeat("[", 50_000) + "\n", "p.toml:4: the TOML nests more than 32 levels deep"},
		{head + strings.Repeat("[[analysis]]\n", 10_000), "p.toml:10001: more than 10000 keys, tables and array items"},
	} {
		_, err := ParsePlan(systems.Default, "p.toml", []byte(c.src))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%.60q…: %v; want one line starting %q", c.src, err, c.want)
		}
	}
}
