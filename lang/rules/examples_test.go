package rules_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/crosscheck"
	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/systems"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
)

// exampleRules reads examples/rules/*.toml: the built-in mechanics written
// in the rule language.
func exampleRules(t *testing.T) map[string]*rules.Rule {
	t.Helper()
	out := map[string]*rules.Rule{}
	for _, f := range []string{"ag_skill.toml", "ag_accumulated.toml", "grim.toml", "bd_d20w.toml"} {
		rs, err := rules.LoadFile("../../examples/rules/" + f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			out[r.ID] = r
		}
	}
	return out
}

// grid is every combination of the given values of each parameter.
func grid(axes map[string][]string) [][]string {
	out := [][]string{nil}
	for _, name := range sortedKeys(axes) {
		var next [][]string
		for _, sets := range out {
			for _, v := range axes[name] {
				next = append(next, append(append([]string(nil), sets...), name+"="+v))
			}
		}
		out = next
	}
	return out
}

func sortedKeys(m map[string][]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j] < ks[j-1]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	return ks
}

func span(lo, hi, step int) []string {
	var out []string
	for v := lo; v <= hi; v += step {
		out = append(out, fmt.Sprint(v))
	}
	return out
}

// ruleVsBuiltin is one rule of examples/rules and the built-in it restates:
// the grid of settings both share, and the built-in's name of each of the
// rule's outputs that is named differently.
type ruleVsBuiltin struct {
	rule, builtin string
	axes          map[string][]string
	rename        map[string]string
}

var ruleVsBuiltins = []ruleVsBuiltin{
	{rule: "my.ag.skill", builtin: "ag.skill_test", axes: map[string][]string{
		"skill": span(0, 8, 1), "attribute": {"0", "2", "5"}, "modifier": {"-3", "0", "2"}, "tn": span(1, 14, 1)}},
	{rule: "my.grim.attack", builtin: "grim.core.attack", axes: map[string][]string{
		"attribute": span(-3, 10, 1), "modifier": {"-5", "0", "3"}, "tn": {"1", "8", "14", "20", "30"}, "ff_threshold": {"1", "3", "6"}}},
	{rule: "my.grim.fall", builtin: "grim.fall", axes: map[string][]string{
		"distance": {"0", "4.4", "4.5", "7", "9", "12.25", "18", "44.5", "45", "90", "126", "179", "180", "400"},
		"agl":      {"-2", "3", "8"}, "intentional": {"0", "1"}, "condition": {"5", "15", "40"}}},
	{rule: "my.ag.accumulated", builtin: "ag.accumulated", axes: map[string][]string{
		"q": {"1", "4", "6", "12"}, "skill": {"0", "1", "2", "4"}, "tn": {"3", "5", "8"}, "horizon": {"5", "100"}},
		rename: map[string]string{"tests": "time", "done": "absorbed:done", "not_done": "not_absorbed"}},
	{rule: "my.bd.attack", builtin: "bd.attack", axes: map[string][]string{
		"k": {"0", "1", "2", "4"}, "rank": {"4", "6", "8", "10", "12", "20"}, "guard": {"0", "15", "24", "41"}, "behind_unaware": {"0", "1"}}},
	{rule: "my.d20w.attack", builtin: "d20w.attack", axes: map[string][]string{
		"attack": span(-4, 16, 4), "defence": span(-2, 14, 4), "threat": {"1", "2", "5"}}},
}

// TestExampleRulesMatchBuiltins: each rule of examples/rules gives the same
// distributions, events and bands as the built-in it restates, to 1e-12,
// at every point of a grid of its parameters.
func TestExampleRulesMatchBuiltins(t *testing.T) {
	t.Parallel()
	rs := exampleRules(t)
	for _, c := range ruleVsBuiltins {
		t.Run(c.rule, func(t *testing.T) {
			t.Parallel()
			r := rs[c.rule]
			if r == nil {
				t.Fatalf("examples/rules has no rule %s", c.rule)
			}
			b, err := systems.Default.Lookup(c.builtin)
			if err != nil {
				t.Fatal(err)
			}
			points := grid(c.axes)
			if testing.Short() && len(points) > 300 {
				// Every 3rd point (and the last) under -short.
				var some [][]string
				for i := 0; i < len(points); i += 3 {
					some = append(some, points[i])
				}
				points = append(some, points[len(points)-1])
			}
			for _, sets := range points {
				got := runSets(t, r.Mechanic(), sets)
				want := runSets(t, b, sets)
				if msg := compareResults(got, want, c.rename); msg != "" {
					t.Errorf("%s vs %s at %s: %s", c.rule, c.builtin, strings.Join(sets, " "), msg)
				}
			}
		})
	}
}

func runSets(t *testing.T, m *mechanics.Mechanic, sets []string) *engine.Result {
	t.Helper()
	c, err := m.Configure(sets)
	if err != nil {
		t.Fatalf("%s %v: %v", m.ID, sets, err)
	}
	res, err := exact.Run(m, c)
	if err != nil {
		t.Fatalf("%s %v: %v", m.ID, sets, err)
	}
	return res
}

// compareResults: every output of got has its counterpart in want (by
// name, or renamed) with the same probabilities to 1e-12; "" when they
// agree.
func compareResults(got, want *engine.Result, rename map[string]string) string {
	const tol = 1e-12
	name := func(n string) string {
		if w, ok := rename[n]; ok {
			return w
		}
		return n
	}
	if len(got.Vars)+len(got.Events) == 0 {
		return "the rule has no outputs"
	}
	for _, e := range got.Events {
		w := want.Event(name(e.Name))
		if w == nil {
			if strings.HasPrefix(e.Name, "absorbed:") {
				continue // the process's own report, named after the rule's state
			}
			return fmt.Sprintf("the built-in has no event %s", name(e.Name))
		}
		if math.Abs(e.P-w.P) > tol {
			return fmt.Sprintf("event %s: %.15g, built-in %.15g", e.Name, e.P, w.P)
		}
	}
	for _, v := range got.Vars {
		w := want.Var(name(v.Name))
		if w == nil {
			return fmt.Sprintf("the built-in has no variable %s", name(v.Name))
		}
		if math.Abs(v.Undefined-w.Undefined) > tol {
			return fmt.Sprintf("variable %s: undefined with P %.15g, built-in %.15g", v.Name, v.Undefined, w.Undefined)
		}
		at := func(r *engine.VarResult) map[string]float64 {
			m := map[string]float64{}
			for i, p := range r.P {
				if p != 0 {
					m[big.NewRat(int64(r.Lo+i), int64(max(r.Den, 1))).RatString()] += p
				}
			}
			return m
		}
		a, b := at(&v), at(w)
		for k := range b {
			if _, ok := a[k]; !ok {
				a[k] = 0
			}
		}
		for k, p := range a {
			if math.Abs(p-b[k]) > tol {
				return fmt.Sprintf("variable %s: P(%s) = %.15g, built-in %.15g", v.Name, k, p, b[k])
			}
		}
	}
	for _, b := range got.Bands {
		var w *engine.BandResult
		for i := range want.Bands {
			if want.Bands[i].Name == name(b.Name) {
				w = &want.Bands[i]
			}
		}
		if w == nil {
			return fmt.Sprintf("the built-in has no band %s", name(b.Name))
		}
		// A process's final states are labelled by the rule's state
		// variables ("progress=6"), the built-in's by its own words.
		if !slices.Equal(b.Labels, w.Labels) && (b.Name != "final_state" || len(b.Labels) != len(w.Labels)) {
			return fmt.Sprintf("band %s: labels %q, built-in %q", b.Name, b.Labels, w.Labels)
		}
		for i := range b.P {
			if math.Abs(b.P[i]-w.P[i]) > tol {
				return fmt.Sprintf("band %s: P(%s) = %.15g, built-in %.15g", b.Name, b.Labels[i], b.P[i], w.P[i])
			}
		}
	}
	if math.Abs(got.Truncated-want.Truncated) > tol {
		return fmt.Sprintf("truncated mass %.3g, built-in %.3g", got.Truncated, want.Truncated)
	}
	return ""
}

// TestExampleRulesBothEngines: the exact engine against the simulator for
// every rule of examples/rules, at its defaults and at a second point.
func TestExampleRulesBothEngines(t *testing.T) {
	t.Parallel()
	rs := exampleRules(t)
	extra := map[string][]string{
		"my.ag.skill":       {"skill=0", "tn=3"},
		"my.grim.attack":    {"ff_threshold=4", "attribute=7"},
		"my.grim.fall":      {"distance=90", "agl=6"},
		"my.ag.accumulated": {"q=9", "skill=3", "horizon=12"},
		"my.bd.attack":      {"k=3", "rank=6", "guard=30"},
		"my.d20w.attack":    {"threat=3", "defence=9"},
	}
	opt := mechtest.Trials(t)
	for id, r := range rs {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			m := r.Mechanic()
			for _, sets := range [][]string{nil, extra[id]} {
				c, err := m.Configure(sets)
				if err != nil {
					t.Fatal(err)
				}
				spec, err := m.Model(c)
				if err != nil {
					t.Fatal(err)
				}
				report, err := crosscheck.Spec(context.Background(), spec, opt, crosscheck.Standard)
				if err != nil {
					t.Fatalf("%s %v: %v", id, sets, err)
				}
				for _, l := range report {
					t.Errorf("%s %v: %s", id, sets, l)
				}
			}
		})
	}
}

// u128 is an unsigned 128-bit count.
type u128 struct{ hi, lo uint64 }

func (a *u128) add(x uint64) {
	var c uint64
	a.lo, c = bits.Add64(a.lo, x, 0)
	a.hi += c
}

func (a u128) rat(den *big.Int) *big.Rat {
	n := new(big.Int).Lsh(new(big.Int).SetUint64(a.hi), 64)
	n.Or(n, new(big.Int).SetUint64(a.lo))
	return new(big.Rat).SetFrac(n, den)
}

// TestRollAndKeepAgainstEnumeration: L5R's 10k5 — ten d10 exploding on 10
// (here at most once: 1–9 with weight 10, 11–20 with weight 1 over 100),
// keep the five highest — against an enumeration of every multiset of the
// ten dice with its multinomial weight, in exact integers. The unlimited
// roll-and-keep differs from the once-exploding one by at most the mass of
// a second explosion, which the engine reports as the bound.
func TestRollAndKeepAgainstEnumeration(t *testing.T) {
	t.Parallel()
	type face struct{ v, w int }
	var faces []face
	for v := 1; v <= 9; v++ {
		faces = append(faces, face{v, 10})
	}
	for v := 11; v <= 20; v++ {
		faces = append(faces, face{v, 1})
	}
	const n, keep = 10, 5
	fact := [n + 1]uint64{1}
	for i := 1; i <= n; i++ {
		fact[i] = fact[i-1] * uint64(i)
	}
	counts := map[int]*u128{}
	// Every multiset: how many of the n dice show each face, faces taken
	// from the highest down so the kept sum is the first keep dice.
	var rec func(i, left int, weight uint64, perm uint64, kept, taken int)
	rec = func(i, left int, weight, perm uint64, kept, taken int) {
		if left == 0 {
			c := counts[kept]
			if c == nil {
				c = &u128{}
				counts[kept] = c
			}
			c.add(weight * (fact[n] / perm))
			return
		}
		if i < 0 {
			return
		}
		f := faces[i]
		w, p := uint64(1), uint64(1)
		for k := 0; k <= left; k++ {
			take := min(k, max(0, keep-taken))
			rec(i-1, left-k, weight*w, perm*p, kept+take*f.v, taken+k)
			w *= uint64(f.w)
			p *= uint64(k + 1)
		}
	}
	rec(len(faces)-1, n, 1, 1, 0, 0)
	den := new(big.Int).Exp(big.NewInt(100), big.NewInt(n), nil)
	brute := map[int]float64{}
	total := new(big.Rat)
	for v, c := range counts {
		r := c.rat(den)
		total.Add(total, r)
		brute[v], _ = r.Float64()
	}
	if total.Cmp(big.NewRat(1, 1)) != 0 {
		t.Fatalf("the enumeration's weights sum to %s", total.RatString())
	}
	res := runExprT(t, "10d10!{1}kh5")
	v := res.Var("value")
	for i, p := range v.P {
		if d := math.Abs(p - brute[v.Lo+i]); d > 1e-15 {
			t.Errorf("10d10!{1}kh5: P(%d) = %.17g, enumeration %.17g", v.Lo+i, p, brute[v.Lo+i])
		}
	}
	for val, p := range brute {
		if val < v.Lo || val >= v.Lo+len(v.P) {
			t.Errorf("10d10!{1}kh5: the engine has no value %d (enumeration %.3g)", val, p)
		}
	}
	// Deeper explosions move at most the mass of a second explosion on
	// some die: P = 1 − (1 − 1/100)^10.
	deep := runExprT(t, "10d10!{12}kh5").Var("value")
	bound := 1 - math.Pow(0.99, 10)
	tv := 0.0
	for i, p := range deep.P {
		tv += math.Abs(p - brute[deep.Lo+i])
	}
	if tv/2 > bound || tv == 0 {
		t.Errorf("10d10!{12}kh5 is %.4g from the once-exploding roll (total variation), more than the second-explosion mass %.4g (or identical)", tv/2, bound)
	}

	// 4d6kh3 against all 1296 rolls, in exact fractions.
	want := map[int]int{}
	for r := 0; r < 1296; r++ {
		d := []int{r%6 + 1, r/6%6 + 1, r/36%6 + 1, r/216 + 1}
		lo := min(d[0], d[1], d[2], d[3])
		want[d[0]+d[1]+d[2]+d[3]-lo]++
	}
	kh := runExprT(t, "4d6kh3").Var("value")
	if kh.Exact == nil {
		t.Fatal("4d6kh3 has no exact fractions")
	}
	for i, s := range kh.Exact {
		got, ok := new(big.Rat).SetString(s)
		if !ok || got.Cmp(big.NewRat(int64(want[kh.Lo+i]), 1296)) != 0 {
			t.Errorf("4d6kh3: P(%d) = %s, enumeration %d/1296", kh.Lo+i, s, want[kh.Lo+i])
		}
	}
}

func runExprT(t *testing.T, src string) *engine.Result {
	t.Helper()
	r, err := rules.FromExpr(src)
	if err != nil {
		t.Fatal(err)
	}
	return runSets(t, r.Mechanic(), nil)
}
