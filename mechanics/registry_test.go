package mechanics

import (
	"strings"
	"testing"
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
	if c.Int("n") != 4 || c.Float("rate") != 0.25 || c.Opt("tie") != "success" || c.Options["test.core.opt.tie"] != "success" {
		t.Errorf("configured %+v", c)
	}
	if c, _ := m.Configure([]string{"test.core.opt.tie=band"}); c.Opt("tie") != "band" {
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
	m := testMechanic()
	m.ID = "test.unique"
	Register(m)
	defer delete(registry, m.ID)
	for name, bad := range map[string]*Mechanic{
		"duplicate":   m,
		"bad default": {ID: "test.bad", Params: []Param{{Name: "x", Default: 5, Min: 0, Max: 1}}},
		"no values":   {ID: "test.novals", Options: []Option{{Name: "test.opt.x"}}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Register did not panic", name)
				}
			}()
			Register(bad)
		}()
	}
	if _, err := Lookup("test.missing"); err == nil {
		t.Error("Lookup of a missing id succeeded")
	}
}

func TestValidate(t *testing.T) {
	bad := []Node{
		nil, Die{}, Die{Faces: []int{1, 2}, Weights: []int64{1}}, Die{Faces: []int{1}, Weights: []int64{0}},
		Keep{Die: D(6), N: 2, K: 3}, Pool{Die: D(6), N: 2}, Clamp{X: D(6), Lo: 3, Hi: 1},
		Mixture{Weights: []int64{1}}, Explode{Die: D(6), Depth: -1}, Repeat{X: D(6), N: -1}, Map{X: D(6)},
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
	if len(s.Events) != 3 || s.Events[1].Name != "absorbed:y" || !s.Events[1].Of(p.Outcome(4, 3)) ||
		!s.Events[2].Of(p.Outcome(10, 1)) || s.Events[2].Of(p.Outcome(9, 2)) || s.Vars[0].Of(p.Outcome(10, 1)) != 10 ||
		s.Bands[0].Of(p.Outcome(10, 1)) != 1 {
		t.Errorf("ProcessSpec events %v", s.Events)
	}
}
