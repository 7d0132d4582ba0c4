package engine

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
)

// randVar is a random small variable: a lattice 1/den, a support of a few
// values (some of them without mass) and, sometimes, an undefined mass.
func randVar(rng *rand.Rand, name string) VarResult {
	dens := []int{1, 1, 2, 3, 4, 6}
	v := VarResult{Name: name, Lo: rng.IntN(11) - 5, Den: dens[rng.IntN(len(dens))]}
	n := 1 + rng.IntN(8)
	v.P = make([]float64, n)
	total := 0.0
	for i := range v.P {
		if i > 0 && i < n-1 && rng.IntN(4) == 0 {
			continue
		}
		v.P[i] = rng.Float64()
		total += v.P[i]
	}
	if rng.IntN(3) == 0 {
		v.Undefined = rng.Float64() * 0.3
	}
	for i := range v.P {
		v.P[i] *= (1 - v.Undefined) / total
	}
	v.Stats = statsOf(Dist{Lo: v.Lo, P: v.P}, v.Den)
	return v
}

func exactResult(vs ...VarResult) *Result {
	return &Result{Mechanic: "m", Engine: Exact, Vars: vs}
}

// brute is the distance of two variables computed from the definitions:
// every value of either side as an exact fraction, the CDFs summed from
// scratch at each.
type brute struct {
	tvd, ks   float64
	crossings []Crossing
}

func bruteDistance(a, b VarResult) brute {
	type frac struct{ n, d int }
	less := func(x, y frac) bool { return x.n*y.d < y.n*x.d }
	var xs []frac
	add := func(v VarResult) {
		for i, p := range v.P {
			if p == 0 {
				continue
			}
			f := frac{v.Lo + i, v.Den}
			if !slices.ContainsFunc(xs, func(g frac) bool { return !less(f, g) && !less(g, f) }) {
				xs = append(xs, f)
			}
		}
	}
	add(a)
	add(b)
	sort.Slice(xs, func(i, j int) bool { return less(xs[i], xs[j]) })
	mass := func(v VarResult, x frac) float64 {
		for i, p := range v.P {
			f := frac{v.Lo + i, v.Den}
			if !less(f, x) && !less(x, f) {
				return p
			}
		}
		return 0
	}
	cdf := func(v VarResult, x frac) float64 {
		s := 0.0
		for i, p := range v.P {
			if f := (frac{v.Lo + i, v.Den}); !less(x, f) {
				s += p
			}
		}
		return s
	}
	var r brute
	r.tvd = math.Abs(a.Undefined-b.Undefined) / 2
	sign, last := 0, 0.0
	for _, x := range xs {
		r.tvd += math.Abs(mass(a, x)-mass(b, x)) / 2
		d := cdf(a, x) - cdf(b, x)
		r.ks = math.Max(r.ks, math.Abs(d))
		xf := float64(x.n) / float64(x.d)
		s := 0
		if d > 1e-12 {
			s = 1
		} else if d < -1e-12 {
			s = -1
		}
		if s != 0 {
			if sign != 0 && s != sign {
				// They meet at the first value after the last one with
				// the old sign.
				i := slices.IndexFunc(xs, func(g frac) bool { return float64(g.n)/float64(g.d) > last })
				meet := float64(xs[i].n) / float64(xs[i].d)
				r.crossings = append(r.crossings, Crossing{After: last, X: meet, To: xf})
			}
			sign, last = s, xf
		}
	}
	return r
}

// TVD, KS and the crossings agree with the definitions on a thousand
// random pairs of small distributions on mixed lattices.
func TestCompareDistancesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	crossed := 0
	for k := range 1000 {
		a, b := randVar(rng, "x"), randVar(rng, "x")
		c := Compare(exactResult(a), exactResult(b))
		if len(c.Dists) != 1 {
			t.Fatalf("case %d: %d distributions compared", k, len(c.Dists))
		}
		d, want := c.Dists[0], bruteDistance(a, b)
		if math.Abs(d.TVD-want.tvd) > 1e-12 || math.Abs(d.KS-want.ks) > 1e-12 {
			t.Errorf("case %d: TVD %v KS %v; brute force %v %v\nA %+v\nB %+v", k, d.TVD, d.KS, want.tvd, want.ks, a, b)
		}
		if len(d.Crossings) != len(want.crossings) || (len(want.crossings) > 0 && !slices.Equal(d.Crossings, want.crossings)) {
			t.Errorf("case %d: crossings %v; brute force %v", k, d.Crossings, want.crossings)
		}
		crossed += min(len(want.crossings), 1)
		// The rows: Δ of the mean is B's mean minus A's.
		for _, r := range c.Rows {
			if r.Quantity == "mean" && r.Delta.V != b.Stats.Mean-a.Stats.Mean && math.Abs(r.Delta.V-(b.Stats.Mean-a.Stats.Mean)) > 1e-12 {
				t.Errorf("case %d: Δ mean %v; want %v", k, r.Delta.V, b.Stats.Mean-a.Stats.Mean)
			}
		}
		if want := a.Undefined > 0 || b.Undefined > 0; want != slices.ContainsFunc(c.Rows, func(r CompareRow) bool { return r.Quantity == "undefined" }) {
			t.Errorf("case %d: an undefined row is %v", k, !want)
		}
	}
	if crossed < 100 {
		t.Errorf("only %d of the random pairs cross: the test is too easy", crossed)
	}
}

// A result compared with itself changes nothing: every Δ is 0, no CDFs
// cross, no side is swingier.
func TestCompareIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100 {
		r := exactResult(randVar(rng, "x"), randVar(rng, "y"))
		r.Events = []EventResult{{Name: "hit", P: rng.Float64()}}
		r.Bands = []BandResult{{Name: "b", Labels: []string{"lo", "hi"}, P: []float64{0.3, 0.7}}}
		c := Compare(r, r)
		if c.Shared() != 4 || len(c.OnlyA)+len(c.OnlyB)+len(c.Refused) != 0 {
			t.Fatalf("shared %d, only %v %v, refused %v", c.Shared(), c.OnlyA, c.OnlyB, c.Refused)
		}
		for _, row := range c.Rows {
			if row.Delta != (Estimate{}) || row.Significant {
				t.Errorf("%s %s: Δ %+v significant %v", row.Output, row.Quantity, row.Delta, row.Significant)
			}
		}
		for _, d := range c.Dists {
			if d.TVD != 0 || (d.Kind == "variable" && d.KS != 0) || len(d.Crossings) > 0 || d.Swingier != "" {
				t.Errorf("%s: %+v", d.Name, d)
			}
		}
		if got := c.Describe(); !strings.HasPrefix(got, "no change") {
			t.Errorf("summary %q", got)
		}
	}
}

// Rounding is not a change: two exact results that differ in the last
// bits compare equal.
func TestCompareRounding(t *testing.T) {
	a := VarResult{Name: "x", Den: 1, P: []float64{0.1, 0.2, 0.7}}
	b := VarResult{Name: "x", Den: 1, P: []float64{0.1 + 1e-17, 0.2 - 2e-17, 0.7 + 1e-16}}
	a.Stats, b.Stats = statsOf(Dist{P: a.P}, 1), statsOf(Dist{P: b.P}, 1)
	c := Compare(exactResult(a), exactResult(b))
	for _, r := range c.Rows {
		if r.Delta.V != 0 {
			t.Errorf("%s: Δ %v", r.Quantity, r.Delta.V)
		}
	}
	if d := c.Dists[0]; d.TVD != 0 || d.KS != 0 || len(d.Crossings) > 0 {
		t.Errorf("TVD %v KS %v, crossings %v", d.TVD, d.KS, d.Crossings)
	}
}

// Outputs match by name and meaning; the others are listed with a reason.
func TestCompareMeaning(t *testing.T) {
	v := func(name, unit string) VarResult {
		r := VarResult{Name: name, Unit: unit, Den: 1, P: []float64{0.5, 0.5}}
		r.Stats = statsOf(Dist{P: r.P}, 1)
		return r
	}
	a := exactResult(v("damage", "wounds"), v("time", "round"), v("x", ""), v("onlya", ""))
	a.Events = []EventResult{{Name: "hit", P: 0.5}, {Name: "clash", P: 0.1}}
	a.Bands = []BandResult{{Name: "degree", Labels: []string{"fail", "pass"}, P: []float64{0.5, 0.5}},
		{Name: "tier", Labels: []string{"low", "high"}, P: []float64{0.5, 0.5}}}
	b := exactResult(v("damage", "m"), v("time", "round"), v("clash", ""))
	b.Events = []EventResult{{Name: "hit", P: 0.6}, {Name: "onlyb", P: 0.1}}
	b.Bands = []BandResult{{Name: "degree", Labels: []string{"fail", "pass", "crit"}, P: []float64{0.5, 0.4, 0.1}},
		{Name: "tier", Labels: []string{"low", "mid"}, P: []float64{0.5, 0.5}}}
	c := Compare(a, b)
	var shared []string
	for _, r := range c.Rows {
		if !slices.Contains(shared, r.Output) {
			shared = append(shared, r.Output)
		}
	}
	if want := []string{"time", "hit"}; !slices.Equal(shared, want) {
		t.Errorf("shared %v; want %v", shared, want)
	}
	if got := refs(c.OnlyA); got != "variable x, variable onlya" {
		t.Errorf("only A: %s", got)
	}
	if got := refs(c.OnlyB); got != "event onlyb" {
		t.Errorf("only B: %s", got)
	}
	want := map[string]string{
		"damage": "its units differ: wounds in A, m in B",
		"clash":  "it is an event in A but a variable in B",
		"degree": "its categories differ: A has 2, B has 3",
		"tier":   `its categories differ: A's category 2 is "high", B's is "mid"`,
	}
	if len(c.Refused) != len(want) {
		t.Errorf("refused %v", c.Refused)
	}
	for _, r := range c.Refused {
		if want[r.Name] != r.Reason || strings.Contains(r.Reason, "\n") {
			t.Errorf("refused %s: %q; want %q", r.Name, r.Reason, want[r.Name])
		}
	}
}

func refs(rs []OutputRef) string {
	var s []string
	for _, r := range rs {
		s = append(s, r.String())
	}
	return strings.Join(s, ", ")
}

// Two supports a billion apart are walked value by value, not laid out
// on one array.
func TestCompareFarApart(t *testing.T) {
	a := VarResult{Name: "x", Den: 1, Lo: 0, P: []float64{0.5, 0.5}}
	b := VarResult{Name: "x", Den: 2, Lo: 2_000_000_000, P: []float64{1}}
	a.Stats, b.Stats = statsOf(Dist{P: a.P}, 1), statsOf(Dist{Lo: b.Lo, P: b.P}, 2)
	c := Compare(exactResult(a), exactResult(b))
	d := c.Dists[0]
	if d.TVD != 1 || d.KS != 1 || d.KSAt != 1 || len(d.Crossings) != 0 || d.Swingier != "A" {
		t.Errorf("TVD %v KS %v at %v, crossings %v, swingier %q", d.TVD, d.KS, d.KSAt, d.Crossings, d.Swingier)
	}
	vs := d.Values(c)
	if len(vs) != 3 || vs[2].X != 1e9 || vs[2].FB.V != 1 || vs[1].FA.V != 1 {
		t.Errorf("values %+v", vs)
	}
}

// simResult is a simulated result of n trials with the counts given.
func simResult(n int64, counts []int64) *Result {
	v := VarResult{Name: "x", Den: 1, Counts: counts, P: make([]float64, len(counts))}
	for i, k := range counts {
		v.P[i] = float64(k) / float64(n)
	}
	v.Stats = statsOf(Dist{P: v.P}, 1)
	return &Result{Mechanic: "m", Engine: Sim, Trials: n, Seed: 1, Vars: []VarResult{v}}
}

// A simulated Δ carries the interval of two independent estimates: for a
// mean, ±1.96·√(se_A² + se_B²); a difference inside its interval is not
// significant, and sampling noise makes no crossing.
func TestCompareSim(t *testing.T) {
	const n = 10_000
	a := simResult(n, []int64{2500, 2500, 2500, 2500})
	b := simResult(n, []int64{2520, 2460, 2530, 2490}) // noise
	c := Compare(a, b)
	for _, r := range c.Rows {
		if r.Significant {
			t.Errorf("%s: Δ %+v is significant", r.Quantity, r.Delta)
		}
		if r.Quantity == "mean" {
			se := math.Hypot(a.Vars[0].Stats.SD, b.Vars[0].Stats.SD) / math.Sqrt(n)
			if math.Abs((r.Delta.Hi-r.Delta.Lo)/2-z95*se) > 1e-12 {
				t.Errorf("mean: half-width %v; want %v", (r.Delta.Hi-r.Delta.Lo)/2, z95*se)
			}
		}
	}
	d := c.Dists[0]
	if len(d.Crossings) != 0 {
		t.Errorf("noise crosses at %v", d.Crossings)
	}
	if d.KS >= d.KSCritical || d.Swingier != "" {
		t.Errorf("KS %v (critical %v), swingier %q", d.KS, d.KSCritical, d.Swingier)
	}
	// A real shift is significant, and P(x = 0)'s interval is Newcombe's:
	// the two Wilson intervals combined.
	b = simResult(n, []int64{1000, 2000, 3000, 4000})
	c = Compare(a, b)
	for _, r := range c.Rows {
		if r.Quantity == "mean" && !r.Significant {
			t.Errorf("mean: Δ %+v is not significant", r.Delta)
		}
	}
	vp := c.Dists[0].Values(c)[0]
	wa, wb := Wilson(2500, n), Wilson(1000, n)
	lo := -0.15 - math.Hypot(0.1-wb[0], wa[1]-0.25)
	if math.Abs(vp.Delta.Lo-lo) > 1e-12 || vp.A.Lo != wa[0] || vp.B.Hi != wb[1] {
		t.Errorf("P(x=0): %+v; want Δ from %v", vp, lo)
	}
	if d := c.Dists[0]; len(d.Crossings) != 0 || d.KS < d.KSCritical {
		t.Errorf("KS %v (critical %v), crossings %v", d.KS, d.KSCritical, d.Crossings)
	}
}

// 2d6 and d12 have the same CDF at 7 (7/12): their CDFs meet there and
// part at 8, the other way round.
func TestCompareMeet(t *testing.T) {
	a := VarResult{Name: "x", Den: 1, Lo: 2, P: make([]float64, 11)}
	for i := 1; i <= 6; i++ {
		for j := 1; j <= 6; j++ {
			a.P[i+j-2] += 1.0 / 36
		}
	}
	b := VarResult{Name: "x", Den: 1, Lo: 1, P: make([]float64, 12)}
	for i := range b.P {
		b.P[i] = 1.0 / 12
	}
	a.Stats, b.Stats = statsOf(Dist{Lo: 2, P: a.P}, 1), statsOf(Dist{Lo: 1, P: b.P}, 1)
	d := Compare(exactResult(a), exactResult(b)).Dists[0]
	if want := []Crossing{{After: 6, X: 7, To: 8}}; !slices.Equal(d.Crossings, want) {
		t.Errorf("crossings %v; want %v", d.Crossings, want)
	}
	if want := bruteDistance(a, b).crossings; !slices.Equal(d.Crossings, want) {
		t.Errorf("crossings %v; brute force %v", d.Crossings, want)
	}
	if d.Swingier != "B" {
		t.Errorf("swingier %q", d.Swingier)
	}
}
