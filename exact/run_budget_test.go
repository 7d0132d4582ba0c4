package exact_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/systems"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
)

// The known blow-up: ag.wound_degeneration with a full track of 12 boxes
// over 60 hours (it took 17 s and 1.56 GB when the fundamental matrix of its
// 10 000 transient states was factorised whole).
func woundConfig(t *testing.T) (*mechanics.Mechanic, mechanics.Config) {
	t.Helper()
	m, err := systems.Default.Lookup("ag.wound_degeneration")
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.Configure([]string{"boxes=12", "hours=60"})
	if err != nil {
		t.Fatal(err)
	}
	return m, c
}

func TestRunContextRefusesOverBudget(t *testing.T) {
	m, c := woundConfig(t)
	const small = 8 << 20
	_, err := exact.RunContext(context.Background(), m, c, exact.Options{MemoryBytes: small})
	var me *engine.MemoryError
	if !errors.As(err, &me) || !mechanics.IsInput(err) {
		t.Fatalf("error %v; want a engine.MemoryError marked as bad input", err)
	}
	msg := err.Error()
	for _, w := range []string{"ag.wound_degeneration: ", "outcome table", "needs about " + engine.FormatBytes(me.Need),
		"(the memory budget is 8 MiB)", "--memory", "oddsmith sim"} {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q does not say %q", msg, w)
		}
	}
}

func TestRunContextSameResultsWithinBudget(t *testing.T) {
	m, c := woundConfig(t)
	def, err := exact.Run(m, c)
	if err != nil {
		t.Fatal(err)
	}
	big, err := exact.RunContext(context.Background(), m, c, exact.Options{MemoryBytes: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(def, big) {
		t.Error("results differ between the default budget and a larger one")
	}
	if !def.Process.Unbounded || len(def.Warnings) != 0 {
		t.Errorf("unlimited-horizon figures: %v, warnings %q", def.Process.Unbounded, def.Warnings)
	}
}

func TestRunContextCancelled(t *testing.T) {
	m, c := woundConfig(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := exact.RunContext(ctx, m, c, exact.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v; want context.Canceled", err)
	}
}

// A record whose codes span billions (a wide field packed above a small
// one): its dense outcome table would take tens of GiB.
func TestHugeRecordSpanRefused(t *testing.T) {
	for _, c := range []struct {
		hi   int
		fits bool
	}{{1 << 30, false}, {1 << 16, true}} {
		rec := mechanics.NewRecord(mechanics.Int("a", 1, 6, "a die"), mechanics.Int("far", 0, c.hi, "a wide field"))
		sa, sf := rec.Slot("a"), rec.Slot("far")
		spec := &mechanics.Spec{Record: rec, Outcome: mechanics.Combine{X: mechanics.D(6), Y: mechanics.D(2), Name: "pack",
			F: func(a, b int) int { return sf.Set(sa.Set(rec.Start(), a), (b-1)*c.hi) }}}
		spec.Report("a")
		err := exact.ComputeContext(context.Background(), spec, &engine.Result{}, exact.Options{})
		if c.fits && err != nil {
			t.Errorf("far ≤ %d: %v", c.hi, err)
		}
		if !c.fits && !engine.IsMemory(err) {
			t.Errorf("far ≤ %d: error %v; want a engine.MemoryError", c.hi, err)
		}
	}
}
