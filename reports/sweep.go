package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// SweepPoint is one grid point of a sweep and its result.
type SweepPoint struct {
	Values []float64 // of the varied parameters, in order
	Result *engine.Result
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
		if h[0] == "fingerprint" {
			continue // one per row: every point is its own model
		}
		if h[0] == "params" {
			h[1] += " (varied: " + fmt.Sprint(varied) + ")"
		}
		fmt.Fprintf(w, "# %s: %s\n", h[0], h[1])
	}
	cw := csv.NewWriter(w)
	head := append([]string(nil), varied...)
	for _, e := range r0.Events {
		head = append(head, e.Name)
		if r0.Engine == engine.Sim {
			head = append(head, e.Name+"_ci_lo", e.Name+"_ci_hi")
		}
	}
	for _, v := range r0.Vars {
		head = append(head, v.Name+"_mean", v.Name+"_sd")
	}
	head = append(head, "fingerprint")
	cw.Write(head)
	for _, p := range pts {
		var row []string
		for _, v := range p.Values {
			row = append(row, mechanics.FormatNum(v))
		}
		for _, e := range p.Result.Events {
			row = append(row, num(e.P))
			if r0.Engine == engine.Sim {
				row = append(row, num(e.CI[0]), num(e.CI[1]))
			}
		}
		for _, v := range p.Result.Vars {
			row = append(row, num(v.Stats.Mean), num(v.Stats.SD))
		}
		row = append(row, p.Result.Fingerprint)
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// Metric picks one number from a result: "event:NAME" or "mean:VAR".
func Metric(r *engine.Result, metric string) (float64, error) {
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

// CheckMetric reports a metric that is not of the form event:NAME or
// mean:VAR.
func CheckMetric(metric string) error {
	if k, _, ok := cutColon(metric); !ok || (k != "event" && k != "mean") {
		return fmt.Errorf("metric %q is not event:NAME or mean:VAR", metric)
	}
	return nil
}

// DefaultMetric is metric, or else the first event, or else the first variable's mean.
func DefaultMetric(r *engine.Result, metric string) string {
	if metric != "" {
		return metric
	}
	if len(r.Events) > 0 {
		return "event:" + r.Events[0].Name
	}
	return "mean:" + r.Vars[0].Name
}

// WriteSweepPlot draws a sweep's metric: a line for one varied parameter, a
// heat map for two. The caption names the fixed parameters only. It returns
// the one-line finding for an index.
func WriteSweepPlot(w io.Writer, id, metric string, names []string, axes [][]float64, pts []SweepPoint) (string, error) {
	return WriteSweepPlotAs(w, "", id, metric, names, axes, pts)
}

// SweepPlotKinds are the ways to draw a sweep of two parameters: a heat
// map, or a family of lines (the first parameter on the x axis, one line
// per value of the second).
var SweepPlotKinds = []string{"heatmap", "lines"}

// WriteSweepPlotAs is WriteSweepPlot with the kind of plot for two varied
// parameters ("" or "heatmap", or "lines").
func WriteSweepPlotAs(w io.Writer, kind, id, metric string, names []string, axes [][]float64, pts []SweepPoint) (string, error) {
	zs := make([]float64, len(pts))
	for i, p := range pts {
		var err error
		if zs[i], err = Metric(p.Result, metric); err != nil {
			return "", err
		}
	}
	caption := FixedCaption(pts[0].Result, names)
	title := fmt.Sprintf("%s — %s by %s", id, MetricLabel(pts[0].Result, metric), strings.Join(names, " and "))
	if len(axes) == 1 {
		var xy []XY
		for i, p := range pts {
			xy = append(xy, XY{X: p.Values[0], Y: zs[i]})
		}
		unit := ""
		if kind, name, ok := cutColon(metric); ok && kind == "mean" {
			if v := pts[0].Result.Var(name); v != nil {
				unit = v.Unit
			}
		}
		return LineFinding(metric, names[0], xy), WriteLines(w, title, names[0], metric, caption, []Series{{Name: metric, XY: xy, Metric: metric, Unit: unit}})
	}
	z := make([][]float64, len(axes[1]))
	for r := range z {
		z[r] = zs[r*len(axes[0]) : (r+1)*len(axes[0])]
	}
	if kind == "lines" {
		unit := ""
		if k, name, ok := cutColon(metric); ok && k == "mean" {
			if v := pts[0].Result.Var(name); v != nil {
				unit = v.Unit
			}
		}
		var series []Series
		var findings []string
		for r, y := range axes[1] {
			var xy []XY
			for c, x := range axes[0] {
				xy = append(xy, XY{X: x, Y: z[r][c]})
			}
			label := names[1] + " = " + mechanics.FormatNum(y)
			series = append(series, Series{Name: label, XY: xy, Metric: metric, Unit: unit})
			findings = append(findings, label+": "+strings.TrimSuffix(strings.TrimPrefix(LineFinding(metric, names[0], xy), "Finding: "), "."))
		}
		return "Finding: " + strings.Join(findings, "; ") + ".", WriteLines(w, title, names[0], metric, caption, series)
	}
	return heatFinding(metric, names, axes, z), WriteHeatmap(w, title, names[0], names[1], MetricLabel(pts[0].Result, metric), caption, axes[0], axes[1], z)
}

// fixedCaption is the caption of a sweep: the parameters held fixed (the
// varied ones are on the axes) and the options.
func FixedCaption(r *engine.Result, varied []string) string {
	fixed := *r
	fixed.Params = nil
	for _, p := range r.Params {
		if !slices.Contains(varied, p.Name) {
			fixed.Params = append(fixed.Params, p)
		}
	}
	return Caption(&fixed)
}
