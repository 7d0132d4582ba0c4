package reports

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// SweepAxis is one varied parameter or option of a sweep.
type SweepAxis struct {
	Name   string
	Values []float64
	// Labels are the words of an axis of options or named choices: its
	// Values are then the positions 0, 1, … of the labels.
	Labels []string
}

// Categorical reports an axis of words rather than numbers.
func (a SweepAxis) Categorical() bool { return a.Labels != nil }

// Text is the setting at a grid coordinate: the label of a categorical
// axis, the number otherwise.
func (a SweepAxis) Text(x float64) string {
	if a.Labels != nil {
		if i := int(x); float64(i) == x && i >= 0 && i < len(a.Labels) {
			return a.Labels[i]
		}
	}
	return mechanics.FormatNum(x)
}

// SweepPoint is one grid point of a sweep and its result.
type SweepPoint struct {
	// Values are the point's coordinates on the sweep's axes, in order
	// (the position of the word on a categorical axis).
	Values []float64
	// Result is the point's result without its distributions (a sweep
	// keeps their statistics only).
	Result *engine.Result
	// Metrics are the sweep's metrics (Sweep.Metrics) read at the point,
	// before its distributions were dropped, with their 95% intervals.
	Metrics []engine.Estimate
	// Deltas are, for each metric, its forward difference along the
	// sweep's Delta axis per unit of that axis: (metric at the next value
	// − metric here) / (next value − this one). Nil at the axis' last
	// value, which has no next.
	Deltas []engine.Estimate
}

// Sweep is a computed sweep as the reports show it.
type Sweep struct {
	// Mechanic is the swept mechanic's id.
	Mechanic string
	// Axes are the varied parameters (one or two; the first on the x axis
	// and varying fastest in Points).
	Axes []SweepAxis
	// Metrics are what every point holds in SweepPoint.Metrics; the first
	// is the one drawn.
	Metrics []string
	// Asked tells metrics that were asked for (rather than the default):
	// the CSV then gives them columns of their own.
	Asked bool
	// Delta names the axis (numeric) along which Points hold forward
	// differences; "" for none.
	Delta  string
	Points []SweepPoint
	// Kind is how a sweep of two parameters is drawn: "" or "heatmap", or
	// "lines" (SweepPlotKinds).
	Kind string
	// Percent prints the text table's probabilities as percentages, and
	// their changes in percentage points (the CSV and JSON keep them in
	// [0, 1]).
	Percent bool
}

// Names lists the varied parameters.
func (s *Sweep) Names() []string {
	out := make([]string, len(s.Axes))
	for i, a := range s.Axes {
		out[i] = a.Name
	}
	return out
}

// deltaAxis is the index of the Delta axis, -1 for none.
func (s *Sweep) deltaAxis() int {
	if s.Delta == "" {
		return -1
	}
	return slices.Index(s.Names(), s.Delta)
}

func (s *Sweep) sim() bool { return s.Points[0].Result.Engine == engine.Sim }

// DeltaName heads the forward difference of a metric along an axis:
// "Δevent:success/Δmodifier".
func DeltaName(metric, axis string) string { return "Δ" + metric + "/Δ" + axis }

// deltaNote says how the differences along axis x were taken.
func deltaNote(x string, sim bool) string {
	s := fmt.Sprintf("Δmetric/Δ%s = (metric at the next %s − metric here) / step: the change per +1 %s, a forward difference on the grid; "+
		"none at the last %s", x, x, x, x)
	if sim {
		s += "; its interval joins the ends of the two points' intervals (conservative)"
	}
	return s
}

// TableFormats are the formats of a sweep's, a comparison's or a solve's
// table (WriteTableAs).
var TableFormats = []string{"text", "csv", "json"}

// SweepFormats are the formats of a sweep's table (WriteSweep).
var SweepFormats = TableFormats

// WriteTableAs writes a table in format: "text" (also called "table", as
// exact and sim call theirs), "csv" or "json", each by its writer.
func WriteTableAs(w io.Writer, format string, text, csv, json func(io.Writer) error) error {
	switch format {
	case "text", "table":
		return text(w)
	case "csv":
		return csv(w)
	case "json":
		return json(w)
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(TableFormats, ", "))
}

// WriteSweep writes a sweep's table: "text" (WriteSweepTable), "csv"
// (WriteSweepCSV) or "json" (WriteSweepJSON).
func WriteSweep(w io.Writer, s *Sweep, format string) error {
	return WriteTableAs(w, format,
		func(w io.Writer) error { return WriteSweepTable(w, s) },
		func(w io.Writer) error { return WriteSweepCSV(w, s) },
		func(w io.Writer) error { return WriteSweepJSON(w, s) })
}

// WriteSweepCSV writes one row per point: the varied settings (words on a
// categorical axis), then the metrics that were asked for and their
// differences along the Delta axis (each with ci_lo and ci_hi for
// simulations), then every event probability (with Wilson bounds for
// simulations) and the mean and SD of every variable, under a "# key:
// value" header of what was held fixed.
func WriteSweepCSV(w io.Writer, s *Sweep) error {
	if len(s.Points) == 0 {
		return fmt.Errorf("empty sweep")
	}
	r0 := s.Points[0].Result
	sim := s.sim()
	varied := s.Names()
	for _, h := range Header(r0) {
		if h[0] == "fingerprint" {
			continue // one per row: every point is its own model
		}
		switch h[0] {
		case "params":
			h[1] += " (varied: " + fmt.Sprint(varied) + ")"
		case "options":
			// A varied option's value is in its column, not here.
			_, opts := fixedSettings(r0, varied)
			fixed := engine.Result{Options: opts}
			h[1] = optionString(&fixed)
		}
		fmt.Fprintf(w, "# %s: %s\n", h[0], h[1])
	}
	own := s.Asked || s.Delta != ""
	if own {
		fmt.Fprintf(w, "# metrics: %s\n", strings.Join(s.Metrics, ", "))
	}
	if s.Delta != "" {
		fmt.Fprintf(w, "# delta: %s\n", deltaNote(s.Delta, sim))
	}
	cw := csv.NewWriter(w)
	head := append([]string(nil), varied...)
	withCI := func(name string) {
		head = append(head, name)
		if sim {
			head = append(head, name+"_ci_lo", name+"_ci_hi")
		}
	}
	if own {
		for _, m := range s.Metrics {
			withCI(m)
		}
		if s.Delta != "" {
			for _, m := range s.Metrics {
				withCI(DeltaName(m, s.Delta))
			}
		}
	}
	for _, e := range r0.Events {
		withCI(e.Name)
	}
	for _, v := range r0.Vars {
		head = append(head, v.Name+"_mean", v.Name+"_sd")
	}
	head = append(head, "fingerprint")
	cw.Write(head)
	for _, p := range s.Points {
		var row []string
		for j, v := range p.Values {
			row = append(row, s.Axes[j].Text(v))
		}
		est := func(e engine.Estimate) {
			row = append(row, num(e.V))
			if sim {
				row = append(row, num(e.Lo), num(e.Hi))
			}
		}
		if own {
			for _, e := range p.Metrics {
				est(e)
			}
			if s.Delta != "" {
				for i := range s.Metrics {
					if p.Deltas == nil {
						row = append(row, "")
						if sim {
							row = append(row, "", "")
						}
						continue
					}
					est(p.Deltas[i])
				}
			}
		}
		for _, e := range p.Result.Events {
			row = append(row, num(e.P))
			if sim {
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

// fixedSettings are the parameters and options of r that a sweep over
// varied held fixed.
func fixedSettings(r *engine.Result, varied []string) (params []mechanics.NamedValue, options []mechanics.NamedString) {
	for _, p := range r.Params {
		if !slices.Contains(varied, p.Name) {
			params = append(params, p)
		}
	}
	for _, o := range r.Options {
		if !variedOption(o.Name, varied) {
			options = append(options, o)
		}
	}
	return params, options
}

// variedOption tells an option (by its full name, "ag.core.opt.tie")
// that one of the varied names sets ("opt.tie", a named choice's bare
// name, the full name).
func variedOption(name string, varied []string) bool {
	for _, v := range varied {
		if name == v || strings.HasSuffix(name, "."+v) || strings.HasSuffix(name, ".opt."+v) {
			return true
		}
	}
	return false
}

// axisText describes an axis' values: all of them when they are few, the
// first and the last otherwise.
func axisText(a SweepAxis) string {
	if len(a.Values) <= 12 {
		var vs []string
		for _, v := range a.Values {
			vs = append(vs, a.Text(v))
		}
		return strings.Join(vs, ", ")
	}
	return fmt.Sprintf("%s … %s (%d values)", a.Text(a.Values[0]), a.Text(a.Values[len(a.Values)-1]), len(a.Values))
}

// WriteSweepTable writes a sweep as an aligned table: what was held fixed
// and what was varied, then one row per point with the varied settings,
// the metrics (with 95% intervals for simulations) and their differences
// along the Delta axis. No line ends in spaces.
func WriteSweepTable(w io.Writer, s *Sweep) error {
	if len(s.Points) == 0 {
		return fmt.Errorf("empty sweep")
	}
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	r0 := s.Points[0].Result
	sim := s.sim()
	varied := s.Names()
	params, options := fixedSettings(r0, varied)
	fixed := *r0
	fixed.Params, fixed.Options = params, options
	for _, h := range Header(&fixed) {
		if h[0] != "fingerprint" {
			fmt.Fprintf(tw, "%s:\t%s\n", h[0], h[1])
		}
	}
	for _, a := range s.Axes {
		fmt.Fprintf(tw, "varied:\t%s = %s\n", a.Name, axisText(a))
	}
	if !s.Asked {
		fmt.Fprintf(tw, "metric:\t%s (the default: %s)\n", s.Metrics[0], defaultWhy(s.Metrics[0]))
	}
	if s.Delta != "" {
		fmt.Fprintf(tw, "delta:\t%s\n", deltaNote(s.Delta, sim))
	}
	fmt.Fprintln(tw)
	head := append([]string(nil), varied...)
	for _, m := range s.Metrics {
		head = append(head, m)
		if sim {
			head = append(head, "95% CI")
		}
	}
	if s.Delta != "" {
		for _, m := range s.Metrics {
			head = append(head, DeltaName(m, s.Delta))
			if sim {
				head = append(head, "95% CI")
			}
		}
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	// How each metric prints is decided once, not at every cell.
	kinds := make([]valueKind, len(s.Metrics))
	for i, m := range s.Metrics {
		kinds[i] = kindOf(m)
	}
	for _, p := range s.Points {
		var row []string
		for j, v := range p.Values {
			row = append(row, s.Axes[j].Text(v))
		}
		val := func(v float64, k valueKind, signed bool) string {
			if s.Percent && k.prob {
				if signed {
					return points2(v)
				}
				return percent2(v)
			}
			if signed {
				k = valueKind{}
			}
			return tableValue(v, k, signed)
		}
		for i, e := range p.Metrics {
			row = append(row, val(e.V, kinds[i], false))
			if sim {
				row = append(row, "["+val(e.Lo, kinds[i], false)+", "+val(e.Hi, kinds[i], false)+"]")
			}
		}
		if s.Delta != "" {
			for i := range s.Metrics {
				if p.Deltas == nil {
					row = append(row, "-")
					if sim {
						row = append(row, "")
					}
					continue
				}
				e := p.Deltas[i]
				row = append(row, val(e.V, kinds[i], true))
				if sim {
					row = append(row, "["+val(e.Lo, kinds[i], true)+", "+val(e.Hi, kinds[i], true)+"]")
				}
			}
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(trimLines(buf.Bytes()))
	return err
}

// defaultWhy says why a metric is a sweep's default.
func defaultWhy(metric string) string {
	if strings.HasPrefix(metric, "event:") {
		return "the first event"
	}
	return "the first variable's mean; the model has no event"
}

// tableValue prints a metric's value in a table: four decimals (with a
// sign for a change), or as the variable's value for a quantile.
func tableValue(v float64, k valueKind, signed bool) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case signed:
		switch s := strconv.FormatFloat(v, 'f', 4, 64); {
		case v == 0:
			return "0"
		case s == "-0.0000":
			return "-<0.0001"
		case s == "0.0000":
			return "+<0.0001"
		case v > 0:
			return "+" + s
		default:
			return s
		}
	case k.quantile:
		return num(v)
	case k.prob:
		return prob4(v)
	}
	return fixed4(v)
}

// valueKind is how a metric's values print: prob, one probability (as
// the exact and sim tables print one: 0 and 1 exact, <0.0001 for a tiny
// one); quantile, only quantiles (values of a variable, printed as they
// are); otherwise four decimals.
type valueKind struct{ prob, quantile bool }

// kindOf parses metric once to say how its values print.
func kindOf(metric string) valueKind {
	m, err := engine.ParseMetric(metric)
	if err != nil {
		return valueKind{}
	}
	k := valueKind{prob: m.Probability() && len(m.Terms) == 1, quantile: true}
	for _, t := range m.Terms {
		if t.Kind != "quantile" {
			k.quantile = false
		}
	}
	return k
}

// jsonNum is a number in JSON, null when it is not finite (JSON has no
// NaN).
type jsonNum float64

func (n jsonNum) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(n))
}

type jsonEstimate struct {
	Value jsonNum     `json:"value"`
	CI95  *[2]jsonNum `json:"ci95,omitempty"`
}

type jsonSweepAxis struct {
	Name   string `json:"name"`
	Values []any  `json:"values"`
}

type jsonMeanSD struct {
	Mean jsonNum `json:"mean"`
	SD   jsonNum `json:"sd"`
}

type jsonSweepPoint struct {
	Settings    map[string]any            `json:"settings"`
	Fingerprint string                    `json:"fingerprint"`
	Metrics     map[string]jsonEstimate   `json:"metrics"`
	Deltas      map[string]*jsonEstimate  `json:"deltas,omitempty"`
	Events      map[string]float64        `json:"events"`
	CI95        map[string][2]float64     `json:"ci95,omitempty"`
	Stats       map[string]jsonMeanSD     `json:"stats"`
	Bands       map[string]map[string]any `json:"bands,omitempty"`
}

type jsonSweep struct {
	Mechanic string             `json:"mechanic"`
	Rule     string             `json:"rule,omitempty"`
	Engine   string             `json:"engine"`
	Version  string             `json:"version"`
	Params   map[string]float64 `json:"params"`
	Options  map[string]string  `json:"options"`
	Seed     *uint64            `json:"seed,omitempty"`
	Trials   int64              `json:"trials,omitempty"`
	Varied   []jsonSweepAxis    `json:"varied"`
	Metrics  []string           `json:"metrics"`
	Delta    string             `json:"delta,omitempty"`
	DeltaDoc string             `json:"delta_doc,omitempty"`
	Points   []jsonSweepPoint   `json:"points"`
}

// WriteSweepJSON writes a sweep as one JSON object: what was held fixed
// (params, options), the varied axes, the metrics, and per point its
// settings (words on a categorical axis), fingerprint, metrics and their
// differences (null at the last value of the Delta axis), event
// probabilities (with 95% intervals for simulations), band masses and
// every variable's mean and SD.
func WriteSweepJSON(w io.Writer, s *Sweep) error {
	if len(s.Points) == 0 {
		return fmt.Errorf("empty sweep")
	}
	r0 := s.Points[0].Result
	sim := s.sim()
	params, options := fixedSettings(r0, s.Names())
	j := jsonSweep{Mechanic: r0.Mechanic, Rule: r0.Rule, Engine: string(r0.Engine), Version: r0.Version,
		Params: map[string]float64{}, Options: map[string]string{}, Metrics: s.Metrics, Delta: s.Delta}
	for _, p := range params {
		j.Params[p.Name] = p.Value
	}
	for _, o := range options {
		j.Options[o.Name] = o.Value
	}
	if sim {
		seed := r0.Seed
		j.Seed, j.Trials = &seed, r0.Trials
	}
	if s.Delta != "" {
		j.DeltaDoc = deltaNote(s.Delta, sim)
	}
	setting := func(a SweepAxis, v float64) any {
		if a.Categorical() {
			return a.Text(v)
		}
		return v
	}
	for _, a := range s.Axes {
		ja := jsonSweepAxis{Name: a.Name, Values: []any{}}
		for _, v := range a.Values {
			ja.Values = append(ja.Values, setting(a, v))
		}
		j.Varied = append(j.Varied, ja)
	}
	est := func(e engine.Estimate) jsonEstimate {
		je := jsonEstimate{Value: jsonNum(e.V)}
		if sim {
			je.CI95 = &[2]jsonNum{jsonNum(e.Lo), jsonNum(e.Hi)}
		}
		return je
	}
	for _, p := range s.Points {
		r := p.Result
		jp := jsonSweepPoint{Settings: map[string]any{}, Fingerprint: r.Fingerprint, Metrics: map[string]jsonEstimate{},
			Events: map[string]float64{}, Stats: map[string]jsonMeanSD{}}
		for k, v := range p.Values {
			jp.Settings[s.Axes[k].Name] = setting(s.Axes[k], v)
		}
		for i, m := range s.Metrics {
			jp.Metrics[m] = est(p.Metrics[i])
		}
		if s.Delta != "" {
			jp.Deltas = map[string]*jsonEstimate{}
			for i, m := range s.Metrics {
				var d *jsonEstimate
				if p.Deltas != nil {
					e := est(p.Deltas[i])
					d = &e
				}
				jp.Deltas[DeltaName(m, s.Delta)] = d
			}
		}
		for _, e := range r.Events {
			jp.Events[e.Name] = e.P
			if sim {
				if jp.CI95 == nil {
					jp.CI95 = map[string][2]float64{}
				}
				jp.CI95[e.Name] = e.CI
			}
		}
		for _, b := range r.Bands {
			if jp.Bands == nil {
				jp.Bands = map[string]map[string]any{}
			}
			m := map[string]any{"labels": b.Labels, "p": b.P}
			if b.CI != nil {
				m["ci95"] = b.CI
			}
			jp.Bands[b.Name] = m
		}
		for _, v := range r.Vars {
			if !math.IsNaN(v.Stats.Mean) {
				jp.Stats[v.Name] = jsonMeanSD{jsonNum(v.Stats.Mean), jsonNum(v.Stats.SD)}
			}
		}
		j.Points = append(j.Points, jp)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(j)
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

// sweepView is what a sweep plot draws: values over one or two axes.
type sweepView struct {
	s    *Sweep
	axes []SweepAxis
	// z[row][col] is the value at (axes[0][col], axes[1][row]); one row
	// for one axis.
	z [][]engine.Estimate
	// metric is what is drawn: a metric (engine.ParseMetric) or words;
	// what says it in words, unit is its unit.
	metric, what, unit string
	// delta draws changes (a diverging heat map, a finding in steps).
	delta bool
	// xLabel and yLabel label the axes (the first and the second).
	xLabel, yLabel string
	// note heads the caption.
	note string
}

// WriteSweepPlot draws a sweep's first metric: a line for one varied
// parameter (points with their words under them for a categorical one);
// for two, a heat map or a family of lines. Simulated values carry their
// 95% intervals (error bars; the largest half-width in a heat map's
// caption). The caption names the fixed settings only. It returns the
// one-line finding for an index.
func WriteSweepPlot(w io.Writer, s *Sweep) (string, error) {
	if len(s.Points) == 0 || len(s.Metrics) == 0 {
		return "", fmt.Errorf("empty sweep")
	}
	v := &sweepView{s: s, axes: s.Axes, metric: s.Metrics[0], xLabel: s.Axes[0].Name}
	v.unit, v.note = sweepUnit(s)
	v.what = MetricLabelOf(v.metric, v.unit)
	if len(s.Axes) > 1 {
		v.yLabel = s.Axes[1].Name
	}
	nx := len(s.Axes[0].Values)
	for i, p := range s.Points {
		if i%nx == 0 {
			v.z = append(v.z, nil)
		}
		v.z[len(v.z)-1] = append(v.z[len(v.z)-1], p.Metrics[0])
	}
	return v.write(w)
}

// WriteSweepDeltaPlot draws the change of a sweep's first metric per +1
// of its Delta axis (the forward differences of SweepPoint.Deltas), in
// the sweep's kind of plot: each value is drawn at the value the step
// starts from, so the Delta axis loses its last value. Changes are
// coloured on a range symmetric about 0 in a heat map.
func WriteSweepDeltaPlot(w io.Writer, s *Sweep) (string, error) {
	k := s.deltaAxis()
	if k < 0 || len(s.Points) == 0 || len(s.Metrics) == 0 {
		return "", fmt.Errorf("the sweep has no differences to draw")
	}
	if len(s.Axes[k].Values) < 2 {
		return "", fmt.Errorf("%s has one value: no step to difference", s.Delta)
	}
	bare := MetricLabelOf(s.Metrics[0], "")
	what := fmt.Sprintf("change in %s per +1 %s", bare, s.Delta)
	u, mixed := sweepUnit(s)
	if u != "" {
		what += " (" + u + ")"
	}
	v := &sweepView{s: s, metric: what, what: what, delta: true,
		note: strings.TrimSpace(fmt.Sprintf("each value is (%s at the next %s − here) / step, drawn at the %s the step starts from (a forward difference on the grid)\n%s",
			bare, s.Delta, s.Delta, mixed))}
	for i, a := range s.Axes {
		if i == k {
			a.Values = a.Values[:len(a.Values)-1]
		}
		v.axes = append(v.axes, a)
	}
	v.xLabel = v.axes[0].Name
	if len(v.axes) > 1 {
		v.yLabel = v.axes[1].Name
	}
	from := " (the step from it to the next)"
	if k == 0 {
		v.xLabel += from
	} else {
		v.yLabel += from
	}
	nx := len(s.Axes[0].Values)
	ny := len(s.Points) / nx
	for r := range ny {
		if k == 1 && r == ny-1 {
			continue
		}
		var row []engine.Estimate
		for c := range nx {
			if k == 0 && c == nx-1 {
				continue
			}
			row = append(row, s.Points[r*nx+c].Deltas[0])
		}
		v.z = append(v.z, row)
	}
	return v.write(w)
}

func (v *sweepView) write(w io.Writer) (string, error) {
	s := v.s
	r0 := s.Points[0].Result
	sim := s.sim()
	names := make([]string, len(v.axes))
	for i, a := range v.axes {
		names[i] = a.Name
	}
	caption := FixedCaption(r0, s.Names())
	if v.note != "" {
		caption = v.note + "\n" + caption
	}
	if sim {
		caption = "error bars and ranges: 95% intervals of the simulation\n" + caption
	}
	title := fmt.Sprintf("%s — %s by %s", s.Mechanic, v.what, strings.Join(names, " and "))
	if v.delta {
		title = fmt.Sprintf("%s — %s, by %s", s.Mechanic, v.what, strings.Join(names, " and "))
	}
	lines := &Lines{Title: title, XLabel: v.xLabel, Metric: v.metric, Caption: caption}
	if v.axes[0].Categorical() {
		lines.XLabels = v.axes[0].Labels
	}
	series := func(row []engine.Estimate) ([]XY, [][2]float64) {
		var xy []XY
		var ci [][2]float64
		for c, e := range row {
			if math.IsNaN(e.V) {
				continue
			}
			xy = append(xy, XY{X: v.axes[0].Values[c], Y: e.V})
			ci = append(ci, [2]float64{e.Lo, e.Hi})
		}
		if !sim {
			ci = nil
		}
		return xy, ci
	}
	if len(v.axes) == 1 {
		xy, ci := series(v.z[0])
		lines.Series = []Series{{Name: v.metric, XY: xy, Metric: v.metric, Unit: v.unit, Err: ci}}
		return v.lineFinding(v.axes[0], xy, v.z[0]), WriteLines(w, lines)
	}
	if s.Kind == "lines" {
		var findings []string
		for r, y := range v.axes[1].Values {
			xy, ci := series(v.z[r])
			label := v.axes[1].Name + " = " + v.axes[1].Text(y)
			if v.delta && s.deltaAxis() == 1 {
				label += " → " + v.axes[1].Text(s.Axes[1].Values[r+1])
			}
			lines.Series = append(lines.Series, Series{Name: label, XY: xy, Metric: v.metric, Unit: v.unit, Err: ci})
			findings = append(findings, label+": "+strings.TrimSuffix(strings.TrimPrefix(v.lineFinding(v.axes[0], xy, v.z[r]), "Finding: "), "."))
		}
		return "Finding: " + strings.Join(findings, "; ") + ".", WriteLines(w, lines)
	}
	z := make([][]float64, len(v.z))
	half := 0.0
	for r, row := range v.z {
		for _, e := range row {
			z[r] = append(z[r], e.V)
			half = math.Max(half, math.Max(e.V-e.Lo, e.Hi-e.V))
		}
	}
	caption = strings.TrimPrefix(caption, "error bars and ranges: 95% intervals of the simulation\n")
	if sim {
		caption = fmt.Sprintf("simulated: every cell within ±%s of its value at 95%%\n", cellValue(half, false)) + caption
	}
	h := &Heatmap{Title: title, XLabel: v.xLabel, YLabel: v.yLabel, Metric: v.what, Caption: caption,
		Xs: v.axes[0].Values, Ys: v.axes[1].Values, Z: z, XLabels: v.axes[0].Labels, YLabels: v.axes[1].Labels, Diverging: v.delta}
	if !v.delta && v.unit == "" {
		// The metric itself, so that a probability is coloured on [0, 1].
		h.Metric = v.metric
	}
	return v.heatFinding(z), WriteHeatmap(w, h)
}

// sweepUnit is the unit of a sweep's first metric when every point
// shares it; otherwise "" and a note for the caption naming the units (an
// option that changes the time unit of a process).
func sweepUnit(s *Sweep) (unit, note string) {
	var units []string
	for _, p := range s.Points {
		if u := MetricUnit(p.Result, s.Metrics[0]); !slices.Contains(units, u) {
			units = append(units, u)
		}
	}
	if len(units) == 1 {
		return units[0], ""
	}
	return "", "each point in its own unit (" + strings.Join(units, ", ") + ")"
}

// lineFinding is the finding of one line of a sweep plot over axis a.
func (v *sweepView) lineFinding(a SweepAxis, xy []XY, row []engine.Estimate) string {
	switch {
	case v.delta:
		return deltaFinding(v.s.Delta, MetricLabel(v.s.Points[0].Result, v.s.Metrics[0]), xy)
	case a.Categorical():
		return categoryFinding(v.what, a, xy)
	}
	return LineFinding(v.metric, a.Name, xy)
}

// heatFinding is the finding of a heat map of a sweep.
func (v *sweepView) heatFinding(z [][]float64) string {
	if v.delta {
		lo, hi := zRange(z)
		return fmt.Sprintf("Finding: %s ranges from %s to %s over the grid.", v.what, signed3(lo), signed3(hi))
	}
	return heatFindingAxes(v.metric, v.axes, z)
}

// FixedCaption is the caption of a sweep: the parameters and options held
// fixed (the varied ones are on the axes).
func FixedCaption(r *engine.Result, varied []string) string {
	fixed := *r
	fixed.Params, fixed.Options = fixedSettings(r, varied)
	return Caption(&fixed)
}
