package mechtest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/crosscheck"
	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

// System is a game system as CheckSystem tests it.
type System struct {
	// Name is the system's id prefix ("ag"): every mechanic's id starts
	// with Name and a dot.
	Name string
	// Mechanics are the system's mechanics (its package's Mechanics()).
	Mechanics []*mechanics.Mechanic
	// Extra lists, by mechanic id, the configurations ("name=value"
	// settings) that the cross-check runs besides the defaults. With the
	// defaults they must set every value of every option: CheckSystem
	// fails a value that no configuration sets.
	Extra map[string][][]string
	// CheckedElsewhere names simulation-only mechanics whose results the
	// system's own tests compare with an exact computation (the reason,
	// by id); the others are only required to simulate cleanly.
	CheckedElsewhere map[string]string
}

// Sizes of the checks: the memory budget of each run at a parameter limit
// or a random configuration, the trials of those runs when simulated, and
// the random configurations drawn for each mechanic.
const (
	limitMemory    = 256 << 20
	limitTrials    = 2_000
	randomConfigs  = 3
	drawsPerConfig = 50
)

// CheckSystem is the test every game system runs (one call from its
// package's tests). It checks, each part a subtest that runs in parallel:
//
//   - registry: the mechanics make a registry (unique ids, defaults in
//     range, options with values), every id starts with the system's name,
//     and every parameter, option and output has a doc;
//   - options: the defaults and Extra together set every value of every
//     option and choice;
//   - engines: every mechanic with an exact model, at its defaults and at
//     each Extra configuration, computed by both engines, which must agree
//     (crosscheck.Standard, a fixed seed, Trials(t)); a simulation-only
//     mechanic must simulate cleanly at each configuration;
//   - limits: every parameter at each end of its range (the others at their
//     defaults), in both engines under a 256 MiB budget, ends in a result
//     or in bad input (a refusal the rules or the budget call for), never
//     in another error or a panic;
//   - random: a few configurations drawn over the whole parameter space
//     and every option (a fixed seed), with the same guarantee.
//
// No count is hard-coded: adding a mechanic to a system adds it to every
// check.
func CheckSystem(t *testing.T, s System) {
	t.Helper()
	if len(s.Mechanics) == 0 {
		t.Fatalf("system %s has no mechanics", s.Name)
	}
	ms := slices.Clone(s.Mechanics)
	slices.SortFunc(ms, func(a, b *mechanics.Mechanic) int { return strings.Compare(a.ID, b.ID) })
	t.Run("registry", func(t *testing.T) {
		t.Parallel()
		checkDeclarations(t, s.Name, ms)
	})
	t.Run("options", func(t *testing.T) {
		t.Parallel()
		for _, m := range ms {
			for _, miss := range Uncovered(m, s.Extra[m.ID]) {
				t.Errorf("%s: no configuration sets %s (add one to the system's extra configurations)", m.ID, miss)
			}
		}
	})
	t.Run("engines", func(t *testing.T) {
		t.Parallel()
		for _, m := range ms {
			t.Run(m.ID, func(t *testing.T) {
				t.Parallel()
				if m.MCOnly && s.CheckedElsewhere[m.ID] == "" {
					t.Logf("%s is simulated only and compared with nothing exact", m.ID)
				}
				for _, sets := range append([][]string{nil}, s.Extra[m.ID]...) {
					checkBothEngines(t, m, sets)
				}
			})
		}
	})
	t.Run("limits", func(t *testing.T) {
		t.Parallel()
		for _, m := range ms {
			t.Run(m.ID, func(t *testing.T) {
				t.Parallel()
				for _, p := range m.Params {
					for _, v := range []float64{p.Min, p.Max} {
						checkRuns(t, m, []string{p.Name + "=" + mechanics.FormatNum(v)}, engine.Kinds)
					}
				}
			})
		}
	})
	t.Run("random", func(t *testing.T) {
		t.Parallel()
		rng := rand.New(rand.NewPCG(5, 8))
		for _, m := range ms {
			// Drawn here, in order, so the configurations do not depend on
			// how the subtests are scheduled.
			var configs [][]string
			for range randomConfigs {
				configs = append(configs, randomModel(rng, m))
			}
			t.Run(m.ID, func(t *testing.T) {
				t.Parallel()
				for i, sets := range configs {
					kinds := []engine.Kind{engine.Kinds[i%2]}
					checkRuns(t, m, sets, kinds)
				}
			})
		}
	})
}

// checkDeclarations checks what a system declares, before any model is
// built.
func checkDeclarations(t *testing.T, name string, ms []*mechanics.Mechanic) {
	t.Helper()
	func() {
		defer func() {
			if x := recover(); x != nil {
				t.Errorf("the mechanics do not make a registry: %v", x)
			}
		}()
		mechanics.NewRegistry(ms...)
	}()
	for _, m := range ms {
		if !strings.HasPrefix(m.ID, name+".") {
			t.Errorf("%s is not an id of system %s", m.ID, name)
		}
		if m.Summary == "" || m.Doc == "" {
			t.Errorf("%s has no summary or doc", m.ID)
		}
		if m.MCOnly && m.MCReason == "" {
			t.Errorf("%s is simulated only without a reason", m.ID)
		}
		undocumented := func(kind, name, doc string) {
			if doc == "" {
				t.Errorf("%s: %s %s has no doc", m.ID, kind, name)
			}
		}
		for _, p := range m.Params {
			undocumented("parameter", p.Name, p.Doc)
		}
		for _, o := range m.Options {
			undocumented("option", o.Name, o.Doc)
		}
		spec, err := m.Model(m.DefaultConfig())
		if err != nil {
			t.Errorf("%s at its defaults: %v", m.ID, err)
			continue
		}
		for _, part := range spec.Parts() {
			for _, v := range part.Vars {
				undocumented("variable", v.Name, v.Doc)
			}
			for _, e := range part.Events {
				undocumented("event", e.Name, e.Doc)
			}
			for _, b := range part.Bands {
				undocumented("band", b.Name, b.Doc)
			}
		}
	}
}

// Uncovered lists the option values ("name=value") that neither the
// defaults nor any of the configurations set.
func Uncovered(m *mechanics.Mechanic, configs [][]string) []string {
	seen := map[string]bool{}
	for _, o := range m.Options {
		seen[o.Name+"="+o.Default()] = true
	}
	for _, sets := range configs {
		c, err := m.Configure(sets)
		if err != nil {
			return []string{fmt.Sprintf("(a configuration that does not apply: %v: %v)", sets, err)}
		}
		for k, v := range c.Options {
			seen[k+"="+v] = true
		}
	}
	var miss []string
	for _, o := range m.Options {
		for _, v := range o.Values {
			if !seen[o.Name+"="+v] {
				miss = append(miss, o.Name+"="+v)
			}
		}
	}
	return miss
}

// checkBothEngines cross-checks m at one configuration (a simulation-only
// mechanic is simulated and must succeed).
func checkBothEngines(t *testing.T, m *mechanics.Mechanic, sets []string) {
	t.Helper()
	c, err := m.Configure(sets)
	if err != nil {
		t.Fatalf("%v: %v", sets, err)
	}
	opt := Trials(t)
	if m.MCOnly {
		if _, err := sim.Run(t.Context(), m, c, opt); err != nil {
			t.Errorf("%v: %v", sets, err)
		}
		return
	}
	spec, err := m.Model(c)
	if err != nil {
		t.Errorf("%v: %v", sets, err)
		return
	}
	report, err := crosscheck.Spec(t.Context(), spec, opt, crosscheck.Standard)
	if err != nil {
		t.Errorf("%v: %v", sets, err)
	}
	for _, line := range report {
		t.Errorf("%v: %s", sets, line)
	}
}

// checkRuns runs m at the settings in each of the engines it has among
// kinds: a result or bad input is fine; another error or a panic fails.
func checkRuns(t *testing.T, m *mechanics.Mechanic, sets []string, kinds []engine.Kind) {
	t.Helper()
	c, err := m.Configure(sets)
	if err != nil {
		t.Fatalf("%v: %v", sets, err)
	}
	for _, k := range kinds {
		if k == engine.Exact && m.MCOnly {
			k = engine.Sim
		}
		if err := runOnce(t.Context(), m, c, k); err != nil && !mechanics.IsInput(err) {
			t.Errorf("%s %v: %v", k, sets, err)
		} else if err != nil && testing.Verbose() {
			t.Logf("%s %v: refused: %v", k, sets, err)
		}
	}
}

// runOnce computes m at c with one engine under the limits' budget; a
// panic comes back as an error that is not bad input.
func runOnce(ctx context.Context, m *mechanics.Mechanic, c mechanics.Config, k engine.Kind) (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic: %v", x)
		}
	}()
	if k == engine.Exact {
		_, err = exact.RunContext(ctx, m, c, exact.Options{MemoryBytes: limitMemory})
	} else {
		_, err = sim.Run(ctx, m, c, sim.Options{Trials: limitTrials, Seed: 1, Workers: 1, MemoryBytes: limitMemory})
	}
	return err
}

// randomModel draws configurations of m until one builds a model (a
// mechanic may refuse most points of its parameter space: dice ranks on a
// ladder, k of n), at most drawsPerConfig times; it returns the last draw
// when none builds, which is then checked to be refused cleanly.
func randomModel(rng *rand.Rand, m *mechanics.Mechanic) []string {
	var sets []string
	for range drawsPerConfig {
		sets = RandomSettings(rng, m)
		c, err := m.Configure(sets)
		if err != nil {
			continue
		}
		if _, err := m.Model(c); err == nil {
			break
		}
	}
	return sets
}

// RandomSettings draws a configuration of m: every parameter uniform over
// its range (rounded when whole), every option one of its values.
func RandomSettings(rng *rand.Rand, m *mechanics.Mechanic) []string {
	var sets []string
	for _, p := range m.Params {
		v := p.Min + rng.Float64()*(p.Max-p.Min)
		if !p.Real {
			v = math.Round(v)
		}
		sets = append(sets, p.Name+"="+mechanics.FormatNum(v))
	}
	for _, o := range m.Options {
		sets = append(sets, o.Name+"="+o.Values[rng.IntN(len(o.Values))])
	}
	return sets
}
