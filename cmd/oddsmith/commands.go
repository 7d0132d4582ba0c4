package main

// commandTable lists every subcommand in the order --help shows them. It is
// the one place commands are registered: nothing depends on file order.
func commandTable() []*command {
	return []*command{
		{name: "list", usage: "oddsmith list", short: "list every mechanic with a one-line summary", run: runList,
			long: "Lists every registered mechanic id with its summary and the engines that can compute it.\n\nExample:\n  oddsmith list"},
		{name: "describe", usage: "oddsmith describe ID|--expr EXPR [--set name=value]... [--format text|markdown] | oddsmith describe --all --format markdown", short: "show a mechanic's parameters, ranges, defaults, options and outputs", run: runDescribe,
			long: "Documents one mechanic: its rule, parameters (default and allowed range), ambiguity options (default first) and outputs.\n\nExample:\n  oddsmith describe ag.skill_test"},
		{name: "exact", usage: "oddsmith exact ID [--set name=value]... [--format table|csv|json] [-o FILE]", short: "compute the exact distribution", run: runExact,
			long: "Computes the mechanic's distributions, events and bands exactly (convolution, order statistics, multiset DP, Markov chains).\n\nExamples:\n  oddsmith exact ag.skill_test --set skill=2 --set attribute=2 --set tn=5\n  oddsmith exact ag.opposed --set skill=3 --set opp_skill=2 --format json\n  oddsmith exact ag.skill_test --set skill=3 --set opt.tie=cost_accepted --format csv -o skill3.csv"},
		{name: "sim", usage: "oddsmith sim ID [--set name=value]... [-n TRIALS] [-s SEED] [--workers W] [--format table|csv|json] [-o FILE] [--shard i/K -o SHARD]", short: "estimate the distribution by parallel Monte Carlo simulation", run: runSim,
			long: "Simulates the mechanic with independent per-chunk random streams: the same seed and trial count give byte-identical output for any number of workers. Events carry Wilson 95% intervals.\n\nExamples:\n  oddsmith sim ag.skill_test --set skill=2 --set attribute=2 --set tn=5\n  oddsmith sim ag.opposed --set skill=3 --set opp_skill=2 -n 10000000 -s 7 --workers 2"},
		{name: "sweep",
			usage: "oddsmith sweep ID --vary name=a..b[:step]|name=v1,v2,… [--vary …] [--set name=value]... [--metric METRIC]... [--delta P] [--engine exact|sim] [--format text|csv|json] [-o DIR] [--shard i/K -o SHARD]",
			short: "run a grid of parameter or option points → a table of the metrics (or, with -o, a CSV and a line plot or heat map)",
			long: "Runs the mechanic at every point of the grid (one or two varied parameters or options: a range a..b[:step], or a list of " +
				"numbers or of an option's words) with the exact engine (or the simulator, whose values carry their 95% intervals) and prints " +
				"a table of the varied settings and the metrics (--format csv: the CSV -o writes; json). --metric takes event:NAME, " +
				"band:NAME:LABEL, mean:VAR, sd:VAR, p:VAR<=x (<, >=, >, =), quantile:VAR:q or a sum joined by +, and may be repeated " +
				"(default: the first event, else the first variable's mean). --delta P adds each metric's change per +1 of the varied " +
				"numeric parameter P: (metric at the next value of P − metric here) / step, a forward difference on the grid (none at the " +
				"last value). With -o DIR it writes DIR/<id>_sweep.csv (one row per point: the metrics asked for and their changes, every " +
				"event and every variable's mean and SD) and DIR/<id>_sweep.png: a line plot of the first metric for one varied parameter " +
				"(points over the words of an option), a heat map with the values printed (or --plot lines) for two; with --delta also " +
				"DIR/<id>_sweep_delta.png, the change drawn the same way.\n\nExamples:\n" +
				"  oddsmith sweep ag.skill_test --vary modifier=-3..3 --delta modifier --metric event:success\n" +
				"  oddsmith sweep ag.skill_test --vary opt.tie=band,success --vary tn=4,6,8 --format csv\n" +
				"  oddsmith sweep ag.fall_damage --vary height=0..40:4 --metric mean:damage --metric quantile:damage:0.9\n" +
				"  oddsmith sweep ag.skill_test --vary skill=0..8 --vary tn=1..14 -o out\n" +
				"  oddsmith sweep grim.core.attack --vary attribute=-3..10 --set tn=14 --metric event:hit -o out\n" +
				"  oddsmith sweep ag.fall_damage --vary height=0..40:3 --metric mean:damage --engine sim -n 200000 -o out",
			run: runSweep},
		{name: "solve", usage: solveUsage, short: solveShort, long: solveLong, run: runSolve},
		{name: "compare", usage: compareUsage,
			short: "two configurations side by side: every shared output with Δ = B − A, TVD, KS, where the CDFs cross, which is swingier",
			long:  compareLong, run: runCompare},
		{name: "run",
			usage: "oddsmith run PLAN.toml -o DIR [-q] [--shard i/K -o SHARD]",
			short: "run a batch plan → a report bundle (CSV, PNG and an index.md with findings)",
			long: "Reads a TOML plan of analyses (mechanic, fixed settings, swept parameters, engine, trials, seed, metric) and overlays " +
				"(several mechanics on one chart), validates all of it before anything runs (a malformed plan names the file, the line and " +
				"the problem and writes nothing), then writes one CSV and the plots per analysis and index.md linking them with one-line " +
				"findings. Files appear only when complete.\n\nExample:\n  oddsmith run examples/tour.toml -o report",
			run: runPlan},
		{name: "merge", usage: mergeUsage, short: mergeShort, long: mergeLong, run: runMerge},
		{name: "serve", usage: serveUsage,
			short: "the designer's workbench: a local web page where every mechanic and rule answers as you move a slider",
			long:  serveLong, run: runServe},
		{name: "atlas", usage: "oddsmith atlas -o DIR [-q] [--memory SIZE]",
			short: "the cross-system atlas: twelve comparison charts of the five systems → a report bundle",
			long: "Runs the atlas plan built into oddsmith — twelve comparisons of the five systems: success against " +
				"difficulty, what +1 is worth, crits and fumbles, opposed rolls and ties, falling, ailments and breath, fire, damage tails, " +
				"extended tasks, group help, duel length and a validation of the simulator — and writes a bundle: one PNG chart and the tidy " +
				"CSV behind it per comparison, and index.md with one-line findings. Every chart names its reference characters and options " +
				"in its caption. examples/atlas.toml is the same plan, to edit and run with 'oddsmith run'.\n\nExample:\n  oddsmith atlas -o atlas",
			run: runAtlas},
	}
}
