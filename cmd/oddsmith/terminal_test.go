package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// hostileText is what a rule file's strings may hold: NUL, an OSC title,
// a screen clear, a hyperlink, a C1 CSI, a right-to-left override.
const hostileText = `a\u0000b\u001b]0;pwned\u0007c\u001b[2J\u001b]8;;http://x\u0007d\u009b31me\u202ef`

// terminalSafe fails the test on any character a terminal would act on:
// controls but newline, C1, bidirectional controls.
func terminalSafe(t *testing.T, what, s string) {
	t.Helper()
	for _, r := range s {
		if r != '\n' && (unicode.IsControl(r) || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069) {
			t.Errorf("%s holds %U: %q", what, r, s)
			return
		}
	}
}

// TestTerminalInjection: list, describe, exact's table and the error line
// print a rule's summary, docs and labels with every control character
// escaped — before, they went out raw: NUL, ESC and OSC sequences reached
// the terminal (issue 27, item 9).
func TestTerminalInjection(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "esc.toml")
	src := `[[rule]]
id = "t.x"
summary = "` + hostileText + `"
doc = "` + hostileText + `"
[rule.params]
q = { default = 1, doc = "` + hostileText + `" }
[rule.bands]
b = { expr = "d2 - 1", labels = ["` + hostileText + `", "x"], doc = "` + hostileText + `" }
[rule.vars]
v = { expr = "d6 + q", doc = "` + hostileText + `" }
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, args := range [][]string{
		{"list", "--rules", file},
		{"describe", "--rules", file, "t.x"},
		{"describe", "--rules", file, "t.x", "--format", "markdown"},
		{"exact", "--rules", file, "t.x"},
		{"sim", "--rules", file, "t.x", "-n", "1000", "-s", "1"},
	} {
		code, out, errs := runCLI(ctx, args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, errs)
			continue
		}
		terminalSafe(t, strings.Join(args[:1], " "), out+errs)
		if args[0] == "list" && !strings.Contains(out, `a\x00b\x1b]0;pwned\x07c\x1b[2J`) {
			t.Errorf("list: the summary is not shown escaped:\n%s", out)
		}
	}
	// An error that holds a newline and an escape (here in the file's
	// name) stays one line, escaped.
	bad := filepath.Join(dir, "x\x1b[2J\ny.toml")
	if err := os.WriteFile(bad, []byte("[[rule]]\nid = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(ctx, "exact", "--rules", bad, "t.x")
	want := `x\x1b[2J\ny.toml:2: rule 1: id must be a string in quotes, not a whole number`
	if code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, %q; want one line with %q", code, errs, want)
	}
	terminalSafe(t, "the error", strings.TrimSuffix(errs, "\n"))
}
