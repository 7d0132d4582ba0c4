package rules

import (
	"context"
	"math"
	"math/big"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/crosscheck"
	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

func runExpr(t *testing.T, src string, sets ...string) *engine.Result {
	t.Helper()
	r, err := FromExpr(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	m := r.Mechanic()
	c, err := m.Configure(sets)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	res, err := exact.Run(m, c)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return res
}

func event(t *testing.T, r *engine.Result, name string) float64 {
	t.Helper()
	for _, e := range r.Events {
		if e.Name == name {
			return e.P
		}
	}
	t.Fatalf("no event %s", name)
	return 0
}

func variable(t *testing.T, r *engine.Result, name string) *engine.VarResult {
	t.Helper()
	if v := r.Var(name); v != nil {
		return v
	}
	t.Fatalf("no variable %s", name)
	return nil
}

// pmf reads a variable's distribution as value → probability.
func pmf(v *engine.VarResult) map[string]float64 {
	out := map[string]float64{}
	for i, p := range v.P {
		if p != 0 {
			x := v.Rat(i)
			out[big.NewRat(x.N, max(x.D, 1)).RatString()] += p
		}
	}
	return out
}

// enumerate rolls every combination of n dice of the faces given.
func enumerate(faces []int, n int, f func([]int)) {
	roll := make([]int, n)
	var rec func(j int)
	rec = func(j int) {
		if j == n {
			f(roll)
			return
		}
		for _, x := range faces {
			roll[j] = x
			rec(j + 1)
		}
	}
	rec(0)
}

func TestKeepHighestAgainstEveryRoll(t *testing.T) {
	t.Parallel()
	res := runExpr(t, "4d6kh3")
	want := map[int]*big.Rat{}
	enumerate([]int{1, 2, 3, 4, 5, 6}, 4, func(r []int) {
		s := slices.Clone(r)
		slices.Sort(s)
		v := s[1] + s[2] + s[3]
		if want[v] == nil {
			want[v] = new(big.Rat)
		}
		want[v].Add(want[v], big.NewRat(1, 1296))
	})
	v := variable(t, res, "value")
	for k, p := range want {
		if got := v.Exact; got == nil {
			t.Fatal("no exact rationals for 4d6kh3")
		}
		w, _ := p.Float64()
		if math.Abs(pmf(v)[itoa(k)]-w) > 1e-12 {
			t.Errorf("P(%d) = %v, want %v", k, pmf(v)[itoa(k)], w)
		}
	}
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

func TestOneLinerGoldens(t *testing.T) {
	t.Parallel()
	if p := event(t, runExpr(t, "d20 + 5 >= 15"), "success"); math.Abs(p-0.55) > 1e-12 {
		t.Errorf("d20+5 >= 15: %v", p)
	}
	if p := event(t, runExpr(t, "d20 + bonus >= tn", "bonus=5", "tn=15"), "success"); math.Abs(p-0.55) > 1e-12 {
		t.Errorf("with parameters: %v", p)
	}
	if m := variable(t, runExpr(t, "1000d6"), "value").Stats.Mean; math.Abs(m-3500) > 1e-6 {
		t.Errorf("1000d6 mean %v", m)
	}
	r := runExpr(t, "2d10!")
	if r.Truncated <= 0 || r.Truncated > 2e-12 {
		t.Errorf("2d10! truncated mass %v", r.Truncated)
	}
	if m := variable(t, r, "value").Stats.Mean; math.Abs(m-2*5.5/0.9) > 1e-6 {
		t.Errorf("2d10! mean %v, want %v", m, 2*5.5/0.9)
	}
	// count(5d6 >= 5): binomial(5, 1/3).
	v := variable(t, runExpr(t, "count(5d6 >= 5)"), "value")
	for k := 0; k <= 5; k++ {
		want := binom(5, k) * math.Pow(1.0/3, float64(k)) * math.Pow(2.0/3, float64(5-k))
		if got := pmf(v)[itoa(k)]; math.Abs(got-want) > 1e-12 {
			t.Errorf("count(5d6 >= 5) = %d: %v, want %v", k, got, want)
		}
	}
	if p := event(t, runExpr(t, "8d10cs>=7 >= 3"), "success"); p <= 0 || p >= 1 {
		t.Errorf("8d10cs>=7 >= 3: %v", p)
	}
	// Reroll ones once on a d6: P(1) = 1/36.
	v = variable(t, runExpr(t, "d6ro1"), "value")
	if got := pmf(v)["1"]; math.Abs(got-1.0/36) > 1e-12 {
		t.Errorf("d6ro1: P(1) = %v", got)
	}
	v = variable(t, runExpr(t, "d6r<=2"), "value")
	if got := pmf(v)["3"]; math.Abs(got-0.25) > 1e-12 {
		t.Errorf("d6r<=2: P(3) = %v", got)
	}
}

func binom(n, k int) float64 {
	r := 1.0
	for i := 0; i < k; i++ {
		r = r * float64(n-i) / float64(i+1)
	}
	return r
}

func TestOneLinerErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ src, want string }{
		{"4d6kh3 +", "line 1"},
		{"(n)d6", "the number of dice must be a whole number"},
		{"d6!>=1", "never stops"},
		{"d6!<=6", "every face explodes (1 to 6), so the die never stops: give a limit (!{3}) or explode on fewer faces"},
		{"d6!<1", "the die never shows less than 1, so it never explodes"},
		{"2d6!=7", "the die never shows 7, so it never explodes"},
		{"3d6!p>=5{3}cs>=5", "an extra 5 counts as 4: 0, an extra 6 as 5: 1"},
		{"count(6d6! >= 6)", "give the explosion a limit"},
		{"highest(d100!{2})", "lower the explosion's limit"},
		{"5d10!!>=8{2 in all}", "is written with ! (every extra roll a die of its own, as Foundry's x2 rolls them), not !!"},
		{"5d10!>=8{2 in all}kh2", "goes with the sum or a count of successes (cs, cf) of the dice, not with keep or drop"},
		{"5d10!>=8{2 in all}u", "does not combine with unique dice"},
		{"highest(5d10!>=8{2 in all}, 2)", "makes which dice explode depend on their order"},
		{"count(5d10!e>=8{2 in all} >= 8)", "makes which dice explode depend on their order"},
		{"5d10!>=8{1001 in all}", "an explosion's cap on the whole term"},
		{"{5d10!>=8{2 in all}}kh1", "explodes"},
		{"d0", "out of range"},
		{"hihgest(5d6)", "did you mean"},
	} {
		t.Run(c.src, func(t *testing.T) {
			t.Parallel()
			r, err := FromExpr(c.src)
			if err == nil {
				m := r.Mechanic()
				var cfg mechanics.Config
				if cfg, err = m.Configure([]string{"n=2.5"}[:boolInt(strings.Contains(c.src, "(n)"))]); err == nil {
					_, err = m.Model(cfg)
				}
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %v; want one line containing %q", c.src, err, c.want)
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestOneLinersBothEngines: exact against simulated for expressions of
// every kind.
func TestOneLinersBothEngines(t *testing.T) {
	t.Parallel()
	n := int64(200_000)
	if testing.Short() {
		n = 50_000
	}
	for _, src := range []string{
		"4d6kh3", "3d6 + d4 - 2", "2d10! + d20 >= 25", "d6!>=5{3}", "10d10!{3}kh5", "5d6r1", "d6ro<=2 * 2",
		"8d10cs>=7cf1", "count(6d6 == highest(6d6))", "largest_set(7d6)", "straight(5d6)", "highest(6d6, 2)",
		"min(d20, d20)", "max(3d6, 2d8) // 2", "abs(d6 - d6)", "if d6 >= 4 then 2d6 else d4", "lookup(d10, {1..3: 1, 4..9: 2, _: 3})",
		"d20 >= 11 and d6 == 6", "dF + dF + dF + dF", "d{1,1,2,3,5,8} + d%", "(d20 + 3) / 2",
		"8d10!cs>=8", "3d6!cs>=5cf1", "4d6!{2}cs=6", "5d10!>=9cs>=7", "10d10!kh5", "count(5d6!{2} >= 6)", "3d6kh2cs>=5", "6d10!{2}dl2cs>=8cf1",
		// Every roll a die of its own (!e), unlimited and limited.
		"5d10!ekh2", "4d6!edl1", "6d6!e>=5kh3", "5d10!edl1kh2cs>=8", "highest(5d10!e, 2)", "count(5d10!e >= 8)", "6d6!e{2}dh2",
		// Comparisons and clamps of bursting sums (tables of settled counts
		// in the simulator).
		// Per-die min and max, unique dice, matched sets (issue 26): the
		// simulator rolls the dice in order, rerolling repeats.
		"4d6min3", "3d6max4kh2", "3d6u", "3d6ukh2", "2d4uo", "6d6mt", "5d6mt3", "4dFmin0", "5d8u>5cs>=6", "4d{1,1,2,3}uo",
		"12d20ukh3", "6d6uo<=3", "8d10uo", "8d6mt>=4", "6d6umt", "d20max15!{3}",
		"if 2d10! + d20 > 25 then d6 else 0", "clamp(d8 + 3d6! - 4, 0, 30)", "if d6! > 4 then 1 else 0", "if d4!>=3 + d4!>=3 <= 6 then 2 else d4",
		// Explosions on any faces and penetrating dice, in sums, keeps,
		// pools and counts.
		"3d6!=5", "2d6!<=2 + d4", "4dF!=-1", "d6!p + d6!p", "3d6!p>=5{3}", "4d6!p{2}kh3", "5d10!p#>=8", "6d6!p{2}cs>=5cf1",
		"4d6!<3cs>=5", "3d6!!p{2}cs>=10", "count(4d6!p{1} >= 6)", "if 3d6!p > 14 then 1 else 0",
		// A cap on the explosions of the whole term (Foundry's x2>=8,
		// xo2>=8): the simulator follows the rolls in order.
		"5d10!>=8{2 in all}", "5d10!>=8{2 in all}cs>=8", "5d10!>=8{1, 2 in all}", "4d6!>=5{2, 5 in all}", "6d6!p{3 in all}cs>=5cf1",
		"3d4!>=1{4 in all} + d6",
		// A random number of dice ((1d4)d6): the simulator rolls the
		// count, then that many dice.
		"(1d4)d6", "(d6!)d6", "(d4)d6cs>=5", "(3d6)d10!cs>=8", "((d3)d4)d6 + d4", "(2d2-2)d6!p{2}", "(d4)d6!!cs>=8",
	} {
		t.Run(src, func(t *testing.T) {
			t.Parallel()
			r, err := FromExpr(src)
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			m := r.Mechanic()
			spec, err := m.Model(m.DefaultConfig())
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			report, err := crosscheck.Spec(context.Background(), spec, sim.Options{Trials: n, Seed: 9}, crosscheck.Standard)
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			for _, l := range report {
				t.Errorf("%s: %s", src, l)
			}
		})
	}
}

func loadHouse(t *testing.T) map[string]*Rule {
	t.Helper()
	rs, err := LoadFile("testdata/house.toml")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*Rule{}
	for _, r := range rs {
		out[r.ID] = r
	}
	return out
}

func runRule(t *testing.T, r *Rule, sets ...string) *engine.Result {
	t.Helper()
	m := r.Mechanic()
	c, err := m.Configure(sets)
	if err != nil {
		t.Fatal(err)
	}
	res, err := exact.Run(m, c)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestRuleFile(t *testing.T) {
	t.Parallel()
	rs := loadHouse(t)
	res := runRule(t, rs["house.check"], "bonus=5", "tn=15")
	if p := event(t, res, "success"); math.Abs(p-0.55) > 1e-12 {
		t.Errorf("house.check success %v", p)
	}
	if p := event(t, runRule(t, rs["house.check"], "bonus=-10", "tn=40"), "success"); math.Abs(p-0.05) > 1e-12 {
		t.Errorf("a natural 20 always succeeds: %v", p)
	}
	// The pool: all ones with 4 dice.
	res = runRule(t, rs["house.pool"])
	if p := event(t, res, "all_ones"); math.Abs(p-1.0/1296) > 1e-12 {
		t.Errorf("all ones %v", p)
	}
	// highest + extra copies against enumeration.
	want := map[int]float64{}
	enumerate([]int{1, 2, 3, 4, 5, 6}, 4, func(r []int) {
		m, c := slices.Max(r), 0
		for _, x := range r {
			if x == m {
				c++
			}
		}
		want[m+c-1] += 1.0 / 1296
	})
	got := pmf(variable(t, res, "result"))
	for k, p := range want {
		if math.Abs(got[itoa(k)]-p) > 1e-12 {
			t.Errorf("pool result %d: %v, want %v", k, got[itoa(k)], p)
		}
	}
	// The process: a test succeeds by roll − tn; done within the horizon.
	res = runRule(t, rs["house.accumulate"])
	if p := event(t, res, "done"); p < 0.99 || p > 1 {
		t.Errorf("accumulate done %v", p)
	}
	if v := variable(t, res, "tests"); v.Stats.Mean < 1 || v.Stats.Mean > 20 {
		t.Errorf("tests mean %v", v.Stats.Mean)
	}
	// Both engines agree on every rule of the file.
	for id, r := range rs {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			m := r.Mechanic()
			spec, err := m.Model(m.DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			report, err := crosscheck.Spec(context.Background(), spec, sim.Options{Trials: 100_000, Seed: 4}, crosscheck.Standard)
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			for _, l := range report {
				t.Errorf("%s: %s", id, l)
			}
		})
	}
}

func TestRuleFileErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ src, want string }{
		{"[[rule]]\nid = \"x\"\n", "x.toml:1: rule 1: id \"x\" must be lower-case words joined by dots"},
		{"[[rule]]\nid = \"h.a\"\n[rule.let]\nn = \"d20\"\n", "reports nothing"},
		{"[[rule]]\nid = \"h.a\"\n[rule.let]\nn = \"d20 +\"\n[rule.vars]\nv = \"n\"\n", "x.toml:4: rule h.a, let.n: line 1, column"},
		{"[[rule]]\nid = \"h.a\"\n[rule.params]\nbonus = 2\n[rule.vars]\nv = \"d20 + bnous\"\n", "did you mean \"bonus\""},
		{"[[rule]]\nid = \"h.a\"\ncolour = 3\n", "unknown key \"colour\""},
		// Several unknown keys: the first by name, every time (not map order).
		{"[[rule]]\nid = \"h.a\"\nzeta = 1\ncolour = 3\nmu = 2\n", "unknown key \"colour\""},
		{"[[rule]]\nid = \"h.a\"\n[rule.params]\nk = { zz = 1, aa = 2, default = 1 }\n", "unknown key \"aa\""},
		{"[[rule]]\nid = \"h.a\"\n[rule.vars]\nv = { zz = 1, expr = \"d6\", bb = 2 }\n", "unknown key \"bb\""},
		{"[[rule]]\nid = \"h.a\"\n[rule.params]\nk = { default = 50, min = 0, max = 10 }\n[rule.vars]\nv = \"d6\"\n", "default 50 is outside"},
		{"[[rule]]\nid = \"h.a\"\n[rule.let]\nd6 = \"d20\"\n", "not a name"},
		{"[[rule]]\nid = \"h.a\"\n[rule.vars]\nv = \"d6\"\n[[rule]]\nid = \"h.a\"\n[rule.vars]\nv = \"d6\"\n", "defined twice"},
		{"[[rule]\nid = \"h.a\"\n", "x.toml:2: expected end of table array name"},
		{"[[rule]]\nid = \"h.a\"\n[rule.process]\nstate = { time = { start = 0, min = 0, max = 3 } }\nuntil = \"time > 1\"\nhorizon = 5\n", "reserved"},
		{"[[rule]]\nid = \"h.a\"\n[rule.process]\nstate = { s = { start = 0, min = 0, max = 3 } }\nuntil = \"s >= 3\"\nhorizon = 5\n[rule.next]\nz = \"s + d2\"\n", "next.z is not a state variable"},
		{"[[rule]]\nid = \"h.a\"\n[rule.process]\nstate = { s = { start = 0, min = 0, max = 3 } }\nuntil = \"s >= d6\"\nhorizon = 5\n[rule.next]\ns = \"s + 1\"\n", "until must read only the state"},
	} {
		t.Run(c.want, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("x.toml", []byte(c.src))
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%q: %v; want one line containing %q", c.src, err, c.want)
			}
		})
	}
}

// TestProcessBoundsFromParams: a process's horizon and state bounds may be
// expressions of the parameters, checked at each setting.
func TestProcessBoundsFromParams(t *testing.T) {
	t.Parallel()
	src := `
[[rule]]
id = "t.countdown"
[rule.params]
hp = { default = 5, min = 1, max = 50 }
h = { default = 30, min = 0, max = 200 }
[rule.process]
state = { left = { start = "hp", min = 0, max = "hp" } }
until = "left == 0"
horizon = "h"
[rule.let]
hit = "d6 >= 4"
[rule.next]
left = "left - hit"
[rule.vars]
rounds = "time"
[rule.events]
down = "left == 0"
`
	rs, err := Parse("countdown.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	// Down after exactly hp hits: time is negative binomial; P(T = hp) = 2^-hp.
	for _, hp := range []int{1, 3, 7} {
		t.Run("hp="+itoa(hp), func(t *testing.T) {
			t.Parallel()
			res := runRule(t, r, "hp="+itoa(hp))
			v := variable(t, res, "rounds")
			if got := v.P[hp-v.Lo]; math.Abs(got-math.Pow(0.5, float64(hp))) > 1e-12 {
				t.Errorf("hp=%d: P(rounds = hp) = %g, want 2^-%d", hp, got, hp)
			}
		})
	}
	m := r.Mechanic()
	c, err := m.Configure([]string{"h=0"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Model(c); err == nil || !strings.Contains(err.Error(), "horizon is 0") {
		t.Errorf("horizon 0: %v", err)
	}
	bad := strings.Replace(src, `max = "hp"`, `max = "d6"`, 1)
	if rs, err := Parse("bad.toml", []byte(bad)); err == nil {
		_, err = rs[0].Mechanic().Model(rs[0].Mechanic().DefaultConfig())
		if err == nil || !strings.Contains(err.Error(), "process.state.left.max") {
			t.Errorf("a bound that rolls: %v", err)
		}
	}
}

// TestOutputsReadEarlierOutputs: events and bands may read the rule's
// variables by name; a condition or lookup key on parameters alone rolls
// only its branch.
func TestOutputsReadEarlierOutputs(t *testing.T) {
	t.Parallel()
	src := `
[[rule]]
id = "t.vars"
[rule.params]
big = { default = 0, min = 0, max = 1 }
[rule.let]
roll = "if big == 1 then 60d20 else d20"
pick = "lookup(big, {0: d4, 1: 80d100})"
[rule.vars]
margin = "roll - 10"
double = "margin * 2"
[rule.events]
ok = "margin >= 0 and double >= 0"
four = "pick == 4"
`
	rs, err := Parse("vars.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res := runRule(t, rs[0])
	if got := event(t, res, "ok"); math.Abs(got-0.55) > 1e-12 {
		t.Errorf("P(ok) = %g, want 0.55", got)
	}
	if got := event(t, res, "four"); math.Abs(got-0.25) > 1e-12 {
		t.Errorf("P(four) = %g, want 0.25", got)
	}
}

// TestExplodedRollsCountAsDice: with ! (not !!), success counting counts
// every roll of an exploding die, as Roll20 and Foundry do: against every
// chain of rolls of a die exploding at most twice, in exact fractions.
func TestExplodedRollsCountAsDice(t *testing.T) {
	t.Parallel()
	// d6!{2}cs>=5cf1: a chain is up to three rolls, each 6 rolling on.
	want := map[int]*big.Rat{}
	var walk func(depth, count int, p *big.Rat)
	walk = func(depth, count int, p *big.Rat) {
		for f := 1; f <= 6; f++ {
			q := new(big.Rat).Mul(p, big.NewRat(1, 6))
			c := count + boolInt(f >= 5) - boolInt(f == 1)
			if f == 6 && depth < 2 {
				walk(depth+1, c, q)
				continue
			}
			if want[c] == nil {
				want[c] = new(big.Rat)
			}
			want[c].Add(want[c], q)
		}
	}
	walk(0, 0, big.NewRat(1, 1))
	v := variable(t, runExpr(t, "d6!{2}cs>=5cf1"), "value")
	for c, p := range want {
		f, _ := p.Float64()
		if got := v.P[c-v.Lo]; math.Abs(got-f) > 1e-15 {
			t.Errorf("P(%d) = %.17g, want %s", c, got, p.RatString())
		}
	}
	// !! counts the compounded total once.
	if got := variable(t, runExpr(t, "8d10!!cs>=8"), "value").Stats.Mean; math.Abs(got-2.4) > 1e-9 {
		t.Errorf("8d10!!cs>=8: mean %g, want 2.4 (one count per die)", got)
	}
	if got := variable(t, runExpr(t, "8d10!cs>=8"), "value").Stats.Mean; math.Abs(got-8.0/3) > 1e-9 {
		t.Errorf("8d10!cs>=8: mean %g, want 8/3 (every roll counts)", got)
	}
}

// TestUnlimitedExplosionKept: dice exploding without limit may be kept,
// dropped or pooled: the exact engine follows each die while the odds fit
// and what is left is at most 10⁻¹², reports that mass, and agrees with a
// deep limit everywhere else.
func TestUnlimitedExplosionKept(t *testing.T) {
	t.Parallel()
	res := runExpr(t, "10d10!kh5")
	if res.Truncated <= 0 || res.Truncated > 1e-12 {
		t.Errorf("10d10!kh5: truncated mass %g, want in (0, 1e-12]", res.Truncated)
	}
	v, deep := variable(t, res, "value"), variable(t, runExpr(t, "10d10!{16}kh5"), "value")
	sum := 0.0
	for i, p := range v.P {
		sum += p
		if q := deep.P[v.Lo+i-deep.Lo]; math.Abs(p-q) > 1e-12 {
			t.Errorf("P(%d) = %g, with 16 bursts %g", v.Lo+i, p, q)
		}
	}
	if math.Abs(sum+res.Truncated-1) > 1e-12 {
		t.Errorf("probabilities sum to %.15g and %g is reported left out", sum, res.Truncated)
	}
}

// TestAllAnyThroughHighestLowest: all and any of a named pool read through
// its highest or lowest die give what the pool's own all and any give.
func TestAllAnyThroughHighestLowest(t *testing.T) {
	t.Parallel()
	for _, cond := range []string{"== 1", "== 6", ">= 3", "> 4", "<= 2", "< 5", "== 3", "!= 6", ">= 1", "> 6"} {
		for _, fn := range []string{"all", "any"} {
			t.Run(fn+"(pool "+cond+")", func(t *testing.T) {
				t.Parallel()
				src := "[[rule]]\nid = \"t.p\"\n[rule.let]\npool = \"5d6\"\n[rule.vars]\nh = \"highest(pool)\"\n[rule.events]\nx = \"" + fn + "(pool " + cond + ")\"\n"
				rs, err := Parse("p.toml", []byte(src))
				if err != nil {
					t.Fatal(err)
				}
				got := event(t, runRule(t, rs[0]), "x")
				want := event(t, runExpr(t, fn+"(5d6 "+cond+")"), "value")
				if math.Abs(got-want) > 1e-12 {
					t.Errorf("%s(pool %s): %.15g through the pool, %.15g alone", fn, cond, got, want)
				}
			})
		}
	}
}

// TestRuleFileHostile: what the hostile-input sweep found — an endless
// file, keys outside [[rule]], rules written inline, names that read as
// functions or dice, a rule with only bands, errors placed at the rule's
// line, unnamed parts named by what they were written as.
func TestRuleFileHostile(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := LoadFile("/dev/zero"); err == nil || !strings.Contains(err.Error(), "at most") {
			t.Errorf("/dev/zero: %v", err)
		}
	}
	// write puts src in a file of its own directory (of the test t).
	write := func(t *testing.T, name, src string) string {
		p := t.TempDir() + "/" + name
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for src, want := range map[string]string{
		"toplevel = 3\n[[rule]]\nid = \"x.y\"\n[rule.vars]\nv = \"d6\"\n": `top.toml:1: unknown key "toplevel"`,
		"rule = [1, 2]\n": "top.toml:1: write each rule as a [[rule]] table",
		"rule = 3\n":      "top.toml:1: rule must be a table of tables",
		"[[rule]]\nid = \"x.y\"\n[rule.params]\nmax = 3\n[rule.vars]\nv = \"d6\"\n": `parameter "max" is a function`,
		"[[rule]]\nid = \"x.y\"\n[rule.let]\nd = \"d6\"\n[rule.vars]\nv = \"d\"\n":  `"d" reads as a die`,
	} {
		t.Run(want, func(t *testing.T) {
			t.Parallel()
			_, err := LoadFile(write(t, "top.toml", src))
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%q: %v; want %q", src, err, want)
			}
		})
	}
	rs, err := LoadFile(write(t, "bands.toml", "\n[[rule]]\nid = \"x.y\"\n[rule.bands]\nb = { expr = \"d3 - 1\", labels = [\"a\", \"b\", \"c\"] }\n"))
	if err != nil {
		t.Fatalf("a rule with only bands: %v", err)
	}
	if res := runRule(t, rs[0]); len(res.Bands) != 1 || math.Abs(res.Bands[0].P[1]-1.0/3) > 1e-12 {
		t.Errorf("bands only: %+v", res.Bands)
	}
	_, err = LoadFile(write(t, "st.toml", "# big\n[[rule]]\nid = \"x.y\"\n[rule.process]\nstate = { a = { start = 0, min = 0, max = 1000 }, b = { start = 0, min = 0, max = 1000 } }\nuntil = \"a > 5\"\nhorizon = 5\n[rule.next]\na = \"a + d6\"\n[rule.vars]\nt = \"time\"\n"))
	if err == nil || !strings.Contains(err.Error(), "st.toml:2: rule x.y: the state has more than") {
		t.Errorf("too many states: %v", err)
	}
	for _, src := range []string{"d + 1", "max + d6", "2 * count"} {
		if _, err := FromExpr(src); err == nil || !strings.Contains(err.Error(), "a parameter needs another name") {
			t.Errorf("%s: %v", src, err)
		}
	}
	r, _ := FromExpr("6 / (d6 - 1)")
	m := r.Mechanic()
	_, err = exact.Run(m, m.DefaultConfig())
	if err == nil || !strings.Contains(err.Error(), "[d6 - 1]=0: division by zero") {
		t.Errorf("an unnamed part in an error: %v", err)
	}
}

// TestCountAmongKept: counting successes among the kept dice only, against
// every roll.
func TestCountAmongKept(t *testing.T) {
	t.Parallel()
	want := map[int]int{}
	enumerate([]int{1, 2, 3, 4, 5, 6}, 4, func(d []int) {
		s := slices.Clone(d)
		slices.Sort(s)
		n := 0
		for _, v := range s[:2] { // the two lowest
			n += boolInt(v >= 5) - boolInt(v == 1)
		}
		want[n]++
	})
	v := variable(t, runExpr(t, "4d6kl2cs>=5cf1"), "value")
	for n, c := range want {
		if got := v.P[n-v.Lo]; math.Abs(got-float64(c)/1296) > 1e-15 {
			t.Errorf("P(%d) = %.17g, want %d/1296", n, got, c)
		}
	}
}
