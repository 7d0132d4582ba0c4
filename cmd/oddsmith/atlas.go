package main

import (
	"context"
	"io"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/study"
)

// runAtlas writes the cross-system atlas (twelve comparisons of the five
// systems): the plan built
// into the binary (study.AtlasPlan, the same as examples/atlas.toml) run as
// `oddsmith run` would.
func runAtlas(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(findCommand("atlas"), stdout)
	out := fs.StringP("output", "o", "", "output `DIR` (created if missing)")
	quiet := fs.BoolP("quiet", "q", false, "no progress bar on stderr")
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
	plan, err := study.ParsePlan(fs.reg, study.AtlasFile, study.AtlasPlan)
	if err != nil {
		return mechanics.AsInput(err)
	}
	plan.MemoryBytes = mem
	return bundle{title: "oddsmith atlas", dir: *out, quiet: *quiet, stdout: stdout, stderr: stderr}.write(ctx, plan)
}
