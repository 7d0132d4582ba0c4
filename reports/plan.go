package reports

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"gonum.org/v1/plot/plotter"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

// Plan is a batch of analyses read from a TOML file.
type Plan struct {
	Title    string     `toml:"title"`
	Seed     uint64     `toml:"seed"`
	Trials   int64      `toml:"trials"`
	Analyses []Analysis `toml:"analysis"`
	Overlays []Overlay  `toml:"overlay"`
}

// Analysis is one mechanic at fixed settings, or swept over one or two
// parameters.
type Analysis struct {
	Name     string         `toml:"name"`
	Mechanic string         `toml:"mechanic"`
	Engine   string         `toml:"engine"`
	Set      map[string]any `toml:"set"`
	Vary     map[string]any `toml:"vary"`
	Order    []string       `toml:"order"` // which varied parameter is the x axis (first) and y (second)
	Metric   string         `toml:"metric"`
	Trials   int64          `toml:"trials"`
	Seed     *uint64        `toml:"seed"`
}

// Overlay compares several mechanics or option settings on one line chart.
type Overlay struct {
	Name   string       `toml:"name"`
	XLabel string       `toml:"xlabel"`
	Range  string       `toml:"range"`
	Metric string       `toml:"metric"`
	Series []PlanSeries `toml:"series"`
}

// PlanSeries is one line of an overlay: a mechanic, the parameter the x axis
// sets, fixed settings and (optionally) its own metric.
type PlanSeries struct {
	Label    string         `toml:"label"`
	Mechanic string         `toml:"mechanic"`
	X        string         `toml:"x"`
	Set      map[string]any `toml:"set"`
	Metric   string         `toml:"metric"`
}

// PlanError names the file, the line and the problem.
type PlanError struct {
	File string
	Line int
	Err  error
}

func (e *PlanError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *PlanError) Unwrap() error { return e.Err }

// tableLine finds the line of the n-th [[name]] header.
func tableLine(src []byte, name string, n int) int {
	k := -1
	for i, l := range strings.Split(string(src), "\n") {
		if strings.TrimSpace(l) == "[["+name+"]]" {
			k++
			if k == n {
				return i + 1
			}
		}
	}
	return 0
}

// ParsePlan reads and validates a plan: TOML syntax, unknown keys, unknown
// mechanics, parameters, options, ranges and metrics are all reported with
// the file and line before anything runs.
func ParsePlan(file string, src []byte) (*Plan, error) {
	var p Plan
	md, err := toml.NewDecoder(bytes.NewReader(src)).Decode(&p)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &PlanError{file, pe.Position.Line, errors.New(pe.Message)}
		}
		return nil, &PlanError{file, 0, err}
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, &PlanError{file, 0, fmt.Errorf("unknown key %q", und[0].String())}
	}
	if len(p.Analyses) == 0 && len(p.Overlays) == 0 {
		return nil, &PlanError{file, 0, errors.New("the plan has no [[analysis]] or [[overlay]]")}
	}
	if p.Trials == 0 {
		p.Trials = 200_000
	}
	if p.Trials < 1 {
		return nil, &PlanError{file, 0, fmt.Errorf("trials must be at least 1, got %d", p.Trials)}
	}
	names := map[string]bool{}
	for i := range p.Analyses {
		a := &p.Analyses[i]
		line := tableLine(src, "analysis", i)
		fail := func(f string, args ...any) error {
			return &PlanError{file, line, fmt.Errorf("analysis %d (%s): %s", i+1, a.Name, fmt.Sprintf(f, args...))}
		}
		if a.Name == "" || strings.ContainsAny(a.Name, "/\\ ") {
			return nil, fail("needs a name without spaces or slashes")
		}
		if names[a.Name] {
			return nil, fail("duplicate name")
		}
		names[a.Name] = true
		if a.Engine == "" {
			a.Engine = "exact"
		}
		if a.Engine != "exact" && a.Engine != "sim" {
			return nil, fail("unknown engine %q (want exact or sim)", a.Engine)
		}
		if _, _, err := a.points(&p); err != nil {
			return nil, fail("%v", err)
		}
	}
	for i := range p.Overlays {
		o := &p.Overlays[i]
		line := tableLine(src, "overlay", i)
		fail := func(f string, args ...any) error {
			return &PlanError{file, line, fmt.Errorf("overlay %d (%s): %s", i+1, o.Name, fmt.Sprintf(f, args...))}
		}
		if o.Name == "" || strings.ContainsAny(o.Name, "/\\ ") || names[o.Name] {
			return nil, fail("needs a unique name without spaces or slashes")
		}
		names[o.Name] = true
		xs, err := ParseRange(o.Range)
		if err != nil {
			return nil, fail("%v", err)
		}
		if len(o.Series) == 0 {
			return nil, fail("has no series")
		}
		for _, s := range o.Series {
			if _, err := s.configs(xs); err != nil {
				return nil, fail("series %q: %v", s.Label, err)
			}
		}
	}
	return &p, nil
}

func settingString(k string, v any) string {
	switch v := v.(type) {
	case string:
		return k + "=" + v
	case int64:
		return fmt.Sprintf("%s=%d", k, v)
	case float64:
		return k + "=" + mechanics.FormatNum(v)
	case bool:
		return fmt.Sprintf("%s=%d", k, map[bool]int{true: 1}[v])
	}
	return fmt.Sprintf("%s=%v", k, v)
}

func configure(id string, set map[string]any) (*mechanics.Mechanic, mechanics.Config, error) {
	m, err := mechanics.Lookup(id)
	if err != nil {
		return nil, mechanics.Config{}, err
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sets []string
	for _, k := range keys {
		sets = append(sets, settingString(k, set[k]))
	}
	c, err := m.Configure(sets)
	return m, c, err
}

func cloneConfig(c mechanics.Config) mechanics.Config {
	n := mechanics.Config{Params: map[string]float64{}, Options: map[string]string{}}
	for k, v := range c.Params {
		n.Params[k] = v
	}
	for k, v := range c.Options {
		n.Options[k] = v
	}
	return n
}

// points validates an analysis and lists its varied names, axes and configurations.
func (a *Analysis) points(p *Plan) ([]string, [][]float64, error) {
	m, base, err := configure(a.Mechanic, a.Set)
	if err != nil {
		return nil, nil, err
	}
	if a.Engine == "exact" && m.MCOnly {
		return nil, nil, fmt.Errorf("%s has no exact model; use engine = \"sim\"", m.ID)
	}
	if len(a.Vary) > 2 {
		return nil, nil, fmt.Errorf("vary at most two parameters, got %d", len(a.Vary))
	}
	names := a.Order
	if len(names) == 0 {
		for k := range a.Vary {
			names = append(names, k)
		}
		sort.Strings(names)
	}
	if len(names) != len(a.Vary) {
		return nil, nil, fmt.Errorf("order lists %v but vary has %d parameters", names, len(a.Vary))
	}
	var axes [][]float64
	for _, n := range names {
		r, ok := a.Vary[n].(string)
		if !ok {
			return nil, nil, fmt.Errorf("vary %s must be a string \"a..b[:step]\"", n)
		}
		xs, err := ParseRange(r)
		if err != nil {
			return nil, nil, err
		}
		for _, x := range xs {
			if err := m.Set(cloneConfig(base), n+"="+mechanics.FormatNum(x)); err != nil {
				return nil, nil, err
			}
		}
		axes = append(axes, xs)
	}
	if a.Metric != "" {
		if k, _, ok := cutColon(a.Metric); !ok || (k != "event" && k != "mean") {
			return nil, nil, fmt.Errorf("metric %q is not event:NAME or mean:VAR", a.Metric)
		}
	}
	return names, axes, nil
}

func (s PlanSeries) configs(xs []float64) ([]mechanics.Config, error) {
	m, base, err := configure(s.Mechanic, s.Set)
	if err != nil {
		return nil, err
	}
	if m.MCOnly {
		return nil, fmt.Errorf("%s has no exact model", m.ID)
	}
	var out []mechanics.Config
	for _, x := range xs {
		c := cloneConfig(base)
		if err := m.Set(c, s.X+"="+mechanics.FormatNum(x)); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Progress is told how many units of work there are and when each is done.
type Progress interface {
	Add(int) error
}

// RunPlan computes every analysis and writes the bundle to dir: per analysis
// a CSV and PNGs, per overlay a CSV and a PNG, and index.md linking them with
// one-line findings. Everything is first written to a temporary directory
// beside dir and moved into place file by file (index.md last), so an error
// or an interruption leaves no half-written file.
func RunPlan(ctx context.Context, p *Plan, dir string, progress Progress) ([]string, error) {
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(parent, ".oddsmith-bundle-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var index bytes.Buffer
	title := p.Title
	if title == "" {
		title = "oddsmith report"
	}
	fmt.Fprintf(&index, "# %s\n\noddsmith %s. Each analysis links its table (CSV) and plots (PNG).\n\n", title, mechanics.Version)
	var files []string
	write := func(name string, f func(io.Writer) error) error {
		fh, err := os.Create(filepath.Join(tmp, name))
		if err != nil {
			return err
		}
		if err := f(fh); err != nil {
			fh.Close()
			return err
		}
		files = append(files, name)
		return fh.Close()
	}
	for i := range p.Analyses {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		a := &p.Analyses[i]
		if err := runAnalysis(ctx, p, a, write, &index, progress); err != nil {
			return nil, fmt.Errorf("analysis %s: %w", a.Name, err)
		}
	}
	for i := range p.Overlays {
		o := &p.Overlays[i]
		if err := runOverlay(o, write, &index, progress); err != nil {
			return nil, fmt.Errorf("overlay %s: %w", o.Name, err)
		}
	}
	if err := write("index.md", func(w io.Writer) error { _, err := w.Write(index.Bytes()); return err }); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files { // index.md was written last, so it moves last
		if err := os.Rename(filepath.Join(tmp, f), filepath.Join(dir, f)); err != nil {
			return nil, err
		}
		out = append(out, filepath.Join(dir, f))
	}
	return out, nil
}

func (a *Analysis) run(ctx context.Context, p *Plan, m *mechanics.Mechanic, c mechanics.Config) (*mechanics.Result, error) {
	if a.Engine == "exact" {
		return exact.Run(m, c)
	}
	n, seed := a.Trials, p.Seed
	if n == 0 {
		n = p.Trials
	}
	if a.Seed != nil {
		seed = *a.Seed
	}
	return sim.Run(ctx, m, c, sim.Options{Trials: n, Seed: seed})
}

// DefaultMetric is metric, or else the first event, or else the first variable's mean.
func DefaultMetric(r *mechanics.Result, metric string) string {
	if metric != "" {
		return metric
	}
	if len(r.Events) > 0 {
		return "event:" + r.Events[0].Name
	}
	return "mean:" + r.Vars[0].Name
}

func runAnalysis(ctx context.Context, p *Plan, a *Analysis, write func(string, func(io.Writer) error) error, index *bytes.Buffer, progress Progress) error {
	m, base, err := configure(a.Mechanic, a.Set)
	if err != nil {
		return err
	}
	names, axes, err := a.points(p)
	if err != nil {
		return err
	}
	fmt.Fprintf(index, "## %s — `%s` (%s)\n\n", a.Name, m.ID, a.Engine)
	if len(names) == 0 {
		r, err := a.run(ctx, p, m, base)
		if err != nil {
			return err
		}
		if progress != nil {
			progress.Add(1)
		}
		links := []string{a.Name + ".csv"}
		if err := write(a.Name+".csv", func(w io.Writer) error { return WriteCSV(w, r) }); err != nil {
			return err
		}
		if len(r.Vars) > 0 {
			v := &r.Vars[0]
			if err := write(a.Name+"_pmf.png", func(w io.Writer) error { return WritePMF(w, r, v) }); err != nil {
				return err
			}
			if err := write(a.Name+"_atleast.png", func(w io.Writer) error { return WriteAtLeast(w, r, v) }); err != nil {
				return err
			}
			links = append(links, a.Name+"_pmf.png", a.Name+"_atleast.png")
		}
		if len(r.Bands) > 0 {
			b := r.Bands[0].Name
			if err := write(a.Name+"_bands.png", func(w io.Writer) error {
				return WriteBands(w, fmt.Sprintf("%s — %s", m.ID, b), "", []string{a.Name}, []*mechanics.Result{r}, b)
			}); err != nil {
				return err
			}
			links = append(links, a.Name+"_bands.png")
		}
		if r.Process != nil {
			if err := write(a.Name+"_survival.png", func(w io.Writer) error { return WriteSurvival(w, r) }); err != nil {
				return err
			}
			links = append(links, a.Name+"_survival.png")
		}
		fmt.Fprintf(index, "%s\n\n%s\n\n", findingOf(r), linkList(links))
		return nil
	}
	grid := Grid(axes)
	configs, err := SweepConfigs(m, base, names, grid)
	if err != nil {
		return err
	}
	var pts []SweepPoint
	for i, c := range configs {
		if err := ctx.Err(); err != nil {
			return err
		}
		r, err := a.run(ctx, p, m, c)
		if err != nil {
			return fmt.Errorf("at %v: %w", grid[i], err)
		}
		pts = append(pts, SweepPoint{Values: grid[i], Result: r})
		if progress != nil {
			progress.Add(1)
		}
	}
	met := DefaultMetric(pts[0].Result, a.Metric)
	if err := write(a.Name+".csv", func(w io.Writer) error { return WriteSweepCSV(w, names, pts) }); err != nil {
		return err
	}
	var finding string
	err = write(a.Name+".png", func(w io.Writer) error {
		var err error
		finding, err = WriteSweepPlot(w, m.ID, met, names, axes, pts)
		return err
	})
	if err != nil {
		return err
	}
	links := []string{a.Name + ".csv", a.Name + ".png"}
	// One varied parameter and a categorical band: one stacked bar per point.
	if len(axes) == 1 && len(pts[0].Result.Bands) > 0 {
		band := pts[0].Result.Bands[0].Name
		var labels []string
		var rs []*mechanics.Result
		for _, pt := range pts {
			labels = append(labels, fmt.Sprintf("%s=%g", names[0], pt.Values[0]))
			rs = append(rs, pt.Result)
		}
		if err := write(a.Name+"_bands.png", func(w io.Writer) error {
			return WriteBands(w, fmt.Sprintf("%s — %s by %s", m.ID, band, names[0]), fixedCaption(pts[0].Result, names), labels, rs, band)
		}); err != nil {
			return err
		}
		links = append(links, a.Name+"_bands.png")
	}
	fmt.Fprintf(index, "%s\n\n%s\n\n", finding, linkList(links))
	return nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func linkList(files []string) string {
	var b strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, ".png") {
			fmt.Fprintf(&b, "![%s](%s)\n", f, f)
		} else {
			fmt.Fprintf(&b, "- [%s](%s)\n", f, f)
		}
	}
	return b.String()
}

// findingOf is the one-line summary of a single result.
func findingOf(r *mechanics.Result) string {
	var parts []string
	for i, e := range r.Events {
		if i == 3 {
			break
		}
		parts = append(parts, fmt.Sprintf("P(%s) = %.4f", e.Name, e.P))
	}
	if len(r.Vars) > 0 {
		v := r.Vars[0]
		parts = append(parts, fmt.Sprintf("%s: mean %.3f, median %s, 5–95%% %s…%s", v.Name, v.Stats.Mean, value(v.Stats.P50), value(v.Stats.P5), value(v.Stats.P95)))
	}
	if r.Process != nil && r.Process.Unbounded {
		parts = append(parts, fmt.Sprintf("mean time (unlimited horizon) %.3f %ss", r.Process.MeanTimeUnbounded, unit(r.Process.TimeUnit)))
	}
	return "Finding: " + strings.Join(parts, "; ") + "."
}

// lineFinding reports where the metric crosses 50% (for probabilities) or
// its range.
func lineFinding(met, x string, xy plotter.XYs) string {
	if strings.HasPrefix(met, "event:") {
		for i := 1; i < len(xy); i++ {
			a, b := xy[i-1].Y, xy[i].Y
			if (a-0.5)*(b-0.5) <= 0 && a != b {
				return fmt.Sprintf("Finding: %s crosses 50%% between %s = %g (%.3f) and %g (%.3f).", met, x, xy[i-1].X, a, xy[i].X, b)
			}
		}
	}
	lo, hi := xy[0], xy[0]
	for _, p := range xy {
		if p.Y < lo.Y {
			lo = p
		}
		if p.Y > hi.Y {
			hi = p
		}
	}
	return fmt.Sprintf("Finding: %s ranges from %.3f (%s = %g) to %.3f (%s = %g).", met, lo.Y, x, lo.X, hi.Y, x, hi.X)
}

// heatFinding says, for each y value, where the metric crosses 50% in x
// (for the middle row), and the extremes.
func heatFinding(met string, names []string, axes [][]float64, z [][]float64) string {
	var parts []string
	if strings.HasPrefix(met, "event:") {
		for r, y := range axes[1] {
			if r != len(axes[1])/2 {
				continue
			}
			for c := 1; c < len(axes[0]); c++ {
				if (z[r][c-1]-0.5)*(z[r][c]-0.5) <= 0 && z[r][c-1] != z[r][c] {
					parts = append(parts, fmt.Sprintf("at %s = %g, %s crosses 50%% between %s = %g and %g", names[1], y, met, names[0], axes[0][c-1], axes[0][c]))
					break
				}
			}
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range z {
		for _, v := range row {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	parts = append(parts, fmt.Sprintf("%s ranges from %.3f to %.3f over the grid", met, lo, hi))
	return "Finding: " + strings.Join(parts, "; ") + "."
}

func runOverlay(o *Overlay, write func(string, func(io.Writer) error) error, index *bytes.Buffer, progress Progress) error {
	xs, err := ParseRange(o.Range)
	if err != nil {
		return err
	}
	var series []Series
	var mets []string
	var csvRows [][]string
	var caption string
	for _, s := range o.Series {
		m, _, err := configure(s.Mechanic, s.Set)
		if err != nil {
			return err
		}
		cs, err := s.configs(xs)
		if err != nil {
			return err
		}
		var xy plotter.XYs
		met := ""
		for i, c := range cs {
			r, err := exact.Run(m, c)
			if err != nil {
				return err
			}
			met = s.Metric
			if met == "" {
				met = DefaultMetric(r, o.Metric)
			}
			y, err := Metric(r, met)
			if err != nil {
				return err
			}
			xy = append(xy, plotter.XY{X: xs[i], Y: y})
			csvRows = append(csvRows, []string{s.Label, m.ID, mechanics.FormatNum(xs[i]), num(y)})
			if progress != nil {
				progress.Add(1)
			}
		}
		caption += s.Label + ": " + m.ID + "  "
		series = append(series, Series{Name: s.Label, XY: xy})
		mets = append(mets, met)
	}
	if err := write(o.Name+".csv", func(w io.Writer) error {
		fmt.Fprintf(w, "# oddsmith: %s\n# overlay: %s\n", mechanics.Version, o.Name)
		fmt.Fprintln(w, "series,mechanic,x,value")
		for _, r := range csvRows {
			fmt.Fprintln(w, strings.Join(r, ","))
		}
		return nil
	}); err != nil {
		return err
	}
	xl := o.XLabel
	if xl == "" {
		xl = "x"
	}
	if err := write(o.Name+".png", func(w io.Writer) error {
		return WriteLines(w, o.Name, xl, o.Metric, strings.TrimSpace(caption), series)
	}); err != nil {
		return err
	}
	fmt.Fprintf(index, "## %s — overlay\n\n", o.Name)
	for i, s := range series {
		fmt.Fprintf(index, "- %s: %s\n", s.Name, strings.TrimPrefix(lineFinding(mets[i], xl, s.XY), "Finding: "))
	}
	fmt.Fprintf(index, "\n%s\n", linkList([]string{o.Name + ".csv", o.Name + ".png"}))
	return nil
}

// Points counts the units of work of a plan, for a progress bar.
func (p *Plan) Points() int {
	n := 0
	for i := range p.Analyses {
		_, axes, _ := p.Analyses[i].points(p)
		k := 1
		for _, a := range axes {
			k *= len(a)
		}
		n += k
	}
	for _, o := range p.Overlays {
		xs, _ := ParseRange(o.Range)
		n += len(xs) * len(o.Series)
	}
	return n
}
