package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/study"
)

// solveUsage, solveShort and solveLong document solve (see commandTable).
const (
	solveUsage = "oddsmith solve ID|--expr E|--rules F ID --vary name=a..b[:step] [--vary name2=…] --target 'METRIC=v'|'METRIC>=v'|'lo<=METRIC<=hi'… " +
		"[--minimize|--maximize METRIC] [--set name=value]… [--tolerance T] [--engine exact|sim] [--format text|csv|json] [-o DIR|FILE.png|FILE.svg|FILE.pdf [--plot KIND]]"
	solveShort = "find the setting that hits a target: the TN for a 60% chance, the height that kills one time in ten"
	solveLong  = "Finds the settings of the varied parameters at which metrics (as in sweep: event:NAME, band:NAME:LABEL, mean:VAR, sd:VAR, " +
		"p:VAR<=x, quantile:VAR:q, sums joined by +) meet targets, and says so in words: the setting nearest to a value " +
		"(METRIC=v) with the two settings that bracket it; the settings where an inequality holds (METRIC>=v, METRIC<=v, METRIC>v, " +
		"METRIC<v, or a range lo<=METRIC<=hi), as ranges with their edges; with --minimize/--maximize, the best of those. Quote the " +
		"targets: the shell reads < and >.\n\n" +
		"One varied parameter is searched: a metric monotone at every setting evaluated (checked, not assumed) is bisected, so a " +
		"range of a million settings takes about twenty evaluations; one that is not is scanned setting by setting (up to 10000 " +
		"settings), and ranges of up to 32 settings are always scanned. A real parameter (gm.fall height) varied over a..b without " +
		"a step is searched to --tolerance (default: the power of ten at or below a thousandth of the range); give a step to search " +
		"only those settings (the names of a one-line --expr are searched as whole numbers unless --tolerance is given). Several " +
		"parameters (up to three; a list name=v1,v2,… or words for an option) are evaluated at every setting of their grid: the " +
		"answer lists every setting that meets the targets and the frontier, per setting of the others, along the last.\n\n" +
		"A target no setting reaches is an answer, not an error: the closest setting and its value are given. With --engine sim " +
		"every value carries its 95% interval, and the settings whose interval covers the target are 'indistinguishable from the " +
		"target' at that many trials. -o DIR also writes DIR/<id>_solve.csv (every setting evaluated) and DIR/<id>_solve.png (the " +
		"metric with the target and the settings that meet it marked; a heat map for two parameters); -o FILE.png, .svg or .pdf " +
		"writes just that chart, and --format png, svg or pdf draws DIR's chart in that format. With --plot pmf, cdf, atleast, " +
		"survival, bands or tail, -o FILE.png draws the distribution at the setting the answer names instead, and -o DIR adds it " +
		"as <id>_solve_KIND.png.\n\n" +
		"A plan's [[solve]] tables take the same fields (mechanic, set, vary, order, target, minimize, maximize, tolerance, engine, " +
		"trials, seed); --shard i/K runs a slice of a grid (a search runs whole in one shard) for 'oddsmith merge'.\n\n" +
		"Examples:\n" +
		"  oddsmith solve ag.skill_test --set skill=3 --vary tn=1..14 --target event:success=0.6\n" +
		"  oddsmith solve gm.fall --vary height=0..400 --target 'event:damage_reaches_survival>=0.1'\n" +
		"  oddsmith solve --expr 'd20 + bonus >= tn' --set bonus=5 --vary tn=-1000000..1000000 --target event:success=0.5\n" +
		"  oddsmith solve ag.skill_test --vary skill=0..8 --vary tn=1..14 --target '0.55<=event:success<=0.65' --maximize event:crit -o out\n" +
		"  oddsmith solve ag.skill_test --set skill=3 --vary tn=1..14 --target event:success=0.6 --plot bands -o tn.svg"
)

func runSolve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(findCommand("solve"), stdout)
	sets := fs.StringArray("set", nil, "fix a parameter or option: `name=value` (repeatable)")
	varies := fs.StringArray("vary", nil, "vary a parameter: `name=a..b[:step]`, or a list name=v1,v2,… (up to three times)")
	targets := fs.StringArray("target", nil, "a goal: `METRIC=v`, METRIC>=v, METRIC<=v, METRIC>v, METRIC<v or lo<=METRIC<=hi (repeatable; quote it)")
	minimize := fs.String("minimize", "", "among the settings that meet the targets, the one with the least `METRIC`")
	maximize := fs.String("maximize", "", "among the settings that meet the targets, the one with the greatest `METRIC`")
	tolerance := fs.Float64("tolerance", 0, "how closely a real parameter is searched: to within `T` (default: a thousandth of its range, rounded down to a power of ten)")
	ef := addEngineFlags(fs, "setting")
	format := fs.StringP("format", "f", "text", "output `format`: text, csv or json; png, svg or pdf: the chart of -o")
	out := fs.StringP("output", "o", "", "also write the settings evaluated (CSV) and a chart (PNG) to `DIR` (created if missing); FILE.png, .svg or .pdf writes that one chart")
	plotKind := fs.String("plot", "", "the chart of -o: `KIND` = solve (the metric over the settings, the default) or "+strings.Join(reports.ChartKinds, ", ")+
		" (the distribution at the setting the answer names)")
	quiet := fs.BoolP("quiet", "q", false, "no progress bar on stderr")
	memory := memoryFlag(fs)
	exprSrc := exprFlag(fs)
	strict := strictFlag(fs)
	shard := shardFlag(fs)
	if err := parse(ctx, fs, args); err != nil {
		return err
	}
	if err := checkReading(ctx, stderr, strict, exprSrc); err != nil {
		return err
	}
	mem, err := parseMemory(*memory)
	if err != nil {
		return err
	}
	picture := slices.Contains(reports.PictureFormats, *format)
	if !slices.Contains(study.SolveFormats, *format) && !picture {
		return badInput("unknown format %q (want %s, or %s for the chart of -o)", *format, strings.Join(study.SolveFormats, ", "), strings.Join(reports.PictureFormats, ", "))
	}
	if err := checkChartKind(*plotKind, append([]string{"solve"}, reports.ChartKinds...)); err != nil {
		return err
	}
	var dest dirOutput
	if *shard != "" {
		if picture || *plotKind != "" {
			return badInput("a shard writes results for 'oddsmith merge', not a chart: give -o DIR or FILE.png to merge")
		}
	} else {
		if dest, err = resolveDirOutput(*out, *format); err != nil {
			return err
		}
		if *plotKind != "" && *out == "" {
			return badInput("--plot chooses the chart of -o: give -o FILE.png (or -o DIR)")
		}
	}
	textFormat := *format
	if picture {
		textFormat = "text"
	}
	if err := ef.check(); err != nil {
		return err
	}
	if fs.Changed("tolerance") && !(*tolerance > 0) {
		return badInput("--tolerance must be a positive number, got %g", *tolerance)
	}
	m, err := lookupOrExpr(fs, *exprSrc)
	if err != nil {
		return err
	}
	if len(*varies) == 0 {
		return badInput("solve needs --vary name=a..b (the parameter to solve for)")
	}
	base, err := m.Configure(*sets)
	if err != nil {
		return err
	}
	s := &study.Solve{Mechanic: m, Base: base, Vary: *varies, Targets: *targets, Minimize: *minimize, Maximize: *maximize, Tolerance: *tolerance,
		Engine: ef.engine(ctx, mem)}
	// Everything is checked before anything runs or is written.
	if err := s.Validate(); err != nil {
		return err
	}
	if *shard != "" {
		job := shardJob{fs: fs, spec: *shard, out: *out, quiet: *quiet, stderr: stderr}
		return job.solveShard(ctx, s, *format)
	}
	var total int64
	if !s.Searched() {
		total = 1
		for _, a := range s.Axes() {
			total *= a.N
		}
	}
	bar := newProgress(stderr, *quiet, "solve "+m.ID, "settings", total)
	res, err := s.Run(ctx, func() { bar.Add(1) })
	bar.Finish(err == nil)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := res.Write(&buf, textFormat); err != nil {
		return err
	}
	var files []string
	if *out != "" {
		var focus func(io.Writer) error
		if *plotKind != "" && *plotKind != "solve" {
			if focus, err = solveFocusChart(ctx, res, *plotKind, exprLabel(m, *exprSrc)); err != nil {
				return err
			}
		}
		if files, err = writeSolveFiles(*out, dest, res, focus, *plotKind); err != nil {
			return err
		}
	}
	if _, err := stdout.Write(buf.Bytes()); err != nil {
		return err
	}
	if len(files) > 0 && !*quiet {
		fmt.Fprintf(stderr, "solve: wrote %s\n", strings.Join(files, ", "))
	}
	return nil
}

// solveShard runs one shard of 'oddsmith solve': a slice of a grid's
// settings, or the whole search (one point) in the first shard.
func (j shardJob) solveShard(ctx context.Context, s *study.Solve, format string) error {
	return j.searchShard(ctx, "solve", s.Mechanic.ID, s.Engine, format, s.ShardPoints)
}

// solveFocusChart is the chart of the distribution at the setting the
// answer names, computed with the solve's engine.
func solveFocusChart(ctx context.Context, res *study.SolveResult, kind, label string) (func(io.Writer) error, error) {
	c, setting, ok, err := res.Focus()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, badInput("--plot %s draws the distribution at the setting the answer names, and this answer names none", kind)
	}
	s := res.Solve
	r, err := s.Engine.Run(ctx, s.Mechanic, c)
	if err != nil {
		return nil, err
	}
	chart := &reports.ResultChart{Kind: kind, Title: label + " at " + setting, Series: []reports.ResultSeries{{Label: setting, Result: r}}}
	if err := chart.Check(); err != nil {
		return nil, err
	}
	return func(w io.Writer) error { return reports.WriteResultChart(w, chart) }, nil
}

// writeSolveFiles writes -o: the one chart of FILE.png|svg|pdf (the solve
// chart, or focus, the distribution at the answer's setting, when --plot
// asks for it); or DIR/<id>_solve.csv and, for one or two varied
// parameters, DIR/<id>_solve.png (and DIR/<id>_solve_<kind>.png for
// focus), all in full before any replaces anything.
func writeSolveFiles(out string, dest dirOutput, res *study.SolveResult, focus func(io.Writer) error, kind string) ([]string, error) {
	solveChart := func() (func(io.Writer) error, error) {
		if len(res.Solve.Axes()) > 2 {
			return nil, nil
		}
		sp, err := res.Plot()
		if err != nil {
			return nil, err
		}
		return func(w io.Writer) error { return reports.WriteSolvePlot(w, sp) }, nil
	}
	if dest.chart != "" {
		draw := focus
		if draw == nil {
			var err error
			if draw, err = solveChart(); err != nil {
				return nil, err
			}
			if draw == nil {
				return nil, badInput("a solve over %d parameters has no chart (at most two); give -o DIR for its CSV", len(res.Solve.Axes()))
			}
		}
		return []string{out}, writePicture(out, dest.chart, draw)
	}
	pic := dest.dirPicture
	stem := filepath.Join(out, strings.ReplaceAll(res.Solve.Mechanic.ID, ".", "_")+"_solve")
	paths := []string{stem + ".csv"}
	writes := []func(io.Writer) error{res.WritePointsCSV}
	draw, err := solveChart()
	if err != nil {
		return nil, err
	}
	if draw != nil {
		// Rendered in memory first, so a failure writes nothing.
		wr, err := pictureBuffer(pic, draw)
		if err != nil {
			return nil, err
		}
		paths = append(paths, stem+"."+pic)
		writes = append(writes, wr)
	}
	if focus != nil {
		wr, err := pictureBuffer(pic, focus)
		if err != nil {
			return nil, err
		}
		paths = append(paths, stem+"_"+kind+"."+pic)
		writes = append(writes, wr)
	}
	return paths, reports.AtomicWriteDir(out, paths, writes)
}
