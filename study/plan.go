package study

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
)

// Plan is a batch of analyses read from a TOML file.
type Plan struct {
	Title    string     `toml:"title"`
	Seed     int64      `toml:"seed"`
	Trials   int64      `toml:"trials"`
	Analyses []Analysis `toml:"analysis"`
	Overlays []Overlay  `toml:"overlay"`
	// Charts are figures of panels of any kind (see Chart).
	Charts []Chart `toml:"chart"`
	// Compares are [[compare]] tables: two configurations side by side
	// (see PlanCompare).
	Compares []PlanCompare `toml:"compare"`
	// Solves are goal seeking: the settings that hit a target (see
	// PlanSolve, Solve).
	Solves []PlanSolve `toml:"solve"`
	// RuleFiles are rule files the plan uses (paths relative to the plan's
	// directory); Rule are rules defined in the plan itself ([[rule]]
	// tables, read by package rules).
	RuleFiles []string         `toml:"rules"`
	Rule      []map[string]any `toml:"rule"`
	// Dialect is whose meaning the plan's expr texts have: oddsmith's own
	// (the default), roll20, foundry or dice-roller (notation.Dialect).
	// A rule says its own in its [[rule]] table.
	Dialect string `toml:"dialect"`
	// Readings are the forms of the plan's expressions and rules, written
	// in oddsmith's dialect, that another dice tool reads otherwise: what
	// 'oddsmith run' warns about (notation.Readings).
	Readings []string `toml:"-"`
	// MemoryBytes is the memory budget of each computation (set by the
	// command line, not the file; 0 is the default).
	MemoryBytes int64 `toml:"-"`
	// Source, when set, gives the results in place of the engines (merge;
	// see Engine.Source).
	Source PointSource `toml:"-"`

	// reg holds the mechanics the plan can name: the registry it was
	// parsed against, with the plan's own rules on top.
	reg *mechanics.Registry
}

// Analysis is one mechanic at fixed settings, or swept over one or two
// parameters.
type Analysis struct {
	Name     string `toml:"name"`
	Mechanic string `toml:"mechanic"`
	// Expr is a one-line rule ('3d6', 'd20 + bonus >= tn') in place of
	// a mechanic, as --expr.
	Expr   string         `toml:"expr"`
	Engine engine.Kind    `toml:"engine"`
	Set    map[string]any `toml:"set"`
	// Vary maps each varied parameter or option to its values: a range
	// "a..b[:step]", a list "a,b,c" (numbers, or an option's words) or
	// an array [a, b, c].
	Vary  map[string]any `toml:"vary"`
	Order []string       `toml:"order"` // which varied parameter is the x axis (first) and y (second)
	// Metric is one metric or a list of them (engine.ParseMetric): the
	// CSV has a column for each, the plot draws the first.
	Metric MetricList `toml:"metric"`
	// Delta names a varied numeric parameter: the CSV then has each
	// metric's change per +1 of it, and NAME_delta.png draws the first's.
	Delta  string `toml:"delta"`
	Trials int64  `toml:"trials"`
	Seed   *int64 `toml:"seed"`
	// Plot is how a sweep of two parameters is drawn: "heatmap" (the
	// default) or "lines" (one line per value of the second parameter).
	Plot string `toml:"plot"`
}

// MetricList is a plan's metric key: one metric, or a list of them.
type MetricList []string

// UnmarshalTOML reads a string or an array of strings.
func (m *MetricList) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case string:
		*m = nil
		if v != "" {
			*m = MetricList{v}
		}
		return nil
	case []any:
		*m = nil
		for _, x := range v {
			s, ok := x.(string)
			if !ok {
				return fmt.Errorf("metric: give a metric or a list of metrics as quoted strings, not %s", tomlText(x))
			}
			*m = append(*m, s)
		}
		return nil
	}
	return fmt.Errorf("metric: give a metric or a list of metrics as quoted strings, not %s", tomlText(v))
}

// planAxis reads a varied parameter's values from a plan: a range
// "a..b[:step]", a list "a,b,c" or an array of numbers or words.
func planAxis(name string, v any) (Axis, error) {
	switch v := v.(type) {
	case string:
		return ParseAxis(name + "=" + v)
	case int64, float64:
		s, _ := settingString(name, v)
		return ParseAxis(s)
	case []any:
		var items []string
		for _, x := range v {
			switch x := x.(type) {
			case string:
				if strings.Contains(x, ",") || strings.TrimSpace(x) == "" {
					return Axis{}, fmt.Errorf("vary %s: %q is not a value", name, x)
				}
				items = append(items, x)
			case int64:
				items = append(items, strconv.FormatInt(x, 10))
			case float64:
				items = append(items, mechanics.FormatNum(x))
			default:
				return Axis{}, fmt.Errorf("vary %s: %s is neither a number nor a quoted word", name, tomlText(x))
			}
		}
		if len(items) == 0 {
			return Axis{}, fmt.Errorf("vary %s: the list is empty", name)
		}
		a, err := parseList(name, strings.Join(items, ","))
		return a, err
	}
	return Axis{}, fmt.Errorf("vary %s must be a range \"a..b[:step]\", a list \"a,b,c\" or an array [a, b, c]", name)
}

// Overlay compares several mechanics or option settings on one line chart.
type Overlay struct {
	Name   string `toml:"name"`
	XLabel string `toml:"xlabel"`
	// YLabel names the y axis in place of the metric's words (for
	// series scaled with yscale, say).
	YLabel string       `toml:"ylabel"`
	Range  string       `toml:"range"`
	Metric string       `toml:"metric"`
	Series []PlanSeries `toml:"series"`
}

// PlanSeries is one line of an overlay: a mechanic, the parameter the x axis
// sets, fixed settings and (optionally) its own metric.
type PlanSeries struct {
	// Label names the series in the legend (default: its mechanic or
	// rule and its settings).
	Label    string `toml:"label"`
	Mechanic string `toml:"mechanic"`
	// Expr is a one-line rule in place of a mechanic, as --expr.
	Expr   string         `toml:"expr"`
	X      string         `toml:"x"`
	Set    map[string]any `toml:"set"`
	Metric string         `toml:"metric"`
	// Range is the values of the series' own parameter when they differ
	// from the overlay's (another unit: feet against an axis in metres);
	// Scale turns them into the axis' unit (axis = value × Scale; 0 or
	// absent means 1). With neither, the series runs over the overlay's
	// range.
	Range string  `toml:"range"`
	Scale float64 `toml:"scale"`
	// Marks are values of the series' parameter to mark on the chart (in
	// its own unit, like Range): the rule's band edges.
	Marks []float64 `toml:"marks"`
	// YScale multiplies the series' values (0 or absent means 1): a mean
	// damage ÷ the reference character's pool, say (give the overlay a
	// ylabel that says so).
	YScale float64 `toml:"yscale"`
	// Color and Dash set the series' look (reports.Style): "#0072B2" or
	// an Okabe–Ito name ("vermillion", "sky blue", …); "solid",
	// "dashed" or "dotted".
	Color string `toml:"color"`
	Dash  string `toml:"dash"`
}

// style is the look the series asks for.
func (s PlanSeries) style() reports.Style { return reports.Style{Color: s.Color, Dash: s.Dash} }

// label is the series' legend name: its label, or what it computes.
func (s PlanSeries) label() string {
	if s.Label != "" {
		return s.Label
	}
	name := s.Mechanic
	if s.Expr != "" {
		name = s.Expr
	}
	if set := settingsOf(s.Set); set != "" {
		name += " (" + set + ")"
	}
	return name
}

// points gives the series' parameter values and where they sit on the
// overlay's axis.
func (s PlanSeries) points(o *Overlay) (values, axis []float64, err error) {
	r := cmp.Or(s.Range, o.Range)
	values, err = ParseRange(r)
	if err != nil {
		return nil, nil, err
	}
	scale := s.Scale
	switch {
	case math.IsNaN(scale) || math.IsInf(scale, 0) || scale < 0:
		return nil, nil, fmt.Errorf("scale = %g: give a positive finite factor (axis unit per parameter unit)", scale)
	case scale == 0:
		scale = 1
	}
	for _, v := range values {
		axis = append(axis, v*scale)
	}
	for _, m := range s.Marks {
		if math.IsNaN(m) || math.IsInf(m, 0) {
			return nil, nil, fmt.Errorf("marks: %g is not a finite number", m)
		}
	}
	if math.IsNaN(s.YScale) || math.IsInf(s.YScale, 0) {
		return nil, nil, fmt.Errorf("yscale = %g: give a finite factor", s.YScale)
	}
	return values, axis, nil
}

// PlanError names the file, the line and the problem.
type PlanError struct {
	File string
	Line int
	Err  error
}

func (e *PlanError) Error() string {
	if msg := e.Err.Error(); e.Line == 0 && strings.HasPrefix(msg, e.File+":") {
		return msg // an inline rule's error names the file and the line already
	}
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
func ParsePlan(reg *mechanics.Registry, file string, src []byte) (*Plan, error) {
	p, err := decodePlan(file, src)
	if err != nil {
		return nil, err
	}
	if err := rules.CheckDialect(p.Dialect); err != nil {
		return nil, &PlanError{file, keyLine(src, "dialect"), err}
	}
	if err := p.loadRules(reg, file, src); err != nil {
		return nil, err
	}
	if p.Seed < 0 {
		return nil, &PlanError{file, keyLine(src, "seed"), fmt.Errorf("seed must be a whole number ≥ 0, got %d", p.Seed)}
	}
	if len(p.Analyses) == 0 && len(p.Overlays) == 0 && len(p.Charts) == 0 && len(p.Compares) == 0 && len(p.Solves) == 0 {
		return nil, &PlanError{file, 0, errors.New("the plan has no [[analysis]], [[overlay]], [[chart]], [[compare]] or [[solve]]")}
	}
	if p.Trials == 0 {
		p.Trials = 200_000
	}
	if p.Trials < 1 || p.Trials > MaxTrials {
		return nil, &PlanError{file, 0, fmt.Errorf("trials must be between 1 and %d, got %d", MaxTrials, p.Trials)}
	}
	names := map[string]bool{}
	for i := range p.Analyses {
		if err := p.validateAnalysis(i, names); err != nil {
			return nil, &PlanError{file, tableLine(src, "analysis", i), fmt.Errorf("analysis %d (%s): %w", i+1, p.Analyses[i].Name, err)}
		}
	}
	for i := range p.Overlays {
		if err := p.validateOverlay(i, names); err != nil {
			return nil, &PlanError{file, errLine(src, "overlay", tableLine(src, "overlay", i), err), fmt.Errorf("overlay %d (%s): %w", i+1, p.Overlays[i].Name, err)}
		}
	}
	if err := p.validateCharts(file, src, names); err != nil {
		return nil, err
	}
	for i := range p.Compares {
		if err := p.validateCompare(i, names); err != nil {
			return nil, &PlanError{file, tableLine(src, "compare", i), fmt.Errorf("compare %d (%s): %w", i+1, p.Compares[i].Name, err)}
		}
	}
	if err := p.validateSolves(file, src, names); err != nil {
		return nil, err
	}
	if err := checkFileNames(p); err != nil {
		return nil, &PlanError{file, 0, err}
	}
	return p, nil
}

// decodePlan reads a plan's TOML: its shape first (depth and key counts,
// package tomlscan), then every key against the plan structs — an
// unknown key or a value of the wrong type is refused with its line (the
// keys of its [[rule]] tables are package rules' to check).
func decodePlan(file string, src []byte) (*Plan, error) {
	doc, err := rules.ScanTOML(file, src)
	if err != nil {
		return nil, &PlanError{file, 0, err}
	}
	var raw map[string]any
	if _, err := toml.NewDecoder(bytes.NewReader(src)).Decode(&raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &PlanError{file, pe.Position.Line, errors.New(strings.ReplaceAll(pe.Message, "\n", " "))}
		}
		return nil, &PlanError{file, 0, err}
	}
	if se := checkShape(raw); se != nil {
		return nil, &PlanError{file, doc.Line(se.path...), errors.New(se.msg)}
	}
	var p Plan
	md, err := toml.NewDecoder(bytes.NewReader(src)).Decode(&p)
	if err != nil {
		// checkShape let through what the decoder refuses: say where.
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &PlanError{file, pe.Position.Line, errors.New(strings.ReplaceAll(pe.Message, "\n", " "))}
		}
		return nil, &PlanError{file, 0, err}
	}
	for _, key := range md.Undecoded() {
		if key[0] == "rule" {
			continue
		}
		return nil, &PlanError{file, doc.KeyLine(key), errors.New(unknownKey(key))}
	}
	return &p, nil
}

// validateAnalysis checks analysis i, whose name must be new to names (and
// is added to them); its engine defaults to the exact one.
func (p *Plan) validateAnalysis(i int, names map[string]bool) error {
	a := &p.Analyses[i]
	if a.Name == "" || strings.ContainsAny(a.Name, "/\\ ") {
		return errors.New("needs a name without spaces or slashes")
	}
	if names[a.Name] {
		return errors.New("duplicate name")
	}
	names[a.Name] = true
	if a.Engine == "" {
		a.Engine = engine.Exact
	}
	if !a.Engine.Valid() {
		return fmt.Errorf("unknown engine %q (want exact or sim)", a.Engine)
	}
	if a.Plot != "" && !slices.Contains(reports.SweepPlotKinds, a.Plot) {
		return fmt.Errorf("plot %q is not one of %s", a.Plot, strings.Join(reports.SweepPlotKinds, ", "))
	}
	if a.Seed != nil && *a.Seed < 0 {
		return fmt.Errorf("seed must be a whole number ≥ 0, got %d", *a.Seed)
	}
	_, err := a.sweep(p)
	return err
}

// validateOverlay checks overlay i, whose name must be new to names (and
// is added to them): its range, and every series' models, metric at every
// point and look.
func (p *Plan) validateOverlay(i int, names map[string]bool) error {
	o := &p.Overlays[i]
	if o.Name == "" || strings.ContainsAny(o.Name, "/\\ ") || names[o.Name] {
		return errors.New("needs a unique name without spaces or slashes")
	}
	names[o.Name] = true
	if _, err := ParseRange(o.Range); err != nil {
		return err
	}
	if len(o.Series) == 0 {
		return errors.New("has no series")
	}
	labels := map[string]bool{}
	for _, s := range o.Series {
		if err := checkStyle(s.Color, s.Dash); err != nil {
			return &seriesError{s.label(), err}
		}
		if labels[s.label()] {
			return &seriesError{s.label(), errors.New("another series has this label; give each its own (label = \"…\")")}
		}
		labels[s.label()] = true
		vs, _, err := s.points(o)
		if err != nil {
			return &seriesError{s.label(), err}
		}
		m, cs, err := s.configs(p, vs)
		if err != nil {
			return &seriesError{s.label(), err}
		}
		metric := cmp.Or(s.Metric, o.Metric)
		for _, c := range cs {
			if err := checkModel(m, c, metric); err != nil {
				return &seriesError{s.label(), err}
			}
		}
	}
	return nil
}

// styleValue is an error of a series' colour or dash: the value, for
// its line.
type styleValue struct {
	value string
	err   error
}

func (e *styleValue) Error() string { return e.err.Error() }
func (e *styleValue) Unwrap() error { return e.err }

// checkStyle checks a series' colour and dash (reports.Style).
func checkStyle(color, dash string) error {
	if err := (reports.Style{Color: color}).Validate(); err != nil {
		return &styleValue{color, err}
	}
	if err := (reports.Style{Dash: dash}).Validate(); err != nil {
		return &styleValue{dash, err}
	}
	return nil
}

// seriesError is the error of one series of a table, which PlanError
// places on the series' own line where it can find it.
type seriesError struct {
	label string
	err   error
}

func (e *seriesError) Error() string { return fmt.Sprintf("series %q: %v", e.label, e.err) }
func (e *seriesError) Unwrap() error { return e.err }

// errLine is the line of an error of the table of the given path that
// starts at line from: the line of the value a style error names, else of
// the series' label (within the table and its sub-tables, [[overlay.series]]
// say), else from.
func errLine(src []byte, path string, from int, err error) int {
	var se *seriesError
	if from == 0 || !errors.As(err, &se) {
		return from
	}
	lines := strings.Split(string(src), "\n")
	find := func(needle string) int {
		// Within the table: up to the next table header.
		for i := from; i < len(lines); i++ {
			t := strings.TrimSpace(lines[i])
			if h := strings.Trim(t, "[] "); strings.HasPrefix(t, "[") && !strings.HasPrefix(t, "[\"") && !strings.HasPrefix(h, path+".") {
				break
			}
			if strings.Contains(lines[i], needle) {
				return i + 1
			}
		}
		return 0
	}
	var what *styleValue
	if errors.As(err, &what) {
		if l := find(strconv.Quote(what.value)); l > 0 {
			return l
		}
	}
	if l := find("label = " + strconv.Quote(se.label)); l > 0 {
		return l
	}
	return from
}

// keyLine finds the first line that sets key (0 if none does).
func keyLine(src []byte, key string) int {
	for i, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		if rest, ok := strings.CutPrefix(l, key); ok && strings.HasPrefix(strings.TrimSpace(rest), "=") {
			return i + 1
		}
		if strings.Contains(l, "{") && strings.Contains(l, key) {
			return i + 1
		}
	}
	return 0
}

// checkFileNames refuses plans in which two analyses or overlays would
// write a file of the same name (an analysis "b" writes b_pmf.png, and so
// would an analysis "b_pmf" that is a sweep).
func checkFileNames(p *Plan) error {
	owner := map[string]string{}
	claim := func(who string, files ...string) error {
		for _, f := range files {
			if other, ok := owner[f]; ok && other != who {
				return fmt.Errorf("%s and %s would both write %s; rename one", other, who, f)
			}
			owner[f] = who
		}
		return nil
	}
	for _, a := range p.Analyses {
		n := a.Name
		if err := claim("analysis "+n, n+".csv", n+".png", n+"_pmf.png", n+"_atleast.png", n+"_tail.png", n+"_bands.png", n+"_survival.png", n+"_delta.png"); err != nil {
			return err
		}
	}
	for _, o := range p.Overlays {
		if err := claim("overlay "+o.Name, o.Name+".csv", o.Name+".png"); err != nil {
			return err
		}
	}
	for _, c := range p.Charts {
		if err := claim("chart "+c.Name, c.Name+".csv", c.Name+".png"); err != nil {
			return err
		}
	}
	for _, c := range p.Compares {
		if err := claim("compare "+c.Name, c.Name+".csv", c.Name+".png", c.Name+"_diff.png"); err != nil {
			return err
		}
	}
	for _, s := range p.Solves {
		if err := claim("solve "+s.Name, solveFiles(s.Name)...); err != nil {
			return err
		}
	}
	if who, ok := owner["index.md"]; ok {
		return fmt.Errorf("%s would overwrite index.md", who)
	}
	return nil
}

func settingString(k string, v any) (string, error) {
	switch v := v.(type) {
	case string:
		return k + "=" + v, nil
	case int64:
		return fmt.Sprintf("%s=%d", k, v), nil
	case float64:
		return k + "=" + mechanics.FormatNum(v), nil
	}
	switch v.(type) {
	case bool:
		return "", fmt.Errorf("%s = %t: give a number or a quoted name", k, v)
	}
	return "", fmt.Errorf("%s is %s: give a number or a quoted name", k, valueWords(v))
}

// loadRules reads the plan's own rules and its rule files and lays them
// over reg.
func (p *Plan) loadRules(reg *mechanics.Registry, file string, src []byte) error {
	local := map[string]bool{}
	var ms []*mechanics.Mechanic
	var rs []*rules.Rule
	if len(p.Rule) > 0 {
		inline, err := rules.Parse(file, src)
		if err != nil {
			return &PlanError{file, 0, err}
		}
		rs = inline
	}
	for _, path := range p.RuleFilePaths(file) {
		more, err := rules.LoadFile(path)
		if err != nil {
			return &PlanError{file, keyLine(src, "rules"), err}
		}
		rs = append(rs, more...)
	}
	for _, r := range rs {
		if _, err := reg.Lookup(r.ID); err == nil || local[r.ID] {
			return &PlanError{file, 0, fmt.Errorf("rule %s: the id is taken (by a built-in mechanic or another rule); choose another", r.ID)}
		}
		local[r.ID] = true
		ms = append(ms, r.Mechanic())
		p.Readings = append(p.Readings, r.Readings...)
	}
	var err error
	p.reg, err = reg.Overlay(ms)
	return err
}

// RuleFilePaths are the plan's rule files (RuleFiles) as paths: a relative
// one is read from the directory of the plan file.
func (p *Plan) RuleFilePaths(file string) []string {
	paths := make([]string, len(p.RuleFiles))
	for i, f := range p.RuleFiles {
		paths[i] = f
		if !filepath.IsAbs(f) {
			paths[i] = filepath.Join(filepath.Dir(file), f)
		}
	}
	return paths
}

// configure looks a mechanic up (the plan's own rules first) and applies
// settings to its defaults.
func (p *Plan) configure(id string, set map[string]any) (*mechanics.Mechanic, mechanics.Config, error) {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sets []string
	for _, k := range keys {
		kv, err := settingString(k, set[k])
		if err != nil {
			return nil, mechanics.Config{}, err
		}
		sets = append(sets, kv)
	}
	return p.reg.Configure(id, sets)
}

// configureAny is configure for a table that names a mechanic or gives a
// one-line rule (expr) in its place.
func (p *Plan) configureAny(id, expr string, set map[string]any) (*mechanics.Mechanic, mechanics.Config, error) {
	switch {
	case expr != "" && id != "":
		return nil, mechanics.Config{}, errors.New("give mechanic or expr, not both")
	case expr == "" && id == "":
		return nil, mechanics.Config{}, errors.New("needs a mechanic (an id: oddsmith list) or expr (a one-line rule, as --expr)")
	case expr == "":
		return p.configure(id, set)
	}
	r, readings, err := rules.FromExprIn(expr, p.Dialect)
	if err != nil {
		return nil, mechanics.Config{}, err
	}
	for _, line := range readings {
		if !slices.Contains(p.Readings, line) {
			p.Readings = append(p.Readings, line)
		}
	}
	m := r.Mechanic()
	sets, err := setStrings(set)
	if err != nil {
		return nil, mechanics.Config{}, err
	}
	c, err := m.Configure(sets)
	return m, c, err
}

// engine is the analysis's engine with the plan's defaults.
func (a *Analysis) engine(p *Plan) Engine {
	e := Engine{Kind: a.Engine, Trials: a.Trials, Seed: uint64(p.Seed), MemoryBytes: p.MemoryBytes, Source: p.Source}
	if e.Trials == 0 {
		e.Trials = p.Trials
	}
	if a.Seed != nil {
		e.Seed = uint64(*a.Seed)
	}
	return e
}

// sweep validates an analysis and returns it as a sweep (no axes for a
// single point).
func (a *Analysis) sweep(p *Plan) (*Sweep, error) {
	m, base, err := p.configureAny(a.Mechanic, a.Expr, a.Set)
	if err != nil {
		return nil, err
	}
	if len(a.Vary) > 2 {
		return nil, fmt.Errorf("vary at most two parameters, got %d", len(a.Vary))
	}
	order := a.Order
	if len(order) == 0 {
		for k := range a.Vary {
			order = append(order, k)
		}
		sort.Strings(order)
	}
	if len(order) != len(a.Vary) {
		return nil, fmt.Errorf("order lists %d (%s) but vary has %d parameters", len(order), strings.Join(order, ", "), len(a.Vary))
	}
	s := &Sweep{Mechanic: m, Base: base, Engine: a.engine(p), Metrics: a.Metric, Delta: a.Delta}
	for _, n := range order {
		v, ok := a.Vary[n]
		if !ok {
			return nil, fmt.Errorf("order names %s, which vary does not", n)
		}
		ax, err := planAxis(n, v)
		if err != nil {
			return nil, err
		}
		s.Axes = append(s.Axes, ax)
	}
	if len(s.Axes) == 0 {
		if err := s.Engine.Validate(m); err != nil {
			return nil, err
		}
		if a.Delta != "" {
			return nil, fmt.Errorf("delta %s: the analysis varies nothing", a.Delta)
		}
		for _, met := range append([]string{""}, a.Metric...) {
			if err := checkModel(m, base, met); err != nil {
				return nil, err
			}
		}
		return s, nil
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s PlanSeries) configs(p *Plan, xs []float64) (*mechanics.Mechanic, []mechanics.Config, error) {
	m, base, err := p.configureAny(s.Mechanic, s.Expr, s.Set)
	if err != nil {
		return nil, nil, err
	}
	if m.MCOnly {
		return nil, nil, fmt.Errorf("%s has no exact model", m.ID)
	}
	var out []mechanics.Config
	for _, x := range xs {
		c := base.Clone()
		if err := m.Set(c, s.X+"="+mechanics.FormatNum(x)); err != nil {
			return nil, nil, err
		}
		out = append(out, c)
	}
	return m, out, nil
}

// Progress is told how many units of work there are and when each is done.
type Progress interface {
	Add(int) error
}

// RunPlan computes every analysis and writes the bundle to dir: per analysis
// a CSV and PNGs, per overlay a CSV and a PNG, and index.md linking them with
// one-line findings and the fingerprint of each model. The bundle appears
// file by file only when everything is computed (see reports.Bundle).
func RunPlan(ctx context.Context, p *Plan, dir string, progress Progress) (files []string, err error) {
	b, err := reports.NewBundle(dir)
	if err != nil {
		return nil, err
	}
	defer func() {
		// A temporary directory left behind is said, never ignored.
		if cerr := b.Close(); cerr != nil {
			if err == nil {
				err = cerr
			} else if !errors.Is(err, context.Canceled) {
				err = fmt.Errorf("%w; %v", err, cerr)
			}
		}
	}()
	title := p.Title
	if title == "" {
		title = "oddsmith report"
	}
	fmt.Fprintf(&b.Index, "# %s\n\noddsmith %s. Each analysis links its table (CSV) and plots (PNG); a fingerprint identifies the model each figure comes from.\n\n", title, mechanics.Version)
	// Analyses and overlays run side by side (their plots are encoded in
	// parallel too); each writes its own section of the index, which is
	// assembled in plan order, so the bundle does not depend on timing.
	sections := make([]bytes.Buffer, len(p.Analyses)+len(p.Overlays)+len(p.Charts)+len(p.Compares)+len(p.Solves))
	g, gctx := newGroup(ctx, runtime.GOMAXPROCS(0))
	for i := range p.Analyses {
		a := &p.Analyses[i]
		g.Go(func() error {
			if err := runAnalysis(gctx, p, a, b, &sections[i], progress); err != nil {
				return fmt.Errorf("analysis %s: %w", a.Name, err)
			}
			return nil
		})
	}
	for i := range p.Overlays {
		o := &p.Overlays[i]
		g.Go(func() error {
			if err := runOverlay(gctx, p, o, b, &sections[len(p.Analyses)+i], progress); err != nil {
				return fmt.Errorf("overlay %s: %w", o.Name, err)
			}
			return nil
		})
	}
	for i := range p.Charts {
		c := &p.Charts[i]
		g.Go(func() error {
			if err := runChart(gctx, p, c, b, &sections[len(p.Analyses)+len(p.Overlays)+i], progress); err != nil {
				return fmt.Errorf("chart %s: %w", c.Name, err)
			}
			return nil
		})
	}
	for i := range p.Compares {
		c := &p.Compares[i]
		g.Go(func() error {
			if err := runCompare(gctx, p, c, b, &sections[len(p.Analyses)+len(p.Overlays)+len(p.Charts)+i], progress); err != nil {
				return fmt.Errorf("compare %s: %w", c.Name, err)
			}
			return nil
		})
	}
	for i := range p.Solves {
		ps := &p.Solves[i]
		g.Go(func() error {
			if err := runSolveTable(gctx, p, ps, b, &sections[len(p.Analyses)+len(p.Overlays)+len(p.Charts)+len(p.Compares)+i], progress); err != nil {
				return fmt.Errorf("solve %s: %w", ps.Name, err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	for i := range sections {
		b.Index.Write(sections[i].Bytes())
	}
	return b.Commit()
}

func runAnalysis(ctx context.Context, p *Plan, a *Analysis, b *reports.Bundle, index *bytes.Buffer, progress Progress) error {
	s, err := a.sweep(p)
	if err != nil {
		return err
	}
	m := s.Mechanic
	if a.Expr != "" {
		fmt.Fprintf(index, "## %s — the rule `%s` (%s)\n\n", a.Name, a.Expr, a.Engine)
	} else {
		fmt.Fprintf(index, "## %s — `%s` (%s)\n\n", a.Name, m.ID, a.Engine)
	}
	tick := func() {
		if progress != nil {
			progress.Add(1)
		}
	}
	if len(s.Axes) == 0 {
		r, err := s.Engine.Run(ctx, m, s.Base)
		if err != nil {
			return err
		}
		tick()
		links, skipped, err := b.WriteResultFiles(a.Name, r)
		if err != nil {
			return err
		}
		fmt.Fprintf(index, "%s\n\nFingerprint: `%s`\n\n%s%s\n", reports.Finding(r), r.Fingerprint, reports.LinkList(links), reports.SkippedList(skipped))
		return nil
	}
	// A short sweep over one parameter keeps its survival curves, for a
	// family plot (chronic ailments by strength).
	s.KeepSurvival = len(s.Axes) == 1 && s.Points() <= reports.FamilyMax
	pts, err := s.Run(ctx, tick)
	if err != nil {
		return err
	}
	names := s.Names()
	rep := s.Report(pts, a.Plot)
	if err := b.Write(a.Name+".csv", func(w io.Writer) error { return reports.WriteSweepCSV(w, rep) }); err != nil {
		return err
	}
	var finding string
	err = b.Write(a.Name+".png", func(w io.Writer) error {
		var err error
		finding, err = reports.WriteSweepPlot(w, rep)
		return err
	})
	if err != nil {
		return err
	}
	links := []string{a.Name + ".csv", a.Name + ".png"}
	if s.Delta != "" {
		var df string
		if err := b.Write(a.Name+"_delta.png", func(w io.Writer) error {
			var err error
			df, err = reports.WriteSweepDeltaPlot(w, rep)
			return err
		}); err != nil {
			return err
		}
		finding += "\n\n" + df
		links = append(links, a.Name+"_delta.png")
	}
	// A point's setting, for the labels of a family of bars or curves.
	at := func(pt reports.SweepPoint, sep string) string { return names[0] + sep + s.Axes[0].Text(pt.Values[0]) }
	// Charts that would show nothing a sentence does not are left out
	// (reports.Degenerate), one line each in the index.
	var skipped []string
	// One varied parameter and a categorical band: one stacked bar per point.
	if len(s.Axes) == 1 && len(pts[0].Result.Bands) > 0 {
		band := pts[0].Result.Bands[0].Name
		var labels []string
		var rs []*engine.Result
		for _, pt := range pts {
			labels = append(labels, at(pt, "="))
			rs = append(rs, pt.Result)
		}
		if bad, why := reports.Degenerate("bands", band, rs...); bad {
			skipped = append(skipped, a.Name+"_bands.png: "+why)
		} else {
			if err := b.Write(a.Name+"_bands.png", func(w io.Writer) error {
				return reports.WriteBands(w, fmt.Sprintf("%s — %s by %s", m.ID, band, names[0]), reports.FixedCaption(pts[0].Result, names), labels, rs, band)
			}); err != nil {
				return err
			}
			links = append(links, a.Name+"_bands.png")
		}
	}
	if s.KeepSurvival && pts[0].Result.Process != nil && len(pts[0].Result.Process.Survival) > 1 {
		var labels []string
		var rs []*engine.Result
		for _, pt := range pts {
			labels = append(labels, at(pt, " = "))
			rs = append(rs, pt.Result)
		}
		if bad, why := reports.Degenerate("survival", "", rs...); bad {
			skipped = append(skipped, a.Name+"_survival.png: "+why)
		} else {
			if err := b.Write(a.Name+"_survival.png", func(w io.Writer) error {
				return reports.WriteSurvivalFamily(w, fmt.Sprintf("%s — chance it is still going after t, by %s", m.ID, names[0]),
					reports.FixedCaption(pts[0].Result, names), labels, rs)
			}); err != nil {
				return err
			}
			links = append(links, a.Name+"_survival.png")
		}
	}
	fmt.Fprintf(index, "%s\n\nFingerprints: one per grid point, in the last column of the CSV.\n\n%s%s\n", finding, reports.LinkList(links), reports.SkippedList(skipped))
	return nil
}

func runOverlay(ctx context.Context, p *Plan, o *Overlay, b *reports.Bundle, index *bytes.Buffer, progress Progress) error {
	memory := p.MemoryBytes
	var series []reports.Series
	var mets []string
	var rows []reports.OverlayRow
	var described []reports.CaptionSeries
	exactly := Engine{Kind: engine.Exact, MemoryBytes: memory, Source: p.Source}
	for _, s := range o.Series {
		vs, xs, err := s.points(o)
		if err != nil {
			return err
		}
		m, cs, err := s.configs(p, vs)
		if err != nil {
			return err
		}
		var xy []reports.XY
		met, unit := "", ""
		yscale := cmp.Or(s.YScale, 1)
		var first *engine.Result
		for i, c := range cs {
			r, err := exactly.Run(ctx, m, c)
			if err != nil {
				return err
			}
			if first == nil {
				first = r
			}
			met = s.Metric
			if met == "" {
				met = reports.DefaultMetric(r, o.Metric)
			}
			unit = reports.MetricUnit(r, met)
			y, err := metricValue(r, met)
			if err != nil {
				return err
			}
			y *= yscale
			xy = append(xy, reports.XY{X: xs[i], Y: y})
			rows = append(rows, reports.OverlayRow{Series: s.label(), Mechanic: m.ID, Fingerprint: r.Fingerprint, X: xs[i],
				Setting: s.X + "=" + mechanics.FormatNum(vs[i]), Value: y})
			if progress != nil {
				progress.Add(1)
			}
		}
		var notes []string
		if s.Scale != 0 && s.Scale != 1 {
			notes = append(notes, fmt.Sprintf("%s drawn × %g", s.X, s.Scale))
		}
		if yscale != 1 {
			unit = "" // a share, no longer in the variable's unit
			notes = append(notes, "values "+scaleText(yscale))
		}
		if first != nil {
			described = append(described, reports.CaptionSeries{Label: s.label(), Mechanic: m, Result: first, Varied: []string{s.X}, Note: strings.Join(notes, ", ")})
		}
		scale := cmp.Or(s.Scale, 1)
		var marks []float64
		for _, v := range s.Marks {
			marks = append(marks, v*scale)
		}
		series = append(series, reports.Series{Name: s.label(), XY: xy, Metric: met, Unit: unit, Marks: marks, Style: s.style()})
		if yscale != 1 {
			// Scaled values are no longer the metric (nor a probability).
			met = cmp.Or(o.YLabel, met+" "+scaleText(yscale))
		}
		mets = append(mets, met)
	}
	if err := b.Write(o.Name+".csv", func(w io.Writer) error { return reports.WriteOverlayCSV(w, o.Name, rows) }); err != nil {
		return err
	}
	xl := o.XLabel
	if xl == "" {
		xl = "x"
	}
	caption := reports.SeriesCaption(described)
	if err := b.Write(o.Name+".png", func(w io.Writer) error {
		return reports.WriteLines(w, &reports.Lines{Title: o.Name, XLabel: xl, YLabel: o.YLabel, Metric: o.Metric, Caption: caption, Series: series})
	}); err != nil {
		return err
	}
	fmt.Fprintf(index, "## %s — overlay\n\n", o.Name)
	for i, s := range series {
		fmt.Fprintf(index, "- %s: %s\n", s.Name, strings.TrimPrefix(reports.LineFinding(mets[i], xl, s.XY), "Finding: "))
	}
	fmt.Fprintf(index, "\n%s\n", reports.LinkList([]string{o.Name + ".csv", o.Name + ".png"}))
	return nil
}

// scaleText says a factor: "÷ 15" for 1/15 (to six digits), "× 2.5"
// otherwise.
func scaleText(k float64) string {
	if k != 0 {
		if d := 1 / k; d > 1 && math.Abs(d-math.Round(d)) < 1e-6*d {
			return "÷ " + mechanics.FormatNum(math.Round(d))
		}
	}
	return "× " + mechanics.FormatNum(k)
}

// Points counts the units of work of a plan, for a progress bar.
func (p *Plan) Points() int {
	n := 0
	for i := range p.Analyses {
		s, err := p.Analyses[i].sweep(p)
		if err != nil {
			continue
		}
		n += max(s.Points(), 1)
	}
	for _, o := range p.Overlays {
		for _, s := range o.Series {
			xs, _, _ := s.points(&o)
			n += len(xs)
		}
	}
	for i := range p.Charts {
		n += p.chartPoints(&p.Charts[i])
	}
	n += 2 * len(p.Compares)
	for i := range p.Solves {
		n += p.solvePoints(&p.Solves[i])
	}
	return n
}
