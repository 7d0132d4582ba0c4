package mechanics

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics/expr"
)

func testMechanic() *Mechanic {
	return &Mechanic{
		ID:      "test.roll",
		Params:  []Param{{Name: "n", Default: 2, Min: 0, Max: 10}, {Name: "rate", Default: 0.5, Min: 0, Max: 1, Real: true}},
		Options: []Option{{Name: "test.core.opt.tie", Values: []string{"band", "success"}}},
		Build:   func(Config) (*Spec, error) { return &Spec{Outcome: D(6)}, nil },
	}
}

func TestConfigure(t *testing.T) {
	m := testMechanic()
	c, err := m.Configure([]string{"n=4", "test.roll.rate=0.25", "opt.tie=success"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Int("n") != 4 || c.Float("rate") != 0.25 || c.Options["test.core.opt.tie"] != "success" {
		t.Errorf("configured %+v", c)
	}
	if c, _ := m.Configure([]string{"test.core.opt.tie=band"}); c.Options["test.core.opt.tie"] != "band" {
		t.Error("full option name not accepted")
	}
	bad := map[string]string{
		"n=11": "out of range", "n=-1": "out of range", "n=1.5": "whole number", "n=NaN": "not a number",
		"rate=Inf": "not a number", "tie=success": "unknown parameter or option", "opt.tie=win": "not one of",
		"=3": "not of the form", "n": "not of the form",
	}
	for kv, want := range bad {
		_, err := m.Configure([]string{kv})
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Configure(%q) error %v; want one line containing %q", kv, err, want)
		}
	}
}

func TestRegisterRejectsDuplicatesAndBadDefaults(t *testing.T) {
	t.Parallel()
	m := testMechanic()
	m.ID = "test.unique"
	for name, bad := range map[string][]*Mechanic{
		"duplicate":   {m, m},
		"bad default": {{ID: "test.bad", Params: []Param{{Name: "x", Default: 5, Min: 0, Max: 1}}}},
		"no values":   {{ID: "test.novals", Options: []Option{{Name: "test.opt.x"}}}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: NewRegistry did not panic", name)
				}
			}()
			NewRegistry(bad...)
		}()
	}
	if _, err := NewRegistry(m).Lookup("test.missing"); err == nil {
		t.Error("Lookup of a missing id succeeded")
	}
	var none *Registry
	if _, err := none.Lookup("test.unique"); err == nil || len(none.All()) != 0 {
		t.Error("a nil registry is not empty")
	}
}

// Overlays of one registry are independent values: each sees its own rules
// and the base's mechanics, the base never sees a rule, and a taken id is
// refused as bad input. Run from many goroutines (-race checks them).
func TestOverlaysSideBySide(t *testing.T) {
	t.Parallel()
	base := NewRegistry(testMechanic())
	rule := func(id string) *Mechanic { m := testMechanic(); m.ID, m.RuleSource = id, id+".toml"; return m }
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			id := fmt.Sprintf("rule.r%d", i)
			o, err := base.Overlay([]*Mechanic{rule(id)})
			if err != nil {
				t.Error(err)
				return
			}
			if _, err := o.Lookup(id); err != nil {
				t.Errorf("overlay %d lost its rule: %v", i, err)
			}
			if _, err := o.Lookup("test.roll"); err != nil {
				t.Errorf("overlay %d lost the base: %v", i, err)
			}
			if _, err := base.Lookup(id); err == nil {
				t.Errorf("rule %s leaked into the base", id)
			}
			for j := range 8 {
				if j == i {
					continue
				}
				if _, err := o.Lookup(fmt.Sprintf("rule.r%d", j)); err == nil {
					t.Errorf("overlay %d sees rule %d", i, j)
				}
			}
			if got := len(o.All()); got != 2 {
				t.Errorf("overlay %d holds %d mechanics; want 2", i, got)
			}
		})
	}
	wg.Wait()
	for _, ms := range [][]*Mechanic{{rule("test.roll")}, {rule("rule.x"), rule("rule.x")}} {
		_, err := base.Overlay(ms)
		if !IsInput(err) || !strings.Contains(err.Error(), "the id is taken") || !strings.HasPrefix(err.Error(), ms[0].RuleSource+": ") {
			t.Errorf("Overlay(%s) = %v; want the taken id refused as bad input", ms[0].ID, err)
		}
	}
	if o, _ := base.Overlay(nil); o != base {
		t.Error("an empty overlay is not the registry itself")
	}
}

func TestValidate(t *testing.T) {
	bad := []Node{
		nil, Die{}, Die{Faces: []int{1, 2}, Weights: []int64{1}}, Die{Faces: []int{1}, Weights: []int64{0}},
		Keep{Die: D(6), N: 2, K: 3}, Pool{Die: D(6), N: 2}, Clamp{X: D(6), Lo: 3, Hi: 1},
		Mixture{Weights: []int64{1}}, Explode{Die: D(6), Limit: -1}, Repeat{X: D(6), N: -1}, Map{X: D(6)},
		Sum{Terms: []Node{D(6), Die{}}},
	}
	for _, n := range bad {
		if Validate(n) == nil {
			t.Errorf("Validate(%#v) accepted a malformed node", n)
		}
	}
}

func TestProcessOutcomePacking(t *testing.T) {
	p := &Process{States: []string{"a", "b", "x", "y"}, Absorbing: []bool{false, false, true, true}, Horizon: 9, Step: func(_, s int) Node { return Const{V: s} }}
	for t0 := 0; t0 <= 10; t0++ {
		for k := 0; k <= 3; k++ {
			if tt, kk := p.SplitOutcome(p.Outcome(t0, k)); tt != t0 || kk != k {
				t.Fatalf("Outcome(%d,%d) splits into (%d,%d)", t0, k, tt, kk)
			}
		}
	}
	s := ProcessSpec(p)
	if s.Record.Size() != 4*11 {
		t.Fatalf("process record has %d codes", s.Record.Size())
	}
	o, err := s.Compile()
	if err != nil {
		t.Fatal(err)
	}
	vars, events, bands := make([]expr.Rat, 1), make([]bool, 3), make([]int, 1)
	check := func(t0, st int, wantEvents []bool) {
		t.Helper()
		if err := o.Eval(p.Outcome(t0, st), vars, events, bands, nil); err != nil {
			t.Fatal(err)
		}
		if vars[0] != expr.Int(int64(t0)) || bands[0] != st || !slices.Equal(events, wantEvents) {
			t.Errorf("(t=%d, s=%d): time %v, events %v, final state %d", t0, st, vars[0], events, bands[0])
		}
	}
	if len(s.Events) != 3 || s.Events[1].Name != "absorbed:y" {
		t.Errorf("ProcessSpec events %v", s.Events)
	}
	check(4, 3, []bool{false, true, false})
	check(10, 1, []bool{false, false, true})
	check(9, 2, []bool{true, false, false})
}

// A configuration refuses undeclared names and any read after the model is
// built: nothing may look a parameter up on a per-trial path.
func TestConfigSealedAfterBuild(t *testing.T) {
	var late func() int
	m := &Mechanic{ID: "test.sealed", Params: []Param{{Name: "n", Default: 2, Min: 0, Max: 10}},
		Build: func(c Config) (*Spec, error) {
			late = func() int { return c.Int("n") }
			rec := NewRecord(Int("v", 1, 6, ""))
			s := &Spec{Record: rec, Outcome: D(6)}
			return s.Var("v", "", expr.F("v")), nil
		}}
	c := m.DefaultConfig()
	for name, f := range map[string]func(){"Int": func() { c.Int("nope") }, "Float": func() { c.Float("nope") }, "Option": func() { SwitchOf("test", "nope", "", tieBand).Of(c) }} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "undeclared") {
					t.Errorf("%s of an undeclared name: %v", name, r)
				}
			}()
			f()
		}()
	}
	if _, err := m.Model(c); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "after the model was built") {
			t.Errorf("read after build: %v", r)
		}
	}()
	late()
}

func TestFingerprint(t *testing.T) {
	m := testMechanic()
	fp := func(sets ...string) string {
		c, err := m.Configure(sets)
		if err != nil {
			t.Fatal(err)
		}
		return m.Fingerprint(c)
	}
	a := fp()
	if a != fp() || a != fp("n=2") || !strings.HasPrefix(a, "sha256:") || len(a) != len("sha256:")+32 {
		t.Errorf("fingerprint %q is not stable", a)
	}
	if fp("n=3") == a || fp("opt.tie=success") == a || fp("rate=0.25") == a {
		t.Error("different models share a fingerprint")
	}
	if c := Canonical("x.y", []NamedValue{{Name: "a", Value: 0.1, Means: "ignored"}}, []NamedString{{"x.opt.b", "c"}}); c != "oddsmith "+Version+"\nx.y\na=0.1\nx.opt.b=c\n" {
		t.Errorf("canonical text %q", c)
	}
}

type testTie int

const tieBand testTie = 0

func (testTie) String() string { return "band" }

// TestSetNegativeZero: -0 is 0 — one value, one fingerprint.
func TestSetNegativeZero(t *testing.T) {
	m := &Mechanic{ID: "t.z", Params: []Param{{Name: "x", Min: -5, Max: 5, Default: 1}}}
	c, err := m.Configure([]string{"x=-0"})
	if err != nil {
		t.Fatal(err)
	}
	if v := c.Params["x"]; v != 0 || math.Signbit(v) {
		t.Errorf("x=-0 is stored as %v (sign bit %v)", v, math.Signbit(v))
	}
}

// TestSettingsSaySentinels: a parameter at one of its Sentinels carries
// what it stands for (NamedValue.Means), which captions print in place of
// the number; at any other value it carries nothing, and the fingerprint
// ignores the words.
func TestSettingsSaySentinels(t *testing.T) {
	m := &Mechanic{ID: "t.s", Params: []Param{{Name: "s0", Min: -99, Max: 20, Default: -99, Sentinels: map[float64]string{-99: "the preset's"}}}}
	c, err := m.Configure(nil)
	if err != nil {
		t.Fatal(err)
	}
	if ps, _ := m.Settings(c); len(ps) != 1 || ps[0].Means != "the preset's" || ps[0].Value != -99 {
		t.Errorf("at the sentinel: %+v", ps)
	}
	c3, err := m.Configure([]string{"s0=3"})
	if err != nil {
		t.Fatal(err)
	}
	if ps, _ := m.Settings(c3); ps[0].Means != "" {
		t.Errorf("at s0=3: %+v", ps)
	}
}

// TestSetNumbersExactArithmeticHolds: a parameter is a number in decimals
// that exact arithmetic holds; anything else is bad input in one line
// (issue 27: rate=1e-19 was a panic while the model was built, exit 1;
// n=1_0 was 10 while 0x1 was refused).
func TestSetNumbersExactArithmeticHolds(t *testing.T) {
	t.Parallel()
	m := testMechanic()
	bad := map[string]string{
		"rate=1e-19": "round it, say 0", "rate=5e-324": "round it, say 0", "rate=0.0000000000000000001": "round it",
		"n=1_0": "not a number", "n=0x1": "not a number", "n=0b1": "not a number", "n=0o7": "not a number",
		"rate=0x1p-2": "not a number", "n=1e": "not a number", "n=.": "not a number", "n=+": "not a number",
		"n=1e999": "past the range of numbers", "rate=1e-400": "past the range of numbers", "n= 1 2": "not a number",
	}
	for kv, want := range bad {
		_, err := m.Configure([]string{kv})
		if err == nil || !IsInput(err) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Configure(%q): %v; want one line of bad input saying %q", kv, err, want)
		}
	}
	good := map[string]float64{"rate=1e-18": 1e-18, "rate=0.000000000000000001": 1e-18, "n=010": 10, "n=+3": 3, "n=3.": 3,
		"rate=.5": 0.5, "rate=5E-1": 0.5, "n=-0": 0, "rate=0.123456789012345678": 0.123456789012345678}
	for kv, want := range good {
		c, err := m.Configure([]string{kv})
		name, _, _ := strings.Cut(kv, "=")
		if err != nil || c.Params[name] != want {
			t.Errorf("Configure(%q): %v, %v; want %v", kv, c.Params[name], err, want)
		}
	}
	// A value set around Set (a test, a hand-made Config) is bad input
	// when the model reads it, not a panic.
	r := &Mechanic{ID: "test.rat", Params: []Param{{Name: "h", Default: 1, Min: 0, Max: 1, Real: true}},
		Build: func(c Config) (*Spec, error) { c.Rat("h"); return &Spec{Outcome: D(6)}, nil }}
	c := r.DefaultConfig()
	c.Params["h"] = 1e-19
	if _, err := r.Model(c); err == nil || !IsInput(err) || !strings.Contains(err.Error(), "round it") {
		t.Errorf("Model at h=1e-19: %v; want bad input", err)
	}
}

// TestExplodeRollsNeedTheTopFaces: rolls read one by one are checked by
// the model itself (the exact engine splits them at the lowest face that
// bursts): a penetrating explosion or one on faces below another face is
// invalid, whoever builds it.
func TestExplodeRollsNeedTheTopFaces(t *testing.T) {
	d6 := D(6)
	ok := ExplodeRolls{Explode: Explode{Die: d6, ByThreshold: true, Threshold: 5}, N: 2, Eval: SumEval{}}
	if err := Validate(ok); err != nil {
		t.Fatalf("!>=5: %v", err)
	}
	for name, e := range map[string]Explode{
		"on 3":        {Die: d6, On: []int{3}},
		"penetrating": {Die: d6, Penetrate: true},
	} {
		if err := Validate(ExplodeRolls{Explode: e, N: 2, Eval: SumEval{}}); err == nil {
			t.Errorf("%s: valid", name)
		}
	}
}
