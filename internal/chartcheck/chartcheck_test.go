package chartcheck

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/reports"
)

// pngWith is a tiny PNG carrying spec.
func pngWith(t *testing.T, spec *reports.ChartSpec) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	out, err := reports.WithChartSpec(b.Bytes(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(out)); err != nil {
		t.Fatalf("the PNG no longer decodes with its spec: %v", err)
	}
	return out
}

// TestProblems: each rule catches the chart that breaks it, and a chart
// that keeps them all passes.
func TestProblems(t *testing.T) {
	t.Parallel()
	zero := 0.0
	good := reports.PanelSpec{Kind: "lines", Series: []reports.SeriesSpec{
		{Name: "a", Draw: "markers", Points: 3, Markers: true, Sorted: true, Color: "#0072b2"},
		{Name: "b", Draw: "steps", Points: 3, Markers: true, Sorted: true, Color: "#d55e00", Simulated: true, Intervals: true}}}
	const caption = "exact · R=12 H=12 · s0 and effect_dice: the preset's"
	if p := Problems(pngWith(t, &reports.ChartSpec{Caption: caption, Panels: []reports.PanelSpec{good}})); len(p) > 0 {
		t.Errorf("a good chart: %q", p)
	}
	var plain bytes.Buffer
	png.Encode(&plain, image.NewGray(image.Rect(0, 0, 2, 2)))
	if p := Problems(plain.Bytes()); len(p) != 1 || !strings.Contains(p[0], "no chart spec") {
		t.Errorf("a PNG without a spec: %q", p)
	}
	for _, c := range []struct {
		want string
		edit func(p *reports.PanelSpec)
	}{
		{"drawn as \"line\"", func(p *reports.PanelSpec) { p.Series[0].Draw = "line" }},
		{"without its markers", func(p *reports.PanelSpec) { p.Series[0].Markers = false }},
		{"not drawn in the order of x", func(p *reports.PanelSpec) { p.Series[0].Sorted = false }},
		{"no 95% intervals", func(p *reports.PanelSpec) { p.Series[0].Simulated = true }},
		{"share the colour", func(p *reports.PanelSpec) { p.Series[1].Color = p.Series[0].Color }},
		{"dashed", func(p *reports.PanelSpec) { p.Series[1].Dashed = true }},
		{"no mass", func(p *reports.PanelSpec) { p.Legend = []reports.LegendSpec{{Name: "still ill", Mass: &zero}} }},
		{"below 1e-06", func(p *reports.PanelSpec) { p.Kind, p.LogY, p.YMin = "tail", true, 1e-14 }},
		{"a cell reads \"1.00\"", func(p *reports.PanelSpec) { p.Cells = []string{"0.50", "1.00"} }},
	} {
		p := good
		p.Series = append([]reports.SeriesSpec(nil), good.Series...)
		c.edit(&p)
		got := Problems(pngWith(t, &reports.ChartSpec{Caption: caption, Panels: []reports.PanelSpec{p}}))
		if len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), c.want) {
			t.Errorf("want a problem with %q; got %q", c.want, got)
		}
	}
}

// TestCaptionProblems: a caption that prints a sentinel of a built-in
// parameter (gm ailments' s0=-99, effect_dice=-1, effect_sides=0), ends
// in a separator or is missing is caught; the same settings in words, or
// other values of those parameters, are not.
func TestCaptionProblems(t *testing.T) {
	t.Parallel()
	panel := reports.PanelSpec{Kind: "pmf", Series: []reports.SeriesSpec{{Name: "P", Draw: "bars", Points: 3, Sorted: true}}}
	for caption, want := range map[string]string{
		"exact · R=10 H=10 s0=-99 willing=0":                   "sentinel s0=-99",
		"exact · R=10 effect_dice=-1 effect_sides=0 horizon=1": "sentinel effect_dice=-1",
		"exact · effect_sides=0":                               "sentinel effect_sides=0",
		"exact · ":                                             "dangling separator",
		"exact ·\noptions: tie=band":                           "dangling separator",
		"":                                                     "no caption",
	} {
		got := strings.Join(Problems(pngWith(t, &reports.ChartSpec{Caption: caption, Panels: []reports.PanelSpec{panel}})), "\n")
		if !strings.Contains(got, want) {
			t.Errorf("caption %q: want a problem with %q; got %q", caption, want, got)
		}
	}
	for _, caption := range []string{
		"exact · R=12 H=12 s0=3 effect_dice=2 effect_sides=6",
		"exact · s0=-9 · effect_dice and effect_sides: the preset's",
		"exact · rule: 4d6kh3",
		"exact",
	} {
		if got := Problems(pngWith(t, &reports.ChartSpec{Caption: caption, Panels: []reports.PanelSpec{panel}})); len(got) > 0 {
			t.Errorf("caption %q: %q", caption, got)
		}
	}
}

// TestAskedStyles: a series a plan styled is drawn as asked — its colour,
// its dash — and may then share a colour with a series of another dash;
// a dash the plan asked for is no fault, one it did not ask for is.
func TestAskedStyles(t *testing.T) {
	t.Parallel()
	blue, vermillion := "#0072b2", "#d55e00"
	series := func(name, col, dash string, asked *reports.StyleSpec) reports.SeriesSpec {
		return reports.SeriesSpec{Name: name, Draw: "markers", Points: 3, Markers: true, Sorted: true, Color: col, Dash: dash, Dashed: dash != "", Asked: asked}
	}
	check := func(what string, want string, ss ...reports.SeriesSpec) {
		t.Helper()
		got := strings.Join(Problems(pngWith(t, &reports.ChartSpec{Caption: "exact", Panels: []reports.PanelSpec{{Kind: "lines", Series: ss}}})), "\n")
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("%s: want %q; got %q", what, want, got)
		}
	}
	check("a pair in one colour, solid and dashed, as asked", "",
		series("book", blue, "", &reports.StyleSpec{Color: blue, Dash: "solid"}),
		series("house", blue, "dashed", &reports.StyleSpec{Color: blue, Dash: "dashed"}))
	check("one colour and one dash", "share the colour",
		series("book", blue, "", &reports.StyleSpec{Color: blue}),
		series("house", blue, "", &reports.StyleSpec{Color: blue}))
	check("a colour shared without asking", "share the colour",
		series("a", blue, "", nil), series("b", blue, "dashed", nil))
	check("drawn in another colour than asked", "asked for the colour #0072b2",
		series("a", vermillion, "", &reports.StyleSpec{Color: blue}))
	check("drawn solid though asked dotted", "asked to be dotted",
		series("a", blue, "", &reports.StyleSpec{Dash: "dotted"}))
	check("dashed unasked", "is dashed with only",
		series("a", blue, "dashed", nil), series("b", vermillion, "", nil))
}
