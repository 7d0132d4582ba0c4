package exact

import (
	"context"
	"reflect"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/fixtures"
	"github.com/oddsmith/oddsmith/mechanics"
)

// Outcome is what Eval gives for an outcome node and SolveProcess for a
// process, and it keeps to the memory budget and the context.
func TestOutcome(t *testing.T) {
	t.Parallel()
	node := fixtures.NodeZoo()["Keep"]
	want, _, err := Eval(node)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Outcome(context.Background(), &mechanics.Spec{Outcome: node}, Options{})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Outcome of a node: %v %v, want %v", got, err, want)
	}
	p := fixtures.GamblersRuin(6, 3, 1, 1)
	ch, err := SolveProcess(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err = Outcome(context.Background(), &mechanics.Spec{Process: p}, Options{})
	if err != nil || !reflect.DeepEqual(got, ch.Outcome) {
		t.Errorf("Outcome of a process: %v %v, want %v", got, err, ch.Outcome)
	}
	big := &mechanics.Spec{Outcome: mechanics.Repeat{X: mechanics.D(1000), N: 1000}}
	if _, err := Outcome(context.Background(), big, Options{MemoryBytes: 1 << 20}); !engine.IsMemory(err) {
		t.Errorf("Outcome over the budget: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Outcome(ctx, &mechanics.Spec{Process: p}, Options{}); err != context.Canceled {
		t.Errorf("Outcome with its context done: %v", err)
	}
	if _, err := Outcome(context.Background(), &mechanics.Spec{Outcome: node, NoExact: "too long"}, Options{}); !mechanics.IsInput(err) {
		t.Errorf("Outcome of a model the exact engine refuses: %v", err)
	}
}
