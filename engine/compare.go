package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// A Comparison lines up two results, A and B, output by output: what a
// change of setting, of option, of mechanic or of rule does to every
// output both report with the same meaning.
//
// Outputs are matched by kind and name. A variable is shared when both
// sides give it the same unit; its values are compared on the finer of the
// two lattices (a variable on halves against one on whole numbers is read
// on halves: the lattice is where the values fell, not what they mean). A
// band is shared when both sides name the same categories in the same
// order. Any other output of the same name is refused with its reason;
// outputs of one side only are listed as such.
type Comparison struct {
	A, B *Result
	// Rows are the side-by-side numbers: for each shared variable its
	// mean, sd, percentiles and undefined mass, for each event P, for each
	// band each category's mass; in A's order of outputs.
	Rows []CompareRow
	// Dists are the shared distributions (variables, then bands) and how
	// far apart they are.
	Dists []DistCompare
	// OnlyA and OnlyB are the outputs of one side only.
	OnlyA, OnlyB []OutputRef
	// Refused are outputs of the same name on both sides that do not mean
	// the same thing.
	Refused []Refusal
}

// OutputRef names an output: Kind is "variable", "event" or "band".
type OutputRef struct {
	Kind, Name string
}

func (o OutputRef) String() string { return o.Kind + " " + o.Name }

// Refusal is a shared name that is not a shared meaning.
type Refusal struct {
	OutputRef
	Reason string
}

// CompareRow is one number of both sides and its change Δ = B − A.
type CompareRow struct {
	// Kind and Output name the output.
	Kind, Output string
	// Quantity is mean, sd, p5, p25, p50, p75, p95 or undefined for a
	// variable; P for an event or a band's category (Label).
	Quantity string
	Label    string
	// Unit is the variable's unit for its mean, sd and percentiles.
	Unit string
	// A, B and Delta carry 95% intervals for simulated results (the
	// interval of Δ combines A's and B's, as if they were independent:
	// see Comparison); Lo == Hi == V for exact ones.
	A, B, Delta Estimate
	// Significant says the change is real: non-zero for exact results,
	// for simulated ones a Δ whose interval leaves out 0.
	Significant bool
}

// Prob reports whether the row is a probability (an event, a band's
// category, an undefined mass).
func (r CompareRow) Prob() bool { return r.Quantity == "P" || r.Quantity == "undefined" }

// DistCompare is how far apart the two sides' distributions of one output
// are.
type DistCompare struct {
	OutputRef
	Unit string
	// TVD is the total variation distance ½ Σ |P_A(x) − P_B(x)|, the
	// undefined mass of a variable counting as one more value: the most
	// any event can change in probability.
	TVD float64
	// Variables only: KS is the Kolmogorov–Smirnov distance
	// max_x |F_A(x) − F_B(x)| with F(x) = P(X ≤ x), reached first at KSAt.
	KS, KSAt float64
	// KSCritical is, for simulated results, the 95% critical value of the
	// two-sample KS test at the trials: a KS below it is no evidence of a
	// difference (0 for exact results).
	KSCritical float64
	// Crossings are where the CDFs cross: where F_A − F_B takes the other
	// sign. For simulated results a difference inside its pointwise 95%
	// interval counts as no sign.
	Crossings []Crossing
	// SDA and SDB are the standard deviations; Swingier is "A" or "B",
	// whichever has the larger sd, or "" when they are equal (exact) or
	// indistinguishable at the trials (simulated).
	SDA, SDB Estimate
	Swingier string

	a, b *VarResult
}

// Crossing is a sign change of F_A − F_B: it has one sign at After (the
// last value where it was non-zero) and the other at To; X is where the
// CDFs meet, the first value after After (To itself, unless they are
// equal in between: 2d6 and d12 meet at 7, P = 7/12 each, and part at 8).
type Crossing struct {
	After, X, To float64
}

// Sim reports whether the comparison is of simulated results (either side).
func (c *Comparison) Sim() bool { return isSim(c.A) || isSim(c.B) }

// Shared counts the outputs both sides share.
func (c *Comparison) Shared() int {
	seen := map[OutputRef]bool{}
	for _, r := range c.Rows {
		seen[OutputRef{r.Kind, r.Output}] = true
	}
	return len(seen)
}

// Dist returns the comparison of a shared variable or band, or nil.
func (c *Comparison) Dist(name string) *DistCompare {
	for i := range c.Dists {
		if c.Dists[i].Name == name {
			return &c.Dists[i]
		}
	}
	return nil
}

func isSim(r *Result) bool { return r.Engine == Sim && r.Trials > 0 }

// exactTol is the relative difference below which two exact numbers are
// equal: the rounding of two ways of summing the same probabilities.
const exactTol = 1e-12

// Percentiles are the levels of the percentile rows, with their names.
var Percentiles = []struct {
	Name string
	Q    float64
}{{"p5", 0.05}, {"p25", 0.25}, {"p50", 0.5}, {"p75", 0.75}, {"p95", 0.95}}

// Output is what an output means, for matching two sides: its kind and
// name, and a variable's unit or a band's categories.
type Output struct {
	OutputRef
	Unit   string
	Labels []string
}

// SpecOutputs lists the outputs a model reports (every part of it).
func SpecOutputs(s *mechanics.Spec) []Output {
	var out []Output
	for _, part := range s.Parts() {
		for _, v := range part.Vars {
			out = append(out, Output{OutputRef: OutputRef{"variable", v.Name}, Unit: v.Unit})
		}
	}
	for _, part := range s.Parts() {
		for _, e := range part.Events {
			out = append(out, Output{OutputRef: OutputRef{"event", e.Name}})
		}
	}
	for _, part := range s.Parts() {
		for _, b := range part.Bands {
			out = append(out, Output{OutputRef: OutputRef{"band", b.Name}, Labels: b.Labels})
		}
	}
	return out
}

// ResultOutputs lists the outputs of a result.
func ResultOutputs(r *Result) []Output {
	var out []Output
	for _, v := range r.Vars {
		out = append(out, Output{OutputRef: OutputRef{"variable", v.Name}, Unit: v.Unit})
	}
	for _, e := range r.Events {
		out = append(out, Output{OutputRef: OutputRef{"event", e.Name}})
	}
	for _, b := range r.Bands {
		out = append(out, Output{OutputRef: OutputRef{"band", b.Name}, Labels: b.Labels})
	}
	return out
}

// Match pairs two sides' outputs by name: those that share a meaning (in
// A's order), those of one side only, and those whose name is shared but
// not their meaning, each with a one-line reason: another kind, another
// unit, other categories.
func Match(a, b []Output) (shared, onlyA, onlyB []OutputRef, refused []Refusal) {
	byName := map[string]Output{}
	for _, o := range b {
		byName[o.Name] = o
	}
	inA := map[string]bool{}
	for _, oa := range a {
		inA[oa.Name] = true
		ob, ok := byName[oa.Name]
		switch {
		case !ok:
			onlyA = append(onlyA, oa.OutputRef)
		case ob.Kind != oa.Kind:
			refused = append(refused, Refusal{oa.OutputRef, fmt.Sprintf("it is %s in A but %s in B", article(oa.Kind), article(ob.Kind))})
		case oa.Kind == "variable" && oa.Unit != ob.Unit:
			refused = append(refused, Refusal{oa.OutputRef, fmt.Sprintf("its units differ: %s in A, %s in B", unitWords(oa.Unit), unitWords(ob.Unit))})
		case oa.Kind == "band" && !slices.Equal(oa.Labels, ob.Labels):
			refused = append(refused, Refusal{oa.OutputRef, labelsDiffer(oa.Labels, ob.Labels)})
		default:
			shared = append(shared, oa.OutputRef)
		}
	}
	for _, ob := range b {
		if !inA[ob.Name] {
			onlyB = append(onlyB, ob.OutputRef)
		}
	}
	return shared, onlyA, onlyB, refused
}

// Compare lines up two results. It never fails: what cannot be compared
// is listed (OnlyA, OnlyB, Refused).
func Compare(a, b *Result) *Comparison {
	c := &Comparison{A: a, B: b}
	var shared []OutputRef
	shared, c.OnlyA, c.OnlyB, c.Refused = Match(ResultOutputs(a), ResultOutputs(b))
	for _, ref := range shared {
		switch ref.Kind {
		case "variable":
			c.variable(a.Var(ref.Name), b.Var(ref.Name))
		case "event":
			c.event(ref.Name)
		case "band":
			c.band(a.band(ref.Name), b.band(ref.Name))
		}
	}
	return c
}

func article(kind string) string {
	if kind == "event" {
		return "an event"
	}
	return "a " + kind
}

// row adds a row for a metric read from both results.
func (c *Comparison) row(kind, output, quantity, label, unit string, m *Metric) {
	ea, errA := m.Eval(c.A)
	eb, errB := m.Eval(c.B)
	if errA != nil || errB != nil || math.IsNaN(ea.V) || math.IsNaN(eb.V) {
		return // a variable with no value on a side has no mean there
	}
	d := Diff(ea, eb, c.Sim())
	c.Rows = append(c.Rows, CompareRow{Kind: kind, Output: output, Quantity: quantity, Label: label, Unit: unit,
		A: ea, B: eb, Delta: d, Significant: significant(d, c.Sim())})
}

// Diff is Δ = b − a with its 95% interval, combined from the two
// intervals as independent (Newcombe's and Zou's MOVER: exact for the
// symmetric intervals of means, Newcombe's hybrid score interval for two
// Wilson intervals). For exact estimates a Δ within rounding of zero is 0.
func Diff(a, b Estimate, sim bool) Estimate {
	d := b.V - a.V
	if !sim {
		if math.Abs(d) <= exactTol*math.Max(1, math.Max(math.Abs(a.V), math.Abs(b.V))) {
			d = 0
		}
		return Estimate{d, d, d}
	}
	return Estimate{
		V:  d,
		Lo: d - math.Hypot(b.V-b.Lo, a.Hi-a.V),
		Hi: d + math.Hypot(b.Hi-b.V, a.V-a.Lo),
	}
}

func significant(d Estimate, sim bool) bool {
	if !sim {
		return d.V != 0
	}
	return d.Lo > 0 || d.Hi < 0
}

func (c *Comparison) event(name string) {
	c.row("event", name, "P", "", "", &Metric{Text: "event:" + name, Terms: []Term{{Kind: "event", Name: name}}})
}

func (c *Comparison) band(a, b *BandResult) {
	tvd := 0.0
	for i, l := range a.Labels {
		c.row("band", a.Name, "P", l, "", &Metric{Text: "band:" + a.Name + ":" + l, Terms: []Term{{Kind: "band", Name: a.Name, Label: l}}})
		tvd += math.Abs(b.P[i] - a.P[i])
	}
	c.Dists = append(c.Dists, DistCompare{OutputRef: OutputRef{"band", a.Name}, TVD: c.snap(tvd / 2), KS: math.NaN(), KSAt: math.NaN()})
}

// labelsDiffer says how two bands' categories differ, in a few words.
func labelsDiffer(a, b []string) string {
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i] != b[i] {
			return fmt.Sprintf("its categories differ: A's category %d is %q, B's is %q", i+1, a[i], b[i])
		}
	}
	return fmt.Sprintf("its categories differ: A has %d, B has %d", len(a), len(b))
}

func (c *Comparison) variable(a, b *VarResult) {
	n := a.Name
	term := func(kind string, q float64) *Metric {
		return &Metric{Text: kind + ":" + n, Terms: []Term{{Kind: kind, Name: n, X: q}}}
	}
	c.row("variable", n, "mean", "", a.Unit, term("mean", 0))
	c.row("variable", n, "sd", "", a.Unit, term("sd", 0))
	for _, p := range Percentiles {
		c.row("variable", n, p.Name, "", a.Unit, term("quantile", p.Q))
	}
	if a.Undefined > 0 || b.Undefined > 0 {
		ua, ub := c.undefined(c.A, a), c.undefined(c.B, b)
		d := Diff(ua, ub, c.Sim())
		c.Rows = append(c.Rows, CompareRow{Kind: "variable", Output: n, Quantity: "undefined", Label: cmpLabel(a.UndefinedLabel, b.UndefinedLabel),
			A: ua, B: ub, Delta: d, Significant: significant(d, c.Sim())})
	}
	c.Dists = append(c.Dists, c.distance(a, b))
}

func cmpLabel(a, b string) string {
	if a == "" || a == b {
		return b
	}
	if b == "" {
		return a
	}
	return "A: " + a + "; B: " + b
}

func unitWords(u string) string {
	if u == "" {
		return "no unit"
	}
	return u
}

// undefined is a variable's undefined mass with its Wilson interval.
func (c *Comparison) undefined(r *Result, v *VarResult) Estimate {
	if isSim(r) {
		ci := Wilson(v.UndefinedCount, r.Trials)
		return Estimate{v.Undefined, ci[0], ci[1]}
	}
	return exactly(v.Undefined)
}

// snap makes an exact distance within rounding of zero zero.
func (c *Comparison) snap(d float64) float64 {
	if !c.Sim() && d <= exactTol {
		return 0
	}
	return d
}

// ksC95 is the 95% coefficient of the two-sample Kolmogorov–Smirnov test.
const ksC95 = 1.358

// distance measures a shared variable: TVD, KS, where the CDFs cross and
// which side is swingier.
func (c *Comparison) distance(a, b *VarResult) DistCompare {
	d := DistCompare{OutputRef: OutputRef{"variable", a.Name}, Unit: a.Unit, a: a, b: b, KSAt: math.NaN()}
	na, nb := trialsOf(c.A), trialsOf(c.B)
	sim := c.Sim()
	if sim && na > 0 && nb > 0 {
		d.KSCritical = ksC95 * math.Sqrt(float64(na+nb)/(float64(na)*float64(nb)))
	}
	tvd := math.Abs(a.Undefined-b.Undefined) / 2
	sign := 0
	var last, meet float64
	fresh := false // the value after the last non-zero difference is still to come
	walkLattice(a, b, func(x, pa, pb, fa, fb float64) {
		if fresh {
			meet, fresh = x, false
		}
		tvd += math.Abs(pa-pb) / 2
		diff := fa - fb
		if ad := math.Abs(diff); ad > d.KS {
			d.KS, d.KSAt = ad, x
		}
		// The pointwise 95% half-width of F_A − F_B (0 for exact sides).
		tol := exactTol
		if sim {
			tol = z95 * math.Sqrt(cdfVar(fa, na)+cdfVar(fb, nb))
		}
		s := 0
		switch {
		case diff > tol:
			s = 1
		case diff < -tol:
			s = -1
		}
		if s != 0 {
			if sign != 0 && s != sign {
				d.Crossings = append(d.Crossings, Crossing{After: last, X: meet, To: x})
			}
			sign, last, fresh = s, x, true
		}
	})
	d.TVD, d.KS = c.snap(tvd), c.snap(d.KS)
	if d.KS == 0 {
		d.KSAt = math.NaN()
	}
	sdA, _ := (&Metric{Terms: []Term{{Kind: "sd", Name: a.Name}}}).Eval(c.A)
	sdB, _ := (&Metric{Terms: []Term{{Kind: "sd", Name: a.Name}}}).Eval(c.B)
	d.SDA, d.SDB = sdA, sdB
	if dd := Diff(sdA, sdB, sim); significant(dd, sim) {
		d.Swingier = "A"
		if dd.V > 0 {
			d.Swingier = "B"
		}
	}
	return d
}

func trialsOf(r *Result) int64 {
	if isSim(r) {
		return r.Trials
	}
	return 0
}

// cdfVar is the variance of an empirical CDF value F over n trials (0 for
// an exact one, n = 0).
func cdfVar(f float64, n int64) float64 {
	if n <= 0 {
		return 0
	}
	return f * (1 - f) / float64(n)
}

// walkLattice visits, in increasing order, every value either variable
// gives a mass (or a count): x, the two masses P(X = x) and the two CDFs
// P(X ≤ x). It never builds the union of the supports, which may be far
// apart.
func walkLattice(a, b *VarResult, f func(x, pa, pb, fa, fb float64)) {
	walkIndex(a, b, func(x float64, ia, ib int, fa, fb float64) {
		pa, pb := 0.0, 0.0
		if ia >= 0 {
			pa = a.P[ia]
		}
		if ib >= 0 {
			pb = b.P[ib]
		}
		f(x, pa, pb, fa, fb)
	})
}

// walkIndex is walkLattice with the index of x in each variable (−1 where
// it has none). Values are compared exactly (VarResult.Rat), so two
// lattices, or values held one by one (VarResult.Xs), line up.
func walkIndex(a, b *VarResult, f func(x float64, ia, ib int, fa, fb float64)) {
	i, j := next(a, 0), next(b, 0)
	fa, fb := 0.0, 0.0
	for i < len(a.P) || j < len(b.P) {
		ia, ib := -1, -1
		var x expr.Rat
		switch {
		case j >= len(b.P):
			ia, x = i, a.Rat(i)
		case i >= len(a.P):
			ib, x = j, b.Rat(j)
		default:
			ra, rb := a.Rat(i), b.Rat(j)
			switch c := ra.Cmp(rb); {
			case c < 0:
				ia, x = i, ra
			case c > 0:
				ib, x = j, rb
			default:
				ia, ib, x = i, j, ra
			}
		}
		if ia >= 0 {
			fa += a.P[ia]
			i = next(a, i+1)
		}
		if ib >= 0 {
			fb += b.P[ib]
			j = next(b, j+1)
		}
		f(x.Float(), ia, ib, math.Min(fa, 1), math.Min(fb, 1))
	}
}

// next is the first index from i on with a mass or a count.
func next(v *VarResult, i int) int {
	for i < len(v.P) && v.P[i] == 0 && (i >= len(v.Counts) || v.Counts[i] == 0) {
		i++
	}
	return i
}

// ValuePoint is one value of a shared variable on both sides: its mass
// P(X = x) and its CDF P(X ≤ x), each with its change, with 95% intervals
// for simulated results (Wilson's for each side).
type ValuePoint struct {
	X              float64
	A, B, Delta    Estimate
	FA, FB, FDelta Estimate
	// OnA and OnB say whether x is on each side's lattice: a variable on
	// whole numbers has no value 1.5 to speak of (its mass there is 0).
	OnA, OnB bool
}

// Values lists a shared variable's values on both sides, in increasing
// order on the common lattice (nil for a band).
func (d *DistCompare) Values(c *Comparison) []ValuePoint {
	if d.a == nil {
		return nil
	}
	a, b := d.a, d.b
	sim := c.Sim()
	var out []ValuePoint
	var ca, cb int64 // cumulative counts
	walkIndex(a, b, func(x float64, ia, ib int, fa, fb float64) {
		vp := ValuePoint{X: x, OnA: a.Xs != nil || onLattice(x, a.Den), OnB: b.Xs != nil || onLattice(x, b.Den)}
		var ka, kb int64
		pa, pb := 0.0, 0.0
		if ia >= 0 {
			pa = a.P[ia]
			if ia < len(a.Counts) {
				ka = a.Counts[ia]
			}
		}
		if ib >= 0 {
			pb = b.P[ib]
			if ib < len(b.Counts) {
				kb = b.Counts[ib]
			}
		}
		ca += ka
		cb += kb
		vp.A, vp.B = c.mass(c.A, pa, ka), c.mass(c.B, pb, kb)
		vp.FA, vp.FB = c.mass(c.A, fa, ca), c.mass(c.B, fb, cb)
		vp.Delta, vp.FDelta = Diff(vp.A, vp.B, sim), Diff(vp.FA, vp.FB, sim)
		out = append(out, vp)
	})
	return out
}

// onLattice reports whether x is a multiple of 1/den.
func onLattice(x float64, den int) bool {
	u := x * float64(max(den, 1))
	return math.Abs(u-math.Round(u)) < 1e-9*math.Max(1, math.Abs(u))
}

// mass is a probability of a result with its Wilson interval (from its
// count) when simulated.
func (c *Comparison) mass(r *Result, p float64, k int64) Estimate {
	if !isSim(r) {
		return exactly(p)
	}
	ci := Wilson(k, r.Trials)
	return Estimate{p, ci[0], ci[1]}
}

// Describe sums the comparison up in one line: the largest significant
// changes of probability and of mean, the distance of the first shared
// distribution and which side is swingier.
func (c *Comparison) Describe() string {
	var parts []string
	var big *CompareRow
	var mean *CompareRow
	for i := range c.Rows {
		r := &c.Rows[i]
		if !r.Significant {
			continue
		}
		if r.Prob() && (big == nil || math.Abs(r.Delta.V) > math.Abs(big.Delta.V)) {
			big = r
		}
		if r.Quantity == "mean" && mean == nil {
			mean = r
		}
	}
	if mean != nil {
		parts = append(parts, fmt.Sprintf("mean %s %s → %s", mean.Output, fmtNum(mean.A.V), fmtNum(mean.B.V)))
	}
	if big != nil {
		parts = append(parts, fmt.Sprintf("largest change of a probability: %s %s → %s", big.What(), fmtNum(big.A.V), fmtNum(big.B.V)))
	}
	if len(c.Dists) > 0 {
		d := c.Dists[0]
		s := fmt.Sprintf("%s: TVD %s", d.Name, fmtNum(d.TVD))
		if d.Kind == "variable" {
			s += ", KS " + fmtNum(d.KS)
			if len(d.Crossings) > 0 {
				var xs []string
				for _, cr := range d.Crossings {
					xs = append(xs, fmtNum(cr.X))
				}
				s += ", CDFs cross at " + strings.Join(xs, ", ")
			}
			if d.Swingier != "" {
				hi, lo := d.SDB.V, d.SDA.V
				if d.Swingier == "A" {
					hi, lo = lo, hi
				}
				s += fmt.Sprintf(", %s is swingier (sd %s vs %s)", d.Swingier, fmtNum(hi), fmtNum(lo))
			}
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 || (mean == nil && big == nil) {
		what := "no change"
		if c.Sim() {
			what = fmt.Sprintf("no significant change at n=%d", c.A.Trials)
		}
		parts = append([]string{what}, parts...)
	}
	return strings.Join(parts, "; ")
}

// What names a row in words: "P(success)", "P(mos_band = yes)", "mean
// damage", "P(time undefined)".
func (r CompareRow) What() string {
	switch {
	case r.Kind == "event":
		return "P(" + r.Output + ")"
	case r.Kind == "band":
		return "P(" + r.Output + " = " + r.Label + ")"
	case r.Quantity == "undefined":
		return "P(" + r.Output + " undefined)"
	}
	return r.Quantity + " " + r.Output
}

// fmtNum prints a number in at most four significant decimals.
func fmtNum(v float64) string {
	s := fmt.Sprintf("%.4g", v)
	if s == "-0" {
		return "0"
	}
	return s
}
