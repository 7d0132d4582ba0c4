package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/systems"
)

// referencePath is the mechanics reference generated from the registry.
var referencePath = filepath.Join("..", "..", "docs", "mechanics.md")

// TestReferenceUpToDate fails when docs/mechanics.md is not what
// `oddsmith describe --all --format markdown` writes now; `go test
// ./cmd/oddsmith -run Reference -update` rewrites it.
func TestReferenceUpToDate(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(context.Background(), "describe", "--all", "--format", "markdown")
	if code != 0 || errOut != "" {
		t.Fatalf("describe --all --format markdown: exit %d, stderr %q", code, errOut)
	}
	if *update {
		if err := os.WriteFile(referencePath, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(referencePath)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/oddsmith -run Reference -update to write it)", err)
	}
	if out == string(want) {
		return
	}
	got, exp := strings.Split(out, "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(got), len(exp)); i++ {
		g, e := "(end of output)", "(end of file)"
		if i < len(got) {
			g = got[i]
		}
		if i < len(exp) {
			e = exp[i]
		}
		if g != e {
			t.Fatalf("%s is stale: line %d is\n  %q\nbut describe --all --format markdown now writes\n  %q\nrun go test ./cmd/oddsmith -run Reference -update to rewrite it", referencePath, i+1, e, g)
		}
	}
}

// The reference documents every registered mechanic: its parameters,
// options with every value, and its outputs.
func TestReferenceCoversRegistry(t *testing.T) {
	t.Parallel()
	_, out, _ := runCLI(context.Background(), "describe", "--all", "--format", "markdown")
	sections := strings.Split(out, "\n### ")
	if len(sections)-1 != len(systems.Default.All()) {
		t.Errorf("%d mechanic sections; the registry has %d mechanics", len(sections)-1, len(systems.Default.All()))
	}
	for _, m := range systems.Default.All() {
		var sec string
		for _, s := range sections[1:] {
			if strings.Contains(strings.SplitN(s, "\n", 2)[0], "`"+m.ID+"`") {
				sec = s
			}
		}
		if sec == "" {
			t.Errorf("no section for %s", m.ID)
			continue
		}
		if !strings.Contains(out, "](#"+strings.ReplaceAll(m.ID, ".", "-")+")") {
			t.Errorf("contents do not link %s", m.ID)
		}
		for _, p := range m.Params {
			if !strings.Contains(sec, "| `"+p.Name+"` |") {
				t.Errorf("%s: parameter %s missing", m.ID, p.Name)
			}
		}
		for _, o := range m.Options {
			if !strings.Contains(sec, "`"+o.Name+"`") || !strings.Contains(sec, "**`"+o.Default()+"`**") {
				t.Errorf("%s: option %s or its default missing", m.ID, o.Name)
			}
			for _, v := range o.Values {
				if !strings.Contains(sec, "`"+v+"`") {
					t.Errorf("%s: value %s of %s missing", m.ID, v, o.Name)
				}
			}
		}
		if !strings.Contains(sec, "**Outputs** (at the defaults)\n\n| kind | name | formula | description |") {
			t.Errorf("%s: outputs missing", m.ID)
		}
		// Table rows have as many cells as their header: no stray pipes.
		for _, line := range strings.Split(sec, "\n") {
			if strings.HasPrefix(line, "| ") {
				cells := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") - 1
				if cells != 4 && cells != 3 {
					t.Errorf("%s: table row with %d cells: %s", m.ID, cells, line)
				}
			}
		}
	}
}

func TestDescribeFormats(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(context.Background(), "describe", "ag.skill_test", "--format", "markdown")
	if code != 0 || errOut != "" || !strings.HasPrefix(out, "# ") || !strings.Contains(out, "| `tn` |") || !strings.Contains(out, "`mos >= 1`") {
		t.Errorf("describe --format markdown: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	// At other settings the markdown says so.
	if _, out, _ := runCLI(context.Background(), "describe", "ag.skill_test", "--set", "tn=7", "--format", "markdown"); !strings.Contains(out, "`total - 7`") || !strings.Contains(out, "at these settings") {
		t.Errorf("describe --set tn=7 --format markdown:\n%s", out)
	}
	// The plain text stays the default, and --all gives every mechanic.
	_, plain, _ := runCLI(context.Background(), "describe", "ag.skill_test")
	_, text, _ := runCLI(context.Background(), "describe", "ag.skill_test", "--format", "text")
	if plain != text || strings.Contains(plain, "|---") {
		t.Error("describe --format text is not the default plain text")
	}
	code, all, _ := runCLI(context.Background(), "describe", "--all")
	if code != 0 || strings.Count(all, "\nExample:\n") != len(systems.Default.All()) {
		t.Errorf("describe --all: exit %d, %d descriptions", code, strings.Count(all, "\nExample:\n"))
	}
	for _, args := range [][]string{
		{"describe", "ag.skill_test", "--format", "html"},
		{"describe", "--all", "ag.skill_test"},
		{"describe", "--all", "--set", "tn=3"},
	} {
		if code, out, errOut := runCLI(context.Background(), args...); code != 2 || out != "" || !strings.HasPrefix(errOut, "oddsmith: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}
