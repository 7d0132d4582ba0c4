package sim

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// engineBug is the panic value of a model that breaks an engine on
// purpose: not a mechanics.Fault, so no engine may recover it.
type engineBug string

// panicOf runs f and returns what it panicked with (nil if it returned).
func panicOf(f func()) (x any) {
	defer func() { x = recover() }()
	f()
	return nil
}

// failingMove makes p's Move panic with x, once armed, wherever at(t, s)
// holds; it returns the switch.
func failingMove(p *mechanics.Process, at func(t, s int) bool, x any) (arm func()) {
	move, armed := p.Move, false
	p.Move = func(t, s, v int) int {
		if armed && at(t, s) {
			panic(x)
		}
		return move(t, s, v)
	}
	return func() { armed = true }
}

// TestFallbacksRecoverOnlyFaults: where the process worker tabulates Move
// ahead of need (over states or steps a trial may never meet) and falls
// back to a slower loop when Move fails, a mechanics.Fault selects the
// fallback, and any other panic, a bug, goes on to the caller.
func TestFallbacksRecoverOnlyFaults(t *testing.T) {
	cases := []struct {
		name string
		p    func() *mechanics.Process
		at   func(t, s int) bool
		// site sets up what it needs before arm, then runs the code that
		// holds the fallback and reports whether it fell back.
		site func(t *testing.T, w *processWorker, arm func()) bool
	}{
		{"class merging", coinRuns, func(_, s int) bool { return s == 1 },
			func(t *testing.T, w *processWorker, arm func()) bool {
				k := mustKernel(t, w, 1)
				arm()
				_, reps := refine(w, k)
				return len(reps) == len(k.vals)
			}},
		{"t-freeness", func() *mechanics.Process { return timeDependentMove(0) }, func(t, s int) bool { return t == 2 && s == 0 },
			func(t *testing.T, w *processWorker, arm func()) bool {
				b := newBlockChain(w, mustKernel(t, w, 1), true)
				arm()
				return !b.tfree(w, 0)
			}},
		{"rows by kernel key", func() *mechanics.Process { return periodicWalk(false) }, func(t, s int) bool { return t == 4 && s == 2 },
			func(t *testing.T, w *processWorker, arm func()) bool {
				kr := &keyRows{k: mustKernel(t, w, 1), ts: []int{1, 4, 7}}
				arm()
				return !w.kern.sameAt(w, kr, 1, 2)
			}},
		{"jump rows", blockWalk, func(_, s int) bool { return s == 6 },
			func(t *testing.T, w *processWorker, arm func()) bool {
				b := newBlockChain(w, mustKernel(t, w, 1), false)
				arm()
				return newJumpChain(w, b) == nil
			}},
		{"periodic jump rows", func() *mechanics.Process { return periodicWalk(false) }, func(_, s int) bool { return s == 3 },
			func(t *testing.T, w *processWorker, arm func()) bool {
				if err := w.kern.prepare(w); err != nil {
					t.Fatal(err)
				}
				arm()
				return newPeriodicJump(w, &w.kern) == nil
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if c.site(t, newProcessWorker(c.p()), func() {}) {
				t.Fatal("fell back with a Move that never fails")
			}
			fault := mechanics.Fault{Err: errors.New("no step from here")}
			p := c.p()
			if !c.site(t, newProcessWorker(p), failingMove(p, c.at, fault)) {
				t.Error("a fault of the model did not select the fallback")
			}
			p = c.p()
			arm := failingMove(p, c.at, engineBug("broken"))
			if x := panicOf(func() { c.site(t, newProcessWorker(p), arm) }); x != engineBug("broken") {
				t.Errorf("a bug in Move gave the panic %v, want it to go on", x)
			}
		})
	}
}

func mustKernel(t *testing.T, w *processWorker, step int) *compiledKernel {
	t.Helper()
	k, err := w.kern.kernel(w, step)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestWorkerPanics: a fault of the model in a worker ends the run with an
// error that wraps it; any other panic reaches the goroutine that called
// Outcomes, as it is, whichever worker met it.
func TestWorkerPanics(t *testing.T) {
	breaks := func(x any) *mechanics.Spec {
		return &mechanics.Spec{Outcome: mechanics.Map{X: mechanics.D(6), F: func(v int) int {
			if v == 6 {
				panic(x)
			}
			return v
		}}}
	}
	ctx := context.Background()
	for _, workers := range []int{1, 3} {
		opt := Options{Trials: 3 * ChunkSize, Seed: 1, Workers: workers}
		_, err := Outcomes(ctx, breaks(mechanics.Fault{Err: errors.New("no six")}), opt)
		var f mechanics.Fault
		if !errors.As(err, &f) || !strings.Contains(err.Error(), "the model failed: no six") {
			t.Errorf("%d workers: a fault gave %v, want the model failed: no six", workers, err)
		}
		x := panicOf(func() { _, _ = Outcomes(ctx, breaks(engineBug("broken")), opt) })
		if x != engineBug("broken") {
			t.Errorf("%d workers: a bug gave the panic %v, want it to go on", workers, x)
		}
	}
	// A fault of Move at a trial's step, past every fallback.
	p := coinRuns()
	failingMove(p, func(_, s int) bool { return s == 1 }, mechanics.Fault{Err: errors.New("scared")})()
	if _, err := Outcomes(ctx, mechanics.ProcessSpec(p), Options{Trials: 1000, Seed: 1}); err == nil || !strings.Contains(err.Error(), "scared") {
		t.Errorf("a fault of Move gave %v, want an error", err)
	}
}
