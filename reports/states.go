package reports

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/oddsmith/oddsmith/engine"
)

// maxLayers is the most categories a stacked bar shows apart: past it the
// colours of a gradient can no longer be told apart in a legend.
const maxLayers = 12

// maxJointLayers is the most final states of a process over two state
// variables that are drawn as stacked bars; more are a heat map over the
// two variables.
const maxJointLayers = 8

// bandOf is the named band of a result, or nil.
func bandOf(r *engine.Result, name string) *engine.BandResult {
	for i := range r.Bands {
		if r.Bands[i].Name == name {
			return &r.Bands[i]
		}
	}
	return nil
}

// shorten keeps the first n of names and says how many more there are.
func shorten(names []string, n int) []string {
	if len(names) <= n {
		return names
	}
	return append(slices.Clone(names[:n]), fmt.Sprintf("and %d more", len(names)-n))
}

// jointStates reads the labels of a process's states over two state
// variables ("hp=3 round=2", as process rules name them): the two names,
// and ok when every label is of that form with the same names.
func jointStates(labels []string) (names [2]string, ok bool) {
	for i, l := range labels {
		vs, ok := stateValues(l)
		if !ok || len(vs) != 2 {
			return names, false
		}
		if i == 0 {
			names = [2]string{vs[0].name, vs[1].name}
		} else if vs[0].name != names[0] || vs[1].name != names[1] {
			return names, false
		}
	}
	return names, len(labels) > 0
}

type stateValue struct {
	name string
	v    int
}

// stateValues splits a state label "hp=3 round=2" into its settings.
func stateValues(label string) ([]stateValue, bool) {
	var out []stateValue
	for _, f := range strings.Fields(label) {
		n, v, ok := strings.Cut(f, "=")
		if !ok || n == "" {
			return nil, false
		}
		x, err := strconv.Atoi(v)
		if err != nil {
			return nil, false
		}
		out = append(out, stateValue{n, x})
	}
	return out, len(out) > 0
}

// stateGrid is the final-state distribution of one result over two state
// variables: z[row][col] = P(first = xs[col], second = ys[row]), NaN for a
// pair that is not a state or has no mass.
func stateGrid(b *engine.BandResult, xs, ys []float64) [][]float64 {
	z := make([][]float64, len(ys))
	for r := range z {
		z[r] = make([]float64, len(xs))
		for c := range z[r] {
			z[r][c] = math.NaN()
		}
	}
	for k, l := range b.Labels {
		vs, _ := stateValues(l)
		c, r := slices.Index(xs, float64(vs[0].v)), slices.Index(ys, float64(vs[1].v))
		if k < len(b.P) && b.P[k] >= massFloor && c >= 0 && r >= 0 {
			z[r][c] = b.P[k]
		}
	}
	return z
}

// WriteStates draws the final states of a process over two state
// variables as a heat map of P(first = x, second = y) — one per result,
// side by side, labelled by labels, on one colour scale from 0 to the
// largest probability. A pair that is not a state, or has no mass, is
// left blank.
func WriteStates(w io.Writer, title, caption string, labels []string, rs []*engine.Result, band string) error {
	if len(rs) == 0 {
		return fmt.Errorf("no results to plot")
	}
	b0 := bandOf(rs[0], band)
	if b0 == nil {
		return fmt.Errorf("%s has no band %q", rs[0].Mechanic, band)
	}
	names, ok := jointStates(b0.Labels)
	if !ok {
		return fmt.Errorf("the states of %s are not over two state variables", band)
	}
	if caption == "" {
		caption = Caption(rs[0])
	}
	// The values of the two variables over every result's states (a
	// sweep may change their bounds).
	var xs, ys []float64
	states := 0
	for _, r := range rs {
		b := bandOf(r, band)
		if b == nil {
			return fmt.Errorf("%s has no band %q", r.Mechanic, band)
		}
		if ns, ok := jointStates(b.Labels); !ok || ns != names {
			return fmt.Errorf("the states of %s differ from one result to the next", band)
		}
		states = max(states, len(b.Labels))
		for _, l := range b.Labels {
			vs, _ := stateValues(l)
			if x := float64(vs[0].v); !slices.Contains(xs, x) {
				xs = append(xs, x)
			}
			if y := float64(vs[1].v); !slices.Contains(ys, y) {
				ys = append(ys, y)
			}
		}
	}
	slices.Sort(xs)
	slices.Sort(ys)
	grids := make([][][]float64, len(rs))
	hi := 0.0
	for i, r := range rs {
		b := bandOf(r, band)
		grids[i] = stateGrid(b, xs, ys)
		_, h := zRange(grids[i])
		hi = math.Max(hi, h)
	}
	if hi <= 0 {
		hi = 1
	}
	zLabel := fmt.Sprintf("P(ends with %s = x, %s = y)", words(names[0]), words(names[1]))
	caption = strings.TrimSpace(fmt.Sprintf("blank: no final state of any mass (%s); colours from 0 to the largest probability, %s", statesNote(states, len(rs)), probLabel(hi)) + "\n" + caption)
	if len(rs) == 1 {
		h := &Heatmap{Title: title, XLabel: words(names[0]), YLabel: words(names[1]), Metric: zLabel, Caption: caption,
			Xs: xs, Ys: ys, Z: grids[0], fit: true, kind: "states"}
		return WriteHeatmap(w, h)
	}
	return writeStateGrid(w, title, caption, labels, names, xs, ys, grids, hi, zLabel)
}

// writeStateGrid draws several state heat maps in a grid of up to three
// columns, with one colour bar and the caption under them.
func writeStateGrid(w io.Writer, title, caption string, labels []string, names [2]string, xs, ys []float64, grids [][][]float64, hi float64, zLabel string) error {
	n := len(grids)
	cols := min(n, 3)
	rows := (n + cols - 1) / cols
	width := chartW2
	cellW := (width - 2*figMargin) / vg.Length(cols)
	tileH := cellW * 0.8
	titleSty, capSty := textStyle(17), textStyle(captionFont)
	tl := wrapText(title, titleSty, width-2*figMargin)
	titleH := vg.Length(len(tl))*lineHeight(titleSty) + figMargin
	cl := wrapText(caption, capSty, width-2*figMargin)
	capH := lineHeight(capSty)*vg.Length(len(cl)) + 2*figMargin
	height := titleH + vg.Length(rows)*tileH + colorBarH + capH
	img := newCanvas(w, width, height)
	dc := draw.New(img)
	centredLines(dc, titleSty, tl, width/2, height-figMargin/2)
	spec := &ChartSpec{Title: title, Caption: caption}
	var first *plot.Plot
	var firstC draw.Canvas
	for i, z := range grids {
		label := ""
		if i < len(labels) {
			label = labels[i]
		}
		p := newPlot(label, words(names[0]), words(names[1]))
		p.Title.TextStyle.Font.Size = vg.Points(13)
		hm := plotter.NewHeatMap(grid{xs: xs, ys: ys, z: z}, moreland.SmoothBlueRed().Palette(255))
		hm.Min, hm.Max = 0, hi
		hm.NaN = color.White
		p.Add(hm)
		p.X.Tick.Marker = valueTicks(xs, nil)
		p.Y.Tick.Marker = valueTicks(ys, nil)
		x0 := figMargin + vg.Length(i%cols)*cellW
		top := height - titleH - vg.Length(i/cols)*tileH
		c := dc
		c.Min, c.Max = vg.Point{X: x0, Y: top - tileH}, vg.Point{X: x0 + cellW, Y: top}
		c = draw.Crop(c, figMargin/2, -figMargin/2, 0, -figMargin/2)
		p.Draw(c)
		if first == nil {
			first, firstC = p, c
		}
		spec.Panels = append(spec.Panels, PanelSpec{Kind: "states", Title: label,
			Series: []SeriesSpec{{Name: label, Draw: "cells", Points: countCells(z), Sorted: true}}})
	}
	cb := dc
	y := height - titleH - vg.Length(rows)*tileH
	cb.Max.Y, cb.Min.Y = y, y-colorBarH
	da := first.DataCanvas(firstC)
	cb.Min.X, cb.Max.X = figMargin+da.Min.X-firstC.Min.X, width-figMargin
	colorBar(zLabel, 0, hi, false).Draw(cb)
	centredLines(dc, capSty, cl, width/2, y-colorBarH-figMargin/2)
	return img.finish(spec)
}

// countCells counts the cells of a grid that hold a value.
func countCells(z [][]float64) int {
	n := 0
	for _, row := range z {
		for _, v := range row {
			if !math.IsNaN(v) {
				n++
			}
		}
	}
	return n
}

// statesNote counts the states of n results' chains.
func statesNote(states, n int) string {
	if n == 1 {
		return fmt.Sprintf("%d states in all", states)
	}
	return fmt.Sprintf("up to %d states in each", states)
}
