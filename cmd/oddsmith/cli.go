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
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"github.com/oddsmith/oddsmith/engine"
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
		fmt.Fprintf(stderr, "oddsmith: unknown command %q\nRun 'oddsmith --help' for usage.\n", args[0])
		return exitBadInput
	}
	out := &checkedWriter{w: stdout}
	err := runCommand(ctx, c, args[1:], out, stderr)
	if err == nil && out.err != nil {
		err = fmt.Errorf("writing the output: %w", out.err)
	}
	code := exitCode(ctx, err)
	switch {
	case err == nil || errors.Is(err, pflag.ErrHelp):
	case code == exitInterrupted || code == exitTerminated:
		fmt.Fprintln(stderr, "oddsmith: interrupted")
	default:
		fmt.Fprintf(stderr, "oddsmith: %v\n", oneLine(err))
		var fe flagError
		if errors.As(err, &fe) {
			fmt.Fprintf(stderr, "Run 'oddsmith %s --help' for usage.\n", c.name)
		}
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
	reg       *mechanics.Registry
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

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }

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
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err // pflag has printed the usage
		}
		return mechanics.AsInput(flagError{err})
	}
	// An empty value (an unset shell variable) would silently mean the
	// flag's absence: the whole run instead of a shard, a mechanic id.
	for _, fw := range [][2]string{{"expr", "a dice expression"}, {"shard", "i/K or auto/K"}} {
		if f := fs.Lookup(fw[0]); f != nil && f.Changed && strings.TrimSpace(f.Value.String()) == "" {
			return badInput("--%s is empty: give %s", fw[0], fw[1])
		}
	}
	return fs.loadRules(builtins(ctx))
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
		fmt.Fprintf(tw, "%s\t%s\t%s\n", m.ID, eng, m.Summary)
	}
	return tw.Flush()
}

// exprFlag adds --expr (a one-line rule instead of a mechanic id).
func exprFlag(fs *flagSet) *string {
	return fs.String("expr", "", "a one-line dice `expression` to compute instead of a mechanic ('4d6kh3', 'd20 + bonus >= tn' with --set bonus=…)")
}

// lookupOrExpr is the mechanic named on the command line, or the one-line
// rule of --expr (study.Lookup).
func lookupOrExpr(fs *flagSet, src string) (*mechanics.Mechanic, error) {
	return study.Lookup(fs.reg, fs.Args(), src)
}

func runDescribe(ctx context.Context, args []string, stdout, _ io.Writer) error {
	fs := newFlags(findCommand("describe"), stdout)
	var sets []string
	fs.StringArrayVar(&sets, "set", nil, "describe the model at these settings: `name=value` (repeatable; outputs can depend on them)")
	all := fs.Bool("all", false, "describe every registered mechanic (at the defaults)")
	format := fs.StringP("format", "f", "text", "output `format`: text or markdown (--all --format markdown is the reference in docs/mechanics.md)")
	src := exprFlag(fs)
	if err := parse(ctx, fs, args); err != nil {
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

type outputFlags struct {
	sets    []string
	format  string
	output  string
	expr    *string
	percent bool
}

func (o *outputFlags) register(fs *flagSet) {
	fs.StringArrayVar(&o.sets, "set", nil, "set a parameter or option: `name=value` (repeatable; see 'oddsmith describe ID')")
	fs.StringVarP(&o.format, "format", "f", "table", "output `format`: table, csv or json")
	fs.StringVarP(&o.output, "output", "o", "", "write to `FILE` (atomically: a temp file renamed into place) instead of stdout")
	fs.BoolVar(&o.percent, "percent", false, "print the table's probabilities as percentages (93.98%, <0.01%; --format table only)")
	o.expr = exprFlag(fs)
}

func (o *outputFlags) configure(fs *flagSet) (*mechanics.Mechanic, mechanics.Config, error) {
	m, err := lookupOrExpr(fs, *o.expr)
	if err != nil {
		return nil, mechanics.Config{}, err
	}
	if !slices.Contains(reports.Formats, o.format) {
		return nil, mechanics.Config{}, badInput("unknown format %q (want %s)", o.format, strings.Join(reports.Formats, ", "))
	}
	if o.percent && o.format != "table" {
		return nil, mechanics.Config{}, badInput("--percent shapes the text table; --format %s keeps probabilities in [0, 1] (leave out one of them)", o.format)
	}
	c, err := m.Configure(o.sets)
	if err != nil {
		return nil, mechanics.Config{}, err
	}
	return m, c, nil
}

// emit renders the result fully in memory, then writes it to stdout or
// atomically to the output file.
func (o *outputFlags) emit(r *engine.Result, stdout io.Writer) error {
	var buf bytes.Buffer
	if err := reports.WriteWith(&buf, r, o.format, reports.TableOptions{Percent: o.percent}); err != nil {
		return err
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

func runExact(ctx context.Context, args []string, stdout, _ io.Writer) error {
	var of outputFlags
	fs := newFlags(findCommand("exact"), stdout)
	of.register(fs)
	memory := memoryFlag(fs)
	if err := parse(ctx, fs, args); err != nil {
		return err
	}
	mem, err := parseMemory(*memory)
	if err != nil {
		return err
	}
	m, c, err := of.configure(fs)
	if err != nil {
		return err
	}
	r, err := study.Engine{Kind: engine.Exact, MemoryBytes: mem}.Run(ctx, m, c)
	if err != nil {
		return err
	}
	return of.emit(r, stdout)
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
	mem, err := parseMemory(*memory)
	if err != nil {
		return err
	}
	m, c, err := of.configure(fs)
	if err != nil {
		return err
	}
	if *trials < 1 || *trials > study.MaxTrials {
		return badInput("--trials must be between 1 and %d, got %d", study.MaxTrials, *trials)
	}
	if *workers < 1 {
		return badInput("--workers must be at least 1, got %d", *workers)
	}
	opt := study.Engine{Kind: engine.Sim, Trials: *trials, Seed: *seed, Workers: *workers, MemoryBytes: mem, Source: pointSource(ctx)}
	if *shard != "" {
		if of.percent {
			return badInput("--percent shapes the table that merge prints, not a shard")
		}
		job := shardJob{fs: fs, spec: *shard, out: of.output, quiet: *quiet, stderr: stderr}
		return job.simShard(ctx, m, c, opt, of.format)
	}
	// A progress bar for runs longer than ~2 s (the simulator calls back
	// only then).
	var mu sync.Mutex // the simulator calls back from its own goroutine
	var bar *progress
	opt.OnProgress = func(done, total int64) {
		mu.Lock()
		defer mu.Unlock()
		if bar == nil && !*quiet {
			bar = newProgress(stderr, false, "sim "+m.ID, "trials", total)
		}
		bar.Set(done)
	}
	start := time.Now()
	r, err := opt.Run(ctx, m, c)
	mu.Lock()
	bar.Finish(err == nil)
	mu.Unlock()
	if err != nil {
		return err
	}
	if !*quiet {
		el := time.Since(start).Seconds()
		fmt.Fprintf(stderr, "sim: %d trials, seed %d, %d workers, %.2fs (%.3g trials/s)\n", r.Trials, r.Seed, r.Workers, el, float64(r.Trials)/el)
	}
	return of.emit(r, stdout)
}
