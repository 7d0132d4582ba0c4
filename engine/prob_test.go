package engine

import (
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// tenths are ten outcome codes of mass 0.1 each: in float64 they add up
// to 0.9999999999999999, the way an engine's masses add up to 1 less the
// rounding they accumulated.
func tenths() Dist {
	d := Dist{P: make([]float64, 10)}
	for i := range d.P {
		d.P[i] = 0.1
	}
	return d
}

// tails collects a variable's tail probabilities.
func tails(v *VarResult) []Tail {
	var ts []Tail
	for _, t := range v.Tails() {
		ts = append(ts, t)
	}
	return ts
}

// TestProb: a probability is summed from its smaller side, so nothing
// against it gives exactly 1, nothing for it exactly 0, and a complement
// too small to move 1 in float64 still leaves it below 1.
func TestProb(t *testing.T) {
	for _, c := range []struct{ in, out, want float64 }{
		{0, 0.9999999999999999, 0},
		{0.9999999999999999, 0, 1},
		{0.25, 0.75, 0.25},
		{0.75, 0.25, 0.75},
		{1, 1e-31, belowOne},
		{1e-31, 1, 1e-31},
	} {
		if got := Prob(c.in, c.out); got != c.want {
			t.Errorf("Prob(%g, %g) = %v, want %v", c.in, c.out, got, c.want)
		}
	}
	ps := []float64{0, 0.9999999999999999, 0}
	Probs(ps, 0)
	if ps[0] != 0 || ps[1] != 1 || ps[2] != 0 {
		t.Errorf("Probs of a certain state: %v, want [0 1 0]", ps)
	}
}

// TestSummarizeCertainIsExact: outcome masses that add up to 1 − 1.1e−16
// report a value that is certain with P(= x), P(≤ x) and P(≥ x) exactly
// 1 and P(> x) exactly 0, and an event that always holds and a band label
// that always applies with exactly 1; the tails of a value that is not
// certain stay sums of real masses.
func TestSummarizeCertainIsExact(t *testing.T) {
	rec := mechanics.NewRecord(mechanics.Int("roll", 0, 9, "a d10 from 0"))
	spec := &mechanics.Spec{Record: rec,
		Vars: []mechanics.Var{{Name: "seven", Expr: expr.K(7)}, {Name: "roll", Expr: expr.F("roll")}},
		Events: []mechanics.Event{{Name: "always", Expr: expr.Ge(expr.F("roll"), expr.K(0))},
			{Name: "never", Expr: expr.Gt(expr.F("roll"), expr.K(9))}},
		Bands: []mechanics.Band{{Name: "one", Labels: []string{"all", "none"}, Expr: expr.K(0)}},
	}
	var r Result
	if err := Summarize(spec, tenths(), &r); err != nil {
		t.Fatal(err)
	}
	seven := r.Var("seven")
	tl := tails(seven)
	if len(seven.P) != 1 || seven.P[0] != 1 || tl[0] != (Tail{Le: 1, Ge: 1, Gt: 0}) {
		t.Errorf("a certain value: P %v, tails %+v; want exactly 1, 1, 1 and 0", seven.P, tl)
	}
	if p := r.Event("always").P; p != 1 {
		t.Errorf("P(always) = %v, want exactly 1", p)
	}
	if p := r.Event("never").P; p != 0 {
		t.Errorf("P(never) = %v, want exactly 0", p)
	}
	if b := r.Bands[0].P; b[0] != 1 || b[1] != 0 {
		t.Errorf("band %v, want exactly [1 0]", b)
	}
	roll := tails(r.Var("roll"))
	if roll[9].Gt != 0 || roll[0].Ge != 1 || roll[9].Le != 1 {
		t.Errorf("d10 tails at its ends: P(> 9) = %v, P(≥ 0) = %v, P(≤ 9) = %v; want 0, 1, 1", roll[9].Gt, roll[0].Ge, roll[9].Le)
	}
	if roll[8].Gt != 0.1 {
		t.Errorf("P(X > 8) = %v, want 0.1 as summed from the top", roll[8].Gt)
	}
}

// TestTailsCountUndefinedAndMissingAbove: the mass where a variable is
// undefined (a time never reached) and the mass the engine left out count
// above every value, as 1 − P(X ≤ x) would, but without its rounding.
func TestTailsCountUndefinedAndMissingAbove(t *testing.T) {
	v := VarResult{Lo: 1, P: []float64{0.5, 0, 0.25}, Undefined: 0.25 - 1e-13, Missing: 1e-13}
	tl := tails(&v)
	if tl[2].Gt != 0.25 || tl[0].Ge != 1 || tl[2].Le != 0.75 || tl[2].Ge != 0.5 {
		t.Errorf("tails %+v", tl)
	}
	// Nothing undefined or left out: nothing above the largest value.
	w := VarResult{Lo: 1, P: []float64{0.5, 0.5 - 1e-16}}
	if tl := tails(&w); tl[1].Gt != 0 || tl[1].Le != 1 {
		t.Errorf("tails %+v, want P(> 2) = 0 and P(≤ 2) = 1", tl)
	}
}

// TestProcessFiguresExact: a process whose masses add up to 1 − 1.1e−16
// has S(0) = 1 when it cannot end at time 0, and the state with all the
// mass exactly 1.
func TestProcessFiguresExact(t *testing.T) {
	p := &mechanics.Process{TimeUnit: "step", Horizon: 3}
	done := p.Add(true, "done")
	p.Add(false, "going")
	spec := mechanics.ProcessSpec(p)
	// Every code absorbed in "done" at time 1 or 2.
	m := Masses{}
	for i := range 10 {
		m.Codes = append(m.Codes, p.Outcome(1+i/5, done))
		m.P = append(m.P, 0.1)
	}
	var r Result
	if err := SummarizeAt(nil, spec, m, &r); err != nil {
		t.Fatal(err)
	}
	pr := r.Process
	if pr.Survival[0] != 1 || pr.Survival[2] != 0 || pr.Absorbed[0] != 1 || pr.Undecided != 0 {
		t.Errorf("S = %v, absorbed %v, not absorbed %v; want S(0) = 1, S(2) = 0, absorbed exactly 1, not absorbed 0", pr.Survival, pr.Absorbed, pr.Undecided)
	}
}

// TestSimulatedFrequencies: a simulation's probabilities are its counts
// over the trials, each rounded once: 3 trials in 10 are 0.3, not three
// frequencies of 0.1 added up (0.30000000000000004).
func TestSimulatedFrequencies(t *testing.T) {
	rec := mechanics.NewRecord(mechanics.Int("roll", 0, 9, "a d10 from 0"))
	low := expr.Lt(expr.F("roll"), expr.K(7))
	spec := &mechanics.Spec{Record: rec,
		Vars:   []mechanics.Var{{Name: "low", Expr: expr.Cond(low, expr.K(1), expr.K(0))}, {Name: "roll", Expr: expr.F("roll")}},
		Events: []mechanics.Event{{Name: "low", Expr: low}},
		Bands:  []mechanics.Band{{Name: "low", Labels: []string{"low", "high"}, Expr: expr.Cond(low, expr.K(0), expr.K(1))}},
	}
	counts := []int64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	var r Result
	if err := SummarizeCounts(t.Context(), spec, 0, counts, &r, 0); err != nil {
		t.Fatal(err)
	}
	if p := r.Event("low").P; p != 0.7 {
		t.Errorf("P(low) = %v, want 0.7", p)
	}
	if b := r.Bands[0].P; b[0] != 0.7 || b[1] != 0.3 {
		t.Errorf("band %v, want [0.7 0.3]", b)
	}
	if p := r.Var("low").P; p[0] != 0.3 || p[1] != 0.7 {
		t.Errorf("low %v, want [0.3 0.7]", p)
	}
	roll := tails(r.Var("roll"))
	if roll[6].Le != 0.7 || roll[6].Gt != 0.3 || roll[7].Ge != 0.3 || roll[9].Gt != 0 || roll[0].Ge != 1 {
		t.Errorf("tails %+v", roll)
	}
}
