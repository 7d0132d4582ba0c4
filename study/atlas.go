package study

import (
	"bytes"
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
)

// AtlasPlan is the plan of the cross-system atlas, eleven charts that
// compare the five systems (docs/reports.md lists them), run by
// `oddsmith atlas`; examples/atlas.toml is a byte-identical copy for
// designers to edit and run with `oddsmith run`.
//
//go:embed atlas.toml
var AtlasPlan []byte

// AtlasFile is the name AtlasPlan's errors are reported under.
const AtlasFile = "atlas.toml"

// ValidationPlan is the plan of the validation report: the simulator
// against the exact engine for every core roll, the error at each sample
// count against its 95% band. It is for oddsmith's developers, not a
// design chart, so it is not part of the atlas: `oddsmith atlas
// --validation` runs it.
//
//go:embed validation.toml
var ValidationPlan []byte

// ValidationFile is the name ValidationPlan's errors are reported under.
const ValidationFile = "validation.toml"

// Chart is a figure of one or more panels (a plan's [[chart]] table): the
// general form of a comparison chart. Each panel has a kind:
//
//   - "lines": a metric (event:NAME or mean:VAR) of each series against a
//     parameter swept over a range, as in an overlay; a series may move its
//     points on the axis (scale, offset, center = "median:VAR" for "TN
//     minus the roller's median"), plot a difference (diff = {param = +1}:
//     what one more point is worth) or put another metric on the x axis
//     (xmetric, optionally of another mechanic: xmechanic, xset), and scale
//     its values (yscale, for a reference character);
//   - "ccdf": P(X ≥ x) of a variable of each series on a log scale (tails);
//   - "pmf": P(X = x) of a variable of each series (exact or simulated);
//   - "survival": a process's S(t) ("survival") or 1 − S(t) ("done");
//   - "bars": one bar per series: stacked over the panel's categories (a
//     series' metrics, one per category), or a single metric;
//   - "validation": for each series and each sample count of trials, the
//     absolute error of a simulated event probability against the exact
//     one, with the 95% half-width 1.96·√(p(1−p)/n).
type Chart struct {
	Name    string       `toml:"name"`
	Title   string       `toml:"title"`
	Caption string       `toml:"caption"`
	Columns int          `toml:"columns"`
	Panels  []ChartPanel `toml:"panel"`
}

// ChartPanel is one set of axes of a chart.
type ChartPanel struct {
	Kind       string        `toml:"kind"`
	Title      string        `toml:"title"`
	XLabel     string        `toml:"xlabel"`
	YLabel     string        `toml:"ylabel"`
	Range      string        `toml:"range"`
	Metric     string        `toml:"metric"`
	Var        string        `toml:"var"`
	Curve      string        `toml:"curve"`
	LogY       bool          `toml:"logy"`
	XMin       float64       `toml:"xmin"`
	XMax       float64       `toml:"xmax"`
	Trials     []int64       `toml:"trials"`
	Categories []string      `toml:"categories"`
	Note       string        `toml:"note"`
	Series     []ChartSeries `toml:"series"`
}

// ChartSeries is one line (or bar) of a panel. Fields a kind does not use
// are refused.
type ChartSeries struct {
	Label    string `toml:"label"`
	System   string `toml:"system"` // colour group of plain bars; default: the id's system
	Mechanic string `toml:"mechanic"`
	// Expr is a one-line rule in place of a mechanic, as --expr.
	Expr string `toml:"expr"`
	// Color and Dash set the series' look (reports.Style), over the
	// package's choice; a bar takes the colour.
	Color  string         `toml:"color"`
	Dash   string         `toml:"dash"`
	Set    map[string]any `toml:"set"`
	Engine engine.Kind    `toml:"engine"`
	Trials int64          `toml:"trials"`
	Seed   *int64         `toml:"seed"`
	// lines
	X         string         `toml:"x"`
	Range     string         `toml:"range"`
	Metric    string         `toml:"metric"`
	Scale     float64        `toml:"scale"`
	Offset    float64        `toml:"offset"`
	Center    string         `toml:"center"`
	Marks     []float64      `toml:"marks"`
	YScale    float64        `toml:"yscale"`
	Diff      map[string]any `toml:"diff"`
	XMetric   string         `toml:"xmetric"`
	XMechanic string         `toml:"xmechanic"`
	XSet      map[string]any `toml:"xset"`
	XParam    string         `toml:"xparam"` // xmechanic's parameter for x (default: x)
	// ccdf, pmf
	Var string `toml:"var"`
	// survival
	Curve string `toml:"curve"`
	// bars
	Metrics []string `toml:"metrics"`
}

// ChartKinds are the kinds of panel.
var ChartKinds = []string{"lines", "ccdf", "pmf", "survival", "bars", "validation"}

// system is the colour group of a series.
func (s *ChartSeries) system() string {
	if s.System != "" {
		return s.System
	}
	id, _, _ := strings.Cut(s.Mechanic, ".")
	return id
}

// point is one computation of a series: a configuration and where it sits.
type point struct {
	m      *mechanics.Mechanic
	c      mechanics.Config
	value  float64 // the swept parameter's value (lines)
	axis   float64 // its place on the x axis before centring
	diff   mechanics.Config
	hasDif bool
	// xm at xc gives the x axis (an xmetric), when xm is set.
	xm *mechanics.Mechanic
	xc mechanics.Config
}

// applyNumbers adds (add = true) or sets numeric settings on a copy of c.
func applyNumbers(m *mechanics.Mechanic, c mechanics.Config, set map[string]any, add bool) (mechanics.Config, error) {
	out := c.Clone()
	for _, k := range slices.Sorted(maps.Keys(set)) {
		var d float64
		switch v := set[k].(type) {
		case int64:
			d = float64(v)
		case float64:
			d = v
		default:
			if add {
				return out, fmt.Errorf("diff %s = %s: give a number", k, tomlText(set[k]))
			}
			kv, err := settingString(k, v)
			if err != nil {
				return out, err
			}
			if err := m.Set(out, kv); err != nil {
				return out, err
			}
			continue
		}
		if add {
			base, ok := out.Params[k]
			if !ok {
				return out, fmt.Errorf("diff: %s has no numeric parameter %q", m.ID, k)
			}
			d += base
		}
		if err := m.Set(out, k+"="+mechanics.FormatNum(d)); err != nil {
			return out, err
		}
	}
	return out, nil
}

// points lists the computations of a series of a "lines" panel.
func (s *ChartSeries) points(p *Plan, pn *ChartPanel) ([]point, error) {
	r := cmp.Or(s.Range, pn.Range)
	values, err := ParseRange(r)
	if err != nil {
		return nil, err
	}
	if s.X == "" {
		return nil, fmt.Errorf("needs x, the parameter the axis sets")
	}
	scale := s.Scale
	switch {
	case math.IsNaN(scale) || math.IsInf(scale, 0):
		return nil, fmt.Errorf("scale = %g: give a finite factor", scale)
	case scale == 0:
		scale = 1
	}
	m, base, err := p.configureAny(s.Mechanic, s.Expr, s.Set)
	if err != nil {
		return nil, err
	}
	var xm *mechanics.Mechanic
	var xbase mechanics.Config
	if s.XMechanic != "" {
		if s.XMetric == "" {
			return nil, fmt.Errorf("xmechanic needs xmetric")
		}
		if xm, xbase, err = p.configure(s.XMechanic, s.XSet); err != nil {
			return nil, fmt.Errorf("xmechanic: %w", err)
		}
	}
	var out []point
	for _, v := range values {
		c := base.Clone()
		if err := m.Set(c, s.X+"="+mechanics.FormatNum(v)); err != nil {
			return nil, err
		}
		pt := point{m: m, c: c, value: v, axis: v*scale + s.Offset}
		if len(s.Diff) > 0 {
			if pt.diff, err = applyNumbers(m, c, s.Diff, true); err != nil {
				return nil, err
			}
			pt.hasDif = true
		}
		if s.XMetric != "" {
			switch {
			case xm != nil:
				pt.xm, pt.xc = xm, xbase.Clone()
				if err := xm.Set(pt.xc, cmp.Or(s.XParam, s.X)+"="+mechanics.FormatNum(v)); err != nil {
					return nil, fmt.Errorf("xmechanic: %w", err)
				}
			case len(s.XSet) > 0:
				pt.xm = m
				if pt.xc, err = applyNumbers(m, c, s.XSet, false); err != nil {
					return nil, err
				}
			default:
				pt.xm, pt.xc = m, c
			}
		}
		out = append(out, pt)
	}
	return out, nil
}

// engine is the engine a series runs with.
func (s *ChartSeries) engine(p *Plan) Engine {
	e := Engine{Kind: cmp.Or(s.Engine, engine.Exact), Trials: cmp.Or(s.Trials, p.Trials), Seed: uint64(p.Seed), MemoryBytes: p.MemoryBytes}
	if s.Seed != nil {
		e.Seed = uint64(*s.Seed)
	}
	return e
}

// validateCharts checks the plan's charts before anything runs.
func (p *Plan) validateCharts(file string, src []byte, names map[string]bool) error {
	for i := range p.Charts {
		ch := &p.Charts[i]
		line := tableLine(src, "chart", i)
		fail := func(f string, args ...any) error {
			return &PlanError{file, line, fmt.Errorf("chart %d (%s): %s", i+1, ch.Name, fmt.Sprintf(f, args...))}
		}
		if ch.Name == "" || strings.ContainsAny(ch.Name, "/\\ ") || names[ch.Name] {
			return fail("needs a unique name without spaces or slashes")
		}
		names[ch.Name] = true
		if len(ch.Panels) == 0 {
			return fail("has no [[chart.panel]]")
		}
		if ch.Columns < 0 || ch.Columns > 2 {
			return fail("columns = %d: give 1 or 2", ch.Columns)
		}
		for j := range ch.Panels {
			if err := p.validatePanel(&ch.Panels[j]); err != nil {
				pl := panelLine(src, line, j)
				return &PlanError{file, errLine(src, "chart.panel", pl, err), fmt.Errorf("chart %d (%s): panel %d (%s): %w", i+1, ch.Name, j+1, ch.Panels[j].Title, err)}
			}
		}
	}
	return nil
}

// panelLine finds the line of the j-th [[chart.panel]] after the line
// from (a [[chart]] header), or from.
func panelLine(src []byte, from, j int) int {
	if from == 0 {
		return 0
	}
	k := -1
	lines := strings.Split(string(src), "\n")
	for i := from; i < len(lines); i++ {
		switch strings.TrimSpace(lines[i]) {
		case "[[chart]]":
			return from
		case "[[chart.panel]]":
			if k++; k == j {
				return i + 1
			}
		}
	}
	return from
}

func (p *Plan) validatePanel(pn *ChartPanel) error {
	if pn.Kind == "" {
		pn.Kind = "lines"
	}
	if !slices.Contains(ChartKinds, pn.Kind) {
		return fmt.Errorf("kind %q is not one of %s", pn.Kind, strings.Join(ChartKinds, ", "))
	}
	if len(pn.Series) == 0 {
		return fmt.Errorf("has no series")
	}
	if pn.Kind == "validation" {
		if len(pn.Trials) == 0 {
			return fmt.Errorf("a validation panel needs trials = [sample counts]")
		}
		for _, n := range pn.Trials {
			if n < 1 || n > MaxTrials {
				return fmt.Errorf("trials: %d is not between 1 and %d", n, MaxTrials)
			}
		}
	}
	if pn.Kind == "bars" && len(pn.Categories) > maxCategories {
		return fmt.Errorf("at most %d categories", maxCategories)
	}
	for k := range pn.Series {
		s := &pn.Series[k]
		if err := p.validateSeries(pn, s); err != nil {
			return &seriesError{s.Label, err}
		}
	}
	return nil
}

// maxCategories bounds the layers of stacked bars (the colours they get).
const maxCategories = 5

// validateSeries checks a series of a panel: its fields, then its models
// and metrics at every point it will compute.
func (p *Plan) validateSeries(pn *ChartPanel, s *ChartSeries) error {
	if err := s.checkFields(pn.Kind); err != nil {
		return err
	}
	if pn.Kind == "lines" {
		return p.validateLineSeries(pn, s)
	}
	m, c, err := p.configureAny(s.Mechanic, s.Expr, s.Set)
	if err != nil {
		return err
	}
	return s.validateAt(pn, m, c)
}

// checkFields checks a series' own settings and refuses the fields a panel
// of the kind does not use.
func (s *ChartSeries) checkFields(kind string) error {
	if s.Label == "" {
		return fmt.Errorf("needs a label")
	}
	if err := checkStyle(s.Color, s.Dash); err != nil {
		return err
	}
	if s.Engine != "" && !s.Engine.Valid() {
		return fmt.Errorf("unknown engine %q (want exact or sim)", s.Engine)
	}
	if s.Trials < 0 || s.Trials > MaxTrials {
		return fmt.Errorf("trials must be between 1 and %d", MaxTrials)
	}
	if s.Seed != nil && *s.Seed < 0 {
		return fmt.Errorf("seed must be a whole number ≥ 0")
	}
	lineOnly := s.X != "" || s.Range != "" || s.Center != "" || len(s.Marks) > 0 ||
		len(s.Diff) > 0 || s.XMetric != "" || s.XMechanic != "" || len(s.XSet) > 0 || s.XParam != ""
	if lineOnly && kind != "lines" {
		return fmt.Errorf("x, range, center, marks, diff and xmetric belong to a lines panel, not %s", kind)
	}
	if (s.Scale != 0 || s.Offset != 0) && kind != "lines" && kind != "survival" && kind != "pmf" {
		return fmt.Errorf("scale and offset belong to a lines, survival or pmf panel")
	}
	if math.IsNaN(s.Scale) || math.IsInf(s.Scale, 0) || math.IsNaN(s.Offset) || math.IsInf(s.Offset, 0) {
		return fmt.Errorf("scale and offset must be finite numbers")
	}
	if s.YScale != 0 && (math.IsNaN(s.YScale) || math.IsInf(s.YScale, 0)) {
		return fmt.Errorf("yscale = %g: give a finite factor", s.YScale)
	}
	if s.Curve != "" && kind != "survival" {
		return fmt.Errorf("curve belongs to a survival panel")
	}
	if len(s.Metrics) > 0 && kind != "bars" {
		return fmt.Errorf("metrics belong to a bars panel")
	}
	if s.Var != "" && kind != "ccdf" && kind != "pmf" {
		return fmt.Errorf("var belongs to a ccdf or pmf panel")
	}
	return nil
}

// check refuses m at c when the series' engine cannot compute it or
// metric (a sum of metrics; "" checks the model only) names no output of
// it.
func (s *ChartSeries) check(m *mechanics.Mechanic, c mechanics.Config, metric string) error {
	if err := (Engine{Kind: cmp.Or(s.Engine, engine.Exact), Trials: 1}).Validate(m); err != nil {
		return err
	}
	return checkMetricExpr(m, c.Clone(), metric)
}

// validateLineSeries checks a series of a lines panel: its metric at the
// first and the last point of its range, every model it will build, its
// centre, x metric, difference and marks.
func (p *Plan) validateLineSeries(pn *ChartPanel, s *ChartSeries) error {
	pts, err := s.points(p, pn)
	if err != nil {
		return err
	}
	metric := cmp.Or(s.Metric, pn.Metric)
	if metric == "" {
		return fmt.Errorf("needs a metric (event:NAME or mean:VAR), its own or the panel's")
	}
	if len(pts) == 0 {
		return fmt.Errorf("the range has no points")
	}
	if err := s.check(pts[0].m, pts[0].c, metric); err != nil {
		return err
	}
	if last := pts[len(pts)-1]; len(pts) > 1 {
		if err := s.check(last.m, last.c, metric); err != nil {
			return fmt.Errorf("at %s = %s: %w", s.X, mechanics.FormatNum(last.value), err)
		}
	}
	// Every point's models are built, so that a value the rules refuse
	// inside the range is found before anything runs.
	for _, pt := range pts[1:] {
		if err := pt.buildModels(); err != nil {
			return fmt.Errorf("at %s = %s: %w", s.X, mechanics.FormatNum(pt.value), err)
		}
	}
	if s.Center != "" {
		k, v, ok := strings.Cut(s.Center, ":")
		if !ok || k != "median" {
			return fmt.Errorf("center %q: want median:VAR", s.Center)
		}
		if err := checkModel(pts[0].m, pts[0].c.Clone(), "mean:"+v); err != nil {
			return fmt.Errorf("center: %w", err)
		}
	}
	if pts[0].xm != nil {
		if err := s.check(pts[0].xm, pts[0].xc, s.XMetric); err != nil {
			return fmt.Errorf("xmetric: %w", err)
		}
	}
	if pts[0].hasDif {
		if err := checkMetricExpr(pts[0].m, pts[0].diff.Clone(), metric); err != nil {
			return fmt.Errorf("diff: %w", err)
		}
	}
	for _, m := range s.Marks {
		if math.IsNaN(m) || math.IsInf(m, 0) {
			return fmt.Errorf("marks: %g is not a finite number", m)
		}
	}
	return nil
}

// buildModels builds the models a point computes: its own, its
// difference's and its x metric's.
func (pt *point) buildModels() error {
	for _, mc := range []struct {
		ok bool
		m  *mechanics.Mechanic
		c  mechanics.Config
	}{{true, pt.m, pt.c}, {pt.hasDif, pt.m, pt.diff}, {pt.xm != nil, pt.xm, pt.xc}} {
		if !mc.ok {
			continue
		}
		if _, err := mc.m.Model(mc.c.Clone()); err != nil {
			return err
		}
	}
	return nil
}

// validateAt checks a series of any kind but lines, computed once: m at
// c.
func (s *ChartSeries) validateAt(pn *ChartPanel, m *mechanics.Mechanic, c mechanics.Config) error {
	switch pn.Kind {
	case "ccdf", "pmf":
		if v := cmp.Or(s.Var, pn.Var); v != "" {
			return s.check(m, c, "mean:"+v)
		}
		return s.check(m, c, "")
	case "survival":
		if cv := cmp.Or(s.Curve, pn.Curve); cv != "" && cv != "survival" && cv != "done" {
			return fmt.Errorf("curve %q: want survival (S(t)) or done (1 − S(t))", cv)
		}
		if err := s.check(m, c, ""); err != nil {
			return err
		}
		spec, err := m.Model(c.Clone())
		if err != nil {
			return err
		}
		if spec.Process == nil {
			return fmt.Errorf("%s is not a process (no S(t) to draw)", m.ID)
		}
		return nil
	case "bars":
		mets := s.Metrics
		if len(pn.Categories) > 0 {
			if len(mets) != len(pn.Categories) {
				return fmt.Errorf("needs metrics = [one per category: %s]", strings.Join(pn.Categories, ", "))
			}
		} else {
			if len(mets) > 0 {
				return fmt.Errorf("metrics need the panel's categories; give metric for a single bar")
			}
			mets = []string{cmp.Or(s.Metric, pn.Metric)}
		}
		for _, met := range mets {
			if err := s.check(m, c, met); err != nil {
				return err
			}
		}
		return nil
	case "validation":
		met := cmp.Or(s.Metric, pn.Metric)
		if !strings.HasPrefix(met, "event:") {
			return fmt.Errorf("a validation series needs an event metric (event:NAME)")
		}
		if m.MCOnly {
			return fmt.Errorf("%s has no exact model to validate against", m.ID)
		}
		return s.check(m, c, met)
	}
	return nil
}

// chartPoints counts a chart's computations, for a progress bar.
func (p *Plan) chartPoints(ch *Chart) int {
	n := 0
	for i := range ch.Panels {
		pn := &ch.Panels[i]
		for k := range pn.Series {
			s := &pn.Series[k]
			switch pn.Kind {
			case "lines":
				vs, _ := ParseRange(cmp.Or(s.Range, pn.Range))
				per := 1
				if len(s.Diff) > 0 {
					per++
				}
				if s.XMetric != "" {
					per++
				}
				n += len(vs) * per
			case "validation":
				n += len(pn.Trials) + 1
			default:
				n++
			}
		}
	}
	return n
}

// chartRequests lists a chart's computations in the order its run asks
// for them, repeats included (the run computes a repeat once): one point for
// each unit chartPoints counts. Every request follows from the plan alone: a
// centre's median, a difference and an x metric read the results of points
// listed here but never choose which points are computed, and a validation
// series' engines are its trials with seeds derived as the run derives them
// (validationEngine). So a sharded run lists a chart's points without
// computing any.
func (p *Plan) chartRequests(ch *Chart) ([]Point, error) {
	var pts []Point
	add := func(e Engine, m *mechanics.Mechanic, c mechanics.Config) {
		// Each point its own configuration: shards compute points side by
		// side.
		pts = append(pts, Point{Engine: e, Mechanic: m, Config: c.Clone()})
	}
	for i := range ch.Panels {
		pn := &ch.Panels[i]
		for k := range pn.Series {
			s := &pn.Series[k]
			if pn.Kind == "lines" {
				lps, err := s.points(p, pn)
				if err != nil {
					return nil, fmt.Errorf("series %q: %w", s.Label, err)
				}
				e := s.engine(p)
				for _, pt := range lps {
					add(e, pt.m, pt.c)
					if pt.hasDif {
						add(e, pt.m, pt.diff)
					}
					if pt.xm != nil {
						add(e, pt.xm, pt.xc)
					}
				}
				continue
			}
			m, c, err := p.configureAny(s.Mechanic, s.Expr, s.Set)
			if err != nil {
				return nil, fmt.Errorf("series %q: %w", s.Label, err)
			}
			if pn.Kind != "validation" {
				add(s.engine(p), m, c)
				continue
			}
			add(p.exactEngine(), m, c)
			for _, n := range pn.Trials {
				add(s.validationEngine(p, k, n), m, c)
			}
		}
	}
	return pts, nil
}

// exactEngine is the exact engine with the plan's memory budget.
func (p *Plan) exactEngine() Engine { return Engine{Kind: engine.Exact, MemoryBytes: p.MemoryBytes} }

// validationEngine is the simulation of series k of a validation panel at n
// trials.
func (s *ChartSeries) validationEngine(p *Plan, k int, n int64) Engine {
	e := s.engine(p)
	e.Kind, e.Trials = engine.Sim, n
	if s.Seed == nil {
		// Series of equal probability would otherwise draw the same
		// numbers and show the same errors: each gets its own seed.
		e.Seed += uint64(k)
	}
	return e
}

// chartRun computes one chart.
type chartRun struct {
	ctx  context.Context
	p    *Plan
	ch   *Chart
	rows []reports.ChartRow
	tick func()
	memo map[string]*engine.Result
}

// series is the result of a series' mechanic at its settings, with its
// engine.
func (cr *chartRun) series(s *ChartSeries) (*engine.Result, error) {
	m, c, err := cr.p.configureAny(s.Mechanic, s.Expr, s.Set)
	if err != nil {
		return nil, err
	}
	return cr.run(s.engine(cr.p), m, c)
}

// run computes m at c with e, once per model and engine.
func (cr *chartRun) run(e Engine, m *mechanics.Mechanic, c mechanics.Config) (*engine.Result, error) {
	e.Source = cr.p.Source // merge: the shards' results
	key := fmt.Sprint(e.Kind, "|", e.Trials, "|", e.Seed, "|", m.ID, "|", m.RuleText, c.Params, c.Options)
	if r, ok := cr.memo[key]; ok {
		cr.tick()
		return r, nil
	}
	r, err := e.Run(cr.ctx, m, c)
	if err != nil {
		return nil, err
	}
	cr.memo[key] = r
	cr.tick()
	return r, nil
}

// metric computes m at c with e (cr.run) and evaluates a metric of the
// result.
func (cr *chartRun) metric(e Engine, m *mechanics.Mechanic, c mechanics.Config, metric string) (*engine.Result, float64, error) {
	r, err := cr.run(e, m, c)
	if err != nil {
		return nil, 0, err
	}
	y, err := evalMetric(r, metric)
	return r, y, err
}

// seriesRun computes one series of a panel: its points go to out, its
// rows to the chart's CSV.
type seriesRun struct {
	cr  *chartRun
	pn  *ChartPanel
	s   *ChartSeries
	k   int // the series' place in the panel
	out *reports.ChartSeries
}

// add adds a row to the chart's CSV: a point of the series computed from
// r, with its quantity, x, y and setting.
func (sr *seriesRun) add(r *engine.Result, row reports.ChartRow) {
	row.Chart, row.Panel, row.Series = sr.cr.ch.Name, cmp.Or(sr.pn.Title, sr.pn.Kind), sr.s.Label
	row.Mechanic, row.Fingerprint = r.Mechanic, r.Fingerprint
	sr.cr.rows = append(sr.cr.rows, row)
}

// runChart computes a chart and writes its CSV and PNG; it returns the
// chart's findings, one per panel.
func runChart(ctx context.Context, p *Plan, ch *Chart, b *reports.Bundle, index *bytes.Buffer, progress Progress) error {
	cr := &chartRun{ctx: ctx, p: p, ch: ch, memo: map[string]*engine.Result{}, tick: func() {
		if progress != nil {
			progress.Add(1)
		}
	}}
	out := &reports.Chart{Title: ch.Title, Caption: ch.Caption, Columns: ch.Columns}
	if out.Title == "" {
		out.Title = ch.Name
	}
	var findings []string
	for i := range ch.Panels {
		pn, finding, err := cr.panel(&ch.Panels[i])
		if err != nil {
			return fmt.Errorf("panel %q: %w", ch.Panels[i].Title, err)
		}
		out.Panels = append(out.Panels, pn)
		findings = append(findings, finding)
	}
	if err := b.Write(ch.Name+".csv", func(w io.Writer) error { return reports.WriteChartCSV(w, ch.Name, ch.Caption, cr.rows) }); err != nil {
		return err
	}
	if err := b.Write(ch.Name+".png", func(w io.Writer) error { return reports.WriteChart(w, out) }); err != nil {
		return err
	}
	fmt.Fprintf(index, "## %s — %s\n\n", ch.Name, out.Title)
	for i, f := range findings {
		title := ch.Panels[i].Title
		if len(findings) == 1 || title == "" {
			fmt.Fprintf(index, "- Finding: %s\n", f)
		} else {
			fmt.Fprintf(index, "- Finding (%s): %s\n", title, f)
		}
	}
	fmt.Fprintf(index, "\n%s\n", reports.LinkList([]string{ch.Name + ".csv", ch.Name + ".png"}))
	return nil
}

// panel computes one panel and its one-line finding.
func (cr *chartRun) panel(pn *ChartPanel) (reports.ChartPanel, string, error) {
	out := reports.ChartPanel{Kind: "lines", Title: pn.Title, XLabel: pn.XLabel, YLabel: pn.YLabel, LogY: pn.LogY,
		XMin: pn.XMin, XMax: pn.XMax, Note: pn.Note}
	var parts []string
	prob := true
	for k := range pn.Series {
		s := &pn.Series[k]
		rs := reports.ChartSeries{Label: s.Label, Group: s.system(), Style: reports.Style{Color: s.Color, Dash: s.Dash}}
		sr := &seriesRun{cr: cr, pn: pn, s: s, k: k, out: &rs}
		var err error
		var finding string
		switch pn.Kind {
		case "lines":
			prob = prob && s.plotsProb(pn)
			finding, err = sr.lines()
		case "ccdf", "pmf":
			finding, err = sr.dist()
		case "survival":
			finding, err = sr.survival()
		case "bars":
			finding, err = sr.bars()
		case "validation":
			finding, err = sr.validation()
		}
		if err != nil {
			return out, "", fmt.Errorf("series %q: %w", s.Label, err)
		}
		if finding != "" {
			parts = append(parts, s.Label+" "+finding)
		}
		out.Series = append(out.Series, rs)
	}
	switch pn.Kind {
	case "lines":
		out.Prob = prob && !pn.LogY
		if out.Prob && pn.YLabel == "" {
			out.YLabel = "probability"
		}
	case "ccdf":
		out.LogY, out.Prob = true, true
	case "pmf", "survival":
		out.Prob = pn.Kind == "survival"
	case "bars":
		out.Kind = "bars"
		if len(pn.Categories) > 0 {
			out.Kind = "stacked"
			out.Categories = pn.Categories
		}
		out.Prob = true
		for _, s := range pn.Series {
			for _, v := range s.Metrics {
				out.Prob = out.Prob && isProb(v)
			}
			if len(s.Metrics) == 0 {
				out.Prob = out.Prob && isProb(cmp.Or(s.Metric, pn.Metric))
			}
		}
	case "validation":
		out.LogX, out.LogY = true, true
		// The widest band of the panel's series, shaded.
		for _, s := range out.Series {
			for i, q := range s.Band {
				if i >= len(out.Shade) {
					out.Shade = append(out.Shade, q)
				} else if q.Y > out.Shade[i].Y {
					out.Shade[i].Y = q.Y
				}
			}
		}
		out.ShadeLabel = "95% band (the widest)"
	}
	return out, headline(pn) + strings.Join(parts, "; ") + ".", nil
}

// headline introduces a panel's finding.
func headline(pn *ChartPanel) string {
	switch pn.Kind {
	case "lines":
		return ""
	case "ccdf":
		return "the 1-in-1000 value: "
	case "pmf":
		return "median and mean: "
	case "survival":
		if pn.Curve == "done" {
			return "half are done (1 − S(t) ≥ 0.5) at "
		}
		return "S(t) falls to 0.5 at "
	case "bars":
		return ""
	case "validation":
		return "largest |error| in units of the 95% half-width: "
	}
	return ""
}

// plotsProb tells a series of a lines panel whose values are
// probabilities: its metric reads as one, unscaled and not a difference.
func (s *ChartSeries) plotsProb(pn *ChartPanel) bool {
	return isProb(cmp.Or(s.Metric, pn.Metric)) && len(s.Diff) == 0 && (s.YScale == 0 || s.YScale == 1)
}

// lines computes a series of a lines panel: its metric at every point of
// its range (a difference, scaled, against its x metric or its centred
// axis); the finding says where a probability reaches 50%, or else the
// curve's extremes.
func (sr *seriesRun) lines() (string, error) {
	cr, pn, s, rs := sr.cr, sr.pn, sr.s, sr.out
	pts, err := s.points(cr.p, pn)
	if err != nil {
		return "", err
	}
	metric := cmp.Or(s.Metric, pn.Metric)
	e := s.engine(cr.p)
	yscale := cmp.Or(s.YScale, 1)
	quantity := metric
	if len(s.Diff) > 0 {
		quantity = "Δ" + metric
	}
	if yscale != 1 {
		quantity += " × " + mechanics.FormatNum(yscale)
	}
	// A simulated single metric (not a difference) carries its 95%
	// interval.
	var one *engine.Metric
	withCI := e.Kind == engine.Sim && len(s.Diff) == 0
	if withCI {
		var err error
		one, err = engine.ParseMetric(metric)
		withCI = err == nil
	}
	for _, pt := range pts {
		r, y, err := cr.metric(e, pt.m, pt.c, metric)
		if err != nil {
			return "", err
		}
		if pt.hasDif {
			_, yd, err := cr.metric(e, pt.m, pt.diff, metric)
			if err != nil {
				return "", err
			}
			y = yd - y
		}
		y *= yscale
		x := pt.axis
		if s.Center != "" {
			_, v, _ := strings.Cut(s.Center, ":")
			vr := r.Var(v)
			if vr == nil {
				return "", fmt.Errorf("center: %s has no variable %q", r.Mechanic, v)
			}
			x -= vr.Stats.P50
		}
		if pt.xm != nil {
			if _, x, err = cr.metric(e, pt.xm, pt.xc, s.XMetric); err != nil {
				return "", err
			}
		}
		if math.IsNaN(y) || math.IsInf(y, 0) || math.IsNaN(x) {
			continue // undefined here (a mean over no outcomes): left out
		}
		rs.XY = append(rs.XY, reports.XY{X: x, Y: y})
		if withCI {
			est, err := one.Eval(r)
			if err != nil {
				return "", err
			}
			lo, hi := est.Lo*yscale, est.Hi*yscale
			rs.Err = append(rs.Err, [2]float64{min(lo, hi), max(lo, hi)})
		}
		sr.add(r, reports.ChartRow{Quantity: quantity, X: x, Y: y, Setting: s.X + "=" + mechanics.FormatNum(pt.value)})
	}
	scale := cmp.Or(s.Scale, 1)
	for _, mk := range s.Marks {
		rs.Marks = append(rs.Marks, mk*scale+s.Offset)
	}
	if isProb(metric) && len(s.Diff) == 0 && s.XMetric == "" && yscale == 1 {
		return crossing(rs.XY, len(pts) > 0 && realParam(pts[0].m, s.X)), nil
	}
	return extremes(rs.XY), nil
}

// crossing says where a probability curve reaches 0.5: between the two
// settings either side of it (reports.Halfway), interpolated only over a
// setting of real values (real).
func crossing(xy []reports.XY, real bool) string {
	if s := reports.Halfway("x", xy, real); s != "" {
		return s
	}
	if len(xy) == 0 {
		return "no points"
	}
	return "never reaches 50%: " + extremes(xy)
}

// realParam tells whether m's parameter name takes real values.
func realParam(m *mechanics.Mechanic, name string) bool {
	for _, p := range m.Params {
		if p.Name == name {
			return p.Real
		}
	}
	return false
}

// extremes gives a curve's lowest and highest values and where.
func extremes(xy []reports.XY) string {
	if len(xy) == 0 {
		return "no points"
	}
	lo, hi := reports.ExtremesY(xy)
	if fmt3(lo.Y) == fmt3(hi.Y) {
		return fmt.Sprintf("flat at %s (x = %s … %s)", fmt3(lo.Y), fmt3(xy[0].X), fmt3(xy[len(xy)-1].X))
	}
	return fmt.Sprintf("from %s (x = %s) to %s (x = %s)", fmt3(lo.Y), fmt3(lo.X), fmt3(hi.Y), fmt3(hi.X))
}

// fmt3 prints a number with at most three decimals.
func fmt3(v float64) string {
	s := fmt.Sprintf("%.3f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

// dist computes a series of a pmf panel (P(X = x)) or a ccdf panel
// (P(X ≥ x)); the finding gives the median and the mean, or the value
// beyond which the chance is under 1 in 1000.
func (sr *seriesRun) dist() (string, error) {
	pn, s, rs := sr.pn, sr.s, sr.out
	r, err := sr.cr.series(s)
	if err != nil {
		return "", err
	}
	vname := cmp.Or(s.Var, pn.Var)
	v := &r.Vars[0]
	if vname != "" {
		if v = r.Var(vname); v == nil {
			return "", fmt.Errorf("%s has no variable %q", r.Mechanic, vname)
		}
	}
	setting := settingsOf(s.Set)
	if pn.Kind == "pmf" {
		for i, q := range v.P {
			x := v.Value(i)*cmp.Or(s.Scale, 1) + s.Offset
			if pn.XMax > pn.XMin && (x < pn.XMin || x > pn.XMax) {
				continue
			}
			rs.XY = append(rs.XY, reports.XY{X: x, Y: q})
			if r.Engine == engine.Sim && r.Trials > 0 {
				rs.Err = append(rs.Err, engine.Wilson(int64(math.Round(q*float64(r.Trials))), r.Trials))
			}
			sr.add(r, reports.ChartRow{Quantity: "P(" + v.Name + " = x)", X: x, Y: q, Setting: setting})
		}
		f := fmt.Sprintf("%s %s, mean %s", v.Name, fmt3(v.Stats.P50), fmt3(v.Stats.Mean))
		if v.Undefined > 0 {
			f += fmt.Sprintf(" (%s: %s)", v.UndefinedLabel, fmt3(v.Undefined))
		}
		if r.Engine == engine.Sim {
			f += fmt.Sprintf(" [simulated, n=%d]", r.Trials)
		}
		return f, nil
	}
	// P(X ≥ x), from the top down.
	tail := 0.0
	var xy []reports.XY
	for i := len(v.P) - 1; i >= 0; i-- {
		tail += v.P[i]
		if v.P[i] > 0 || len(xy) > 0 {
			xy = append(xy, reports.XY{X: v.Value(i), Y: math.Min(tail, 1)})
		}
	}
	slices.Reverse(xy)
	rare := ""
	for _, q := range xy {
		if pn.XMax > pn.XMin && (q.X < pn.XMin || q.X > pn.XMax) {
			continue
		}
		if q.Y < 1e-12 {
			continue
		}
		rs.XY = append(rs.XY, q)
		if r.Engine == engine.Sim && r.Trials > 0 {
			rs.Err = append(rs.Err, engine.Wilson(int64(math.Round(q.Y*float64(r.Trials))), r.Trials))
		}
		sr.add(r, reports.ChartRow{Quantity: "P(" + v.Name + " ≥ x)", X: q.X, Y: q.Y, Setting: setting})
	}
	for _, q := range xy {
		if q.Y < 1e-3 {
			rare = fmt.Sprintf("P(≥ %s) < 0.001", fmt3(q.X))
			break
		}
	}
	if rare == "" && len(xy) > 0 {
		top := xy[len(xy)-1]
		rare = fmt.Sprintf("never that rare: its largest value %s has P = %s", fmt3(top.X), fmt3(top.Y))
	}
	rs.Step = "pre" // P(X ≥ x) holds from the value before up to x
	return rare, nil
}

// settingsOf prints a series' fixed settings (a setting that is neither a
// number nor a name is left out).
func settingsOf(set map[string]any) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(set)) {
		if kv, err := settingString(k, set[k]); err == nil {
			parts = append(parts, kv)
		}
	}
	return strings.Join(parts, " ")
}

// survival computes a series of a survival panel: S(t), or 1 − S(t); the
// finding says when S(t) falls to one half.
func (sr *seriesRun) survival() (string, error) {
	pn, s, rs := sr.pn, sr.s, sr.out
	r, err := sr.cr.series(s)
	if err != nil {
		return "", err
	}
	if r.Process == nil {
		return "", fmt.Errorf("%s is not a process", r.Mechanic)
	}
	done := cmp.Or(s.Curve, pn.Curve) == "done"
	quantity := "S(t)"
	if done {
		quantity = "1 - S(t)"
	}
	half := ""
	for t, sv := range r.Process.Survival {
		y := sv
		if done {
			y = 1 - sv
		}
		if pn.XMax > pn.XMin && float64(t)*cmp.Or(s.Scale, 1)+s.Offset > pn.XMax {
			break
		}
		x := float64(t)*cmp.Or(s.Scale, 1) + s.Offset
		rs.XY = append(rs.XY, reports.XY{X: x, Y: y})
		if r.Engine == engine.Sim && r.Trials > 0 {
			rs.Err = append(rs.Err, engine.Wilson(int64(math.Round(y*float64(r.Trials))), r.Trials))
		}
		sr.add(r, reports.ChartRow{Quantity: quantity, X: x, Y: y, Setting: settingsOf(s.Set) + fmt.Sprintf(" t=%d", t)})
		if half == "" && sv <= 0.5 {
			half = fmt.Sprintf("t = %d %ss", t, r.Process.TimeUnit)
		}
	}
	if half == "" {
		half = fmt.Sprintf("not within %d %ss (S = %s)", r.Process.Horizon, r.Process.TimeUnit, fmt3(r.Process.Survival[len(r.Process.Survival)-1]))
	}
	rs.Step = "post" // S(t) holds from t to the next step
	return half, nil
}

// bars computes a series of a bars panel: a metric per category, or one.
func (sr *seriesRun) bars() (string, error) {
	pn, s, rs := sr.pn, sr.s, sr.out
	r, err := sr.cr.series(s)
	if err != nil {
		return "", err
	}
	mets, labels := s.Metrics, pn.Categories
	if len(mets) == 0 {
		mets = []string{cmp.Or(s.Metric, pn.Metric)}
		labels = []string{""}
	}
	var parts []string
	for i, met := range mets {
		y, err := evalMetric(r, met)
		if err != nil {
			return "", err
		}
		rs.Values = append(rs.Values, y)
		sr.add(r, reports.ChartRow{Quantity: strings.TrimSpace(labels[i] + " " + met), X: float64(i), Y: y, Setting: settingsOf(s.Set)})
		parts = append(parts, strings.TrimSpace(labels[i]+" "+fmt3(y)))
	}
	return strings.Join(parts, ", "), nil
}

// validation computes a series of a validation panel: the error of a
// simulated event probability against the exact one at each sample count,
// and the 95% half-width; the finding gives the largest error in units of
// the half-width.
func (sr *seriesRun) validation() (string, error) {
	cr, pn, s, rs := sr.cr, sr.pn, sr.s, sr.out
	m, c, err := cr.p.configureAny(s.Mechanic, s.Expr, s.Set)
	if err != nil {
		return "", err
	}
	met := cmp.Or(s.Metric, pn.Metric)
	ex, err := cr.run(cr.p.exactEngine(), m, c)
	if err != nil {
		return "", err
	}
	pe, err := metricValue(ex, met)
	if err != nil {
		return "", err
	}
	worst, at := 0.0, int64(0)
	for _, n := range pn.Trials {
		r, err := cr.run(s.validationEngine(cr.p, sr.k, n), m, c)
		if err != nil {
			return "", err
		}
		ps, err := metricValue(r, met)
		if err != nil {
			return "", err
		}
		errAbs := math.Abs(ps - pe)
		if errAbs < 1e-12 {
			errAbs = 0 // rounding noise: the estimate is exact (not drawn on a log axis)
		}
		band := 1.96 * math.Sqrt(pe*(1-pe)/float64(n))
		rs.XY = append(rs.XY, reports.XY{X: float64(n), Y: errAbs})
		rs.Band = append(rs.Band, reports.XY{X: float64(n), Y: band})
		set := fmt.Sprintf("n=%d seed=%d exact=%s sim=%s", n, r.Seed, num10(pe), num10(ps))
		sr.add(r, reports.ChartRow{Quantity: "|sim - exact|", X: float64(n), Y: errAbs, Setting: set})
		sr.add(r, reports.ChartRow{Quantity: "band95", X: float64(n), Y: band, Setting: set})
		if band > 0 && errAbs/band > worst {
			worst, at = errAbs/band, n
		}
	}
	return fmt.Sprintf("%s (n = %d)", fmt3(worst), at), nil
}

func num10(v float64) string { return fmt.Sprintf("%.6g", v) }

// A metric of a chart is a metric (event:NAME, mean:VAR) or a sum of them
// and of numbers: "event:success - event:tie", "1 - event:flesh_or_worse".
type metricTerm struct {
	sign, num float64
	metric    string
}

func parseMetricExpr(s string) ([]metricTerm, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("empty metric")
	}
	// Terms are joined by " + " or " - " (with spaces: names may hold a
	// hyphen or spaces, as in "absorbed:level 4 (dying)").
	var out []metricTerm
	sign, rest := 1.0, " "+strings.TrimSpace(s)
	for rest != "" {
		i := len(rest)
		next := 0.0
		for _, op := range []string{" + ", " - "} {
			if j := strings.Index(rest[1:], op); j >= 0 && j+1 < i {
				i = j + 1
				next = map[string]float64{" + ": 1, " - ": -1}[op]
			}
		}
		w := strings.TrimSpace(rest[:i])
		t := metricTerm{sign: sign}
		if _, err := engine.ParseMetric(w); err != nil {
			v, perr := strconv.ParseFloat(w, 64)
			if perr != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("metric %q: %q is neither a metric (%s) nor a number", s, w, engine.MetricKinds)
			}
			t.num = v
		} else {
			t.metric = w
		}
		out = append(out, t)
		if i == len(rest) {
			break
		}
		sign, rest = next, rest[i+2:]
	}
	return out, nil
}

// isProb tells a metric that reads as a probability: events and numbers.
func isProb(s string) bool {
	ts, err := parseMetricExpr(s)
	if err != nil {
		return false
	}
	for _, t := range ts {
		if t.metric != "" && !strings.HasPrefix(t.metric, "event:") {
			return false
		}
	}
	return true
}

func evalMetric(r *engine.Result, s string) (float64, error) {
	ts, err := parseMetricExpr(s)
	if err != nil {
		return 0, err
	}
	sum := 0.0
	for _, t := range ts {
		v := t.num
		if t.metric != "" {
			if v, err = metricValue(r, t.metric); err != nil {
				return 0, err
			}
		}
		sum += t.sign * v
	}
	return sum, nil
}

func checkMetricExpr(m *mechanics.Mechanic, c mechanics.Config, s string) error {
	if s == "" {
		return checkModel(m, c, "")
	}
	ts, err := parseMetricExpr(s)
	if err != nil {
		return mechanics.AsInput(err)
	}
	built := false
	for _, t := range ts {
		if t.metric == "" {
			continue
		}
		cc := c
		if built {
			cc = c.Clone()
		}
		built = true
		if err := checkModel(m, cc, t.metric); err != nil {
			return err
		}
	}
	if !built {
		return checkModel(m, c, "")
	}
	return nil
}
