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
