package mechanics

import "testing"

// UnlimitedBursts finds a die that bursts without limit wherever it sits
// in a model, with the largest tolerance among such dice; dice with a limit
// do not count.
func TestUnlimitedBursts(t *testing.T) {
	d6 := D(6)
	deep := Combine{X: Const{V: 1}, Y: Cond{If: Compare{X: d6, Op: GE, T: 3}, Then: Mixture{Weights: []int64{1, 1},
		Of: []Node{Repeat{X: Explode{Die: d6, Tolerance: 1e-6}, N: 2}, Explode{Die: d6}}}, Else: Const{V: 0}}, F: func(x, y int) int { return x + y }}
	for _, c := range []struct {
		n     Node
		found bool
		tol   float64
	}{
		{d6, false, 0},
		{Explode{Die: d6, Limit: 3}, false, 0},
		{Sum{Terms: []Node{d6, Explode{Die: d6}}}, true, DefaultTolerance},
		{Map{X: Clamp{X: Scale{X: Explode{Die: d6, Tolerance: 1e-9}, K: 2}, Lo: NoLo, Hi: NoHi}, F: func(x int) int { return x }}, true, 1e-9},
		{deep, true, 1e-6},
		{Max{Terms: []Node{Min{Terms: []Node{Explode{Die: d6, Limit: 1}}}}}, false, 0},
	} {
		found, tol := UnlimitedBursts(c.n)
		if found != c.found || tol != c.tol {
			t.Errorf("UnlimitedBursts(%T) = %v, %g; want %v, %g", c.n, found, tol, c.found, c.tol)
		}
	}
}

// OpenEnds: a bound MaxBursts or more from 0 stands for no bound only in a
// model that bursts without limit; a flag, an enum and a process's record
// have none.
func TestOpenEnds(t *testing.T) {
	wide := Int("x", -6*(MaxBursts+1), 6*(MaxBursts+1), "")
	narrow := Int("y", 1, 6, "")
	burst := &Spec{Outcome: Explode{Die: D(6)}}
	if lo, hi, tol := burst.OpenEnds(wide); !lo || !hi || tol != DefaultTolerance {
		t.Errorf("wide field of a bursting model: %v %v %g", lo, hi, tol)
	}
	if lo, hi, _ := burst.OpenEnds(narrow); lo || hi {
		t.Error("a narrow field is open")
	}
	if lo, hi, _ := burst.OpenEnds(Enum("e", "", "a", "b")); lo || hi {
		t.Error("an enum is open")
	}
	if lo, hi, _ := (&Spec{Outcome: Explode{Die: D(6), Limit: 4}}).OpenEnds(wide); lo || hi {
		t.Error("a field of a model without unlimited bursts is open")
	}
	if lo, hi, _ := (&Spec{Process: &Process{}}).OpenEnds(wide); lo || hi {
		t.Error("a process's field is open")
	}
}

// The rolls of dice that burst without limit burst without limit.
func TestUnlimitedBurstsSeesExplodeRolls(t *testing.T) {
	r := ExplodeRolls{Explode: Explode{Die: D(6)}, N: 3, Eval: SumEval{}}
	if found, tol := UnlimitedBursts(Sum{Terms: []Node{r, D(4)}}); !found || tol != DefaultTolerance {
		t.Errorf("UnlimitedBursts = %v, %v; want true, %v", found, tol, DefaultTolerance)
	}
	r.Explode.Limit = 2
	if found, _ := UnlimitedBursts(r); found {
		t.Error("a limited explosion's rolls reported as bursting without limit")
	}
	if err := Validate(ExplodeRolls{Explode: Explode{Die: D(6)}, N: -1, Eval: SumEval{}}); err == nil {
		t.Error("Validate accepted -1 dice")
	}
	if err := Validate(ExplodeRolls{Explode: Explode{Die: D(6)}, N: 2}); err == nil {
		t.Error("Validate accepted no evaluator")
	}
}
