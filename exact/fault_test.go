package exact

import (
	"errors"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// engineBug is the panic value of a model that breaks the engine on
// purpose: not a mechanics.Fault, so the engine may not recover it.
type engineBug string

// TestFaultIsAnErrorABugPanics: a fault of the model's own functions (a
// node's F, a process's Move) comes back from Compute as an error that
// wraps it; any other panic, a bug, goes on as it is.
func TestFaultIsAnErrorABugPanics(t *testing.T) {
	node := func(x any) *mechanics.Spec {
		return &mechanics.Spec{Outcome: mechanics.Map{X: mechanics.D(6), F: func(v int) int {
			if v == 6 {
				panic(x)
			}
			return v
		}}}
	}
	process := func(x any) *mechanics.Spec {
		p := &mechanics.Process{Horizon: 5, Homogeneous: true, TimeUnit: "turn"}
		p.Add(false, "here")
		p.Add(false, "there")
		out := p.Add(true, "out")
		p.Kernel = func(int) mechanics.Node { return mechanics.D(3) }
		p.Move = func(_, s, v int) int {
			switch {
			case s == 1:
				panic(x)
			case v == 3:
				return out
			}
			return v - 1
		}
		return mechanics.ProcessSpec(p)
	}
	for name, spec := range map[string]func(any) *mechanics.Spec{"node": node, "process": process} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			err := Compute(spec(mechanics.Fault{Err: errors.New("no way on")}), &engine.Result{})
			var f mechanics.Fault
			if !errors.As(err, &f) || !strings.Contains(err.Error(), "the model failed: no way on") {
				t.Errorf("a fault gave %v, want the model failed: no way on", err)
			}
			x := func() (x any) {
				defer func() { x = recover() }()
				_ = Compute(spec(engineBug("broken")), &engine.Result{})
				return nil
			}()
			if x != engineBug("broken") {
				t.Errorf("a bug gave the panic %v, want it to go on", x)
			}
		})
	}
}
