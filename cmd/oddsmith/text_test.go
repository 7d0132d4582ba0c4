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

// duelRule is a two-variable process: two fighters of hp each trade d6
// blows until one drops (hp × hp states: 1,681 at 40).
const duelRule = `[[rule]]
id = "duel.two"
summary = "two fighters trade d6 blows until one drops"

[rule.params]
hp = { default = 12, min = 1, max = 40 }

[rule.process]
state = { a = { start = "hp", min = 0, max = "hp" }, b = { start = "hp", min = 0, max = "hp" } }
until = "a == 0 or b == 0"
horizon = 30
unit = "round"

[rule.let]
hit_a = "d6"
hit_b = "d6"

[rule.next]
a = "max(0, a - hit_b)"
b = "max(0, b - hit_a)"

[rule.events]
a_wins = "b == 0 and a > 0"
b_wins = "a == 0 and b > 0"
`

// TestTextWithoutNoise: an opposed pool of 40 dice a side prints its
// distribution over the values of P ≥ 1e-12 (−3…3, not −44…44 with 1e-63
// at the ends) and says so in one line, its min and max over them, the
// CSV keeping every value; a 40 × 40 duel prints a dozen states per list
// (exact and compared), not every state of the chain.
func TestTextWithoutNoise(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	args := []string{"exact", "ag.opposed", "--set", "skill=40", "--set", "opp_skill=40"}
	code, out, errOut := runCLI(ctx, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		`(?m)^mos +0\.0000 +0\.0824 +-3 +0 +0 +0 +0 +0 +3$`,
		`(?m)^\(min and max are over the values of P ≥ 1e-12; over every value, in --format csv: mos min -44, max 44; actor_total min 3, max 47; opponent_total min 3, max 47\)$`,
		`(?m)^\(16 more values, of P < 1e-12 each: -44…-4 and 4…44; see --format csv\)$`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("the table lacks %s:\n%s", want, out)
		}
	}
	if regexp.MustCompile(`(?m)^-44 `).MatchString(out) {
		t.Errorf("the table prints a value of P 1e-63:\n%s", out)
	}
	if _, out, _ = runCLI(ctx, append(args, "--format", "csv")...); !strings.Contains(out, "\npmf,mos,-44,5.596286878e-63,") || !strings.Contains(out, "\nstat,mos,min,-44,") {
		t.Errorf("the CSV lost the tail or the extremes")
	}

	rules := filepath.Join(t.TempDir(), "duel.toml")
	if err := os.WriteFile(rules, []byte(duelRule), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI(ctx, "exact", "--rules", rules, "duel.two", "--set", "hp=40")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := strings.Count(out, "\n"); n > 140 {
		t.Errorf("the duel's table has %d lines (at most 140: a dozen states per list):\n%s", n, out)
	}
	if n := strings.Count(out, "\nabsorbed:"); n != 12 {
		t.Errorf("%d events absorbed:…, want 12:\n%s", n, out)
	}
	if !regexp.MustCompile(`(?m)^\(69 more absorbed:…\) +0\.4624 in all, 14 of them 0; see --format csv$`).MatchString(out) {
		t.Errorf("the table lacks the row of the other absorbed:… events:\n%s", out)
	}
	code, out, errOut = runCLI(ctx, "compare", "--rules", rules, "duel.two", "--set", "hp=40", "--", "--set", "hp=40")
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errOut)
	}
	if n := strings.Count(out, "\n"); n > 100 {
		t.Errorf("the duels' comparison has %d lines (1,807 before):\n%s", n, out)
	}
	for _, want := range []string{`(?m)^\(69 more absorbed:… events, the largest \|Δ\| among them 0; see --format csv\)$`, `(?m)^\(1669 more final_state labels, the largest \|Δ\| among them 0; see --format csv\)$`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("the comparison lacks %s:\n%s", want, out)
		}
	}
}
