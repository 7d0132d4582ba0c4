package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/schollz/progressbar/v3"

	"github.com/oddsmith/oddsmith/reports"
)

func init() {
	commands = append(commands, &command{name: "run",
		usage: "oddsmith run PLAN.toml -o DIR [-q]",
		short: "run a batch plan → a report bundle (CSV, PNG and an index.md with findings)",
		long: "Reads a TOML plan of analyses (mechanic, fixed settings, swept parameters, engine, trials, seed, metric) and overlays " +
			"(several mechanics on one chart), validates all of it before anything runs (a malformed plan names the file, the line and " +
			"the problem and writes nothing), then writes one CSV and the plots per analysis and index.md linking them with one-line " +
			"findings. Files appear only when complete.\n\nExample:\n  oddsmith run examples/tour.toml -o report",
		run: runPlan})
}

func runPlan(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(findCommand("run"), stdout)
	out := fs.StringP("output", "o", "", "output `DIR` (created if missing)")
	quiet := fs.BoolP("quiet", "q", false, "no progress bar on stderr")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return badInput("run takes one plan file, got %d arguments", fs.NArg())
	}
	if *out == "" {
		return badInput("run needs an output directory (-o DIR)")
	}
	file := fs.Arg(0)
	src, err := os.ReadFile(file)
	if err != nil {
		return badInput("cannot read plan: %v", err)
	}
	plan, err := reports.ParsePlan(file, src)
	if err != nil {
		return usageError{err}
	}
	var bar *progressbar.ProgressBar
	var progress reports.Progress
	if !*quiet {
		bar = progressbar.NewOptions(plan.Points(), progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription("oddsmith run"),
			progressbar.OptionShowCount(), progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100e6))
		progress = bar
	}
	files, err := reports.RunPlan(ctx, plan, *out, progress)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return buildError(err)
	}
	for _, f := range files {
		fmt.Fprintln(stdout, f)
	}
	return nil
}
