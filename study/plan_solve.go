package study

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
)

// PlanSolve is a [[solve]] table of a plan: the fields of 'oddsmith
// solve'. vary maps each parameter to "a..b[:step]", "v1,v2,…" or an
// array of values (order says which is first); target is one target or
// an array of them.
//
//	[[solve]]
//	name = "tn_for_60"
//	mechanic = "ag.skill_test"
//	set = { skill = 3 }
//	vary = { tn = "1..14" }
//	target = "event:success=0.6"
type PlanSolve struct {
	Name     string `toml:"name"`
	Mechanic string `toml:"mechanic"`
	// Expr is a one-line rule instead of a mechanic (as --expr).
	Expr      string         `toml:"expr"`
	Engine    engine.Kind    `toml:"engine"`
	Set       map[string]any `toml:"set"`
	Vary      map[string]any `toml:"vary"`
	Order     []string       `toml:"order"`
	Target    any            `toml:"target"`
	Minimize  string         `toml:"minimize"`
	Maximize  string         `toml:"maximize"`
	Tolerance float64        `toml:"tolerance"`
	Trials    int64          `toml:"trials"`
	Seed      *int64         `toml:"seed"`
}

// solve builds the solve a [[solve]] table describes, validated.
func (ps *PlanSolve) solve(p *Plan) (*Solve, error) {
	var m *mechanics.Mechanic
	var base mechanics.Config
	var err error
	switch {
	case ps.Expr != "" && ps.Mechanic != "":
		return nil, fmt.Errorf("give mechanic or expr, not both")
	case ps.Expr != "":
		r, err := rules.FromExpr(ps.Expr)
		if err != nil {
			return nil, err
		}
		m = r.Mechanic()
		sets, err := setStrings(ps.Set)
		if err != nil {
			return nil, err
		}
		if base, err = m.Configure(sets); err != nil {
			return nil, err
		}
	default:
		if m, base, err = p.configure(ps.Mechanic, ps.Set); err != nil {
			return nil, err
		}
	}
	order := ps.Order
	if len(order) == 0 {
		for k := range ps.Vary {
			order = append(order, k)
		}
		sort.Strings(order)
	}
	if len(order) != len(ps.Vary) {
		return nil, fmt.Errorf("order lists %d (%s) but vary has %d parameters", len(order), strings.Join(order, ", "), len(ps.Vary))
	}
	s := &Solve{Mechanic: m, Base: base, Minimize: ps.Minimize, Maximize: ps.Maximize, Tolerance: ps.Tolerance}
	for _, n := range order {
		v, ok := ps.Vary[n]
		if !ok {
			return nil, fmt.Errorf("order names %s, which vary does not", n)
		}
		text, err := varyText(n, v)
		if err != nil {
			return nil, err
		}
		s.Vary = append(s.Vary, text)
	}
	switch t := ps.Target.(type) {
	case nil:
	case string:
		s.Targets = []string{t}
	case []any:
		for _, x := range t {
			str, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("target must be a string or an array of strings, got %s", tomlText(x))
			}
			s.Targets = append(s.Targets, str)
		}
	default:
		return nil, fmt.Errorf("target must be a string or an array of strings, got %s", tomlText(t))
	}
	kind := ps.Engine
	if kind == "" {
		kind = engine.Exact
	}
	if !kind.Valid() {
		return nil, fmt.Errorf("unknown engine %q (want exact or sim)", kind)
	}
	e := Engine{Kind: kind, Trials: ps.Trials, Seed: uint64(p.Seed), MemoryBytes: p.MemoryBytes, Source: p.Source}
	if e.Trials == 0 {
		e.Trials = p.Trials
	}
	if ps.Seed != nil {
		if *ps.Seed < 0 {
			return nil, fmt.Errorf("seed must be a whole number ≥ 0, got %d", *ps.Seed)
		}
		e.Seed = uint64(*ps.Seed)
	}
	s.Engine = e
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// setStrings are a table's settings as --set takes them, in name order.
func setStrings(set map[string]any) ([]string, error) {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		kv, err := settingString(k, set[k])
		if err != nil {
			return nil, err
		}
		out = append(out, kv)
	}
	return out, nil
}

// varyText is a [[solve]] table's vary entry as --vary takes it.
func varyText(name string, v any) (string, error) {
	switch v := v.(type) {
	case string:
		return name + "=" + v, nil
	case []any:
		var parts []string
		for _, x := range v {
			kv, err := settingString(name, x)
			if err != nil {
				return "", err
			}
			parts = append(parts, strings.TrimPrefix(kv, name+"="))
		}
		return name + "=" + strings.Join(parts, ","), nil
	}
	return "", fmt.Errorf("vary %s must be a string \"a..b[:step]\" or an array of values", name)
}

// validateSolves checks the plan's [[solve]] tables before anything runs.
func (p *Plan) validateSolves(file string, src []byte, names map[string]bool) error {
	for i := range p.Solves {
		ps := &p.Solves[i]
		fail := func(err error) error {
			return &PlanError{file, tableLine(src, "solve", i), fmt.Errorf("solve %d (%s): %w", i+1, ps.Name, err)}
		}
		if ps.Name == "" || strings.ContainsAny(ps.Name, "/\\ ") || names[ps.Name] {
			return fail(fmt.Errorf("needs a unique name without spaces or slashes"))
		}
		names[ps.Name] = true
		if _, err := ps.solve(p); err != nil {
			return fail(err)
		}
	}
	return nil
}

// solveFiles are the files a [[solve]] table writes.
func solveFiles(name string) []string {
	return []string{name + ".csv", name + "_frontier.csv", name + ".png"}
}

// solvePoints counts a [[solve]] table's units of work: its settings, or
// one for a search (whose settings depend on its results).
func (p *Plan) solvePoints(ps *PlanSolve) int {
	s, err := ps.solve(p)
	if err != nil {
		return 0
	}
	if s.Searched() {
		return 1
	}
	return int(s.gridSize())
}

// gridSize is the number of settings of a solve's grid (or scan).
func (s *Solve) gridSize() int64 {
	n := int64(1)
	for _, a := range s.axes {
		n *= a.N
	}
	return n
}

// solveRequests lists a [[solve]] table's points for shards: every
// setting of a grid or a short scan, or one search point that computes the
// whole search on one machine and carries its results (see Point.Search).
func (p *Plan) solveRequests(ps *PlanSolve) ([]Point, error) {
	s, err := ps.solve(p)
	if err != nil {
		return nil, err
	}
	return s.points()
}

// ShardPoints lists a validated solve's points for 'oddsmith solve
// --shard': every setting of a grid or a short scan, or one search point.
func (s *Solve) ShardPoints() ([]Point, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	pts, err := s.points()
	if err != nil {
		return nil, err
	}
	return unique(pts), nil
}

// points lists a validated solve's points, repeats included.
func (s *Solve) points() ([]Point, error) {
	if s.Searched() {
		return []Point{{Engine: s.Engine, Mechanic: s.Mechanic, Config: s.Base, Search: s}}, nil
	}
	var pts []Point
	for f := range s.gridSize() {
		c, err := s.config(s.unflat(f))
		if err != nil {
			return nil, err
		}
		pts = append(pts, Point{Engine: s.Engine, Mechanic: s.Mechanic, Config: c})
	}
	return pts, nil
}

// searchKey names a search point: what it computes, from the solve's
// definition.
func (s *Solve) searchKey() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d %d %s\n", s.Engine.Kind, s.Engine.Trials, s.Engine.Seed, s.Mechanic.Fingerprint(s.Base))
	fmt.Fprintf(&b, "vary %q\ntargets %q\nmin %q max %q tol %g scan %d\n", s.Vary, s.Targets, s.Minimize, s.Maximize, s.Tolerance, s.scanMax())
	if s.Engine.Kind != engine.Sim {
		return "search " + string(s.Engine.Kind) + " " + mechanics.Fingerprint(b.String())
	}
	return fmt.Sprintf("search %s trials=%d seed=%d %s", engine.Sim, s.Engine.Trials, s.Engine.Seed, mechanics.Fingerprint(b.String()))
}

// runSearch computes a search point: the whole search, keeping the result
// of every setting it evaluates for merge to replay.
func runSearch(ctx context.Context, p Point) (ShardPoint, error) {
	s := *p.Search
	s.Engine.Source = nil
	var mu sync.Mutex
	var sub []ShardPoint
	s.record = func(c mechanics.Config, r *engine.Result) {
		mu.Lock()
		defer mu.Unlock()
		sub = append(sub, ShardPoint{Key: Point{Engine: s.Engine, Mechanic: s.Mechanic, Config: c}.Key(), Result: r})
	}
	if _, err := s.Run(ctx, nil); err != nil {
		return ShardPoint{}, err
	}
	// The same bytes whatever the order the settings ran in.
	sort.Slice(sub, func(i, j int) bool { return sub[i].Key < sub[j].Key })
	return ShardPoint{Key: p.Key(), Search: sub}, nil
}

// runSolveTable runs a [[solve]] table and writes its files and its
// section of the index.
func runSolveTable(ctx context.Context, p *Plan, ps *PlanSolve, b *reports.Bundle, index *bytes.Buffer, progress Progress) error {
	s, err := ps.solve(p)
	if err != nil {
		return err
	}
	tick := func() {
		if progress != nil {
			progress.Add(1)
		}
	}
	searched := s.Searched()
	var each func()
	if !searched {
		each = tick
	}
	res, err := s.Run(ctx, each)
	if err != nil {
		return err
	}
	if searched {
		tick()
	}
	links := []string{ps.Name + ".csv"}
	if err := b.Write(ps.Name+".csv", res.WritePointsCSV); err != nil {
		return err
	}
	if len(s.axes) > 1 {
		if err := b.Write(ps.Name+"_frontier.csv", res.WriteCSV); err != nil {
			return err
		}
		links = append(links, ps.Name+"_frontier.csv")
	}
	if len(s.axes) <= 2 {
		sp, err := res.Plot()
		if err != nil {
			return err
		}
		if err := b.Write(ps.Name+".png", func(w io.Writer) error { return reports.WriteSolvePlot(w, sp) }); err != nil {
			return err
		}
		links = append(links, ps.Name+".png")
	}
	fmt.Fprintf(index, "## %s — solve `%s` (%s)\n\n", ps.Name, s.Mechanic.ID, s.Engine.Kind)
	res.writeMarkdown(index)
	fmt.Fprintf(index, "\n%s\n", reports.LinkList(links))
	return nil
}

// writeMarkdown writes the answer for an index: the header, each sentence
// a bullet, and a grid's frontier as a table (up to 60 rows; the CSV has
// it all).
func (r *SolveResult) writeMarkdown(w io.Writer) {
	lines := r.Answer()
	fmt.Fprintf(w, "%s\n\n", lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintf(w, "- %s\n", l)
	}
	if len(r.Solve.axes) < 2 {
		return
	}
	head, rows := r.frontierTable()
	if len(rows) > 60 {
		fmt.Fprintf(w, "\nThe frontier has %d rows: see the CSV.\n", len(rows))
		return
	}
	fmt.Fprintf(w, "\n| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, row := range rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
	}
}
