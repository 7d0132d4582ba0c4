package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const houseRules = "../../lang/rules/testdata/house.toml"

// TestExprAndRules: one-liners and rule files through exact, sim, sweep,
// list and describe; a command's rules are gone when it ends.
func TestExprAndRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"exact", "--expr", "4d6kh3"}, []string{"rule:         4d6kh3", "value     12.2446"}},
		{[]string{"exact", "--expr", "d20 + bonus >= tn", "--set", "bonus=5", "--set", "tn=15"}, []string{"success  0.5500", "params:       bonus=5 tn=15"}},
		{[]string{"sim", "--expr", "3d6 >= 10", "-n", "20000", "-q", "-f", "json"}, []string{`"rule":"3d6 >= 10"`, `"success"`}},
		{[]string{"list", "--rules", houseRules}, []string{"house.check", "house.pool", "house.accumulate"}},
		{[]string{"describe", "--rules", houseRules, "house.pool"}, []string{"result", "count(pool == highest(pool))"}},
		{[]string{"exact", "--rules", houseRules, "house.check", "--set", "bonus=5", "--set", "tn=15"}, []string{"success  0.5500", "rule:         " + houseRules}},
		{[]string{"sweep", "--rules", houseRules, "house.check", "--vary", "tn=5..25", "-o", filepath.Join(dir, "sw"), "-q"}, nil},
		{[]string{"sweep", "--expr", "d20 + b >= 11", "--vary", "b=0..5", "-o", filepath.Join(dir, "sw2"), "-q"}, nil},
	} {
		t.Run(strings.ReplaceAll(strings.Join(c.args, " "), dir+"/", ""), func(t *testing.T) {
			code, out, errOut := runCLI(ctx, c.args...)
			if code != 0 {
				t.Fatalf("%q: exit %d: %s", c.args, code, errOut)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("%q: output lacks %q:\n%s", c.args, w, out)
				}
			}
		})
	}
	for _, f := range []string{"sw/house_check_sweep.csv", "sw2/expr_sweep.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("sweep wrote no %s: %v", f, err)
		}
	}
	// The rules are gone after the command.
	if code, _, errOut := runCLI(ctx, "exact", "house.check"); code != 2 || !strings.Contains(errOut, "unknown mechanic") {
		t.Errorf("house.check without --rules: exit %d: %s", code, errOut)
	}
}

func TestExprAndRulesBadInput(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	clash := filepath.Join(dir, "clash.toml")
	os.WriteFile(clash, []byte("[[rule]]\nid = \"ag.skill_test\"\n[rule.vars]\nv = \"d6\"\n"), 0o644)
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[[rule]]\nid = \"h.x\"\n[rule.vars]\nv = \"2d6 + bnous\"\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"exact", "--expr", "4d6kh"}, ""},
		{[]string{"exact", "--expr", "4d6 +"}, "--expr: line 1, column"},
		{[]string{"exact", "--expr", "hihgest(3d6)"}, `did you mean "highest"`},
		{[]string{"exact", "--expr", "3d6", "ag.skill_test"}, ""}, // two series: two tables
		{[]string{"exact", "--expr", "3d6", "ag.skill_test", "--format", "json"}, "takes one at a time"},
		{[]string{"exact", "--expr", "3d6", "--expr", "4d6 +"}, `--expr "4d6 +": line 1, column 6`},
		{[]string{"exact", "--expr", "(n)d6", "--set", "n=2.5"}, "must be a whole number"},
		{[]string{"exact", "--expr", "1000000d6"}, "out of range"},
		{[]string{"exact", "--expr", "d6!>=1"}, "never stops"},
		{[]string{"exact", "--rules", clash, "ag.skill_test"}, "id is taken"},
		{[]string{"exact", "--rules", bad, "h.x"}, `bad.toml:4: rule h.x, vars.v: line 1, column 7: unknown name "bnous"`},
		{[]string{"list", "--rules", filepath.Join(dir, "missing.toml")}, "cannot read rules"},
	} {
		t.Run(strings.ReplaceAll(strings.Join(c.args, " "), dir+"/", ""), func(t *testing.T) {
			code, _, errOut := runCLI(ctx, c.args...)
			if c.want == "" {
				if code != 0 {
					t.Errorf("%q: exit %d: %s", c.args, code, errOut)
				}
				return
			}
			if code != 2 || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 1 {
				t.Errorf("%q: exit %d, %q; want exit 2 and one line containing %q", c.args, code, errOut, c.want)
			}
		})
	}
}

// TestRuleFixes: a one-liner is built at the values --set gives; a rule
// that fails on its own input (a lookup without a case, a division by
// zero) is bad input, exit 2; a pool evaluator refuses a parameter; a
// misspelt --set name gets a suggestion; describe's example of a file's
// rule names the file.
func TestRuleFixes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	if code, out, errs := runCLI(ctx, "exact", "--expr", "d(s)", "--set", "s=6", "--format", "json"); code != 0 || !strings.Contains(out, `[6,0.16666666666666666]`) {
		t.Errorf("d(s) with s=6: exit %d, %s %s", code, out, errs)
	}
	for _, args := range [][]string{
		{"exact", "--expr", "lookup(d6, {1..3: 1})"},
		{"sim", "--expr", "lookup(d6, {1..3: 1})", "-n", "1000"},
		{"exact", "--expr", "d6 / (d6 - d6)"},
	} {
		if code, _, errs := runCLI(ctx, args...); code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d (want 2), %q", args, code, errs)
		}
	}
	if code, _, errs := runCLI(ctx, "exact", "--expr", "count(pool >= 5)"); code != 2 || !strings.Contains(errs, `"pool" is a parameter, not a pool`) {
		t.Errorf("count over a parameter: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI(ctx, "exact", "--expr", "d20 + bonus", "--set", "bonsu=1"); code != 2 || !strings.Contains(errs, "did you mean bonus?") {
		t.Errorf("misspelt parameter: exit %d, %q", code, errs)
	}
	if code, out, errs := runCLI(ctx, "exact", "--expr", "any(4d6 == 6)"); code != 0 || !strings.Contains(out, "event  P       exact\nvalue  0.5177  671/1296\n") {
		t.Errorf("any(…) as an event: exit %d, %s %s", code, out, errs)
	}
	if code, out, _ := runCLI(ctx, "describe", "--rules", "../../examples/rules/grim.toml", "my.grim.attack"); code != 0 ||
		!strings.Contains(out, "oddsmith exact --rules ../../examples/rules/grim.toml my.grim.attack --set") {
		t.Errorf("describe's example of a file's rule: exit %d\n%s", code, out)
	}
}

// TestDescribeExpr: describe takes a one-liner and shows its model at the
// settings given; --all refuses it.
func TestDescribeExpr(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	code, out, errs := runCLI(ctx, "describe", "--expr", "d20 + bonus >= tn", "--set", "bonus=5", "--set", "tn=15")
	if code != 0 || !strings.Contains(out, "success  = total >= 15") || !strings.Contains(out, "total  6..25") {
		t.Errorf("describe --expr: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := runCLI(ctx, "describe", "--all", "--expr", "d6"); code != 2 || !strings.Contains(errs, "--all takes no") {
		t.Errorf("describe --all --expr: exit %d, %q", code, errs)
	}
}
