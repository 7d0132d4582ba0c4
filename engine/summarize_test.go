package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// engineBug is the panic value of an output that breaks the summaries on
// purpose: not a mechanics.Fault, so they may not recover it.
type engineBug string

// TestSummarizeFaultIsAnErrorABugPanics: an output whose function raises a
// fault of the model fails the summary with an error that wraps it; any
// other panic, a bug, goes on as it is.
func TestSummarizeFaultIsAnErrorABugPanics(t *testing.T) {
	spec := func(x any) *mechanics.Spec {
		rec := mechanics.NewRecord(mechanics.Int("roll", 1, 6, "the roll"))
		half := expr.Call("half", func(args []expr.Rat) expr.Rat {
			if args[0].N == 6 {
				panic(x)
			}
			return args[0]
		}, expr.Ref{Field: "roll"})
		return &mechanics.Spec{Record: rec, Vars: []mechanics.Var{{Name: "half", Expr: half}}}
	}
	die := Uniform(0, 5) // the codes of rolls 1 to 6
	err := Summarize(spec(mechanics.Fault{Err: errors.New("no six")}), die, &Result{})
	var f mechanics.Fault
	if !errors.As(err, &f) || !strings.Contains(err.Error(), "the model's outputs failed: no six") {
		t.Errorf("a fault gave %v, want the model's outputs failed: no six", err)
	}
	x := func() (x any) {
		defer func() { x = recover() }()
		_ = Summarize(spec(engineBug("broken")), die, &Result{})
		return nil
	}()
	if x != engineBug("broken") {
		t.Errorf("a bug gave the panic %v, want it to go on", x)
	}
	if err := Summarize(spec(nil), Uniform(0, 4), &Result{}); err != nil {
		t.Errorf("rolls 1 to 5: %v", err)
	}
}

// TestSummarizeGiven: a conditional variable (Var.Given) reports its
// distribution given the condition, summing to 1 with its undefined mass
// given it, from exact masses and from simulated counts alike; a
// condition that never holds leaves it undefined everywhere.
func TestSummarizeGiven(t *testing.T) {
	rec := mechanics.NewRecord(mechanics.Int("roll", 1, 6, "the roll"))
	roll := expr.Ref{Field: "roll"}
	spec := &mechanics.Spec{Record: rec, Vars: []mechanics.Var{
		// Given roll ≥ 3 (4/6), defined below 6: 3, 4, 5 with 1/4 each,
		// 6 undefined with 1/4.
		{Name: "high", Expr: roll, Given: expr.Ge(roll, expr.K(3)), GivenLabel: "at least 3", When: expr.Lt(roll, expr.K(6)), Otherwise: "a six"},
		{Name: "never", Expr: roll, Given: expr.Gt(roll, expr.K(6)), GivenLabel: "above 6"},
		{Name: "joint", Expr: roll, When: expr.Ge(roll, expr.K(3)), Otherwise: "below 3"},
	}}
	check := func(what string, r *Result) {
		t.Helper()
		h := r.Var("high")
		if h.Given != "at least 3" || !near(h.GivenP, 4.0/6) || h.Lo != 3 || len(h.P) != 3 || !near(h.Undefined, 0.25) || h.UndefinedLabel != "a six" {
			t.Fatalf("%s: high = %+v", what, *h)
		}
		for i, p := range h.P {
			if !near(p, 0.25) {
				t.Errorf("%s: P(high = %d | at least 3) = %v, want 1/4", what, 3+i, p)
			}
		}
		if !near(h.Stats.Mean, 4) {
			t.Errorf("%s: E[high | at least 3, below 6] = %v, want 4", what, h.Stats.Mean)
		}
		if n := r.Var("never"); n.Given != "above 6" || n.GivenP != 0 || len(n.P) != 0 || n.Undefined != 1 || n.UndefinedLabel != "never above 6" {
			t.Errorf("%s: never = %+v", what, *n)
		}
		// A variable with only When stays joint: its masses sum to P(defined).
		if j := r.Var("joint"); j.Given != "" || !near(j.P[0], 1.0/6) || !near(j.Undefined, 2.0/6) {
			t.Errorf("%s: joint = %+v", what, *j)
		}
	}
	var ex Result
	if err := Summarize(spec, Uniform(0, 5), &ex); err != nil { // the codes of rolls 1 to 6
		t.Fatal(err)
	}
	check("exact", &ex)
	var sm Result
	if err := SummarizeCounts(t.Context(), spec, 0, []int64{100, 100, 100, 100, 100, 100}, &sm, 0); err != nil {
		t.Fatal(err)
	}
	check("counts", &sm)
	if h := sm.Var("high"); h.GivenCount != 400 || h.Counts[0] != 100 || h.UndefinedCount != 100 {
		t.Errorf("counts: high given %d, counts %v, undefined %d; want 400, 100 each, 100", h.GivenCount, h.Counts, h.UndefinedCount)
	}
}

func near(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }
