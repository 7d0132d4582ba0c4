package study

import (
	"context"
	"fmt"
	"strings"

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

	grid    [][]float64
	configs []mechanics.Config
}

// Validate checks the engine, the metric and every point of the grid
// before anything runs. Errors are bad input.
func (s *Sweep) Validate() error {
	if err := s.Engine.Validate(s.Mechanic); err != nil {
		return err
	}
	if s.Metric != "" {
		if err := reports.CheckMetric(s.Metric); err != nil {
			return mechanics.AsInput(err)
		}
	}
	grid, err := Grid(s.Axes)
	if err != nil {
		return err
	}
	configs, err := Configs(s.Mechanic, s.Base, s.Axes, grid)
	if err != nil {
		return err
	}
	if s.Metric != "" {
		if err := checkMetricName(s.Mechanic, configs[0], s.Metric); err != nil {
			return err
		}
	}
	s.grid, s.configs = grid, configs
	return nil
}

// checkMetricName refuses a metric that names no event or variable of the
// model (built at one point of the grid), before anything runs.
func checkMetricName(m *mechanics.Mechanic, c mechanics.Config, metric string) error {
	spec, err := m.Model(c)
	if err != nil {
		return err
	}
	kind, name, _ := strings.Cut(metric, ":")
	if kind == "event" {
		for _, e := range spec.Events {
			if e.Name == name {
				return nil
			}
		}
		return mechanics.Invalid("%s has no event %q (run 'oddsmith describe %s')", m.ID, name, m.ID)
	}
	for _, v := range spec.Vars {
		if v.Name == name {
			return nil
		}
	}
	return mechanics.Invalid("%s has no variable %q (run 'oddsmith describe %s')", m.ID, name, m.ID)
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
		pts = append(pts, reports.SweepPoint{Values: s.grid[i], Result: r})
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
