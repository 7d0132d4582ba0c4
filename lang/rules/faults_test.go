package rules

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

// processRule is a one-variable process rule whose next state is next.
func processRule(t *testing.T, next string) *Rule {
	t.Helper()
	src := fmt.Sprintf(`
[[rule]]
id = "t.fault"
[rule.process]
state = { s = { start = 0, min = 0, max = 3 } }
until = "s >= 3"
horizon = 5
[rule.next]
s = %q
[rule.events]
done = "s >= 3"
`, next)
	rs, err := Parse("fault.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return rs[0]
}

// TestStepFaults: a process step that fails on the values it is given (a
// next state out of its bounds, not a whole number, an evaluation error)
// raises a mechanics.Fault with the rule's message, which both engines
// return as an error and which is the designer's input at fault (exit 2),
// not an internal error.
func TestStepFaults(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ next, want string }{
		{"s + d6", "leaves its bounds [0, 3]: widen them"},
		{"s + d4 / 2", "/2 is not a whole number"},
		{"s + 1 / (d2 - 1)", "next.s: division by zero"},
	} {
		t.Run(c.next, func(t *testing.T) {
			t.Parallel()
			m := processRule(t, c.next).Mechanic()
			spec, err := m.Model(m.DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			// The step's node from the start state, on every outcome of
			// its rolls: one of them must fail, with a Fault.
			step := spec.Process.Step(0, spec.Process.Start).(mechanics.Map)
			faults := 0
			for code := range 64 {
				func() {
					defer func() {
						if x := recover(); x != nil {
							if !mechanics.IsFault(x) {
								t.Fatalf("outcome %d: the step panics with %T (%v), not a mechanics.Fault", code, x, x)
							}
							if msg := fmt.Sprint(x); !strings.Contains(msg, c.want) {
								t.Errorf("outcome %d: %s; want it to contain %q", code, msg, c.want)
							}
							faults++
						}
					}()
					step.F(code)
				}()
			}
			if faults == 0 {
				t.Fatal("no outcome of the step fails")
			}
			if _, err := exact.Run(m, m.DefaultConfig()); err == nil || !mechanics.IsInput(err) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("exact: %v; want bad input containing %q", err, c.want)
			}
			if _, err := sim.Run(context.Background(), m, m.DefaultConfig(), sim.Options{Trials: 1000, Seed: 1}); err == nil || !mechanics.IsInput(err) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("sim: %v; want bad input containing %q", err, c.want)
			}
		})
	}
}

// TestRecordTooWide: rolls too many or too wide for one outcome record are
// refused with an error when the rule is built (no panic).
func TestRecordTooWide(t *testing.T) {
	t.Parallel()
	src := `
[[rule]]
id = "t.wide"
[rule.let]
a = "d100000"
b = "d100000"
c = "d100000"
e = "d100000"
[rule.vars]
v = "a * b + c * e"
`
	_, err := Parse("wide.toml", []byte(src))
	want := "wide.toml:2: rule t.wide: the rule's random parts are too many or too wide to hold jointly (mechanics: record with field e has more than 2^52 values): bind fewer rolls to names, or sum them in one expression"
	if err == nil || err.Error() != want || !mechanics.IsInput(err) {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
