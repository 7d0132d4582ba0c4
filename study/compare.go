package study

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
)

// CompareSide is one configuration of a comparison: a mechanic (built-in,
// rule or one-liner) at its settings.
type CompareSide struct {
	Mechanic *mechanics.Mechanic
	Config   mechanics.Config
}

// Compare runs two configurations with one engine and lines up what they
// share (engine.Compare). A simulation runs both sides with the same seed
// and trials: identical configurations give identical results, and the
// 95% interval of a change treats the two runs as independent, which
// overstates it where the two sides draw their dice alike.
type Compare struct {
	A, B   CompareSide
	Engine Engine

	shared []engine.OutputRef
}

// Validate checks both sides before anything runs: the engine can compute
// both models, and they share at least one output with the same meaning
// (bad input otherwise, with one line that says why).
func (c *Compare) Validate() error {
	var outs [2][]engine.Output
	for i, s := range []CompareSide{c.A, c.B} {
		if err := c.Engine.Validate(s.Mechanic); err != nil {
			return fmt.Errorf("%s: %w", "AB"[i:i+1], err)
		}
		spec, err := s.Mechanic.Model(s.Config)
		if err != nil {
			return err
		}
		outs[i] = engine.SpecOutputs(spec)
	}
	shared, _, _, refused := engine.Match(outs[0], outs[1])
	if len(shared) == 0 {
		why := "no output of one has the name of an output of the other"
		if len(refused) > 0 {
			var rs []string
			for _, r := range refused {
				rs = append(rs, r.OutputRef.String()+": "+r.Reason)
			}
			why = strings.Join(rs, "; ")
		}
		return mechanics.Invalid("nothing to compare: A (%s) and B (%s) share no output with the same meaning (%s)", c.A.Mechanic.ID, c.B.Mechanic.ID, why)
	}
	c.shared = shared
	return nil
}

// Shared lists the outputs both sides share (after Validate).
func (c *Compare) Shared() []engine.OutputRef { return c.shared }

// CheckDraw reports an output to draw that both sides do not share as a
// variable or a band (after Validate); "" is always fine.
func (c *Compare) CheckDraw(name string) error {
	if name == "" {
		return nil
	}
	var names []string
	for _, s := range c.shared {
		if s.Kind == "event" {
			continue
		}
		if s.Name == name {
			return nil
		}
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		return mechanics.Invalid("--var %s: the sides share no variable or band to draw", name)
	}
	return mechanics.Invalid("--var %s: not a variable or band both sides share (shared: %s)", name, strings.Join(names, ", "))
}

// Run computes both sides (A first) and lines them up.
func (c *Compare) Run(ctx context.Context) (*reports.CompareReport, error) {
	if c.shared == nil {
		if err := c.Validate(); err != nil {
			return nil, err
		}
	}
	var rs [2]*engine.Result
	for i, s := range []CompareSide{c.A, c.B} {
		r, err := c.Engine.Run(ctx, s.Mechanic, s.Config)
		if err != nil {
			return nil, err
		}
		rs[i] = r
	}
	cmp := engine.Compare(rs[0], rs[1])
	if cmp.Shared() == 0 {
		return nil, mechanics.Invalid("nothing to compare: A (%s) and B (%s) share no output with the same meaning", c.A.Mechanic.ID, c.B.Mechanic.ID)
	}
	la, lb := SideLabels(c.A, c.B)
	return &reports.CompareReport{Comparison: cmp, LabelA: la, LabelB: lb}, nil
}

// SideLabels name the two sides for legends: the mechanic and the
// settings that tell them apart, those that differ between the sides for
// one mechanic, those that differ from its defaults otherwise.
func SideLabels(a, b CompareSide) (string, string) {
	if a.Mechanic == b.Mechanic {
		return label(a, b), label(b, a)
	}
	return label(a, CompareSide{}), label(b, CompareSide{})
}

func label(s, other CompareSide) string {
	ref := other.Config
	if other.Mechanic == nil {
		ref = s.Mechanic.DefaultConfig()
	}
	head := s.Mechanic.ID
	if head == rules.ExprID {
		head = "'" + s.Mechanic.RuleSource + "'" // a one-liner is its expression
	}
	parts := []string{head}
	for _, p := range s.Mechanic.Params {
		if v := s.Config.Params[p.Name]; v != ref.Params[p.Name] {
			parts = append(parts, p.Name+"="+mechanics.FormatNum(v))
		}
	}
	for _, o := range s.Mechanic.Options {
		if v := s.Config.Options[o.Name]; v != ref.Options[o.Name] {
			parts = append(parts, shortOption(o.Name)+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// shortOption is an option's name as --set takes it: "opt.tie" for
// ag.core.opt.tie, "preset" for the named choice gm.ailment.chronic.preset.
func shortOption(name string) string {
	if i := strings.LastIndex(name, ".opt."); i >= 0 {
		return name[i+1:]
	}
	return name[strings.LastIndex(name, ".")+1:]
}

// PlanCompare is a [[compare]] table of a plan: two configurations, A and
// B, run with one engine; B without a mechanic is A's mechanic at A's
// settings with B's on top.
type PlanCompare struct {
	Name   string      `toml:"name"`
	Engine engine.Kind `toml:"engine"`
	Trials int64       `toml:"trials"`
	Seed   *int64      `toml:"seed"`
	// Var is the shared variable (or band) drawn; CDF draws its CDF.
	Var string   `toml:"var"`
	CDF bool     `toml:"cdf"`
	A   PlanSide `toml:"a"`
	B   PlanSide `toml:"b"`
}

// PlanSide is one side of a [[compare]] table.
type PlanSide struct {
	Mechanic string         `toml:"mechanic"`
	Set      map[string]any `toml:"set"`
}

// compare builds and validates a [[compare]] table.
func (pc *PlanCompare) compare(p *Plan) (*Compare, error) {
	if pc.Name == "" || strings.ContainsAny(pc.Name, "/\\ ") {
		return nil, errors.New("needs a name without spaces or slashes")
	}
	if pc.Engine == "" {
		pc.Engine = engine.Exact
	}
	if !pc.Engine.Valid() {
		return nil, fmt.Errorf("unknown engine %q (want exact or sim)", pc.Engine)
	}
	if pc.Seed != nil && *pc.Seed < 0 {
		return nil, fmt.Errorf("seed must be a whole number ≥ 0, got %d", *pc.Seed)
	}
	if pc.A.Mechanic == "" {
		return nil, errors.New("a.mechanic is missing: name the mechanic of side A")
	}
	ma, ca, err := p.configure(pc.A.Mechanic, pc.A.Set)
	if err != nil {
		return nil, fmt.Errorf("a: %w", err)
	}
	c := &Compare{A: CompareSide{ma, ca}, Engine: Engine{Kind: pc.Engine, Trials: pc.Trials, Seed: uint64(p.Seed), MemoryBytes: p.MemoryBytes, Source: p.Source}}
	if c.Engine.Trials == 0 {
		c.Engine.Trials = p.Trials
	}
	if pc.Seed != nil {
		c.Engine.Seed = uint64(*pc.Seed)
	}
	if pc.B.Mechanic == "" {
		cb := ca.Clone()
		for _, k := range sortedKeys(pc.B.Set) {
			kv, err := settingString(k, pc.B.Set[k])
			if err != nil {
				return nil, fmt.Errorf("b: %w", err)
			}
			if err := ma.Set(cb, kv); err != nil {
				return nil, fmt.Errorf("b: %w", err)
			}
		}
		c.B = CompareSide{ma, cb}
	} else {
		mb, cb, err := p.configure(pc.B.Mechanic, pc.B.Set)
		if err != nil {
			return nil, fmt.Errorf("b: %w", err)
		}
		c.B = CompareSide{mb, cb}
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if err := c.CheckDraw(pc.Var); err != nil {
		return nil, errors.New(strings.Replace(err.Error(), "--var", "var =", 1))
	}
	return c, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// validateCompare checks [[compare]] table i, whose name must be new to
// names (and is added to them).
func (p *Plan) validateCompare(i int, names map[string]bool) error {
	pc := &p.Compares[i]
	if names[pc.Name] {
		return errors.New("duplicate name")
	}
	if _, err := pc.compare(p); err != nil {
		return err
	}
	names[pc.Name] = true
	return nil
}

// comparePoints lists the computations of a [[compare]] table: A, then B.
func (p *Plan) comparePoints(pc *PlanCompare) ([]Point, error) {
	c, err := pc.compare(p)
	if err != nil {
		return nil, err
	}
	return []Point{{Engine: c.Engine, Mechanic: c.A.Mechanic, Config: c.A.Config}, {Engine: c.Engine, Mechanic: c.B.Mechanic, Config: c.B.Config}}, nil
}

// runCompare computes a [[compare]] table and writes NAME.csv (the tidy
// table of the comparison), NAME.png (both sides drawn over each other)
// and NAME_diff.png (B − A value by value), with its finding in the index.
func runCompare(ctx context.Context, p *Plan, pc *PlanCompare, b *reports.Bundle, index *bytes.Buffer, progress Progress) error {
	c, err := pc.compare(p)
	if err != nil {
		return err
	}
	rep, err := c.Run(ctx)
	if err != nil {
		return err
	}
	if progress != nil {
		progress.Add(2)
	}
	plt := &reports.ComparePlot{CompareReport: rep, Output: pc.Var, CDF: pc.CDF}
	if err := b.Write(pc.Name+".csv", func(w io.Writer) error { return reports.WriteCompareCSV(w, rep) }); err != nil {
		return err
	}
	if err := b.Write(pc.Name+".png", func(w io.Writer) error { return reports.WriteCompareOverlay(w, plt) }); err != nil {
		return err
	}
	if err := b.Write(pc.Name+"_diff.png", func(w io.Writer) error { return reports.WriteCompareDiff(w, plt) }); err != nil {
		return err
	}
	fmt.Fprintf(index, "## %s — compare (%s)\n\n- A: `%s` — fingerprint `%s`\n- B: `%s` — fingerprint `%s`\n\nFinding: %s.\n\n%s\n",
		pc.Name, pc.Engine, rep.LabelA, rep.A.Fingerprint, rep.LabelB, rep.B.Fingerprint, rep.Describe(),
		reports.LinkList([]string{pc.Name + ".csv", pc.Name + ".png", pc.Name + "_diff.png"}))
	return nil
}
