package mechanics

import "fmt"

// Process is a finite-state random process that unfolds step by step
// (ailments, bleeding out, burnout, extended tasks, chases). States are
// 0..len(States)-1; the process starts in Start and moves each step to the
// state drawn from Step(t, s), t = 1, 2, … being the step being taken. It
// stops when it enters an absorbing state or after Horizon steps.
//
// When Homogeneous is true Step must not depend on t, and the exact engine
// solves the absorbing Markov chain (K6) as well as propagating it; otherwise
// it propagates the distribution step by step (K7).
type Process struct {
	States      []string
	Absorbing   []bool
	Start       int
	Step        func(t, s int) Node
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

// Outcome packs "absorbed in the k-th absorbing state at step t" into one
// integer; k = number of absorbing states means "not absorbed by the
// horizon" (t is then the horizon).
func (p *Process) Outcome(t, k int) int { return t*(len(p.AbsorbingStates())+1) + k }

// SplitOutcome is the inverse of Outcome.
func (p *Process) SplitOutcome(o int) (t, k int) {
	m := len(p.AbsorbingStates()) + 1
	return o / m, o % m
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
	if p.Step == nil {
		return fmt.Errorf("process has no step")
	}
	if p.Horizon < 1 {
		return fmt.Errorf("process horizon %d must be at least 1", p.Horizon)
	}
	return nil
}

// ProcessSpec is the standard report of a process: the variable "time"
// (steps until absorption; Horizon+1 stands for "not absorbed within the
// horizon"), one event per absorbing state, "not_absorbed", and the band
// "final_state".
func ProcessSpec(p *Process) *Spec {
	abs := p.AbsorbingStates()
	nAbs := len(abs)
	spec := &Spec{Process: p}
	spec.Vars = []Var{{Name: "time", Doc: "steps until absorption; horizon+1 = not absorbed within the horizon", Of: func(o int) int {
		t, k := p.SplitOutcome(o)
		if k == nAbs {
			return p.Horizon + 1
		}
		return t
	}}}
	labels := make([]string, 0, nAbs+1)
	for k, s := range abs {
		k := k
		spec.Events = append(spec.Events, Event{Name: "absorbed:" + p.States[s], Of: func(o int) bool {
			_, kk := p.SplitOutcome(o)
			return kk == k
		}})
		labels = append(labels, p.States[s])
	}
	spec.Events = append(spec.Events, Event{Name: "not_absorbed", Of: func(o int) bool {
		_, kk := p.SplitOutcome(o)
		return kk == nAbs
	}})
	labels = append(labels, "(not absorbed)")
	spec.Bands = []Bands{{Name: "final_state", Labels: labels, Of: func(o int) int {
		_, k := p.SplitOutcome(o)
		return k
	}}}
	return spec
}
