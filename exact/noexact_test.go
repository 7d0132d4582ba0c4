package exact

import (
	"errors"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// TestNoExactRefusesAsBadInput: a part that declares NoExact is refused by
// the exact engine as bad input, with its reason and the advice to
// simulate, before anything is computed.
func TestNoExactRefusesAsBadInput(t *testing.T) {
	rec := mechanics.NewRecord(mechanics.Int("x", 1, 6, "a die"))
	main := &mechanics.Spec{Record: rec, Outcome: mechanics.D(6)}
	main.Var("x", "the die", expr.F("x"))
	part := &mechanics.Spec{Record: rec, Outcome: mechanics.D(6), NoExact: "the chain is too long"}
	part.Var("y", "the die again", expr.F("x"))
	main.Also = []*mechanics.Spec{part}
	err := Compute(main, &engine.Result{})
	var in *mechanics.InputError
	if !errors.As(err, &in) || !strings.Contains(err.Error(), "the chain is too long") || !strings.Contains(err.Error(), "oddsmith sim") {
		t.Fatalf("Compute = %v; want bad input naming the reason and the simulator", err)
	}
}
