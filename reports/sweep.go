package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"gonum.org/v1/plot/plotter"

	"github.com/oddsmith/oddsmith/mechanics"
)

// SweepPoint is one grid point of a sweep and its result.
type SweepPoint struct {
	Values []float64 // of the varied parameters, in order
	Result *mechanics.Result
}

// WriteSweepCSV writes one row per point: the varied parameters, then every
// event probability (with Wilson bounds for simulations) and the mean and SD
// of every variable, under a "# key: value" header of what was held fixed.
func WriteSweepCSV(w io.Writer, varied []string, pts []SweepPoint) error {
	if len(pts) == 0 {
		return fmt.Errorf("empty sweep")
	}
	r0 := pts[0].Result
	for _, h := range Header(r0) {
		if h[0] == "params" {
			h[1] += " (varied: " + fmt.Sprint(varied) + ")"
		}
		fmt.Fprintf(w, "# %s: %s\n", h[0], h[1])
	}
	cw := csv.NewWriter(w)
	head := append([]string(nil), varied...)
	for _, e := range r0.Events {
		head = append(head, e.Name)
		if r0.Engine == "sim" {
			head = append(head, e.Name+"_ci_lo", e.Name+"_ci_hi")
		}
	}
	for _, v := range r0.Vars {
		head = append(head, v.Name+"_mean", v.Name+"_sd")
	}
	cw.Write(head)
	for _, p := range pts {
		var row []string
		for _, v := range p.Values {
			row = append(row, mechanics.FormatNum(v))
		}
		for _, e := range p.Result.Events {
			row = append(row, num(e.P))
			if r0.Engine == "sim" {
				row = append(row, num(e.CI[0]), num(e.CI[1]))
			}
		}
		for _, v := range p.Result.Vars {
			row = append(row, num(v.Stats.Mean), num(v.Stats.SD))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// Metric picks one number from a result: "event:NAME" or "mean:VAR".
func Metric(r *mechanics.Result, metric string) (float64, error) {
	kind, name, ok := cutColon(metric)
	if !ok {
		return 0, fmt.Errorf("metric %q is not event:NAME or mean:VAR", metric)
	}
	switch kind {
	case "event":
		if e := r.Event(name); e != nil {
			return e.P, nil
		}
		return 0, fmt.Errorf("%s has no event %q", r.Mechanic, name)
	case "mean":
		if v := r.Var(name); v != nil {
			return v.Stats.Mean, nil
		}
		return 0, fmt.Errorf("%s has no variable %q", r.Mechanic, name)
	}
	return 0, fmt.Errorf("metric %q is not event:NAME or mean:VAR", metric)
}

func cutColon(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			return s[:i], s[i+1:], i > 0 && i < len(s)-1
		}
	}
	return "", "", false
}

// ParseRange parses "a..b" or "a..b:step" into the list of values.
func ParseRange(s string) ([]float64, error) {
	var lo, hi, step float64 = 0, 0, 1
	body, st, hasStep := s, "", false
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ':' {
			body, st, hasStep = s[:i], s[i+1:], true
			break
		}
	}
	var a, b string
	found := false
	for i := 0; i+1 < len(body); i++ {
		if body[i] == '.' && body[i+1] == '.' {
			a, b, found = body[:i], body[i+2:], true
			break
		}
	}
	if !found {
		return nil, fmt.Errorf("range %q is not a..b or a..b:step", s)
	}
	var err error
	if lo, err = strconv.ParseFloat(a, 64); err != nil {
		return nil, fmt.Errorf("range %q: bad start %q", s, a)
	}
	if hi, err = strconv.ParseFloat(b, 64); err != nil {
		return nil, fmt.Errorf("range %q: bad end %q", s, b)
	}
	if hasStep {
		if step, err = strconv.ParseFloat(st, 64); err != nil || step <= 0 {
			return nil, fmt.Errorf("range %q: step must be a positive number", s)
		}
	}
	if hi < lo {
		return nil, fmt.Errorf("range %q: end below start", s)
	}
	n := int((hi-lo)/step+1e-9) + 1
	if n > 10000 {
		return nil, fmt.Errorf("range %q has %d points (at most 10000)", s, n)
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = lo + float64(i)*step
	}
	return out, nil
}

// Grid lists the points of one or two axes (x varies fastest).
func Grid(axes [][]float64) [][]float64 {
	var g [][]float64
	if len(axes) == 1 {
		for _, x := range axes[0] {
			g = append(g, []float64{x})
		}
		return g
	}
	for _, y := range axes[1] {
		for _, x := range axes[0] {
			g = append(g, []float64{x, y})
		}
	}
	return g
}

// SweepConfigs validates every point of a sweep before anything runs.
func SweepConfigs(m *mechanics.Mechanic, base mechanics.Config, names []string, grid [][]float64) ([]mechanics.Config, error) {
	out := make([]mechanics.Config, len(grid))
	for i, pt := range grid {
		c := cloneConfig(base)
		for j, n := range names {
			if err := m.Set(c, n+"="+mechanics.FormatNum(pt[j])); err != nil {
				return nil, err
			}
		}
		out[i] = c
	}
	return out, nil
}

// WriteSweepPlot draws a sweep's metric: a line for one varied parameter, a
// heat map for two. The caption names the fixed parameters only. It returns
// the one-line finding for an index.
func WriteSweepPlot(w io.Writer, id, metric string, names []string, axes [][]float64, pts []SweepPoint) (string, error) {
	zs := make([]float64, len(pts))
	for i, p := range pts {
		var err error
		if zs[i], err = Metric(p.Result, metric); err != nil {
			return "", err
		}
	}
	caption := fixedCaption(pts[0].Result, names)
	title := fmt.Sprintf("%s — %s", id, metric)
	if len(axes) == 1 {
		var xy plotter.XYs
		for i, p := range pts {
			xy = append(xy, plotter.XY{X: p.Values[0], Y: zs[i]})
		}
		return lineFinding(metric, names[0], xy), WriteLines(w, title, names[0], metric, caption, []Series{{Name: metric, XY: xy}})
	}
	z := make([][]float64, len(axes[1]))
	for r := range z {
		z[r] = zs[r*len(axes[0]) : (r+1)*len(axes[0])]
	}
	return heatFinding(metric, names, axes, z), WriteHeatmap(w, title, names[0], names[1], metric, caption, axes[0], axes[1], z)
}

// fixedCaption is the caption of a sweep: the parameters held fixed (the
// varied ones are on the axes) and the options.
func fixedCaption(r *mechanics.Result, varied []string) string {
	fixed := *r
	fixed.Params = nil
	for _, p := range r.Params {
		if !contains(varied, p.Name) {
			fixed.Params = append(fixed.Params, p)
		}
	}
	return Caption(&fixed)
}
