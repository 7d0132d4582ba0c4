package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPercentFlag: --percent prints the tables of exact, sim, sweep and
// compare in percentages (93.98%, changes in percentage points), and is
// refused, one line and exit 2, where it has no text table to shape.
func TestPercentFlag(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"exact", "ag.skill_test", "--set", "skill=3", "--percent"}, []string{`(?m)^success +93\.98% +203/216$`, `(?m)^fumble_and_success +0% +0$`, `(?m)^-2 +0\.46% +0\.46% +100% +1/216$`}},
		{[]string{"sim", "ag.skill_test", "--set", "skill=3", "-n", "1000", "-q", "--percent"}, []string{`(?m)^success +\d+\.\d\d% +\[\d+\.\d\d%, \d+\.\d\d%\]$`}},
		{[]string{"sweep", "--expr", "d20 + bonus >= 15", "--vary", "bonus=0..2", "--delta", "bonus", "-q", "--percent"}, []string{`(?m)^0 +30\.00% +\+5\.00 pp$`, `(?m)^2 +40\.00% +-$`}},
		{[]string{"compare", "ag.skill_test", "--set", "skill=3", "--", "--set", "tn=6", "--percent"}, []string{`(?m)^success +P +93\.98% +79\.63% +-14\.35 pp$`}},
	} {
		code, out, errOut := runCLI(ctx, c.args...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", strings.Join(c.args, " "), code, errOut)
			continue
		}
		for _, w := range c.want {
			if !regexp.MustCompile(w).MatchString(out) {
				t.Errorf("%s: the output lacks %s:\n%s", strings.Join(c.args, " "), w, out)
			}
		}
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"exact", "ag.skill_test", "--percent", "--format", "csv"},
		{"sim", "ag.skill_test", "--percent", "--format", "json"},
		{"sim", "ag.skill_test", "--percent", "--shard", "1/2", "-o", filepath.Join(dir, "s")},
		{"sweep", "--expr", "d20 + bonus >= 15", "--vary", "bonus=0..2", "--percent", "-o", filepath.Join(dir, "w")},
		{"compare", "ag.skill_test", "--", "--set", "tn=6", "--percent", "--format", "csv"},
	} {
		code, out, errOut := runCLI(ctx, args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "--percent") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want one line about --percent and exit 2", strings.Join(args, " "), code, out, errOut)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("a refused command wrote %d files", len(entries))
	}
}
