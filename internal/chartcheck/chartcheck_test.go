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
	if p := Problems(pngWith(t, &reports.ChartSpec{Panels: []reports.PanelSpec{good}})); len(p) > 0 {
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
		got := Problems(pngWith(t, &reports.ChartSpec{Panels: []reports.PanelSpec{p}}))
		if len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), c.want) {
			t.Errorf("want a problem with %q; got %q", c.want, got)
		}
	}
}
