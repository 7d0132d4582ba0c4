package exact

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/fixtures"
	"github.com/oddsmith/oddsmith/mechanics"
)

// Awkward dice for the oracle: a fair d6, a weighted die with negative and
// zero faces, a die that repeats a face, a one-faced die and a d3.
var oracleDice = map[string]mechanics.Die{
	"d6":       mechanics.D(6),
	"weighted": {Faces: []int{-1, 0, 3}, Weights: []int64{1, 2, 3}},
	"repeated": {Faces: []int{2, 1, 2}},
	"single":   {Faces: []int{4}},
	"d3":       mechanics.D(3),
}

// maxDupEval is a small ag-like evaluator: highest face + (n − distinct faces).
type maxDupEval struct{ n int }

func (maxDupEval) Start() uint64 { return 0 }
func (maxDupEval) Next(s uint64, f, c int) uint64 {
	if c == 0 {
		return s
	}
	return uint64(f+8)<<8 | (s&0xff + 1)
}
func (e maxDupEval) Final(s uint64) int { return int(s>>8) - 8 + e.n - int(s&0xff) }

// bruteTuples enumerates every ordered roll of n dice with its weight.
func bruteTuples(d mechanics.Die, n int, visit func(faces []int, w int64)) {
	roll := make([]int, n)
	var rec func(i int, w int64)
	rec = func(i int, w int64) {
		if i == n {
			visit(roll, w)
			return
		}
		for j, f := range d.Faces {
			roll[i] = f
			rec(i+1, w*d.Weight(j))
		}
	}
	rec(0, 1)
}

func bruteDist(d mechanics.Die, n int, value func(faces []int) int) RatDist {
	counts := map[int]int64{}
	var total int64
	bruteTuples(d, n, func(faces []int, w int64) {
		counts[value(faces)] += w
		total += w
	})
	out := RatDist{}
	for v, c := range counts {
		out[v] = big.NewRat(c, total)
	}
	return out
}

// foldEval runs an evaluator on one roll: counts per distinct face, ascending.
func foldEval(d mechanics.Die, ev mechanics.Evaluator, faces []int) int {
	distinct := append([]int(nil), d.Faces...)
	sort.Ints(distinct)
	s := ev.Start()
	for i, f := range distinct {
		if i > 0 && f == distinct[i-1] {
			continue
		}
		c := 0
		for _, x := range faces {
			if x == f {
				c++
			}
		}
		s = ev.Next(s, f, c)
	}
	return ev.Final(s)
}

func ratEqual(t *testing.T, name string, got, want RatDist) {
	t.Helper()
	for _, v := range append(got.Values(), want.Values()...) {
		if got.Prob(v).Cmp(want.Prob(v)) != 0 {
			t.Errorf("%s: P(%d) = %v; want %v (brute force)", name, v, got.Prob(v), want.Prob(v))
		}
	}
}

func floatMatchesRat(t *testing.T, name string, got engine.Dist, want RatDist) {
	t.Helper()
	for _, v := range want.Values() {
		w, _ := want.Prob(v).Float64()
		if math.Abs(got.Prob(v)-w) > 1e-12 {
			t.Errorf("%s: float P(%d) = %v; want %v", name, v, got.Prob(v), w)
		}
	}
	if math.Abs(got.Total()-1) > 1e-12 {
		t.Errorf("%s: probabilities sum to %v", name, got.Total())
	}
}

// TestPoolOracle: the multiset DP equals enumeration of every roll, exactly.
func TestPoolOracle(t *testing.T) {
	for dn, d := range oracleDice {
		t.Run(dn, func(t *testing.T) {
			t.Parallel()
			for n := 0; n <= 4; n++ {
				evs := map[string]mechanics.Evaluator{"sum": mechanics.SumEval{}, "maxdup": maxDupEval{n}}
				for en, ev := range evs {
					if en == "maxdup" && n == 0 {
						continue
					}
					want := bruteDist(d, n, func(f []int) int { return foldEval(d, ev, f) })
					node := mechanics.Pool{Die: d, N: n, Eval: ev}
					got, err := EvalRat(node)
					if err != nil {
						t.Fatal(err)
					}
					name := fmt.Sprintf("Pool(%d, %s)", n, en)
					ratEqual(t, name, got, want)
					fd, _, _ := Eval(node)
					floatMatchesRat(t, name, fd, want)
				}
			}
		})
	}
}

// TestKeepOracle: keep-highest/lowest DP and its evaluator form against
// sorting every roll.
func TestKeepOracle(t *testing.T) {
	for dn, d := range oracleDice {
		t.Run(dn, func(t *testing.T) {
			t.Parallel()
			for n := 0; n <= 4; n++ {
				for k := 0; k <= n; k++ {
					for _, hi := range []bool{true, false} {
						want := bruteDist(d, n, func(f []int) int {
							s := append([]int(nil), f...)
							sort.Ints(s)
							if hi {
								s = s[len(s)-k:]
							} else {
								s = s[:k]
							}
							t := 0
							for _, x := range s {
								t += x
							}
							return t
						})
						node := mechanics.Keep{Die: d, N: n, K: k, Highest: hi}
						name := fmt.Sprintf("Keep(%d, %d, highest %v)", n, k, hi)
						got, _ := EvalRat(node)
						ratEqual(t, name, got, want)
						fd, _, _ := Eval(node)
						floatMatchesRat(t, name, fd, want)
					}
				}
			}
		})
	}
}

// TestEveryNodeFloatVsRational runs the float engine and the rational engine
// over every node kind.
func TestEveryNodeFloatVsRational(t *testing.T) {
	for name, n := range fixtures.NodeZoo() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want, err := EvalRat(n)
			if err != nil {
				t.Fatal(err)
			}
			got, tr, err := Eval(n)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range want.Values() {
				w, _ := want.Prob(v).Float64()
				if math.Abs(got.Prob(v)-w) > 1e-12 {
					t.Errorf("P(%d) = %v; want %v", v, got.Prob(v), w)
				}
			}
			if math.Abs(got.Total()-1) > 1e-12 {
				t.Errorf("total %v (truncated %v)", got.Total(), tr)
			}
		})
	}
}

// convolved, summed and bursting are convolve, sumN and explode (bursting
// on the highest face) without a budget.
func convolved(a, b engine.Dist) engine.Dist {
	d, _ := convolve(nil, a, b)
	return d
}

func summed(a engine.Dist, n int) engine.Dist {
	d, _ := sumN(nil, a, n)
	return d
}

func bursting(ft faceTable, depth int, limited bool) (engine.Dist, float64) {
	d, tr, _ := explode(nil, ft, mechanics.Explode{Die: mechanics.Die{Faces: ft.faces}}, depth, limited)
	return d, tr
}

func TestExplodeTruncation(t *testing.T) {
	d10 := dieTable(mechanics.D(10))
	for _, depth := range []int{0, 1, 5, 20} {
		// Unlimited bursting followed to depth: the mass of going on is
		// dropped and reported.
		d, tr := bursting(d10, depth, false)
		if want := math.Pow(0.1, float64(depth+1)); math.Abs(tr-want) > 1e-15 || math.Abs(d.Total()+tr-1) > 1e-12 {
			t.Errorf("d10! to depth %d: truncated = %v (total %v); want %v", depth, tr, d.Total(), want)
		}
		// P(X = 10·j + r) = 10^−(j+1) for r = 1…9; no multiple of 10.
		for j := 0; j <= depth; j++ {
			if p := d.Prob(10*j + 3); math.Abs(p-math.Pow(0.1, float64(j+1))) > 1e-15 {
				t.Errorf("P(X = %d) = %v", 10*j+3, p)
			}
			if d.Prob(10*(j+1)) != 0 {
				t.Errorf("P(X = %d) = %v; a bursting die never ends on a multiple of 10", 10*(j+1), d.Prob(10*(j+1)))
			}
		}
		// A rule's limit keeps the last roll as it is: nothing is lost.
		l, tr := bursting(d10, depth, true)
		if tr != 0 || math.Abs(l.Total()-1) > 1e-12 || l.Prob(10*(depth+1)) == 0 {
			t.Errorf("d10! limited to %d: truncated %v, total %v", depth, tr, l.Total())
		}
	}
	// Unlimited bursting d10 has mean 5.5/(1−0.1) = 6.111…
	d, _ := bursting(d10, 40, false)
	if math.Abs(d.Mean()-5.5/0.9) > 1e-9 {
		t.Errorf("bursting d10 mean %v; want %v", d.Mean(), 5.5/0.9)
	}
	// The default depth keeps the dropped mass at most 1e-12.
	for _, s := range []int{4, 6, 8, 10, 12, 20} {
		e := mechanics.Explode{Die: mechanics.D(s)}
		_, tr, err := Eval(e)
		if err != nil || tr > mechanics.DefaultTolerance || tr < mechanics.DefaultTolerance/float64(s) {
			t.Errorf("d%d!: depth %d drops %v (%v)", s, e.ExactDepth(), tr, err)
		}
	}
}

func TestSumNLarge(t *testing.T) {
	d6 := engine.Uniform(1, 6)
	want := d6
	for i := 2; i <= 37; i++ {
		want = convolved(want, d6)
	}
	got := summed(d6, 37)
	for v := 37; v <= 222; v++ {
		if math.Abs(got.Prob(v)-want.Prob(v)) > 1e-15+1e-12*want.Prob(v) {
			t.Fatalf("37d6: P(%d) = %v; want %v", v, got.Prob(v), want.Prob(v))
		}
	}
	big := summed(d6, 1000)
	for i, p := range big.P {
		if p < 0 {
			t.Fatalf("1000d6: negative probability at %d", big.Lo+i)
		}
	}
	if math.Abs(big.Total()-1) > 1e-10 || math.Abs(big.Mean()-3500) > 1e-6 || math.Abs(big.Variance()-1000*35.0/12) > 1e-4 {
		t.Errorf("1000d6: total %v mean %v variance %v", big.Total(), big.Mean(), big.Variance())
	}
}

func TestDistVerbs(t *testing.T) {
	d := engine.Dist{Lo: -1, P: []float64{0.25, 0.5, 0.25}}
	cases := []struct {
		name      string
		got, want float64
	}{
		{"Prob(0)", d.Prob(0), 0.5}, {"Prob(9)", d.Prob(9), 0}, {"CDF(0)", d.CDF(0), 0.75},
		{"Survival(0)", d.Survival(0), 0.25}, {"Mean", d.Mean(), 0}, {"Variance", d.Variance(), 0.5},
		{"Quantile(0.5)", float64(d.Quantile(0.5)), 0}, {"Quantile(0.8)", float64(d.Quantile(0.8)), 1},
		{"Quantile(0)", float64(d.Quantile(0)), -1},
	}
	for _, c := range cases {
		if math.Abs(c.got-c.want) > 1e-15 {
			t.Errorf("%s = %v; want %v", c.name, c.got, c.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Quantile(1.5) did not panic")
		}
	}()
	d.Quantile(1.5)
}

// TestGamblersRuin checks the absorbing-chain solver against the closed form:
// from i of N with win probability p, P(reach N) = (1 − r^i)/(1 − r^N), r = q/p.
func TestGamblersRuin(t *testing.T) {
	p := fixtures.GamblersRuin(10, 3, 2, 3)
	ch, err := SolveProcess(p)
	if err != nil {
		t.Fatal(err)
	}
	r := 1.5 // q/p with p = 2/5... weights 2:3 → p = 0.4, q = 0.6
	want := (1 - math.Pow(r, 3)) / (1 - math.Pow(r, 10))
	if !ch.Unbounded || math.Abs(ch.AbsorbedUnbounded[1]-want) > 1e-12 {
		t.Errorf("P(reach 10) = %v; want %v", ch.AbsorbedUnbounded, want)
	}
	// Mean duration: i/(q−p) − N/(q−p)·(1−r^i)/(1−r^N).
	wantT := 3/0.2 - 10/0.2*want
	if math.Abs(ch.MeanTimeUnbounded-wantT) > 1e-9 {
		t.Errorf("mean duration %v; want %v", ch.MeanTimeUnbounded, wantT)
	}
	// Within the horizon the step-by-step PMF has almost all the mass.
	tot := ch.Outcome.Total()
	if math.Abs(tot-1) > 1e-12 {
		t.Errorf("process outcome total %v", tot)
	}
}
