package main

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/sim"
	"github.com/oddsmith/oddsmith/study"
)

// Shards: 'oddsmith sim|sweep|run … --shard i/K -o FILE' runs one slice of
// the work and writes a shard file; 'oddsmith merge FILE… -o OUT' checks the
// shards, adds their counts and replays the command with the shards'
// results in place of the engines, so that OUT has the bytes of one run.

// mergeUsage and mergeLong document merge (see commandTable).
const (
	mergeUsage = "oddsmith merge SHARD... [-o FILE|DIR] [--format table|csv|json] [-q]"
	mergeShort = "combine the shard files of 'sim', 'sweep', 'solve' or 'run --shard i/K' → the bytes of one run"
	mergeLong  = "Checks that the shard files are all the shards of one run (same fingerprint, same oddsmith version, every shard once, " +
		"checksums intact), adds their integer counts and writes exactly what the run on one machine writes: a simulation's table, " +
		"CSV or JSON (-o FILE, or stdout), a solve's answer (stdout; -o DIR adds its CSV and chart), a sweep's CSV and plot or a plan's bundle (-o DIR). A summary goes to stderr.\n\n" +
		"Examples:\n" +
		"  oddsmith sim ag.skill_test -n 4000000000 --shard auto/4 -o shards/skill.$SLURM_ARRAY_TASK_ID   # in each array task\n" +
		"  oddsmith merge shards/skill.* -o skill.txt\n" +
		"  oddsmith run examples/tour.toml --shard 2/3 -o tour.2 && … && oddsmith merge tour.0 tour.1 tour.2 -o report"
)

// shardFlag adds --shard to a command.
func shardFlag(fs *flagSet) *string {
	return fs.String("shard", "", "run only shard `i/K` (0 ≤ i < K) of the work and write a shard file to -o for 'oddsmith merge'; "+
		"auto/K takes i from "+strings.Join(study.IndexVars, ", "))
}

// sourceKey carries merge's results (a study.PointSource) to the command it
// replays.
type sourceKey struct{}

// pointSource is the source of results merge installed, or nil.
func pointSource(ctx context.Context) study.PointSource {
	s, _ := ctx.Value(sourceKey{}).(study.PointSource)
	return s
}

// notReplayed are the flags a shard does not record: they change where
// and how fast the work runs, not its results.
var notReplayed = map[string]bool{"shard": true, "output": true, "workers": true, "quiet": true, "format": true, "memory": true}

// canonicalArgs rebuilds a command's arguments for merge to replay: the
// positional arguments, then every flag given except notReplayed, file
// names made absolute (merge may run elsewhere on a shared file system).
// It also hashes the input files (the plan, --rules files).
func canonicalArgs(fs *flagSet, positional []string, plan bool) ([]string, map[string]string, error) {
	files := map[string]string{}
	addFile := func(name string) (string, error) { return addHash(files, name) }
	var args []string
	for _, a := range positional {
		if plan {
			abs, err := addFile(a)
			if err != nil {
				return nil, nil, err
			}
			a = abs
		}
		args = append(args, a)
	}
	var err error
	fs.Visit(func(f *pflag.Flag) {
		if notReplayed[f.Name] || err != nil {
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				if f.Name == "rules" {
					if v, err = addFile(v); err != nil {
						return
					}
				}
				args = append(args, "--"+f.Name+"="+v)
			}
			return
		}
		args = append(args, "--"+f.Name+"="+f.Value.String())
	})
	return args, files, err
}

// shardJob is what a command hands to its shard, the same for sim, sweep
// and run: the command's flags (for the arguments merge replays), --shard,
// -o, -q and where progress goes.
type shardJob struct {
	fs     *flagSet
	spec   string // --shard: i/K or auto/K
	out    string // -o: the shard file to write
	quiet  bool
	stderr io.Writer
}

// shardRun is the common part of one shard's work: the parsed --shard,
// the header, progress lines on stderr, and writing the file.
type shardRun struct {
	shardJob
	sel    study.Shard
	header study.ShardHeader
	start  time.Time

	mu       sync.Mutex
	bar      *progress
	lastTick int
}

// start checks --shard and -o, and starts the header with the command's
// canonical arguments and input files (canonicalArgs).
func (j shardJob) start(positional []string, plan bool) (*shardRun, error) {
	sel, err := study.ParseShard(j.spec, os.Getenv)
	if err != nil {
		return nil, err
	}
	if j.out == "" {
		return nil, badInput("--shard needs -o FILE, the shard file to write")
	}
	if st, err := os.Stat(j.out); err == nil && st.IsDir() {
		return nil, badInput("--shard writes a file: %s is a directory", j.out)
	}
	args, files, err := canonicalArgs(j.fs, positional, plan)
	if err != nil {
		return nil, err
	}
	s := &shardRun{shardJob: j, sel: sel}
	s.header.Args, s.header.Files, s.header.ChunkSize = args, files, sim.ChunkSize
	return s, nil
}

// begin fills the header's range and says what the shard runs.
func (s *shardRun) begin(total int64, unit string, detail func(first, last int64) string) (first, last int64) {
	h := &s.header
	first, last = s.sel.Range(total)
	h.Unit, h.Total, h.Shard, h.Of, h.First, h.Last = unit, total, s.sel.Index, s.sel.Count, first, last
	h.Version = mechanics.Version
	if !s.quiet {
		from := ""
		if s.sel.From != "" {
			from = " (index from " + s.sel.From + ")"
		}
		fmt.Fprintf(s.stderr, "shard %s%s of %s %s: %s of %d%s\n", s.sel, from, h.Kind, h.What, study.RangeText(unit, first, last), total, detail(first, last))
	}
	s.start = time.Now()
	return first, last
}

// progress reports done of total units: a bar on a terminal, else a line
// at every tenth (a scheduler's log file gets no carriage returns).
func (s *shardRun) progress(done, total int64, unit string) {
	if s.quiet || total <= 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if s.bar == nil {
			s.bar = newProgress(s.stderr, false, "shard "+s.sel.String(), unit, total)
		}
		s.bar.Set(done)
		return
	}
	if tick := int(done * 10 / total); tick > s.lastTick {
		s.lastTick = tick
		fmt.Fprintf(s.stderr, "shard %s: %d%% (%d of %d %s, %.1fs)\n", s.sel, tick*10, done, total, unit, time.Since(s.start).Seconds())
	}
}

// finish writes the shard file atomically: a retried task that rewrites
// it writes the same bytes.
func (s *shardRun) finish(points []study.ShardPoint, keys []string, trials int64) error {
	s.mu.Lock()
	s.bar.Finish(true)
	s.mu.Unlock()
	s.header.Fingerprint = study.RunFingerprint(s.header, keys)
	f := &study.ShardFile{Header: s.header, Points: points}
	data, err := f.Encode()
	if err != nil {
		return err
	}
	if err := reports.AtomicWrite(s.out, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
		return err
	}
	if !s.quiet {
		el := time.Since(s.start).Seconds()
		rate := ""
		if trials > 0 && el > 0 {
			rate = fmt.Sprintf(", %d trials (%.3g trials/s)", trials, float64(trials)/el)
		}
		fmt.Fprintf(s.stderr, "shard %s: done in %.2fs%s → %s\n", s.sel, el, rate, s.out)
	}
	return nil
}

// simShard runs one shard of 'oddsmith sim': a slice of the chunks.
func (j shardJob) simShard(ctx context.Context, m *mechanics.Mechanic, c mechanics.Config, e study.Engine, format string) error {
	s, err := j.start(j.fs.Args(), false)
	if err != nil {
		return err
	}
	h := &s.header
	h.Kind, h.What, h.OutputFormat = "sim", m.ID, format
	h.Seed, h.Trials = e.Seed, e.Trials
	total := sim.Chunks(e.Trials)
	first, last := s.begin(total, "chunks", func(first, last int64) string {
		return fmt.Sprintf(" (%d of %d trials), seed %d", shardTrials(first, last, e.Trials), e.Trials, e.Seed)
	})
	trials := shardTrials(first, last, e.Trials)
	e.Source = nil
	e.OnProgress = func(done, _ int64) { s.progress(done, trials, "trials") }
	p, err := study.SimShard(ctx, e, m, c, first, last)
	if err != nil {
		return err
	}
	return s.finish([]study.ShardPoint{p}, []string{p.Key}, trials*int64(len(p.Counts)))
}

// shardTrials is the number of trials of chunks [first, last).
func shardTrials(first, last, trials int64) int64 {
	return study.ChunkTrials(first, last, trials, sim.ChunkSize)
}

// pointsShard runs one shard of a sweep or a plan: a slice of the points.
func pointsShard(ctx context.Context, s *shardRun, pts []study.Point) error {
	keys := make([]string, len(pts))
	for i, p := range pts {
		keys[i] = p.Key()
	}
	first, last := s.begin(int64(len(pts)), "points", func(int64, int64) string { return "" })
	var done atomic.Int64
	n := last - first
	var trials int64
	for _, p := range pts[first:last] {
		if p.Engine.Kind == engine.Sim {
			trials += p.Engine.Trials
		}
	}
	res, err := study.RunPoints(ctx, pts[first:last], func() { s.progress(done.Add(1), n, "points") })
	if err != nil {
		return err
	}
	return s.finish(res, keys, trials)
}

// sweepShard runs one shard of 'oddsmith sweep'; format is its --format,
// merge's default for the table.
func (j shardJob) sweepShard(ctx context.Context, sw *study.Sweep, format string) error {
	return j.searchShard(ctx, "sweep", sw.Mechanic.ID, sw.Engine, format, sw.ShardPoints)
}

// searchShard runs one shard of a sweep or a solve (kind): the points
// shard gives of mechanic id, on the engine e; format is the command's
// --format, merge's default for the table.
func (j shardJob) searchShard(ctx context.Context, kind, id string, e study.Engine, format string, shard func() ([]study.Point, error)) error {
	s, err := j.start(j.fs.Args(), false)
	if err != nil {
		return err
	}
	pts, err := shard()
	if err != nil {
		return err
	}
	h := &s.header
	h.Kind, h.What, h.OutputFormat = kind, id, format
	if e.Kind == engine.Sim {
		h.Seed, h.Trials = e.Seed, e.Trials
	}
	return pointsShard(ctx, s, pts)
}

// planShard runs one shard of 'oddsmith run' of the plan read from file.
func (j shardJob) planShard(ctx context.Context, plan *study.Plan, file string) error {
	s, err := j.start([]string{file}, true)
	if err != nil {
		return err
	}
	h := &s.header
	for _, path := range plan.RuleFilePaths(file) {
		if _, err := addHash(h.Files, path); err != nil {
			return err
		}
	}
	pts, err := plan.ShardPoints()
	if err != nil {
		return mechanics.AsInput(err)
	}
	h.Kind, h.What = "run", file
	h.Seed, h.Trials = uint64(plan.Seed), plan.Trials
	return pointsShard(ctx, s, pts)
}

// addHash records the sha256 of a file under its absolute name.
func addHash(files map[string]string, name string) (string, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return "", err
	}
	sum, err := fileHash(abs)
	if err != nil {
		return "", badInput("cannot read %s: %v", name, err)
	}
	files[abs] = sum
	return abs, nil
}

// fileHash is the sha256 of a file's contents, in hex.
func fileHash(name string) (string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(findCommand("merge"), stdout)
	out := fs.StringP("output", "o", "", "write the merged result to `FILE` (a simulation; stdout when absent) or DIR (a sweep or a plan)")
	format := fs.StringP("format", "f", "", "output `format` of a simulation (table, csv or json; png, svg or pdf, or -o FILE.png, for its chart), of a sweep's table without -o or of a solve (text, csv or json); default: the shards' --format")
	quiet := fs.BoolP("quiet", "q", false, "no summary on stderr")
	memory := memoryFlag(fs)
	if err := parse(ctx, fs, args); err != nil {
		return err
	}
	mem, err := parseMemory(*memory)
	if err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return badInput("merge needs the shard files of a run (oddsmith merge SHARD... -o OUT)")
	}
	names := fs.Args()
	shards := make([]*study.ShardFile, len(names))
	// The shards' counts, decoded and summed, within the budget.
	budget := engine.NewBudget(ctx, mem)
	budget.SuggestSim = false
	for i, name := range names {
		if shards[i], err = readShardFile(name, budget); err != nil {
			return err
		}
	}
	merged, err := study.MergeShards(names, shards)
	if err != nil {
		return err
	}
	h := merged.Header
	c := findCommand(h.Kind)
	if c == nil {
		return badInput("%s: unknown command %q", names[0], h.Kind)
	}
	replay := slices.Clone(h.Args)
	replay = append(replay, "-q", "--memory="+*memory)
	switch h.Kind {
	case "sim":
		f := cmp.Or(*format, h.OutputFormat, "table")
		if !slices.Contains(reports.Formats, f) && !slices.Contains(reports.PictureFormats, f) {
			return badInput("unknown format %q (want %s, or %s for a chart)", f, strings.Join(reports.Formats, ", "), strings.Join(reports.PictureFormats, ", "))
		}
		if _, text := reports.TextFormats[strings.ToLower(filepath.Ext(*out))]; *format != "" || (reports.PictureFormat(*out) == "" && !text) {
			replay = append(replay, "--format="+f)
		} // else -o's extension says: FILE.png draws the merged result's chart, FILE.csv is its CSV

	case "sweep":
		// A sweep prints its table (in the shards' --format) unless -o
		// DIR asks for its CSV and plot.
		switch {
		case *out == "":
			replay = append(replay, "--format="+cmp.Or(*format, h.OutputFormat, "text"))
		case *format != "":
			return badInput("--format shapes a sweep's table on stdout; -o %s writes its CSV and plot instead (leave out one of them)", *out)
		}
	case "solve":
		// The answer goes to stdout as the solve wrote it; -o DIR adds its
		// CSV and chart, as it does for solve.
		f := cmp.Or(*format, h.OutputFormat, "text")
		if !slices.Contains(study.SolveFormats, f) {
			return badInput("unknown format %q (want %s)", f, strings.Join(study.SolveFormats, ", "))
		}
		replay = append(replay, "--format="+f)
	default:
		if *format != "" {
			return badInput("--format is for simulations, sweeps and solves; a plan writes a directory")
		}
		if *out == "" {
			return badInput("merging a plan needs an output directory (-o DIR)")
		}
	}
	// The input files must be those the shards read.
	for _, f := range slices.Sorted(maps.Keys(h.Files)) {
		sum, err := fileHash(f)
		if err != nil {
			return badInput("the shards read %s, which merge cannot read: %v", f, err)
		}
		if sum != h.Files[f] {
			return badInput("%s changed since the shards ran; merge with the file they read, or rerun them", f)
		}
	}
	if *out != "" {
		replay = append(replay, "--output="+*out)
	}
	start := time.Now()
	// The replayed command's --rules are loaded by its own flags.
	if err := c.run(context.WithValue(ctx, sourceKey{}, study.PointSource(merged)), replay, stdout, io.Discard); err != nil {
		return err
	}
	if !*quiet {
		mergeSummary(stderr, h, names, shards, merged, time.Since(start))
	}
	return nil
}

// mergeSummary prints what was merged: the run, then one line per shard.
func mergeSummary(w io.Writer, h study.ShardHeader, names []string, shards []*study.ShardFile, m *study.Merged, el time.Duration) {
	what := h.What
	if h.Kind == "run" {
		what = "plan " + what
	}
	fmt.Fprintf(w, "merge: %d shard%s of 'oddsmith %s' %s, %d %s", len(shards), plural(len(shards)), h.Kind, what, h.Total, h.Unit)
	if t := m.Trials(); t > 0 {
		fmt.Fprintf(w, ", %d trials", t)
	}
	if h.Kind == "sim" {
		fmt.Fprintf(w, ", seed %d", h.Seed)
	}
	fmt.Fprintf(w, " (fingerprint %s), merged in %.2fs\n", h.Fingerprint, el.Seconds())
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for i, s := range shards {
		sh := s.Header
		fmt.Fprintf(tw, "  shard %d/%d\t%s\t%d trials\t%s\n", sh.Shard, sh.Of, study.RangeText(sh.Unit, sh.First, sh.Last), s.Trials(), names[i])
	}
	tw.Flush()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
