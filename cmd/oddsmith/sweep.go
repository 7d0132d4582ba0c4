package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/study"
)

func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(findCommand("sweep"), stdout)
	sets := fs.StringArray("set", nil, "fix a parameter or option: `name=value` (repeatable)")
	varies := fs.StringArray("vary", nil, "vary a parameter or option: `name=a..b[:step]` or a list name=v1,v2,… (numbers or an option's words; once or twice)")
	metrics := fs.StringArray("metric", nil, "what to report: `METRIC` = event:NAME, band:NAME:LABEL, mean:VAR, sd:VAR, p:VAR<=x, quantile:VAR:q or a sum joined by + (repeatable; the plot draws the first; default: the first event, else the first variable's mean)")
	delta := fs.String("delta", "", "also report each metric's change per +1 of the varied numeric parameter `P` (a forward difference on the grid); -o draws it in <id>_sweep_delta.png")
	format := fs.StringP("format", "f", "text", "`format` of the table on stdout: text, csv or json (without -o); png, svg or pdf: the charts of -o")
	ef := addEngineFlags(fs, "point")
	out := fs.StringP("output", "o", "", "write the CSV and the PNG(s) to `DIR` (created if missing) instead of the table on stdout; FILE.png, .svg or .pdf writes that one chart")
	quiet := fs.BoolP("quiet", "q", false, "no progress bar on stderr")
	percent := fs.Bool("percent", false, "print the table's probabilities as percentages and their changes in percentage points (the text table only)")
	plotKind := fs.String("plot", "heatmap", "how to draw two varied parameters: `heatmap` or lines (one line per value of the second); or every point's "+
		strings.Join(reports.ChartKinds, ", ")+" on one chart (at most 12 points)")
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
	if err := ef.check(); err != nil {
		return err
	}
	family := slices.Contains(reports.ChartKinds, *plotKind)
	if !slices.Contains(reports.SweepPlotKinds, *plotKind) && !family {
		return badInput("--plot %q is not one of %s", *plotKind, strings.Join(append(slices.Clone(reports.SweepPlotKinds), reports.ChartKinds...), ", "))
	}
	picture := slices.Contains(reports.PictureFormats, *format)
	if !slices.Contains(reports.SweepFormats, *format) && *format != "table" && !picture {
		return badInput("unknown format %q (want %s, or %s for the charts of -o)", *format, strings.Join(reports.SweepFormats, ", "), strings.Join(reports.PictureFormats, ", "))
	}
	if *percent && (*out != "" || *shard != "" || (*format != "text" && *format != "table")) {
		return badInput("--percent shapes the text table on stdout, not --format %s, -o or a shard (leave out one of them)", *format)
	}
	var dest dirOutput
	if *shard != "" {
		if picture || family {
			return badInput("a shard writes results for 'oddsmith merge', not a chart: give --format and --plot to merge's sweep (-o DIR or FILE.png)")
		}
	} else {
		if *out != "" && fs.Changed("format") && !picture {
			return badInput("--format shapes the table on stdout; -o %s writes a CSV and a PNG instead (leave out one of them)", *out)
		}
		if dest, err = resolveDirOutput(*out, *format); err != nil {
			return err
		}
		if family && *out == "" {
			return badInput("--plot %s draws a chart: give -o FILE.png (or -o DIR)", *plotKind)
		}
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
	sw := &study.Sweep{Mechanic: m, Base: base, Metrics: *metrics, Delta: strings.TrimSpace(*delta), KeepAll: family,
		Engine: ef.engine(ctx, mem)}
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
	if family && sw.Points() > reports.ChartSeriesMax {
		return badInput("--plot %s draws one series per point, at most %d; this sweep has %d points", *plotKind, reports.ChartSeriesMax, sw.Points())
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
	draw := *plotKind
	if family {
		draw = "heatmap"
	}
	rep := sw.Report(pts, draw)
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
	var chart func(io.Writer) error
	if family {
		label := exprLabel(m, *exprSrc)
		chart = func(w io.Writer) error { return reports.WriteResultChart(w, sweepChart(*plotKind, label, rep)) }
	}
	if dest.chart != "" {
		// Just the chart asked for: every point's distribution, or the
		// first metric's plot.
		if chart == nil {
			chart = func(w io.Writer) error { _, err := reports.WriteSweepPlot(w, rep); return err }
		}
		if err := writePicture(*out, dest.chart, chart); err != nil {
			return err
		}
		fmt.Fprintln(stdout, *out)
		return nil
	}
	// The plots are rendered in memory first, so a failure writes nothing.
	pic := dest.dirPicture
	plotW, err := pictureBuffer(pic, func(w io.Writer) error { _, err := reports.WriteSweepPlot(w, rep); return err })
	if err != nil {
		return err
	}
	var deltaW, chartW func(io.Writer) error
	if sw.Delta != "" {
		if deltaW, err = pictureBuffer(pic, func(w io.Writer) error { _, err := reports.WriteSweepDeltaPlot(w, rep); return err }); err != nil {
			return err
		}
	}
	if chart != nil {
		if chartW, err = pictureBuffer(pic, chart); err != nil {
			return err
		}
	}
	// Every file is written in full before any replaces anything.
	stem := filepath.Join(*out, strings.ReplaceAll(m.ID, ".", "_")+"_sweep")
	files := []string{stem + ".csv", stem + "." + pic}
	writers := []func(io.Writer) error{
		func(w io.Writer) error { return reports.WriteSweepCSV(w, rep) },
		plotW,
	}
	if deltaW != nil {
		files = append(files, stem+"_delta."+pic)
		writers = append(writers, deltaW)
	}
	if chartW != nil {
		files = append(files, stem+"_"+*plotKind+"."+pic)
		writers = append(writers, chartW)
	}
	if err := reports.AtomicWriteDir(*out, files, writers); err != nil {
		return err
	}
	for _, f := range files {
		fmt.Fprintln(stdout, f)
	}
	return nil
}

// exprLabel is what a mechanic's series go by: the rule's text of a
// one-liner, else its id.
func exprLabel(m *mechanics.Mechanic, expr string) string {
	if e := strings.TrimSpace(expr); e != "" {
		return e
	}
	return m.ID
}

// sweepChart is the chart of every point of a short sweep: a series per
// point, labelled by its settings ("tn=5", "skill=2, tn=5").
func sweepChart(kind, label string, rep *reports.Sweep) *reports.ResultChart {
	c := &reports.ResultChart{Kind: kind}
	for _, p := range rep.Points {
		var set []string
		for i, a := range rep.Axes {
			set = append(set, a.Name+"="+a.Text(p.Values[i]))
		}
		c.Series = append(c.Series, reports.ResultSeries{Label: strings.Join(set, ", "), Result: p.Result})
	}
	c.Title = label
	if len(rep.Points) > 0 {
		c.Caption = reports.FixedCaption(rep.Points[0].Result, rep.Names())
	}
	return c
}
