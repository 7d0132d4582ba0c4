package reports

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"image/color"
	"math"
)

// ChartSpec is what a chart draws, recorded as it is drawn: its panels,
// each series with the way it is drawn, the legend with the mass of each
// category, the heat map's cell labels. Every PNG the package writes
// carries it (an iTXt chunk with the keyword SpecKeyword, in JSON), so
// that a test, or a tool, can check a chart from the file alone: that
// whole-number axes are drawn as markers or steps, that no legend lists a
// category of no mass, that a tail stops at 1e-6. ReadChartSpec reads it.
type ChartSpec struct {
	Title string `json:"title"`
	// Caption is the caption printed under the chart, its lines joined
	// by "\n" (as given, before it is wrapped to the chart's width).
	Caption string      `json:"caption,omitempty"`
	Panels  []PanelSpec `json:"panels"`
}

// PanelSpec is one set of axes of a chart.
type PanelSpec struct {
	// Kind is what the panel shows: "pmf", "atleast", "tail",
	// "survival", "bands", "states" (a heat map of a two-variable
	// process's final states), "lines", "heatmap", "compare", "diff",
	// "bars", "stacked", "validation".
	Kind  string `json:"kind"`
	Title string `json:"title,omitempty"`
	// LogY is a logarithmic y axis, YMin its bottom.
	LogY bool    `json:"log_y,omitempty"`
	YMin float64 `json:"y_min"`
	// Series are the data drawn, in the order drawn.
	Series []SeriesSpec `json:"series,omitempty"`
	// Legend is the legend's entries, in reading order.
	Legend []LegendSpec `json:"legend,omitempty"`
	// Cells are the labels printed in a heat map's cells.
	Cells []string `json:"cells,omitempty"`
}

// SeriesSpec is one series of a panel, as drawn.
type SeriesSpec struct {
	Name string `json:"name"`
	// Draw is how the values are drawn: "bars", "markers" (markers,
	// joined by thin guides at most), "steps" (a cumulative probability
	// of a whole-number variable), "stacked" (stacked bars), "cells" (a
	// heat map). No data is drawn as a plain line: every series is known
	// only at the points computed.
	Draw string `json:"draw"`
	// Points is the number of values drawn; Markers tells whether each
	// carries a marker; Sorted whether they are drawn in the order of x.
	Points  int  `json:"points"`
	Markers bool `json:"markers"`
	Sorted  bool `json:"sorted"`
	// Simulated values carry their 95% intervals (Intervals).
	Simulated bool `json:"simulated,omitempty"`
	Intervals bool `json:"intervals,omitempty"`
	// MinY is the smallest value drawn.
	MinY float64 `json:"min_y"`
	// Color is the series' colour (#rrggbb); Dashed a dashed guide or
	// step line.
	Color  string `json:"color,omitempty"`
	Dashed bool   `json:"dashed,omitempty"`
	// Dash names the dash pattern drawn: "dashed", "dotted", "pattern"
	// (one of those series take past eight); "" for a solid line.
	Dash string `json:"dash,omitempty"`
	// Asked is the look the plan asked for the series (Style), nil when
	// it left it to the package.
	Asked *StyleSpec `json:"asked,omitempty"`
}

// StyleSpec is the look a plan asked for a series: its colour (#rrggbb)
// and its dash ("solid", "dashed", "dotted"), each "" when not asked.
type StyleSpec struct {
	Color string `json:"color,omitempty"`
	Dash  string `json:"dash,omitempty"`
}

// LegendSpec is one legend entry. Mass, for the category of a bar chart,
// is its largest share over the bars.
type LegendSpec struct {
	Name string   `json:"name"`
	Mass *float64 `json:"mass,omitempty"`
}

// SpecKeyword is the keyword of the PNG text chunk that holds a chart's
// ChartSpec.
const SpecKeyword = "oddsmith-chart"

func hexColor(c color.Color) string {
	if c == nil {
		return ""
	}
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// seriesSpec records a series drawn as draw from its points (in the
// order drawn).
func seriesSpec(name, draw string, xy []XY, markers bool, col color.Color, dashed bool) SeriesSpec {
	s := SeriesSpec{Name: name, Draw: draw, Points: len(xy), Markers: markers, Sorted: true, MinY: math.Inf(1), Color: hexColor(col), Dashed: dashed}
	for i, q := range xy {
		if i > 0 && q.X < xy[i-1].X {
			s.Sorted = false
		}
		if !math.IsNaN(q.Y) {
			s.MinY = math.Min(s.MinY, q.Y)
		}
	}
	if math.IsInf(s.MinY, 1) {
		s.MinY = 0
	}
	return s
}

// WithChartSpec adds a chart's spec to an encoded PNG: an iTXt chunk
// just before IEND, which ReadChartSpec reads.
func WithChartSpec(png []byte, spec *ChartSpec) ([]byte, error) {
	if spec == nil {
		return png, nil
	}
	js, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	const iend = 12 // the IEND chunk: length, type, CRC
	if len(png) < 8+iend || string(png[len(png)-iend+4:len(png)-iend+8]) != "IEND" {
		return nil, errors.New("not a PNG ending in IEND")
	}
	var data bytes.Buffer
	data.WriteString(SpecKeyword)
	data.Write([]byte{0, 0, 0}) // end of keyword, not compressed, method 0
	data.WriteByte(0)           // no language tag
	data.WriteByte(0)           // no translated keyword
	data.Write(js)
	var chunk bytes.Buffer
	binary.Write(&chunk, binary.BigEndian, uint32(data.Len()))
	body := append([]byte("iTXt"), data.Bytes()...)
	chunk.Write(body)
	binary.Write(&chunk, binary.BigEndian, crc32.ChecksumIEEE(body))
	out := make([]byte, 0, len(png)+chunk.Len())
	out = append(out, png[:len(png)-iend]...)
	out = append(out, chunk.Bytes()...)
	return append(out, png[len(png)-iend:]...), nil
}

// ReadChartSpec reads the ChartSpec a PNG of this package carries.
func ReadChartSpec(png []byte) (*ChartSpec, error) {
	if len(png) < 8 || string(png[1:4]) != "PNG" {
		return nil, errors.New("not a PNG")
	}
	for b := png[8:]; len(b) >= 12; {
		n := int(binary.BigEndian.Uint32(b))
		if n < 0 || 12+n > len(b) {
			return nil, errors.New("a PNG chunk runs past the end")
		}
		typ, data := string(b[4:8]), b[8:8+n]
		if typ == "iTXt" && bytes.HasPrefix(data, []byte(SpecKeyword+"\x00")) {
			rest := data[len(SpecKeyword)+3:]
			for range 2 { // language tag and translated keyword
				i := bytes.IndexByte(rest, 0)
				if i < 0 {
					return nil, errors.New("a malformed iTXt chunk")
				}
				rest = rest[i+1:]
			}
			var s ChartSpec
			if err := json.Unmarshal(rest, &s); err != nil {
				return nil, err
			}
			return &s, nil
		}
		b = b[12+n:]
	}
	return nil, errors.New("the PNG carries no chart spec")
}
