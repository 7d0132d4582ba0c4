package systems_test

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/systems"
)

// defaultModel builds m's model at its defaults.
func defaultModel(t *testing.T, m *mechanics.Mechanic) *mechanics.Spec {
	t.Helper()
	spec, err := m.Model(m.DefaultConfig())
	if err != nil {
		t.Fatalf("%s: %v", m.ID, err)
	}
	return spec
}

// A record bound MaxBursts or more from 0 is shown by describe as no bound
// (∞: room for the longest run of bursts the simulator follows), so only
// a model that bursts without limit may declare one: anywhere else it
// would be a real bound shown as ∞.
func TestOpenBoundsOnlyWhereDiceBurst(t *testing.T) {
	t.Parallel()
	open := 0
	for _, m := range systems.Default.All() {
		for _, part := range defaultModel(t, m).Parts() {
			if part.Record == nil || part.Outcome == nil {
				continue
			}
			bursts, _ := mechanics.UnlimitedBursts(part.Outcome)
			for _, f := range part.Record.Fields {
				if !mechanics.BurstBound(f.Lo) && !mechanics.BurstBound(f.Hi) {
					continue
				}
				if !bursts {
					t.Errorf("%s: field %s is declared %d..%d, which describe shows as no bound, but the model has no die that bursts without limit", m.ID, f.Name, f.Lo, f.Hi)
				}
				open++
			}
		}
	}
	if open == 0 {
		t.Error("no built-in record holds a bursting total: is the check still looking at the right bounds?")
	}
}

// A simulator-only mechanic's describe says so, with its reason and what
// the model says it comes to at the settings; it never says the exact
// engine solves it (bd.skirmish's model line used to), and a process gives
// its state count in the engines line from the chain built, so that the
// two lines cannot disagree (they said "about 10⁵" and 4201).
func TestSimOnlyDescribeFollowsTheModel(t *testing.T) {
	t.Parallel()
	simOnly := 0
	for _, m := range systems.Default.All() {
		if !m.MCOnly {
			continue
		}
		simOnly++
		spec := defaultModel(t, m)
		var b bytes.Buffer
		if err := reports.WriteDescription(&b, m, spec, false); err != nil {
			t.Fatal(err)
		}
		d := b.String()
		if !strings.Contains(d, "Engines: simulator only ("+m.MCReason) {
			t.Errorf("%s: the engines line does not give the reason %q:\n%s", m.ID, m.MCReason, d)
		}
		if strings.Contains(d, "exact engine") || strings.Contains(d, "unlimited-horizon") {
			t.Errorf("%s: describe credits the exact engine with a simulator-only mechanic:\n%s", m.ID, d)
		}
		if p := spec.Process; p != nil {
			states := strconv.Itoa(len(p.States)) + " states"
			if !strings.Contains(spec.NoExact, states) {
				t.Errorf("%s: the model's size at the defaults (Spec.NoExact %q) does not give its %s", m.ID, spec.NoExact, states)
			}
			engines, _, _ := strings.Cut(d[strings.Index(d, "Engines:"):], "\n")
			if !strings.Contains(engines, "at the defaults: "+spec.NoExact) {
				t.Errorf("%s: the engines line does not give the size at the defaults: %s", m.ID, engines)
			}
		}
	}
	if simOnly == 0 {
		t.Error("no simulator-only mechanic found")
	}
}

// knownNumberViolations are texts that state a settable parameter's
// number, each with its reason: none now. An entry the checker no longer
// finds fails the test, so the list only shrinks.
var knownNumberViolations = []struct{ id, phrase, why string }{}

// Every mechanic's summary, doc and option docs state a settable
// parameter's number only as its default, and say so (mechtest's checker:
// "VS 20" with vs settable is wrong when vs is not 20, and freezes it when
// it is).
func TestTextNumbersAreDefaults(t *testing.T) {
	t.Parallel()
	found := map[int]bool{}
	for _, m := range systems.Default.All() {
		t.Run(m.ID, func(t *testing.T) {
			for _, s := range append(mechtest.DefaultMismatches(m), mechtest.Frozen(m)...) {
				k := slices.IndexFunc(knownNumberViolations, func(v struct{ id, phrase, why string }) bool {
					return v.id == m.ID && v.phrase == s.Phrase
				})
				if k >= 0 {
					found[k] = true
					continue
				}
				what := "a default it does not call one"
				if s.Value != s.Default {
					what = "not the default"
				}
				t.Errorf("%s (%s)", s, what)
			}
		})
	}
	for i, v := range knownNumberViolations {
		if !found[i] {
			t.Errorf("knownNumberViolations lists %s %q, which the checker no longer finds: remove it", v.id, v.phrase)
		}
	}
}

// The catalog names every system of Names, in order, and every built-in
// mechanic belongs to one of them.
func TestCatalogNamesEverySystem(t *testing.T) {
	t.Parallel()
	if len(systems.Catalog) != len(systems.Names) {
		t.Fatalf("catalog has %d systems, Names %d", len(systems.Catalog), len(systems.Names))
	}
	for i, s := range systems.Catalog {
		if s.ID != systems.Names[i] || s.Name == "" || s.Doc == "" {
			t.Errorf("catalog entry %d = %+v; want id %s with a name and a doc", i, s, systems.Names[i])
		}
		if len(systems.Default.System(s.ID)) == 0 {
			t.Errorf("system %s has no mechanics", s.ID)
		}
	}
	for _, m := range systems.Default.All() {
		sys, _, _ := strings.Cut(m.ID, ".")
		if !slices.Contains(systems.Names, sys) {
			t.Errorf("%s belongs to no system of the catalog", m.ID)
		}
	}
}
