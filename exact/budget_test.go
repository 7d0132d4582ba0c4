package exact

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/fixtures"
	"github.com/oddsmith/oddsmith/mechanics"
	"gonum.org/v1/gonum/mat"
)

// wantMemoryError checks that err is a memory refusal marked as bad input
// whose message names the size and the budget.
func wantMemoryError(t *testing.T, err error, budget int64, words ...string) *engine.MemoryError {
	t.Helper()
	var me *engine.MemoryError
	if !errors.As(err, &me) {
		t.Fatalf("error %v; want a *engine.MemoryError", err)
	}
	if !mechanics.IsInput(err) {
		t.Errorf("%v is not marked as bad input", err)
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") {
		t.Errorf("message is not one line: %q", msg)
	}
	for _, w := range append([]string{"needs about " + engine.FormatBytes(me.Need), "the memory budget is " + engine.FormatBytes(budget), "--memory"}, words...) {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q does not say %q", msg, w)
		}
	}
	if me.Need+me.Held <= budget {
		t.Errorf("refused %d bytes (+%d held) within a budget of %d", me.Need, me.Held, budget)
	}
	return me
}

func evalWith(ctx context.Context, mem int64, n mechanics.Node) (engine.Dist, error) {
	d, _, err := evalChecked(engine.NewBudget(ctx, mem), n)
	return d, err
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1 KiB", 1536: "1.5 KiB",
		1 << 30: "1 GiB", 4831838208: "4.5 GiB", 200 << 20: "200 MiB", 1<<62 + 1<<61: "6 EiB", 48<<30 + 1: "48 GiB", 10<<20 - 1: "10 MiB"} {
		if got := engine.FormatBytes(n); got != want {
			t.Errorf("engine.FormatBytes(%d) = %q; want %q", n, got, want)
		}
	}
}

func TestSpanAndSaturation(t *testing.T) {
	if got := engine.Span(-1<<62, 1<<62); got != 1<<63-1 {
		t.Errorf("span over the whole int range = %d; want saturated", got)
	}
	if got := engine.Span(3, 3); got != 1 {
		t.Errorf("engine.Span(3, 3) = %d", got)
	}
	if got := engine.MulBytes(1<<40, 1<<40); got != 1<<63-1 {
		t.Errorf("mulBytes overflow = %d; want saturated", got)
	}
}

// Each technique refuses a node too large for its budget before
// allocating it, and computes it when the budget allows.
func TestBudgetRefusesEachTechnique(t *testing.T) {
	const small = 1 << 20 // 1 MiB
	wide := mechanics.Map{X: mechanics.D(6), Name: "spread", F: func(x int) int { return x << 20 }}
	cases := []struct {
		name  string
		node  mechanics.Node
		words []string
	}{
		{"map", wide, []string{"map spread", "5242881 values"}},
		{"scale", mechanics.Scale{X: mechanics.D(6), K: 1 << 20}, []string{"times 1048576"}},
		{"sum", mechanics.Sum{Terms: []mechanics.Node{mechanics.D(100000), mechanics.D(100000)}}, []string{"a sum"}},
		{"repeat", mechanics.Repeat{X: mechanics.D(70000), N: 4}, []string{"a sum"}},
		{"combine", mechanics.Combine{X: mechanics.D(6), Y: mechanics.D(6), Name: "pack", F: func(a, b int) int { return a + b<<20 }},
			[]string{"combine pack"}},
		{"max", mechanics.Max{Terms: []mechanics.Node{mechanics.Const{V: 0}, mechanics.Const{V: 1 << 20}}}, []string{"largest"}},
		{"mixture", mechanics.Mixture{Of: []mechanics.Node{mechanics.Const{V: 0}, mechanics.Const{V: 1 << 20}}, Weights: []int64{1, 1}},
			[]string{"mixture"}},
		{"keep", mechanics.Keep{Die: mechanics.D(1000), N: 100, K: 50, Highest: true}, []string{"keeping 50 of 100 dice", "fewer dice"}},
		{"pool", mechanics.Pool{Die: mechanics.D(20), N: 40, Eval: multisetEval{}}, []string{"pool of 40 dice"}},
		{"explode", mechanics.Explode{Die: mechanics.D(6), Limit: 1 << 20}, []string{"exploding", "explosion depth"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := evalWith(context.Background(), small, c.node)
			wantMemoryError(t, err, small, append(c.words, "oddsmith sim")...)
		})
	}
	// Within the default budget the small ones are computed.
	for _, n := range []mechanics.Node{wide, cases[1].node, cases[4].node, cases[5].node, cases[6].node} {
		if _, err := evalWith(context.Background(), 0, n); err != nil {
			t.Errorf("%T within the default budget: %v", n, err)
		}
	}
}

// multisetEval keeps the whole multiset of faces seen as its state, so its
// states multiply with every face: the pool DP's tables grow past any
// budget.
type multisetEval struct{}

func (multisetEval) Start() uint64 { return 0 }
func (multisetEval) Next(s uint64, f, c int) uint64 {
	return s*41 + uint64(c)
}
func (multisetEval) Final(s uint64) int { return int(s % 1000) }

// The same results whatever the budget, as long as the model fits.
func TestBudgetDoesNotChangeResults(t *testing.T) {
	nodes := []mechanics.Node{
		mechanics.Repeat{X: mechanics.D(6), N: 50},
		mechanics.Keep{Die: mechanics.D(10), N: 8, K: 3, Highest: true},
		mechanics.Explode{Die: mechanics.D(6), Limit: 10},
		mechanics.Combine{X: mechanics.D(20), Y: mechanics.D(12), Name: "diff", F: func(a, b int) int { return a - b }},
	}
	for _, n := range nodes {
		a, err := evalWith(context.Background(), 0, n)
		if err != nil {
			t.Fatal(err)
		}
		b, err := evalWith(context.Background(), 1<<40, n)
		if err != nil {
			t.Fatal(err)
		}
		if a.Lo != b.Lo || len(a.P) != len(b.P) {
			t.Fatalf("%T: supports differ", n)
		}
		for i := range a.P {
			if a.P[i] != b.P[i] {
				t.Fatalf("%T: P differs at %d", n, a.Lo+i)
			}
		}
	}
}

// cycleProcess is a random walk on a ring of S states, a d6 − 4 step, and
// when exits is set a d7 whose 7 leaves to an absorbing exit: one strongly
// connected component of S states.
func cycleProcess(S, horizon int, homogeneous, exits bool) *mechanics.Process {
	p := &mechanics.Process{Homogeneous: homogeneous, Horizon: horizon, TimeUnit: "step"}
	for s := range S {
		p.Add(false, fmt.Sprint("ring ", s))
	}
	exit := p.Add(true, "exit")
	die := mechanics.D(6)
	if exits {
		die = mechanics.D(7)
	}
	p.Kernel = func(int) mechanics.Node { return die }
	p.Move = func(_, s, x int) int {
		if x == 7 {
			return exit
		}
		return ((s+x-4)%S + S) % S
	}
	return p
}

func TestFundamentalMatrixSkippedWhenOverBudget(t *testing.T) {
	p := cycleProcess(600, 20, true, true)
	spec := mechanics.ProcessSpec(p)
	// The LU of 600 × 600 needs about 5.5 MiB: with 4 MiB the
	// propagation fits and the unlimited-horizon figures are skipped.
	small := &engine.Result{}
	if err := ComputeContext(context.Background(), spec, small, Options{MemoryBytes: 4 << 20}); err != nil {
		t.Fatal(err)
	}
	if small.Process.Unbounded || len(small.Warnings) != 1 || !strings.Contains(small.Warnings[0], "600 states that lead back to one another") {
		t.Errorf("over budget: unbounded %v, warnings %q", small.Process.Unbounded, small.Warnings)
	}
	full := &engine.Result{}
	if err := ComputeContext(context.Background(), spec, full, Options{}); err != nil {
		t.Fatal(err)
	}
	// Each step exits with probability 1/7: mean time 7.
	if !full.Process.Unbounded || math.Abs(full.Process.MeanTimeUnbounded-7) > 1e-9 || len(full.Warnings) != 0 {
		t.Errorf("within budget: unbounded %v mean %v warnings %q", full.Process.Unbounded, full.Process.MeanTimeUnbounded, full.Warnings)
	}
	if small.Event("absorbed:exit").P != full.Event("absorbed:exit").P {
		t.Errorf("the propagated figures depend on the budget")
	}
}

func TestProcessOutcomeTableOverBudget(t *testing.T) {
	// A ring of 1000 states, each with an exit of its own, over 5000
	// steps: about a thousand outcomes with mass at every step, an
	// outcome table of about 76 MiB even kept sparsely.
	const R = 1000
	p := &mechanics.Process{Homogeneous: true, Horizon: 5000, TimeUnit: "step"}
	for s := range R {
		p.Add(false, fmt.Sprint("ring ", s))
	}
	for s := range R {
		p.Add(true, fmt.Sprint("exit ", s))
	}
	p.Kernel = func(int) mechanics.Node { return mechanics.D(7) }
	p.Move = func(_, s, x int) int {
		if x == 7 {
			return R + s
		}
		return ((s+x-4)%R + R) % R
	}
	res := &engine.Result{}
	err := ComputeContext(context.Background(), mechanics.ProcessSpec(p), res, Options{MemoryBytes: 8 << 20})
	wantMemoryError(t, err, 8<<20, "outcome table", "2000 states", "shorter horizon")
}

// Work estimated beyond maxWork is refused before it starts, as bad input
// naming the way out.
func TestTooLongRefusedUpFront(t *testing.T) {
	for name, spec := range map[string]*mechanics.Spec{
		"sum of wide dice":  {Outcome: mechanics.Repeat{X: mechanics.D(20000), N: 3000}},
		"squaring":          {Outcome: mechanics.Repeat{X: mechanics.Die{Faces: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40}, Weights: []int64{2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}}, N: 20000}},
		"product of values": {Outcome: mechanics.Combine{X: mechanics.D(100000), Y: mechanics.D(100000), Name: "×", F: func(a, b int) int { return a * b }}},
	} {
		err := ComputeContext(context.Background(), spec, &engine.Result{}, Options{MemoryBytes: 64 << 30})
		if !mechanics.IsInput(err) || !strings.Contains(err.Error(), "oddsmith sim") {
			t.Errorf("%s: %v; want a refusal suggesting the simulator", name, err)
		}
	}
}

// A cancelled computation returns ctx.Err() at its next look at the
// context, wherever it is: the long loops look about every 2¹⁶ units of
// work, so the cancellation, at the 8th look, falls inside them, and the
// computation must not look again.
func TestCancelStopsLongComputations(t *testing.T) {
	long := map[string]*mechanics.Spec{
		// Propagation: a time-dependent walk whose step is mapped afresh
		// for each state at each of a million steps.
		"propagation": mechanics.ProcessSpec(cycleProcess(3000, 1_000_000, false, false)),
		// Convolution: a sum of many wide dice.
		"sum": {Outcome: mechanics.Repeat{X: mechanics.D(20000), N: 300}},
		// Keep DP: many dice with many faces.
		"keep": {Outcome: mechanics.Keep{Die: mechanics.D(300), N: 300, K: 150, Highest: true}},
	}
	const at = 8
	for name, spec := range long {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := fixtures.CancelAt(at)
			err := ComputeContext(ctx, spec, &engine.Result{}, Options{MemoryBytes: 4 << 30})
			if !errors.Is(err, context.Canceled) {
				t.Errorf("error %v; want context.Canceled", err)
			}
			if n := ctx.Looks(); n != at {
				t.Errorf("looked at the context %d times; want the look that saw it cancelled, the %dth, to be the last", n, at)
			}
		})
	}
}

// TestCancelDoesNotWaitForTheLU: the LU of a large component cannot be
// interrupted, so it runs in a goroutine of its own (interruptibly) and a
// cancellation returns while it runs on (here it would run until the test
// ends); a panic in it reaches the caller.
func TestCancelDoesNotWaitForTheLU(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	running, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	go func() {
		<-running
		cancel()
	}()
	_, _, err := interruptibly(engine.NewBudget(ctx, 0), func() (*mat.VecDense, bool) {
		close(running)
		<-release
		return nil, false
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v; want context.Canceled", err)
	}
	x := func() (x any) {
		defer func() { x = recover() }()
		_, _, _ = interruptibly(engine.DefaultBudget(), func() (*mat.VecDense, bool) { panic(engineBug("singular")) })
		return nil
	}()
	if x != engineBug("singular") {
		t.Errorf("a panic in the LU gave %v, want it raised again", x)
	}
}
