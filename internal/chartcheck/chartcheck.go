package chartcheck

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/systems"
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
	"series of a panel (up to eight) have distinct colours and no dashes, unless a plan asked for them (then they differ in colour or dash)",
	"a series is drawn in the colour and dash its plan asked for",
	"the chart has a caption (what it was computed with), which prints no sentinel (a parameter's value that stands for a choice, as s0=-99) and no dangling separator",
}

// sentinels matches "name=value" for every parameter value a built-in
// mechanic declares as a sentinel (mechanics.Param.Sentinels).
var sentinels = sync.OnceValue(func() *regexp.Regexp {
	seen := map[string]bool{}
	var alts []string
	for _, m := range systems.Default.All() {
		for _, p := range m.Params {
			for v := range p.Sentinels {
				a := regexp.QuoteMeta(p.Name + "=" + mechanics.FormatNum(v))
				if !seen[a] {
					seen[a] = true
					alts = append(alts, a)
				}
			}
		}
	}
	if len(alts) == 0 {
		return nil
	}
	return regexp.MustCompile(`(^|[\s,;(])(` + strings.Join(alts, "|") + `)($|[\s,;)])`)
})

// captionProblems lists what is wrong with a chart's caption: a sentinel
// printed as a number, a separator with nothing on one side.
func captionProblems(caption string) []string {
	if strings.TrimSpace(caption) == "" {
		return []string{"the chart has no caption saying what it was computed with"}
	}
	var out []string
	if re := sentinels(); re != nil {
		for _, m := range re.FindAllStringSubmatch(caption, -1) {
			out = append(out, fmt.Sprintf("the caption prints the sentinel %s", m[2]))
		}
	}
	for _, l := range strings.Split(caption, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "·") || strings.HasSuffix(t, "·") || strings.Contains(t, "· ·") || strings.Contains(t, "··") {
			out = append(out, fmt.Sprintf("the caption line %q has a dangling separator", t))
		}
	}
	return out
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
	out = append(out, captionProblems(spec.Caption)...)
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
			// Series of one colour must differ in dash, and only where a
			// plan asked for the colour or the dash.
			for c, names := range colours {
				if len(names) < 2 {
					continue
				}
				dashes := map[string]bool{}
				asked := true
				for _, s := range p.Series {
					if (s.Draw == "markers" || s.Draw == "steps") && s.Color == c {
						dashes[s.Dash] = true
						asked = asked && s.Asked != nil
					}
				}
				if !asked || len(dashes) < len(names) {
					bad("%s: series %s share the colour %s", where, strings.Join(names, " and "), c)
				}
			}
			for _, s := range p.Series {
				if s.Dashed && (s.Asked == nil || s.Asked.Dash == "") {
					bad("%s: series %q is dashed with only %d series", where, s.Name, curves)
				}
			}
		}
		for _, s := range p.Series {
			if s.Asked == nil {
				continue
			}
			if s.Asked.Color != "" && !strings.EqualFold(s.Asked.Color, s.Color) {
				bad("%s: series %q was asked for the colour %s and is drawn in %s", where, s.Name, s.Asked.Color, s.Color)
			}
			if d := s.Asked.Dash; d != "" && s.Draw != "bars" && s.Draw != "stacked" && d != s.Dash && !(d == "solid" && s.Dash == "") {
				bad("%s: series %q was asked to be %s and is drawn %q", where, s.Name, d, s.Dash)
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
