package expr

import (
	"strings"
	"testing"
)

func TestRat(t *testing.T) {
	a, b := Frac(6, -4), Frac(1, 3)
	if a != (Rat{-3, 2}) {
		t.Fatalf("Frac(6, -4) = %v; want -3/2", a)
	}
	for _, c := range []struct {
		got, want Rat
	}{
		{a.Add(b), Frac(-7, 6)}, {a.Sub(b), Frac(-11, 6)}, {a.Mul(b), Frac(-1, 2)}, {Int(3).Add(Int(4)), Int(7)},
		{Rat{}.Add(Frac(1, 2)), Frac(1, 2)}, {a.Neg(), Frac(3, 2)},
	} {
		if c.got != c.want {
			t.Errorf("got %v; want %v", c.got, c.want)
		}
	}
	if q, ok := a.Div(b); !ok || q != Frac(-9, 2) {
		t.Errorf("-3/2 ÷ 1/3 = %v", q)
	}
	if _, ok := a.Div(Rat{}); ok {
		t.Error("division by zero allowed")
	}
	if a.Floor() != -2 || a.Ceil() != -1 || Frac(7, 2).Floor() != 3 || Int(-4).Floor() != -4 {
		t.Error("floor/ceil")
	}
	if a.Cmp(b) != -1 || b.Cmp(a) != 1 || Frac(2, 4).Cmp(Frac(1, 2)) != 0 || Frac(1, 3).Cmp(Frac(1, 4)) != 1 {
		t.Error("Cmp")
	}
	if a.String() != "-3/2" || Int(5).String() != "5" {
		t.Error("String")
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), "overflow") {
				t.Errorf("overflow not caught: %v", r)
			}
		}()
		Int(1 << 62).Mul(Int(8))
	}()
}

func TestDecimal(t *testing.T) {
	for v, want := range map[float64]Rat{9.1: Frac(91, 10), 0.25: Frac(1, 4), -3: Int(-3), 1e-3: Frac(1, 1000), 22.5: Frac(45, 2)} {
		if got, err := Decimal(v); err != nil || got != want {
			t.Errorf("Decimal(%v) = %v, %v; want %v", v, got, err, want)
		}
	}
	if _, err := Decimal(1e300); err == nil {
		t.Error("Decimal(1e300) fits in int64?")
	}
}

func eval(t *testing.T, e Expr, vals map[string]Rat) (Rat, error) {
	t.Helper()
	var names []string
	var vs []Rat
	for k, v := range vals {
		names, vs = append(names, k), append(vs, v)
	}
	p, err := Compile(e, func(n string) (int, bool) {
		for i, k := range names {
			if k == n {
				return i, true
			}
		}
		return 0, false
	})
	if err != nil {
		t.Fatal(err)
	}
	return p.Eval(vs)
}

func TestEvalAndPrint(t *testing.T) {
	x := F("x")
	cases := []struct {
		e     Expr
		x     Rat
		want  Rat
		print string
	}{
		{Add(x, K(2)), Int(3), Int(5), "x + 2"},
		{Mul(Add(x, K(1)), Q(1, 2)), Int(4), Frac(5, 2), "(x + 1) * 1/2"},
		{Sub(x, Sub(K(1), K(2))), Int(0), Int(1), "x - (1 - 2)"},
		{Div(x, K(4)), Int(6), Frac(3, 2), "x / 4"},
		{Clamp(x, -3, 3), Int(9), Int(3), "min(max(x, -3), 3)"},
		{And(Ge(x, K(1)), Not(Eq(x, K(5)))), Int(5), Int(0), "x >= 1 and not(x == 5)"},
		{Or(Lt(x, K(0)), Gt(x, K(9))), Int(10), Int(1), "x < 0 or x > 9"},
		{Cond(Le(x, K(2)), K(7), Neg(x)), Int(3), Int(-3), "if x <= 2 then 7 else -x"},
		{Table(x, 1, 10, 20, 30), Int(2), Int(20), "lookup(x, table[1..3])"},
		{Floor(Div(x, K(3))), Int(-4), Int(-2), "floor(x / 3)"},
		{Abs(Ceil(Div(x, K(2)))), Int(-5), Int(2), "abs(ceil(x / 2))"},
		{Max(x, Ne(x, K(1))), Frac(1, 2), Int(1), "max(x, x != 1)"},
		{Call("double", func(a []Rat) Rat { return a[0].Mul(Int(2)) }, x), Int(4), Int(8), "double(x)"},
	}
	for _, c := range cases {
		got, err := eval(t, c.e, map[string]Rat{"x": c.x})
		if err != nil || got != c.want {
			t.Errorf("%s at x=%v = %v, %v; want %v", String(c.e), c.x, got, err, c.want)
		}
		if s := String(c.e); s != c.print {
			t.Errorf("String = %q; want %q", s, c.print)
		}
	}
	if _, err := eval(t, Div(K(1), F("x")), map[string]Rat{"x": {}}); err == nil || !strings.Contains(err.Error(), "division by zero") {
		t.Errorf("1/0: %v", err)
	}
	if _, err := eval(t, Table(F("x"), 1, 10), map[string]Rat{"x": Int(5)}); err == nil {
		t.Error("lookup outside its table succeeded")
	}
	if _, err := Compile(F("nope"), func(string) (int, bool) { return 0, false }); err == nil {
		t.Error("unknown field compiled")
	}
	if got := Refs(And(F("a"), Or(F("b"), F("a")))); strings.Join(got, ",") != "a,b" {
		t.Errorf("Refs = %v", got)
	}
}

func TestAbbreviate(t *testing.T) {
	total := Max(K(0), Add(F("roll"), K(2)))
	mos := Sub(total, K(5))
	named := map[string]string{String(total): "total", String(mos): "mos"}
	if got := String(Abbreviate(And(F("crit"), Ge(mos, K(1))), named)); got != "crit and mos >= 1" {
		t.Errorf("got %q", got)
	}
	// The whole expression keeps its own formula.
	if got := String(Abbreviate(mos, named)); got != "total - 5" {
		t.Errorf("got %q", got)
	}
}

// TestAbbreviateTellsTablesApart: two lookups over the same range of
// different tables print alike but are not the same variable.
func TestAbbreviateTellsTablesApart(t *testing.T) {
	a := Table(F("state"), 0, 0, 1, 1)
	b := Table(F("state"), 0, 1, 0, 0)
	if String(a) != String(b) || Key(a) == Key(b) {
		t.Fatalf("String %q / %q, Key %q / %q", String(a), String(b), Key(a), Key(b))
	}
	named := map[string]string{Key(a): "ill"}
	if got := String(Abbreviate(Add(b, K(1)), named)); got == "ill + 1" {
		t.Errorf("a lookup of another table was named after ill: %s", got)
	}
	if got := String(Abbreviate(Add(a, K(1)), named)); got != "ill + 1" {
		t.Errorf("Abbreviate = %q, want ill + 1", got)
	}
}
