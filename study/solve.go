package study

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
)

// Solve is goal seeking: the settings of one or more varied parameters at
// which a mechanic's metrics meet targets ("event:success=0.6",
// "mean:damage>=10", "0.55<=event:success<=0.65"), optionally the one
// that minimizes or maximizes a metric among them.
//
// One varied parameter is searched: a metric found monotone (checked at
// every setting evaluated) is bisected, so a range of 10⁶ settings costs
// about twenty evaluations; a metric that is not is scanned, up to
// ScanMax settings. A real parameter varied over a..b without a step is
// searched to Tolerance. Several parameters are scanned over their whole
// grid, which is at most MaxGridPoints settings.
type Solve struct {
	Mechanic *mechanics.Mechanic
	Base     mechanics.Config
	// Vary are the varied parameters as given: "name=a..b[:step]" or
	// "name=v1,v2,…" (the first varies fastest in a grid).
	Vary []string
	// Targets are the goals as given (see ParseTarget).
	Targets []string
	// Minimize or Maximize (at most one) picks among the settings that
	// meet every inequality target.
	Minimize, Maximize string
	// Tolerance is how closely a real parameter is searched (0: the
	// default, DefaultTolerance of its range).
	Tolerance float64
	Engine    Engine
	// ScanMax bounds the settings a scan evaluates (0: DefaultScanMax).
	ScanMax int64

	axes      []SolveAxis
	targets   []Target
	objective *engine.Metric
	// metrics are the distinct metrics the targets and the objective read,
	// in order; each target's and the objective's index into them.
	metrics   []*engine.Metric
	targetAt  []int
	objAt     int
	validated bool
	// record, when set, is told every result the solve computes (a shard
	// keeps them for merge).
	record func(mechanics.Config, *engine.Result)
}

// Limits of a solve.
const (
	// MaxSpan bounds the settings of one searched parameter: a search
	// evaluates a few dozen of them, never lists them.
	MaxSpan = 1_000_000_000
	// DefaultScanMax is how many settings a solve evaluates one by one when
	// a metric turns out not to be monotone.
	DefaultScanMax = 10_000
	// SmallScan is the largest range of one parameter that is scanned
	// whole rather than bisected.
	SmallScan = 32
	// maxSolveAxes bounds the varied parameters of a solve.
	maxSolveAxes = 3
)

// Target is one goal: a metric equal to a value (the setting nearest to it
// is sought), or within bounds.
type Target struct {
	Text   string
	Metric *engine.Metric
	// Equal: the metric should be Value. Otherwise it must lie between Lo
	// and Hi (either may be infinite), LoOpen and HiOpen making a bound
	// strict.
	Equal          bool
	Value          float64
	Lo, Hi         float64
	LoOpen, HiOpen bool
}

// TargetForms describes the targets ParseTarget reads, for messages.
const TargetForms = "METRIC=v, METRIC>=v, METRIC<=v, METRIC>v, METRIC<v or lo<=METRIC<=hi"

// ParseTarget reads a target: METRIC=v, METRIC>=v, METRIC<=v, METRIC>v,
// METRIC<v, or a range lo<=METRIC<=hi (or with <). The comparison is read
// from the right and a range's lower bound from the left, so a metric may
// hold comparisons of its own: "p:damage<=5>=0.5" is P(damage ≤ 5) ≥ 0.5.
// Errors are bad input.
func ParseTarget(s string) (Target, error) {
	text := strings.TrimSpace(s)
	t := Target{Text: text, Lo: math.Inf(-1), Hi: math.Inf(1)}
	bad := func(why string) (Target, error) {
		return Target{}, mechanics.Invalid("--target %q: %s (want %s)", text, why, TargetForms)
	}
	body := text
	// A range's lower bound: a number, then < or <=.
	if i := strings.IndexByte(text, '<'); i > 0 {
		if lo, ok := finiteNum(text[:i]); ok {
			t.Lo, t.LoOpen = lo, true
			body = text[i+1:]
			if strings.HasPrefix(body, "=") {
				t.LoOpen, body = false, body[1:]
			}
		}
	}
	op, metric, v, ok := cutRight(body)
	if !ok {
		return bad("no comparison with a number at its end")
	}
	ranged := !math.IsInf(t.Lo, -1)
	switch {
	case ranged && op != "<" && op != "<=":
		return bad("a range is written lo<=METRIC<=hi")
	case op == "=":
		t.Equal, t.Value = true, v
	case op == ">=", op == ">":
		t.Lo, t.LoOpen = v, op == ">"
	default:
		t.Hi, t.HiOpen = v, op == "<"
	}
	m, err := engine.ParseMetric(metric)
	if err != nil {
		return Target{}, mechanics.Invalid("--target %q: %v", text, err)
	}
	t.Metric = m
	if ranged && (t.Lo > t.Hi || (t.Lo == t.Hi && (t.LoOpen || t.HiOpen))) {
		return Target{}, mechanics.Invalid("--target %q: the range is empty (its lower bound is not below its upper one)", text)
	}
	return t, nil
}

// cutRight splits "METRIC op number" at the last comparison followed by a
// number.
func cutRight(s string) (op, metric string, v float64, ok bool) {
	for j := len(s) - 1; j > 0; j-- {
		c := s[j]
		if c != '=' && c != '<' && c != '>' {
			continue
		}
		v, ok := finiteNum(s[j+1:])
		if !ok {
			return "", "", 0, false
		}
		op = s[j : j+1]
		if c == '=' && strings.ContainsRune("<>=", rune(s[j-1])) {
			op = s[j-1 : j+1]
		}
		metric = strings.TrimSpace(s[:j+1-len(op)])
		if op == "==" {
			op = "="
		}
		return op, metric, v, metric != ""
	}
	return "", "", 0, false
}

func finiteNum(s string) (float64, bool) {
	v, err := mechanics.ParseNumber(strings.TrimSpace(s))
	return v, err == nil
}

// Holds reports whether a value meets an inequality target (an equality
// target holds only at its value). Values within a relative 10⁻¹² of a
// bound count as on it: an exact 1/2 summed in floating point may read
// 0.49999999999999994.
func (t *Target) Holds(v float64) bool {
	if math.IsNaN(v) {
		return false
	}
	if t.Equal {
		return t.atLeast(v) && !t.over(v)
	}
	return t.aboveLo(v) && t.belowHi(v)
}

// slack is how close to a bound a value counts as on it.
func slack(b float64) float64 { return 1e-12 * math.Max(1, math.Abs(b)) }

// atLeast and over compare a value with an equality target's value.
func (t *Target) atLeast(v float64) bool { return v >= t.Value-slack(t.Value) }
func (t *Target) over(v float64) bool    { return v > t.Value+slack(t.Value) }

func (t *Target) aboveLo(v float64) bool {
	if t.LoOpen {
		return v > t.Lo+slack(t.Lo)
	}
	return v >= t.Lo-slack(t.Lo)
}

func (t *Target) belowHi(v float64) bool {
	if t.HiOpen {
		return v < t.Hi-slack(t.Hi)
	}
	return v <= t.Hi+slack(t.Hi)
}

// miss is how far a value is from meeting the target (0 when it does; for
// an equality target the distance to its value).
func (t *Target) miss(v float64) float64 {
	switch {
	case math.IsNaN(v):
		return math.Inf(1)
	case t.Equal:
		return math.Abs(v - t.Value)
	case !t.aboveLo(v):
		return t.Lo - v
	case !t.belowHi(v):
		return v - t.Hi
	}
	return 0
}

// straddles reports a simulated estimate whose interval holds a bound of
// the target on both sides: more trials would be needed to say whether it
// holds.
func (t *Target) straddles(e engine.Estimate) bool {
	if t.Equal {
		return false
	}
	in := func(b float64) bool { return !math.IsInf(b, 0) && e.Lo < b && b < e.Hi }
	return in(t.Lo) || in(t.Hi)
}

// String is the target in canonical form: "event:success >= 0.6",
// "0.55 <= event:success <= 0.65".
func (t *Target) String() string {
	m := t.Metric.Text
	if t.Equal {
		return m + " = " + fmtNum(t.Value)
	}
	lo, hi := "<=", "<="
	if t.LoOpen {
		lo = "<"
	}
	if t.HiOpen {
		hi = "<"
	}
	switch {
	case math.IsInf(t.Lo, -1):
		return m + " " + hi + " " + fmtNum(t.Hi)
	case math.IsInf(t.Hi, 1):
		return m + " " + strings.NewReplacer("<=", ">=", "<", ">").Replace(lo) + " " + fmtNum(t.Lo)
	}
	return fmtNum(t.Lo) + " " + lo + " " + m + " " + hi + " " + fmtNum(t.Hi)
}

// checkRange refuses a target outside the values its metric can take (a
// probability lies in [0, 1], a sum of n of them in [0, n]).
func (t *Target) checkRange() error {
	lo, hi := t.Metric.Range()
	if math.IsInf(lo, -1) {
		return nil
	}
	out := func(v float64) bool { return v < lo || v > hi }
	what := "a probability lies in [0, 1]"
	if hi > 1 {
		what = fmt.Sprintf("a sum of %d probabilities lies in [0, %s]", len(t.Metric.Terms), fmtNum(hi))
	}
	switch {
	case t.Equal && out(t.Value):
		return mechanics.Invalid("--target %q: %s is outside what %s can be (%s)", t.Text, fmtNum(t.Value), t.Metric.Text, what)
	case !math.IsInf(t.Lo, -1) && out(t.Lo), !math.IsInf(t.Hi, 1) && out(t.Hi):
		return mechanics.Invalid("--target %q: a bound is outside what %s can be (%s)", t.Text, t.Metric.Text, what)
	case (t.LoOpen && t.Lo >= hi) || (t.HiOpen && t.Hi <= lo):
		return mechanics.Invalid("--target %q can never hold (%s)", t.Text, what)
	}
	return nil
}

// SolveAxis is one varied parameter of a solve: a span of settings Lo +
// i·Step (i < N; the last is Hi for a real parameter) or a list of values
// (Labels for words: an option, a named choice). A span is never listed:
// a search reads the settings it evaluates.
type SolveAxis struct {
	Name   string
	Lo, Hi float64
	Step   float64
	N      int64
	Values []float64
	Labels []string
	// Real is a real parameter searched continuously: Step is then the
	// tolerance.
	Real bool
	// DefaultStep is set when Step is the default tolerance.
	DefaultStep bool
}

// List reports an axis of listed values.
func (a *SolveAxis) List() bool { return a.Values != nil }

// At is the setting at index i.
func (a *SolveAxis) At(i int64) float64 {
	if a.Values != nil {
		return a.Values[i]
	}
	if a.Real && i == a.N-1 {
		return a.Hi
	}
	return decimal(a.Lo + float64(i)*a.Step)
}

// Text is the setting at index i as --set takes it.
func (a *SolveAxis) Text(i int64) string {
	if a.Labels != nil {
		return a.Labels[i]
	}
	return mechanics.FormatNum(a.At(i))
}

// RangeText is the axis as a range for people: "1..14", "0..40 by 0.01",
// "4, 6, 8".
func (a *SolveAxis) RangeText() string {
	if a.List() {
		var s []string
		for i := range a.N {
			s = append(s, a.Text(i))
		}
		return strings.Join(s, ", ")
	}
	r := mechanics.FormatNum(a.Lo) + ".." + mechanics.FormatNum(a.Hi)
	if a.Step != 1 && !a.Real {
		r += " by " + mechanics.FormatNum(a.Step)
	}
	return r
}

// decimal rounds to the decimal a person would type (0.1·3 = 0.3).
func decimal(v float64) float64 {
	if r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64); err == nil {
		return r
	}
	return v
}

// DefaultTolerance is the tolerance of a real parameter searched over
// [lo, hi]: the power of ten at or below a thousandth of the range.
func DefaultTolerance(lo, hi float64) float64 {
	w := hi - lo
	if w <= 0 {
		return 1
	}
	return math.Pow(10, math.Floor(math.Log10(w/1000)+1e-9))
}

// param finds a mechanic's parameter by name ("tn" or "ag.skill_test.tn").
func param(m *mechanics.Mechanic, name string) *mechanics.Param {
	name = strings.TrimPrefix(name, m.ID+".")
	for i := range m.Params {
		if m.Params[i].Name == name {
			return &m.Params[i]
		}
	}
	return nil
}

// parseSolveAxis reads one --vary of a solve. search is set when the axis
// is searched alone (a real parameter is then searched continuously unless
// a step is given); in a grid every axis is listed, by its step, else by
// the tolerance (a real parameter), else by 1.
func (s *Solve) parseSolveAxis(v string, search bool) (SolveAxis, error) {
	name, rng, ok := strings.Cut(v, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return SolveAxis{}, mechanics.Invalid("--vary %q is not name=a..b[:step] or name=v1,v2,…", v)
	}
	if !strings.Contains(rng, "..") {
		a, err := ParseAxis(v)
		if err != nil {
			return SolveAxis{}, err
		}
		return SolveAxis{Name: a.Name, Values: a.Values, Labels: a.Labels, N: int64(len(a.Values))}, nil
	}
	p := param(s.Mechanic, name)
	if p == nil {
		if err := s.Mechanic.Set(s.Base.Clone(), name+"=0"); err != nil && !strings.Contains(err.Error(), "is not one of") {
			return SolveAxis{}, err
		}
		return SolveAxis{}, mechanics.Invalid("--vary %s=%s: %s is an option; list its values (%s=a,b,…)", name, rng, name, name)
	}
	lo, hi, step, hasStep, err := parseBounds(rng)
	if err != nil {
		return SolveAxis{}, err
	}
	a := SolveAxis{Name: p.Name, Lo: lo, Hi: hi, Step: 1}
	// The names of a one-line expression are declared real (they could be
	// anything), but are whole numbers as often as not: they are searched
	// continuously only when --tolerance asks for it.
	oneLiner := s.Mechanic.ID == rules.ExprID && s.Mechanic.RuleText != ""
	switch {
	case hasStep:
		a.Step = step
	case p.Real && search && (!oneLiner || s.Tolerance > 0):
		a.Real, a.Step = true, s.Tolerance
		if a.Step == 0 {
			a.Step, a.DefaultStep = DefaultTolerance(lo, hi), true
		}
	case p.Real && s.Tolerance > 0:
		a.Step = s.Tolerance
	}
	n := math.Floor((hi-lo)/a.Step+1e-9) + 1
	if a.Real && decimal(lo+(n-1)*a.Step) < hi {
		n++ // the range's end is a setting too
	}
	if n > MaxSpan {
		return SolveAxis{}, mechanics.Invalid("--vary %s=%s has more than %d settings; raise the step", name, rng, MaxSpan)
	}
	a.N = int64(n)
	if !a.Real {
		a.Hi = a.At(a.N - 1)
	}
	return a, nil
}

// parseBounds reads "a..b" or "a..b:step" (bounds and step finite, the
// step positive, b not below a). Errors are bad input.
func parseBounds(s string) (lo, hi, step float64, hasStep bool, err error) {
	body, st := s, ""
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		body, st, hasStep = s[:i], s[i+1:], true
	}
	a, b, found := strings.Cut(body, "..")
	if !found || strings.HasPrefix(b, ".") {
		return 0, 0, 0, false, mechanics.Invalid("range %q is not a..b or a..b:step", s)
	}
	num := func(what, x string) (float64, error) {
		v, ok := finiteNum(x)
		switch {
		case !ok:
			return 0, mechanics.Invalid("range %q: %s %q is not a finite number", s, what, x)
		case math.Abs(v) > 1e15 || (v != 0 && math.Abs(v) < 1e-9):
			return 0, mechanics.Invalid("range %q: %s %q is out of range (use values between 1e-9 and 1e15 in size)", s, what, x)
		}
		return v, nil
	}
	if lo, err = num("start", a); err != nil {
		return
	}
	if hi, err = num("end", b); err != nil {
		return
	}
	step = 1
	if hasStep {
		if step, err = num("step", st); err != nil {
			return
		}
		if step <= 0 {
			return 0, 0, 0, false, mechanics.Invalid("range %q: the step must be positive", s)
		}
	}
	if hi < lo {
		return 0, 0, 0, false, mechanics.Invalid("range %q is empty: its end is below its start", s)
	}
	return lo, hi, step, hasStep, nil
}

// Validate reads the axes, targets and objective and checks them against
// the mechanic before anything runs. Errors are bad input.
func (s *Solve) Validate() error {
	if s.validated {
		return nil
	}
	if err := s.Engine.Validate(s.Mechanic); err != nil {
		return err
	}
	if math.IsNaN(s.Tolerance) || math.IsInf(s.Tolerance, 0) || s.Tolerance < 0 {
		return mechanics.Invalid("--tolerance must be a positive number, got %g", s.Tolerance)
	}
	if s.ScanMax < 0 {
		return mechanics.Invalid("the scan limit must be positive, got %d", s.ScanMax)
	}
	if len(s.Vary) == 0 || len(s.Vary) > maxSolveAxes {
		return mechanics.Invalid("solve varies one to %d parameters (--vary name=a..b), got %d", maxSolveAxes, len(s.Vary))
	}
	s.axes = nil
	seen := map[string]bool{}
	for _, v := range s.Vary {
		a, err := s.parseSolveAxis(v, len(s.Vary) == 1)
		if err != nil {
			return err
		}
		if seen[a.Name] {
			return mechanics.Invalid("%s is varied twice", a.Name)
		}
		seen[a.Name] = true
		s.axes = append(s.axes, a)
	}
	if len(s.axes) > 1 {
		n := int64(1)
		for _, a := range s.axes {
			if a.N > MaxAxisPoints {
				return mechanics.Invalid("--vary %s has %d settings; a grid of several parameters takes at most %d per parameter (raise the step)", a.Name, a.N, MaxAxisPoints)
			}
			if n *= a.N; n > MaxGridPoints {
				return mechanics.Invalid("the grid has more than %d settings; narrow a range or raise its step", MaxGridPoints)
			}
		}
	}
	if err := s.parseGoals(); err != nil {
		return err
	}
	// The ends of every axis must be settings the mechanic takes, and the
	// metrics outputs of its model.
	for _, corner := range []int64{0, -1} {
		c := s.Base.Clone()
		for k := range s.axes {
			a := &s.axes[k]
			i := corner
			if i < 0 {
				i = a.N - 1
			}
			if err := s.Mechanic.Set(c, a.Name+"="+a.Text(i)); err != nil {
				return err
			}
		}
		if err := s.checkMetrics(c); err != nil {
			return err
		}
	}
	for k := range s.axes {
		if a := &s.axes[k]; a.List() {
			for i := range a.N {
				if err := s.Mechanic.Set(s.Base.Clone(), a.Name+"="+a.Text(i)); err != nil {
					return err
				}
			}
		}
	}
	s.validated = true
	return nil
}

// parseGoals reads the targets and the objective, refusing targets a
// metric cannot take and targets that contradict each other.
func (s *Solve) parseGoals() error {
	s.targets, s.metrics, s.targetAt, s.objective, s.objAt = nil, nil, nil, nil, -1
	if s.Minimize != "" && s.Maximize != "" {
		return mechanics.Invalid("give --minimize or --maximize, not both")
	}
	if len(s.Targets) == 0 && s.Minimize == "" && s.Maximize == "" {
		return mechanics.Invalid("solve needs a --target METRIC=VALUE (or %s), or --minimize/--maximize METRIC", TargetForms)
	}
	add := func(m *engine.Metric) int {
		for i, have := range s.metrics {
			if have.Text == m.Text {
				return i
			}
		}
		s.metrics = append(s.metrics, m)
		return len(s.metrics) - 1
	}
	equal := -1
	for _, ts := range s.Targets {
		t, err := ParseTarget(ts)
		if err != nil {
			return err
		}
		if err := t.checkRange(); err != nil {
			return err
		}
		if t.Equal {
			if equal >= 0 {
				return mechanics.Invalid("give one METRIC=VALUE target (got %q and %q); write the others as ranges (lo<=METRIC<=hi)", s.targets[equal].Text, t.Text)
			}
			equal = len(s.targets)
		}
		s.targets = append(s.targets, t)
		s.targetAt = append(s.targetAt, add(t.Metric))
	}
	if err := contradiction(s.targets); err != nil {
		return err
	}
	if obj := s.Minimize + s.Maximize; obj != "" {
		if equal >= 0 {
			return mechanics.Invalid("the target %q already picks the setting nearest to it; write it as a range (lo<=METRIC<=hi) to --minimize or --maximize within it", s.targets[equal].Text)
		}
		m, err := engine.ParseMetric(obj)
		if err != nil {
			return mechanics.Invalid("--minimize/--maximize: %v", err)
		}
		s.objective = m
		s.objAt = add(m)
	}
	return nil
}

// contradiction refuses targets on one metric that no value meets
// together (>=0.7 and <=0.6; =0.5 and >0.5).
func contradiction(ts []Target) error {
	for i := range ts {
		lo, hi, loOpen, hiOpen := math.Inf(-1), math.Inf(1), false, false
		var with []string
		for j := range ts[:i+1] {
			t := &ts[j]
			if t.Metric.Text != ts[i].Metric.Text {
				continue
			}
			with = append(with, t.String())
			tl, th, tlo, tho := t.Lo, t.Hi, t.LoOpen, t.HiOpen
			if t.Equal {
				tl, th, tlo, tho = t.Value, t.Value, false, false
			}
			if tl > lo || (tl == lo && tlo) {
				lo, loOpen = tl, tlo
			}
			if th < hi || (th == hi && tho) {
				hi, hiOpen = th, tho
			}
		}
		if lo > hi || (lo == hi && (loOpen || hiOpen)) {
			return mechanics.Invalid("contradictory targets: %s cannot all hold", strings.Join(with, " and "))
		}
	}
	return nil
}

// checkMetrics refuses a metric that names no output of the model at c,
// before anything runs.
func (s *Solve) checkMetrics(c mechanics.Config) error {
	spec, err := s.Mechanic.Model(c)
	if err != nil {
		return err
	}
	r := &engine.Result{Mechanic: s.Mechanic.ID}
	for _, part := range spec.Parts() {
		for _, e := range part.Events {
			r.Events = append(r.Events, engine.EventResult{Name: e.Name})
		}
		for _, v := range part.Vars {
			r.Vars = append(r.Vars, engine.VarResult{Name: v.Name})
		}
		for _, b := range part.Bands {
			r.Bands = append(r.Bands, engine.BandResult{Name: b.Name, Labels: b.Labels})
		}
	}
	for _, m := range s.metrics {
		if err := m.Check(r); err != nil {
			return mechanics.AsInput(err)
		}
	}
	return nil
}

// Axes are the varied parameters (after Validate).
func (s *Solve) Axes() []SolveAxis { return s.axes }

// Goals are the parsed targets (after Validate).
func (s *Solve) Goals() []Target { return s.targets }

// Metrics are the distinct metrics the solve reads (after Validate).
func (s *Solve) Metrics() []*engine.Metric { return s.metrics }

// Searched reports a solve that searches one parameter (bisection, or a
// scan when a metric is not monotone) rather than listing a grid: its
// settings depend on the results.
func (s *Solve) Searched() bool {
	return len(s.axes) == 1 && !s.axes[0].List() && s.axes[0].N > SmallScan
}

// scanMax is the scan limit.
func (s *Solve) scanMax() int64 {
	if s.ScanMax > 0 {
		return s.ScanMax
	}
	return DefaultScanMax
}

// config is the configuration at the axes' indices idx.
func (s *Solve) config(idx []int64) (mechanics.Config, error) {
	c := s.Base.Clone()
	for k := range s.axes {
		a := &s.axes[k]
		if err := s.Mechanic.Set(c, a.Name+"="+a.Text(idx[k])); err != nil {
			return c, err
		}
	}
	return c, nil
}

// fmtNum prints a metric's value or a target for people: four decimals at
// most, three significant digits for tiny values.
func fmtNum(v float64) string {
	switch {
	case math.IsNaN(v):
		return "undefined"
	case math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'f', -1, 64)
	case v != 0 && math.Abs(v) < 0.001:
		return strconv.FormatFloat(v, 'g', 3, 64)
	case math.Abs(v) >= 1e7:
		return strconv.FormatFloat(v, 'g', 7, 64)
	}
	r := math.Round(v*1e4) / 1e4
	if r == 0 {
		r = 0 // no "-0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}
