package main

import (
	"context"
	"strings"
	"testing"
)

// TestReadingsWarnOrRefuse: on every command that takes --expr, a form
// that Roll20, Foundry or rpg-dice-roller reads otherwise (3d6>3: a total
// here, a count of dice in Roll20) is said on stderr, one line each, and
// --strict makes it bad input (issue 26, item 2); a form every tool reads
// alike passes silently either way.
func TestReadingsWarnOrRefuse(t *testing.T) {
	t.Parallel()
	const reading = "3d6>tn: here the total compared with tn; Roll20 counts the dice of at least tn (3d6#>=(tn) here), rpg-dice-roller the dice over tn (3d6#>(tn)) — write (3d6) > tn for the total"
	for _, c := range []struct {
		name         string
		loud, silent []string
	}{
		{"exact", []string{"exact", "--expr", "3d6>tn", "--set", "tn=10"}, []string{"exact", "--expr", "(3d6) > tn", "--set", "tn=10"}},
		{"sim", []string{"sim", "--expr", "3d6>tn", "-n", "2000", "-q"}, []string{"sim", "--expr", "3d6 > tn", "-n", "2000", "-q"}},
		{"describe", []string{"describe", "--expr", "3d6>tn"}, []string{"describe", "--expr", "3d6 > tn"}},
		{"sweep", []string{"sweep", "--expr", "3d6>tn", "--vary", "tn=3..5", "-q"}, []string{"sweep", "--expr", "3d6 > tn", "--vary", "tn=3..5", "-q"}},
		{"solve", []string{"solve", "--expr", "3d6>tn", "--vary", "tn=3..18", "--target", "event:success=0.5", "-q"},
			[]string{"solve", "--expr", "3d6 > tn", "--vary", "tn=3..18", "--target", "event:success=0.5", "-q"}},
		{"compare", []string{"compare", "--expr", "3d6 > tn", "--", "--expr", "3d6>tn", "--set", "tn=4"},
			[]string{"compare", "--expr", "3d6 > tn", "--", "--set", "tn=4"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, _, stderr := runCLI(context.Background(), c.loud...)
			if code != 0 || !strings.Contains(stderr, "oddsmith: warning: --expr: line 1, column 4: "+reading+"\n") {
				t.Errorf("%v: exit %d, stderr %q; want the warning", c.loud, code, stderr)
			}
			code, stdout, stderr := runCLI(context.Background(), append(c.loud, "--strict")...)
			want := "oddsmith: --expr: line 1, column 4: " + reading + " (--strict refuses what another dice tool reads otherwise)\n"
			if code != 2 || stdout != "" || stderr != want {
				t.Errorf("%v --strict: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.loud, code, stdout, stderr, want)
			}
			for _, args := range [][]string{c.silent, append(c.silent, "--strict")} {
				if code, _, stderr := runCLI(context.Background(), args...); code != 0 || strings.Contains(stderr, "--expr") {
					t.Errorf("%v: exit %d, stderr %q; want no word about the expression", args, code, stderr)
				}
			}
		})
	}
}

// TestStrictCountsEveryReading: --strict names the first reading and how
// many more there are, on one line.
func TestStrictCountsEveryReading(t *testing.T) {
	t.Parallel()
	code, _, stderr := runCLI(context.Background(), "exact", "--expr", "10d10cs>=7cf1", "--strict")
	if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "(and 1 more) (--strict") || !strings.HasPrefix(stderr, "oddsmith: --expr: line 1, column 6: 10d10cs>=7cf1: cs>=7 counts") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCLI(context.Background(), "exact", "--expr", "10d10cs>=7cf1")
	if code != 0 || strings.Count(stderr, "oddsmith: warning: --expr: ") != 2 {
		t.Errorf("exit %d, stderr %q; want two warnings", code, stderr)
	}
}

// TestReadingsLeaveBadInputOneLine: a command that fails says one line,
// why; its warnings are for a result.
func TestReadingsLeaveBadInputOneLine(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"exact", "--expr", "d6r<=6"},
		{"exact", "--expr", "3d6>3", "--set", "tm=3"},
		{"sim", "--expr", "5d10!k2", "-n", "0"},
	} {
		code, _, stderr := runCLI(context.Background(), args...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || strings.Contains(stderr, "warning") {
			t.Errorf("%v: exit %d, stderr %q; want one line", args, code, stderr)
		}
	}
}
