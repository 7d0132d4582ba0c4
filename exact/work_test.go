package exact

import (
	"context"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

func dieOf(sides int) mechanics.Die {
	faces := make([]int, sides)
	for i := range faces {
		faces[i] = i + 1
	}
	return mechanics.Die{Faces: faces}
}

// burstDie is a d6 that bursts on 6 up to twice, as one die with integer
// weights (what the notation makes of 'd6!{2}' under keep): faces 1–5,
// 7–11 and 13–18, sparse.
func burstDie() mechanics.Die {
	var d mechanics.Die
	for j, w := range []int64{36, 6, 1} {
		for f := 1; f <= 6; f++ {
			if f == 6 && j < 2 {
				continue
			}
			d.Faces = append(d.Faces, 6*j+f)
			d.Weights = append(d.Weights, w)
		}
	}
	return d
}

// TestKeepWorkCountsTheTicks holds keep's estimate to the work keep then
// ticks: never less (the refusal before starting is sound) and, once every
// row is reached, within a few per cent (it refuses nothing that would
// have fit). Counts, not time.
func TestKeepWorkCountsTheTicks(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		die     mechanics.Die
		n, k    int
		highest bool
	}{
		{"4d6kh3", dieOf(6), 4, 3, true},
		{"255d6kh3", dieOf(6), 255, 3, true},
		{"30d50kl5", dieOf(50), 30, 5, false},
		{"20d100kh1", dieOf(100), 20, 1, true},
		{"40d20kh20", dieOf(20), 40, 20, true},
		{"12d6!{2}kh4", burstDie(), 12, 4, true},
		{"9d6!{2}kl9", burstDie(), 9, 9, false},
	}
	for _, c := range cases {
		ft := dieTable(c.die)
		est := keepWork(ft, c.n, c.k, c.highest, engine.MaxWork)
		b := engine.NewBudget(context.Background(), 1<<30)
		if _, err := keep(b, ft, c.n, c.k, c.highest); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := float64(b.Spent())
		if got > est || got < 0.9*est {
			t.Errorf("%s: keep ticked %.0f, the estimate was %.0f (want at most, and within 10%%)", c.name, got, est)
		}
	}
}

// TestKeepRefusedBeforeStarting: the keeps of issue 27 (14 s, 28 s and
// 41 s of CPU before) are refused before a single tick, with the advice
// to simulate.
func TestKeepRefusedBeforeStarting(t *testing.T) {
	t.Parallel()
	d200 := dieOf(200)
	for _, c := range []struct {
		name string
		node mechanics.Node
	}{
		{"200d1400kh100", mechanics.Keep{Die: dieOf(1400), N: 200, K: 100, Highest: true}},
		{"200d1400kh100+3d200kh2", mechanics.Sum{Terms: []mechanics.Node{
			mechanics.Keep{Die: dieOf(1400), N: 200, K: 100, Highest: true},
			mechanics.Keep{Die: d200, N: 3, K: 2, Highest: true},
		}}},
	} {
		b := engine.NewBudget(context.Background(), 1<<40)
		_, _, err := evalChecked(b, c.node)
		if err == nil || !mechanics.IsInput(err) {
			t.Fatalf("%s: %v; want the refusal (bad input)", c.name, err)
		}
		if b.Spent() != 0 {
			t.Errorf("%s: refused after %d units of work; want before any", c.name, b.Spent())
		}
		if msg := err.Error(); !strings.Contains(msg, "oddsmith sim") {
			t.Errorf("%s: %q does not advise the simulator", c.name, msg)
		}
	}
}

// TestKeepsFitAlone: each of the keeps above fits the work budget by
// itself (so the sum is refused for the sum).
func TestKeepsFitAlone(t *testing.T) {
	t.Parallel()
	if w := keepWork(dieTable(dieOf(20000)), 255, 1, true, engine.MaxWork); w > engine.MaxWork/3 || w < engine.MaxWork/4 {
		t.Errorf("255d20000kh1: %.3g units; the test wants between a quarter and a third of %.3g", w, engine.MaxWork)
	}
}

// TestKeepOneIsLinearNotRefused: keeping the highest or lowest one of
// many dice (255d100000kl1, which issue 27 found refused after 14 s of
// CPU) is an order statistic, linear in dice × faces, so it is computed,
// and its planned work is what it ticks at most.
func TestKeepOneIsLinearNotRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		node mechanics.Keep
	}{
		{"255d100000kl1", mechanics.Keep{Die: dieOf(100000), N: 255, K: 1}},
		{"255d100000kh1", mechanics.Keep{Die: dieOf(100000), N: 255, K: 1, Highest: true}},
	} {
		plan := keepNodeWork(c.node, engine.MaxWork)
		if limit := 2.0 * 256 * 100000; plan > limit {
			t.Errorf("%s: planned work %.0f, want at most %.0f (linear)", c.name, plan, limit)
		}
		b := engine.NewBudget(context.Background(), 1<<30)
		if _, _, err := evalChecked(b, c.node); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := float64(b.Spent()); got > plan*1.01+1e4 {
			t.Errorf("%s: ticked %.0f, more than the %.0f planned", c.name, got, plan)
		}
	}
}

// TestExplodeWorkCountsTheTicks holds explode's estimate to the work it
// then ticks: never less, and within a factor of two where the sums so
// far fill their range (counts, not time).
func TestExplodeWorkCountsTheTicks(t *testing.T) {
	t.Parallel()
	for name, e := range map[string]mechanics.Explode{
		"d6!":          {Die: dieOf(6)},
		"d6!p{5}":      {Die: dieOf(6), Penetrate: true, Limit: 5},
		"d20!>=2":      {Die: dieOf(20), ByThreshold: true, Threshold: 2},
		"d10!<=3{40}":  {Die: dieOf(10), On: []int{1, 2, 3}, Limit: 40},
		"d12!p<=11":    {Die: dieOf(12), On: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, Penetrate: true},
		"dF!{-1,1}{9}": {Die: mechanics.Die{Faces: []int{-1, 0, 1}}, On: []int{-1, 1}, Limit: 9},
	} {
		est := explodeWork(e)
		b := engine.NewBudget(context.Background(), 1<<30)
		if _, _, err := explode(b, dieTable(e.Die), e, e.ExactDepth(), e.Limit > 0); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := float64(b.Spent()); got > est || got < est/2 {
			t.Errorf("%s: explode ticked %.0f, the estimate was %.0f (want at most, and within a factor of 2)", name, got, est)
		}
	}
}

// TestExplodeRefusedBeforeStarting: a large die bursting on nearly every
// face (minutes of work before the plan) is refused before a single tick,
// with the advice to simulate.
func TestExplodeRefusedBeforeStarting(t *testing.T) {
	t.Parallel()
	on := make([]int, 999)
	for i := range on {
		on[i] = i + 1
	}
	for name, n := range map[string]mechanics.Node{
		"d1000!>=2":    mechanics.Explode{Die: dieOf(1000), ByThreshold: true, Threshold: 2},
		"d1000!p<=999": mechanics.Explode{Die: dieOf(1000), On: on, Penetrate: true},
	} {
		b := engine.NewBudget(context.Background(), 1<<40)
		_, _, err := evalChecked(b, n)
		if err == nil || !strings.Contains(err.Error(), "oddsmith sim") {
			t.Fatalf("%s: %v; want the refusal advising the simulator", name, err)
		}
		if b.Spent() != 0 {
			t.Errorf("%s: refused after %d units of work; want before any", name, b.Spent())
		}
	}
}

// TestUniqueSubsetWorkBoundsTheTicks: the estimate of unique fair dice
// (every N-subset alike) bounds the work they tick, and refuses one die
// of 100 000 faces before a single tick (it ticked for minutes before).
func TestUniqueSubsetWorkBoundsTheTicks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		u    mechanics.Unique
	}{
		{"3d6u", mechanics.Unique{Die: dieOf(6), N: 3, Eval: mechanics.SumEval{}}},
		{"6d20u", mechanics.Unique{Die: dieOf(20), N: 6, Eval: mechanics.SumEval{}}},
		{"20d100u", mechanics.Unique{Die: dieOf(100), N: 20, Eval: mechanics.SumEval{}}},
		{"d500u", mechanics.Unique{Die: dieOf(500), N: 1, Eval: mechanics.SumEval{}}},
	} {
		est := uniqueWork(c.u)
		b := engine.NewBudget(context.Background(), 1<<30)
		if _, err := uniqueFloat(b, c.u); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := float64(b.Spent()); got > est {
			t.Errorf("%s: ticked %.0f, over the estimate %.0f", c.name, got, est)
		}
	}
	big := mechanics.Unique{Die: dieOf(100_000), N: 1, Eval: mechanics.SumEval{}}
	if w := uniqueWork(big); w <= engine.MaxWork {
		t.Errorf("d100000u: estimate %.3g, want over the budget %.3g", w, float64(engine.MaxWork))
	}
}
