package rules

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadSrc writes src to a file named name in a directory of the test's
// and loads it as a rule file; the error, if any, comes back with the
// directory cut from it.
func loadSrc(t *testing.T, name, src string) ([]*Rule, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	rs, err := LoadFile(filepath.Join(dir, name))
	if err != nil {
		return nil, errors.New(strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""))
	}
	for _, r := range rs {
		r.Source = name
	}
	return rs, nil
}

// TestMisspeltTablesRefused: a misspelt table or a dotted key is refused
// with its line and the closest name, anywhere in a rule file — before,
// [rules.events] and a.b = 1 were dropped without a word, and the rule ran
// without them (issue 27, item 1).
func TestMisspeltTablesRefused(t *testing.T) {
	head := "[[rule]]\nid = \"t.x\"\n[rule.vars]\nv = \"d6\"\n"
	for _, c := range []struct{ src, want string }{
		{head + "[rules.events]\nhit = \"d6 > 3\"\n", `x.toml:5: unknown key "rules.events": a rule file holds [[rule]] tables — did you mean "rule.events"?`},
		{head + "[foo.bar]\nx = 1\n", `x.toml:5: unknown key "foo.bar": a rule file holds [[rule]] tables`},
		{head + "a.b = 1\n", `x.toml:5: rule t.x: vars.a: unknown key "b" (want expr, doc)`},
		{head + "[rule.event]\nhit = \"d6 > 3\"\n", `x.toml:5: rule t.x: unknown key "event" — did you mean "events"?`},
		{head + "[rule.vars.w]\nexpr = \"d6\"\nfoo = 1\n", `x.toml:7: rule t.x: vars.w: unknown key "foo" (want expr, doc)`},
		{head + "[rule.params]\nq.default = 1\nq.defualt = 2\n", `x.toml:7: rule t.x: params.q: unknown key "defualt" — did you mean "default"?`},
		{head + "[rule.process.stat]\nx = 1\n", `x.toml:5: rule t.x: process: unknown key "stat" — did you mean "state"?`},
		{head + "[rule.bands.b]\nexpr = \"d3\"\nlabel = [\"a\"]\n", `x.toml:7: rule t.x: bands.b: unknown key "label" — did you mean "labels"?`},
		{"[[rules]]\nid = \"t.x\"\n", `x.toml:1: unknown key "rules": a rule file holds [[rule]] tables — did you mean "rule"?`},
		{"rule.id = \"t.x\"\n", `x.toml:1: rule must be a table of tables ([[rule]] with id = …, [rule.vars], …)`},
	} {
		_, err := loadSrc(t, "x.toml", c.src)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
	// A dotted key that says what a table would is read, not dropped.
	rs, err := loadSrc(t, "x.toml", "[[rule]]\nid = \"t.x\"\n[rule.vars]\nv.expr = \"d6\"\nv.doc = \"a die\"\n[rule.events]\nhit.expr = \"v > 3\"\n")
	if err != nil {
		t.Fatal(err)
	}
	if r := rs[0]; len(r.Vars) != 1 || r.Vars[0].Doc != "a die" || len(r.Events) != 1 || r.Events[0].Src != "v > 3" {
		t.Errorf("dotted definitions: vars %+v, events %+v", r.Vars, r.Events)
	}
}

// TestWrongTypesRefused: every key of a rule takes one kind of TOML value;
// another is refused with the key's line, its path and the kind it must be
// — before, real = "yes" and real = 1 were ignored (issue 27, item 6).
func TestWrongTypesRefused(t *testing.T) {
	rule := func(tables string) string { return "[[rule]]\nid = \"t.x\"\n" + tables }
	vars := "[rule.vars]\nv = \"d6\"\n"
	for _, c := range []struct{ src, want string }{
		{rule("[rule.params]\nq = { default = 1, real = \"yes\" }\n" + vars), `x.toml:4: rule t.x: params.q.real must be true or false, not a string`},
		{rule("[rule.params]\nq = { default = 1, real = 1 }\n" + vars), `x.toml:4: rule t.x: params.q.real must be true or false, not a whole number`},
		{rule("[rule.params]\nq = { default = \"1\" }\n" + vars), `x.toml:4: rule t.x: params.q.default must be a number, not a string`},
		{rule("[rule.params]\nq = { default = 1, min = true }\n" + vars), `x.toml:4: rule t.x: params.q.min must be a number, not a boolean`},
		{rule("[rule.params]\nq = { default = 1, doc = 3 }\n" + vars), `x.toml:4: rule t.x: params.q.doc must be a string in quotes, not a whole number`},
		{rule("[rule.params]\nq = [1]\n" + vars), `x.toml:4: rule t.x: params.q must be a number or { default = …, min = …, max = … }, not an array`},
		{rule("[rule.params]\nq = 1979-05-27\n" + vars), `x.toml:4: rule t.x: params.q must be a number or { default = …, min = …, max = … }, not a date`},
		{rule("params = 3\n" + vars), `x.toml:3: rule t.x: params must be a table of parameters ([rule.…]), not a whole number`},
		{rule("summary = 3\n" + vars), `x.toml:3: rule t.x: summary must be a string in quotes, not a whole number`},
		{"[[rule]]\nid = 3\n" + vars, `x.toml:2: rule 1: id must be a string in quotes, not a whole number`},
		{rule("[rule.vars]\nv = 3\n"), `x.toml:4: rule t.x: vars.v must be an expression in quotes or { expr = "…", doc = "…" }, not a whole number`},
		{rule("[rule.vars]\nv = { expr = 3 }\n"), `x.toml:4: rule t.x: vars.v.expr must be a string in quotes, not a whole number`},
		{rule("[rule.bands]\nb = { expr = \"d2\", labels = [\"a\", 2] }\n"), `x.toml:4: rule t.x: bands.b.labels: item 2 must be a string in quotes, not a whole number`},
		{rule("[rule.bands]\nb = { expr = \"d2\", labels = \"a, b\" }\n"), `x.toml:4: rule t.x: bands.b.labels must be an array of strings ["…", …], not a string`},
		{rule("[rule.process]\nstate = { s = { start = 0.5, min = 0, max = 3 } }\nuntil = \"s > 2\"\nhorizon = 5\n[rule.next]\ns = \"s + 1\"\n"), `x.toml:4: rule t.x: process.state.s.start must be a whole number or an expression of the parameters in quotes, not a float`},
		{rule("[rule.process]\nstate = { s = { start = 0, min = 0, max = 3 } }\nuntil = \"s > 2\"\nhorizon = true\n[rule.next]\ns = \"s + 1\"\n"), `x.toml:6: rule t.x: process.horizon must be a whole number or an expression of the parameters in quotes, not a boolean`},
		{rule("[rule.process]\nstate = { s = { start = 0, min = 0, max = 3 } }\nuntil = \"s > 2\"\nhorizon = 5\nunit = 3\n[rule.next]\ns = \"s + 1\"\n"), `x.toml:7: rule t.x: process.unit must be a string in quotes, not a whole number`},
	} {
		_, err := loadSrc(t, "x.toml", c.src)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
}

// TestReservedInProcess: time and the state are what a process's outputs
// read, so no parameter or binding of a process may take their names —
// before, [rule.let] time = … was accepted and meant the roll in next and
// the step count in the outputs (issue 27, item 7). Outside a process the
// names are free.
func TestReservedInProcess(t *testing.T) {
	proc := "[rule.process]\nstate = { s = { start = 0, min = 0, max = 3 } }\nuntil = \"s >= 3\"\nhorizon = 5\n[rule.next]\ns = \"s + d2 - 1\"\n[rule.vars]\nt = \"time\"\n"
	for _, c := range []struct{ src, want string }{
		{"[[rule]]\nid = \"t.x\"\n" + proc + "[rule.let]\ntime = \"d2\"\n", `x.toml:12: rule t.x: binding "time": time is reserved in a process (its outputs read time and the state): give it another name`},
		{"[[rule]]\nid = \"t.x\"\n" + proc + "[rule.let]\nstate = \"d2\"\n", `x.toml:12: rule t.x: binding "state": state is reserved in a process (its outputs read time and the state): give it another name`},
		{"[[rule]]\nid = \"t.x\"\n[rule.params]\ntime = 2\n" + proc, `x.toml:4: rule t.x: parameter "time": time is reserved in a process (its outputs read time and the state): give it another name`},
		{"[[rule]]\nid = \"t.x\"\n" + strings.Replace(proc, "{ s = {", "{ time = {", 1), `x.toml:4: rule t.x: time is reserved in a process (its outputs read time and state): rename the state variable`},
	} {
		_, err := loadSrc(t, "x.toml", c.src)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
	if _, err := loadSrc(t, "x.toml", "[[rule]]\nid = \"t.x\"\n[rule.params]\ntime = 2\n[rule.let]\nstate = \"d6\"\n[rule.vars]\nv = \"state + time\"\n"); err != nil {
		t.Errorf("time and state outside a process: %v", err)
	}
}

// TestMessagesSayItOnce: an error of a one-line rule names it once
// ("expr: …", not "expr: expr: …"); a horizon out of range gives the
// horizon's range, not the bounds' ±1000000; an overflow in a dice count
// is said in words, not as "expr: rational overflow"; a rule's state
// error is not prefixed by its id twice (issue 27, item 12).
func TestMessagesSayItOnce(t *testing.T) {
	model := func(r *Rule, sets ...string) error {
		t.Helper()
		m := r.Mechanic()
		c, err := m.Configure(sets)
		if err != nil {
			t.Fatal(err)
		}
		_, err = m.Model(c)
		return err
	}
	r, err := FromExpr("d100000 * d100000 * d100000 * d100000")
	if err != nil {
		t.Fatal(err)
	}
	if err := model(r); err == nil || !strings.HasPrefix(err.Error(), "expr: the rule's random parts are too many") {
		t.Errorf("a one-liner's error: %v", err)
	}
	r, err = FromExpr("(x*x*x)d6")
	if err != nil {
		t.Fatal(err)
	}
	want := "expr: --expr: line 1, column 2: the number of dice is too large for exact arithmetic (over 64 bits)"
	if err := model(r, "x=1000000000"); err == nil || err.Error() != want {
		t.Errorf("an overflowing dice count:\n got %v\nwant %s", err, want)
	}
	src := "[[rule]]\nid = \"t.x\"\n[rule.params]\nhp = { default = 5, max = 100 }\nm = { default = 10, max = 10000000 }\n" +
		"[rule.process]\nstate = { s = { start = \"hp\", min = 0, max = \"m\" } }\nuntil = \"s == 0\"\nhorizon = \"m\"\n[rule.next]\ns = \"s - 1\"\n[rule.vars]\nt = \"time\"\n"
	rs, err := Parse("res.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for sets, want := range map[string]string{
		"m=2000000": "t.x: res.toml:9: rule t.x, process.horizon: the horizon is 2000000 at these settings: it must be a whole number 1…100000",
		"m=200000":  "t.x: res.toml:9: rule t.x, process.horizon: the horizon is 200000 at these settings: it must be a whole number 1…100000",
		"hp=20":     "t.x: res.toml:1: rule t.x: state variable s: start 20 must lie within [min, max] = [0, 10] (at these settings)",
	} {
		if err := model(rs[0], sets); err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", sets, err, want)
		}
	}
	src = strings.Replace(src, `horizon = "m"`, "horizon = 5", 1)
	src = strings.Replace(src, `max = "m"`, `max = "m * 1000"`, 1)
	if rs, err = Parse("res.toml", []byte(src)); err != nil {
		t.Fatal(err)
	}
	want = "t.x: res.toml:7: rule t.x, process.state.s.max: s.max is 2000000 at these settings: it must be a whole number within ±1000000"
	if err := model(rs[0], "m=2000"); err == nil || err.Error() != want {
		t.Errorf("a bound out of range:\n got %v\nwant %s", err, want)
	}
}
