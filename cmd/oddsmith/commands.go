package main

// commandTable lists every subcommand in the order --help shows them. It is
// the one place commands are registered: nothing depends on file order.
func commandTable() []*command {
	return []*command{
		{name: "list", usage: "oddsmith list", short: "list every mechanic with a one-line summary", run: runList,
			long: "Lists every registered mechanic id with its summary and the engines that can compute it.\n\nExample:\n  oddsmith list"},
		{name: "describe", usage: "oddsmith describe ID|--expr EXPR [--set name=value]... [--format text|markdown] | oddsmith describe --all --format markdown", short: "show a mechanic's parameters, ranges, defaults, options and outputs", run: runDescribe,
			long: "Documents one mechanic: its rule, parameters (default and allowed range), ambiguity options (default first) and outputs.\n\nExample:\n  oddsmith describe ag.skill_test"},
		{name: "exact", usage: "oddsmith exact ID|--expr EXPR [ID|--expr EXPR]... [--set name=value]... [--format table|csv|json] [-o FILE|FILE.png|FILE.svg|FILE.pdf [--plot KIND] [--var NAME]]", short: "compute the exact distribution (a table, or a chart with -o FILE.png|svg|pdf)", run: runExact,
			long: "Computes the mechanic's distributions, events and bands exactly (convolution, order statistics, multiset DP, Markov chains).\n\n" + chartHelp +
				"\n\nExamples:\n  oddsmith exact ag.skill_test --set skill=2 --set attribute=2 --set tn=5\n  oddsmith exact ag.opposed --set skill=3 --set opp_skill=2 --format json\n" +
				"  oddsmith exact ag.skill_test --set skill=3 --set opt.tie=cost_accepted -o skill3.csv\n  oddsmith exact --expr '4d6kh3' --expr '3d6' -o stats.png\n" +
				"  oddsmith exact ag.suffocation --plot survival -o breath.svg"},
		{name: "sim", usage: "oddsmith sim ID|--expr EXPR [ID|--expr EXPR]... [--set name=value]... [-n TRIALS] [-s SEED] [--workers W] [--format table|csv|json] [-o FILE|FILE.png|FILE.svg|FILE.pdf [--plot KIND] [--var NAME]] [--shard i/K -o SHARD]", short: "estimate the distribution by parallel Monte Carlo simulation", run: runSim,
			long: "Simulates the mechanic with independent per-chunk random streams: the same seed and trial count give byte-identical output for any number of workers. Events carry Wilson 95% intervals.\n\n" + chartHelp +
				" A simulated chart draws the 95% (Wilson) interval of every probability as an error bar; several mechanics run with the same seed and trials." +
				"\n\nExamples:\n  oddsmith sim ag.skill_test --set skill=2 --set attribute=2 --set tn=5\n  oddsmith sim ag.opposed --set skill=3 --set opp_skill=2 -n 10000000 -s 7 --workers 2\n" +
				"  oddsmith sim --expr 'd6!' --expr 'd10!' -n 1000000 --plot tail -o bursts.pdf"},
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
				"DIR/<id>_sweep_delta.png, the change drawn the same way. -o FILE.png, .svg or .pdf writes just that chart (--format png, " +
				"svg or pdf draws DIR's charts in that format); --plot pmf, cdf, atleast, survival, bands or tail draws every point's " +
				"distribution on one chart instead (at most 12 points; in DIR as <id>_sweep_<kind>.png).\n\nExamples:\n" +
				"  oddsmith sweep ag.skill_test --vary modifier=-3..3 --delta modifier --metric event:success\n" +
				"  oddsmith sweep ag.skill_test --vary opt.tie=band,success --vary tn=4,6,8 --format csv\n" +
				"  oddsmith sweep ag.fall_damage --vary height=0..40:4 --metric mean:damage --metric quantile:damage:0.9\n" +
				"  oddsmith sweep ag.skill_test --vary skill=0..8 --vary tn=1..14 -o out\n" +
				"  oddsmith sweep grim.core.attack --vary attribute=-3..10 --set tn=14 --metric event:hit -o out\n" +
				"  oddsmith sweep ag.fall_damage --vary height=0..40:3 --metric mean:damage --engine sim -n 200000 -o out\n" +
				"  oddsmith sweep --expr '3d6 + b' --vary b=0..3 --plot pmf -o bonus.svg",
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
		{name: "atlas", usage: "oddsmith atlas -o DIR [-q] [--memory SIZE] [--validation]",
			short: "the cross-system atlas: eleven comparison charts of the five systems → a report bundle",
			long: "Runs the atlas plan built into oddsmith — eleven comparisons of the five systems: success against " +
				"difficulty, what +1 is worth, crits and fumbles, opposed rolls and ties, falling, ailments and breath, fire, damage tails, " +
				"extended tasks, group help and duel length — and writes a bundle: one PNG chart and the tidy " +
				"CSV behind it per comparison, and index.md with one-line findings. Every chart names its reference characters and options " +
				"in its caption. examples/atlas.toml is the same plan, to edit and run with 'oddsmith run'. With --validation it writes " +
				"the validation report instead: the simulator against the exact engine for every core roll, the error at each sample " +
				"count against its 95% band (a check for oddsmith's developers, not a design chart).\n\nExamples:\n  oddsmith atlas -o atlas\n  oddsmith atlas --validation -o validation",
			run: runAtlas},
	}
}

// chartHelp is what exact and sim say of -o, --format and --plot.
const chartHelp = "-o FILE writes the output to FILE, in the format its extension names: .png, .svg or .pdf draw a chart, .csv and " +
	".json write those tables, .txt (or no extension) the text table; --format says it for another name, and a table never goes " +
	"into a picture file (refused, as is an extension oddsmith cannot tell). --plot says what the chart draws: pmf (the default; for a " +
	"process survival, for a result without variables bands), cdf P(X ≤ x), atleast P(X ≥ x), tail P(X > x) on a log scale, " +
	"survival S(t) of a process, or bands; --var names the variable or band. Several mechanic ids and --expr (ids first, up to 12) " +
	"are drawn on one chart, each series labelled with its id or its rule's text, or printed as tables one after another (--format " +
	"table only); a --set goes to each one that declares it."
