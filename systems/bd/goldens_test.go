package bd

import (
	"math"
	"math/big"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/internal/mechtest"
	"github.com/oddsmith/oddsmith/mechanics"
)

func event(t testing.TB, r *engine.Result, name string) float64 {
	t.Helper()
	e := r.Event(name)
	if e == nil {
		t.Fatalf("%s reports no event %s", r.Mechanic, name)
	}
	return e.P
}

func variable(t testing.TB, r *engine.Result, name string) *engine.VarResult {
	t.Helper()
	v := r.Var(name)
	if v == nil {
		t.Fatalf("%s reports no variable %s", r.Mechanic, name)
	}
	return v
}

// The goldens of bd.core.check and bd.attack: P(d20 + k d10! > G), to the
// digits the catalogue prints.
func TestAttackGoldens(t *testing.T) {
	t.Parallel()
	golden := map[int][]float64{
		15: {.2500, .5450, .7915, .9339},
		8:  {.600, .860, .972, .9965},
		25: {0, .1045, .3558, .6157},
	}
	for g, ps := range golden {
		for k, want := range ps {
			tol := 5e-5
			if g == 8 && k < 3 {
				tol = 5e-4 // printed to three digits
			}
			r := mechtest.MustExact(t, registry, "bd.attack", "k="+itoa(k), "guard="+itoa(g))
			mechtest.Near(t, "P(hit) k="+itoa(k)+" G="+itoa(g), event(t, r, "hit"), want, tol)
		}
	}
	// The same Guard 8 from behind an unaware target with Guard 15.
	mechtest.Near(t, "behind unaware", event(t, mechtest.MustExact(t, registry, "bd.attack", "k=2", "behind_unaware=1"), "hit"), .972, 5e-4)
	// bd.core.check at VS 16 is the same roll as the attack vs Guard 15.
	mechtest.Near(t, "check at VS 16", event(t, mechtest.MustExact(t, registry, "bd.core.check", "k=2", "vs=16"), "success"), .7915, 5e-5)
}

// The golden of bd.defense: attacker 2d10!, defender 2d10!, Guard 15.
func TestDefenseGolden(t *testing.T) {
	t.Parallel()
	r := mechtest.MustExact(t, registry, "bd.defense", "k=2", "k_d=2", "guard=15")
	mechtest.Near(t, "P(hit) without reaction", event(t, r, "hit_no_reaction"), .7915, 5e-5)
	mechtest.Near(t, "P(hit) with reaction", event(t, r, "hit"), .4926, 5e-5)
	mechtest.Near(t, "P(tie)", event(t, r, "tie"), .034, 5e-4)
	// ΔP(hit) and the per-reaction figures.
	d := event(t, r, "hit_no_reaction") - event(t, r, "hit")
	mechtest.Near(t, "reaction_saves = ΔP(hit)", event(t, r, "reaction_saves"), d, 1e-12)
	beaten := event(t, r, "hit_no_reaction")
	mechtest.Near(t, "P(defence | beat Guard)", variable(t, r, "defence_given_beaten").Stats.Mean, d/beaten, 1e-9)
	mechtest.Near(t, "value per reaction (react after the roll)", variable(t, r, "value_per_reaction").Stats.Mean, d/beaten, 1e-9)
	// Committing before the roll: the same P(hit), a reaction on every attack.
	n := mechtest.MustExact(t, registry, "bd.defense", "opt.decide_after_roll=no")
	mechtest.Near(t, "P(hit) committing first", event(t, n, "hit"), event(t, r, "hit"), 1e-12)
	mechtest.Near(t, "reactions committing first", event(t, n, "reacted"), 1, 1e-12)
	mechtest.Near(t, "value per reaction committing first", variable(t, n, "value_per_reaction").Stats.Mean, d, 1e-9)
	// Equal dice: the attacker's edge is the tie.
	mechtest.Near(t, "symmetry", event(t, r, "reaction_saves")+event(t, r, "hit"), beaten, 1e-12)
}

// The golden of bd.damage: P(crit) = 1 − (1 − 1/S)^k_b, d10: .10, .19, .271.
func TestDamageCritGolden(t *testing.T) {
	t.Parallel()
	for kb, want := range map[int]float64{0: 0, 1: .10, 2: .19, 3: .271} {
		mechtest.Near(t, "P(crit) k_b="+itoa(kb), event(t, mechtest.MustExact(t, registry, "bd.damage", "k_b="+itoa(kb)), "crit"), want, 1e-9)
	}
	for _, s := range []int{4, 6, 8, 12, 20} {
		want := 1 - math.Pow(1-1/float64(s), 2)
		mechtest.Near(t, "P(crit) 2d"+itoa(s)+"!", event(t, mechtest.MustExact(t, registry, "bd.damage", "k_b=2", "rank="+itoa(s)), "crit"), want, 1e-9)
	}
	// Weapon dice that burst never make a critical hit; E[D] = E[d8!] + E[d10!].
	r := mechtest.MustExact(t, registry, "bd.damage", "opt.weapon_dice_burst=yes")
	mechtest.Near(t, "crit with bursting weapon dice", event(t, r, "crit"), .1, 1e-9)
	mechtest.Near(t, "E[d8! + d10!]", variable(t, r, "damage").Stats.Mean, burstMean(8)+burstMean(10), 1e-9)
	// Untrained unarmed: one feeble die + the bonus dice.
	mechtest.Near(t, "E[d4 + d10!]", variable(t, mechtest.MustExact(t, registry, "bd.damage", "unarmed=1"), "damage").Stats.Mean, 2.5+burstMean(10), 1e-9)
	mechtest.Near(t, "E[d6 + d10!]", variable(t, mechtest.MustExact(t, registry, "bd.damage", "unarmed=1", "opt.feeble_die=d6"), "damage").Stats.Mean, 3.5+burstMean(10), 1e-9)
}

// burstMean is E[dS!] = S(S+1)/(2(S−1)).
func burstMean(s int) float64 { S := float64(s); return S * (S + 1) / (2 * (S - 1)) }

// The closed form of a bursting die, P(X = S·j + r) = S^−(j+1) for r in
// 1…S−1, E[X] = S(S+1)/(2(S−1)) and P(X > S·j + r) = S^−j·(S − r)/S, on the
// exact engine's result of bd.core.burst.
func TestBurstClosedForm(t *testing.T) {
	t.Parallel()
	for _, s := range ladder {
		t.Run("d"+itoa(s)+"!", func(t *testing.T) {
			t.Parallel()
			r := mechtest.MustExact(t, registry, "bd.core.burst", "rank="+itoa(s))
			v := variable(t, r, "value")
			S := float64(s)
			for i, p := range v.P {
				x := v.Lo + i
				j, rr := x/s, x%s
				want := 0.0
				if rr != 0 {
					want = math.Pow(S, -float64(j+1))
				}
				if math.Abs(p-want) > 1e-15*math.Max(1, want*1e3) {
					t.Errorf("d%d!: P(X = %d) = %g; want %g", s, x, p, want)
				}
				if rr != 0 && j < 6 {
					tail := math.Pow(S, -float64(j)) * (S - float64(rr)) / S
					got := 0.0
					for _, q := range v.P[i+1:] {
						got += q
					}
					if math.Abs(got-tail) > 2e-12 {
						t.Errorf("d%d!: P(X > %d) = %.15g; want %.15g", s, x, got, tail)
					}
				}
			}
			mechtest.Near(t, "E[d"+itoa(s)+"!]", v.Stats.Mean, burstMean(s), 1e-9)
			mechtest.Near(t, "P(burst) d"+itoa(s), event(t, r, "burst"), 1/S, 1e-12)
			mechtest.Near(t, "E[J] d"+itoa(s), variable(t, r, "bursts").Stats.Mean, 1/(S-1), 1e-9)
			mechtest.Near(t, "E[R] d"+itoa(s), variable(t, r, "last_roll").Stats.Mean, S/2, 1e-9)
		})
	}
	mechtest.Near(t, "E[d10!]", burstMean(10), 6.1111, 1e-4)
}

// enumerate lists every roll sequence of a dS that may burst at most limit
// times (the last roll counts as it is), with its exact probability: the
// brute force that the closed form and the rational engine must match.
func enumerate(s, limit int) map[int]*big.Rat {
	out := map[int]*big.Rat{}
	var roll func(sum, depth int, p *big.Rat)
	roll = func(sum, depth int, p *big.Rat) {
		q := new(big.Rat).Mul(p, big.NewRat(1, int64(s)))
		for f := 1; f <= s; f++ {
			if f == s && depth < limit {
				roll(sum+f, depth+1, q)
				continue
			}
			if out[sum+f] == nil {
				out[sum+f] = new(big.Rat)
			}
			out[sum+f].Add(out[sum+f], q)
		}
	}
	roll(0, 0, big.NewRat(1, 1))
	return out
}

func ratPow(s, n int) *big.Rat {
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(int64(s)), big.NewInt(int64(n)), nil))
}

// Brute force with rationals at small depth: every roll sequence of a
// limited burst against the closed form and exact.EvalRat; the unlimited
// model's rationals against the closed form, with the dropped mass exactly
// S^−(depth+1).
func TestBurstRationals(t *testing.T) {
	t.Parallel()
	for _, s := range []int{4, 6, 10} {
		for limit := 1; limit <= 3; limit++ {
			brute := enumerate(s, limit)
			for x, p := range brute {
				j, r := x/s, x%s
				var want *big.Rat
				switch {
				case j < limit && r != 0:
					want = ratPow(s, j+1)
				case j == limit && r != 0 || x == s*(limit+1):
					want = ratPow(s, limit+1) // the last roll counts as it is
				default:
					t.Errorf("d%d! limit %d: impossible total %d enumerated", s, limit, x)
					continue
				}
				if p.Cmp(want) != 0 {
					t.Errorf("d%d! limit %d: P(X = %d) = %s; want %s", s, limit, x, p, want)
				}
			}
			rd, err := exact.EvalRat(mechanics.Explode{Die: mechanics.D(s), Limit: limit})
			if err != nil {
				t.Fatal(err)
			}
			if len(rd) != len(brute) {
				t.Errorf("d%d! limit %d: EvalRat has %d values, enumeration %d", s, limit, len(rd), len(brute))
			}
			for x, p := range brute {
				if q := rd[x]; q == nil || q.Cmp(p) != 0 {
					t.Errorf("d%d! limit %d: EvalRat P(X = %d) = %v; enumeration %s", s, limit, x, q, p)
				}
			}
		}
	}
	// The unlimited die of the model (bd.core.burst's outcome): every value
	// exactly S^−(j+1), and the missing mass exactly S^−(depth+1).
	for _, s := range []int{4, 10, 20} {
		spec := mechtest.MustModel(t, registry, "bd.core.burst", "rank="+itoa(s))
		rd, err := exact.EvalRat(spec.Outcome)
		if err != nil {
			t.Fatal(err)
		}
		slot := spec.Record.Slot("value")
		total := new(big.Rat)
		for code, p := range rd {
			x := slot.Get(code)
			if x%s == 0 || p.Cmp(ratPow(s, x/s+1)) != 0 {
				t.Errorf("d%d!: rational P(X = %d) = %s", s, x, p)
			}
			total.Add(total, p)
		}
		depth := mechanics.Explode{Die: mechanics.D(s)}.ExactDepth()
		lost := new(big.Rat).Sub(big.NewRat(1, 1), total)
		if lost.Cmp(ratPow(s, depth+1)) != 0 {
			t.Errorf("d%d!: rational mass lost %s; want %s", s, lost, ratPow(s, depth+1))
		}
		if f, _ := lost.Float64(); f > mechanics.DefaultTolerance {
			t.Errorf("d%d!: %g lost, over the tolerance", s, f)
		}
	}
}

// A roll of the model in rationals against a sum over the closed form:
// P(d20 + 2d6! > 15) exactly, and the float engine within its truncation.
func TestAttackRational(t *testing.T) {
	t.Parallel()
	spec := mechtest.MustModel(t, registry, "bd.attack", "k=2", "rank=6")
	rd, err := exact.EvalRat(spec.Outcome)
	if err != nil {
		t.Fatal(err)
	}
	slot := spec.Record.Slot("total")
	got := new(big.Rat)
	for code, p := range rd {
		if slot.Get(code) > 15 {
			got.Add(got, p)
		}
	}
	// P(X ≥ m) for a d6! from the closed form, summed over the d20 and
	// the first die: P(N + X1 + X2 > 15).
	pmf := func(x int) *big.Rat {
		if x < 1 || x%6 == 0 {
			return new(big.Rat)
		}
		return ratPow(6, x/6+1)
	}
	tailAtLeast := func(m int) *big.Rat { // P(X ≥ m) = 1 − Σ_{x<m} P(X = x)
		acc := big.NewRat(1, 1)
		for x := 1; x < m; x++ {
			acc.Sub(acc, pmf(x))
		}
		return acc
	}
	want := new(big.Rat)
	for n := 1; n <= 20; n++ {
		for x1 := 1; x1 <= 15; x1++ {
			term := new(big.Rat).Mul(pmf(x1), tailAtLeast(16-n-x1)) // X2 ≥ 16 − n − x1
			want.Add(want, term.Mul(term, big.NewRat(1, 20)))
		}
	}
	// X1 ≥ 16 wins whatever N and X2 show (both at least 1).
	want.Add(want, tailAtLeast(16))
	diff, _ := new(big.Rat).Sub(want, got).Float64()
	if diff < 0 || diff > 2*math.Pow(6, -float64(mechanics.Explode{Die: mechanics.D(6)}.ExactDepth()+1)) {
		t.Errorf("P(d20 + 2d6! > 15): rationals %s, closed form %s (differ by %g)", got.FloatString(15), want.FloatString(15), diff)
	}
	f, _ := got.Float64()
	mechtest.Near(t, "float engine vs rationals", event(t, mechtest.MustExact(t, registry, "bd.attack", "k=2", "rank=6"), "hit"), f, 1e-14)
}

// Truncated mass is reported, within one tolerance per bursting die.
func TestTruncationReported(t *testing.T) {
	t.Parallel()
	cases := []struct {
		id   string
		dice int
		sets []string
	}{
		{"bd.core.burst", 1, nil},
		{"bd.core.check", 5, []string{"k=5", "rank=20"}},
		{"bd.check", 3, []string{"k=2", "overwatch=1"}},
		{"bd.attack", 2, nil},
		{"bd.defense", 4, nil},
		{"bd.damage", 3, []string{"k_b=3"}},
		{"bd.armor", 1, nil},
		// the attack kernel (2 + 2 + 2 + 1) and the damage of the hit chains
		{"bd.track", 7 + 1 + 1 + 7, nil},
		{"bd.vigor", 4 + 4, nil},
		{"bd.shock_and_aid", 4, nil},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			t.Parallel()
			r := mechtest.MustExact(t, registry, c.id, c.sets...)
			if r.Truncated <= 0 || r.Truncated > float64(c.dice)*mechanics.DefaultTolerance {
				t.Errorf("%s %v: truncated mass %g; want in (0, %d·1e-12]", c.id, c.sets, r.Truncated, c.dice)
			}
		})
	}
}

func itoa(n int) string { return mechanics.FormatNum(float64(n)) }

// The record that counts bursts rolls each bonus die as S·J + R (maxima,
// then a last roll); its total must be the sum of the dice themselves, and
// its burst count Binomial(N, 1/S).
func TestBurstCountMatchesDice(t *testing.T) {
	t.Parallel()
	for _, sets := range [][]string{{"k=2"}, {"k=3", "rank=4"}, {"k=1", "charges=4", "opt.above_d20=extra_die"}, {"k=0"}} {
		direct := variable(t, mechtest.MustExact(t, registry, "bd.core.check", sets...), "total")
		r := mechtest.MustExact(t, registry, "bd.check", sets...)
		counted := variable(t, r, "total")
		if direct.Lo != counted.Lo || len(direct.P) != len(counted.P) {
			t.Fatalf("%v: totals on %d+%d and %d+%d values", sets, direct.Lo, len(direct.P), counted.Lo, len(counted.P))
		}
		for i := range direct.P {
			if math.Abs(direct.P[i]-counted.P[i]) > 1e-15 {
				t.Errorf("%v: P(T = %d) = %g counting bursts, %g summing the dice", sets, direct.Lo+i, counted.P[i], direct.P[i])
			}
		}
	}
	r := mechtest.MustExact(t, registry, "bd.check", "k=3", "rank=6")
	bursts := variable(t, r, "bursts")
	for j, p := range bursts.P {
		want := float64(binom(3, bursts.Lo+j)) * math.Pow(1.0/6, float64(bursts.Lo+j)) * math.Pow(5.0/6, float64(3-bursts.Lo-j))
		mechtest.Near(t, "P(bursts = "+itoa(bursts.Lo+j)+")", p, want, 1e-12)
	}
	// Damage: 2d8! weapon dice and 3d10! bonus dice, against their sum.
	dmg := variable(t, mechtest.MustExact(t, registry, "bd.damage", "dv=2", "opt.weapon_dice_burst=yes", "k_b=3"), "damage")
	d, _, err := exact.Eval(damageRoll{w: weapon{n: 2, sides: 8, bursts: true}, b: bonusDice{n: 3, sides: 10}}.node())
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range dmg.P {
		if q := d.Prob(dmg.Lo + i); math.Abs(p-q) > 1e-15 {
			t.Errorf("P(D = %d) = %g; the dice give %g", dmg.Lo+i, p, q)
		}
	}
}

func binom(n, k int) int {
	c := 1
	for i := 0; i < k; i++ {
		c = c * (n - i) / (i + 1)
	}
	return c
}
