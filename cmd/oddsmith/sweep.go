package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/sim"
)

func init() {
	commands = append(commands, &command{name: "sweep",
		usage: "oddsmith sweep ID --vary name=a..b[:step] [--vary name2=a..b[:step]] [--set name=value]... [--metric event:NAME|mean:VAR] [--engine exact|sim] -o DIR",
		short: "run a grid of parameter points → one CSV row per point and a line plot or heat map",
		long: "Runs the mechanic at every point of the grid (one or two varied parameters) with the exact engine (or the simulator) and " +
			"writes DIR/<id>_sweep.csv (one row per point: every event and every variable's mean and SD) and DIR/<id>_sweep.png: a line " +
			"plot of the metric for one varied parameter, a heat map with the values printed for two.\n\nExamples:\n" +
			"  oddsmith sweep ag.skill_test --vary skill=0..8 --vary tn=1..14 -o out\n" +
			"  oddsmith sweep grim.core.attack --vary attribute=-3..10 --set tn=14 --metric event:hit -o out\n" +
			"  oddsmith sweep ag.fall_damage --vary height=0..40:3 --metric mean:damage --engine sim -n 200000 -o out",
		run: runSweep})
}

func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(findCommand("sweep"), stdout)
	sets := fs.StringArray("set", nil, "fix a parameter or option: `name=value` (repeatable)")
	varies := fs.StringArray("vary", nil, "vary a parameter: `name=a..b[:step]` (once or twice)")
	metric := fs.String("metric", "", "what to plot: `event:NAME` or mean:VAR (default: the first event, else the first variable's mean)")
	engine := fs.String("engine", "exact", "`engine`: exact or sim")
	out := fs.StringP("output", "o", "", "output `DIR` (created if missing)")
	trials := fs.Int64P("trials", "n", 200_000, "simulated `trials` per point (--engine sim)")
	seed := fs.Uint64P("seed", "s", 1, "random `seed` (--engine sim)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "parallel `workers` (--engine sim)")
	if err := parse(fs, args); err != nil {
		return err
	}
	m, err := lookup(fs)
	if err != nil {
		return err
	}
	if *out == "" {
		return badInput("sweep needs an output directory (-o DIR)")
	}
	if len(*varies) == 0 || len(*varies) > 2 {
		return badInput("sweep needs one or two --vary name=a..b[:step], got %d", len(*varies))
	}
	if *engine != "exact" && *engine != "sim" {
		return badInput("unknown engine %q (want exact or sim)", *engine)
	}
	if *engine == "exact" && m.MCOnly {
		return badInput("%s has no exact model; use --engine sim", m.ID)
	}
	base, err := m.Configure(*sets)
	if err != nil {
		return usageError{err}
	}
	var names []string
	var axes [][]float64
	for _, v := range *varies {
		name, rng, ok := strings.Cut(v, "=")
		if !ok {
			return badInput("--vary %q is not name=a..b[:step]", v)
		}
		vals, err := reports.ParseRange(rng)
		if err != nil {
			return usageError{err}
		}
		names, axes = append(names, name), append(axes, vals)
	}
	// Every point is validated before anything runs or is written.
	grid := reports.Grid(axes)
	configs, err := reports.SweepConfigs(m, base, names, grid)
	if err != nil {
		return usageError{err}
	}
	var pts []reports.SweepPoint
	for i, c := range configs {
		if err := ctx.Err(); err != nil {
			return err
		}
		var r *mechanics.Result
		if *engine == "exact" {
			r, err = exact.Run(m, c)
		} else {
			r, err = sim.Run(ctx, m, c, sim.Options{Trials: *trials, Seed: *seed, Workers: *workers})
		}
		if err != nil {
			return buildError(fmt.Errorf("at %v: %w", grid[i], err))
		}
		pts = append(pts, reports.SweepPoint{Values: grid[i], Result: r})
	}
	met := reports.DefaultMetric(pts[0].Result, *metric)
	// The plot is rendered in memory first, so a bad metric writes nothing.
	var png bytes.Buffer
	if _, err := reports.WriteSweepPlot(&png, m.ID, met, names, axes, pts); err != nil {
		return usageError{err}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	stem := filepath.Join(*out, strings.ReplaceAll(m.ID, ".", "_")+"_sweep")
	if err := reports.AtomicWrite(stem+".csv", func(w io.Writer) error { return reports.WriteSweepCSV(w, names, pts) }); err != nil {
		return err
	}
	if err := reports.AtomicWrite(stem+".png", func(w io.Writer) error { _, err := w.Write(png.Bytes()); return err }); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s.csv\n%s.png\n", stem, stem)
	return nil
}
