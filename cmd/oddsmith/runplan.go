package main

import (
	"context"
	"fmt"
	"io"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/study"
)

func runPlan(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(findCommand("run"), stdout)
	out := fs.StringP("output", "o", "", "output `DIR` (created if missing)")
	quiet := fs.BoolP("quiet", "q", false, "no progress bar on stderr")
	memory := memoryFlag(fs)
	shard := shardFlag(fs)
	if err := parse(ctx, fs, args); err != nil {
		return err
	}
	mem, err := parseMemory(*memory)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return badInput("run takes one plan file, got %d arguments", fs.NArg())
	}
	if *out == "" {
		return badInput("run needs an output directory (-o DIR)")
	}
	file := fs.Arg(0)
	src, err := readPlan(file)
	if err != nil {
		return err
	}
	plan, err := study.ParsePlan(fs.reg, file, src)
	if err != nil {
		return mechanics.AsInput(err)
	}
	plan.MemoryBytes = mem
	if *shard != "" {
		job := shardJob{fs: fs, spec: *shard, out: *out, quiet: *quiet, stderr: stderr}
		return job.planShard(ctx, plan, file)
	}
	plan.Source = pointSource(ctx)
	return bundle{title: "oddsmith run", dir: *out, quiet: *quiet, stdout: stdout, stderr: stderr}.write(ctx, plan)
}

// bundle is where a plan's report bundle goes and how its progress shows:
// what 'oddsmith run' and 'oddsmith atlas' share.
type bundle struct {
	title          string // of the progress bar
	dir            string // -o
	quiet          bool
	stdout, stderr io.Writer
}

// write runs a plan into the bundle directory with a progress bar (unless
// quiet) and lists the files written.
func (b bundle) write(ctx context.Context, plan *study.Plan) error {
	bar := newProgress(b.stderr, b.quiet, b.title, "", int64(plan.Points()))
	var prog study.Progress
	if bar != nil {
		prog = bar
	}
	files, err := study.RunPlan(ctx, plan, b.dir, prog)
	bar.Finish(err == nil)
	if err != nil {
		return err
	}
	for _, r := range plan.Readings {
		warn(ctx, b.stderr, "oddsmith: warning: "+r)
	}
	for _, f := range files {
		fmt.Fprintln(b.stdout, f)
	}
	return nil
}
