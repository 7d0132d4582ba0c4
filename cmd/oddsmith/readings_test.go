package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
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

// TestDialectOnEveryCommand: --dialect reads --expr with its tool's
// meaning on every command that takes --expr, computes oddsmith's form of
// it (the results name that form, and their fingerprints are those of the
// form) and says on stderr what the text was read as (issue 26, item 1).
func TestDialectOnEveryCommand(t *testing.T) {
	t.Parallel()
	const note = `oddsmith: --expr "(n)d6>3", read as Roll20: (n)d6cs>=3` + "\n"
	for _, args := range [][]string{
		{"exact", "--expr", "(n)d6>3", "--set", "n=3"},
		{"sim", "--expr", "(n)d6>3", "--set", "n=3", "-n", "2000", "-q"},
		{"describe", "--expr", "(n)d6>3"},
		{"sweep", "--expr", "(n)d6>3", "--vary", "n=1..3", "-q"},
		{"solve", "--expr", "(n)d6>3", "--vary", "n=1..10", "--target", "mean:value>=4", "-q"},
		{"compare", "--expr", "(n)d6>3", "--set", "n=3", "--", "--set", "n=4"},
	} {
		t.Run(args[0], func(t *testing.T) {
			t.Parallel()
			for _, strict := range []bool{false, true} {
				a := append(slices.Clone(args), "--dialect", "roll20")
				if strict {
					a = append(a, "--strict")
				}
				code, stdout, stderr := runCLI(context.Background(), a...)
				if code != 0 || stderr != note || strings.Contains(stdout, "(n)d6>3") {
					t.Errorf("%v: exit %d, stderr %q; want exit 0 and only %q", a, code, stderr, note)
				}
			}
		})
	}
	_, want, _ := runCLI(context.Background(), "exact", "--expr", "3d6cs>=3", "--format", "json")
	code, got, _ := runCLI(context.Background(), "exact", "--expr", "3d6>3", "--dialect", "roll20", "--format", "json")
	if code != 0 || got != want || !strings.Contains(got, `"3d6cs>=3"`) {
		t.Errorf("Roll20's 3d6>3 gives\n%s\nwant oddsmith's 3d6cs>=3:\n%s", got, want)
	}
	code, got, _ = runCLI(context.Background(), "exact", "--expr", "3d6>3", "--dialect", "foundry")
	if code != 0 || !strings.Contains(got, "success  0.9954  215/216") {
		t.Errorf("Foundry's 3d6>3 (a total, as in oddsmith) gives %d\n%s", code, got)
	}
}

// TestDialectBadInput: an unknown dialect, or a text its dialect does not
// read, is one line and exit 2.
func TestDialectBadInput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"exact", "--expr", "3d6", "--dialect", "roll21"}, `oddsmith: --dialect: unknown dialect "roll21" (want oddsmith, roll20, foundry, dice-roller) — did you mean "roll20"?` + "\n"},
		{[]string{"exact", "--expr", "5d10x5>=8kh2", "--dialect", "foundry"}, "--expr: line 1, column 1: a cap on the explosions of the whole term ({5 in all}) goes with the sum or a count of successes (cs, cf) of the dice, not with keep or drop\n"},
		{[]string{"sim", "--expr", "3d6!r1", "--dialect", "dice-roller", "-q"}, "(read as rpg-dice-roller)\n"},
	} {
		code, stdout, stderr := runCLI(context.Background(), c.args...)
		if code != 2 || stdout != "" || !strings.HasSuffix(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, stdout, stderr, c.want)
		}
	}
}

// TestRuleFileDialect: a rule's dialect = "…" reads its expressions with
// that tool's meaning; the forms of a rule in oddsmith's dialect that
// another tool reads otherwise are warned about, and --strict refuses them.
func TestRuleFileDialect(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "r20.toml")
	src := `[[rule]]
id = "r20.pool"
dialect = "roll20"
[rule.vars]
hits = "8d10>7f1"

[[rule]]
id = "plain.pool"
[rule.vars]
hits = "8d10>7"
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, want, _ := runCLI(context.Background(), "exact", "--expr", "8d10cs>=7cf1", "--format", "csv")
	code, got, stderr := runCLI(context.Background(), "exact", "--rules", file, "r20.pool", "--format", "csv")
	const warning = "r20.toml:10: rule plain.pool, vars.hits: 8d10>7: here the total compared with 7"
	if code != 0 || !strings.Contains(stderr, "oddsmith: warning: "+file[:len(file)-len("r20.toml")]+warning) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if cut := func(s string) string { return s[strings.Index(s, "pmf,"):] }; cut(got) != strings.ReplaceAll(cut(want), "value", "hits") {
		t.Errorf("Roll20's 8d10>7f1 in a rule file gives\n%s\nwant\n%s", got, want)
	}
	code, stdout, stderr := runCLI(context.Background(), "exact", "--rules", file, "r20.pool", "--strict")
	if code != 2 || stdout != "" || !strings.Contains(stderr, warning) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("--strict: exit %d, stderr %q", code, stderr)
	}
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("[[rule]]\nid = \"x.y\"\ndialect = \"anydice\"\n[rule.vars]\nv = \"d6\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(context.Background(), "exact", "--rules", bad, "x.y")
	if code != 2 || !strings.Contains(stderr, `bad.toml:3: rule x.y: dialect: unknown dialect "anydice"`) {
		t.Errorf("bad dialect: exit %d, stderr %q", code, stderr)
	}
}

// TestPlanDialect: a plan's dialect = "…" reads its expr texts with that
// tool's meaning; a plan in oddsmith's dialect is warned about the forms
// another tool reads otherwise.
func TestPlanDialect(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, src string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	const analysis = "\n[[analysis]]\nname = \"pool\"\nexpr = \"3d6>3\"\nengine = \"exact\"\n"
	r20 := write("r20.toml", "dialect = \"roll20\"\n"+analysis)
	code, _, stderr := runCLI(context.Background(), "run", r20, "-o", filepath.Join(dir, "r20"), "-q")
	csv, err := os.ReadFile(filepath.Join(dir, "r20", "pool.csv"))
	if code != 0 || err != nil || stderr != "" || !strings.Contains(string(csv), "pmf,value,3,0.2962962963,1,0,,,,8/27") {
		t.Fatalf("exit %d, stderr %q, %v:\n%s", code, stderr, err, csv)
	}
	plain := write("plain.toml", analysis)
	code, _, stderr = runCLI(context.Background(), "run", plain, "-o", filepath.Join(dir, "plain"), "-q")
	if code != 0 || !strings.Contains(stderr, `oddsmith: warning: expr "3d6>3": 3d6>3: here the total compared with 3`) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	bad := write("bad.toml", "dialect = \"troll\"\n"+analysis)
	if code, _, stderr = runCLI(context.Background(), "run", bad, "-o", filepath.Join(dir, "bad"), "-q"); code != 2 || !strings.Contains(stderr, `unknown dialect "troll"`) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}
