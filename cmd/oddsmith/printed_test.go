package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/oddsmith/oddsmith/systems"
)

// Every command oddsmith prints for a designer to run — in `describe`
// (its Example line and any `oddsmith …` in a mechanic's texts, for every
// built-in mechanic), in docs/*.md and in README.md — runs and exits 0.
// They run in-process through run, the program's entry point:
//
//   - in a fresh directory per document (or per mechanic), where the
//     document's ```toml file=NAME blocks are written as they come, so
//     that a command reads the files the document made before it;
//   - a relative path that names a file of that directory, or else of the
//     repository (examples/tour.toml), is given as that file; a glob
//     (skill.*.shard) is expanded there; -o and a shell's "> FILE" write
//     into the directory;
//   - a shard command runs every shard of its K (the document shows shard
//     0 "and 1/4, 2/4, 3/4"; auto/K plays the scheduler, giving $VAR and
//     auto the index), so that the merge after it has them all;
//   - simulated trials are capped (a printed -n 4000000000 is not run as
//     such): at simTrialsCap, and under -short at shortTrialsCap, which is
//     the cheap form every command still runs in;
//   - a synopsis with placeholders (`oddsmith describe ID`, `-o DIR`,
//     `[--set k=v]…`, `<id>`, `compare A -- B`) is a usage line, not a command, and is not
//     run; `oddsmith CMD` alone names a command and runs as CMD --help;
//   - 'oddsmith serve' runs until a signal: it gets SIGINT at once and
//     must exit 130, having read its flags and files and listened;
//   - the shell blocks of the languageDocs (docs/language.md,
//     docs/translating.md, docs/tuning.md, README.md) whose lines begin
//     with "$ " are run, with the output they print, by TestLanguageDocs
//     (some of them exit 2 on purpose), not here.
//
// Nothing is skipped otherwise: the list below holds the printed commands
// known to fail today, each with its reason, for their owners to fix; a
// command of the list that runs, or that is no longer printed, fails the
// test so that the list only shrinks.

// simTrialsCap and shortTrialsCap bound the trials of a printed
// simulation (and of a simulated sweep's points).
const (
	simTrialsCap   = 1_000_000
	shortTrialsCap = 2_000
)

// knownFailures are printed commands that do not run today, by where they
// are printed and the command's start, with the reason: none now. A printed
// command that fails is fixed, not listed, unless its owner cannot fix it
// in the same change.
var knownFailures = []struct{ where, prefix, why string }{}

// printedStep is one thing a document does, in order: a file it writes
// or a command it prints.
type printedStep struct {
	where   string // "README.md:42", "describe bd.skirmish"
	file    string // a ```toml file=NAME block …
	content string
	cmd     string // … or a command as printed (after "$ " and "go run ./cmd/")
	stdout  string // the file "> FILE" sends stdout to
}

var (
	// A command starts at "oddsmith" (or "go run ./cmd/oddsmith") followed
	// by a word.
	commandStart = regexp.MustCompile(`(?:go run \./cmd/)?\boddsmith ([a-z]|--?[a-z])`)
	// placeholder marks a synopsis: a usage line, not a command.
	placeholder = regexp.MustCompile(`…|\.\.\.|\[|\]|<[a-z]|\b(ID|IDS|DIR|FILE|FILES|SHARD|PLAN|TRIALS|SIZE|EXPR|NAME|VALUE|VAR|SEED|COMMAND|ARGS)\b|\bi/K\b|\bk=v\b|name=value|\ba\.\.b\b|(?:^|\s)[A-Z](?:\s|$)`)
	inlineCode  = regexp.MustCompile("`([^`]+)`")
)

// commandsIn finds the commands printed in a line of text (a code line, an
// inline code span, a sentence of describe): from each "oddsmith" to the
// end of the line, a comment ("# = oddsmith …" is a command of its own),
// or, in prose, the end of the sentence.
func commandsIn(s string, prose bool) []string {
	var out []string
	for {
		loc := commandStart.FindStringIndex(s)
		if loc == nil {
			return out
		}
		cmd := s[loc[0]:]
		rest := ""
		if prose {
			if i := sentenceEnd.FindStringIndex(cmd); i != nil {
				cmd, rest = cmd[:i[0]], cmd[i[0]:]
			}
		} else if i := unquotedIndex(cmd, " #"); i >= 0 {
			// A comment is prose.
			cmd, rest = cmd[:i], cmd[i+2:]
			prose = true
		}
		out = append(out, strings.TrimSpace(strings.TrimPrefix(cmd, "go run ./cmd/")))
		s = rest
	}
}

// sentenceEnd ends a command printed in prose.
var sentenceEnd = regexp.MustCompile(`[.;,)](\s|$)`)

// unquotedIndex is the index of sub in s outside quotes, or −1.
func unquotedIndex(s, sub string) int {
	var q byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		case strings.HasPrefix(s[i:], sub):
			return i
		}
	}
	return -1
}

// printedInMarkdown lists what a document does: its file blocks and every
// command in its code blocks and inline code. With runByLanguageDocs, the
// "$ " shell blocks (TestLanguageDocs runs them) are left out.
func printedInMarkdown(name, src string, runByLanguageDocs bool) []printedStep {
	var steps []printedStep
	lines := strings.Split(src, "\n")
	var para []string // prose lines, for inline code that spans lines
	paraLine := 0
	flush := func() {
		text := strings.Join(para, "\n")
		for _, m := range inlineCode.FindAllStringSubmatch(text, -1) {
			code := strings.Join(strings.Fields(m[1]), " ")
			if strings.HasPrefix(code, "oddsmith ") || strings.HasPrefix(code, "go run ./cmd/oddsmith ") {
				for _, c := range commandsIn(code, false) {
					steps = append(steps, printedStep{where: fmt.Sprintf("%s:%d", name, paraLine), cmd: c})
				}
			}
		}
		para = nil
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "```") {
			if strings.TrimSpace(l) == "" {
				flush()
			} else {
				if len(para) == 0 {
					paraLine = i + 1
				}
				para = append(para, l)
			}
			continue
		}
		flush()
		info := strings.Fields(strings.TrimPrefix(l, "```"))
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != "```" {
			end++
		}
		body := lines[i+1 : min(end, len(lines))]
		start := i + 1
		i = end
		if len(info) > 0 && info[0] == "toml" {
			for _, w := range info[1:] {
				if f, ok := strings.CutPrefix(w, "file="); ok {
					steps = append(steps, printedStep{where: fmt.Sprintf("%s:%d", name, start), file: f, content: strings.Join(body, "\n") + "\n"})
				}
			}
			continue
		}
		if runByLanguageDocs && len(info) > 0 && info[0] == "sh" && len(body) > 0 && strings.HasPrefix(body[0], "$ ") {
			continue
		}
		for j := 0; j < len(body); j++ {
			line := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(body[j]), "$ "))
			at := start + j + 1
			for strings.HasSuffix(line, "\\") && j+1 < len(body) {
				j++
				line = strings.TrimSpace(strings.TrimSuffix(line, "\\")) + " " + strings.TrimSpace(body[j])
			}
			if !strings.HasPrefix(line, "oddsmith ") && !strings.HasPrefix(line, "go run ./cmd/oddsmith ") && !strings.Contains(line, "# = oddsmith") {
				continue
			}
			for _, c := range commandsIn(line, false) {
				st := printedStep{where: fmt.Sprintf("%s:%d", name, at), cmd: c}
				if k := unquotedIndex(c, " > "); k >= 0 {
					st.cmd, st.stdout = strings.TrimSpace(c[:k]), strings.TrimSpace(c[k+3:])
				}
				steps = append(steps, st)
			}
		}
	}
	flush()
	return steps
}

// printedWords splits a command as sh would (quotes, backslashes), giving
// $VAR and ${VAR} outside single quotes the value vars gives, and marks
// the words with an unquoted glob character.
func printedWords(s string, vars func(string) string) (words []string, glob []bool, err error) {
	var cur strings.Builder
	in, g := false, false
	end := func() {
		if in {
			words, glob = append(words, cur.String()), append(glob, g)
		}
		cur.Reset()
		in, g = false, false
	}
	variable := func(i int) (string, int) {
		j := i + 1
		if j < len(s) && s[j] == '{' {
			k := strings.IndexByte(s[j:], '}')
			if k < 0 {
				return "$", i
			}
			return vars(s[j+1 : j+k]), j + k
		}
		for j < len(s) && (s[j] == '_' || 'A' <= s[j] && s[j] <= 'Z' || 'a' <= s[j] && s[j] <= 'z' || '0' <= s[j] && s[j] <= '9') {
			j++
		}
		if j == i+1 {
			return "$", i
		}
		return vars(s[i+1 : j]), j - 1
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
			end()
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, nil, fmt.Errorf("unclosed ' in %s", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case c == '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				switch {
				case s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0:
					i++
					cur.WriteByte(s[i])
				case s[i] == '$':
					v, at := variable(i)
					cur.WriteString(v)
					i = at
				default:
					cur.WriteByte(s[i])
				}
			}
			if i == len(s) {
				return nil, nil, fmt.Errorf("unclosed \" in %s", s)
			}
			in = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		case c == '$':
			v, at := variable(i)
			cur.WriteString(v)
			i, in = at, true
		case strings.IndexByte("|&;<>`", c) >= 0:
			return nil, nil, fmt.Errorf("%q needs a shell (%s)", c, s)
		default:
			if c == '*' || c == '?' {
				g = true
			}
			cur.WriteByte(c)
			in = true
		}
	}
	end()
	return words, glob, nil
}

// printedRun is one run of a printed command: its arguments as run.
type printedRun struct {
	args   []string
	stdout string // a file of the directory, or "" for none
}

// resolve turns a printed command into the runs that carry it out in dir
// (see the comment at the top): shards expanded, paths resolved, trials
// capped. A word placeholder says it is a synopsis (nil, nil).
func resolve(cmd, stdout, dir, root string, trialsCap int64) ([]printedRun, error) {
	if placeholder.MatchString(cmd) {
		return nil, nil
	}
	first, _, err := printedWords(cmd, func(string) string { return "0" })
	if err != nil {
		return nil, err
	}
	if len(first) < 2 || first[0] != "oddsmith" {
		return nil, fmt.Errorf("not an oddsmith command")
	}
	if len(first) == 2 && !strings.HasPrefix(first[1], "-") {
		return []printedRun{{args: []string{first[1], "--help"}}}, nil // the name of a command
	}
	// Shards: every index of K, the printed index's number in the output
	// name replaced, auto's variables given the index.
	shards, printed := 1, ""
	for i, w := range first {
		if (w == "--shard") && i+1 < len(first) {
			is, ks, _ := strings.Cut(first[i+1], "/")
			k, err := strconv.Atoi(ks)
			if err != nil {
				return nil, fmt.Errorf("shard %q", first[i+1])
			}
			shards, printed = k, is
		}
	}
	var runs []printedRun
	for j := range shards {
		index := strconv.Itoa(j)
		words, glob, err := printedWords(cmd, func(string) string { return index })
		if err != nil {
			return nil, err
		}
		var args []string
		sim := words[1] == "sim" || slices.Contains(words, "--engine=sim") || (slices.Contains(words, "sim") && slices.Contains(words, "--engine"))
		hasTrials := false
		for i := 1; i < len(words); i++ {
			w := words[i]
			switch {
			case (w == "-o" || w == "--output") && i+1 < len(words):
				out := words[i+1]
				if shards > 1 && printed != "auto" {
					out = regexp.MustCompile(`(^|\D)`+printed+`(\D|$)`).ReplaceAllString(out, "${1}"+index+"${2}")
				}
				args = append(args, w, inDir(dir, out))
				i++
			case w == "--shard" && i+1 < len(words):
				_, ks, _ := strings.Cut(words[i+1], "/")
				args = append(args, w, index+"/"+ks)
				i++
			case (w == "-n" || w == "--trials") && i+1 < len(words):
				n, err := strconv.ParseInt(words[i+1], 10, 64)
				if err != nil {
					return nil, fmt.Errorf("trials %q", words[i+1])
				}
				args = append(args, w, strconv.FormatInt(min(n, trialsCap), 10))
				hasTrials = true
				i++
			case glob[i]:
				matches, _ := filepath.Glob(filepath.Join(dir, w))
				if len(matches) == 0 {
					matches, _ = filepath.Glob(filepath.Join(root, w))
				}
				if len(matches) == 0 {
					return nil, fmt.Errorf("%s matches no file", w)
				}
				args = append(args, matches...)
			default:
				args = append(args, existing(w, dir, root))
			}
		}
		if sim && !hasTrials {
			args = append(args, "-n", strconv.FormatInt(trialsCap, 10))
		}
		r := printedRun{args: args}
		if stdout != "" {
			r.stdout = inDir(dir, stdout)
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// inDir is a path written by a command: relative ones go into dir.
func inDir(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// existing is w as a file of dir or else of the repository when it names
// one (also as the value of --flag=w); any other word as it is.
func existing(w, dir, root string) string {
	prefix, v := "", w
	if strings.HasPrefix(w, "--") {
		f, val, ok := strings.Cut(w, "=")
		if !ok {
			return w
		}
		prefix, v = f+"=", val
	}
	if v == "" || filepath.IsAbs(v) || strings.HasPrefix(v, "-") {
		return w
	}
	for _, base := range []string{dir, root} {
		if st, err := os.Stat(filepath.Join(base, v)); err == nil && !st.IsDir() {
			return prefix + filepath.Join(base, v)
		}
	}
	return w
}

// repoRoot is the repository, from this package's directory.
var repoRoot = filepath.Join("..", "..")

// printedSources lists every document and mechanic that prints commands,
// with what each does, in order. A command that depends on no file (the
// describe texts) is listed once, where it is printed first.
func printedSources(t *testing.T) map[string][]printedStep {
	t.Helper()
	sources := map[string][]printedStep{}
	seen := map[string]bool{}
	for _, m := range systems.Default.All() {
		code, d, errOut := runCLI(context.Background(), "describe", m.ID)
		if code != 0 {
			t.Fatalf("describe %s: exit %d: %s", m.ID, code, errOut)
		}
		where := "describe " + m.ID
		for _, line := range strings.Split(d, "\n") {
			for _, c := range commandsIn(line, true) {
				if !seen[c] {
					seen[c] = true
					sources[where] = append(sources[where], printedStep{where: where, cmd: c})
				}
			}
		}
	}
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil || len(docs) < 4 {
		t.Fatalf("docs/*.md: %v (%d files)", err, len(docs))
	}
	for _, path := range append(docs, filepath.Join(repoRoot, "README.md")) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(repoRoot, path)
		var steps []printedStep
		for _, st := range printedInMarkdown(name, string(src), isLanguageDoc(name)) {
			if name == filepath.Join("docs", "mechanics.md") && st.cmd != "" {
				// The reference is describe's text (TestReferenceUpToDate):
				// its commands are those run above.
				if seen[st.cmd] {
					continue
				}
				seen[st.cmd] = true
			}
			steps = append(steps, st)
		}
		sources[name] = steps
	}
	return sources
}

func TestPrintedCommandsRun(t *testing.T) {
	t.Parallel()
	trialsCap := int64(simTrialsCap)
	if testing.Short() {
		trialsCap = shortTrialsCap
	}
	sources := printedSources(t)
	commands := 0
	known := map[int]bool{} // knownFailures met
	for _, st := range sources {
		for _, s := range st {
			if s.cmd != "" {
				commands++
			}
		}
	}
	if commands < 100 {
		t.Fatalf("only %d printed commands found: are the documents still read?", commands)
	}
	type outcome struct {
		known int // index in knownFailures, or −1
		ok    bool
	}
	results := make(chan outcome, commands)
	t.Run("sources", func(t *testing.T) {
		for name, steps := range sources {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				for _, st := range steps {
					if st.file != "" {
						if err := os.WriteFile(filepath.Join(dir, st.file), []byte(st.content), 0o644); err != nil {
							t.Fatal(err)
						}
						continue
					}
					k := slices.IndexFunc(knownFailures, func(f struct{ where, prefix, why string }) bool {
						return f.where == st.where && strings.HasPrefix(st.cmd, f.prefix)
					})
					err := runPrinted(t.Context(), st, dir, trialsCap)
					results <- outcome{k, err == nil}
					switch {
					case err != nil && k < 0:
						t.Errorf("%s: %s\n  %v", st.where, st.cmd, err)
					case err == nil && k >= 0:
						t.Errorf("%s: %s runs now: remove it from knownFailures", st.where, st.cmd)
					case err != nil:
						t.Logf("%s: %s fails, as knownFailures says (%s): %v", st.where, st.cmd, knownFailures[k].why, err)
					}
				}
			})
		}
	})
	close(results)
	for r := range results {
		if r.known >= 0 {
			known[r.known] = true
		}
	}
	for i, f := range knownFailures {
		if !known[i] {
			t.Errorf("knownFailures lists %q at %s, which is no longer printed: remove it", f.prefix, f.where)
		}
	}
}

// runPrinted runs one printed command in dir; an error says how it failed.
func runPrinted(ctx context.Context, st printedStep, dir string, trialsCap int64) error {
	runs, err := resolve(st.cmd, st.stdout, dir, repoRoot, trialsCap)
	if err != nil {
		return err
	}
	for _, r := range runs {
		var out io.Writer = io.Discard
		var buf bytes.Buffer
		if r.stdout != "" {
			out = &buf
		}
		var errOut bytes.Buffer
		if len(r.args) > 0 && r.args[0] == "serve" && !slices.Contains(r.args, "--help") {
			// A server runs until a signal: it is given one at once, so
			// that its flags and files are read, it listens and it stops
			// (130), opening no browser.
			stopped, cancel := context.WithCancelCause(ctx)
			cancel(signalled{syscall.SIGINT})
			if code := run(stopped, r.args, out, &errOut); code != exitInterrupted {
				return fmt.Errorf("oddsmith %s: exit %d, not %d after SIGINT: %s", strings.Join(r.args, " "), code, exitInterrupted, strings.TrimSpace(errOut.String()))
			}
			continue
		}
		if code := run(ctx, r.args, out, &errOut); code != 0 {
			return fmt.Errorf("oddsmith %s: exit %d: %s", strings.Join(r.args, " "), code, strings.TrimSpace(errOut.String()))
		}
		if r.stdout != "" {
			if err := os.WriteFile(r.stdout, buf.Bytes(), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// The reader and the runner themselves: commands are found in code
// blocks, comments, inline code across lines and prose; files, synopses,
// shards, globs, redirections and trial caps are handled; and a command
// that fails is reported.
func TestPrintedCommandsReader(t *testing.T) {
	t.Parallel()
	md := "Run `oddsmith sweep x.y --vary a=1..2\n-o out` or `oddsmith describe ID`; `oddsmith list` lists.\n\n" +
		"```toml file=r.toml\n[[rule]]\n```\n" +
		"```sh\n$ oddsmith exact --expr 'd6 #1' # = oddsmith sim --expr d6 > s.txt\noutput line\n  oddsmith sim a.b -n 5000000 \\\n  --shard 0/2 -o p.0.shard\n```\n"
	steps := printedInMarkdown("t.md", md, false)
	var got []string
	for _, s := range steps {
		if s.file != "" {
			got = append(got, "file "+s.file)
			continue
		}
		got = append(got, s.cmd+" > "+s.stdout)
	}
	want := []string{"oddsmith sweep x.y --vary a=1..2 -o out > ", "oddsmith describe ID > ", "oddsmith list > ", "file r.toml",
		"oddsmith exact --expr 'd6 #1' > ", "oddsmith sim --expr d6 > s.txt", "oddsmith sim a.b -n 5000000 --shard 0/2 -o p.0.shard > "}
	if !slices.Equal(got, want) {
		t.Errorf("read\n%q\nwant\n%q", got, want)
	}
	if got := commandsIn("or sweep the mean: oddsmith sweep gm.x --vary s0=-4..4 --metric mean:t. With more", true); !slices.Equal(got, []string{"oddsmith sweep gm.x --vary s0=-4..4 --metric mean:t"}) {
		t.Errorf("prose: %q", got)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		cmd  string
		runs []string
	}{
		{"oddsmith describe ID", nil},
		{"oddsmith compare A -- B", nil},
		{"oddsmith sim", []string{"sim --help"}},
		{"oddsmith sim a.b -n 5000000 --shard 0/2 -o p.0.shard", []string{"sim a.b -n 2000 --shard 0/2 -o DIR/p.0.shard", "sim a.b -n 2000 --shard 1/2 -o DIR/p.1.shard"}},
		{"oddsmith run examples/tour.toml --shard auto/2 -o t.$SLURM_ARRAY_TASK_ID.shard", []string{"run ROOT/examples/tour.toml --shard 0/2 -o DIR/t.0.shard", "run ROOT/examples/tour.toml --shard 1/2 -o DIR/t.1.shard"}},
		{"oddsmith sim x.y", []string{"sim x.y -n 2000"}},
	} {
		runs, err := resolve(c.cmd, "", dir, repoRoot, shortTrialsCap)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range runs {
			s := strings.Join(r.args, " ")
			s = strings.ReplaceAll(strings.ReplaceAll(s, dir, "DIR"), repoRoot, "ROOT")
			got = append(got, s)
		}
		if !slices.Equal(got, c.runs) {
			t.Errorf("%s: runs %q; want %q", c.cmd, got, c.runs)
		}
	}
	// The shards of a printed simulation merge; a command that fails, or
	// a glob that matches nothing, is reported.
	for _, c := range []struct {
		cmd string
		ok  bool
	}{
		{"oddsmith sim ag.skill_test -n 3000 -s 1 --shard 0/3 -o s.0.shard", true},
		{"oddsmith merge s.*.shard -o merged.txt", true},
		{"oddsmith sweep ag.skill_test --vary skill=0..2", true},
		{"oddsmith sweep ag.skill_test --vary skill=0..2 --metric event:nothing", false},
		{"oddsmith merge nothing.*.shard", false},
		{"oddsmith exact ag.skill_test --set skill=99", false},
	} {
		if err := runPrinted(t.Context(), printedStep{cmd: c.cmd}, dir, shortTrialsCap); (err == nil) != c.ok {
			t.Errorf("%s: error %v; want ok = %v", c.cmd, err, c.ok)
		}
	}
}
