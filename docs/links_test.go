package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestLinksResolve: every relative link and image of README.md and
// docs/*.md names a file or directory of the repository, and a link with
// an #anchor into a markdown file (or into the same one) names a heading
// or an <a id> of that file. Links in code blocks and inline code are not
// links; http(s) and mailto links are not checked (no network in tests).
func TestLinksResolve(t *testing.T) {
	docs, err := filepath.Glob("*.md")
	if err != nil || len(docs) < 5 {
		t.Fatalf("docs/*.md: %v (%d files)", err, len(docs))
	}
	files := append([]string{filepath.Join("..", "README.md")}, docs...)
	anchors := map[string]map[string]bool{} // by cleaned path
	anchorsOf := func(path string) (map[string]bool, error) {
		if a, ok := anchors[path]; ok {
			return a, nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		a := markdownAnchors(string(src))
		anchors[path] = a
		return a, nil
	}
	checked := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range markdownLinks(string(src)) {
			target := l.target
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			path, anchor, _ := strings.Cut(target, "#")
			resolved := filepath.Clean(file)
			if path != "" {
				resolved = filepath.Clean(filepath.Join(filepath.Dir(file), filepath.FromSlash(path)))
				if _, err := os.Stat(resolved); err != nil {
					t.Errorf("%s:%d links to %s, which does not exist", file, l.line, target)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(resolved, ".md") {
				t.Errorf("%s:%d links to %s: an anchor into a file that is not markdown", file, l.line, target)
				continue
			}
			a, err := anchorsOf(resolved)
			if err != nil {
				t.Fatal(err)
			}
			if !a[anchor] {
				t.Errorf("%s:%d links to %s, but %s has no heading or <a id> %q", file, l.line, target, resolved, anchor)
			}
		}
	}
	if checked < 30 {
		t.Fatalf("only %d relative links found: are the documents still read?", checked)
	}
	t.Logf("%d links checked", checked)
}

// mdLink is a link or image target, with its line.
type mdLink struct {
	target string
	line   int
}

var (
	linkRe       = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	inlineCodeRe = regexp.MustCompile("`[^`]*`")
	anchorIDRe   = regexp.MustCompile(`<a id="([^"]+)"></a>`)
	headingRe    = regexp.MustCompile(`^#{1,6}\s+(.+?)\s*#*\s*$`)
)

// markdownLinks lists the inline links and images outside code.
func markdownLinks(src string) []mdLink {
	var out []mdLink
	inFence := false
	for i, line := range strings.Split(src, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		line = inlineCodeRe.ReplaceAllString(line, "")
		for _, m := range linkRe.FindAllStringSubmatch(line, -1) {
			out = append(out, mdLink{target: m[1], line: i + 1})
		}
	}
	return out
}

// markdownAnchors lists the anchors of a document: GitHub's anchor of
// every heading outside code (a repeated heading gets -1, -2, …) and
// every <a id="…">.
func markdownAnchors(src string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(src, "\n") {
		for _, m := range anchorIDRe.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		if m := headingRe.FindStringSubmatch(line); m != nil {
			a := headingAnchor(m[1])
			if n := seen[a]; n > 0 {
				out[a+"-"+strconv.Itoa(n)] = true
			} else {
				out[a] = true
			}
			seen[a]++
		}
	}
	return out
}

// headingAnchor is GitHub's anchor of a heading's text: markup and
// punctuation dropped (letters, digits, spaces, hyphens and underscores
// kept), lower case, each space a hyphen.
func headingAnchor(h string) string {
	h = anchorIDRe.ReplaceAllString(h, "")
	h = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`).ReplaceAllString(h, "$1") // a link's text
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// The anchor rules themselves, on headings these documents use.
func TestHeadingAnchor(t *testing.T) {
	for h, want := range map[string]string{
		"if … then … else":                           "if--then--else",
		"Using rules: exact, sim, sweep, run, plans": "using-rules-exact-sim-sweep-run-plans",
		"`solve`: which setting hits the target?":    "solve-which-setting-hits-the-target",
		"Foundry VTT and Roll20":                     "foundry-vtt-and-roll20",
		"What is +1 worth?":                          "what-is-1-worth",
		"grim_drowning — `grim.drowning` (exact)":    "grim_drowning--grimdrowning-exact",
	} {
		if got := headingAnchor(h); got != want {
			t.Errorf("headingAnchor(%q) = %q; want %q", h, got, want)
		}
	}
	a := markdownAnchors("# A\n\n```\n# not a heading\n```\n## A\n<a id=\"x.y\"></a>\n")
	for _, want := range []string{"a", "a-1", "x.y"} {
		if !a[want] {
			t.Errorf("markdownAnchors: no %q in %v", want, a)
		}
	}
	if a["not-a-heading"] {
		t.Error("a # line in a code block was taken for a heading")
	}
}

// TestReadmeTestCommand: .ci/run runs the first line of README.md that
// starts with "go test"; it must be the README's Testing command, not the
// benchmark line printed after it.
func TestReadmeTestCommand(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const want = "go test -race -short ./..."
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "go test") {
			if line != want {
				t.Errorf(".ci/run would run %q from README.md; the Testing line is %q", line, want)
			}
			return
		}
	}
	t.Errorf("README.md has no line starting with \"go test\": .ci/run would run nothing")
}
