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
		return planShard(ctx, fs, plan, file, *shard, *out, *quiet, stderr)
	}
	plan.Source = pointSource(ctx)
	return writePlan(ctx, plan, "oddsmith run", *out, *quiet, stdout, stderr)
}

// writePlan runs a plan into the bundle dir with a progress bar (unless
// quiet) and lists the files written.
func writePlan(ctx context.Context, plan *study.Plan, title, dir string, quiet bool, stdout, stderr io.Writer) error {
	bar := newProgress(stderr, quiet, title, "", int64(plan.Points()))
	var prog study.Progress
	if bar != nil {
		prog = bar
	}
	files, err := study.RunPlan(ctx, plan, dir, prog)
	bar.Finish(err == nil)
	if err != nil {
		return err
	}
	for _, f := range files {
		fmt.Fprintln(stdout, f)
	}
	return nil
}
