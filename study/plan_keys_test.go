package study

import (
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/systems"
)

// TestPlanKeysDocumented: docs/plans.md is the reference of every plan
// key. Each table the parser knows (PlanKeys, read from the plan structs'
// toml tags) has a section whose heading names its path in a code span —
// "`[[analysis]]`", "`overlay.series`" — or "Top level"; the section's key
// rows ("| `name` |") list exactly the keys the parser accepts there.
func TestPlanKeysDocumented(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/plans.md")
	if err != nil {
		t.Fatal(err)
	}
	keys := PlanKeys()
	documented := map[string][]string{}
	var current []string
	span := regexp.MustCompile("`([^`]+)`")
	row := regexp.MustCompile("^\\| `([a-z_]+)` \\|")
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "#") {
			current = nil
			if strings.TrimSpace(strings.TrimLeft(line, "#")) == "Top level" {
				current = []string{""}
			}
			for _, m := range span.FindAllStringSubmatch(line, -1) {
				path := strings.TrimSuffix(strings.TrimPrefix(m[1], "[["), "]]")
				if _, ok := keys[path]; ok {
					current = append(current, path)
				}
			}
			for _, p := range current {
				if _, seen := documented[p]; seen {
					t.Errorf("docs/plans.md has two sections for %q", p)
				}
				documented[p] = []string{}
			}
			continue
		}
		if m := row.FindStringSubmatch(line); m != nil {
			if current == nil {
				t.Errorf("docs/plans.md lists the key %q outside a table's section", m[1])
			}
			for _, p := range current {
				documented[p] = append(documented[p], m[1])
			}
		}
	}
	for path, want := range keys {
		got, ok := documented[path]
		if !ok {
			t.Errorf("docs/plans.md has no section for the table %q (keys %v)", path, want)
			continue
		}
		for _, k := range want {
			if !slices.Contains(got, k) {
				t.Errorf("docs/plans.md: %q of %q is accepted by the parser but not documented", k, path)
			}
		}
		for _, k := range got {
			if !slices.Contains(want, k) {
				t.Errorf("docs/plans.md documents %q of %q, which the parser does not accept", k, path)
			}
		}
	}
	// The reflection itself: the tables and keys a plan is known to have.
	for path, k := range map[string]string{"": "analysis", "analysis": "vary", "overlay.series": "color", "chart.panel.series": "dash", "compare.a": "mechanic", "solve": "target"} {
		if !slices.Contains(keys[path], k) {
			t.Errorf("PlanKeys()[%q] = %v lacks %q", path, keys[path], k)
		}
	}
	if _, ok := keys["rule"]; ok {
		t.Error("PlanKeys walks [[rule]], whose keys are the rule language's")
	}
}

// TestPlanKeySuggestions: a misspelt key is refused with its line and the
// closest key its table takes; a key far from any gets the list.
func TestPlanKeySuggestions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		src  string
		line int
		want string
	}{
		{"titel = \"x\"\n[[analysis]]\nname = \"a\"\nmechanic = \"gm.core.roll\"\n", 1, `unknown key "titel" — did you mean "title"?`},
		{"[[analysis]]\nname = \"a\"\nmechanc = \"gm.core.roll\"\n", 3, `unknown key "analysis.mechanc" — did you mean "mechanic"?`},
		{"[[analyses]]\nname = \"a\"\nmechanic = \"gm.core.roll\"\n", 1, `unknown key "analyses" — did you mean "analysis"?`},
		{"[[overlay]]\nname = \"o\"\nrange = \"1..3\"\nseries = [\n  { label = \"a\", mechanic = \"gm.core.roll\", x = \"score\", colour = \"blue\" },\n]\n", 5,
			`unknown key "overlay.series.colour" — did you mean "color"?`},
		{"[[chart]]\nname = \"c\"\n[[chart.panel]]\nkidn = \"lines\"\n", 4, `unknown key "chart.panel.kidn" — did you mean "kind"?`},
		{"[[solve]]\nname = \"s\"\nmechanic = \"gm.core.roll\"\ntargte = \"event:success=0.5\"\n", 4, `did you mean "target"?`},
		{"[[analysis]]\nname = \"a\"\nmechanic = \"gm.core.roll\"\nwhatever = 1\n", 4, `analysis takes name, mechanic, expr,`},
	} {
		_, err := ParsePlan(systems.Default, "p.toml", []byte(c.src))
		var pe *PlanError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v; want an error with %q", c.src, err, c.want)
			continue
		}
		if pe.Line != c.line {
			t.Errorf("%q: line %d; want %d (%v)", c.src, pe.Line, c.line, err)
		}
	}
}
