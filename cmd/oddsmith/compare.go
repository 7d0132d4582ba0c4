package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/study"
)

const compareUsage = "oddsmith compare A [-- B] [--engine exact|sim] [-n TRIALS] [-s SEED] [--workers W] [--format text|csv|json] [-o DIR|FILE.png|FILE.svg|FILE.pdf [--var NAME] [--plot KIND]]\n" +
	"  where A and B are each: ID | --expr EXPR | --rules FILE [ID], with [--set name=value]..."

const compareLong = `Runs two configurations with one engine and lines up every output they share: for each variable its mean, sd and
percentiles, for each event P, for each band each category's mass, each with A, B and Δ = B − A; for each shared
distribution the total variation distance (TVD), the Kolmogorov–Smirnov distance (KS), where the CDFs cross (the values
x where F_A(x) − F_B(x) takes the other sign) and which side is swingier (the larger sd). Outputs of one side only are
listed; an output whose name is shared but not its meaning (another unit, other band categories, another kind) is
refused with its reason. Nothing shared at all is bad input (exit 2).

A is what comes before --, B what comes after it:
  - an id (a built-in, or a rule of a --rules file), --expr EXPR (a one-liner), or --rules FILE alone (the file's
    one rule), with its own --set settings from the mechanic's defaults;
  - B with no id, --expr or --rules: A's mechanic at A's settings with B's --set on top (a change of setting);
  - without --, two ids take the same --set (a built-in against its restatement as a rule, say).
B sees A's --rules files unless it names its own. Every other flag (--engine, -n, -s, --workers, --memory, --format,
-o, --var, --cdf, -q, --percent) applies to both sides and may stand on either side, once.

With --engine sim both sides run with the same seed and trials; Δ carries a 95% interval (the two runs' intervals
combined as if independent) and rows whose interval covers 0 are marked not significant at the trials.
With -o DIR: DIR/<A>_vs_<B>.csv (the tidy CSV of --format csv), <…>.png (the shared variable's PMF on both sides, or
its CDF with --cdf; a band's categories when no variable is shared) and <…>_diff.png (B − A value by value).
-o FILE.png, .svg or .pdf writes just one chart, --plot KIND choosing which: pmf (the overlay, the default), cdf (= --cdf),
bands (a band's categories), diff (B − A), or atleast, survival, tail (both sides as two curves); in DIR, --plot atleast,
survival or tail adds <…>_KIND.png. --format png, svg or pdf draws the charts in that format (the table on stdout is text).

Examples:
  oddsmith compare ag.skill_test --set skill=3 -- --set tn=6
  oddsmith compare ag.skill_test my.ag.skill --rules examples/rules/ag_skill.toml --set skill=3
  oddsmith compare ag.skill_test --set skill=3 -- --rules examples/rules/ag_skill.toml house.ag.skill_exploding_six --set skill=3 -o out
  oddsmith compare --expr '2d6' -- --expr 'd12' --engine sim -n 100000
  oddsmith compare --expr '2d6' -- --expr 'd12' --plot cdf -o 2d6_vs_d12.svg`

// compareFlags are compare's flags that apply to both sides.
type compareFlags struct {
	kind, format, output, draw, memory, plot string
	trials                                   int64
	seed                                     uint64
	workers                                  int
	cdf, quiet, percent                      bool
	reading                                  readingFlags
}

// register adds the shared flags to a side's flag set, with the values
// they hold now as defaults (so that B's flag set does not reset what A's
// set).
func (g *compareFlags) register(fs *flagSet) {
	fs.StringVar(&g.kind, "engine", g.kind, "`engine` for both sides: exact or sim")
	fs.Int64VarP(&g.trials, "trials", "n", g.trials, "simulated `trials` per side (--engine sim)")
	fs.Uint64VarP(&g.seed, "seed", "s", g.seed, "random `seed`, the same for both sides (--engine sim)")
	fs.IntVar(&g.workers, "workers", g.workers, "parallel `workers` (--engine sim)")
	fs.StringVarP(&g.format, "format", "f", g.format, "output `format`: text, csv or json; png, svg or pdf: the charts of -o")
	fs.StringVarP(&g.output, "output", "o", g.output, "also write the CSV, the overlay PNG and the difference PNG to `DIR` (created if missing); FILE.png, .svg or .pdf writes that one chart")
	fs.StringVar(&g.plot, "plot", g.plot, "the chart of -o: `KIND` = "+strings.Join(compareChartKinds, ", ")+" (default: the overlay of the shared variable's pmf)")
	fs.StringVar(&g.draw, "var", g.draw, "the shared variable (or band) the PNGs draw, by `NAME` (default: the first shared variable)")
	fs.BoolVar(&g.cdf, "cdf", g.cdf, "draw CDFs P(X ≤ x) instead of PMFs")
	fs.BoolVarP(&g.quiet, "quiet", "q", g.quiet, "do not list the files written on stderr")
	fs.BoolVar(&g.percent, "percent", g.percent, "print the text's probabilities as percentages and their changes in percentage points (--format text only)")
	fs.StringVar(&g.memory, "memory", g.memory, "memory budget of one computation, e.g. `SIZE` = 512MiB, 4GiB")
	g.reading.register(fs)
}

var compareGlobal = []string{"engine", "trials", "seed", "workers", "format", "output", "var", "cdf", "quiet", "memory", "plot", "percent", "strict", "dialect"}

// compareChartKinds are what compare's chart draws: both sides' pmf or cdf
// (the overlay), a band's categories, B − A value by value (diff), or
// both sides' "at least", survival or tail curves.
var compareChartKinds = append(slices.Clone(reports.ChartKinds), "diff")

// compareSide is what a side's part of the command line says.
type compareSide struct {
	fs   *flagSet
	pos  []string
	sets *[]string
	expr *string
}

func newCompareSide(ctx context.Context, g *compareFlags, stdout io.Writer) *compareSide {
	fs := newFlags(findCommand("compare"), stdout)
	s := &compareSide{fs: fs}
	s.sets = fs.StringArray("set", nil, "a setting of this side: `name=value` (repeatable; B's without a mechanic go on top of A's)")
	s.expr = exprFlag(fs)
	g.register(fs)
	return s
}

// hasMechanic reports whether the side names its mechanic (an id, an
// expression or rule files).
func (s *compareSide) hasMechanic() bool {
	return len(s.pos) > 0 || *s.expr != "" || len(*s.fs.ruleFiles) > 0
}

// mechanic resolves the side's mechanic in reg (the built-ins with the
// rule files the side sees); ruleIDs are the rules its own files define.
func (s *compareSide) mechanic(ctx context.Context, name string, reg *mechanics.Registry) (*mechanics.Mechanic, error) {
	switch {
	case len(s.pos) > 1:
		return nil, badInput("%s: expected one mechanic id, got %d (%s)", name, len(s.pos), strings.Join(s.pos, " "))
	case *s.expr != "" && len(s.pos) > 0:
		return nil, badInput("%s: give a mechanic id or --expr, not both (got %q)", name, s.pos[0])
	case *s.expr != "":
		r, err := rules.FromExpr(*s.expr)
		if err != nil {
			return nil, err
		}
		return r.Mechanic(), nil
	case len(s.pos) == 1:
		return reg.Lookup(s.pos[0])
	case len(*s.fs.ruleFiles) > 0:
		var ids []string
		for _, m := range s.fs.reg.All() {
			if _, err := builtins(ctx).Lookup(m.ID); err != nil {
				ids = append(ids, m.ID)
			}
		}
		if len(ids) != 1 {
			return nil, badInput("%s: the rule files define %d mechanics (%s): name one", name, len(ids), strings.Join(ids, ", "))
		}
		return reg.Lookup(ids[0])
	}
	return nil, badInput("%s: missing mechanic: give an id, --expr or --rules FILE (run 'oddsmith list')", name)
}

func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	g := &compareFlags{kind: "exact", format: "text", memory: "1GiB", trials: 1_000_000, seed: 1, workers: runtime.GOMAXPROCS(0)}
	a := newCompareSide(ctx, g, stdout)
	if err := parse(ctx, a.fs, args); err != nil {
		return err
	}
	var b *compareSide
	a.pos = a.fs.Args()
	if dash := a.fs.ArgsLenAtDash(); dash >= 0 {
		a.pos = a.fs.Args()[:dash]
		b = newCompareSide(ctx, g, stdout)
		if err := parse(ctx, b.fs, a.fs.Args()[dash:]); err != nil {
			return err
		}
		b.pos = b.fs.Args()
		for _, name := range compareGlobal {
			if a.fs.Changed(name) && b.fs.Changed(name) {
				return badInput("--%s is given on both sides: it applies to both, give it once", name)
			}
		}
	}
	exprs := []string{*a.expr}
	if b != nil {
		exprs = append(exprs, *b.expr)
	}
	if err := checkReadings(ctx, stderr, &g.reading, exprs); err != nil {
		return err
	}
	*a.expr = exprs[0]
	if b != nil {
		*b.expr = exprs[1]
	}
	mem, err := parseMemory(g.memory)
	if err != nil {
		return err
	}
	picture := slices.Contains(reports.PictureFormats, g.format)
	if !slices.Contains(append([]string{"table"}, reports.CompareFormats...), g.format) && !picture {
		return badInput("unknown format %q (want %s, or %s for the charts of -o)", g.format, strings.Join(reports.CompareFormats, ", "), strings.Join(reports.PictureFormats, ", "))
	}
	dest, err := resolveDirOutput(g.output, g.format)
	if err != nil {
		return err
	}
	if err := checkChartKind(g.plot, compareChartKinds); err != nil {
		return err
	}
	switch {
	case g.plot != "" && g.output == "":
		return badInput("--plot chooses the chart of -o: give -o FILE.png (or -o DIR)")
	case g.cdf && g.plot != "" && g.plot != "cdf":
		return badInput("--cdf and --plot %s ask for two charts: give one of them", g.plot)
	case g.cdf:
		g.plot = "cdf"
	}
	textFormat := g.format
	if picture {
		textFormat = "text"
	}
	if g.percent && textFormat != "text" && textFormat != "table" {
		return badInput("--percent shapes the text; --format %s keeps probabilities in [0, 1] (leave out one of them)", textFormat)
	}
	if err := checkSimCounts(g.trials, g.workers); err != nil {
		return err
	}
	c, err := compareSides(ctx, a, b)
	if err != nil {
		return err
	}
	c.Engine = study.Engine{Kind: engine.Kind(g.kind), Trials: g.trials, Seed: g.seed, Workers: g.workers, MemoryBytes: mem}
	if err := c.Validate(); err != nil {
		return err
	}
	if err := c.CheckDraw(g.draw); err != nil {
		return err
	}
	rep, err := c.Run(ctx)
	if err != nil {
		return err
	}
	rep.Percent = g.percent
	var text bytes.Buffer
	if err := reports.WriteCompare(&text, rep, textFormat); err != nil {
		return err
	}
	if g.output != "" {
		files, err := writeCompareFiles(g, dest, rep)
		if err != nil {
			return err
		}
		if !g.quiet {
			fmt.Fprintf(stderr, "compare: wrote %s\n", strings.Join(files, ", "))
		}
	}
	_, err = stdout.Write(text.Bytes())
	return err
}

// compareSides resolves both sides' mechanics and settings.
func compareSides(ctx context.Context, a, b *compareSide) (*study.Compare, error) {
	if b == nil {
		// Without --: two ids, one set of settings.
		if *a.expr != "" || len(a.pos) != 2 {
			return nil, badInput("compare needs two configurations: A -- B, or two mechanic ids (run 'oddsmith compare --help')")
		}
		var sides [2]study.CompareSide
		for i, id := range a.pos {
			m, c, err := a.fs.reg.Configure(id, *a.sets)
			if err != nil {
				return nil, onSide("AB"[i:i+1], err)
			}
			sides[i] = study.CompareSide{Mechanic: m, Config: c}
		}
		return &study.Compare{A: sides[0], B: sides[1]}, nil
	}
	ma, err := a.mechanic(ctx, "A", a.fs.reg)
	if err != nil {
		return nil, err
	}
	ca, err := ma.Configure(*a.sets)
	if err != nil {
		return nil, onSide("A", err)
	}
	cmp := &study.Compare{A: study.CompareSide{Mechanic: ma, Config: ca}}
	if !b.hasMechanic() {
		// A change of settings: A's mechanic at A's settings, B's on top.
		cb := ca.Clone()
		for _, kv := range *b.sets {
			if err := ma.Set(cb, kv); err != nil {
				return nil, onSide("B", err)
			}
		}
		cmp.B = study.CompareSide{Mechanic: ma, Config: cb}
		return cmp, nil
	}
	reg := a.fs.reg // B sees A's rule files unless it names its own
	if len(*b.fs.ruleFiles) > 0 {
		reg = b.fs.reg
	}
	mb, err := b.mechanic(ctx, "B", reg)
	if err != nil {
		return nil, err
	}
	cb, err := mb.Configure(*b.sets)
	if err != nil {
		return nil, onSide("B", err)
	}
	cmp.B = study.CompareSide{Mechanic: mb, Config: cb}
	return cmp, nil
}

// compareChart is the chart --plot asks of a comparison: the overlay (pmf,
// cdf, bands), the difference, or both sides' results as two series.
func compareChart(g *compareFlags, rep *reports.CompareReport, kind string) (func(io.Writer) error, error) {
	plt := &reports.ComparePlot{CompareReport: rep, Output: g.draw, CDF: kind == "cdf"}
	switch kind {
	case "", "pmf", "cdf":
		return func(w io.Writer) error { return reports.WriteCompareOverlay(w, plt) }, nil
	case "diff":
		return func(w io.Writer) error { return reports.WriteCompareDiff(w, plt) }, nil
	case "bands":
		if plt.Output == "" {
			for _, d := range rep.Dists {
				if d.Kind == "band" {
					plt.Output = d.Name
					break
				}
			}
		}
		if k, _, err := plt.DrawTarget(); err != nil || k != "band" {
			return nil, badInput("--plot bands: the sides share no band to draw (--var names one)")
		}
		return func(w io.Writer) error { return reports.WriteCompareOverlay(w, plt) }, nil
	}
	c := &reports.ResultChart{Kind: kind, Output: g.draw, Series: []reports.ResultSeries{
		{Label: "A: " + cmp.Or(rep.LabelA, rep.A.Mechanic), Result: rep.A},
		{Label: "B: " + cmp.Or(rep.LabelB, rep.B.Mechanic), Result: rep.B}}}
	if err := c.Check(); err != nil {
		return nil, err
	}
	return func(w io.Writer) error { return reports.WriteResultChart(w, c) }, nil
}

// writeCompareFiles renders the files of -o in memory, then writes them
// all or none: the one chart of -o FILE.png|svg|pdf, or the CSV, the
// overlay and the difference charts in DIR (and the chart --plot asks
// for, when it is neither).
func writeCompareFiles(g *compareFlags, dest dirOutput, rep *reports.CompareReport) ([]string, error) {
	if dest.chart != "" {
		draw, err := compareChart(g, rep, g.plot)
		if err != nil {
			return nil, err
		}
		return []string{g.output}, writePicture(g.output, dest.chart, draw)
	}
	pic := dest.dirPicture
	var csvBuf bytes.Buffer
	if err := reports.WriteCompareCSV(&csvBuf, rep); err != nil {
		return nil, err
	}
	overlayKind, extra := g.plot, ""
	switch g.plot {
	case "atleast", "survival", "tail":
		overlayKind, extra = "", g.plot
	case "diff":
		overlayKind = ""
	}
	kinds := []string{overlayKind, "diff"}
	if extra != "" {
		kinds = append(kinds, extra)
	}
	stem := filepath.Join(g.output, reports.CompareStem(rep.A, rep.B))
	files := []string{stem + ".csv", stem + "." + pic, stem + "_diff." + pic}
	writes := []func(io.Writer) error{func(w io.Writer) error { _, err := w.Write(csvBuf.Bytes()); return err }}
	for _, k := range kinds {
		draw, err := compareChart(g, rep, k)
		if err != nil {
			return nil, err
		}
		wr, err := pictureBuffer(pic, draw)
		if err != nil {
			return nil, err
		}
		writes = append(writes, wr)
	}
	if extra != "" {
		files = append(files, stem+"_"+extra+"."+pic)
	}
	return files, reports.AtomicWriteDir(g.output, files, writes)
}

// onSide says which side an error is about ("B: tn=0 out of range").
func onSide(side string, err error) error { return fmt.Errorf("%s: %w", side, err) }
