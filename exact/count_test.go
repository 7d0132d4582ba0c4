package exact

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// TestRandomCountByHand: (d2)d3 is ½·d3 + ½·2d3, worked out by hand in
// ninths and eighteenths, in both engines.
func TestRandomCountByHand(t *testing.T) {
	n := mechanics.RandomCount{N: mechanics.D(2), X: mechanics.D(3)}
	// d3: 1,2,3 each 1/3 → 3/18 each; 2d3: 2..6 as 1,2,3,2,1 /9 → /18.
	want := map[int]*big.Rat{1: big.NewRat(3, 18), 2: big.NewRat(4, 18), 3: big.NewRat(5, 18), 4: big.NewRat(3, 18), 5: big.NewRat(2, 18), 6: big.NewRat(1, 18)}
	rd, err := EvalRat(n)
	if err != nil {
		t.Fatal(err)
	}
	d, tr, err := Eval(n)
	if err != nil || tr != 0 {
		t.Fatal(err, tr)
	}
	if len(rd) != len(want) {
		t.Errorf("values %v; want %d", rd.Values(), len(want))
	}
	for v, p := range want {
		if rd.Prob(v).Cmp(p) != 0 {
			t.Errorf("rational P(%d) = %s; want %s", v, rd.Prob(v), p)
		}
		f, _ := p.Float64()
		if math.Abs(d.Prob(v)-f) > 1e-15 {
			t.Errorf("float P(%d) = %v; want %v", v, d.Prob(v), f)
		}
	}
}

// TestRandomCountZero: a count of 0 is the point 0, and a count that is
// always 0 leaves X unrolled.
func TestRandomCountZero(t *testing.T) {
	n := mechanics.RandomCount{N: mechanics.Const{V: 0}, X: mechanics.D(6)}
	d, _, err := Eval(n)
	if err != nil || d.Prob(0) != 1 {
		t.Fatalf("%v %v", d, err)
	}
}

// TestRandomCountRefusesBadCounts: a count that can be negative or above
// the most dice is refused with one line.
func TestRandomCountRefusesBadCounts(t *testing.T) {
	for _, c := range []struct {
		n    mechanics.Node
		want string
	}{
		{mechanics.Die{Faces: []int{-1, 2}}, "can be -1"},
		{mechanics.Die{Faces: []int{1, mechanics.MaxRandomCount + 1}}, "at most 100000"},
	} {
		n := mechanics.RandomCount{N: c.n, X: mechanics.D(6)}
		if _, _, err := Eval(n); err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Eval: %v; want %q", err, c.want)
		}
		if _, err := EvalRat(n); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("EvalRat: %v; want %q", err, c.want)
		}
	}
}

// TestRandomCountTruncated: mass an unlimited explosion leaves out carries
// through a random count (of the copies and of the count itself).
func TestRandomCountTruncated(t *testing.T) {
	ex := mechanics.Explode{Die: mechanics.D(6), Tolerance: 1e-6}
	for _, n := range []mechanics.RandomCount{
		{N: mechanics.D(3), X: ex},
		{N: mechanics.Clamp{X: ex, Lo: mechanics.NoLo, Hi: 30}, X: mechanics.D(2)},
	} {
		d, tr, err := Eval(n)
		if err != nil {
			t.Fatal(err)
		}
		if tr <= 0 || tr > 1e-5 || math.Abs(d.Total()+tr-1) > 1e-12 {
			t.Errorf("%T: total %v, truncated %v", n.N, d.Total(), tr)
		}
	}
}

// TestRandomCountWorkPlanned: a count whose n-fold sums run past the work
// budget is refused before it starts, with the simulator's advice, and the
// estimate bounds the work ticked on a small one.
func TestRandomCountWorkPlanned(t *testing.T) {
	huge := mechanics.RandomCount{N: mechanics.Die{Faces: []int{1, 50_000}}, X: mechanics.D(1000)}
	if w := planWork(huge, engine.MaxWork); w <= engine.MaxWork {
		t.Errorf("planWork = %g; want over %g", w, float64(engine.MaxWork))
	}
	if _, _, err := Eval(huge); err == nil || !strings.Contains(err.Error(), "simulate it") {
		t.Errorf("Eval: %v; want a refusal to simulate", err)
	}
	small := mechanics.RandomCount{N: mechanics.Sum{Terms: []mechanics.Node{mechanics.D(20), mechanics.D(20)}}, X: mechanics.D(12)}
	b := engine.DefaultBudget()
	if _, _, err := evalChecked(b, small); err != nil {
		t.Fatal(err)
	}
	if w := planWork(small, engine.MaxWork); float64(b.Spent()) > w {
		t.Errorf("ticked %d; planned %g", b.Spent(), w)
	}
}
