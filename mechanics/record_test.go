package mechanics

import (
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics/expr"
)

func TestRecordEncoding(t *testing.T) {
	rec := NewRecord(Int("d", -3, 40, ""), Flag("f", ""), Enum("cat", "", "none", "flesh", "deep"), Scaled("dmg", 4, 0, 100, ""))
	if rec.Size() != 44*2*3*101 {
		t.Fatalf("size %d", rec.Size())
	}
	d, f, c, g := rec.Slot("d"), rec.Slot("f"), rec.Slot("cat"), rec.Slot("dmg")
	// Start has every field at 0 where 0 is allowed.
	if s := rec.Start(); d.Get(s) != 0 || f.Bool(s) || c.Get(s) != 0 || g.Get(s) != 0 {
		t.Errorf("start = %s", rec.Format(s))
	}
	seen := map[int]bool{}
	for dv := -3; dv <= 40; dv += 7 {
		for _, fv := range []bool{false, true} {
			for cv := 0; cv < 3; cv++ {
				code := g.SetRat(c.Set(f.SetBool(d.Set(rec.Start(), dv), fv), cv), expr.Frac(int64(dv+3), 4))
				if code < 0 || code >= rec.Size() || seen[code] {
					t.Fatalf("code %d out of range or repeated", code)
				}
				seen[code] = true
				if d.Get(code) != dv || f.Bool(code) != fv || c.Get(code) != cv || g.Get(code) != dv+3 {
					t.Fatalf("round trip of (%d, %v, %d) gave %s", dv, fv, cv, rec.Format(code))
				}
				// Setting a field again replaces it.
				if again := d.Set(code, 5); d.Get(again) != 5 || c.Get(again) != cv {
					t.Fatalf("replace gave %s", rec.Format(again))
				}
			}
		}
	}
	vals := make([]expr.Rat, 4)
	code := g.SetRat(c.Set(d.Set(rec.Start(), -2), 2), expr.Frac(5, 2))
	rec.Values(code, vals)
	if vals[0] != expr.Int(-2) || vals[2] != expr.Int(2) || vals[3] != expr.Frac(5, 2) {
		t.Errorf("values %v", vals)
	}
	if s := rec.Format(code); s != "d=-2 f=no cat=deep dmg=5/2" {
		t.Errorf("Format = %q", s)
	}
	for name, f := range map[string]func(){
		"out of range": func() { d.Set(0, 41) },
		"off lattice":  func() { g.SetRat(0, expr.Frac(1, 3)) },
		"no field":     func() { rec.Slot("nope") },
		"duplicate":    func() { NewRecord(Flag("a", ""), Flag("a", "")) },
		"empty range":  func() { NewRecord(Int("a", 3, 2, "")) },
		"too big":      func() { NewRecord(Int("a", 0, 1<<30, ""), Int("b", 0, 1<<30, "")) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestJointRecord(t *testing.T) {
	sub := NewRecord(Int("roll", 0, 9, ""), Flag("crit", ""))
	pair := NewRecord(append(sub.Prefixed("a_"), sub.Prefixed("b_")...)...)
	ea, eb := pair.Embed("a_", sub), pair.Embed("b_", sub)
	x := sub.Slot("crit").SetBool(sub.Slot("roll").Set(0, 7), true)
	y := sub.Slot("roll").Set(0, 3)
	code := eb.Put(ea.Put(pair.Start(), x), y)
	if ea.Get(code) != x || eb.Get(code) != y {
		t.Errorf("joint %s", pair.Format(code))
	}
	if s := pair.Format(code); s != "a_roll=7 a_crit=yes b_roll=3 b_crit=no" {
		t.Errorf("Format = %q", s)
	}
}

// Outputs may name variables in any order; a cycle is an error.
func TestOutputsNameVariables(t *testing.T) {
	rec := NewRecord(Int("n", 1, 6, ""))
	spec := &Spec{Record: rec, Outcome: D(6)}
	spec.Var("double", "", expr.Mul(expr.F("half"), expr.K(4))).
		Var("half", "", expr.Div(expr.F("n"), expr.K(2))).
		Event("big", "", expr.Ge(expr.F("double"), expr.K(10)))
	o, err := spec.Compile()
	if err != nil {
		t.Fatal(err)
	}
	vars, events := make([]expr.Rat, 2), make([]bool, 1)
	if err := o.Eval(rec.Slot("n").Set(0, 3), vars, events, nil, nil); err != nil {
		t.Fatal(err)
	}
	if vars[0] != expr.Int(6) || vars[1] != expr.Frac(3, 2) || events[0] {
		t.Errorf("vars %v events %v", vars, events)
	}
	loop := &Spec{Record: rec, Outcome: D(6)}
	loop.Var("a", "", expr.F("b")).Var("b", "", expr.F("a"))
	if _, err := loop.Compile(); err == nil || !strings.Contains(err.Error(), "depends on itself") {
		t.Errorf("cycle: %v", err)
	}
	bad := &Spec{Record: rec, Outcome: D(6)}
	bad.Event("e", "", expr.F("missing"))
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("unknown field: %v", err)
	}
}

func TestBitFields(t *testing.T) {
	f := BitFields(3, 8, 1)
	s := f[1].Set(f[0].Set(0, 5), 200)
	s = f[2].Set(s, 1)
	if f[0].Get(s) != 5 || f[1].Get(s) != 200 || f[2].Get(s) != 1 {
		t.Errorf("fields %d %d %d", f[0].Get(s), f[1].Get(s), f[2].Get(s))
	}
	if s = f[1].Set(s, 7); f[0].Get(s) != 5 || f[1].Get(s) != 7 || f[2].Get(s) != 1 {
		t.Error("replacing a field disturbed the others")
	}
	defer func() {
		if recover() == nil {
			t.Error("65 bits accepted")
		}
	}()
	BitFields(60, 5)
}
