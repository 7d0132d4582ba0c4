package grim

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.6f; want %.6f (±%g)", what, got, want, tol)
	}
}

func runExact(t *testing.T, id string, sets ...string) *mechanics.Result {
	t.Helper()
	m, err := mechanics.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.Configure(sets)
	if err != nil {
		t.Fatal(err)
	}
	r, err := exact.Run(m, c)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// extraConfigs: settings beyond the defaults that the cross-check also runs.
var extraConfigs = map[string][][]string{
	"grim.check":  {{"attribute=-3", "tn=15"}, {"attribute=10", "tn=5"}},
	"grim.attack": {{"attribute=4", "tn=12", "ff_threshold=3"}},
}

// TestEveryMechanicBothEngines: every grim mechanic, defaults and extras,
// exact against simulation.
func TestEveryMechanicBothEngines(t *testing.T) {
	n := int64(1_000_000)
	if testing.Short() {
		n = 100_000
	}
	seen := 0
	for _, m := range mechanics.All() {
		if !strings.HasPrefix(m.ID, "grim.") {
			continue
		}
		seen++
		for _, sets := range append([][]string{nil}, extraConfigs[m.ID]...) {
			c, err := m.Configure(sets)
			if err != nil {
				t.Fatalf("%s %v: %v", m.ID, sets, err)
			}
			spec, err := m.Build(c)
			if err != nil {
				t.Fatalf("%s %v: %v", m.ID, sets, err)
			}
			report, err := sim.CrossCheck(context.Background(), spec, sim.Options{Trials: n, Seed: 20}, 1e-6, 1.25)
			if err != nil {
				t.Fatalf("%s %v: %v", m.ID, sets, err)
			}
			for _, r := range report {
				t.Errorf("%s %v: %s", m.ID, sets, r)
			}
		}
	}
	if seen < 2 {
		t.Fatalf("only %d grim mechanics", seen)
	}
}

func TestCoreGoldens(t *testing.T) {
	// mechanics.md §4.1.
	a := runExact(t, "grim.attack", "attribute=3", "tn=14")
	near(t, "P(hit) COR+3 vs 14", a.Event("hit").P, 0.5, 1e-12)
	near(t, "P(crit)", a.Event("crit").P, 0.05, 1e-12)
	near(t, "P(hit) COR+4 vs 12", runExact(t, "grim.attack", "attribute=4", "tn=12").Event("hit").P, 0.65, 1e-12)
	// A natural 20 need not succeed on a check: +0 vs TN 25 never succeeds.
	c := runExact(t, "grim.check", "attribute=0", "tn=25")
	near(t, "impossible check", c.Event("success").P, 0, 0)
	near(t, "flavour 20", c.Event("flavour_20").P, 0.05, 1e-12)
}
