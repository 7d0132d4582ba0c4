package engine

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// A Metric is one number read from a result, written as a sum of terms
// joined by "+":
//
//	event:NAME          P(event)
//	band:NAME:LABEL     the mass of one category of a band
//	mean:VAR            E[VAR] (given that VAR is defined)
//	sd:VAR              the standard deviation of VAR (likewise)
//	p:VAR<=x            P(VAR <= x); also <, >=, >, = (over all outcomes:
//	                    an undefined VAR satisfies no comparison)
//	quantile:VAR:q      the smallest value v with P(VAR <= v | defined) >= q
//
// e.g. "event:hit+event:crit". Sweeps, solve and compare read results
// through it; a simulated result gives each term its 95% interval.
type Metric struct {
	Text  string
	Terms []Term
}

// Term is one summand of a Metric.
type Term struct {
	// Kind is "event", "band", "mean", "sd", "p" or "quantile".
	Kind string
	// Name is the event, band or variable read.
	Name string
	// Label is the band's category (Kind "band").
	Label string
	// Op is the comparison of a "p" term: "<=", "<", ">=", ">" or "=".
	Op string
	// X is the threshold of a "p" term, or the level q of a "quantile".
	X float64
}

// Estimate is a metric's value with its 95% interval; Lo == Hi == V for
// an exact result. The interval of a sum adds its terms' intervals end
// to end, which covers the sum whatever the terms' correlation.
type Estimate struct {
	V, Lo, Hi float64
}

// Covers reports whether x lies in the estimate's interval.
func (e Estimate) Covers(x float64) bool { return e.Lo <= x && x <= e.Hi }

// MetricKinds names the kinds of term, for error messages.
const MetricKinds = "event:NAME, band:NAME:LABEL, mean:VAR, sd:VAR, p:VAR<=x (or <, >=, >, =), quantile:VAR:q, or a sum of them joined by +"

// ParseMetric parses a metric; its errors name the part that is wrong.
func ParseMetric(s string) (*Metric, error) {
	text := strings.TrimSpace(s)
	if text == "" {
		return nil, fmt.Errorf("empty metric (want %s)", MetricKinds)
	}
	m := &Metric{Text: text}
	for _, part := range strings.Split(text, "+") {
		t, err := parseTerm(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("metric %q: %w", text, err)
		}
		m.Terms = append(m.Terms, t)
	}
	return m, nil
}

func parseTerm(s string) (Term, error) {
	kind, rest, ok := strings.Cut(s, ":")
	if !ok || rest == "" {
		return Term{}, fmt.Errorf("%q is not one of %s", s, MetricKinds)
	}
	t := Term{Kind: kind}
	switch kind {
	case "event", "mean", "sd":
		t.Name = rest
	case "band":
		name, label, ok := strings.Cut(rest, ":")
		if !ok || name == "" || label == "" {
			return Term{}, fmt.Errorf("%q: a band term is band:NAME:LABEL", s)
		}
		t.Name, t.Label = name, label
	case "p":
		i := strings.IndexAny(rest, "<>=")
		if i <= 0 {
			return Term{}, fmt.Errorf("%q: a probability term is p:VAR<=x (or <, >=, >, =)", s)
		}
		t.Name = rest[:i]
		op := rest[i:]
		switch {
		case strings.HasPrefix(op, "<="), strings.HasPrefix(op, ">="):
			t.Op = op[:2]
		default:
			t.Op = op[:1]
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(op[len(t.Op):]), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return Term{}, fmt.Errorf("%q: %q is not a number", s, op[len(t.Op):])
		}
		t.X = x
	case "quantile":
		i := strings.LastIndex(rest, ":")
		if i <= 0 {
			return Term{}, fmt.Errorf("%q: a quantile term is quantile:VAR:q with 0 < q < 1", s)
		}
		q, err := strconv.ParseFloat(rest[i+1:], 64)
		if err != nil || !(q > 0 && q < 1) {
			return Term{}, fmt.Errorf("%q: the level %q is not a number strictly between 0 and 1", s, rest[i+1:])
		}
		t.Name, t.X = rest[:i], q
	default:
		return Term{}, fmt.Errorf("%q: unknown kind %q (want %s)", s, kind, MetricKinds)
	}
	// An event may be named in words (a process's absorbing state:
	// "absorbed:level 4 (dying)"); no other name holds a space.
	spaced := strings.ContainsAny(t.Name, " \t")
	if t.Name == "" || spaced && (t.Kind != "event" || strings.TrimSpace(t.Name) != t.Name) {
		return Term{}, fmt.Errorf("%q: missing or malformed name", s)
	}
	return t, nil
}

// Probability reports whether every term is a probability (event, band
// or p), so that the metric lies in [0, len(Terms)].
func (m *Metric) Probability() bool {
	for _, t := range m.Terms {
		if t.Kind != "event" && t.Kind != "band" && t.Kind != "p" {
			return false
		}
	}
	return true
}

// Range is the interval every value of the metric lies in: [0, n] for a
// sum of n probabilities, unbounded otherwise.
func (m *Metric) Range() (lo, hi float64) {
	if m.Probability() {
		return 0, float64(len(m.Terms))
	}
	return math.Inf(-1), math.Inf(1)
}

// Check reports the first term that names an output the result (or a
// result of the same model) does not have.
func (m *Metric) Check(r *Result) error {
	for _, t := range m.Terms {
		if err := t.check(r); err != nil {
			return err
		}
	}
	return nil
}

func (t Term) check(r *Result) error {
	switch t.Kind {
	case "event":
		if r.Event(t.Name) == nil {
			return fmt.Errorf("%s has no event %q (its events: %s)", r.Mechanic, t.Name, orNone(eventNames(r)))
		}
	case "band":
		b := r.band(t.Name)
		if b == nil {
			return fmt.Errorf("%s has no band %q (its bands: %s)", r.Mechanic, t.Name, orNone(bandNames(r)))
		}
		if !slices.Contains(b.Labels, t.Label) {
			return fmt.Errorf("band %s of %s has no category %q (its categories: %s)", t.Name, r.Mechanic, t.Label, strings.Join(b.Labels, ", "))
		}
	default:
		if r.Var(t.Name) == nil {
			return fmt.Errorf("%s has no variable %q (its variables: %s)", r.Mechanic, t.Name, orNone(varNames(r)))
		}
	}
	return nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func eventNames(r *Result) []string {
	var s []string
	for _, e := range r.Events {
		s = append(s, e.Name)
	}
	return s
}

func bandNames(r *Result) []string {
	var s []string
	for _, b := range r.Bands {
		s = append(s, b.Name)
	}
	return s
}

func varNames(r *Result) []string {
	var s []string
	for _, v := range r.Vars {
		s = append(s, v.Name)
	}
	return s
}

func (r *Result) band(name string) *BandResult {
	for i := range r.Bands {
		if r.Bands[i].Name == name {
			return &r.Bands[i]
		}
	}
	return nil
}

// Eval reads the metric from a result. A variable's distribution must
// still be there for "p" and "quantile" terms.
func (m *Metric) Eval(r *Result) (Estimate, error) {
	var sum Estimate
	for _, t := range m.Terms {
		e, err := t.eval(r)
		if err != nil {
			return Estimate{}, err
		}
		sum.V += e.V
		sum.Lo += e.Lo
		sum.Hi += e.Hi
	}
	return sum, nil
}

// z95 is the two-sided 95% normal quantile.
const z95 = 1.959963984540054

func exactly(v float64) Estimate { return Estimate{v, v, v} }

func (t Term) eval(r *Result) (Estimate, error) {
	if err := t.check(r); err != nil {
		return Estimate{}, err
	}
	sim := r.Engine == Sim && r.Trials > 0
	switch t.Kind {
	case "event":
		e := r.Event(t.Name)
		if sim {
			return Estimate{e.P, e.CI[0], e.CI[1]}, nil
		}
		return exactly(e.P), nil
	case "band":
		b := r.band(t.Name)
		j := slices.Index(b.Labels, t.Label)
		if sim && len(b.CI) > j {
			return Estimate{b.P[j], b.CI[j][0], b.CI[j][1]}, nil
		}
		return exactly(b.P[j]), nil
	}
	v := r.Var(t.Name)
	n := float64(r.Trials) - float64(v.UndefinedCount)
	switch t.Kind {
	case "mean":
		if sim && n > 0 {
			h := z95 * v.Stats.SD / math.Sqrt(n)
			return Estimate{v.Stats.Mean, v.Stats.Mean - h, v.Stats.Mean + h}, nil
		}
		return exactly(v.Stats.Mean), nil
	case "sd":
		if sim && n > 1 {
			h := z95 * v.Stats.SD / math.Sqrt(2*(n-1))
			return Estimate{v.Stats.SD, math.Max(0, v.Stats.SD-h), v.Stats.SD + h}, nil
		}
		return exactly(v.Stats.SD), nil
	}
	if v.P == nil {
		return Estimate{}, fmt.Errorf("metric %s:%s needs the distribution of %s, which was not kept", t.Kind, t.Name, t.Name)
	}
	if t.Kind == "p" {
		var p float64
		var k int64
		for i, pi := range v.P {
			if compare(v.Value(i), t.Op, t.X) {
				p += pi
				if i < len(v.Counts) {
					k += v.Counts[i]
				}
			}
		}
		p = min(max(p, 0), 1)
		if sim {
			ci := Wilson(k, r.Trials)
			return Estimate{p, ci[0], ci[1]}, nil
		}
		return exactly(p), nil
	}
	// quantile, given that the variable is defined
	q := quantile(v, t.X)
	if sim && n > 0 {
		h := z95 * math.Sqrt(t.X*(1-t.X)/n)
		return Estimate{q, quantile(v, max(t.X-h, 1e-12)), quantile(v, min(t.X+h, 1))}, nil
	}
	return exactly(q), nil
}

func compare(a float64, op string, b float64) bool {
	switch op {
	case "<=":
		return a <= b
	case "<":
		return a < b
	case ">=":
		return a >= b
	case ">":
		return a > b
	}
	return a == b
}

// quantile is the smallest value v of the variable with
// P(X <= v | defined) >= q.
func quantile(v *VarResult, q float64) float64 {
	total := 0.0
	for _, p := range v.P {
		total += p
	}
	if total <= 0 {
		return math.NaN()
	}
	// A relative slack absorbs rounding in the running sum, so that a
	// level met exactly (P(X <= v) = 1/2 at q = 0.5) stops at v.
	acc := 0.0
	for i, p := range v.P {
		acc += p
		if acc >= q*total*(1-1e-12) {
			return v.Value(i)
		}
	}
	return v.Value(len(v.P) - 1)
}

// Wilson is the Wilson score 95% interval for k successes in n trials.
func Wilson(k, n int64) [2]float64 {
	if n == 0 {
		return [2]float64{0, 1}
	}
	const z = z95
	p := float64(k) / float64(n)
	nf := float64(n)
	den := 1 + z*z/nf
	center := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	ci := [2]float64{math.Max(0, center-half), math.Min(1, center+half)}
	// The interval reaches 0 when nothing was seen and 1 when everything
	// was, exactly: not 1 − 1e−16 because center + half rounded.
	if k == 0 {
		ci[0] = 0
	}
	if k == n {
		ci[1] = 1
	}
	return ci
}
