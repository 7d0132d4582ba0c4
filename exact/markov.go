package exact

import (
	"fmt"
	"math"

	"github.com/oddsmith/oddsmith/mechanics"
	"gonum.org/v1/gonum/mat"
)

// Chain is the exact solution of a Process: the joint distribution of
// (absorption step, state) packed as Process.Outcome, plus unlimited-horizon
// figures for homogeneous chains.
type Chain struct {
	Outcome Dist
	// Unbounded is set for homogeneous chains whose fundamental matrix
	// exists: absorption probabilities B = N·R and mean time N·1 from the
	// start state, for an unlimited horizon (K6).
	Unbounded         bool
	MeanTimeUnbounded float64
	AbsorbedUnbounded []float64
	Truncated         float64
}

// SolveProcess propagates the state distribution step by step (K7; for a
// homogeneous chain this is repeated multiplication by the transition
// matrix) and, for homogeneous chains, solves the absorbing Markov chain with
// gonum/mat.
func SolveProcess(p *mechanics.Process) (*Chain, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	S := len(p.States)
	var trunc float64
	eval := func(n mechanics.Node) (Dist, error) {
		if err := mechanics.Validate(n); err != nil {
			return Dist{}, err
		}
		d, tr, err := evalNode(n)
		trunc += tr
		return d, err
	}
	// Kernel form: one increment distribution per step (per kernel key),
	// mapped per state.
	kernels := map[int]Dist{}
	step := func(t, s int) (Dist, error) {
		var d Dist
		var err error
		if p.Kernel != nil {
			key := p.KernelKeyOf(t)
			kernel, ok := kernels[key]
			if !ok {
				if kernel, err = eval(p.Kernel(t)); err != nil {
					return Dist{}, fmt.Errorf("step %d: %w", t, err)
				}
				kernels[key] = kernel
			}
			d, err = kernel.Map(func(x int) int { return p.Move(t, s, x) })
		} else {
			d, err = eval(p.Step(t, s))
		}
		if err != nil {
			return Dist{}, fmt.Errorf("step from state %q: %w", p.States[s], err)
		}
		if d.Min() < 0 || d.Max() >= S {
			return Dist{}, fmt.Errorf("step from state %q leads outside the %d states", p.States[s], S)
		}
		return d, nil
	}
	cache := make([]Dist, S)
	have := make([]bool, S)
	get := func(t, s int) (Dist, error) {
		if !p.Homogeneous {
			return step(t, s)
		}
		if !have[s] {
			d, err := step(1, s)
			if err != nil {
				return Dist{}, err
			}
			cache[s], have[s] = d, true
		}
		return cache[s], nil
	}

	out := map[int]float64{}
	v := make([]float64, S)
	v[p.Start] = 1
	if p.Absorbing[p.Start] {
		out[p.Outcome(0, p.Start)] = 1
		v[p.Start] = 0
	}
	nv := make([]float64, S)
	for t := 1; t <= p.Horizon; t++ {
		clear(nv)
		live := false
		for s, m := range v {
			if m == 0 {
				continue
			}
			live = true
			d, err := get(t, s)
			if err != nil {
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
				out[p.Outcome(t, s)] += m
				nv[s] = 0
			}
		}
		v, nv = nv, v
	}
	for s, m := range v {
		if m > 0 {
			out[p.Outcome(p.Horizon+1, s)] += m
		}
	}
	d, err := FromMap(out)
	if err != nil {
		return nil, err
	}
	ch := &Chain{Outcome: d, Truncated: trunc}
	if p.Homogeneous && !p.Absorbing[p.Start] {
		absIdx := make([]int, S)
		for i := range absIdx {
			absIdx[i] = -1
		}
		for k, s := range p.AbsorbingStates() {
			absIdx[s] = k
		}
		if err := ch.solveUnbounded(p, get, absIdx); err != nil {
			return nil, err
		}
	}
	return ch, nil
}

// solveUnbounded computes N = (I − Q)⁻¹, B = N·R and the mean time N·1 for
// the transient states reachable from the start.
func (ch *Chain) solveUnbounded(p *mechanics.Process, get func(t, s int) (Dist, error), absIdx []int) error {
	S := len(p.States)
	// Transient states reachable from the start.
	tIdx := make([]int, S)
	for i := range tIdx {
		tIdx[i] = -1
	}
	var trans []int
	queue := []int{p.Start}
	tIdx[p.Start] = 0
	trans = append(trans, p.Start)
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		d, err := get(1, s)
		if err != nil {
			return err
		}
		for i, q := range d.P {
			ns := d.Lo + i
			if q > 0 && absIdx[ns] < 0 && tIdx[ns] < 0 {
				tIdx[ns] = len(trans)
				trans = append(trans, ns)
				queue = append(queue, ns)
			}
		}
	}
	T, A := len(trans), len(p.AbsorbingStates())
	iq := mat.NewDense(T, T, nil)
	r := mat.NewDense(T, max(A, 1), nil)
	for i, s := range trans {
		iq.Set(i, i, 1)
		d, _ := get(1, s)
		for j, q := range d.P {
			ns := d.Lo + j
			if q == 0 {
				continue
			}
			if k := absIdx[ns]; k >= 0 {
				r.Set(i, k, r.At(i, k)+q)
			} else {
				iq.Set(i, tIdx[ns], iq.At(i, tIdx[ns])-q)
			}
		}
	}
	var lu mat.LU
	lu.Factorize(iq)
	if lu.Det() == 0 || math.IsNaN(lu.Cond()) || lu.Cond() > 1e14 {
		return nil // some transient states never absorb: no finite mean
	}
	var b mat.Dense
	if err := lu.SolveTo(&b, false, r); err != nil {
		return nil
	}
	ones := mat.NewVecDense(T, nil)
	for i := 0; i < T; i++ {
		ones.SetVec(i, 1)
	}
	var tm mat.VecDense
	if err := lu.SolveVecTo(&tm, false, ones); err != nil {
		return nil
	}
	ch.Unbounded = true
	ch.MeanTimeUnbounded = tm.AtVec(0)
	ch.AbsorbedUnbounded = make([]float64, A)
	for k := 0; k < A; k++ {
		ch.AbsorbedUnbounded[k] = b.At(0, k)
	}
	return nil
}
