package chartcheck

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/reports"
)

// Rules lists what Check checks, for a test's log.
var Rules = []string{
	"the PNG carries its chart spec",
	"no data series is drawn as a plain line: markers (thin guides at most), steps, bars or cells",
	"a series of markers has its markers; steps carry them up to 60 points",
	"points are drawn in the order of x",
	"simulated values carry their 95% intervals",
	"no legend entry of a category without mass",
	"a tail on a log scale stops at 1e-6",
	"heat-map cells never print a certainty (1.00, 0.00) for a value that is not one",
	"series of a panel (up to eight) have distinct colours and no dashes",
}

// Check checks a chart's PNG; name names it in errors.
func Check(t testing.TB, name string, png []byte) {
	t.Helper()
	for _, e := range Problems(png) {
		t.Errorf("%s: %s", name, e)
	}
}

// Problems lists the rules a chart's PNG breaks, in words.
func Problems(png []byte) []string {
	spec, err := reports.ReadChartSpec(png)
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	bad := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	if len(spec.Panels) == 0 {
		bad("the spec has no panel")
	}
	for _, p := range spec.Panels {
		where := p.Kind
		if p.Title != "" {
			where += " panel " + fmt.Sprintf("%q", p.Title)
		}
		colours := map[string][]string{}
		curves := 0
		for _, s := range p.Series {
			switch s.Draw {
			case "markers":
				if s.Points > 0 && !s.Markers {
					bad("%s: series %q is drawn without its markers", where, s.Name)
				}
			case "steps":
				if s.Points <= 60 && !s.Markers {
					bad("%s: series %q has %d steps and no markers", where, s.Name, s.Points)
				}
			case "bars", "stacked", "cells":
			default:
				bad("%s: series %q is drawn as %q, not as markers, steps, bars or cells", where, s.Name, s.Draw)
			}
			if !s.Sorted {
				bad("%s: series %q is not drawn in the order of x", where, s.Name)
			}
			if s.Simulated && !s.Intervals {
				bad("%s: series %q is simulated and has no 95%% intervals", where, s.Name)
			}
			if p.Kind == "tail" && s.Points > 0 && s.MinY < reports.TailFloor {
				bad("%s: series %q goes down to %g, below %g", where, s.Name, s.MinY, reports.TailFloor)
			}
			if s.Draw == "markers" || s.Draw == "steps" {
				curves++
				colours[s.Color] = append(colours[s.Color], fmt.Sprintf("%q", s.Name))
			}
		}
		if curves <= 8 {
			for c, names := range colours {
				if len(names) > 1 {
					bad("%s: series %s share the colour %s", where, strings.Join(names, " and "), c)
				}
			}
			for _, s := range p.Series {
				if s.Dashed {
					bad("%s: series %q is dashed with only %d series", where, s.Name, curves)
				}
			}
		}
		if p.Kind == "tail" && p.LogY && p.YMin < reports.TailFloor*(1-1e-9) {
			bad("%s: the log axis reaches down to %g, below %g", where, p.YMin, reports.TailFloor)
		}
		for _, l := range p.Legend {
			if l.Mass != nil && *l.Mass < 1e-12 {
				bad("%s: the legend lists %q, which has no mass (%g)", where, l.Name, *l.Mass)
			}
		}
		for _, c := range p.Cells {
			switch strings.TrimPrefix(c, "+") {
			case "1.00", "0.00", "-0.00", "-1.00":
				bad("%s: a cell reads %q", where, c)
			}
		}
	}
	return out
}
