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

// SweepPlotKinds are the ways to draw a sweep of two parameters: a heat
// map, or a family of lines (the first parameter on the x axis, one line
// per value of the second).
var SweepPlotKinds = []string{"heatmap", "lines"}

// SweepPlot is a sweep to draw: its grid, its results and what to draw of
// them.
type SweepPlot struct {
	// Mechanic is the swept mechanic's id, for the title.
	Mechanic string
	// Metric is what is drawn: event:NAME or mean:VAR.
	Metric string
	// Names are the varied parameters (one or two; the first on the x
	// axis), Axes their values and Points the results at every grid point,
	// the first parameter varying fastest.
	Names  []string
	Axes   [][]float64
	Points []SweepPoint
	// Kind is how a sweep of two parameters is drawn: "" or "heatmap", or
	// "lines" (SweepPlotKinds).
	Kind string
}

// WriteSweepPlot draws a sweep's metric: a line for one varied parameter;
// for two, a heat map or a family of lines. The caption names the fixed
// parameters only. It returns the one-line finding for an index.
func WriteSweepPlot(w io.Writer, sp *SweepPlot) (string, error) {
	zs := make([]float64, len(sp.Points))
	for i, p := range sp.Points {
		var err error
		if zs[i], err = Metric(p.Result, sp.Metric); err != nil {
			return "", err
		}
	}
	r0 := sp.Points[0].Result
	lines := &Lines{
		Title:   fmt.Sprintf("%s — %s by %s", sp.Mechanic, MetricLabel(r0, sp.Metric), strings.Join(sp.Names, " and ")),
		XLabel:  sp.Names[0],
		Metric:  sp.Metric,
		Caption: FixedCaption(r0, sp.Names),
	}
	unit := MetricUnit(r0, sp.Metric)
	if len(sp.Axes) == 1 {
		var xy []XY
		for i, p := range sp.Points {
			xy = append(xy, XY{X: p.Values[0], Y: zs[i]})
		}
		lines.Series = []Series{{Name: sp.Metric, XY: xy, Metric: sp.Metric, Unit: unit}}
		return LineFinding(sp.Metric, sp.Names[0], xy), WriteLines(w, lines)
	}
	xs := sp.Axes[0]
	z := make([][]float64, len(sp.Axes[1]))
	for r := range z {
		z[r] = zs[r*len(xs) : (r+1)*len(xs)]
	}
	if sp.Kind == "lines" {
		var findings []string
		for r, y := range sp.Axes[1] {
			var xy []XY
			for c, x := range xs {
				xy = append(xy, XY{X: x, Y: z[r][c]})
			}
			label := sp.Names[1] + " = " + mechanics.FormatNum(y)
			lines.Series = append(lines.Series, Series{Name: label, XY: xy, Metric: sp.Metric, Unit: unit})
			findings = append(findings, label+": "+strings.TrimSuffix(strings.TrimPrefix(LineFinding(sp.Metric, sp.Names[0], xy), "Finding: "), "."))
		}
		return "Finding: " + strings.Join(findings, "; ") + ".", WriteLines(w, lines)
	}
	return heatFinding(sp.Metric, sp.Names, sp.Axes, z), WriteHeatmap(w, &Heatmap{Title: lines.Title, XLabel: sp.Names[0], YLabel: sp.Names[1],
		Metric: MetricLabel(r0, sp.Metric), Caption: lines.Caption, Xs: xs, Ys: sp.Axes[1], Z: z})
}

// FixedCaption is the caption of a sweep: the parameters held fixed (the
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
