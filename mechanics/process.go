package mechanics

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// Process is a finite-state random process that unfolds step by step
// (ailments, bleeding out, burnout, extended tasks, chases). States are
// 0..len(States)-1; the process starts in Start and takes steps t = 1, 2, …
// It stops when it enters an absorbing state or after Horizon steps.
//
// A step is given in one of two forms. Step(t, s) is the distribution of the
// next state from state s. Or, for random walks, Kernel(t) is one random
// increment shared by every state and Move(t, s, x) the state it leads to;
// the engines then compute (exact) or compile (sim) the increment once per
// step rather than once per state.
//
// When Homogeneous is true the step must not depend on t, and the exact
// engine solves the absorbing Markov chain as well as propagating it;
// otherwise it propagates the distribution step by step (a forward DP).
type Process struct {
	States    []string
	Absorbing []bool
	Start     int
	Step      func(t, s int) Node
	Kernel    func(t int) Node
	Move      func(t, s, x int) int
	// KernelKey, when set, names the kernel of step t: steps with the same
	// key share one kernel, which the engines then compute only once (a
	// chase whose obstacle rounds recur, say).
	KernelKey func(t int) int

	Homogeneous bool
	Horizon     int
	// TimeUnit names one step ("test", "round", "day") for outputs.
	TimeUnit string
}

// AbsorbingStates lists the indices of the absorbing states in order.
func (p *Process) AbsorbingStates() []int {
	var out []int
	for i, a := range p.Absorbing {
		if a {
			out = append(out, i)
		}
	}
	return out
}

// Outcome packs "in state s at step t" into one integer: the step at which
// the process was absorbed in s, or t = Horizon+1 when it was still in the
// (transient) state s at the horizon.
func (p *Process) Outcome(t, s int) int { return t*len(p.States) + s }

// SplitOutcome is the inverse of Outcome.
func (p *Process) SplitOutcome(o int) (t, s int) {
	return o / len(p.States), o % len(p.States)
}

// Validate reports an inconsistent process.
func (p *Process) Validate() error {
	if len(p.States) == 0 {
		return fmt.Errorf("process has no states")
	}
	if len(p.Absorbing) != len(p.States) {
		return fmt.Errorf("process has %d states but %d absorbing flags", len(p.States), len(p.Absorbing))
	}
	if p.Start < 0 || p.Start >= len(p.States) {
		return fmt.Errorf("process start state %d out of range", p.Start)
	}
	if (p.Step == nil) == (p.Kernel == nil || p.Move == nil) {
		return fmt.Errorf("process needs either Step or Kernel and Move")
	}
	if p.Horizon < 1 {
		return fmt.Errorf("process horizon %d must be at least 1", p.Horizon)
	}
	return nil
}

// Record is the outcome record of a process: the field "state" (an enum
// of the state names) and "time", the step at which the process was
// absorbed, or Horizon+1 when it was still in a transient state at the
// horizon. Its codes are Outcome(t, s).
func (p *Process) Record() *Record {
	return NewRecord(
		Enum("state", "the state the process ends in: where it was absorbed, or where it stands at the horizon", p.States...),
		Int("time", 0, p.Horizon+1, "steps until absorption; horizon+1 = not absorbed within the horizon").In(p.TimeUnit),
	)
}

// ProcessSpec is the standard report of a process: the variable "time"
// (steps until absorption; Horizon+1 stands for "not absorbed within the
// horizon"), one event per absorbing state, "not_absorbed", and the band
// "final_state" (the state the process ends in: where it was absorbed, or
// where it stands at the horizon). Call it once every state is added.
func ProcessSpec(p *Process) *Spec {
	spec := &Spec{Process: p, Record: p.Record()}
	within := expr.Le(expr.F("time"), expr.K(int64(p.Horizon)))
	spec.Vars = []Var{p.TimeVar("time", "steps until absorption", expr.F("time"))}
	for _, s := range p.AbsorbingStates() {
		spec.Events = append(spec.Events, Event{Name: "absorbed:" + p.States[s], Doc: "absorbed in " + p.States[s] + " within the horizon",
			Expr: expr.And(p.In(s), within)})
	}
	spec.Events = append(spec.Events, Event{Name: "not_absorbed", Doc: "still in a transient state at the horizon", Expr: expr.Not(within)})
	spec.Bands = []Band{{Name: "final_state", Doc: "where the process was absorbed, or stands at the horizon", Labels: p.States, Expr: expr.F("state")}}
	return spec
}

// TimeVar is a variable of the absorption time e (the field "time", or an
// expression of it), defined only when the process is absorbed within the
// horizon: the rest is reported apart as "not absorbed within H steps",
// never as a time of H+1 mixed into the mean.
func (p *Process) TimeVar(name, doc string, e expr.Expr) Var {
	unit := p.TimeUnit
	if unit == "" {
		unit = "step"
	}
	return Var{Name: name, Doc: doc, Unit: p.TimeUnit, Expr: e,
		When:      expr.Le(expr.F("time"), expr.K(int64(p.Horizon))),
		Otherwise: fmt.Sprintf("not absorbed within %d %ss", p.Horizon, unit)}
}

// In is the expression "the process ends in state s".
func (p *Process) In(s int) expr.Expr { return expr.Eq(expr.F("state"), expr.K(int64(s))) }

// StateTable is the expression "f of the final state": f is evaluated once
// per state when the model is built, and the outputs read the table.
func (p *Process) StateTable(f func(s int) int) expr.Expr {
	t := make([]int64, len(p.States))
	for s := range t {
		t[s] = int64(f(s))
	}
	return expr.Table(expr.F("state"), 0, t...)
}

// StateSet is the expression "the final state is one for which f holds".
func (p *Process) StateSet(f func(s int) bool) expr.Expr {
	return p.StateTable(func(s int) int {
		if f(s) {
			return 1
		}
		return 0
	})
}

// AddRecord adds one state per record of rec, all absorbing or all
// transient, named by the record's fields ("c=-3 knows=yes"); state
// base+code is the record with that code. It returns base.
func (p *Process) AddRecord(absorbing bool, rec *Record) int {
	base := len(p.States)
	for code := 0; code < rec.Size(); code++ {
		p.Add(absorbing, rec.Format(code))
	}
	return base
}

// KernelKeyOf is the cache key of step t's kernel.
func (p *Process) KernelKeyOf(t int) int {
	switch {
	case p.Homogeneous:
		return 1
	case p.KernelKey != nil:
		return p.KernelKey(t)
	default:
		return t
	}
}

// Add appends states that are all absorbing or all transient and returns the
// index of the first one.
func (p *Process) Add(absorbing bool, names ...string) int {
	first := len(p.States)
	for _, n := range names {
		p.States = append(p.States, n)
		p.Absorbing = append(p.Absorbing, absorbing)
	}
	return first
}
