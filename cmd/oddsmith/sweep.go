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
	varies := fs.StringArray("vary", nil, "vary a parameter or option: `name=a..b[:step]` or a list name=v1,v2,… (numbers or an option's words; once or twice)")
	metrics := fs.StringArray("metric", nil, "what to report: `METRIC` = event:NAME, band:NAME:LABEL, mean:VAR, sd:VAR, p:VAR<=x, quantile:VAR:q or a sum joined by + (repeatable; the plot draws the first; default: the first event, else the first variable's mean)")
	delta := fs.String("delta", "", "also report each metric's change per +1 of the varied numeric parameter `P` (a forward difference on the grid); -o draws it in <id>_sweep_delta.png")
	format := fs.StringP("format", "f", "text", "`format` of the table on stdout: text, csv or json (without -o)")
	kind := fs.String("engine", "exact", "`engine`: exact or sim")
	out := fs.StringP("output", "o", "", "write the CSV and the PNG(s) to `DIR` (created if missing) instead of the table on stdout")
	trials := fs.Int64P("trials", "n", 200_000, "simulated `trials` per point (--engine sim)")
	seed := fs.Uint64P("seed", "s", 1, "random `seed` (--engine sim)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel `workers` (--engine sim)")
	quiet := fs.BoolP("quiet", "q", false, "no progress bar on stderr")
	percent := fs.Bool("percent", false, "print the table's probabilities as percentages and their changes in percentage points (the text table only)")
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
	if !slices.Contains(reports.SweepFormats, *format) && *format != "table" {
		return badInput("unknown format %q (want %s)", *format, strings.Join(reports.SweepFormats, ", "))
	}
	if *percent && (*out != "" || *shard != "" || (*format != "text" && *format != "table")) {
		return badInput("--percent shapes the text table on stdout, not --format %s, -o or a shard (leave out one of them)", *format)
	}
	if *out != "" && *shard == "" && fs.Changed("format") {
		return badInput("--format shapes the table on stdout; -o %s writes a CSV and a PNG instead (leave out one of them)", *out)
	}
	if *trials < 1 || *trials > study.MaxTrials {
		return badInput("--trials must be between 1 and %d, got %d", study.MaxTrials, *trials)
	}
	m, err := lookupOrExpr(fs, *exprSrc)
	if err != nil {
		return err
	}
	if len(*varies) == 0 || len(*varies) > 2 {
		return badInput("sweep needs one or two --vary name=a..b[:step] (or name=v1,v2,…), got %d", len(*varies))
	}
	base, err := m.Configure(*sets)
	if err != nil {
		return err
	}
	sw := &study.Sweep{Mechanic: m, Base: base, Metrics: *metrics, Delta: strings.TrimSpace(*delta),
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
		return job.sweepShard(ctx, sw, *format)
	}
	bar := newProgress(stderr, *quiet, "sweep "+m.ID, "points", int64(sw.Points()))
	pts, err := sw.Run(ctx, func() { bar.Add(1) })
	bar.Finish(err == nil)
	if err != nil {
		return err
	}
	rep := sw.Report(pts, *plotKind)
	rep.Percent = *percent
	if *out == "" {
		// The table is rendered in full before any of it is written.
		var buf bytes.Buffer
		if err := reports.WriteSweep(&buf, rep, *format); err != nil {
			return err
		}
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	// The plots are rendered in memory first, so a failure writes nothing.
	var png, dpng bytes.Buffer
	if _, err := reports.WriteSweepPlot(&png, rep); err != nil {
		return err
	}
	if sw.Delta != "" {
		if _, err := reports.WriteSweepDeltaPlot(&dpng, rep); err != nil {
			return err
		}
	}
	if st, err := os.Stat(*out); err == nil && !st.IsDir() {
		return badInput("%s exists and is not a directory", *out)
	}
	if err := os.MkdirAll(*out, 0o777); err != nil {
		return err
	}
	// Every file is written in full before any replaces anything.
	stem := filepath.Join(*out, strings.ReplaceAll(m.ID, ".", "_")+"_sweep")
	files := []string{stem + ".csv", stem + ".png"}
	writers := []func(io.Writer) error{
		func(w io.Writer) error { return reports.WriteSweepCSV(w, rep) },
		func(w io.Writer) error { _, err := w.Write(png.Bytes()); return err },
	}
	if sw.Delta != "" {
		files = append(files, stem+"_delta.png")
		writers = append(writers, func(w io.Writer) error { _, err := w.Write(dpng.Bytes()); return err })
	}
	if err := reports.AtomicWriteAll(files, writers); err != nil {
		return err
	}
	for _, f := range files {
		fmt.Fprintln(stdout, f)
	}
	return nil
}
