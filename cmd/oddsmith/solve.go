package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/study"
)

// solveUsage, solveShort and solveLong document solve (see commandTable).
const (
	solveUsage = "oddsmith solve ID|--expr E|--rules F ID --vary name=a..b[:step] [--vary name2=…] --target 'METRIC=v'|'METRIC>=v'|'lo<=METRIC<=hi'… " +
		"[--minimize|--maximize METRIC] [--set name=value]… [--tolerance T] [--engine exact|sim] [--format text|csv|json] [-o DIR]"
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
		"metric with the target and the settings that meet it marked; a heat map for two parameters).\n\n" +
		"A plan's [[solve]] tables take the same fields (mechanic, set, vary, order, target, minimize, maximize, tolerance, engine, " +
		"trials, seed); --shard i/K runs a slice of a grid (a search runs whole in one shard) for 'oddsmith merge'.\n\n" +
		"Examples:\n" +
		"  oddsmith solve ag.skill_test --set skill=3 --vary tn=1..14 --target event:success=0.6\n" +
		"  oddsmith solve gm.fall --vary height=0..400 --target 'event:damage_reaches_survival>=0.1'\n" +
		"  oddsmith solve --expr 'd20 + bonus >= tn' --set bonus=5 --vary tn=-1000000..1000000 --target event:success=0.5\n" +
		"  oddsmith solve ag.skill_test --vary skill=0..8 --vary tn=1..14 --target '0.55<=event:success<=0.65' --maximize event:crit -o out"
)

func runSolve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(findCommand("solve"), stdout)
	sets := fs.StringArray("set", nil, "fix a parameter or option: `name=value` (repeatable)")
	varies := fs.StringArray("vary", nil, "vary a parameter: `name=a..b[:step]`, or a list name=v1,v2,… (up to three times)")
	targets := fs.StringArray("target", nil, "a goal: `METRIC=v`, METRIC>=v, METRIC<=v, METRIC>v, METRIC<v or lo<=METRIC<=hi (repeatable; quote it)")
	minimize := fs.String("minimize", "", "among the settings that meet the targets, the one with the least `METRIC`")
	maximize := fs.String("maximize", "", "among the settings that meet the targets, the one with the greatest `METRIC`")
	tolerance := fs.Float64("tolerance", 0, "how closely a real parameter is searched: to within `T` (default: a thousandth of its range, rounded down to a power of ten)")
	kind := fs.String("engine", "exact", "`engine`: exact or sim")
	format := fs.StringP("format", "f", "text", "output `format`: text, csv or json")
	out := fs.StringP("output", "o", "", "also write the settings evaluated (CSV) and a chart (PNG) to `DIR` (created if missing)")
	trials := fs.Int64P("trials", "n", 200_000, "simulated `trials` per setting (--engine sim)")
	seed := fs.Uint64P("seed", "s", 1, "random `seed` (--engine sim)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel `workers` (--engine sim)")
	quiet := fs.BoolP("quiet", "q", false, "no progress bar on stderr")
	memory := memoryFlag(fs)
	exprSrc := exprFlag(fs)
	shard := shardFlag(fs)
	if err := parse(ctx, fs, args); err != nil {
		return err
	}
	mem, err := parseMemory(*memory)
	if err != nil {
		return err
	}
	if !slices.Contains(study.SolveFormats, *format) {
		return badInput("unknown format %q (want %s)", *format, strings.Join(study.SolveFormats, ", "))
	}
	if *workers < 1 {
		return badInput("--workers must be at least 1, got %d", *workers)
	}
	if *trials < 1 || *trials > study.MaxTrials {
		return badInput("--trials must be between 1 and %d, got %d", study.MaxTrials, *trials)
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
		Engine: study.Engine{Kind: engine.Kind(*kind), Trials: *trials, Seed: *seed, Workers: *workers, MemoryBytes: mem, Source: pointSource(ctx)}}
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
	if err := res.Write(&buf, *format); err != nil {
		return err
	}
	var files []string
	if *out != "" {
		if files, err = writeSolveFiles(*out, res); err != nil {
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
	sr, err := j.start(j.fs.Args(), false)
	if err != nil {
		return err
	}
	pts, err := s.ShardPoints()
	if err != nil {
		return err
	}
	h := &sr.header
	h.Kind, h.What, h.OutputFormat = "solve", s.Mechanic.ID, format
	if s.Engine.Kind == engine.Sim {
		h.Seed, h.Trials = s.Engine.Seed, s.Engine.Trials
	}
	return pointsShard(ctx, sr, pts)
}

// writeSolveFiles writes DIR/<id>_solve.csv and, for one or two varied
// parameters, DIR/<id>_solve.png, both in full before either replaces
// anything.
func writeSolveFiles(dir string, res *study.SolveResult) ([]string, error) {
	stem := filepath.Join(dir, strings.ReplaceAll(res.Solve.Mechanic.ID, ".", "_")+"_solve")
	paths := []string{stem + ".csv"}
	writes := []func(io.Writer) error{res.WritePointsCSV}
	if len(res.Solve.Axes()) <= 2 {
		sp, err := res.Plot()
		if err != nil {
			return nil, err
		}
		// Rendered in memory first, so a failure writes nothing.
		var png bytes.Buffer
		if err := reports.WriteSolvePlot(&png, sp); err != nil {
			return nil, err
		}
		paths = append(paths, stem+".png")
		writes = append(writes, func(w io.Writer) error { _, err := w.Write(png.Bytes()); return err })
	}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return nil, badInput("%s exists and is not a directory", dir)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	return paths, reports.AtomicWriteAll(paths, writes)
}
