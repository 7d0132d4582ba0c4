package sim

import (
	"context"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/internal/fixtures"
	"github.com/oddsmith/oddsmith/mechanics"
)

func trials(short, long int64) int64 {
	if testing.Short() {
		return short
	}
	return long
}

// requireAgreement fails unless simulated counts pass a chi-square test
// against the exact distribution at p > 1e-6 (deterministic: fixed seed).
func requireAgreement(t *testing.T, name string, h Hist, d engine.Dist) {
	t.Helper()
	a := engine.ChiSquare(h.Lo, h.Counts, d)
	if a.Impossible > 0 || a.P < 1e-6 {
		t.Errorf("%s: simulation disagrees with exact: chi2 = %.1f, df = %d, p = %.3g, impossible = %d", name, a.Stat, a.DF, a.P, a.Impossible)
	}
}

// TestEveryNodeSimVsExact runs both engines on every node kind.
func TestEveryNodeSimVsExact(t *testing.T) {
	for name, n := range fixtures.NodeZoo() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d, _, err := exact.Eval(n)
			if err != nil {
				t.Fatal(err)
			}
			h, err := Outcomes(context.Background(), &mechanics.Spec{Outcome: n}, Options{Trials: trials(200_000, 1_000_000), Seed: 11})
			if err != nil {
				t.Fatal(err)
			}
			requireAgreement(t, name, h, d)
		})
	}
}

// TestLargeNodesUseGenericSamplers covers the paths that do not fit a table.
func TestLargeNodesUseGenericSamplers(t *testing.T) {
	d6 := mechanics.D(6)
	big := mechanics.Die{Faces: []int{1, 2, 3}, Weights: []int64{1 << 20, 3 << 20, 5}}
	nodes := map[string]mechanics.Node{
		"pool 9d6": mechanics.Pool{Die: d6, N: 9, Eval: mechanics.SumEval{}},
		// Pools rolled in groups and ranked among multisets: six faces
		// with the two-table rank, a size past it, eight faces, a weighted
		// die with repeated faces, and ten faces (rolled die by die).
		"pool 20d6 max":    mechanics.Pool{Die: d6, N: 20, Eval: maxCountEval{}},
		"pool 60d6 sum":    mechanics.Pool{Die: d6, N: 60, Eval: mechanics.SumEval{}},
		"pool 9d8 max":     mechanics.Pool{Die: mechanics.D(8), N: 9, Eval: maxCountEval{}},
		"pool 12 weighted": mechanics.Pool{Die: mechanics.Die{Faces: []int{1, 2, 2, 5}, Weights: []int64{1, 2, 1, 3}}, N: 12, Eval: maxCountEval{}},
		"pool 8d10 max":    mechanics.Pool{Die: mechanics.D(10), N: 8, Eval: maxCountEval{}},
		"keep 3 of 10d6":   mechanics.Keep{Die: d6, N: 10, K: 3, Highest: true},
		"repeat 20d6":      mechanics.Repeat{X: d6, N: 20},
		"heavy weights":    big,
		"sum of pools":     mechanics.Sum{Terms: []mechanics.Node{mechanics.Repeat{X: d6, N: 7}, mechanics.Repeat{X: d6, N: 7}}},
		"explode d6 deep":  mechanics.Explode{Die: d6},
		"combine 8d6,8d6":  mechanics.Combine{X: mechanics.Repeat{X: d6, N: 8}, Y: mechanics.Repeat{X: d6, N: 8}, F: func(a, b int) int { return a - b }},
		"map over 7d6 sum": mechanics.Map{X: mechanics.Repeat{X: d6, N: 7}, F: func(x int) int { return x / 4 }},
		// Bursting dice in sums: one kind (joint first rolls), a rule's
		// limit, tables split past 65 536 first rolls, two kinds, and a
		// base that is not a table.
		"d20 + 3d10!":       mechanics.Sum{Terms: []mechanics.Node{mechanics.D(20), mechanics.Explode{Die: mechanics.D(10)}, mechanics.Explode{Die: mechanics.D(10)}, mechanics.Explode{Die: mechanics.D(10)}}},
		"d6 + 3d6! limit 2": mechanics.Sum{Terms: []mechanics.Node{mechanics.D(6), mechanics.Explode{Die: d6, Limit: 2}, mechanics.Explode{Die: d6, Limit: 2}, mechanics.Explode{Die: d6, Limit: 2}}},
		"2d4! limit 1":      mechanics.Sum{Terms: []mechanics.Node{mechanics.Explode{Die: mechanics.D(4), Limit: 1}, mechanics.Explode{Die: mechanics.D(4), Limit: 1}}},
		"d20 + 5d20!":       mechanics.Sum{Terms: []mechanics.Node{mechanics.D(20), mechanics.Explode{Die: mechanics.D(20)}, mechanics.Explode{Die: mechanics.D(20)}, mechanics.Explode{Die: mechanics.D(20)}, mechanics.Explode{Die: mechanics.D(20)}, mechanics.Explode{Die: mechanics.D(20)}}},
		"d6! + d8!":         mechanics.Sum{Terms: []mechanics.Node{mechanics.Explode{Die: d6}, mechanics.Explode{Die: mechanics.D(8)}, mechanics.D(4)}},
		"20d6 + d4!":        mechanics.Sum{Terms: []mechanics.Node{mechanics.Repeat{X: d6, N: 20}, mechanics.Explode{Die: mechanics.D(4)}}},
		// A table of 6⁶ rolls beside one of 36: too many combinations to
		// multiply out, few distinct values (a pair table).
		"combine 6d6 pool, 2d6": mechanics.Combine{X: mechanics.Pool{Die: d6, N: 6, Eval: mechanics.SumEval{}}, Y: mechanics.Repeat{X: d6, N: 2},
			F: func(a, b int) int { return 100*a + b }},
	}
	for name, n := range nodes {
		d, _, _ := exact.Eval(n)
		h, err := Outcomes(context.Background(), &mechanics.Spec{Outcome: n}, Options{Trials: trials(100_000, 1_000_000), Seed: 5})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		requireAgreement(t, name, h, d)
	}
}

// A pair table computes its function once per pair of distinct values.
func TestPairTableCallsOncePerValuePair(t *testing.T) {
	calls := 0
	n := mechanics.Combine{X: mechanics.Pool{Die: mechanics.D(6), N: 6, Eval: mechanics.SumEval{}}, Y: mechanics.Repeat{X: mechanics.D(6), N: 2},
		F: func(a, b int) int { calls++; return a * b }}
	s, err := compile(n)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.(*pairTable); !ok {
		t.Fatalf("compiled to %T", s)
	}
	if calls != 31*11 {
		t.Errorf("f called %d times; want one per pair of distinct values (31·11)", calls)
	}
}

// maxCountEval is the highest face times 100 plus how many dice show it: a
// pool value that depends on the whole multiset.
type maxCountEval struct{}

func (maxCountEval) Start() uint64 { return 0 }
func (maxCountEval) Next(s uint64, face, count int) uint64 {
	if count == 0 {
		return s
	}
	return uint64(face*100 + count)
}
func (maxCountEval) Final(s uint64) int { return int(s) }

// TestWrongModelIsCaught proves the cross-check can fail: simulating 3d6
// against the exact distribution of 3d6 with one face changed must be
// rejected.
func TestWrongModelIsCaught(t *testing.T) {
	right := mechanics.Repeat{X: mechanics.D(6), N: 3}
	wrong := mechanics.Sum{Terms: []mechanics.Node{mechanics.D(6), mechanics.D(6), mechanics.Die{Faces: []int{1, 2, 3, 4, 5, 5}}}}
	d, _, _ := exact.Eval(wrong)
	h, err := Outcomes(context.Background(), &mechanics.Spec{Outcome: right}, Options{Trials: trials(200_000, 1_000_000), Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if a := engine.ChiSquare(h.Lo, h.Counts, d); a.P > 1e-6 {
		t.Fatalf("a wrong model passed the chi-square test: p = %v", a.P)
	}
	// An outcome the exact model calls impossible is caught outright.
	d, _, _ = exact.Eval(mechanics.Repeat{X: mechanics.D(5), N: 3})
	if a := engine.ChiSquare(h.Lo, h.Counts, d); a.Impossible == 0 || a.P != 0 {
		t.Fatalf("impossible outcomes not reported: %+v", a)
	}
}

// TestWorkerCountInvariance: the same seed gives identical counts for any
// number of workers (chunks own their streams).
func TestWorkerCountInvariance(t *testing.T) {
	for name, n := range map[string]mechanics.Node{
		"table": mechanics.Pool{Die: mechanics.D(6), N: 5, Eval: mechanics.SumEval{}},
		"node":  mechanics.Explode{Die: mechanics.D(6), Limit: 5},
	} {
		var first Hist
		for _, w := range []int{1, 2, 3, 7} {
			h, err := Outcomes(context.Background(), &mechanics.Spec{Outcome: n}, Options{Trials: 5*ChunkSize + 123, Seed: 99, Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			if w == 1 {
				first = h
				continue
			}
			if !reflect.DeepEqual(h, first) {
				t.Errorf("%s: %d workers gave different counts than 1 worker", name, w)
			}
		}
	}
}

func TestSeedsDiffer(t *testing.T) {
	spec := &mechanics.Spec{Outcome: mechanics.Repeat{X: mechanics.D(6), N: 2}}
	a, _ := Outcomes(context.Background(), spec, Options{Trials: 10000, Seed: 1})
	b, _ := Outcomes(context.Background(), spec, Options{Trials: 10000, Seed: 2})
	if reflect.DeepEqual(a, b) {
		t.Error("seeds 1 and 2 gave identical counts")
	}
}

// TestBatchUniform: every position of a batched draw is uniform, and the
// positions are independent (pairs are uniform over radix²).
func TestBatchUniform(t *testing.T) {
	for _, radix := range []uint64{2, 6, 7, 7776, 65536} {
		b := newBatch(radix)
		var src source
		src.Seed(4, 0)
		buf := make([]uint64, b.k)
		n := int(trials(60_000, 300_000))
		var pos0, last Hist
		pairs := Hist{}
		for i := 0; i < n; i++ {
			b.fill(&src, buf)
			pos0.add(int(buf[0]%64), 1)
			last.add(int(buf[b.k-1]%64), 1)
			if b.k > 1 {
				pairs.add(int(buf[0]%8*8+buf[1]%8), 1)
			}
		}
		want := func(m uint64, mod uint64) engine.Dist {
			// distribution of U mod m for U uniform on [0, radix)
			p := make([]float64, m)
			for v := uint64(0); v < min(radix, m*uint64(1+radix/m)); v++ {
				if v < radix {
					p[v%m] += 1 / float64(radix)
				}
			}
			return engine.Dist{P: p}
		}
		requireAgreement(t, "first index", pos0, want(64, 0))
		requireAgreement(t, "last index", last, want(64, 0))
		if b.k > 1 {
			m8 := want(8, 0)
			pp := make([]float64, 64)
			for i := range pp {
				pp[i] = m8.P[i/8] * m8.P[i%8]
			}
			requireAgreement(t, "pairs", pairs, engine.Dist{P: pp})
		}
	}
}

func TestWilsonInterval(t *testing.T) {
	// Reference: Wilson score interval, 81 of 263 (Newcombe 1998 style check).
	ci := wilson(81, 263)
	if math.Abs(ci[0]-0.2553) > 5e-4 || math.Abs(ci[1]-0.3662) > 5e-4 {
		t.Errorf("wilson(81, 263) = %v", ci)
	}
	if ci := wilson(0, 100); ci[0] != 0 || math.Abs(ci[1]-0.0370) > 5e-4 {
		t.Errorf("wilson(0, 100) = %v", ci)
	}
	// Everything seen: the interval reaches 1 exactly, however many the
	// trials (center + half rounds to 1 − 1.1e−16 at 10⁸).
	for _, n := range []int64{100, 99_999_999} {
		if ci := wilson(n, n); ci[1] != 1 {
			t.Errorf("wilson(%d, %d) = %v, want an upper end of exactly 1", n, n, ci)
		}
	}
}

func TestProcessSimVsExact(t *testing.T) {
	p := fixtures.GamblersRuin(6, 2, 1, 1)
	p.Horizon = 40
	ch, err := exact.SolveProcess(p)
	if err != nil {
		t.Fatal(err)
	}
	h, err := Outcomes(context.Background(), &mechanics.Spec{Process: p}, Options{Trials: trials(200_000, 1_000_000), Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	requireAgreement(t, "gambler's ruin", h, ch.Outcome)
	// A time-dependent variant: the walk is biased upward from step 5 on.
	q := fixtures.GamblersRuin(6, 2, 1, 1)
	q.Horizon, q.Homogeneous = 30, false
	q.Step = func(t, s int) mechanics.Node {
		up := int64(1)
		if t >= 5 {
			up = 3
		}
		return mechanics.Die{Faces: []int{s + 1, s - 1}, Weights: []int64{up, 1}}
	}
	ch, err = exact.SolveProcess(q)
	if err != nil {
		t.Fatal(err)
	}
	h, err = Outcomes(context.Background(), &mechanics.Spec{Process: q}, Options{Trials: trials(200_000, 1_000_000), Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	requireAgreement(t, "time-dependent walk", h, ch.Outcome)
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Outcomes(ctx, &mechanics.Spec{Outcome: mechanics.D(6)}, Options{Trials: 1 << 30, Seed: 1})
	if err != context.Canceled {
		t.Fatalf("cancelled run returned %v", err)
	}
}

func TestAllocsPerTrial(t *testing.T) {
	for name, n := range map[string]mechanics.Node{
		"table": mechanics.Pool{Die: mechanics.D(6), N: 5, Eval: mechanics.SumEval{}},
		"pool":  mechanics.Pool{Die: mechanics.D(6), N: 12, Eval: mechanics.SumEval{}},
	} {
		f, _ := workerFactory(&mechanics.Spec{Outcome: n})
		w, _ := f()
		var src source
		src.Seed(1, 0)
		w.run(&src, 1000) // warm the histogram
		if a := testing.AllocsPerRun(20, func() { w.run(&src, 1000) }); a != 0 {
			t.Errorf("%s: %v allocations per 1000 trials", name, a)
		}
	}
}

// TestMemoryFlatInTrials: a run's allocations do not grow with the number of
// trials (histograms, not samples, are kept).
func TestMemoryFlatInTrials(t *testing.T) {
	spec := &mechanics.Spec{Outcome: mechanics.Pool{Die: mechanics.D(6), N: 9, Eval: mechanics.SumEval{}}}
	alloc := func(n int64) uint64 {
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		if _, err := Outcomes(context.Background(), spec, Options{Trials: n, Seed: 1, Workers: 2}); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	small, large := alloc(ChunkSize*2), alloc(ChunkSize*40)
	if large > 2*small+64<<10 {
		t.Errorf("allocations grew with trials: %d bytes for %d trials, %d bytes for %d", small, ChunkSize*2, large, ChunkSize*40)
	}
}

// TestKernelFormMatchesStepForm: a random walk written with Kernel/Move
// gives the same exact distribution as with Step, and the simulator agrees.
func TestKernelFormMatchesStepForm(t *testing.T) {
	for _, homogeneous := range []bool{true, false} {
		step := fixtures.GamblersRuin(7, 3, 2, 3)
		step.Horizon, step.Homogeneous = 50, homogeneous
		kern := fixtures.GamblersRuin(7, 3, 2, 3)
		kern.Horizon, kern.Homogeneous, kern.Step = 50, homogeneous, nil
		kern.Kernel = func(int) mechanics.Node { return mechanics.Die{Faces: []int{1, -1}, Weights: []int64{2, 3}} }
		kern.Move = func(_, s, x int) int { return s + x }
		a, err := exact.SolveProcess(step)
		if err != nil {
			t.Fatal(err)
		}
		b, err := exact.SolveProcess(kern)
		if err != nil {
			t.Fatal(err)
		}
		for v := a.Outcome.Lo; v <= a.Outcome.Hi(); v++ {
			if math.Abs(a.Outcome.Prob(v)-b.Outcome.Prob(v)) > 1e-15 {
				t.Fatalf("kernel form differs at outcome %d: %v vs %v", v, b.Outcome.Prob(v), a.Outcome.Prob(v))
			}
		}
		h, err := Outcomes(context.Background(), &mechanics.Spec{Process: kern}, Options{Trials: trials(200_000, 1_000_000), Seed: 21})
		if err != nil {
			t.Fatal(err)
		}
		requireAgreement(t, "kernel walk", h, b.Outcome)
	}
}

// An unlimited bursting die that keeps bursting past MaxBursts stops the
// run with an error instead of a silently cut value.
func TestBurstCapIsReported(t *testing.T) {
	sticky := mechanics.Die{Faces: []int{1, 2}, Weights: []int64{1, 1_000_000_000}}
	_, err := Outcomes(context.Background(), &mechanics.Spec{Outcome: mechanics.Explode{Die: sticky}}, Options{Trials: 100, Seed: 1})
	if err == nil || !strings.Contains(err.Error(), "burst") {
		t.Errorf("err = %v; want the burst cap reported", err)
	}
}
