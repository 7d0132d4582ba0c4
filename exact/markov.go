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
	S, H := len(p.States), p.Horizon
	stateBytes := engine.MulBytes(int64(S), processStateBytes)
	if err := b.Need(stateBytes, engine.AdviceProcess, "the process's %d states", S); err != nil {
		return nil, err
	}
	b.Hold(stateBytes)
	var trunc float64
	eval := func(n mechanics.Node) (engine.Dist, error) {
		d, tr, err := evalChecked(b, n)
		trunc += tr
		return d, err
	}
	// Kernel form: one increment distribution per step (per kernel key),
	// mapped per state.
	kernels := map[int]engine.Dist{}
	step := func(t, s int) (engine.Dist, error) {
		var d engine.Dist
		var err error
		if p.Kernel != nil {
			key := p.KernelKeyOf(t)
			kernel, ok := kernels[key]
			if !ok {
				if kernel, err = eval(p.Kernel(t)); err != nil {
					if engine.Stopped(err) {
						return engine.Dist{}, err
					}
					return engine.Dist{}, fmt.Errorf("step %d: %w", t, err)
				}
				b.Hold(engine.MulBytes(int64(len(kernel.P)), engine.FloatBytes))
				kernels[key] = kernel
			}
			d, err = mapDist(b, kernel, func(x int) int { return p.Move(t, s, x) }, fmt.Sprintf("the step from state %q", p.States[s]))
		} else {
			d, err = eval(p.Step(t, s))
		}
		if err != nil {
			if engine.Stopped(err) {
				return engine.Dist{}, err
			}
			return engine.Dist{}, fmt.Errorf("step from state %q: %w", p.States[s], err)
		}
		if d.Min() < 0 || d.Max() >= S {
			return engine.Dist{}, fmt.Errorf("step from state %q leads outside the %d states", p.States[s], S)
		}
		return d, nil
	}
	// A homogeneous chain's steps are kept as their nonzero entries only
	// (computed at the first step that needs them): a step that leads to a
	// few states far apart (a counter that ends in an absorbing block) is
	// then three multiply-adds, not a thousand over the zeros between
	// them, and takes a few bytes, not a dense row.
	var sparse []stepTo
	stepOf := func(s int) (*stepTo, error) {
		sp := &sparse[s]
		if sp.to != nil {
			return sp, nil
		}
		d, err := step(1, s)
		if err != nil {
			return nil, err
		}
		if err := b.Tick(len(d.P)); err != nil {
			return nil, err
		}
		to, ps := []int32{}, []float64{}
		for i, q := range d.P {
			if q != 0 {
				to, ps = append(to, int32(d.Lo+i)), append(ps, q)
			}
		}
		// The steps live as long as the computation.
		b.Hold(engine.MulBytes(int64(len(to)), 12))
		*sp = stepTo{to: to, p: ps}
		return sp, nil
	}
	if p.Homogeneous {
		sparse = make([]stepTo, S)
	}

	// The outcome Outcome(t, s) = t·S + s kept sparsely: the codes with
	// mass, in increasing order (steps come in order of t, states in
	// order within a step), and their masses. Only absorbing states take
	// mass before the horizon, and transient ones at its end, so a dense
	// (step × state) table would be mostly zeros.
	var codes []int
	var mass []float64
	add := func(code int, m float64) error {
		if n := len(codes); n > 0 && codes[n-1] == code {
			mass[n-1] += m
			return nil
		}
		if len(codes) == cap(codes) {
			// Grown by a quarter (doubling would leave up to half of the
			// lists unused); the old lists and the new ones are both live
			// while they grow.
			n := int64(max(1024, cap(codes)+cap(codes)/4))
			if !b.Fits(engine.MulBytes(n+int64(len(codes)), 2*engine.FloatBytes)) {
				return b.Need(engine.MulBytes(n+int64(len(codes)), 2*engine.FloatBytes), engine.AdviceProcess,
					"the process's outcome table (%d outcomes with mass by step %d of %d, over %d states)", len(codes), code/S, H, S)
			}
			b.Hold(engine.MulBytes(n-int64(cap(codes)), 2*engine.FloatBytes))
			codes, mass = append(make([]int, 0, n), codes...), append(make([]float64, 0, n), mass...)
		}
		codes, mass = append(codes, code), append(mass, m)
		return nil
	}
	v := make([]float64, S)
	v[p.Start] = 1
	if p.Absorbing[p.Start] {
		if err := add(p.Outcome(0, p.Start), 1); err != nil {
			return nil, err
		}
		v[p.Start] = 0
	}
	nv := make([]float64, S)
	for t := 1; t <= H; t++ {
		if err := b.Tick(S); err != nil {
			return nil, err
		}
		clear(nv)
		live := false
		for s, m := range v {
			if m == 0 {
				continue
			}
			live = true
			if sparse != nil {
				sp, err := stepOf(s)
				if err != nil {
					return nil, err
				}
				for i, to := range sp.to {
					nv[to] += m * sp.p[i]
				}
				continue
			}
			d, err := step(t, s)
			if err != nil {
				return nil, err
			}
			if err := b.Tick(len(d.P)); err != nil {
				return nil, err
			}
			for i, q := range d.P {
				nv[d.Lo+i] += m * q
			}
		}
		if !live {
			break
		}
		for s, m := range nv {
			if p.Absorbing[s] && m != 0 {
				if err := add(p.Outcome(t, s), m); err != nil {
					return nil, err
				}
				nv[s] = 0
			}
		}
		v, nv = nv, v
	}
	for s, m := range v {
		if m > 0 {
			if err := add(p.Outcome(H+1, s), m); err != nil {
				return nil, err
			}
		}
	}
	if trunc > 0 {
		// A step that drops a bursting tail drops it from every state and
		// at every step that takes it: the mass lost is what the outcome
		// misses of 1, not the steps' own truncation counted once.
		sum := 0.0
		for _, q := range mass {
			sum += q
		}
		trunc = max(0, 1-sum)
	}
	ch := &Chain{codes: codes, mass: mass, Truncated: trunc}
	if p.Homogeneous && !p.Absorbing[p.Start] {
		absIdx := make([]int, S)
		for i := range absIdx {
			absIdx[i] = -1
		}
		for k, s := range p.AbsorbingStates() {
			absIdx[s] = k
		}
		if err := ch.solveUnbounded(b, p, stepOf, absIdx); err != nil {
			return nil, err
		}
	}
	return ch, nil
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
func (ch *Chain) solveUnbounded(b *engine.Budget, p *mechanics.Process, get func(s int) (*stepTo, error), absIdx []int) error {
	S := len(p.States)
	// Transient states reachable from the start, by index in trans.
	tIdx := make([]int32, S)
	for i := range tIdx {
		tIdx[i] = -1
	}
	trans := []int{p.Start}
	tIdx[p.Start] = 0
	for head := 0; head < len(trans); head++ {
		d, err := get(trans[head])
		if err != nil {
			return err
		}
		if err := b.Tick(len(d.to) + 1); err != nil {
			return err
		}
		for i, to := range d.to {
			ns, q := int(to), d.p[i]
			if q > 0 && absIdx[ns] < 0 && tIdx[ns] < 0 {
				tIdx[ns] = int32(len(trans))
				trans = append(trans, ns)
			}
		}
	}
	comps, err := components(b, trans, tIdx, absIdx, get)
	if err != nil {
		return err
	}
	T, A := len(trans), len(p.AbsorbingStates())
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
	comp := make([]int32, T)
	for c, ms := range comps {
		for _, v := range ms {
			comp[v] = int32(c)
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
		ok, err := solveComponent(b, ms, trans, tIdx, comp, int32(c), x, get)
		if err != nil {
			return err
		}
		if !ok {
			return nil // some transient states never absorb: no finite mean
		}
		for _, v := range ms {
			d, err := get(trans[v])
			if err != nil {
				return err
			}
			for i, to := range d.to {
				ns, q := int(to), d.p[i]
				if k := absIdx[ns]; k >= 0 {
					absorbed[k] += x[v] * q
				} else if w := tIdx[ns]; comp[w] != int32(c) {
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

// components returns the strongly connected components of the transient
// states (indices into trans), each component after every component it
// leads to (Tarjan's algorithm, without recursion).
func components(b *engine.Budget, trans []int, tIdx []int32, absIdx []int, get func(s int) (*stepTo, error)) ([][]int32, error) {
	T := len(trans)
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
		d, err := get(trans[v])
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
		if err := b.Tick(1); err != nil {
			return nil, err
		}
		descended := false
		for f.i < len(f.d.to) {
			j := f.i
			f.i++
			ns := int(f.d.to[j])
			if absIdx[ns] >= 0 {
				continue
			}
			w := tIdx[ns]
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

// solveComponent turns the inflow x of the states of one component into
// their expected visits: x_c ← x_c·(I − Q_cc)⁻¹. It reports false when the
// component (nearly) never lets go of the chain.
func solveComponent(b *engine.Budget, ms []int32, trans []int, tIdx, comp []int32, c int32, x []float64, get func(s int) (*stepTo, error)) (bool, error) {
	if len(ms) == 1 {
		v := ms[0]
		d, err := get(trans[v])
		if err != nil {
			return false, err
		}
		stay := d.prob(trans[v])
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
		d, err := get(trans[v])
		if err != nil {
			return false, err
		}
		if err := b.Tick(len(d.to)); err != nil {
			return false, err
		}
		for j, to := range d.to {
			q := d.p[j]
			if w := tIdx[to]; w >= 0 && comp[w] == c {
				jj := pos[w]
				a.Set(jj, i, a.At(jj, i)-q)
			}
		}
	}
	sol, ok, err := luSolve(b, a, rhs)
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
