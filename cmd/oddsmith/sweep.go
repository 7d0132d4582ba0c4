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

func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(findCommand("sweep"), stdout)
	sets := fs.StringArray("set", nil, "fix a parameter or option: `name=value` (repeatable)")
	varies := fs.StringArray("vary", nil, "vary a parameter: `name=a..b[:step]` (once or twice)")
	metric := fs.String("metric", "", "what to plot: `event:NAME` or mean:VAR (default: the first event, else the first variable's mean)")
	kind := fs.String("engine", "exact", "`engine`: exact or sim")
	out := fs.StringP("output", "o", "", "output `DIR` (created if missing)")
	trials := fs.Int64P("trials", "n", 200_000, "simulated `trials` per point (--engine sim)")
	seed := fs.Uint64P("seed", "s", 1, "random `seed` (--engine sim)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel `workers` (--engine sim)")
	quiet := fs.BoolP("quiet", "q", false, "no progress bar on stderr")
	plotKind := fs.String("plot", "heatmap", "how to draw two varied parameters: `heatmap` or lines (one line per value of the second)")
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
	if *workers < 1 {
		return badInput("--workers must be at least 1, got %d", *workers)
	}
	if !slices.Contains(reports.SweepPlotKinds, *plotKind) {
		return badInput("--plot %q is not one of %s", *plotKind, strings.Join(reports.SweepPlotKinds, ", "))
	}
	if *trials < 1 || *trials > study.MaxTrials {
		return badInput("--trials must be between 1 and %d, got %d", study.MaxTrials, *trials)
	}
	m, err := lookupOrExpr(fs, *exprSrc)
	if err != nil {
		return err
	}
	if *out == "" {
		return badInput("sweep needs an output directory (-o DIR)")
	}
	if len(*varies) == 0 || len(*varies) > 2 {
		return badInput("sweep needs one or two --vary name=a..b[:step], got %d", len(*varies))
	}
	base, err := m.Configure(*sets)
	if err != nil {
		return err
	}
	sw := &study.Sweep{Mechanic: m, Base: base, Metric: *metric,
		Engine: study.Engine{Kind: engine.Kind(*kind), Trials: *trials, Seed: *seed, Workers: *workers, MemoryBytes: mem, Source: pointSource(ctx)}}
	for _, v := range *varies {
		a, err := study.ParseAxis(v)
		if err != nil {
			return err
		}
		sw.Axes = append(sw.Axes, a)
	}
	// Every point is validated before anything runs or is written.
	if err := sw.Validate(); err != nil {
		return err
	}
	if *shard != "" {
		job := shardJob{fs: fs, spec: *shard, out: *out, quiet: *quiet, stderr: stderr}
		return job.sweepShard(ctx, sw)
	}
	bar := newProgress(stderr, *quiet, "sweep "+m.ID, "points", int64(sw.Points()))
	pts, err := sw.Run(ctx, func() { bar.Add(1) })
	bar.Finish(err == nil)
	if err != nil {
		return err
	}
	names, axes := sw.Names(), sw.Values()
	met := reports.DefaultMetric(pts[0].Result, *metric)
	// The plot is rendered in memory first, so a failure writes nothing.
	var png bytes.Buffer
	if _, err := reports.WriteSweepPlot(&png, &reports.SweepPlot{Mechanic: m.ID, Metric: met, Names: names, Axes: axes, Points: pts, Kind: *plotKind}); err != nil {
		return err
	}
	if st, err := os.Stat(*out); err == nil && !st.IsDir() {
		return badInput("%s exists and is not a directory", *out)
	}
	if err := os.MkdirAll(*out, 0o777); err != nil {
		return err
	}
	// Both files are written in full before either replaces anything.
	stem := filepath.Join(*out, strings.ReplaceAll(m.ID, ".", "_")+"_sweep")
	if err := reports.AtomicWriteAll([]string{stem + ".csv", stem + ".png"}, []func(io.Writer) error{
		func(w io.Writer) error { return reports.WriteSweepCSV(w, names, pts) },
		func(w io.Writer) error { _, err := w.Write(png.Bytes()); return err },
	}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s.csv\n%s.png\n", stem, stem)
	return nil
}
