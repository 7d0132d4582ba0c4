package engine

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// Summarize turns the distribution of a spec's outcome into the variables,
// events and bands the spec declares.
func Summarize(spec *mechanics.Spec, outcome Dist, res *Result) error {
	return SummarizeAt(DefaultBudget(), spec, Masses{Lo: outcome.Lo, P: outcome.P}, res)
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
	return SummarizeAt(b, spec, Masses{Lo: lo, P: p, Counts: counts}, res)
}

// Masses are the masses of a model's outcome codes: P[i] (and, for
// simulated counts, Counts[i]) is the mass of outcome code Codes[i], or of
// Lo+i when Codes is nil (dense).
type Masses struct {
	Lo     int
	Codes  []int
	P      []float64
	Counts []int64
}

// code is the outcome code of mass i.
func (m Masses) code(i int) int {
	if m.Codes != nil {
		return m.Codes[i]
	}
	return m.Lo + i
}

// count is the simulated count of mass i (0 for an exact mass).
func (m Masses) count(i int) int64 {
	if m.Counts != nil {
		return m.Counts[i]
	}
	return 0
}

// SummarizeAt summarises outcome masses within a budget into the
// variables, events and bands the spec declares. A fault of the model in
// an output is an error; any other panic goes on.
func SummarizeAt(b *Budget, spec *mechanics.Spec, m Masses, res *Result) (err error) {
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
	t := newTally(spec, outs)
	// The first pass finds each variable's range and lattice, the second
	// (varDists) computes the outcomes' values again to fill their
	// distributions: keeping them would take tens of bytes per outcome.
	if err := t.scan(b, m); err != nil {
		return err
	}
	vrs, err := t.varDists(b, m, res.Truncated)
	if err != nil {
		return err
	}
	res.Vars = append(res.Vars, vrs...)
	// Every probability is summed from its smaller side (see Prob), the
	// mass the engine left out (res.Truncated, already set for this
	// part) counted on neither; a simulation's is its count over the
	// trials, rounded once.
	miss := res.Truncated
	for k, e := range spec.Events {
		p := Prob(t.evP[k], t.evOut[k]+miss)
		if m.Counts != nil {
			p = t.freq(t.evN[k])
		}
		res.Events = append(res.Events, EventResult{Name: e.Name, Doc: e.Doc, P: p, Count: t.evN[k]})
	}
	for k, bd := range spec.Bands {
		Probs(t.bP[k], miss)
		br := BandResult{Name: bd.Name, Doc: bd.Doc, Labels: bd.Labels, P: t.bP[k]}
		if m.Counts != nil {
			br.Counts = t.bN[k]
			for j, c := range br.Counts {
				br.P[j] = t.freq(c)
			}
		}
		res.Bands = append(res.Bands, br)
	}
	if pr := spec.Process; pr != nil {
		res.Process = processResult(pr, m.code, m.P, miss)
	}
	return nil
}

// tally gathers a spec's outputs over the outcomes: the mass (and count)
// of each event and band, and each variable's undefined mass, range and
// lattice.
type tally struct {
	spec *mechanics.Spec
	outs *mechanics.Outputs
	// One outcome's outputs, as outs.Eval gives them.
	vars    []expr.Rat
	events  []bool
	bands   []int
	defined []bool
	// By variable: the mass (count) where it is undefined, the mass
	// (count) of its condition (Var.Given), its lattice 1/den, its least
	// and greatest value, and whether it has any.
	undefP     []float64
	undefN     []int64
	givenP     []float64
	givenN     []int64
	den        []int64
	vmin, vmax []expr.Rat
	seen       []bool
	// By variable, the mass where it is defined.
	defP []float64
	// By event, by band and label: mass and count; by event, the mass
	// where it is false.
	evP   []float64
	evN   []int64
	evOut []float64
	bP    [][]float64
	bN    [][]int64
	// trials counts a simulation's trials.
	trials int64
	// outcomes counts the outcomes with mass; sparse holds, by variable,
	// the index of each value of a variable held by its values (nil for
	// the others, on their lattice: see VarResult.Xs).
	outcomes int64
	sparse   []map[expr.Rat]int
}

// freq is a simulated count c as a frequency over all the trials.
func (t *tally) freq(c int64) float64 { return float64(c) / float64(t.trials) }

func newTally(spec *mechanics.Spec, outs *mechanics.Outputs) *tally {
	nv, ne, nb := len(spec.Vars), len(spec.Events), len(spec.Bands)
	t := &tally{spec: spec, outs: outs,
		vars: make([]expr.Rat, nv), events: make([]bool, ne), bands: make([]int, nb), defined: make([]bool, nv),
		undefP: make([]float64, nv), undefN: make([]int64, nv), defP: make([]float64, nv), givenP: make([]float64, nv), givenN: make([]int64, nv),
		evP: make([]float64, ne), evN: make([]int64, ne), evOut: make([]float64, ne),
		bP: make([][]float64, nb), bN: make([][]int64, nb),
		den: make([]int64, nv), vmin: make([]expr.Rat, nv), vmax: make([]expr.Rat, nv), seen: make([]bool, nv)}
	for k, b := range spec.Bands {
		t.bP[k], t.bN[k] = make([]float64, len(b.Labels)), make([]int64, len(b.Labels))
	}
	for k := range t.den {
		t.den[k] = 1
	}
	return t
}

// scan is the first pass over the outcomes with mass: events, bands, and
// each variable's undefined mass, range and lattice.
func (t *tally) scan(b *Budget, m Masses) error {
	nv, ne, nb := len(t.vars), len(t.events), len(t.bands)
	for i, q := range m.P {
		if q == 0 {
			continue
		}
		if err := b.Tick(16 * (nv + ne + nb + 1)); err != nil {
			return err
		}
		c := m.count(i)
		t.trials += c
		t.outcomes++
		if err := t.outs.Eval(m.code(i), t.vars, t.events, t.bands, t.defined); err != nil {
			return err
		}
		for k, v := range t.vars {
			if !t.outs.InGiven(k) {
				continue
			}
			t.givenP[k] += q
			t.givenN[k] += c
			if !t.defined[k] {
				t.undefP[k] += q
				t.undefN[k] += c
				continue
			}
			t.defP[k] += q
			t.den[k] = lcm(t.den[k], max(v.D, 1))
			if !t.seen[k] || v.Cmp(t.vmin[k]) < 0 {
				t.vmin[k] = v
			}
			if !t.seen[k] || v.Cmp(t.vmax[k]) > 0 {
				t.vmax[k] = v
			}
			t.seen[k] = true
		}
		for k, e := range t.events {
			if e {
				t.evP[k] += q
				t.evN[k] += c
			} else {
				t.evOut[k] += q
			}
		}
		for k, bd := range t.bands {
			t.bP[k][bd] += q
			t.bN[k][bd] += c
		}
	}
	return nil
}

// varDists makes each variable's distribution over the range and lattice
// scan found (with counts when counted), fills it in a second pass over
// the outcomes, and summarises it; miss is the mass the engine left out.
func (t *tally) varDists(b *Budget, m Masses, miss float64) ([]VarResult, error) {
	counted := m.Counts != nil
	vrs := make([]VarResult, len(t.vars))
	scale := make([]expr.Rat, len(t.vars))
	for k, v := range t.spec.Vars {
		vr := VarResult{Name: v.Name, Doc: v.Doc, Unit: v.Unit, Den: int(t.den[k]), Missing: miss,
			Undefined: Prob(t.undefP[k], t.defP[k]+miss), UndefinedCount: t.undefN[k], UndefinedLabel: v.Otherwise}
		if vr.UndefinedLabel == "" && v.When != nil {
			vr.UndefinedLabel = "not defined"
		}
		if t.seen[k] {
			d := expr.Int(t.den[k])
			var ulo, uhi int64
			n := int64(math.MaxInt64)
			if t.den[k] == 0 {
				// No common denominator in 64 bits (1/d70): the
				// values are held one by one.
				vr.Den = math.MaxInt
			} else {
				ulo, uhi = t.vmin[k].Mul(d).N, t.vmax[k].Mul(d).N
				n = Span(int(ulo), int(uhi))
			}
			per := int64(FloatBytes)
			if counted {
				per += 8
			}
			if t.den[k] == 0 || t.den[k] > 1 && n > sparseMin && n > sparseRatio*t.outcomes {
				// Few values far apart on their lattice (a quotient
				// by a die): held by their values, at most one per
				// outcome.
				per += MapEntryBytes + 16
				if err := b.Need(MulBytes(t.outcomes, per), AdviceValues, "the distribution of variable %s, which takes up to %d values from %s to %s,",
					v.Name, t.outcomes, t.vmin[k], t.vmax[k]); err != nil {
					return nil, err
				}
				b.Hold(MulBytes(t.outcomes, per))
				if t.sparse == nil {
					t.sparse = make([]map[expr.Rat]int, len(t.vars))
				}
				t.sparse[k] = map[expr.Rat]int{}
				vr.Xs, vr.P = []expr.Rat{}, []float64{}
				if counted {
					vr.Counts = []int64{}
				}
				vrs[k] = vr
				continue
			}
			if err := b.Need(MulBytes(n, per), AdviceValues, "the distribution of variable %s, which takes %d values from %s to %s%s,",
				v.Name, n, t.vmin[k], t.vmax[k], steps(t.den[k])); err != nil {
				return nil, err
			}
			b.Hold(MulBytes(n, per))
			vr.Lo, vr.P = int(ulo), make([]float64, uhi-ulo+1)
			if counted {
				vr.Counts = make([]int64, len(vr.P))
			}
			scale[k] = d
		}
		vrs[k] = vr
	}
	if slices.Contains(t.seen, true) {
		if err := t.fill(b, m, vrs, scale); err != nil {
			return nil, err
		}
		for k := range t.sparse {
			if t.sparse[k] != nil {
				sortValues(&vrs[k])
			}
		}
	}
	for k, v := range t.spec.Vars {
		if v.Given != nil {
			t.condition(&vrs[k], k, v)
		}
	}
	for k := range vrs {
		if vrs[k].Xs != nil {
			vrs[k].Stats = statsOfValues(vrs[k].Xs, vrs[k].P)
		} else {
			vrs[k].Stats = statsOf(Dist{Lo: vrs[k].Lo, P: vrs[k].P}, vrs[k].Den)
		}
		if vr := &vrs[k]; vr.Given != "" {
			// A conditional variable's masses are over its condition:
			// summed from their smaller side within it, and a
			// simulation's counts over the trials that met it.
			Probs(vr.P, vr.Undefined)
			if counted && vr.GivenCount > 0 {
				for j, c := range vr.Counts {
					vr.P[j] = float64(c) / float64(vr.GivenCount)
				}
				vr.Undefined = float64(vr.UndefinedCount) / float64(vr.GivenCount)
			}
			continue
		}
		// After the statistics, which weigh the masses as they are: a
		// value more likely than all the others has 1 less them; a
		// simulation's values have their counts over the trials.
		Probs(vrs[k].P, t.undefP[k]+miss)
		if counted {
			for j, c := range vrs[k].Counts {
				vrs[k].P[j] = t.freq(c)
			}
			vrs[k].Undefined = t.freq(vrs[k].UndefinedCount)
		}
	}
	return vrs, nil
}

// condition makes variable k's masses those given its condition: divided
// by the condition's mass (a condition that never holds leaves the
// variable undefined everywhere).
func (t *tally) condition(vr *VarResult, k int, v mechanics.Var) {
	vr.Given, vr.GivenP, vr.GivenCount = cmp.Or(v.GivenLabel, "the condition"), math.Min(t.givenP[k], 1), t.givenN[k]
	if t.givenP[k] <= 0 {
		vr.Undefined, vr.UndefinedLabel = 1, "never "+vr.Given
		return
	}
	// The condition's mass as the masses it is divided into add up, so
	// that the conditional ones add up to 1 as nearly as floats allow.
	g := t.undefP[k]
	for _, p := range vr.P {
		g += p
	}
	for i := range vr.P {
		vr.P[i] /= g
	}
	vr.Undefined = math.Min(t.undefP[k]/g, 1)
}

// fill is the second pass: each outcome's mass (and count) to its
// variables' values, on their lattices (values times scale).
func (t *tally) fill(b *Budget, m Masses, vrs []VarResult, scale []expr.Rat) error {
	for i, q := range m.P {
		if q == 0 {
			continue
		}
		if err := b.Tick(16 * (len(t.vars) + 1)); err != nil {
			return err
		}
		if err := t.outs.Eval(m.code(i), t.vars, t.events, t.bands, t.defined); err != nil {
			return err
		}
		for k, v := range t.vars {
			if !t.seen[k] || !t.defined[k] || !t.outs.InGiven(k) {
				continue
			}
			vr := &vrs[k]
			var j int
			if t.sparse != nil && t.sparse[k] != nil {
				j = t.sparseIndex(vr, k, v)
			} else {
				j = int(v.Mul(scale[k]).N) - vr.Lo
			}
			vr.P[j] += q
			if m.Counts != nil {
				vr.Counts[j] += m.Counts[i]
			}
		}
	}
	return nil
}

// lcm is the least common multiple of a and b, or 0 when either is 0 or
// it does not fit in 63 bits.
func lcm(a, b int64) int64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	hi, lo := bits.Mul64(uint64(a/x), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0
	}
	return int64(lo)
}

// Variables whose lattice spans more than sparseMin points, and more than
// sparseRatio times the outcomes with mass, are held by their values.
const (
	sparseMin   = 1 << 16
	sparseRatio = 16
)

// sparseIndex is the index of value v of sparse variable k, a new one
// (with no mass yet) the first time v is seen.
func (t *tally) sparseIndex(vr *VarResult, k int, v expr.Rat) int {
	if v.D == 0 {
		v.D = 1
	}
	j, ok := t.sparse[k][v]
	if !ok {
		j = len(vr.Xs)
		t.sparse[k][v] = j
		vr.Xs, vr.P = append(vr.Xs, v), append(vr.P, 0)
		if vr.Counts != nil {
			vr.Counts = append(vr.Counts, 0)
		}
	}
	return j
}

// sortValues puts a sparse variable's values (and their masses) in
// ascending order.
func sortValues(vr *VarResult) {
	idx := make([]int, len(vr.Xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return vr.Xs[a].Cmp(vr.Xs[b]) })
	xs, p := make([]expr.Rat, len(idx)), make([]float64, len(idx))
	var counts []int64
	if vr.Counts != nil {
		counts = make([]int64, len(idx))
	}
	for i, j := range idx {
		xs[i], p[i] = vr.Xs[j], vr.P[j]
		if counts != nil {
			counts[i] = vr.Counts[j]
		}
	}
	vr.Xs, vr.P, vr.Counts = xs, p, counts
}

// steps describes the lattice of a variable's values for messages.
func steps(den int64) string {
	if den <= 1 {
		return ""
	}
	return fmt.Sprintf(" in steps of 1/%d", den)
}

// processResult reads the process figures off the outcome masses p, the
// mass p[i] at outcome code(i); miss is the mass the engine left out.
// Each probability is summed from its smaller side (Prob).
func processResult(p *mechanics.Process, code func(int) int, mass []float64, miss float64) *ProcessResult {
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
	// The absorbing states and "not absorbed" share out the mass.
	states := append(pr.Absorbed[:len(pr.Absorbed):len(pr.Absorbed)], pr.Undecided)
	Probs(states, miss)
	pr.Absorbed, pr.Undecided = states[:len(abs)], states[len(abs)]
	// S(t) = P(T > t): the times after t (with "not absorbed") against
	// those up to t.
	after := make([]float64, p.Horizon+1)
	for t, s := p.Horizon, 0.0; t >= 0; t-- {
		s += byTime[t+1]
		after[t] = s
	}
	upTo := 0.0
	for t := range pr.Survival {
		upTo += byTime[t]
		pr.Survival[t] = Prob(after[t], upTo+miss)
	}
	return pr
}

// statsOfValues is statsOf for a variable held by its values xs
// (ascending), P[i] the mass of xs[i].
func statsOfValues(xs []expr.Rat, p []float64) Stats {
	d := Dist{P: p} // over the indices of xs
	tot := d.Total()
	if tot == 0 {
		return Stats{Mean: math.NaN(), SD: math.NaN()}
	}
	if math.Abs(tot-1) > 1e-12 {
		d = d.Scaled(1 / tot)
	}
	x := func(i int) float64 { return xs[i].Float() }
	mean := 0.0
	for i, q := range d.P {
		mean += x(i) * q
	}
	v := 0.0
	for i, q := range d.P {
		e := x(i) - mean
		v += e * e * q
	}
	return Stats{
		Mean: mean, SD: math.Sqrt(v), Min: x(d.Min()), Max: x(d.Max()),
		P5: x(d.Quantile(0.05)), P25: x(d.Quantile(0.25)), P50: x(d.Quantile(0.5)),
		P75: x(d.Quantile(0.75)), P95: x(d.Quantile(0.95)),
	}
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
