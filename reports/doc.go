// Package reports turns plain results into the files a designer reads:
// terminal tables, tidy CSV with a metadata header and JSON of one result
// ([Write]); PNG plots of a distribution, its tail, its bands and a
// process's survival, overlays of several series ([WriteLines]), heat maps
// ([WriteHeatmap]), sweeps ([WriteSweepPlot]) and charts of panels
// ([WriteChart]); one-line findings for an index; a mechanic's description;
// and report bundles ([Bundle]: a directory that appears whole or not at
// all, its index.md linking every file), each file written atomically.
//
// Every chart draws by one rule (see draw.go): markers where a value is
// known only at the points computed, steps for cumulative probabilities,
// 95% intervals on simulated values, Okabe–Ito colours per series, tails
// cut at [TailFloor]; [Degenerate] tells the charts a bundle leaves out.
// Each PNG carries what it draws, a [ChartSpec] ([ReadChartSpec]).
//
// # Where it sits
//
// Plain results in, files out. reports takes what the engines return
// ([engine.Result]) and plain numbers ([XY], [Series], [ChartPanel],
// [SweepPoint]); it imports no engine (neither exact nor sim) and never
// computes a probability. The plotting library (gonum/plot) stays inside
// it: no type of it appears in this package's API. Package study, which
// runs the engines, and the command line hand it their results.
package reports
