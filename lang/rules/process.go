package rules

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// A rule with a [rule.process] table goes on over time, one step after
// another, until a condition on its state holds or a horizon passes:
//
//	[rule.process]
//	state   = { total = { start = 0, min = 0, max = 30 } }
//	until   = "total >= q"
//	horizon = 20
//	unit    = "test"
//
//	[rule.let]                     # rolled afresh at every step; reads the state
//	mos = "highest(pool) + attribute - tn"
//
//	[rule.next]                    # the state after the step
//	total = "total + max(0, mos)"
//
// Its outputs read the final state (its variables by name) and "time",
// the steps until the condition held (defined only when it held within
// the horizon). Every state variable ranges over whole numbers within its
// bounds; the chain has one state per combination (at most MaxStates),
// solved exactly as an absorbing Markov chain and simulated step by step.

// MaxStates bounds the states of a process rule.
const MaxStates = 100_000

// StateVar is one variable of a process's state.
type StateVar struct {
	Name            string
	Start, Min, Max int
	// Exprs holds the bounds given as expressions of the parameters
	// ("start", "min", "max" → "q + 5"), resolved when the model is built.
	Exprs map[string]Def
}

// set gives the bound k ("start", "min" or "max") the value n.
func (sv *StateVar) set(k string, n int) {
	switch k {
	case "start":
		sv.Start = n
	case "min":
		sv.Min = n
	case "max":
		sv.Max = n
	}
}

// ProcessDef is a rule's process: its state, when it stops, the horizon,
// and the next state (Next: one expression per state variable, the ones
// not given staying as they are).
type ProcessDef struct {
	State   []StateVar
	Until   Def
	Horizon int
	// HorizonX is the horizon given as an expression of the parameters
	// (nil when it is a number).
	HorizonX *Def
	Unit     string
	Next     []Def
}

// process reads [rule.process]. Its errors are placed at the line of its
// state.
func (rd *ruleReader) process() (*ProcessDef, error) {
	t, err := rd.table("process")
	if err != nil {
		return nil, err
	}
	line, id := rd.key("process", "state"), rd.id
	for _, k := range slices.Sorted(maps.Keys(t)) {
		if !slices.Contains([]string{"state", "until", "horizon", "unit"}, k) {
			return nil, rd.fail(line, "rule %s: [rule.process]: unknown key %q (want state, until, horizon, unit)", id, k)
		}
	}
	p := &ProcessDef{Unit: "step"}
	st, ok := t["state"].(map[string]any)
	if !ok || len(st) == 0 {
		return nil, rd.fail(line, "rule %s: a process needs state = { name = { start = …, min = …, max = … } }", id)
	}
	for _, name := range rd.order["process.state"] {
		sv, err := rd.stateVar(line, name, st[name])
		if err != nil {
			return nil, err
		}
		p.State = append(p.State, sv)
	}
	until, ok := t["until"].(string)
	if !ok {
		return nil, rd.fail(line, "rule %s: a process needs until = \"…\" (when it stops)", id)
	}
	x, until, err := rd.parse(until)
	if err != nil {
		return nil, rd.fail(rd.key("process", "until"), "rule %s, process.until: %w", id, err)
	}
	p.Until = Def{Name: "until", Src: until, X: x, Where: fmt.Sprintf("%s: rule %s, process.until", rd.at(rd.key("process", "until")), id)}
	if _, ok := t["horizon"]; ok {
		line = rd.key("process", "horizon")
	}
	if err := rd.horizon(line, t["horizon"], p); err != nil {
		return nil, err
	}
	if u, ok := t["unit"]; ok {
		s, ok := u.(string)
		if !ok || s == "" {
			return nil, rd.fail(rd.key("process", "unit"), "rule %s: unit must be a word (\"round\")", id)
		}
		p.Unit = s
	}
	return p, nil
}

// stateVar reads one variable of a process's state: { start = …, min = …,
// max = … }, each a whole number or an expression of the parameters in
// quotes.
func (rd *ruleReader) stateVar(line int, name string, v any) (StateVar, error) {
	id := rd.id
	if name == "time" || name == "state" {
		return StateVar{}, rd.fail(line, "rule %s: %s is reserved in a process (its outputs read time and state): rename the state variable", id, name)
	}
	if err := rd.claim(line, name, "state variable"); err != nil {
		return StateVar{}, err
	}
	bounds, ok := v.(map[string]any)
	if !ok {
		return StateVar{}, rd.fail(line, "rule %s: state variable %s needs { start = …, min = …, max = … }", id, name)
	}
	sv := StateVar{Name: name}
	for _, k := range []string{"start", "min", "max"} {
		if src, ok := bounds[k].(string); ok {
			x, src, err := rd.parse(src)
			if err != nil {
				return StateVar{}, rd.fail(line, "rule %s, process.state.%s.%s: %w", id, name, k, err)
			}
			if sv.Exprs == nil {
				sv.Exprs = map[string]Def{}
			}
			sv.Exprs[k] = Def{Name: k, Src: src, X: x, Where: fmt.Sprintf("%s: rule %s, process.state.%s.%s", rd.at(line), id, name, k)}
			continue
		}
		x, ok := bounds[k].(int64)
		if !ok {
			return StateVar{}, rd.fail(line, "rule %s: state variable %s needs a whole-number %s (or an expression of the parameters in quotes)", id, name, k)
		}
		if x < -maxBound || x > maxBound {
			return StateVar{}, rd.fail(line, "rule %s: state variable %s: %s = %d is beyond ±%d", id, name, k, x, maxBound)
		}
		sv.set(k, int(x))
	}
	for _, k := range slices.Sorted(maps.Keys(bounds)) {
		if k != "start" && k != "min" && k != "max" {
			return StateVar{}, rd.fail(line, "rule %s: state variable %s: unknown key %q (want start, min, max)", id, name, k)
		}
	}
	if sv.Exprs == nil && (sv.Min > sv.Max || sv.Start < sv.Min || sv.Start > sv.Max) {
		return StateVar{}, rd.fail(line, "rule %s: state variable %s: start %d must lie within [min, max] = [%d, %d]", id, name, sv.Start, sv.Min, sv.Max)
	}
	return sv, nil
}

// horizon reads a process's horizon into p: a whole number of steps, or
// an expression of the parameters in quotes.
func (rd *ruleReader) horizon(line int, v any, p *ProcessDef) error {
	if src, ok := v.(string); ok {
		x, src, err := rd.parse(src)
		if err != nil {
			return rd.fail(line, "rule %s, process.horizon: %w", rd.id, err)
		}
		p.HorizonX = &Def{Name: "horizon", Src: src, X: x, Where: fmt.Sprintf("%s: rule %s, process.horizon", rd.at(line), rd.id)}
		return nil
	}
	h, ok := v.(int64)
	if !ok || h < 1 || h > maxHorizon {
		return rd.fail(line, "rule %s: a process needs a whole-number horizon = 1…%d (steps followed at most), or an expression of the parameters in quotes", rd.id, maxHorizon)
	}
	p.Horizon = int(h)
	return nil
}

// maxHorizon bounds a process rule's horizon; maxBound the bounds of its
// state variables (±).
const (
	maxHorizon = 100_000
	maxBound   = 1_000_000
)

// resolve returns the process with its bounds and horizon evaluated at the
// given parameters (the process itself when they are all numbers).
func (p *ProcessDef) resolve(r *Rule, params map[string]expr.Rat) (*ProcessDef, error) {
	// eval is the whole number an expression of the parameters gives,
	// within [lo, hi] (what it is and its range in words, for the error).
	eval := func(d Def, what, within string, lo, hi int64) (int, error) {
		v, err := newCompiler(params).compile(d.X)
		if err != nil {
			return 0, ruleError(d, err)
		}
		k, err := constOf(v)
		if err != nil {
			return 0, ruleError(d, errAt(d.X.Pos(), "it must read only the parameters: %v", err))
		}
		if !k.IsInt() || k.N < lo || k.N > hi {
			return 0, ruleError(d, fmt.Errorf("%s is %s at these settings: it must be a whole number %s", what, k, within))
		}
		return int(k.N), nil
	}
	out := *p
	out.State = slices.Clone(p.State)
	if p.HorizonX != nil {
		h, err := eval(*p.HorizonX, "the horizon", fmt.Sprintf("1…%d", maxHorizon), 1, maxHorizon)
		if err != nil {
			return nil, err
		}
		out.Horizon = h
	}
	for i := range out.State {
		sv := &out.State[i]
		for _, k := range []string{"start", "min", "max"} {
			d, ok := sv.Exprs[k]
			if !ok {
				continue
			}
			n, err := eval(d, sv.Name+"."+k, fmt.Sprintf("within ±%d", maxBound), -maxBound, maxBound)
			if err != nil {
				return nil, err
			}
			sv.set(k, n)
		}
		if sv.Min > sv.Max || sv.Start < sv.Min || sv.Start > sv.Max {
			return nil, r.fail("state variable %s: start %d must lie within [min, max] = [%d, %d] (at these settings)", sv.Name, sv.Start, sv.Min, sv.Max)
		}
	}
	return &out, nil
}

// checkNext: every next-state expression names a state variable.
func (p *ProcessDef) checkNext() error {
	for _, d := range p.Next {
		if !slices.ContainsFunc(p.State, func(v StateVar) bool { return v.Name == d.Name }) {
			return fmt.Errorf("next.%s is not a state variable (the state is %s)", d.Name, p.stateNames())
		}
	}
	if len(p.Next) == 0 {
		return fmt.Errorf("a process needs [rule.next]: how the state changes at each step")
	}
	return nil
}

func (p *ProcessDef) stateNames() string {
	var ns []string
	for _, v := range p.State {
		ns = append(ns, v.Name)
	}
	return strings.Join(ns, ", ")
}

// buildProcess compiles a process rule: one chain state per combination of
// the state variables; the step from each state compiles the rule's
// bindings with the state's values as constants.
func (r *Rule) buildProcess(params map[string]expr.Rat) (*mechanics.Spec, error) {
	pd, err := r.Process.resolve(r, params)
	if err != nil {
		return nil, err
	}
	sp := stateSpace{vars: pd.State, params: params}
	n, ok := sp.size()
	if !ok {
		return nil, r.fail("the state has more than %d combinations: narrow the state variables' bounds", MaxStates)
	}
	p, err := r.chain(pd, sp, n)
	if err != nil {
		return nil, err
	}
	spec := mechanics.ProcessSpec(p)
	if err := r.processOutputs(spec, pd, sp, p); err != nil {
		return nil, err
	}
	return spec, nil
}

// stateSpace numbers the combinations of a process's state variables,
// each within its bounds: chain state s is one combination (mixed radix,
// the last variable varying fastest).
type stateSpace struct {
	vars   []StateVar
	params map[string]expr.Rat // the rule's parameters
}

// size is the number of combinations, false when it is above MaxStates.
func (sp stateSpace) size() (int, bool) {
	n := 1
	for _, v := range sp.vars {
		n *= v.Max - v.Min + 1
		if n > MaxStates {
			return 0, false
		}
	}
	return n, true
}

// tuple is the state variables' values in chain state s.
func (sp stateSpace) tuple(s int) []int {
	out := make([]int, len(sp.vars))
	for i := len(sp.vars) - 1; i >= 0; i-- {
		w := sp.vars[i].Max - sp.vars[i].Min + 1
		out[i] = sp.vars[i].Min + s%w
		s /= w
	}
	return out
}

// index is the chain state of the state variables' values, or the error
// of a value outside its variable's bounds.
func (sp stateSpace) index(vals []int) (int, error) {
	s := 0
	for i, v := range sp.vars {
		if vals[i] < v.Min || vals[i] > v.Max {
			return 0, fmt.Errorf("the next %s = %d leaves its bounds [%d, %d]: widen them", v.Name, vals[i], v.Min, v.Max)
		}
		s = s*(v.Max-v.Min+1) + vals[i] - v.Min
	}
	return s, nil
}

// with is the parameters with the state variables of chain state s among
// them: what an expression of the step reads.
func (sp stateSpace) with(s int) map[string]expr.Rat {
	ps := maps.Clone(sp.params)
	for i, v := range sp.tuple(s) {
		ps[sp.vars[i].Name] = expr.Int(int64(v))
	}
	return ps
}

// label names chain state s: "hp=3 round=2".
func (sp stateSpace) label(s int) string {
	var parts []string
	for i, v := range sp.tuple(s) {
		parts = append(parts, fmt.Sprintf("%s=%d", sp.vars[i].Name, v))
	}
	return strings.Join(parts, " ")
}

// chain is the Markov chain of a process rule over its n states: which
// stop it (until), where it starts, and the step from each.
func (r *Rule) chain(pd *ProcessDef, sp stateSpace, n int) (*mechanics.Process, error) {
	p := &mechanics.Process{Horizon: pd.Horizon, TimeUnit: pd.Unit, Homogeneous: true}
	for s := range n {
		stop, err := pd.stopsAt(sp, s)
		if err != nil {
			return nil, err
		}
		p.Add(stop, sp.label(s))
	}
	start := make([]int, len(pd.State))
	for i, v := range pd.State {
		start[i] = v.Start
	}
	p.Start, _ = sp.index(start)
	// The step from each state (the engines cache the steps of a
	// homogeneous chain themselves).
	p.Step = func(_, s int) mechanics.Node {
		node, err := r.step(sp, s)
		if err != nil {
			mechanics.Raise("%w", err)
		}
		return node
	}
	// Compile the step of the start state now: its errors are the rule's.
	if !p.Absorbing[p.Start] {
		if _, err := r.step(sp, p.Start); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// stopsAt reports whether the process stops in chain state s (its until
// holds there).
func (pd *ProcessDef) stopsAt(sp stateSpace, s int) (bool, error) {
	v, err := newCompiler(sp.with(s)).compile(pd.Until.X)
	if err != nil {
		return false, ruleError(pd.Until, err)
	}
	k, err := constOf(v)
	if err != nil {
		return false, ruleError(pd.Until, errAt(pd.Until.X.Pos(), "until must read only the state and the parameters: %v", err))
	}
	return k.N != 0, nil
}

// processOutputs adds a process rule's outputs to its spec: they read the
// final state's variables and the time.
func (r *Rule) processOutputs(spec *mechanics.Spec, pd *ProcessDef, sp stateSpace, p *mechanics.Process) error {
	c := newCompiler(sp.params)
	for i, v := range pd.State {
		c.binds[v.Name] = detV(p.StateTable(func(s int) int { return sp.tuple(s)[i] }))
		c.names = append(c.names, v.Name)
	}
	c.binds["time"] = detV(expr.F("time"))
	c.names = append(c.names, "time")
	out := func(d Def) (expr.Expr, error) {
		v, err := c.compile(d.X)
		if err != nil {
			return nil, ruleError(d, err)
		}
		if v.kind == rnd || len(c.comps) > 0 {
			return nil, ruleError(d, errAt(d.X.Pos(), "a process's outputs read its final state and time; rolls belong in [rule.let]"))
		}
		return v.e, nil
	}
	within := expr.Le(expr.F("time"), expr.K(int64(pd.Horizon)))
	for _, d := range r.Vars {
		e, err := out(d)
		if err != nil {
			return err
		}
		v := mechanics.Var{Name: d.Name, Doc: docOr(d), Expr: e}
		c.bindOutput(d.Name, e)
		if refsTime(d.X) {
			v.When, v.Otherwise = within, fmt.Sprintf("not done within %d %ss", pd.Horizon, pd.Unit)
		}
		spec.Vars = append(spec.Vars, v)
	}
	for _, d := range r.Events {
		e, err := out(d)
		if err != nil {
			return err
		}
		spec.Event(d.Name, docOr(d), expr.Ne(e, expr.K(0)))
	}
	for _, b := range r.Bands {
		e, err := out(b.Def)
		if err != nil {
			return err
		}
		spec.Band(b.Name, docOr(b.Def), b.Labels, e)
	}
	return nil
}

func refsTime(x notation.Expr) bool { return slices.Contains(notation.Names(x), "time") }

func constOf(v value) (expr.Rat, error) {
	if v.kind != det || len(expr.Refs(v.e)) > 0 {
		return expr.Rat{}, fmt.Errorf("it depends on a roll")
	}
	return evalConst(v.e)
}

// step is the node of one step from chain state s: the bindings rolled
// afresh, the next state's variables computed from them, as the next
// state's index.
func (r *Rule) step(sp stateSpace, s int) (mechanics.Node, error) {
	pd, cur := r.Process, sp.tuple(s)
	c, err := r.bound(sp.with(s))
	if err != nil {
		return nil, err
	}
	nexts := make([]expr.Expr, len(pd.State))
	for i, v := range pd.State {
		nexts[i] = expr.K(int64(cur[i])) // unchanged unless given
		for _, d := range pd.Next {
			if d.Name != v.Name {
				continue
			}
			val, err := c.compile(d.X)
			if err != nil {
				return nil, ruleError(d, err)
			}
			nexts[i] = c.asDet(val)
		}
	}
	spec, err := c.assemble()
	if err != nil {
		return nil, r.fail("%v", err)
	}
	rec := spec.Record
	slots := make([]mechanics.Slot, len(rec.Fields))
	for i, f := range rec.Fields {
		slots[i] = rec.Slot(f.Name)
	}
	progs := make([]expr.Program, len(nexts))
	for i, e := range nexts {
		p, err := expr.Compile(e, func(name string) (int, bool) {
			j := rec.Index(name)
			return j, j >= 0
		})
		if err != nil {
			return nil, r.fail("next.%s: %v", pd.State[i].Name, err)
		}
		progs[i] = p
	}
	return mechanics.Map{X: spec.Outcome, Name: "next state", F: func(code int) int {
		vals := make([]expr.Rat, len(slots))
		for i, slot := range slots {
			vals[i] = expr.Int(int64(slot.Get(code)))
		}
		next := make([]int, len(progs))
		for i, p := range progs {
			v, err := p.Eval(vals)
			if err != nil {
				mechanics.Raise("next.%s: %w", pd.State[i].Name, err)
			}
			if !v.IsInt() || v.N > math.MaxInt32 || v.N < math.MinInt32 {
				mechanics.Raise("next.%s = %s is not a whole number", pd.State[i].Name, v)
			}
			next[i] = int(v.N)
		}
		to, err := sp.index(next)
		if err != nil {
			mechanics.Raise("%w", err)
		}
		return to
	}}, nil
}
