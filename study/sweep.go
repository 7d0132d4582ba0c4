package study

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
)

// Sweep is a mechanic run at every point of a grid of one or two varied
// parameters or options, the others fixed at Base.
type Sweep struct {
	Mechanic *mechanics.Mechanic
	Base     mechanics.Config
	Axes     []Axis
	Engine   Engine
	// Metrics are what every point reports (engine.ParseMetric: event:,
	// band:, mean:, sd:, p:VAR<=x, quantile:VAR:q, sums), each read from
	// the point's whole result before its distributions are dropped; the
	// first is the one drawn. None means the first event, else the first
	// variable's mean.
	Metrics []string
	// Delta names a varied numeric parameter: every point then also holds
	// each metric's forward difference along it, per unit of it (see
	// reports.SweepPoint.Deltas).
	Delta string
	// KeepSurvival keeps each point's survival curve S(t) (a process's),
	// for a family plot of a short sweep; other distributions are dropped
	// as always.
	KeepSurvival bool
	// KeepAll keeps each point's whole result, distributions included, for
	// a chart of every point's distribution (a short sweep: at most
	// reports.ChartSeriesMax points).
	KeepAll bool

	grid    [][]float64
	configs []mechanics.Config
	metrics []*engine.Metric
}

// Validate checks the engine, the metrics, the delta and every point of
// the grid before anything runs. Errors are bad input.
func (s *Sweep) Validate() error {
	if err := s.Engine.Validate(s.Mechanic); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, a := range s.Axes {
		if seen[a.Name] {
			return mechanics.Invalid("%s is varied twice", a.Name)
		}
		seen[a.Name] = true
	}
	metrics, err := parseMetrics(s.Metrics)
	if err != nil {
		return err
	}
	if err := s.checkDelta(); err != nil {
		return err
	}
	grid, err := Grid(s.Axes)
	if err != nil {
		return err
	}
	configs, err := Configs(s.Mechanic, s.Base, s.Axes, grid)
	if err != nil {
		return err
	}
	for i, c := range configs {
		r, err := outputs(s.Mechanic, c)
		if err == nil && len(metrics) == 0 {
			if metrics, err = defaultMetric(r); err != nil {
				err = mechanics.AsInput(err)
			}
		}
		if err == nil {
			err = checkMetrics(r, metrics)
		}
		if err != nil {
			return fmt.Errorf("at %s: %w", describePoint(s.Axes, grid[i]), err)
		}
	}
	s.grid, s.configs, s.metrics = grid, configs, metrics
	return nil
}

// checkDelta refuses a Delta that is not a varied parameter with numbers
// and a next value.
func (s *Sweep) checkDelta() error {
	if s.Delta == "" {
		return nil
	}
	for _, a := range s.Axes {
		if a.Name != s.Delta {
			continue
		}
		switch {
		case a.Categorical():
			return mechanics.Invalid("--delta %s: %s is varied over words (%s); a change per +1 needs a numeric parameter", s.Delta, a.Name, strings.Join(a.Labels, ", "))
		case len(a.Values) < 2:
			return mechanics.Invalid("--delta %s: %s takes one value; vary it over two or more", s.Delta, a.Name)
		}
		return nil
	}
	return mechanics.Invalid("--delta %s: not a varied parameter (varied: %s); vary it too, e.g. --vary %s=a..b", s.Delta, strings.Join(names(s.Axes), ", "), s.Delta)
}

// parseMetrics parses metrics (engine.ParseMetric), refusing one given
// twice. Errors are bad input.
func parseMetrics(texts []string) ([]*engine.Metric, error) {
	var out []*engine.Metric
	seen := map[string]bool{}
	for _, t := range texts {
		m, err := engine.ParseMetric(t)
		if err != nil {
			return nil, mechanics.AsInput(err)
		}
		if seen[m.Text] {
			return nil, mechanics.Invalid("metric %s is given twice", m.Text)
		}
		seen[m.Text] = true
		out = append(out, m)
	}
	return out, nil
}

// outputs builds the model at c and returns an empty result that names
// its outputs (events, bands and their categories, variables), for
// checking metrics before anything runs.
func outputs(m *mechanics.Mechanic, c mechanics.Config) (*engine.Result, error) {
	spec, err := m.Model(c)
	if err != nil {
		return nil, err
	}
	r := &engine.Result{Mechanic: m.ID}
	for _, part := range spec.Parts() {
		for _, e := range part.Events {
			r.Events = append(r.Events, engine.EventResult{Name: e.Name})
		}
		for _, b := range part.Bands {
			r.Bands = append(r.Bands, engine.BandResult{Name: b.Name, Labels: b.Labels})
		}
		for _, v := range part.Vars {
			r.Vars = append(r.Vars, engine.VarResult{Name: v.Name, Unit: v.Unit})
		}
	}
	return r, nil
}

// defaultMetric is a model's first event, else its first variable's mean.
func defaultMetric(r *engine.Result) ([]*engine.Metric, error) {
	var text string
	switch {
	case len(r.Events) > 0:
		text = "event:" + r.Events[0].Name
	case len(r.Vars) > 0:
		text = "mean:" + r.Vars[0].Name
	default:
		return nil, fmt.Errorf("%s reports no event and no variable to sweep", r.Mechanic)
	}
	m, err := engine.ParseMetric(text)
	if err != nil {
		return nil, err
	}
	return []*engine.Metric{m}, nil
}

// checkMetrics refuses a metric that names an output the model (whose
// outputs r names) does not have, as bad input.
func checkMetrics(r *engine.Result, metrics []*engine.Metric) error {
	for _, met := range metrics {
		if err := met.Check(r); err != nil {
			return mechanics.AsInput(err)
		}
	}
	return nil
}

// checkModel builds the model at one point, so that a configuration the
// rules do not allow (more allies than candidates, say) is refused before
// anything runs, and refuses a metric (engine.ParseMetric) that names no
// output of it. An empty metric is not checked.
func checkModel(m *mechanics.Mechanic, c mechanics.Config, metric string) error {
	r, err := outputs(m, c)
	if err != nil || metric == "" {
		return err
	}
	metrics, err := parseMetrics([]string{metric})
	if err != nil {
		return err
	}
	return checkMetrics(r, metrics)
}

// metricValue reads a metric (engine.ParseMetric) from a whole result.
func metricValue(r *engine.Result, text string) (float64, error) {
	m, err := engine.ParseMetric(text)
	if err != nil {
		return 0, err
	}
	e, err := m.Eval(r)
	return e.V, err
}

// Points is the number of grid points (after Validate).
func (s *Sweep) Points() int { return len(s.grid) }

// MetricTexts are the metrics every point reports (after Validate): those
// given, or the default.
func (s *Sweep) MetricTexts() []string {
	out := make([]string, len(s.metrics))
	for i, m := range s.metrics {
		out[i] = m.Text
	}
	return out
}

// Run computes every point (validating first if needed); done is called
// after each. Each point's metrics are read from its whole result, then
// its distributions are dropped; the differences along Delta are taken
// once every point is in.
func (s *Sweep) Run(ctx context.Context, done func()) ([]reports.SweepPoint, error) {
	if s.configs == nil {
		if err := s.Validate(); err != nil {
			return nil, err
		}
	}
	pts := make([]reports.SweepPoint, 0, len(s.grid))
	for i, c := range s.configs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := s.Engine.Run(ctx, s.Mechanic, c)
		if err != nil {
			return nil, fmt.Errorf("at %s: %w", describePoint(s.Axes, s.grid[i]), err)
		}
		ests := make([]engine.Estimate, len(s.metrics))
		for j, m := range s.metrics {
			if ests[j], err = m.Eval(r); err != nil {
				return nil, fmt.Errorf("at %s: %w", describePoint(s.Axes, s.grid[i]), err)
			}
		}
		if !s.KeepAll {
			r = slim(r, s.KeepSurvival)
		}
		pts = append(pts, reports.SweepPoint{Values: s.grid[i], Result: r, Metrics: ests})
		if done != nil {
			done()
		}
	}
	s.differences(pts)
	return pts, nil
}

// differences fills each point's Deltas: the forward difference of every
// metric along the Delta axis, divided by the step to the next value
// there. A simulated difference's interval joins the ends of the two
// intervals (next.Lo − here.Hi, next.Hi − here.Lo), which covers it
// whatever the correlation of the two estimates; an exact one is a point.
func (s *Sweep) differences(pts []reports.SweepPoint) {
	k := slices.IndexFunc(s.Axes, func(a Axis) bool { return a.Name == s.Delta })
	if s.Delta == "" || k < 0 {
		return
	}
	nx := len(s.Axes[0].Values)
	stride := 1
	if k == 1 {
		stride = nx
	}
	vals := s.Axes[k].Values
	for i := range pts {
		pos := i % nx
		if k == 1 {
			pos = i / nx
		}
		if pos+1 >= len(vals) {
			continue
		}
		step := vals[pos+1] - vals[pos]
		here, next := pts[i].Metrics, pts[i+stride].Metrics
		d := make([]engine.Estimate, len(here))
		for j := range here {
			d[j] = engine.Estimate{V: (next[j].V - here[j].V) / step, Lo: (next[j].Lo - here[j].Hi) / step, Hi: (next[j].Hi - here[j].Lo) / step}
		}
		pts[i].Deltas = d
	}
}

// Report is a run's points as the reports show them: the axes (with their
// words), the metrics, the delta and how to draw two axes (plot).
func (s *Sweep) Report(pts []reports.SweepPoint, plot string) *reports.Sweep {
	rs := &reports.Sweep{Mechanic: s.Mechanic.ID, Metrics: s.MetricTexts(), Asked: len(s.Metrics) > 0, Delta: s.Delta, Points: pts, Kind: plot}
	for _, a := range s.Axes {
		rs.Axes = append(rs.Axes, reports.SweepAxis{Name: a.Name, Values: a.Values, Labels: a.Labels})
	}
	return rs
}

// Names lists the varied parameters.
func (s *Sweep) Names() []string { return names(s.Axes) }

// Values lists the axes' values.
func (s *Sweep) Values() [][]float64 { return values(s.Axes) }

// slim keeps of a point's result what a sweep reports — metadata, events,
// bands, the statistics of every variable, the survival curve if asked —
// and drops the distributions, so that a 100 000-point sweep holds
// megabytes, not gigabytes.
func slim(r *engine.Result, survival bool) *engine.Result {
	out := *r
	out.Vars = make([]engine.VarResult, len(r.Vars))
	for i, v := range r.Vars {
		v.P, v.Counts, v.Exact = nil, nil, nil
		out.Vars[i] = v
	}
	if r.Process != nil && !survival {
		pr := *r.Process
		pr.Survival = nil
		out.Process = &pr
	}
	return &out
}
