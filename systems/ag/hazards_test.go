package ag

import (
	"math/big"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/mechtest"
)

func TestHazardGoldens(t *testing.T) {
	t.Parallel()
	// The golden values of the system, athletics 2 + agility 2.
	ge := func(r *engine.Result, v int) float64 {
		d := r.Var("damage")
		s := 0.0
		for i, p := range d.P {
			if d.Lo+i >= v {
				s += p
			}
		}
		return s
	}
	c9 := mechtest.MustExact(t, registry, "ag.fall_damage", "athletics=2", "agility=2", "height=9", "surface=concrete")
	mechtest.Near(t, "9 m concrete P(0)", c9.Event("no_damage").P, .5833, 5e-5)
	mechtest.Near(t, "9 m concrete E[D]", c9.Var("damage").Stats.Mean, 4.099, 5e-4)
	mechtest.Near(t, "9 m concrete P(D ≥ 10)", ge(c9, 10), .2523, 5e-5)
	mechtest.Near(t, "9 m concrete P(D ≥ 20)", ge(c9, 20), .0162, 5e-5)
	mechtest.Near(t, "9 m grass E[D]", mechtest.MustExact(t, registry, "ag.fall_damage", "height=9", "surface=grass").Var("damage").Stats.Mean, 2.049, 5e-4)
	c15 := mechtest.MustExact(t, registry, "ag.fall_damage", "height=15", "surface=concrete")
	mechtest.Near(t, "15 m concrete E[D]", c15.Var("damage").Stats.Mean, 22.54, 5e-3)
	mechtest.Near(t, "15 m concrete P(D ≥ 20)", ge(c15, 20), .6682, 5e-5)
	// Bonfire, full round.
	f := mechtest.MustExact(t, registry, "ag.fire", "dv=2")
	mechtest.Near(t, "fire E[D]", f.Var("damage").Stats.Mean, 9.194, 5e-4)
	for v, n := range map[int]float64{1: 1, 4: 2, 6: 5, 8: 7, 10: 9, 12: 11, 14: 1} {
		d := f.Var("damage")
		mechtest.Near(t, "fire P(D=v)", d.P[v-d.Lo], n/36, 1e-12)
	}
	// Electricity, Body 3, no wound penalties; the golden values hold with
	// the listed DV in the TN (with the default effective DV a fumbled damage
	// roll halves the TN too).
	el := func(dv string) *engine.Result {
		return mechtest.MustExact(t, registry, "ag.electricity", "body=3", "dv="+dv, "opt.test_trigger=always", "opt.wound_penalty_in_test=no", "opt.tn_dv=listed")
	}
	mechtest.Near(t, "DV 1 KO", el("1").Event("ko_or_worse").P, 1.0/36, 1e-12)
	mechtest.Near(t, "DV 2 KO", el("2").Event("ko_or_worse").P, .9722, 5e-5)
	mechtest.Near(t, "DV 2 coma", el("2").Event("coma_or_worse").P, .0833, 5e-5)
	mechtest.Near(t, "DV 4 coma", el("4").Event("coma_or_worse").P, 1, 1e-12)
	mechtest.Near(t, "DV 4 death", el("4").Event("death").P, 1.0/36, 1e-12)
}

// TestFallExactFraction: with opt.rounding=exact_fraction the damage is the
// exact fraction DV × surface × R (defect: it was floored). Athletics 2 +
// Agility 2, brute force over both two-dice rolls in rationals.
func TestFallExactFraction(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		height  string
		h       *big.Rat
		surface string
		s       *big.Rat
		real    bool
	}{
		{"9", big.NewRat(9, 1), "sand", big.NewRat(1, 2), false},
		{"9.1", big.NewRat(91, 10), "crash_pads", big.NewRat(1, 10), true},
		{"17.25", big.NewRat(69, 4), "deep_water", big.NewRat(1, 4), true},
	} {
		t.Run(tc.height+" m "+tc.surface, func(t *testing.T) {
			sets := []string{"height=" + tc.height, "surface=" + tc.surface, "opt.rounding=exact_fraction"}
			if tc.real {
				sets = append(sets, "opt.dv_per_3m=real")
			}
			r := mechtest.MustExact(t, registry, "ag.fall_damage", sets...)
			damage, dv := map[string]*big.Rat{}, map[string]*big.Rat{}
			cats := make([]*big.Rat, 4)
			for i := range cats {
				cats[i] = new(big.Rat)
			}
			p := big.NewRat(1, 36*36)
			noDamage := new(big.Rat)
			twoDice(func(ra int, fa bool) {
				T := big.NewRat(int64(ra+2), 1)
				twoDice(func(rd int, _ bool) {
					d, v := new(big.Rat), new(big.Rat)
					if T.Cmp(tc.h) <= 0 {
						v.Quo(new(big.Rat).Sub(tc.h, T), big.NewRat(3, 1))
						if !tc.real {
							v.SetInt(new(big.Int).Quo(v.Num(), v.Denom()))
						}
						if v.Cmp(big.NewRat(10, 1)) > 0 {
							v.SetInt64(10)
						}
						d.Mul(v, tc.s).Mul(d, big.NewRat(int64(rd), 1))
					}
					addP(damage, d, p)
					addP(dv, v, p)
					if d.Sign() == 0 {
						noDamage.Add(noDamage, p)
					}
					half := big.NewRat(1, 1)
					if fa {
						half = big.NewRat(1, 2)
					}
					c := 0
					for _, th := range []int64{5, 10, 20} {
						if d.Cmp(new(big.Rat).Mul(big.NewRat(th, 1), half)) >= 0 {
							c++
						}
					}
					cats[c].Add(cats[c], p)
				})
			})
			checkVar(t, "damage", r.Var("damage"), damage)
			checkVar(t, "dv", r.Var("dv"), dv)
			want, _ := noDamage.Float64()
			mechtest.Near(t, "P(no damage)", r.Event("no_damage").P, want, 1e-12)
			category := band(t, r, "category")
			for c := range cats {
				f, _ := cats[c].Float64()
				mechtest.Near(t, "P(category)", category.P[c], f, 1e-12)
			}
		})
	}
	// The seed's example: 9 m onto sand, unrounded, has no damage only when
	// the faller lands on the feet or falls less than 3 m after Athletics:
	// P = 21/36 = .5833 (floored it was .5941), and mass on the halves.
	r := mechtest.MustExact(t, registry, "ag.fall_damage", "height=9", "surface=sand", "opt.rounding=exact_fraction")
	mechtest.Near(t, "P(no damage), sand, exact", r.Event("no_damage").P, 21.0/36, 1e-12)
	if d := r.Var("damage"); d.Den != 2 {
		t.Errorf("damage lattice 1/%d; want halves", d.Den)
	}
}

// TestFireExactFraction: ag.fire with exact_fraction reports DV × ½ᵏ × R
// unrounded (defect: floored) and compares it exactly with the thresholds.
func TestFireExactFraction(t *testing.T) {
	t.Parallel()
	for _, stack := range []string{"multiply", "once"} {
		t.Run("halving_stack="+stack, func(t *testing.T) {
			r := mechtest.MustExact(t, registry, "ag.fire", "dv=3", "exposure=partial", "opt.rounding=exact_fraction", "opt.halving_stack="+stack)
			damage := map[string]*big.Rat{}
			p := big.NewRat(1, 36)
			var deep big.Rat
			twoDice(func(rd int, fum bool) {
				f := big.NewRat(1, 2)
				if fum && stack == "multiply" {
					f = big.NewRat(1, 4)
				}
				d := new(big.Rat).Mul(big.NewRat(int64(3*rd), 1), f)
				addP(damage, d, p)
				if d.Cmp(big.NewRat(10, 1)) >= 0 {
					deep.Add(&deep, p)
				}
			})
			checkVar(t, "fire damage", r.Var("damage"), damage)
			want, _ := deep.Float64()
			mechtest.Near(t, "P(deep or worse)", r.Event("deep_or_worse").P, want, 1e-12)
		})
	}
}
