package study

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/chartcheck"
	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/systems"
)

// stylePlan is an overlay and a chart whose series set their colour, dash
// and label, and a series of a one-line rule with none of them.
const stylePlan = `seed = 1
[[overlay]]
name = "pairs"
xlabel = "target number"
range = "3..12"
metric = "event:success"
series = [
  { label = "book", mechanic = "ag.skill_test", x = "tn", set = { skill = 3 }, color = "vermillion", dash = "solid" },
  { label = "house", mechanic = "ag.skill_test", x = "tn", set = { skill = 3, "opt.tie" = "success" }, color = "#D55E00", dash = "dashed" },
  { expr = "d20 + bonus >= tn", x = "tn", set = { bonus = 2 }, color = "sky blue", dash = "dotted" },
]

[[chart]]
name = "styled"
caption = "two rolls"
[[chart.panel]]
kind = "lines"
metric = "event:success"
range = "1..20"
series = [
  { label = "gm", mechanic = "gm.core.roll", x = "score", color = "black", dash = "dotted" },
  { label = "3d6", expr = "3d6 >= tn", x = "tn", color = "orange" },
]
`

// TestPlanStyles: the colour, dash and label a plan asks for a series are
// drawn, and the chart's spec records what was asked, so that chartcheck
// sees it; an unlabelled series is named by its rule and settings.
func TestPlanStyles(t *testing.T) {
	t.Parallel()
	p, err := ParsePlan(systems.Default, "p.toml", []byte(stylePlan))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "b")
	if _, err := RunPlan(context.Background(), p, dir, nil); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]reports.StyleSpec{
		"pairs": {
			"book":                        {Color: "#d55e00", Dash: "solid"},
			"house":                       {Color: "#d55e00", Dash: "dashed"},
			"d20 + bonus >= tn (bonus=2)": {Color: "#56b4e9", Dash: "dotted"},
		},
		"styled": {"gm": {Color: "#000000", Dash: "dotted"}, "3d6": {Color: "#e69f00"}},
	}
	for name, series := range want {
		b, err := os.ReadFile(filepath.Join(dir, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		chartcheck.Check(t, name, b)
		spec, err := reports.ReadChartSpec(b)
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, s := range spec.Panels[0].Series {
			w, ok := series[s.Name]
			if !ok {
				t.Errorf("%s: a series %q", name, s.Name)
				continue
			}
			seen++
			if s.Asked == nil || *s.Asked != w {
				t.Errorf("%s: series %q asked %+v; want %+v", name, s.Name, s.Asked, w)
			}
			if w.Color != "" && s.Color != w.Color {
				t.Errorf("%s: series %q drawn in %s; want %s", name, s.Name, s.Color, w.Color)
			}
			if d := strings.TrimPrefix(w.Dash, "solid"); s.Dash != d {
				t.Errorf("%s: series %q drawn %q; want %q", name, s.Name, s.Dash, d)
			}
		}
		if seen != len(series) {
			t.Errorf("%s: %d of %d series drawn", name, seen, len(series))
		}
		if name == "pairs" {
			// The caption names the rule and what tells the two ag series
			// apart (the tie option), not only their mechanic.
			for _, w := range []string{"rule d20 + bonus >= tn", "house: ag.skill_test · tie=success", "book: ag.skill_test · tie=band", "every ag.skill_test series: skill=3"} {
				if !strings.Contains(spec.Caption, w) {
					t.Errorf("pairs: the caption %q lacks %q", spec.Caption, w)
				}
			}
		}
	}
}

// TestPlanStyleErrors: a colour or dash the chart cannot draw is refused
// before anything runs, with the line of the series that asks for it.
func TestPlanStyleErrors(t *testing.T) {
	t.Parallel()
	overlay := "seed = 1\n[[overlay]]\nname = \"o\"\nrange = \"1..5\"\nseries = [\n  { label = \"a\", mechanic = \"gm.core.roll\", x = \"score\" },\n  { label = \"b\", mechanic = \"gm.core.roll\", x = \"score\", %s },\n]\n"
	chart := "seed = 1\n[[chart]]\nname = \"c\"\n[[chart.panel]]\nmetric = \"event:success\"\nrange = \"1..5\"\nseries = [\n  { label = \"a\", mechanic = \"gm.core.roll\", x = \"score\" },\n  { label = \"b\", mechanic = \"gm.core.roll\", x = \"score\", %s },\n]\n"
	for _, c := range []struct {
		tmpl, style, want string
		line              int
	}{
		{overlay, `color = "teal"`, `color "teal" is neither #rrggbb nor a name of the palette: blue, vermillion`, 7},
		{overlay, `color = "#12345"`, `color "#12345": give #rrggbb`, 7},
		{overlay, `dash = "dashdot"`, `dash "dashdot": want solid, dashed, dotted`, 7},
		{chart, `color = "pink"`, `series "b": color "pink"`, 9},
		{chart, `dash = "wavy"`, `dash "wavy"`, 9},
	} {
		src := strings.Replace(c.tmpl, "%s", c.style, 1)
		_, err := ParsePlan(systems.Default, "p.toml", []byte(src))
		var pe *PlanError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v; want an error with %q", c.style, err, c.want)
			continue
		}
		if pe.Line != c.line {
			t.Errorf("%s: line %d; want %d, the series' (%v)", c.style, pe.Line, c.line, err)
		}
	}
	// Two series of one overlay cannot share a label.
	src := strings.Replace(overlay, `label = "b"`, `label = "a"`, 1)
	src = strings.Replace(src, "%s", `color = "blue"`, 1)
	if _, err := ParsePlan(systems.Default, "p.toml", []byte(src)); err == nil || !strings.Contains(err.Error(), "another series has this label") {
		t.Errorf("two series labelled a: %v", err)
	}
}
