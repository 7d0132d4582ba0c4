package mechanics

import "fmt"

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
// engine solves the absorbing Markov chain (K6) as well as propagating it;
// otherwise it propagates the distribution step by step (K7).
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

// ProcessSpec is the standard report of a process: the variable "time"
// (steps until absorption; Horizon+1 stands for "not absorbed within the
// horizon"), one event per absorbing state, "not_absorbed", and the band
// "final_state" (the state the process ends in: where it was absorbed, or
// where it stands at the horizon).
func ProcessSpec(p *Process) *Spec {
	spec := &Spec{Process: p}
	spec.Vars = []Var{{Name: "time", Doc: "steps until absorption; horizon+1 = not absorbed within the horizon", Of: func(o int) int {
		t, _ := p.SplitOutcome(o)
		return t
	}}}
	for _, s := range p.AbsorbingStates() {
		s := s
		spec.Events = append(spec.Events, Event{Name: "absorbed:" + p.States[s], Of: func(o int) bool {
			t, ss := p.SplitOutcome(o)
			return ss == s && t <= p.Horizon
		}})
	}
	spec.Events = append(spec.Events, Event{Name: "not_absorbed", Of: func(o int) bool {
		t, _ := p.SplitOutcome(o)
		return t > p.Horizon
	}})
	spec.Bands = []Bands{{Name: "final_state", Labels: p.States, Of: func(o int) int {
		_, s := p.SplitOutcome(o)
		return s
	}}}
	return spec
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
