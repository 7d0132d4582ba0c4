package sim

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/fixtures"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

func wantSimMemoryError(t *testing.T, err error, words ...string) {
	t.Helper()
	var me *engine.MemoryError
	if !errors.As(err, &me) || !mechanics.IsInput(err) {
		t.Fatalf("error %v; want a MemoryError marked as bad input", err)
	}
	msg := err.Error()
	for _, w := range append([]string{"needs about", "the memory budget is", "--memory"}, words...) {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q does not say %q", msg, w)
		}
	}
	if strings.Contains(msg, "oddsmith sim") {
		t.Errorf("the simulator suggests itself: %q", msg)
	}
}

// packed is a record whose codes span about 6·far: a die packed below a
// coin that is 0 or far.
func packed(far int) *mechanics.Spec {
	rec := mechanics.NewRecord(mechanics.Int("a", 1, 6, "a die"), mechanics.Int("far", 0, far, "a wide field"))
	sa, sf := rec.Slot("a"), rec.Slot("far")
	spec := &mechanics.Spec{Record: rec, Outcome: mechanics.Combine{X: mechanics.D(6), Y: mechanics.D(2), Name: "pack",
		F: func(a, b int) int { return sf.Set(sa.Set(rec.Start(), a), (b-1)*far) }}}
	return spec.Report("a")
}

// spread is a sampled (not tabled) model whose values are spread k apart:
// 10d6 (more combinations than a table holds) times k.
func spread(k int) *mechanics.Spec {
	return &mechanics.Spec{Outcome: mechanics.Scale{X: mechanics.Repeat{X: mechanics.D(6), N: 10}, K: k}}
}

// The histograms are dense over the outcome codes a worker sees: a model
// whose codes span billions is refused before its counts are allocated.
func TestHistogramBudget(t *testing.T) {
	_, err := Outcomes(context.Background(), packed(1<<30), Options{Trials: 1000, Seed: 1})
	wantSimMemoryError(t, err, "outcome counts of one worker", "narrower range")
	if _, err := Outcomes(context.Background(), packed(1<<16), Options{Trials: 1000, Seed: 1}); err != nil {
		t.Errorf("a span of 400 000 codes: %v", err)
	}
	// Sampled models grow their histograms as they go.
	_, err = Outcomes(context.Background(), spread(1<<24), Options{Trials: 1000, Seed: 1})
	wantSimMemoryError(t, err, "outcome counts of one worker")
	a, err := Outcomes(context.Background(), spread(1<<10), Options{Trials: 100_000, Seed: 1})
	if err != nil {
		t.Fatalf("a span of 51 000 codes: %v", err)
	}
	_, err = Outcomes(context.Background(), spread(1<<10), Options{Trials: 100_000, Seed: 1, MemoryBytes: 256 << 10})
	wantSimMemoryError(t, err, "(the memory budget is 256 KiB)")
	b, err := Outcomes(context.Background(), spread(1<<10), Options{Trials: 100_000, Seed: 1, MemoryBytes: 1 << 40})
	if err != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("a larger budget changed the counts (%v)", err)
	}
}

// The summaries are dense over a variable's values too: a d6 reported
// times 2¹⁶ needs small counts but a wide variable (6 MiB).
func TestSummaryBudget(t *testing.T) {
	rec := mechanics.NewRecord(mechanics.Int("v", 1, 6, "a die"))
	spec := &mechanics.Spec{Record: rec, Outcome: mechanics.D(6),
		Vars: []mechanics.Var{{Name: "wide", Expr: expr.Mul(expr.F("v"), expr.K(1<<16))}}}
	err := simulate(context.Background(), spec, Options{Trials: 10_000, Seed: 1, MemoryBytes: 4 << 20}, &engine.Result{})
	wantSimMemoryError(t, err, "variable wide", "(the memory budget is 4 MiB)")
	if err := simulate(context.Background(), spec, Options{Trials: 10_000, Seed: 1}, &engine.Result{}); err != nil {
		t.Errorf("within the default budget: %v", err)
	}
}

// exitWalk is a walk on a ring of S states that leaves to an absorbing
// exit with probability 1/exit per step, over a long horizon: absorption
// times, and so outcome codes t·S + s, spread over a wide range.
func exitWalk(S, exit, horizon int) *mechanics.Process {
	p := &mechanics.Process{Homogeneous: true, Horizon: horizon, TimeUnit: "step"}
	for s := range S {
		p.Add(false, fmt.Sprint("ring ", s))
	}
	out := p.Add(true, "exit")
	p.Kernel = func(int) mechanics.Node { return mechanics.D(exit) }
	p.Move = func(_, s, x int) int {
		if x == exit {
			return out
		}
		return (s + x%3 + S - 1) % S
	}
	return p
}

func TestProcessHistogramBudget(t *testing.T) {
	spec := &mechanics.Spec{Process: exitWalk(200, 200, 100_000)}
	_, err := Outcomes(context.Background(), spec, Options{Trials: 20_000, Seed: 1, MemoryBytes: 1 << 20})
	wantSimMemoryError(t, err, "outcome counts of one worker", "201 states", "shorter horizon")
	if _, err := Outcomes(context.Background(), spec, Options{Trials: 20_000, Seed: 1}); err != nil {
		t.Errorf("within the default budget: %v", err)
	}
}

// The default budget and a larger one give the same counts: the process
// tables a worker may take are the same.
func TestBudgetKeepsProcessCounts(t *testing.T) {
	for name, p := range engineCases() {
		spec := &mechanics.Spec{Process: p}
		a, err := Outcomes(context.Background(), spec, Options{Trials: 2*ChunkSize + 7, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Outcomes(context.Background(), spec, Options{Trials: 2*ChunkSize + 7, Seed: 3, MemoryBytes: 1 << 40})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: a larger budget changed the counts", name)
		}
	}
}

// A chunk of a slow process takes seconds; a cancellation must not wait
// for it: the worker looks at the context between batches of trials (and,
// building a time-dependent chain's steps, at each), so the cancellation,
// at the 4th look, falls inside the first chunk, and the run must stop at
// that look.
func TestCancelInsideAChunk(t *testing.T) {
	slow := map[string]*mechanics.Process{
		"kernel": exitWalk(50, 1<<20, 20_000),
		"step": {Homogeneous: false, Horizon: 1_000_000, TimeUnit: "step",
			States: []string{"a", "b", "c", "out"}, Absorbing: []bool{false, false, false, true},
			Step: func(t, s int) mechanics.Node {
				return mechanics.Map{X: mechanics.D(1 << 20), Name: "next", F: func(x int) int {
					if x == 1 {
						return 3
					}
					return (s + x) % 3
				}}
			}},
	}
	const at = 4
	for name, p := range slow {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := fixtures.CancelAt(at)
			_, err := Outcomes(ctx, &mechanics.Spec{Process: p}, Options{Trials: ChunkSize, Seed: 1, Workers: 1})
			if !errors.Is(err, context.Canceled) {
				t.Errorf("error %v; want context.Canceled", err)
			}
			if n := ctx.Looks(); n != at {
				t.Errorf("looked at the context %d times; want the look that saw it cancelled, the %dth, to be the last", n, at)
			}
		})
	}
}
