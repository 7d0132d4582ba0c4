package exact

import (
	"fmt"
	"math"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
	"gonum.org/v1/gonum/mat"
)

// Chain is the exact solution of a Process: the joint distribution of
// (absorption step, state) packed as Process.Outcome, plus unlimited-horizon
// figures for homogeneous chains.
type Chain struct {
	Outcome engine.Dist
	// Unbounded is set for homogeneous chains whose fundamental matrix
	// exists: absorption probabilities B = N·R and mean time N·1 from the
	// start state, for an unlimited horizon (the absorbing Markov chain).
	Unbounded         bool
	MeanTimeUnbounded float64
	AbsorbedUnbounded []float64
	Truncated         float64
	// Warnings says what was left out: the unlimited-horizon figures
	// when they did not fit the memory budget.
	Warnings []string
	// codes and mass are the outcome sparsely: the codes with mass, in
	// increasing order, and their masses (Outcome is filled from them by
	// SolveProcess; the summaries read them as they are).
	codes []int
	mass  []float64
}

// SolveProcess propagates the state distribution step by step (a forward
// DP over the steps, which a time-inhomogeneous chain needs; for a
// homogeneous chain this is repeated multiplication by the transition
// matrix) and, for homogeneous chains, solves the absorbing Markov chain
// with gonum/mat. It runs within engine.DefaultMemory.
func SolveProcess(p *mechanics.Process) (*Chain, error) {
	ch, err := solveProcess(engine.DefaultBudget(), p)
	if err != nil {
		return nil, err
	}
	ch.Outcome = ch.dense()
	return ch, nil
}

// dense is the outcome as one Dist, from the first code with mass to the
// last.
func (ch *Chain) dense() engine.Dist {
	if len(ch.codes) == 0 {
		return engine.Dist{}
	}
	lo := ch.codes[0]
	d := engine.Dist{Lo: lo, P: make([]float64, ch.codes[len(ch.codes)-1]-lo+1)}
	for i, c := range ch.codes {
		d.P[c-lo] = ch.mass[i]
	}
	return d.Trim()
}

// Bytes per state of the propagation: the state vectors v and nv, the
// per-state step cache (a stepTo header: two slices) and the indices of
// the unlimited-horizon solve.
const processStateBytes = 2*engine.FloatBytes + 48 + 4*8

func solveProcess(b *engine.Budget, p *mechanics.Process) (*Chain, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	S := len(p.States)
	stateBytes := engine.MulBytes(int64(S), processStateBytes)
	if err := b.Need(stateBytes, engine.AdviceProcess, "the process's %d states", S); err != nil {
		return nil, err
	}
	b.Hold(stateBytes)
	pr := &propagation{b: b, p: p, S: S, kernels: map[int]engine.Dist{}}
	if p.Homogeneous {
		pr.sparse = make([]stepTo, S)
	}
	if err := pr.run(); err != nil {
		return nil, err
	}
	trunc := pr.trunc
	if trunc > 0 {
		// A step that drops a bursting tail drops it from every state and
		// at every step that takes it: the mass lost is what the outcome
		// misses of 1, not the steps' own truncation counted once.
		sum := 0.0
		for _, q := range pr.mass {
			sum += q
		}
		trunc = max(0, 1-sum)
	}
	ch := &Chain{codes: pr.codes, mass: pr.mass, Truncated: trunc}
	// Without an absorbing state there is nothing to be absorbed in and no
	// finite mean time: no unlimited-horizon figures, and no search of
	// every state the chain could ever reach.
	if p.Homogeneous && !p.Absorbing[p.Start] && len(p.AbsorbingStates()) > 0 {
		absIdx := make([]int, S)
		for i := range absIdx {
			absIdx[i] = -1
		}
		for k, s := range p.AbsorbingStates() {
			absIdx[s] = k
		}
		if err := ch.solveUnbounded(b, p, pr.stepOf, absIdx); err != nil {
			return nil, err
		}
	}
	return ch, nil
}

// propagation follows the state distribution of a process step by step,
// computing each step's distribution as it is needed, and keeps the
// outcome Outcome(t, s) = t·S + s sparsely: the codes with mass, in
// increasing order (steps come in order of t, states in order within a
// step), and their masses. Only absorbing states take mass before the
// horizon, and transient ones at its end, so a dense (step × state) table
// would be mostly zeros.
type propagation struct {
	b *engine.Budget
	p *mechanics.Process
	S int
	// trunc adds up the mass the steps' bursting dice leave out.
	trunc float64
	// kernels are the increment distributions of a Kernel-form process,
	// by kernel key.
	kernels map[int]engine.Dist
	// sparse holds a homogeneous chain's steps by state (nil for other
	// chains).
	sparse []stepTo
	codes  []int
	mass   []float64
}

// eval is the distribution of a node, its truncation counted.
func (pr *propagation) eval(n mechanics.Node) (engine.Dist, error) {
	d, tr, err := evalChecked(pr.b, n)
	pr.trunc += tr
	return d, err
}

// step is the distribution of the next state from state s at step t: the
// step's kernel (one increment distribution per kernel key) mapped by
// Move, or the node Step gives.
func (pr *propagation) step(t, s int) (engine.Dist, error) {
	p := pr.p
	var d engine.Dist
	var err error
	if p.Kernel != nil {
		key := p.KernelKeyOf(t)
		kernel, ok := pr.kernels[key]
		if !ok {
			if kernel, err = pr.eval(p.Kernel(t)); err != nil {
				if engine.Stopped(err) {
					return engine.Dist{}, err
				}
				return engine.Dist{}, fmt.Errorf("step %d: %w", t, err)
			}
			pr.b.Hold(engine.MulBytes(int64(len(kernel.P)), engine.FloatBytes))
			pr.kernels[key] = kernel
		}
		d, err = mapDist(pr.b, kernel, func(x int) int { return p.Move(t, s, x) }, fmt.Sprintf("the step from state %q", p.States[s]))
	} else {
		d, err = pr.eval(p.Step(t, s))
	}
	if err != nil {
		if engine.Stopped(err) {
			return engine.Dist{}, err
		}
		return engine.Dist{}, fmt.Errorf("step from state %q: %w", p.States[s], err)
	}
	if d.Min() < 0 || d.Max() >= pr.S {
		return engine.Dist{}, fmt.Errorf("step from state %q leads outside the %d states", p.States[s], pr.S)
	}
	return d, nil
}

// stepOf is the step of a homogeneous chain from state s as its nonzero
// entries only (computed at the first step that needs it): a step that
// leads to a few states far apart (a counter that ends in an absorbing
// block) is then three multiply-adds, not a thousand over the zeros
// between them, and takes a few bytes, not a dense row.
func (pr *propagation) stepOf(s int) (*stepTo, error) {
	sp := &pr.sparse[s]
	if sp.to != nil {
		return sp, nil
	}
	d, err := pr.step(1, s)
	if err != nil {
		return nil, err
	}
	if err := pr.b.Tick(len(d.P)); err != nil {
		return nil, err
	}
	to, ps := []int32{}, []float64{}
	for i, q := range d.P {
		if q != 0 {
			to, ps = append(to, int32(d.Lo+i)), append(ps, q)
		}
	}
	// The steps live as long as the computation.
	pr.b.Hold(engine.MulBytes(int64(len(to)), 12))
	*sp = stepTo{to: to, p: ps}
	return sp, nil
}

// add adds mass m to outcome code, after every code added so far.
func (pr *propagation) add(code int, m float64) error {
	codes, mass := pr.codes, pr.mass
	if n := len(codes); n > 0 && codes[n-1] == code {
		mass[n-1] += m
		return nil
	}
	if len(codes) == cap(codes) {
		// Grown by a quarter (doubling would leave up to half of the
		// lists unused); the old lists and the new ones are both live
		// while they grow.
		n := int64(max(1024, cap(codes)+cap(codes)/4))
		if !pr.b.Fits(engine.MulBytes(n+int64(len(codes)), 2*engine.FloatBytes)) {
			return pr.b.Need(engine.MulBytes(n+int64(len(codes)), 2*engine.FloatBytes), engine.AdviceProcess,
				"the process's outcome table (%d outcomes with mass by step %d of %d, over %d states)", len(codes), code/pr.S, pr.p.Horizon, pr.S)
		}
		pr.b.Hold(engine.MulBytes(n-int64(cap(codes)), 2*engine.FloatBytes))
		codes, mass = append(make([]int, 0, n), codes...), append(make([]float64, 0, n), mass...)
	}
	pr.codes, pr.mass = append(codes, code), append(mass, m)
	return nil
}

// run propagates the start state's mass to the horizon, adding each
// step's absorbed mass, and at the end what is still transient, to the
// outcome.
func (pr *propagation) run() error {
	p, S, H := pr.p, pr.S, pr.p.Horizon
	v := make([]float64, S)
	v[p.Start] = 1
	if p.Absorbing[p.Start] {
		if err := pr.add(p.Outcome(0, p.Start), 1); err != nil {
			return err
		}
		v[p.Start] = 0
	}
	nv := make([]float64, S)
	for t := 1; t <= H; t++ {
		if err := pr.b.Tick(S); err != nil {
			return err
		}
		clear(nv)
		live, err := pr.advance(t, v, nv)
		if err != nil {
			return err
		}
		if !live {
			break
		}
		for s, m := range nv {
			if p.Absorbing[s] && m != 0 {
				if err := pr.add(p.Outcome(t, s), m); err != nil {
					return err
				}
				nv[s] = 0
			}
		}
		v, nv = nv, v
	}
	for s, m := range v {
		if m > 0 {
			if err := pr.add(p.Outcome(H+1, s), m); err != nil {
				return err
			}
		}
	}
	return nil
}

// advance adds to nv where step t takes the mass v; live reports whether
// v had any.
func (pr *propagation) advance(t int, v, nv []float64) (live bool, err error) {
	for s, m := range v {
		if m == 0 {
			continue
		}
		live = true
		if pr.sparse != nil {
			sp, err := pr.stepOf(s)
			if err != nil {
				return false, err
			}
			for i, to := range sp.to {
				nv[to] += m * sp.p[i]
			}
			continue
		}
		d, err := pr.step(t, s)
		if err != nil {
			return false, err
		}
		if err := pr.b.Tick(len(d.P)); err != nil {
			return false, err
		}
		for i, q := range d.P {
			nv[d.Lo+i] += m * q
		}
	}
	return live, nil
}

// stepTo is one step of a homogeneous chain as its nonzero entries: the
// states it leads to, in increasing order, and their probabilities.
type stepTo struct {
	to []int32
	p  []float64
}

// prob is the probability of leading to state x.
func (d *stepTo) prob(x int) float64 {
	for i, to := range d.to {
		if int(to) == x {
			return d.p[i]
		}
	}
	return 0
}

// cycleMax is the largest group of states that lead back to one another
// whose fundamental matrix is solved in the calling goroutine; larger ones
// are solved in a goroutine of their own, so that a cancellation returns at
// once (see luSolve).
const cycleMax = 256

// solveUnbounded computes, for the transient states reachable from the
// start, the expected visits x = e_start·N with N = (I − Q)⁻¹, then the
// mean time N·1 = Σ x and the absorption probabilities B = x·R.
//
// It does not factorise all of I − Q at once: the transient states are
// split into strongly connected components (Tarjan), groups of states that
// lead back to one another, which are taken in topological order. Visits
// flow from a component only to later ones, so each needs the LU of its
// own block only: a chain that never returns (a DAG, as most of the models
// are) costs O(states + transitions), and memory is set by the largest
// component, whose block is checked against the budget first. When it does
// not fit, the unlimited-horizon figures are skipped with a warning: they
// are an extra beside the propagated distribution.
func (ch *Chain) solveUnbounded(b *engine.Budget, p *mechanics.Process, step func(s int) (*stepTo, error), abs []int) error {
	ts := &transients{b: b, step: step, abs: abs}
	if err := ts.reach(p.Start); err != nil {
		return err
	}
	comps, err := ts.components()
	if err != nil {
		return err
	}
	T, A := len(ts.states), len(p.AbsorbingStates())
	largest := 0
	for _, c := range comps {
		largest = max(largest, len(c))
	}
	// The block and its LU, the right-hand side and the solution.
	if k := int64(largest); largest > 1 && !b.Fits(engine.AddBytes(engine.MulBytes(engine.MulBytes(k, k), 2*engine.FloatBytes), engine.MulBytes(k, 4*engine.FloatBytes))) {
		ch.Warnings = append(ch.Warnings, fmt.Sprintf("the unlimited-horizon figures (mean time, absorption) were skipped: "+
			"the fundamental matrix of %d states that lead back to one another needs about %s (the memory budget is %s)",
			largest, engine.FormatBytes(engine.MulBytes(engine.MulBytes(k, k), 2*engine.FloatBytes)), engine.FormatBytes(b.Limit())))
		return nil
	}
	ts.comp = make([]int32, T)
	for c, ms := range comps {
		for _, v := range ms {
			ts.comp[v] = int32(c)
		}
	}
	x := make([]float64, T) // inflow, then expected visits
	x[0] = 1
	absorbed := make([]float64, max(A, 1))
	// Tarjan lists a component after every component it leads to: the
	// topological order is the reverse.
	for c := len(comps) - 1; c >= 0; c-- {
		ms := comps[c]
		if err := b.Tick(len(ms) * len(ms)); err != nil {
			return err
		}
		ok, err := ts.solveComponent(int32(c), ms, x)
		if err != nil {
			return err
		}
		if !ok {
			return nil // some transient states never absorb: no finite mean
		}
		for _, v := range ms {
			d, err := step(ts.states[v])
			if err != nil {
				return err
			}
			for i, to := range d.to {
				ns, q := int(to), d.p[i]
				if k := abs[ns]; k >= 0 {
					absorbed[k] += x[v] * q
				} else if w := ts.indexOf[ns]; ts.comp[w] != int32(c) {
					x[w] += x[v] * q
				}
			}
		}
	}
	mean := 0.0
	for _, xv := range x {
		mean += xv
	}
	ch.Unbounded = true
	ch.MeanTimeUnbounded = mean
	ch.AbsorbedUnbounded = absorbed[:A]
	return nil
}

// transients are the transient states a homogeneous chain reaches from its
// start, over which its unlimited-horizon figures are solved.
type transients struct {
	b    *engine.Budget
	step func(s int) (*stepTo, error)
	// abs is, by state, its index among the absorbing states, or −1.
	abs []int
	// states are the transient states reached, in the order a
	// breadth-first search finds them (the start first); indexOf is, by
	// state, its index in states, or −1.
	states  []int
	indexOf []int32
	// comp is, by index in states, the state's strongly connected
	// component (set once components are known).
	comp []int32
}

// reach finds the transient states reachable from start.
func (ts *transients) reach(start int) error {
	ts.indexOf = make([]int32, len(ts.abs))
	for i := range ts.indexOf {
		ts.indexOf[i] = -1
	}
	ts.states = []int{start}
	ts.indexOf[start] = 0
	for head := 0; head < len(ts.states); head++ {
		d, err := ts.step(ts.states[head])
		if err != nil {
			return err
		}
		if err := ts.b.Tick(len(d.to) + 1); err != nil {
			return err
		}
		for i, to := range d.to {
			ns, q := int(to), d.p[i]
			if q > 0 && ts.abs[ns] < 0 && ts.indexOf[ns] < 0 {
				ts.indexOf[ns] = int32(len(ts.states))
				ts.states = append(ts.states, ns)
			}
		}
	}
	return nil
}

// components returns the strongly connected components of the transient
// states (indices into states), each component after every component it
// leads to (Tarjan's algorithm, without recursion).
func (ts *transients) components() ([][]int32, error) {
	T := len(ts.states)
	index, low := make([]int32, T), make([]int32, T)
	for i := range index {
		index[i] = -1
	}
	onStack := make([]bool, T)
	var stack []int32
	var comps [][]int32
	type frame struct {
		v int32
		d *stepTo
		i int
	}
	next := int32(0)
	var calls []frame
	visit := func(v int32) error {
		d, err := ts.step(ts.states[v])
		if err != nil {
			return err
		}
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		calls = append(calls, frame{v: v, d: d})
		return nil
	}
	if err := visit(0); err != nil {
		return nil, err
	}
	for len(calls) > 0 {
		f := &calls[len(calls)-1]
		if err := ts.b.Tick(1); err != nil {
			return nil, err
		}
		descended := false
		for f.i < len(f.d.to) {
			j := f.i
			f.i++
			ns := int(f.d.to[j])
			if ts.abs[ns] >= 0 {
				continue
			}
			w := ts.indexOf[ns]
			if index[w] < 0 {
				if err := visit(w); err != nil {
					return nil, err
				}
				descended = true
				break
			}
			if onStack[w] {
				low[f.v] = min(low[f.v], index[w])
			}
		}
		if descended {
			continue
		}
		v := f.v
		if low[v] == index[v] {
			var c []int32
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				c = append(c, w)
				if w == v {
					break
				}
			}
			comps = append(comps, c)
		}
		calls = calls[:len(calls)-1]
		if len(calls) > 0 {
			u := calls[len(calls)-1].v
			low[u] = min(low[u], low[v])
		}
	}
	return comps, nil
}

// condMax is the condition number past which a block I − Q counts as
// singular: some states of it (nearly) never leave it.
const condMax = 1e14

// solveComponent turns the inflow x of the states ms of component c into
// their expected visits: x_c ← x_c·(I − Q_cc)⁻¹. It reports false when the
// component (nearly) never lets go of the chain.
func (ts *transients) solveComponent(c int32, ms []int32, x []float64) (bool, error) {
	if len(ms) == 1 {
		v := ms[0]
		d, err := ts.step(ts.states[v])
		if err != nil {
			return false, err
		}
		stay := d.prob(ts.states[v])
		if leave := 1 - stay; leave <= 0 || 1/leave > condMax {
			return false, nil
		}
		x[v] /= 1 - stay
		return true, nil
	}
	k := len(ms)
	pos := make(map[int32]int, k)
	for i, v := range ms {
		pos[v] = i
	}
	// Row i of the transposed block (I − Q_cc)ᵀ: x_c·(I − Q_cc) = in_c is
	// (I − Q_cc)ᵀ·x_cᵀ = in_cᵀ.
	a := mat.NewDense(k, k, nil)
	rhs := mat.NewVecDense(k, nil)
	for i, v := range ms {
		a.Set(i, i, 1)
		rhs.SetVec(i, x[v])
		d, err := ts.step(ts.states[v])
		if err != nil {
			return false, err
		}
		if err := ts.b.Tick(len(d.to)); err != nil {
			return false, err
		}
		for j, to := range d.to {
			q := d.p[j]
			if w := ts.indexOf[to]; w >= 0 && ts.comp[w] == c {
				jj := pos[w]
				a.Set(jj, i, a.At(jj, i)-q)
			}
		}
	}
	sol, ok, err := luSolve(ts.b, a, rhs)
	if err != nil || !ok {
		return false, err
	}
	for i, v := range ms {
		x[v] = sol.AtVec(i)
	}
	return true, nil
}

// luSolve solves a·x = rhs by LU (gonum). The factorisation cannot be
// interrupted; the budget bounds it (the caller checked that a and its LU
// fit, which caps the work at about (budget/16)^1.5 multiply-adds), and a
// block larger than cycleMax is solved in a goroutine of its own so that a
// cancellation returns at once, leaving that goroutine to finish in the
// background. ok is false when a is singular or nearly so.
func luSolve(b *engine.Budget, a *mat.Dense, rhs *mat.VecDense) (x *mat.VecDense, ok bool, err error) {
	solve := func() (*mat.VecDense, bool) {
		var lu mat.LU
		lu.Factorize(a)
		if det, _ := lu.LogDet(); math.IsInf(det, -1) || math.IsNaN(lu.Cond()) || lu.Cond() > condMax {
			return nil, false
		}
		var x mat.VecDense
		if err := lu.SolveVecTo(&x, false, rhs); err != nil {
			return nil, false
		}
		return &x, true
	}
	if err := b.Alive(); err != nil {
		return nil, false, err
	}
	if n, _ := a.Dims(); n <= cycleMax || b == nil {
		x, ok = solve()
		return x, ok, nil
	}
	return interruptibly(b, solve)
}

// interruptibly runs solve in a goroutine of its own and returns what it
// returns, or the error of b's context as soon as that is done, leaving
// solve to finish in the background. A panic in solve (a bug) is raised
// again on the calling goroutine.
func interruptibly(b *engine.Budget, solve func() (*mat.VecDense, bool)) (*mat.VecDense, bool, error) {
	type result struct {
		x     *mat.VecDense
		ok    bool
		panic any
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{panic: p}
			}
		}()
		x, ok := solve()
		done <- result{x: x, ok: ok}
	}()
	select {
	case r := <-done:
		if r.panic != nil {
			panic(r.panic) // on the calling goroutine: gonum's panics are bugs
		}
		return r.x, r.ok, nil
	case <-b.Done():
		return nil, false, b.Alive()
	}
}
