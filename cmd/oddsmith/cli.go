package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/study"
	"github.com/oddsmith/oddsmith/systems"
)

// Exit codes.
const (
	exitOK          = 0
	exitFailure     = 1
	exitBadInput    = 2
	exitInterrupted = 130 // SIGINT (Ctrl-C)
	exitTerminated  = 143 // SIGTERM
)

// flagError is a command-line flag error: bad input, and the message adds a
// pointer to --help.
type flagError struct{ error }

func (e flagError) Unwrap() error { return e.error }

func badInput(format string, a ...any) error { return mechanics.Invalid(format, a...) }

// signalled is the cancellation cause when a signal stops the program.
type signalled struct{ sig os.Signal }

func (s signalled) Error() string { return "interrupted by " + s.sig.String() }

// exitCode maps an error to the process exit status, in one place: only bad
// input (mechanics.InputError) gives 2; a signal gives 130 or 143; any other
// failure (an engine limit, a write that fails) gives 1.
func exitCode(ctx context.Context, err error) int {
	var sg signalled
	switch {
	case err == nil || errors.Is(err, pflag.ErrHelp):
		return exitOK
	case errors.Is(err, context.Canceled):
		if errors.As(context.Cause(ctx), &sg) && sg.sig == syscall.SIGTERM {
			return exitTerminated
		}
		return exitInterrupted
	case mechanics.IsInput(err):
		return exitBadInput
	default:
		return exitFailure
	}
}

// command is one subcommand; commandTable lists them all in one place.
type command struct {
	name, usage, short, long string
	run                      func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func findCommand(name string) *command {
	for _, c := range commandTable() {
		if c.name == name {
			return c
		}
	}
	return nil
}

func rootUsage(w io.Writer) {
	fmt.Fprint(w, `oddsmith — how tabletop dice mechanics really behave, exactly and by simulation.

Usage:
  oddsmith COMMAND [arguments]

Commands:
`)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range commandTable() {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.short)
	}
	tw.Flush()
	fmt.Fprint(w, `
Examples:
  oddsmith list
  oddsmith exact ag.skill_test --set skill=2 --set attribute=2 --set tn=5
  oddsmith sim ag.skill_test --set skill=2 --set attribute=2 --set tn=5 -n 1000000 -s 1

Run 'oddsmith COMMAND --help' for a command's flags.
Exit status: 0 ok, 1 failure, 2 bad input, 130 interrupted (SIGINT), 143 terminated (SIGTERM).
`)
}

// run is the whole program: it parses, dispatches and maps errors to exit
// codes. Data goes to stdout; errors and progress to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		rootUsage(stderr)
		return exitBadInput
	}
	switch args[0] {
	case "-h", "--help", "help":
		if len(args) > 1 && args[0] == "help" {
			if c := findCommand(args[1]); c != nil {
				return run(ctx, []string{c.name, "--help"}, stdout, stderr)
			}
		}
		rootUsage(stdout)
		return exitOK
	case "--version", "version":
		fmt.Fprintln(stdout, "oddsmith", mechanics.Version)
		return exitOK
	}
	c := findCommand(args[0])
	if c == nil {
		fmt.Fprintf(stderr, "oddsmith: unknown command %q (run 'oddsmith --help' for the commands)\n", args[0])
		return exitBadInput
	}
	out := &checkedWriter{w: stdout}
	warn := &warnings{}
	err := runCommand(context.WithValue(ctx, warningsKey{}, warn), c, args[1:], out, stderr)
	if err == nil && out.err != nil {
		err = fmt.Errorf("writing the output: %w", out.err)
	}
	code := exitCode(ctx, err)
	switch {
	case err == nil:
		// A command's warnings come after its work; a command that
		// fails says one line, why.
		for _, l := range warn.lines {
			fmt.Fprintln(stderr, l)
		}
	case errors.Is(err, pflag.ErrHelp):
	case code == exitInterrupted || code == exitTerminated:
		fmt.Fprintln(stderr, "oddsmith: interrupted")
	default:
		msg := oneLine(err)
		var fe flagError
		if errors.As(err, &fe) {
			msg += fmt.Sprintf(" (run 'oddsmith %s --help' for its flags)", c.name)
		}
		fmt.Fprintf(stderr, "oddsmith: %s\n", msg)
	}
	return code
}

// runCommand runs a command and turns a panic (a bug) into an error that
// exits 1 with one line, never a stack trace.
func runCommand(ctx context.Context, c *command, args []string, stdout, stderr io.Writer) (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("internal error (please report it): %v", x)
		}
	}()
	return c.run(ctx, args, stdout, stderr)
}

// flagSet is a command's flags. parse sets reg: the built-in mechanics
// with the rules of the command's --rules files laid over them, so a
// command never changes anything another one can see.
type flagSet struct {
	*pflag.FlagSet
	ruleFiles *[]string
	// readings is where --strict and --dialect go, and the forms of the
	// rule files' expressions that another tool reads otherwise.
	readings *readingFlags
	reg      *mechanics.Registry
}

// builtinsKey is the context key of the registry a command starts from.
type builtinsKey struct{}

// withBuiltins makes reg the registry the commands run under ctx start
// from, instead of systems.Default: a test hook (a test adds a mechanic of
// its own, say one that breaks an engine on purpose).
func withBuiltins(ctx context.Context, reg *mechanics.Registry) context.Context {
	return context.WithValue(ctx, builtinsKey{}, reg)
}

// builtins is the registry commands start from: systems.Default unless a
// test said otherwise (withBuiltins).
func builtins(ctx context.Context) *mechanics.Registry {
	if reg, ok := ctx.Value(builtinsKey{}).(*mechanics.Registry); ok {
		return reg
	}
	return systems.Default
}

// loadRules lays the rules of the command's --rules files over base.
func (fs *flagSet) loadRules(base *mechanics.Registry) error {
	var ms []*mechanics.Mechanic
	for _, f := range *fs.ruleFiles {
		rs, err := rules.LoadFile(f)
		if err != nil {
			return err
		}
		for _, r := range rs {
			ms = append(ms, r.Mechanic())
			if fs.readings != nil {
				fs.readings.files = append(fs.readings.files, r.Readings...)
			}
		}
	}
	var err error
	fs.reg, err = base.Overlay(ms)
	return err
}

// checkedWriter remembers the first write error (a full disk, a closed
// pipe), so that a command whose output was lost does not exit 0.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// oneLine is an error as the one line the command prints: newlines,
// escape sequences and every other character a terminal would act on are
// written as visible escapes (reports.PrintableLine).
func oneLine(err error) string { return reports.PrintableLine(err.Error()) }

// newFlags makes a command's flag set with its help text.
func newFlags(c *command, stdout io.Writer) *flagSet {
	fs := &flagSet{FlagSet: pflag.NewFlagSet(c.name, pflag.ContinueOnError)}
	fs.SetOutput(io.Discard)
	fs.ruleFiles = fs.StringArray("rules", nil, "load designers' rules from a TOML `FILE` (repeatable; see docs/language.md)")
	fs.Usage = func() {
		fmt.Fprintf(stdout, "Usage: %s\n\n%s\n\nFlags:\n", c.usage, c.long)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

func parse(ctx context.Context, fs *flagSet, args []string) error {
	fs.VisitAll(func(f *pflag.Flag) {
		if numericFlag[f.Value.Type()] {
			f.Value = decimalValue{f.Value}
		}
	})
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err // pflag has printed the usage
		}
		return mechanics.AsInput(flagError{err})
	}
	// An empty value (an unset shell variable) would silently mean the
	// flag's absence: the whole run instead of a shard, a mechanic id.
	for _, fw := range [][2]string{{"expr", "a dice expression"}, {"shard", "i/K or auto/K"}, {"output", "a file or directory name (leave -o out for stdout)"}} {
		if f := fs.Lookup(fw[0]); f != nil && f.Changed && strings.TrimSpace(f.Value.String()) == "" {
			return badInput("--%s is empty: give %s", fw[0], fw[1])
		}
	}
	return fs.loadRules(builtins(ctx))
}

// numericFlag are the pflag value types decimalValue guards.
var numericFlag = map[string]bool{"int": true, "int64": true, "uint64": true, "float64": true, "uint": true, "int32": true}

// decimalValue holds a numeric flag to decimals: pflag reads integers in
// any base Go knows (-n 010 would be 8, -n 0x10 16) and with underscores
// (-n 1_0 is 10), which nobody means on a command line.
type decimalValue struct{ pflag.Value }

func (d decimalValue) Set(s string) error {
	s = strings.TrimSpace(s)
	if d.Type() == "float64" {
		if _, err := mechanics.ParseNumber(s); err != nil {
			return errors.New("write it in decimals (10, 2.5, 1e-3)")
		}
		return d.Value.Set(s)
	}
	sign, digits := "", s
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		sign, digits = s[:1], s[1:]
	}
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return errors.New("write it as a whole number in decimals (say 1000)")
	}
	// A leading 0 would make it octal to pflag.
	if t := strings.TrimLeft(digits, "0"); t != "" {
		digits = t
	} else {
		digits = "0"
	}
	return d.Value.Set(sign + digits)
}

func runList(ctx context.Context, args []string, stdout, _ io.Writer) error {
	fs := newFlags(findCommand("list"), stdout)
	if err := parse(ctx, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInput("list takes no arguments, got %q", fs.Arg(0))
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tENGINES\tSUMMARY")
	for _, m := range fs.reg.All() {
		eng := "exact+sim"
		if m.MCOnly {
			eng = "sim only"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", reports.PrintableLine(m.ID), eng, reports.PrintableLine(m.Summary))
	}
	return tw.Flush()
}

// exprFlag adds --expr (a one-line rule instead of a mechanic id).
func exprFlag(fs *flagSet) *string {
	return fs.String("expr", "", "a one-line dice `expression` to compute instead of a mechanic ('4d6kh3', 'd20 + bonus >= tn' with --set bonus=…)")
}

// readingFlags are how an --expr is read: --dialect (whose meaning its
// text has) and --strict (a form another dice tool reads otherwise is
// refused instead of warned about).
type readingFlags struct {
	strict  bool
	dialect string
	// files are the readings of the --rules files' expressions
	// (rules.Rule.Readings), placed in their files.
	files []string
}

// register adds --strict and --dialect to fs.
func (r *readingFlags) register(fs *flagSet) {
	fs.readings = r
	fs.BoolVar(&r.strict, "strict", r.strict, "refuse (exit 2) an --expr with a form that Roll20, Foundry or rpg-dice-roller reads with another meaning (3d6>3, cs, r, …), instead of warning about it on stderr")
	fs.StringVar(&r.dialect, "dialect", r.dialect, "read --expr (not --rules files: a rule says its own dialect = \"…\") with the meaning its text has in `DIALECT`: "+strings.Join(notation.Dialects(), ", ")+
		" (the results name oddsmith's form of it: Roll20's 3d6>3 is 3d6cs>=3)")
}

// strictFlag adds --strict and --dialect.
func strictFlag(fs *flagSet) *readingFlags {
	r := &readingFlags{}
	r.register(fs)
	return r
}

// warnings are the lines a command has to say on stderr once it has
// done its work (run prints them when it succeeds).
type warnings struct{ lines []string }

// warningsKey is the context key of a command's warnings.
type warningsKey struct{}

// warn says line on stderr when the command under ctx succeeds (at once,
// without run: a test calling a command directly).
func warn(ctx context.Context, stderr io.Writer, line string) {
	if w, ok := ctx.Value(warningsKey{}).(*warnings); ok {
		w.lines = append(w.lines, line)
		return
	}
	fmt.Fprintln(stderr, line)
}

// checkReadings reads each expression as --dialect says and puts
// oddsmith's form of it in its place, saying on stderr what a text in
// another dialect was read as. In oddsmith's own dialect it warns about
// the forms of each expression that Roll20, Foundry VTT or rpg-dice-roller
// read with another meaning (notation.Readings: 3d6>3 is a total here and
// a count of dice in Roll20), one line each on stderr once the command has
// succeeded; with strict, the first is an error (bad input). An
// expression that does not parse in oddsmith's dialect is left to the
// command, which says why.
func checkReadings(ctx context.Context, stderr io.Writer, r *readingFlags, exprs []string) error {
	d, err := notation.DialectNamed(r.dialect)
	if err != nil {
		return badInput("--dialect: %v", err)
	}
	for i, line := range r.files {
		if r.strict {
			more := ""
			if len(r.files) > i+1 {
				more = fmt.Sprintf(" (and %d more)", len(r.files)-i-1)
			}
			return badInput("%s%s (--strict refuses what another dice tool reads otherwise; a rule's dialect = \"roll20\" reads it as Roll20 does)", line, more)
		}
		warn(ctx, stderr, "oddsmith: warning: "+line)
	}
	r.files = nil
	for i, src := range exprs {
		if strings.TrimSpace(src) == "" {
			continue
		}
		if d != notation.Oddsmith {
			x, err := notation.ParseIn(src, d)
			if err != nil {
				return badInput("--expr: %v (read as %s)", err, d.Title())
			}
			exprs[i] = notation.String(x)
			if exprs[i] != strings.TrimSpace(src) {
				warn(ctx, stderr, fmt.Sprintf("oddsmith: --expr %s, read as %s: %s", reports.PrintableLine(strconv.Quote(src)), d.Title(), exprs[i]))
			}
			continue
		}
		x, err := notation.Parse(src)
		if err != nil {
			continue
		}
		rs := notation.Readings(src, x)
		if len(rs) == 0 {
			continue
		}
		if r.strict {
			more := ""
			if len(rs) > 1 {
				more = fmt.Sprintf(" (and %d more)", len(rs)-1)
			}
			return badInput("--expr: %s%s (--strict refuses what another dice tool reads otherwise)", rs[0], more)
		}
		for _, r := range rs {
			warn(ctx, stderr, "oddsmith: warning: --expr: "+r.String())
		}
	}
	return nil
}

// checkReading is checkReadings of one expression.
func checkReading(ctx context.Context, stderr io.Writer, r *readingFlags, src *string) error {
	exprs := []string{*src}
	err := checkReadings(ctx, stderr, r, exprs)
	*src = exprs[0]
	return err
}

// lookupOrExpr is the mechanic named on the command line, or the one-line
// rule of --expr (study.Lookup).
func lookupOrExpr(fs *flagSet, src string) (*mechanics.Mechanic, error) {
	return study.Lookup(fs.reg, fs.Args(), src)
}

func runDescribe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(findCommand("describe"), stdout)
	var sets []string
	fs.StringArrayVar(&sets, "set", nil, "describe the model at these settings: `name=value` (repeatable; outputs can depend on them)")
	all := fs.Bool("all", false, "describe every registered mechanic (at the defaults)")
	format := fs.StringP("format", "f", "text", "output `format`: text or markdown (--all --format markdown is the reference in docs/mechanics.md)")
	src := exprFlag(fs)
	strict := strictFlag(fs)
	if err := parse(ctx, fs, args); err != nil {
		return err
	}
	if err := checkReading(ctx, stderr, strict, src); err != nil {
		return err
	}
	if *format != "text" && *format != "markdown" {
		return badInput("unknown format %q (want text or markdown)", *format)
	}
	if *all {
		if fs.NArg() > 0 || len(sets) > 0 || *src != "" {
			return badInput("--all takes no mechanic id, --expr or --set")
		}
		if *format == "markdown" {
			return reports.WriteReference(stdout, fs.reg.All())
		}
		for i, m := range fs.reg.All() {
			c, err := m.Configure(nil)
			if err != nil {
				return err
			}
			spec, err := m.Model(c)
			if err != nil {
				return err
			}
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			if err := reports.WriteDescription(stdout, m, spec, false); err != nil {
				return err
			}
		}
		return nil
	}
	m, err := lookupOrExpr(fs, *src)
	if err != nil {
		return err
	}
	c, err := m.Configure(sets)
	if err != nil {
		return err
	}
	spec, err := m.Model(c)
	if err != nil {
		return err
	}
	if *format == "markdown" {
		return reports.WriteDescriptionMarkdown(stdout, m, spec, len(sets) > 0)
	}
	return reports.WriteDescription(stdout, m, spec, len(sets) > 0)
}

// outputFlags are the flags exact and sim share: the mechanics (ids and
// --expr, one series each), their settings, and where the result goes.
type outputFlags struct {
	sets    []string
	format  string
	output  string
	exprs   []string
	plot    *string
	draw    string
	percent bool
	strict  *readingFlags
	// out is what -o and --format ask for (resolveFileOutput).
	out fileOutput
}

func (o *outputFlags) register(fs *flagSet) {
	fs.StringArrayVar(&o.sets, "set", nil, "set a parameter or option: `name=value` (repeatable; see 'oddsmith describe ID'); with several mechanics, each takes the settings it declares")
	fs.StringVarP(&o.format, "format", "f", "table", "output `format`: table, csv or json; png, svg or pdf for a chart (-o FILE)")
	fs.StringVarP(&o.output, "output", "o", "", "write to `FILE` (atomically: a temp file renamed into place) instead of stdout; FILE.png, .svg or .pdf draws a chart, .csv and .json write that table")
	fs.StringArrayVar(&o.exprs, "expr", nil, "a one-line dice `expression` to compute instead of a mechanic ('4d6kh3', 'd20 + bonus >= tn' with --set bonus=…); repeatable, and with mechanic ids: each is a series of the chart, or a table after the other")
	fs.BoolVar(&o.percent, "percent", false, "print the table's probabilities as percentages (93.98%, <0.01%; --format table only)")
	o.plot = plotFlag(fs)
	o.strict = strictFlag(fs)
	fs.StringVar(&o.draw, "var", "", "the variable (or band) the chart draws, by `NAME` (default: each result's first variable)")
}

// configure resolves the mechanics, their settings and the output: every
// bad input is refused before anything runs. A shard's -o is its shard
// file, whatever its name: it runs one mechanic and draws nothing.
func (o *outputFlags) configure(fs *flagSet, shard bool) ([]series, error) {
	if !slices.Contains(reports.Formats, o.format) && !slices.Contains(reports.PictureFormats, o.format) {
		return nil, badInput("unknown format %q (want %s, or %s for a chart)", o.format, strings.Join(reports.Formats, ", "), strings.Join(reports.PictureFormats, ", "))
	}
	var err error
	switch {
	case !shard:
		o.out, err = resolveFileOutput(o.output, o.format, fs.Changed("format"))
	case slices.Contains(reports.PictureFormats, o.format) || reports.PictureFormat(o.output) != "":
		err = badInput("a shard writes counts for 'oddsmith merge', not a chart: -o names the shard file")
	case len(o.exprs)+fs.NArg() > 1:
		err = badInput("--shard runs one mechanic or expression, got %d", len(o.exprs)+fs.NArg())
	default:
		o.out = fileOutput{text: o.format}
	}
	if err != nil {
		return nil, err
	}
	if err := checkChartKind(*o.plot, reports.ChartKinds); err != nil {
		return nil, err
	}
	if o.out.picture == "" {
		for _, f := range []string{"plot", "var"} {
			if fs.Changed(f) {
				return nil, badInput("--%s chooses what a chart draws: give -o FILE.png, .svg or .pdf", f)
			}
		}
	}
	if o.percent && o.out.text != "table" {
		what := "--format " + o.out.text
		if o.out.picture != "" {
			what = "a chart"
		}
		return nil, badInput("--percent shapes the text table; %s keeps probabilities in [0, 1] (leave out one of them)", what)
	}
	ss, err := resolveSeries(fs, o.exprs, o.sets)
	if err != nil {
		return nil, err
	}
	if len(ss) > 1 && o.out.picture == "" && o.out.text != "table" {
		return nil, badInput("several mechanics print as tables one after another; --format %s takes one at a time (or draw them together with -o FILE.png)", o.out.text)
	}
	return ss, nil
}

// emit renders the results fully in memory — the tables one after another,
// or one chart of them all — then writes them to stdout or atomically to
// the output file.
func (o *outputFlags) emit(ss []series, rs []*engine.Result, stdout io.Writer) error {
	if o.out.picture != "" {
		return writePicture(o.output, o.out.picture, func(w io.Writer) error {
			return reports.WriteResultChart(w, resultChart(*o.plot, o.draw, ss, rs))
		})
	}
	var buf bytes.Buffer
	for i, r := range rs {
		if i > 0 {
			buf.WriteString("\n")
		}
		if err := reports.WriteWith(&buf, r, o.out.text, reports.TableOptions{Percent: o.percent}); err != nil {
			return err
		}
	}
	if o.output == "" {
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	return reports.AtomicWrite(o.output, func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
}

func runExact(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var of outputFlags
	fs := newFlags(findCommand("exact"), stdout)
	of.register(fs)
	memory := memoryFlag(fs)
	if err := parse(ctx, fs, args); err != nil {
		return err
	}
	if err := checkReadings(ctx, stderr, of.strict, of.exprs); err != nil {
		return err
	}
	mem, err := parseMemory(*memory)
	if err != nil {
		return err
	}
	ss, err := of.configure(fs, false)
	if err != nil {
		return err
	}
	var rs []*engine.Result
	for _, s := range ss {
		r, err := study.Engine{Kind: engine.Exact, MemoryBytes: mem}.Run(ctx, s.m, s.c)
		if err != nil {
			return seriesErr(ss, s, err)
		}
		rs = append(rs, r)
	}
	return of.emit(ss, rs, stdout)
}

// seriesErr says which of several series an error is about.
func seriesErr(ss []series, s series, err error) error {
	if len(ss) == 1 {
		return err
	}
	return fmt.Errorf("%s: %w", s.label, err)
}

func runSim(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var of outputFlags
	fs := newFlags(findCommand("sim"), stdout)
	of.register(fs)
	trials := fs.Int64P("trials", "n", 1_000_000, "number of `trials`")
	seed := fs.Uint64P("seed", "s", 1, "random `seed`; the same seed and trial count give identical output for any worker count")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "number of parallel `workers`")
	quiet := fs.BoolP("quiet", "q", false, "no progress on stderr")
	memory := memoryFlag(fs)
	shard := shardFlag(fs)
	if err := parse(ctx, fs, args); err != nil {
		return err
	}
	if err := checkReadings(ctx, stderr, of.strict, of.exprs); err != nil {
		return err
	}
	mem, err := parseMemory(*memory)
	if err != nil {
		return err
	}
	ss, err := of.configure(fs, *shard != "")
	if err != nil {
		return err
	}
	if err := checkSimCounts(*trials, *workers); err != nil {
		return err
	}
	opt := study.Engine{Kind: engine.Sim, Trials: *trials, Seed: *seed, Workers: *workers, MemoryBytes: mem, Source: pointSource(ctx)}
	if *shard != "" {
		if of.percent {
			return badInput("--percent shapes the table that merge prints, not a shard")
		}
		job := shardJob{fs: fs, spec: *shard, out: of.output, quiet: *quiet, stderr: stderr}
		return job.simShard(ctx, ss[0].m, ss[0].c, opt, of.format)
	}
	// Every series runs with the same seed and trials.
	var rs []*engine.Result
	for _, s := range ss {
		r, err := simOne(ctx, opt, s, *quiet, stderr)
		if err != nil {
			return seriesErr(ss, s, err)
		}
		rs = append(rs, r)
	}
	return of.emit(ss, rs, stdout)
}

// simOne simulates one series, with a progress bar for runs longer than
// ~2 s (the simulator calls back only then) and a summary line on stderr.
func simOne(ctx context.Context, opt study.Engine, s series, quiet bool, stderr io.Writer) (*engine.Result, error) {
	var mu sync.Mutex // the simulator calls back from its own goroutine
	var bar *progress
	opt.OnProgress = func(done, total int64) {
		mu.Lock()
		defer mu.Unlock()
		if bar == nil && !quiet {
			bar = newProgress(stderr, false, "sim "+s.label, "trials", total)
		}
		bar.Set(done)
	}
	start := time.Now()
	r, err := opt.Run(ctx, s.m, s.c)
	mu.Lock()
	bar.Finish(err == nil)
	mu.Unlock()
	if err != nil {
		return nil, err
	}
	if !quiet {
		el := time.Since(start).Seconds()
		fmt.Fprintf(stderr, "sim: %d trials, seed %d, %d workers, %.2fs (%.3g trials/s)\n", r.Trials, r.Seed, r.Workers, el, float64(r.Trials)/el)
	}
	return r, nil
}

// checkSimCounts refuses a trial count out of range and a worker count
// below 1.
func checkSimCounts(trials int64, workers int) error {
	if trials < 1 || trials > study.MaxTrials {
		return badInput("--trials must be between 1 and %d, got %d", study.MaxTrials, trials)
	}
	if workers < 1 {
		return badInput("--workers must be at least 1, got %d", workers)
	}
	return nil
}

// engineFlags are the engine flags of a command that runs many points
// (sweep, solve): --engine, and the simulator's -n, -s and --workers.
type engineFlags struct {
	kind    *string
	trials  *int64
	seed    *uint64
	workers *int
}

// addEngineFlags declares them; per names what the trials are counted
// for ("point", "setting").
func addEngineFlags(fs *flagSet, per string) engineFlags {
	return engineFlags{
		kind:    fs.String("engine", "exact", "`engine`: exact or sim"),
		trials:  fs.Int64P("trials", "n", 200_000, "simulated `trials` per "+per+" (--engine sim)"),
		seed:    fs.Uint64P("seed", "s", 1, "random `seed` (--engine sim)"),
		workers: fs.Int("workers", runtime.GOMAXPROCS(0), "parallel `workers` (--engine sim)"),
	}
}

// check refuses trials out of range and fewer than one worker.
func (f engineFlags) check() error { return checkSimCounts(*f.trials, *f.workers) }

// engine is the engine the flags ask for, under the memory budget mem.
func (f engineFlags) engine(ctx context.Context, mem int64) study.Engine {
	return study.Engine{Kind: engine.Kind(*f.kind), Trials: *f.trials, Seed: *f.seed, Workers: *f.workers, MemoryBytes: mem, Source: pointSource(ctx)}
}
