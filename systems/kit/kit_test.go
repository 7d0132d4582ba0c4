package kit

import (
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

func eval(t *testing.T, e expr.Expr, fields map[string]expr.Rat) expr.Rat {
	t.Helper()
	return mechtest.Eval(t, e, fields)
}

func n(v int) map[string]expr.Rat { return map[string]expr.Rat{"n": expr.Int(int64(v))} }

// Every block's expression form agrees with its Go form on every value.
func TestExpressionAndGoFormsAgree(t *testing.T) {
	t.Parallel()
	for _, c := range []Check{
		{Field: "n", Sides: 20, Bonus: 3, Target: 14, Cmp: mechanics.GE, AutoFail: 0, AutoSucceed: 20}, // grim attack
		{Field: "n", Sides: 20, Bonus: 2, Target: 11, Cmp: mechanics.GE, AutoFail: 1, AutoSucceed: 21}, // grim check
		{Field: "n", Sides: 20, Bonus: 5, Target: 15, Cmp: mechanics.GT, AutoSucceed: 21},              // beat a Guard
		{Field: "n", Sides: 20, Bonus: -30, Target: 1, Cmp: mechanics.GE, AutoSucceed: 19},
	} {
		for v := 1; v <= 20; v++ {
			if got := eval(t, c.Success(), n(v)).N != 0; got != c.Holds(v) {
				t.Errorf("%+v at natural %d: expression %v, Go %v", c, v, got, c.Holds(v))
			}
			if got := eval(t, c.Margin(), n(v)); got != expr.Int(int64(v+c.Bonus-c.Target)) {
				t.Errorf("margin at %d = %v", v, got)
			}
		}
	}
	for _, r := range []RollUnder{{Field: "n", Sides: 20, Target: 12, AutoFail: 21}, {Field: "n", Sides: 20, Target: 25, AutoSucceed: 1, AutoFail: 20}, {Field: "n", Sides: 20, Target: -3, AutoSucceed: 1, AutoFail: 20}} {
		for v := 1; v <= 20; v++ {
			if got := eval(t, r.Success(), n(v)).N != 0; got != r.Holds(v) {
				t.Errorf("%+v at %d: expression %v, Go %v", r, v, got, r.Holds(v))
			}
		}
	}
	for _, tie := range []Tie{TieStands, TieToActor, TieToTarget} {
		for d := -3; d <= 3; d++ {
			if got := eval(t, Opposed(expr.F("n"), tie), n(d)); got != expr.Int(int64(OpposedOf(d, tie))) {
				t.Errorf("Opposed(%d, %v) = %v, Go %d", d, tie, got, OpposedOf(d, tie))
			}
		}
	}
	th := Ints(false, []string{"none", "flesh", "deep", "critical"}, 5, 10, 20).Scale(expr.Frac(1, 2))
	for u := -2; u <= 30; u++ {
		x := expr.Frac(int64(u), 2)
		got := eval(t, th.Band(expr.F("n")), map[string]expr.Rat{"n": x})
		if got != expr.Int(int64(th.Of(x))) {
			t.Errorf("band of %v: expression %v, Go %d", x, got, th.Of(x))
		}
	}
	if th.Of(expr.Frac(5, 2)) != 1 || th.Of(expr.Frac(4, 2)) != 0 || th.Of(expr.Int(10)) != 3 {
		t.Error("halved thresholds misplace 2.5, 2 or 10")
	}
	strict := Ints(true, nil, 5)
	if strict.Of(expr.Int(5)) != 0 || strict.Of(expr.Int(6)) != 1 {
		t.Error("strict thresholds")
	}
}

func TestRounding(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		x    expr.Rat
		r    Rounding
		want expr.Rat
	}{
		{expr.Frac(5, 2), Floor, expr.Int(2)}, {expr.Frac(5, 2), Ceil, expr.Int(3)}, {expr.Frac(5, 2), RoundHalfUp, expr.Int(3)},
		{expr.Frac(-5, 2), Floor, expr.Int(-3)}, {expr.Frac(7, 3), RoundHalfUp, expr.Int(2)}, {expr.Frac(7, 3), ExactFraction, expr.Frac(7, 3)},
	} {
		if got := c.r.Round(c.x); got != c.want {
			t.Errorf("%v.Round(%v) = %v; want %v", c.r, c.x, got, c.want)
		}
	}
	if Resist(7, expr.Frac(1, 2), Floor) != expr.Int(3) || AfterArmour(3, 5, 1) != 1 || AfterArmour(9, 5, 0) != 4 {
		t.Error("Resist or AfterArmour")
	}
	if ExactFraction.String() != "exact_fraction" || TieToActor.String() != "actor" {
		t.Error("enum names")
	}
}

// A d20 check built from the kit, computed by both engines: the exact
// probability is the closed form and the simulator agrees.
func TestCheckModelBothEngines(t *testing.T) {
	t.Parallel()
	c := Check{Field: "natural", Sides: 20, Bonus: 3, Target: 14, Cmp: mechanics.GE, AutoFail: 1, AutoSucceed: 21}
	rec := mechanics.NewRecord(Natural("natural", 20))
	spec := &mechanics.Spec{Record: rec, Outcome: Encode(rec, rec.Slot("natural"), mechanics.D(20))}
	spec.Event("success", "", c.Success()).Var("margin", "", c.Margin())
	m := &mechanics.Mechanic{ID: "kit.test_check", Build: func(mechanics.Config) (*mechanics.Spec, error) { return spec, nil }}
	r, err := mechtest.Exact(mechanics.NewRegistry(m), "kit.test_check")
	if err != nil {
		t.Fatal(err)
	}
	if p := r.Event("success").P; math.Abs(p-0.5) > 1e-12 {
		t.Errorf("P(d20+3 >= 14, natural 1 fails) = %v; want 0.5", p)
	}
	rep, err := mechtest.CheckMechanics(t.Context(), []*mechanics.Mechanic{m}, nil, mechtest.Trials(t))
	if err != nil || len(rep) > 0 {
		t.Errorf("cross-check: %v %v", rep, err)
	}
	tte := TimeToEvent("round", 30, true, func(int) mechanics.Node { return Success(mechanics.D(6), mechanics.GE, 5) })
	res := &engine.Result{}
	if err := exact.Compute(tte, res); err != nil {
		t.Fatal(err)
	}
	if mt := res.Process.MeanTimeUnbounded; math.Abs(mt-3) > 1e-9 {
		t.Errorf("time to a 5+ on d6: mean %v; want 3", mt)
	}
}

// Num and Signed write numbers as describe texts do.
func TestNumbersInText(t *testing.T) {
	for _, c := range []struct {
		n           int
		num, signed string
	}{{0, "0", "+0"}, {5, "5", "+5"}, {-10, "−10", "−10"}} {
		if Num(c.n) != c.num || Signed(c.n) != c.signed {
			t.Errorf("%d: Num %q, Signed %q; want %q, %q", c.n, Num(c.n), Signed(c.n), c.num, c.signed)
		}
	}
}
