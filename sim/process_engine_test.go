package sim

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
)

// The processes below exercise each path of the process worker; every one
// is checked against the exact engine with CrossCheck.

// inhomogeneousStep is a Step-form chain that mostly stays put: tests fall
// on every fifth step (the other steps are Const identities, which the
// worker skips), and the test's threshold depends on t.
func inhomogeneousStep() *mechanics.Process {
	p := &mechanics.Process{Horizon: 43, TimeUnit: "day"}
	for s := 0; s <= 5; s++ {
		p.Add(false, fmt.Sprint("wounds ", s))
	}
	dead := p.Add(true, "dead")
	roll := mechanics.Repeat{X: mechanics.D(6), N: 2}
	p.Step = func(t, s int) mechanics.Node {
		if t%5 != 1 {
			return mechanics.Const{V: s}
		}
		tn := 6 + t/10
		return mechanics.Map{X: roll, F: func(r int) int {
			switch {
			case r >= tn:
				return s
			case r <= 3 || s == 5:
				return dead
			}
			return s + 1
		}}
	}
	return p
}

// keyedKernel is a time-dependent Kernel-form walk with two kernels by key:
// a small table every step but each third, and on the third a pair of
// tables too large to table whole (6d6 against 2d6).
func keyedKernel() *mechanics.Process {
	p := &mechanics.Process{Horizon: 25, TimeUnit: "round"}
	const G = 24
	for g := 1; g < G; g++ {
		p.Add(false, fmt.Sprint("gap ", g))
	}
	caught := p.Add(true, "caught", "escaped")
	p.Start = 9
	regular := mechanics.Combine{X: mechanics.D(6), Y: mechanics.D(6), F: func(a, b int) int { return a - b }}
	obstacle := mechanics.Combine{X: mechanics.Repeat{X: mechanics.D(6), N: 6}, Y: mechanics.Repeat{X: mechanics.D(6), N: 2},
		F: func(a, b int) int { return (a-21)/3 - (b-7)/2 }}
	p.Kernel = func(t int) mechanics.Node {
		if t%3 == 0 {
			return obstacle
		}
		return regular
	}
	p.KernelKey = func(t int) int { return min(t%3, 1) }
	p.Move = func(_, s, x int) int {
		g := s + 1 + x
		switch {
		case g <= 0:
			return caught
		case g >= G:
			return caught + 1
		}
		return g - 1
	}
	return p
}

// timeDependentMove shares one kernel at every step (constant key) but its
// Move depends on t from some states: the block engine runs the t-free
// states and hands the trial over where the chain meets the others. With
// start ≥ 4 the start state itself is not t-free. Move raises a fault of
// the model where the chain cannot be, which the t-freeness check must
// survive.
func timeDependentMove(start int) *mechanics.Process {
	p := &mechanics.Process{Horizon: 60, TimeUnit: "use", KernelKey: func(int) int { return 7 }, Start: start}
	for s := 0; s < 12; s++ {
		p.Add(false, fmt.Sprint("level ", s))
	}
	broken := p.Add(true, "broken")
	done := p.Add(true, "done")
	p.Kernel = func(int) mechanics.Node { return mechanics.D(10) }
	p.Move = func(t, s, x int) int {
		switch {
		case x == 1:
			return broken
		case x <= 3:
			return s
		}
		if t == 1 && s != start {
			mechanics.Raise("the chain is at its start at the first use")
		}
		up := 1
		if s >= 4 && t%4 == 0 { // from level 4 on, every fourth use goes two up
			up = 2
		}
		if s+up >= 12 {
			return done
		}
		return s + up
	}
	return p
}

// blockWalk is a homogeneous walk driven by a coin (blocks of several steps
// per lookup), with a state that can never be left (it reaches the horizon
// stuck) and a horizon that is not a multiple of the block size, so trials
// also take single steps near the end. Move raises a fault of the model on
// a state the walk can never reach, which the class merging must survive.
func blockWalk() *mechanics.Process {
	p := &mechanics.Process{Horizon: 97, Homogeneous: true, TimeUnit: "flip", Start: 5}
	for s := 0; s <= 12; s++ {
		p.Add(s == 0 || s == 11, fmt.Sprint("pos ", s))
	}
	p.Kernel = func(int) mechanics.Node { return mechanics.Die{Faces: []int{-1, 0, 1}, Weights: []int64{4, 1, 3}} }
	p.Move = func(_, s, x int) int {
		switch s {
		case 12:
			mechanics.Raise("state 12 is unreachable")
		case 8:
			return 8 // stuck
		}
		return s + x
	}
	return p
}

// coinRuns is a homogeneous chain of two states left with a small
// probability each step (long trials, blocks of many steps).
func coinRuns() *mechanics.Process {
	p := &mechanics.Process{States: []string{"calm", "scared", "fled"}, Absorbing: []bool{false, false, true}, Horizon: 90, Homogeneous: true, TimeUnit: "turn"}
	p.Kernel = func(int) mechanics.Node { return mechanics.D(20) }
	p.Move = func(_, s, x int) int {
		switch {
		case x == 1:
			return 2
		case x <= 3:
			return 1 - s
		}
		return s
	}
	return p
}

// lanesWalk is a homogeneous chain whose trials end at random within the
// first blocks of the jump engine, which runs it two trials at a time
// (runLanes): a d20 where a 1 kills, with a state that a 2 sends to its doom
// in one step (a row with a single result), a state that can never be
// left, and a horizon that leaves a last, shorter block.
func lanesWalk() *mechanics.Process {
	p := &mechanics.Process{Horizon: 50, Homogeneous: true, TimeUnit: "round", Start: 2}
	for s := 0; s <= 9; s++ {
		p.Add(false, fmt.Sprint("pos ", s))
	}
	dead := p.Add(true, "dead")
	doomed := p.Add(true, "doomed")
	p.Kernel = func(int) mechanics.Node { return mechanics.D(20) }
	p.Move = func(_, s, x int) int {
		switch {
		case s == 9:
			return 9 // stuck
		case s == 7:
			return doomed
		case x == 1:
			return dead
		case x == 2 && s < 7:
			return 7
		case x >= 17:
			return s + 1
		}
		return s
	}
	return p
}

// pairWalk is a homogeneous chain whose kernel is a pair of tables too
// large to multiply out (two d300 read as coins of 1/3 and 1/5): the block
// engine would draw every step's pair; the jump engine takes three steps a
// draw (90 000³ sequences).
func pairWalk() *mechanics.Process {
	p := &mechanics.Process{Horizon: 40, Homogeneous: true, TimeUnit: "round"}
	for s := 0; s <= 6; s++ {
		p.Add(false, fmt.Sprint("pos ", s))
	}
	dead := p.Add(true, "dead")
	coin := func(n int) mechanics.Node {
		return mechanics.Map{X: mechanics.D(300), F: func(x int) int { return min(1, x%n) }}
	}
	p.Kernel = func(int) mechanics.Node {
		return mechanics.Combine{X: coin(3), Y: coin(5), F: func(a, b int) int { return 2*a + b }}
	}
	p.Move = func(_, s, x int) int {
		switch {
		case x == 0:
			return dead
		case x == 3 && s < 6:
			return s + 1
		case x == 1 && s > 0:
			return s - 1
		}
		return s
	}
	return p
}

// weightedWalk is a homogeneous chain whose kernel is a die with weights
// too heavy for a table (a weighted kernel: classes drawn by weight, rows,
// and the jump engine over the total weight, 10⁶ + 7, three steps a draw).
func weightedWalk() *mechanics.Process {
	p := &mechanics.Process{Horizon: 30, Homogeneous: true, TimeUnit: "round"}
	for s := 0; s <= 6; s++ {
		p.Add(false, fmt.Sprint("pos ", s))
	}
	dead := p.Add(true, "dead")
	die := mechanics.Die{Faces: []int{0, 1, 2}, Weights: []int64{100_007, 300_000, 600_000}}
	p.Kernel = func(int) mechanics.Node { return die }
	p.Move = func(_, s, x int) int {
		switch {
		case x == 0:
			return dead
		case x == 1 && s < 6:
			return s + 1
		}
		return s
	}
	return p
}

// settledWalk is a homogeneous chain whose kernel is a comparison of
// bursting dice, d20 + 2d12! > 15: a weighted table of 2683 and 14 597 out
// of 17 280 (see fromCounts), its draws batched several a word.
func settledWalk() *mechanics.Process {
	p := &mechanics.Process{Horizon: 40, Homogeneous: true, TimeUnit: "attack"}
	for s := 0; s <= 5; s++ {
		p.Add(false, fmt.Sprint("pos ", s))
	}
	dead := p.Add(true, "dead")
	d12 := mechanics.Explode{Die: mechanics.D(12)}
	roll := mechanics.Sum{Terms: []mechanics.Node{mechanics.D(20), d12, d12}}
	p.Kernel = func(int) mechanics.Node { return mechanics.Compare{X: roll, Op: mechanics.GT, T: 15} }
	p.Move = func(_, s, x int) int {
		switch {
		case x == 1 && s < 5:
			return s + 1
		case x == 0 && s == 0:
			return dead
		case x == 0:
			return s - 1
		}
		return s
	}
	return p
}

// periodicWalk is a time-dependent walk whose kernels repeat every third
// step (a coin, a d3, a weighted die), with a state that can never be left
// and a horizon that leaves a last block of two steps. With tAt7, Move
// differs at step 7 from state 1 (the jump engine cannot take blocks of a
// period, and the per-step loop runs).
func periodicWalk(tAt7 bool) *mechanics.Process {
	p := &mechanics.Process{Horizon: 17, TimeUnit: "turn", Start: 2}
	for s := 0; s <= 5; s++ {
		p.Add(false, fmt.Sprint("pos ", s))
	}
	low := p.Add(true, "low", "high")
	kernels := []mechanics.Node{
		mechanics.Die{Faces: []int{-1, 0, 2}, Weights: []int64{1, 2, 1}},
		mechanics.Die{Faces: []int{-1, 1}},
		mechanics.D(3),
	}
	p.Kernel = func(t int) mechanics.Node { return kernels[t%3] }
	p.KernelKey = func(t int) int { return t % 3 }
	p.Move = func(t, s, x int) int {
		switch {
		case s == 4:
			return 4 // stuck
		case tAt7 && t == 7 && s == 1:
			return 3
		case s+x < 0:
			return low
		case s+x > 5:
			return low + 1
		}
		return s + x
	}
	return p
}

// homogeneousStep is a Step-form chain whose rows draw tables of several
// radices, one row a sampler (too large to table), one deterministic and
// one that stays put.
func homogeneousStep() *mechanics.Process {
	p := &mechanics.Process{Horizon: 30, Homogeneous: true, TimeUnit: "turn"}
	for s := 0; s < 6; s++ {
		p.Add(false, fmt.Sprint("s", s))
	}
	end := p.Add(true, "end")
	p.Step = func(_, s int) mechanics.Node {
		switch s {
		case 0:
			return mechanics.Map{X: mechanics.D(20), F: func(x int) int { return min(x/4, 5) }}
		case 1:
			return mechanics.Const{V: 3}
		case 2:
			return mechanics.Map{X: mechanics.Repeat{X: mechanics.D(6), N: 9}, F: func(x int) int { return min(x/9, 6) }}
		case 5:
			return mechanics.Const{V: 5} // stuck until the horizon
		}
		return mechanics.Map{X: mechanics.D(6), F: func(x int) int {
			if x == 1 {
				return end
			}
			return (s + x) % 6
		}}
	}
	return p
}

// idleDays is a time-dependent Kernel-form chain whose tests fall on a few
// days (two kernels by key) and every other day is a constant kernel that
// leaves most states in place — but moves state 2 on, so a stretch of idle
// days is a jump only for the states it leaves alone.
func idleDays() *mechanics.Process {
	p := &mechanics.Process{Horizon: 40, TimeUnit: "day"}
	for s := 0; s <= 4; s++ {
		p.Add(false, fmt.Sprint("ill ", s))
	}
	dead := p.Add(true, "dead")
	test := func(tn int) mechanics.Node {
		return mechanics.Map{X: mechanics.Repeat{X: mechanics.D(6), N: 2}, F: func(r int) int {
			switch {
			case r >= tn:
				return 0
			case r <= 3:
				return 2
			}
			return 1
		}}
	}
	testDay := func(t int) bool { return t == 1 || t == 7 || t == 8 || t == 30 }
	p.Kernel = func(t int) mechanics.Node {
		if !testDay(t) {
			return mechanics.Const{V: 0}
		}
		return test(6 + t/10)
	}
	p.KernelKey = func(t int) int {
		if !testDay(t) {
			return 0
		}
		return 1 + t/10
	}
	p.Move = func(_, s, x int) int {
		switch {
		case s == 2 && x == 0: // state 2 worsens by itself, even on idle days
			return 3
		case x == 2 || s+x > 4:
			return dead
		}
		return s + x
	}
	return p
}

func engineCases() map[string]*mechanics.Process {
	return map[string]*mechanics.Process{
		"idle days":               idleDays(),
		"inhomogeneous step":      inhomogeneousStep(),
		"keyed kernel":            keyedKernel(),
		"t-dependent move":        timeDependentMove(0),
		"t-dependent move from 5": timeDependentMove(5),
		"homogeneous blocks":      blockWalk(),
		"homogeneous long blocks": coinRuns(),
		"homogeneous step":        homogeneousStep(),
		"homogeneous lanes":       lanesWalk(),
		"homogeneous pair":        pairWalk(),
		"homogeneous weighted":    weightedWalk(),
		"homogeneous settled":     settledWalk(),
		"periodic walk":           periodicWalk(false),
		"periodic walk, t at 7":   periodicWalk(true),
		"keyless kernels":         withKernelKey(keyedKernel(), nil),
		"absorbing start":         withStart(coinRuns(), 2),
	}
}

func exactOutcome(t *testing.T, p *mechanics.Process) engine.Dist {
	t.Helper()
	ch, err := exact.SolveProcess(p)
	if err != nil {
		t.Fatal(err)
	}
	return ch.Outcome
}

func withStart(p *mechanics.Process, s int) *mechanics.Process {
	p.Start = s
	return p
}

func withKernelKey(p *mechanics.Process, key func(int) int) *mechanics.Process {
	p.KernelKey = key
	return p
}

// crossCheck simulates p, its workers tuned by tune, and checks the counts
// against the exact engine.
func crossCheck(t *testing.T, name string, p *mechanics.Process, seed uint64, n int64, tune tuning) {
	t.Helper()
	h, err := Outcomes(context.Background(), mechanics.ProcessSpec(p), Options{Trials: n, Seed: seed, tune: tune})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if a := engine.ChiSquare(h.Lo, h.Counts, exactOutcome(t, p)); a.Impossible > 0 || a.P < 1e-6 {
		t.Errorf("%s: simulation disagrees with exact: chi2 = %.1f, df = %d, p = %.3g, impossible = %d", name, a.Stat, a.DF, a.P, a.Impossible)
	}
}

func TestProcessEnginesVsExact(t *testing.T) {
	for name, p := range engineCases() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			crossCheck(t, name, p, 17, trials(200_000, 600_000), tuning{})
		})
	}
}

// TestProcessFallbacksVsExact runs the same processes with a budget too
// small for any precomputed table: Move every step, contexts without rows,
// the direct-mapped cache of Step-form rows.
func TestProcessFallbacksVsExact(t *testing.T) {
	for name, p := range engineCases() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			crossCheck(t, name+" (no budget)", p, 18, trials(100_000, 200_000), noTables)
		})
	}
}

// TestProcessEngineUsed pins which loop runs each test process, so the
// tests above cover them all.
func TestProcessEngineUsed(t *testing.T) {
	engine := func(p *mechanics.Process, tune tuning) string {
		w := ranWorker(t, p, 100, tune)
		switch kf := &w.kern; {
		case p.Kernel == nil && w.step.cache != nil:
			return "step cache"
		case p.Kernel == nil:
			return "step rows"
		case kf.jmp != nil && kf.jmp.lanes:
			return "jumps, two lanes"
		case kf.jmp != nil:
			return "jumps"
		case kf.blk != nil && kf.blk.timed:
			return "blocks, t-free"
		case kf.blk != nil && kf.blk.kb > 1:
			return "blocks"
		case kf.blk != nil:
			return "single steps"
		case kf.moves != nil:
			return "moves"
		}
		return "per-step contexts"
	}
	for name, want := range map[string]string{
		"inhomogeneous step":      "step rows",
		"keyed kernel":            "jumps",
		"periodic walk":           "jumps",
		"periodic walk, t at 7":   "per-step contexts",
		"t-dependent move":        "blocks, t-free",
		"t-dependent move from 5": "per-step contexts",
		"homogeneous blocks":      "jumps",
		"homogeneous long blocks": "jumps, two lanes",
		"homogeneous lanes":       "jumps, two lanes",
		"homogeneous pair":        "jumps",
		"homogeneous weighted":    "jumps, two lanes",
		"homogeneous step":        "step rows",
	} {
		if got := engine(engineCases()[name], tuning{}); got != want {
			t.Errorf("%s runs on %q, want %q", name, got, want)
		}
	}
	w := ranWorker(t, coinRuns(), 10, tuning{})
	if b := w.kern.blk; b == nil || b.C != 3 || b.kb < 3 {
		t.Errorf("coin runs: want the 20 kernel classes merged to 3 and blocks of ≥ 3 steps, got %+v", b)
	}
	for _, name := range []string{"homogeneous blocks", "homogeneous long blocks", "homogeneous pair", "homogeneous weighted"} {
		if got := engine(engineCases()[name], tuning{noJump: true}); got != "blocks" {
			t.Errorf("%s without the jump engine runs on %q, want blocks", name, got)
		}
	}
	if got := engine(keyedKernel(), tuning{noJump: true}); got != "per-step contexts" {
		t.Errorf("keyed kernel without the jump engine runs on %q, want per-step contexts", got)
	}
	for name, want := range map[string]string{
		"inhomogeneous step": "step cache",
		"homogeneous blocks": "moves",
	} {
		if got := engine(engineCases()[name], noTables); got != want {
			t.Errorf("%s without budget runs on %q, want %q", name, got, want)
		}
	}
}

// TestProcessBudgetKeepsResults: steps of a time-dependent chain without
// rows draw what they would with rows, so the budget changes speed, never
// the counts, on the per-step loop (whether the jump engine runs depends
// on the budget, as for homogeneous chains).
func TestProcessBudgetKeepsResults(t *testing.T) {
	for _, p := range []*mechanics.Process{keyedKernel(), timeDependentMove(5)} {
		spec := &mechanics.Spec{Process: p}
		a, err := Outcomes(context.Background(), spec, Options{Trials: 3*ChunkSize + 5, Seed: 4, tune: tuning{noJump: true}})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Outcomes(context.Background(), spec, Options{Trials: 3*ChunkSize + 5, Seed: 4, tune: tuning{noJump: true, tables: 64}})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Error("a smaller budget changed the counts")
		}
	}
}

// TestProcessWorkerCountInvariance: every process path gives the same
// counts for any number of workers.
func TestProcessWorkerCountInvariance(t *testing.T) {
	for name, p := range engineCases() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			spec := &mechanics.Spec{Process: p}
			var first Hist
			for _, w := range []int{1, 2, 3} {
				h, err := Outcomes(context.Background(), spec, Options{Trials: 3*ChunkSize + 321, Seed: 5, Workers: w})
				if err != nil {
					t.Fatal(err)
				}
				if h.Total() != 3*ChunkSize+321 {
					t.Fatalf("%d trials counted", h.Total())
				}
				if w == 1 {
					first = h
				} else if !reflect.DeepEqual(h, first) {
					t.Errorf("%d workers gave different counts than 1", w)
				}
			}
		})
	}
}

// TestProcessNoAllocsPerTrial: once the states a chunk visits are
// compiled, running it again allocates nothing.
func TestProcessNoAllocsPerTrial(t *testing.T) {
	for name, p := range engineCases() {
		w := newProcessWorker(p)
		var src source
		for c := uint64(0); c < 3; c++ {
			src.Seed(1, c)
			if err := w.run(&src, 20000); err != nil {
				t.Fatal(err)
			}
		}
		if a := testing.AllocsPerRun(10, func() {
			src.Seed(1, 1)
			w.run(&src, 20000)
		}); a != 0 {
			t.Errorf("%s: %v allocations per 20000 trials", name, a)
		}
	}
}

// TestProcessWrongModelIsCaught: the cross-check of a process can fail.
// The simulated chain breaks on a 1 or 2 of the d10, the exact one on a 1
// only.
func TestProcessWrongModelIsCaught(t *testing.T) {
	right := coinRuns()
	wrong := coinRuns()
	wrong.Move = func(_, s, x int) int {
		switch {
		case x <= 2:
			return 2
		case x <= 3:
			return 1 - s
		}
		return s
	}
	h, err := Outcomes(context.Background(), &mechanics.Spec{Process: wrong}, Options{Trials: trials(100_000, 400_000), Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	d := exactOutcome(t, right)
	if a := engine.ChiSquare(h.Lo, h.Counts, d); a.P > 1e-6 {
		t.Fatalf("a wrong process passed the chi-square test: p = %v", a.P)
	}
}

// TestProcessBadState: a step to a state that does not exist is an error,
// not a panic, in every form.
func TestProcessBadState(t *testing.T) {
	kern := blockWalk()
	kern.Move = func(_, s, x int) int { return s + 3*x }
	timed := timeDependentMove(0)
	timed.Move = func(t, s, x int) int { return s + x }
	step := inhomogeneousStep()
	step.Step = func(t, s int) mechanics.Node { return mechanics.Const{V: s + 1 - 2*(t%3)} }
	for name, p := range map[string]*mechanics.Process{"kernel": kern, "timed kernel": timed, "step": step} {
		_, err := Outcomes(context.Background(), &mechanics.Spec{Process: p}, Options{Trials: 1000, Seed: 1})
		if err == nil || !strings.Contains(err.Error(), "outside the") {
			t.Errorf("%s: want an out-of-range error, got %v", name, err)
		}
	}
}

// TestHistMerge: merging widens the counts once, exactly as far as the
// nonzero counts reach, as adding them one by one did.
func TestHistMerge(t *testing.T) {
	oneByOne := func(hs ...Hist) Hist {
		var h Hist
		for _, o := range hs {
			for i, c := range o.Counts {
				if c != 0 {
					h.add(o.Lo+i, c)
				}
			}
		}
		return h
	}
	parts := []Hist{
		{Lo: 10, Counts: []int64{0, 0, 3, 0, 1, 0}},
		{Lo: 2, Counts: []int64{0, 5, 0}},
		{Lo: 40, Counts: []int64{0, 0}},
		{Lo: 11, Counts: []int64{2, 2, 2}},
		{Lo: 30, Counts: []int64{7}},
		{},
	}
	var h Hist
	for _, o := range parts {
		h.Merge(o)
	}
	if want := oneByOne(parts...); !reflect.DeepEqual(h.Lo, want.Lo) || !reflect.DeepEqual(h.Counts, want.Counts) {
		t.Errorf("merged %d %v, want %d %v", h.Lo, h.Counts, want.Lo, want.Counts)
	}
}
