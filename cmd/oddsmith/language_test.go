package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The designers' language is documented by examples that are run: every
// example of the documents in languageDocs (docs/language.md,
// docs/translating.md, docs/tuning.md and the README's tour) runs here, and
// its output must be the one printed in the document.
//
// The convention, in the markdown:
//
//   - A ```toml block whose info string holds file=NAME (```toml file=house.toml)
//     is a file: it is written to NAME in the document's working directory
//     (a fresh temporary directory), where the commands after it run; the
//     repository's examples/ is there too, so examples/rules/… can be read.
//   - A ```sh block whose first line begins with "$ " holds commands, each
//     on a line "$ oddsmith ARGS" (or "$ cat FILE"), followed by what it
//     prints: stdout, then stderr, then "[exit N]" when the exit status is
//     not 0. Arguments are split as a shell would ('…' and "…" quotes,
//     backslashes); a line ending in " \" goes on on the next line.
//   - A line "…" in the expected output stands for any number of lines
//     (none included); the other lines must equal the output's lines
//     exactly (trailing spaces aside), in order, from the first line to
//     the last.
//
// Blocks of any other kind (```text, ```toml without file=) are
// illustrations and are not run.
var languageDocs = []string{"docs/language.md", "docs/translating.md", "docs/tuning.md", "README.md"}

// isLanguageDoc reports whether rel (a path from the repository root) is
// one of languageDocs.
func isLanguageDoc(rel string) bool {
	return slices.Contains(languageDocs, filepath.ToSlash(rel))
}

// docStep is one file to write or one command to run.
type docStep struct {
	line    int    // of the markdown, for messages
	file    string // a file to write …
	content string // … with this content
	cmd     string // or a command line (without "$ ")
	want    []string
}

// parseDocSteps reads the files and commands of a markdown document, in
// order.
func parseDocSteps(src string) ([]docStep, error) {
	lines := strings.Split(src, "\n")
	var steps []docStep
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "```") {
			continue
		}
		info := strings.Fields(strings.TrimPrefix(l, "```"))
		start := i + 1
		end := start
		for end < len(lines) && strings.TrimSpace(lines[end]) != "```" {
			end++
		}
		if end == len(lines) {
			return nil, fmt.Errorf("line %d: the code block is not closed", i+1)
		}
		body := lines[start:end]
		i = end
		if len(info) == 0 {
			continue
		}
		switch info[0] {
		case "toml":
			for _, w := range info[1:] {
				if name, ok := strings.CutPrefix(w, "file="); ok {
					if name == "" || strings.ContainsAny(name, `/\`) {
						return nil, fmt.Errorf("line %d: file=%q must be a plain file name", i+1, name)
					}
					steps = append(steps, docStep{line: start, file: name, content: strings.Join(body, "\n") + "\n"})
				}
			}
		case "sh":
			if len(body) == 0 || !strings.HasPrefix(body[0], "$ ") {
				for j, b := range body {
					if strings.HasPrefix(b, "$ ") {
						return nil, fmt.Errorf("line %d: a sh block with commands must begin with one", start+j+1)
					}
				}
				continue
			}
			for j := 0; j < len(body); j++ {
				if !strings.HasPrefix(body[j], "$ ") {
					steps[len(steps)-1].want = append(steps[len(steps)-1].want, body[j])
					continue
				}
				st := docStep{line: start + j + 1, cmd: strings.TrimPrefix(body[j], "$ ")}
				for strings.HasSuffix(st.cmd, " \\") && j+1 < len(body) {
					j++
					st.cmd = strings.TrimSuffix(st.cmd, "\\") + strings.TrimSpace(body[j])
				}
				steps = append(steps, st)
			}
		}
	}
	return steps, nil
}

// shellWords splits a command line as sh would (quotes and backslashes;
// no variables, globs or pipes).
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed ' in %s", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, fmt.Errorf("unclosed \" in %s", s)
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case strings.IndexByte("|&;<>$`*?", c) >= 0:
			return nil, fmt.Errorf("%q needs a shell: quote it (%s)", c, s)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// outputLines is text as lines, without trailing spaces or final empty
// lines.
func outputLines(s string) []string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// matchLines reports whether got matches the pattern want, where a line
// "…" matches any run of lines.
func matchLines(want, got []string) bool {
	// ok[i][j]: want[i:] matches got[j:].
	ok := make([][]bool, len(want)+1)
	for i := range ok {
		ok[i] = make([]bool, len(got)+1)
	}
	ok[len(want)][len(got)] = true
	for i := len(want) - 1; i >= 0; i-- {
		for j := len(got); j >= 0; j-- {
			if want[i] == "…" {
				ok[i][j] = ok[i+1][j] || (j < len(got) && ok[i][j+1])
			} else {
				ok[i][j] = j < len(got) && want[i] == got[j] && ok[i+1][j+1]
			}
		}
	}
	return ok[0][0]
}

// runDocCommand runs one command of a document in the current directory.
func runDocCommand(ctx context.Context, cmd string) (string, error) {
	words, err := shellWords(cmd)
	if err != nil {
		return "", err
	}
	if len(words) == 0 {
		return "", fmt.Errorf("empty command")
	}
	switch words[0] {
	case "cat":
		var b strings.Builder
		for _, f := range words[1:] {
			data, err := os.ReadFile(f)
			if err != nil {
				return "", err
			}
			b.Write(data)
		}
		return b.String(), nil
	case "oddsmith":
		var o, e bytes.Buffer
		code := run(ctx, words[1:], &o, &e)
		out := o.String() + e.String()
		if code != 0 {
			if out != "" && !strings.HasSuffix(out, "\n") {
				out += "\n"
			}
			out += fmt.Sprintf("[exit %d]\n", code)
		}
		return out, nil
	}
	return "", fmt.Errorf("only oddsmith and cat commands are run, not %q", words[0])
}

// TestLanguageDocs runs every example of the language documents and
// compares its output with the one printed.
func TestLanguageDocs(t *testing.T) {
	ctx := context.Background()
	examples, err := filepath.Abs(filepath.Join(repoRoot, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range languageDocs {
		t.Run(strings.TrimSuffix(filepath.Base(name), ".md"), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(repoRoot, name))
			if err != nil {
				t.Fatal(err)
			}
			steps, err := parseDocSteps(string(src))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			cmds := 0
			for _, s := range steps {
				if s.cmd != "" {
					cmds++
				}
			}
			least := 10 // a guide shows many; the README's short tour fewer
			if name == "README.md" {
				least = 5
			}
			if cmds < least {
				t.Fatalf("%s: only %d commands found: is the convention (```sh blocks beginning with \"$ \") still followed?", name, cmds)
			}
			t.Chdir(t.TempDir())
			if err := os.Symlink(examples, "examples"); err != nil {
				t.Fatal(err)
			}
			for _, s := range steps {
				if s.file != "" {
					if err := os.WriteFile(s.file, []byte(s.content), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				out, err := runDocCommand(ctx, s.cmd)
				if err != nil {
					t.Errorf("%s:%d: %s: %v", name, s.line, s.cmd, err)
					continue
				}
				got := outputLines(out)
				want := outputLines(strings.Join(s.want, "\n"))
				if !matchLines(want, got) {
					t.Errorf("%s:%d: $ %s\nthe document says:\n%s\nbut the command prints:\n%s",
						name, s.line, s.cmd, strings.Join(want, "\n"), strings.Join(got, "\n"))
				}
			}
		})
	}
}

// The checker itself: "…" spans lines, other lines must be equal, and a
// wrong number is caught.
func TestLanguageDocsMatcher(t *testing.T) {
	t.Parallel()
	got := []string{"a", "b", "c", "d"}
	for _, c := range []struct {
		want []string
		ok   bool
	}{
		{[]string{"a", "b", "c", "d"}, true},
		{[]string{"a", "…", "d"}, true},
		{[]string{"…", "c", "…"}, true},
		{[]string{"…"}, true},
		{[]string{"a", "…", "b", "c", "d"}, true},
		{[]string{"a", "c", "d"}, false},
		{[]string{"a", "b", "c"}, false},
		{[]string{"…", "x", "…"}, false},
		{[]string{"b", "…"}, false},
	} {
		if matchLines(c.want, got) != c.ok {
			t.Errorf("matchLines(%q, %q) = %v", c.want, got, !c.ok)
		}
	}
	steps, err := parseDocSteps("text\n```toml file=r.toml\nx = 1\n```\n```sh\n$ oddsmith exact --expr 'd6 + \\\n  1'\n…\nvalue  1\n$ cat r.toml\nx = 1\n```\n```sh\ngo test ./...\n```\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 3 || steps[0].file != "r.toml" || steps[0].content != "x = 1\n" || steps[1].cmd != "oddsmith exact --expr 'd6 + 1'" ||
		strings.Join(steps[1].want, "|") != "…|value  1" || steps[2].cmd != "cat r.toml" {
		t.Errorf("parseDocSteps: %+v", steps)
	}
	if _, err := parseDocSteps("```sh\n# a comment\n$ oddsmith list\n```\n"); err == nil {
		t.Error("a sh block with a command after other text was accepted")
	}
	words, err := shellWords(`oddsmith exact --expr '4d6kh3 >= tn' --set "tn=1\"2" a\ b`)
	if err != nil || strings.Join(words, "|") != `oddsmith|exact|--expr|4d6kh3 >= tn|--set|tn=1"2|a b` {
		t.Errorf("shellWords: %q, %v", words, err)
	}
	if _, err := shellWords("oddsmith exact --expr 4d6 | head"); err == nil {
		t.Error("a pipe was accepted")
	}
	// A document with a wrong number fails.
	out, err := runDocCommand(context.Background(), "oddsmith exact --expr '4d6kh3'")
	if err != nil {
		t.Fatal(err)
	}
	right := []string{"…", "value     12.2446  2.8468  3    7   10   12   14   17   18", "…"}
	wrong := []string{"…", "value     12.2447  2.8468  3    7   10   12   14   17   18", "…"}
	if !matchLines(right, outputLines(out)) || matchLines(wrong, outputLines(out)) {
		t.Errorf("4d6kh3: the right line is not found or a wrong one is:\n%s", out)
	}
}
