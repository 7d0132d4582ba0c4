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
// parameters, the others fixed at Base.
type Sweep struct {
	Mechanic *mechanics.Mechanic
	Base     mechanics.Config
	Axes     []Axis
	Engine   Engine
	// Metric is what the plot shows ("event:NAME" or "mean:VAR"); empty
	// means the first event, else the first variable's mean.
	Metric string
	// KeepSurvival keeps each point's survival curve S(t) (a process's),
	// for a family plot of a short sweep; other distributions are dropped
	// as always.
	KeepSurvival bool

	grid    [][]float64
	configs []mechanics.Config
}

// Validate checks the engine, the metric and every point of the grid
// before anything runs. Errors are bad input.
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
	grid, err := Grid(s.Axes)
	if err != nil {
		return err
	}
	configs, err := Configs(s.Mechanic, s.Base, s.Axes, grid)
	if err != nil {
		return err
	}
	for i, c := range configs {
		if err := checkModel(s.Mechanic, c, s.Metric); err != nil {
			return fmt.Errorf("at %s: %w", describePoint(s.Axes, grid[i]), err)
		}
	}
	s.grid, s.configs = grid, configs
	return nil
}

// checkModel builds the model at one point, so that a configuration the
// rules do not allow (more allies than candidates, say) is refused before
// anything runs, and refuses a metric that names no event or variable of
// it. An empty metric is not checked.
func checkModel(m *mechanics.Mechanic, c mechanics.Config, metric string) error {
	spec, err := m.Model(c)
	if err != nil || metric == "" {
		return err
	}
	if err := reports.CheckMetric(metric); err != nil {
		return mechanics.AsInput(err)
	}
	var events, vars []string
	for _, part := range spec.Parts() {
		for _, e := range part.Events {
			events = append(events, e.Name)
		}
		for _, v := range part.Vars {
			vars = append(vars, v.Name)
		}
	}
	kind, name, _ := strings.Cut(metric, ":")
	// A designer's rule (--expr, --rules) names its outputs: 'oddsmith
	// describe ID' knows no one-liner, nor a rule without its file.
	hint := func(what string, names []string) string {
		if m.RuleText == "" {
			return "run 'oddsmith describe " + m.ID + "'"
		}
		if len(names) == 0 {
			return "it has no " + what + "s"
		}
		return "its " + what + "s: " + strings.Join(names, ", ")
	}
	if kind == "event" {
		if slices.Contains(events, name) {
			return nil
		}
		return mechanics.Invalid("%s has no event %q (%s)", m.ID, name, hint("event", events))
	}
	if slices.Contains(vars, name) {
		return nil
	}
	return mechanics.Invalid("%s has no variable %q (%s)", m.ID, name, hint("variable", vars))
}

// Points is the number of grid points (after Validate).
func (s *Sweep) Points() int { return len(s.grid) }

// Run computes every point (validating first if needed); done is called
// after each point.
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
		pts = append(pts, reports.SweepPoint{Values: s.grid[i], Result: slim(r, s.KeepSurvival)})
		if done != nil {
			done()
		}
	}
	return pts, nil
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
