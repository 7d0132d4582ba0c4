package main

import (
	"context"
	"io"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/study"
)

// runAtlas writes the cross-system atlas (eleven comparisons of the five
// systems): the plan built into the binary (study.AtlasPlan, the same as
// examples/atlas.toml) run as `oddsmith run` would; with --validation,
// the validation report instead (study.ValidationPlan: the simulator
// against the exact engine, for oddsmith's developers).
func runAtlas(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(findCommand("atlas"), stdout)
	out := fs.StringP("output", "o", "", "output `DIR` (created if missing)")
	quiet := fs.BoolP("quiet", "q", false, "no progress bar on stderr")
	validation := fs.Bool("validation", false, "write the validation report instead: the simulator against the exact engine for every core roll (for oddsmith's developers)")
	memory := memoryFlag(fs)
	if err := parse(ctx, fs, args); err != nil {
		return err
	}
	mem, err := parseMemory(*memory)
	if err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return badInput("atlas takes no arguments, got %d (the plan is built in: examples/atlas.toml is a copy to edit and run with 'oddsmith run')", fs.NArg())
	}
	if *out == "" {
		return badInput("atlas needs an output directory (-o DIR)")
	}
	file, src, title := study.AtlasFile, study.AtlasPlan, "oddsmith atlas"
	if *validation {
		file, src, title = study.ValidationFile, study.ValidationPlan, "oddsmith validation"
	}
	plan, err := study.ParsePlan(fs.reg, file, src)
	if err != nil {
		return mechanics.AsInput(err)
	}
	plan.MemoryBytes = mem
	return bundle{title: title, dir: *out, quiet: *quiet, stdout: stdout, stderr: stderr}.write(ctx, plan)
}
