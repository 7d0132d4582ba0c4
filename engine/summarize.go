package engine

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// Summarize turns the distribution of a spec's outcome into the variables,
// events and bands the spec declares.
func Summarize(spec *mechanics.Spec, outcome Dist, res *Result) error {
	return SummarizeAt(DefaultBudget(), spec, outcome.Lo, nil, outcome.P, nil, res)
}

// SummarizeCounts does the same for simulated counts of the outcome over
// [lo, lo+len(counts)): probabilities are the observed frequencies, and
// every variable, event and band also gets its integer counts. It stays
// within memoryBytes (0: DefaultMemory; a *MemoryError when the reported
// variables would not fit) and stops when ctx is done.
func SummarizeCounts(ctx context.Context, spec *mechanics.Spec, lo int, counts []int64, res *Result, memoryBytes int64) error {
	b := NewBudget(ctx, memoryBytes)
	b.SuggestSim = false
	if err := b.Need(MulBytes(int64(len(counts)), FloatBytes), AdviceValues,
		"the frequencies of %d outcome codes", len(counts)); err != nil {
		return err
	}
	var n int64
	for _, c := range counts {
		n += c
	}
	p := make([]float64, len(counts))
	for i, c := range counts {
		p[i] = float64(c) / float64(n)
	}
	b.Hold(MulBytes(int64(len(counts)), 2*FloatBytes)) // the counts and p
	return SummarizeAt(b, spec, lo, nil, p, counts, res)
}

// SummarizeAt summarises outcome masses within a budget: p[i] (and, for
// simulated counts, counts[i]) is the mass of outcome code codes[i], or of
// lo+i when codes is nil (dense).
func SummarizeAt(b *Budget, spec *mechanics.Spec, lo int, codes []int, p []float64, counts []int64, res *Result) (err error) {
	code := func(i int) int {
		if codes != nil {
			return codes[i]
		}
		return lo + i
	}
	// The simulator reports the same variables: no use suggesting it.
	if b != nil {
		defer func(e bool) { b.SuggestSim = e }(b.SuggestSim)
		b.SuggestSim = false
	}
	defer func() {
		if x := recover(); x != nil {
			// A fault of the model is an error; anything else panics again.
			if err = mechanics.Recovered(x); !expr.IsOverflow(err) {
				err = fmt.Errorf("the model's outputs failed: %w", err)
			}
		}
		if err != nil && expr.IsOverflow(err) {
			// Exact fractions beyond 64 bits: the outputs ask too much of
			// exact arithmetic (1/d70 has a denominator of lcm(1…70)).
			err = mechanics.Invalid("an output's values are fractions too large for exact arithmetic (over 64 bits): round them (floor, ceil, round) or divide less")
		}
	}()
	outs, err := spec.Compile()
	if err != nil {
		return err
	}
	nv, ne, nb := len(spec.Vars), len(spec.Events), len(spec.Bands)
	vars, events, bands, defined := make([]expr.Rat, nv), make([]bool, ne), make([]int, nb), make([]bool, nv)
	undefP, undefN := make([]float64, nv), make([]int64, nv)
	evP, evN := make([]float64, ne), make([]int64, ne)
	bP, bN := make([][]float64, nb), make([][]int64, nb)
	for k, b := range spec.Bands {
		bP[k], bN[k] = make([]float64, len(b.Labels)), make([]int64, len(b.Labels))
	}
	den := make([]int64, nv)
	vmin, vmax, seen := make([]expr.Rat, nv), make([]expr.Rat, nv), make([]bool, nv)
	for k := range den {
		den[k] = 1
	}
	// The first pass finds each variable's range and lattice, the second
	// (below) computes the outcomes' values again to fill their
	// distributions: keeping them would take tens of bytes per outcome.
	for i, q := range p {
		if q == 0 {
			continue
		}
		if err := b.Tick(16 * (nv + ne + nb + 1)); err != nil {
			return err
		}
		var c int64
		if counts != nil {
			c = counts[i]
		}
		if err := outs.Eval(code(i), vars, events, bands, defined); err != nil {
			return err
		}
		for k, v := range vars {
			if !defined[k] {
				undefP[k] += q
				undefN[k] += c
				continue
			}
			den[k] = expr.Lcm(den[k], v.D)
			if !seen[k] || v.Cmp(vmin[k]) < 0 {
				vmin[k] = v
			}
			if !seen[k] || v.Cmp(vmax[k]) > 0 {
				vmax[k] = v
			}
			seen[k] = true
		}
		for k, e := range events {
			if e {
				evP[k] += q
				evN[k] += c
			}
		}
		for k, b := range bands {
			bP[k][b] += q
			bN[k][b] += c
		}
	}
	vrs := make([]VarResult, nv)
	scale := make([]expr.Rat, nv)
	for k, v := range spec.Vars {
		vr := VarResult{Name: v.Name, Doc: v.Doc, Unit: v.Unit, Den: int(den[k]),
			Undefined: math.Min(undefP[k], 1), UndefinedCount: undefN[k], UndefinedLabel: v.Otherwise}
		if vr.UndefinedLabel == "" && v.When != nil {
			vr.UndefinedLabel = "not defined"
		}
		if seen[k] {
			d := expr.Int(den[k])
			ulo, uhi := vmin[k].Mul(d).N, vmax[k].Mul(d).N
			n := Span(int(ulo), int(uhi))
			per := int64(FloatBytes)
			if counts != nil {
				per += 8
			}
			if err := b.Need(MulBytes(n, per), AdviceValues, "the distribution of variable %s, which takes %d values from %s to %s%s,",
				v.Name, n, vmin[k], vmax[k], steps(den[k])); err != nil {
				return err
			}
			b.Hold(MulBytes(n, per))
			vr.Lo, vr.P = int(ulo), make([]float64, uhi-ulo+1)
			if counts != nil {
				vr.Counts = make([]int64, len(vr.P))
			}
			scale[k] = d
		}
		vrs[k] = vr
	}
	if slices.Contains(seen, true) {
		for i, q := range p {
			if q == 0 {
				continue
			}
			if err := b.Tick(16 * (nv + 1)); err != nil {
				return err
			}
			if err := outs.Eval(code(i), vars, events, bands, defined); err != nil {
				return err
			}
			for k, v := range vars {
				if !seen[k] || !defined[k] {
					continue
				}
				vr := &vrs[k]
				j := int(v.Mul(scale[k]).N) - vr.Lo
				vr.P[j] += q
				if counts != nil {
					vr.Counts[j] += counts[i]
				}
			}
		}
	}
	for k := range vrs {
		vrs[k].Stats = statsOf(Dist{Lo: vrs[k].Lo, P: vrs[k].P}, vrs[k].Den)
	}
	res.Vars = append(res.Vars, vrs...)
	for k, e := range spec.Events {
		res.Events = append(res.Events, EventResult{Name: e.Name, Doc: e.Doc, P: math.Min(evP[k], 1), Count: evN[k]})
	}
	for k, b := range spec.Bands {
		br := BandResult{Name: b.Name, Doc: b.Doc, Labels: b.Labels, P: bP[k]}
		if counts != nil {
			br.Counts = bN[k]
		}
		res.Bands = append(res.Bands, br)
	}
	if pr := spec.Process; pr != nil {
		res.Process = processResult(pr, code, p)
	}
	return nil
}

// steps describes the lattice of a variable's values for messages.
func steps(den int64) string {
	if den <= 1 {
		return ""
	}
	return fmt.Sprintf(" in steps of 1/%d", den)
}

// processResult reads the process figures off the outcome masses p, the
// mass p[i] at outcome code(i).
func processResult(p *mechanics.Process, code func(int) int, mass []float64) *ProcessResult {
	abs := p.AbsorbingStates()
	pr := &ProcessResult{
		TimeUnit: p.TimeUnit, Horizon: p.Horizon,
		Absorbed: make([]float64, len(abs)),
		Survival: make([]float64, p.Horizon+1),
	}
	k := map[int]int{}
	for i, s := range abs {
		pr.AbsorbingStates = append(pr.AbsorbingStates, p.States[s])
		k[s] = i
	}
	byTime := make([]float64, p.Horizon+2)
	for i, q := range mass {
		if q == 0 {
			continue
		}
		t, s := p.SplitOutcome(code(i))
		if t > p.Horizon {
			pr.Undecided += q
		} else {
			pr.Absorbed[k[s]] += q
		}
		byTime[min(t, p.Horizon+1)] += q
	}
	s := 0.0
	for t := p.Horizon; t >= 0; t-- {
		s += byTime[t+1]
		pr.Survival[t] = math.Min(s, 1)
	}
	return pr
}

// statsOf summarises a distribution over the lattice (Lo+i)/den, given
// that the variable is defined (the probabilities are normalised).
func statsOf(d Dist, den int) Stats {
	tot := d.Total()
	if tot == 0 {
		return Stats{Mean: math.NaN(), SD: math.NaN()}
	}
	if math.Abs(tot-1) > 1e-12 {
		d = d.Scaled(1 / tot)
	}
	k := float64(max(den, 1))
	v := func(x int) float64 { return float64(x) / k }
	return Stats{
		Mean: d.Mean() / k, SD: d.stdDev() / k, Min: v(d.Min()), Max: v(d.Max()),
		P5: v(d.Quantile(0.05)), P25: v(d.Quantile(0.25)), P50: v(d.Quantile(0.5)),
		P75: v(d.Quantile(0.75)), P95: v(d.Quantile(0.95)),
	}
}
