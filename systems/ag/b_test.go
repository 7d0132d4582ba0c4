package ag

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
)

// Tests of the §1.6–1.7 mechanics: hazards, injury over time, radiation,
// wound degeneration.

// twoDice enumerates the 36 rolls of two d6 under the default core rules
// (§1.1): keep the highest, +1 on doubles, double ones a fumble scoring 1.
func twoDice(f func(r int, fumble bool)) {
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			switch {
			case a == 1 && b == 1:
				f(1, true)
			case a == b:
				f(a+1, false)
			default:
				f(max(a, b), false)
			}
		}
	}
}

// ratKey is a rational as a map key.
func ratKey(r *big.Rat) string { return r.RatString() }

// checkVar compares a reported variable with a brute-force PMF (value →
// probability) to 1e-12.
func checkVar(t *testing.T, what string, v *engine.VarResult, want map[string]*big.Rat) {
	t.Helper()
	if v == nil {
		t.Fatalf("%s: no such variable", what)
	}
	got := map[string]float64{}
	for i, p := range v.P {
		if p != 0 {
			got[ratKey(big.NewRat(int64(v.Lo+i), int64(max(v.Den, 1))))] += p
		}
	}
	for k, p := range want {
		f, _ := p.Float64()
		if math.Abs(got[k]-f) > 1e-12 {
			t.Errorf("%s: P(%s) = %.15f; want %.15f", what, k, got[k], f)
		}
	}
	for k, p := range got {
		if _, ok := want[k]; !ok && p > 1e-15 {
			t.Errorf("%s: P(%s) = %g; want 0", what, k, p)
		}
	}
}

func addP(m map[string]*big.Rat, v *big.Rat, p *big.Rat) {
	k := ratKey(v)
	if m[k] == nil {
		m[k] = new(big.Rat)
	}
	m[k].Add(m[k], p)
}

// TestFallExactFraction: with opt.rounding=exact_fraction the damage is the
// exact fraction DV × surface × R (defect: it was floored). Athletics 2 +
// Agility 2, brute force over both two-dice rolls in rationals.
func TestFallExactFraction(t *testing.T) {
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
		sets := []string{"height=" + tc.height, "surface=" + tc.surface, "opt.rounding=exact_fraction"}
		if tc.real {
			sets = append(sets, "opt.dv_per_3m=real")
		}
		r := runExact(t, "ag.fall_damage", sets...)
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
		checkVar(t, "damage at "+tc.height+" m", r.Var("damage"), damage)
		checkVar(t, "dv at "+tc.height+" m", r.Var("dv"), dv)
		want, _ := noDamage.Float64()
		near(t, "P(no damage) at "+tc.height+" m", r.Event("no_damage").P, want, 1e-12)
		var band *engine.BandResult
		for i := range r.Bands {
			if r.Bands[i].Name == "category" {
				band = &r.Bands[i]
			}
		}
		for c := range cats {
			f, _ := cats[c].Float64()
			near(t, "P(category) at "+tc.height+" m", band.P[c], f, 1e-12)
		}
	}
	// The seed's example: 9 m onto sand, unrounded, has no damage only when
	// the faller lands on the feet or falls less than 3 m after Athletics:
	// P = 21/36 = .5833 (floored it was .5941), and mass on the halves.
	r := runExact(t, "ag.fall_damage", "height=9", "surface=sand", "opt.rounding=exact_fraction")
	near(t, "P(no damage), sand, exact", r.Event("no_damage").P, 21.0/36, 1e-12)
	if d := r.Var("damage"); d.Den != 2 {
		t.Errorf("damage lattice 1/%d; want halves", d.Den)
	}
}

// TestFireExactFraction: ag.fire with exact_fraction reports DV × ½ᵏ × R
// unrounded (defect: floored) and compares it exactly with the thresholds.
func TestFireExactFraction(t *testing.T) {
	for _, stack := range []string{"multiply", "once"} {
		r := runExact(t, "ag.fire", "dv=3", "exposure=partial", "opt.rounding=exact_fraction", "opt.halving_stack="+stack)
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
		checkVar(t, "fire damage, halving "+stack, r.Var("damage"), damage)
		want, _ := deep.Float64()
		near(t, "P(deep or worse), halving "+stack, r.Event("deep_or_worse").P, want, 1e-12)
	}
}

// TestRadiationShed: the body sheds 1 dGy every two weeks, also while
// exposed (defect: it shed only on days without a dose, by 1/14 a day). A
// daily dose of 1 for 25 days: X_t = t up to day 14, the shed on day 15
// holds X at 14 (no test that day), then X_t = t − 1 up to 24 on day 25.
func TestRadiationShed(t *testing.T) {
	x := DosePath(0, 1, 25, 1, 40)
	for day, want := range map[int]float64{7: 7, 14: 14, 15: 14, 16: 15, 25: 24, 28: 24, 29: 23, 40: 23} {
		near(t, "X_t", x[day], float64(want), 1e-12)
	}
	// Body 3 + two dice (T = R + 3 ≥ 4) never reaches MoS ≤ −10 at TN ≤ 12,
	// so only a fumble (1/36) is fatal: tests on days 7–14 and 16–25, 18 of
	// them (19 without the shed).
	r := runExact(t, "ag.radiation", "acute_dose=0", "daily_dose=1", "exposure_days=25", "body=3", "days=30")
	near(t, "P(alive)", r.Event("not_absorbed").P, math.Pow(35.0/36, 18), 1e-12)
	tm := r.Var("time")
	for day := 1; day <= 30; day++ {
		want := 0.0
		if (day >= 7 && day <= 14) || (day >= 16 && day <= 25) {
			k := day - 7 // tests before this day
			if day > 15 {
				k--
			}
			want = math.Pow(35.0/36, float64(k)) / 36
		}
		got := 0.0
		if i := day - tm.Lo; i >= 0 && i < len(tm.P) {
			got = tm.P[i]
		}
		near(t, "P(fatal test on day)", got, want, 1e-12)
	}
	// The floor: a tenth of the peak.
	y := DosePath(20, 0, 0, 1, 400)
	near(t, "floor", y[400], 2, 1e-12)
	near(t, "X_15", y[15], 19, 1e-12)
}

// TestDiseaseSixRolls: opt.fever_day_count=6_rolls changes only the number
// of death rolls (defect: it also shortened the fever to six days).
// Virulence 9, Body 2: T = R + 2 ≤ 9, so no MoS ≥ −5 row lasts 24 or 25
// days; a fever survivor is ill 7 + (8 + 6) + 4 = 25 days.
func TestDiseaseSixRolls(t *testing.T) {
	for _, tc := range []struct {
		set   string
		rolls float64
	}{{"opt.fever_day_count=7_rolls", 7}, {"opt.fever_day_count=6_rolls", 6}} {
		r := runExact(t, "ag.disease", tc.set)
		days := r.Var("days_ill")
		at := func(v int) float64 {
			if i := v - days.Lo; i >= 0 && i < len(days.P) {
				return days.P[i]
			}
			return 0
		}
		near(t, "P(fever survivor, 25 days)", at(25), math.Pow(5.0/6, tc.rolls)/36, 1e-12)
		near(t, "P(24 days)", at(24), 0, 0)
		near(t, "P(died)", r.Event("died").P, (1-math.Pow(5.0/6, tc.rolls))/36, 1e-12)
		near(t, "P(death on the last roll)", at(int(tc.rolls)), math.Pow(5.0/6, tc.rolls-1)/6/36, 1e-12)
	}
}

// degBrute enumerates every path of the deterministic wound clocks
// directly from the rules (no merged states, no tables): the distribution
// of (bled out, hours to bleed out, flesh and deep wounds at the end) and
// of the number of tests.
type degBrute struct {
	B, body, mod            int
	sameType, inAdd, change bool
	penalties               bool
	H                       int64 // horizon in 1/L minutes
	L                       int64
	out                     map[[4]int]float64
	tests                   map[int]float64
}

func (b *degBrute) walk(f, d int, lastF, lastD, nextF, nextD int64, p float64, tests int) {
	if f+2*d >= b.B {
		panic("walked into a full track")
	}
	now, flesh := int64(-1), false
	switch {
	case nextF >= 0 && (nextD < 0 || nextF <= nextD):
		now, flesh = nextF, true
	case nextD >= 0:
		now = nextD
	}
	if now < 0 || now > b.H {
		b.out[[4]int{0, -1, f, d}] += p
		b.tests[tests] += p
		return
	}
	pen := 0
	if b.penalties {
		pen = f + 2*d
	}
	var q [3]float64
	twoDice(func(r int, fum bool) {
		switch {
		case fum:
			q[2]++
		case max(0, r+b.body+b.mod-pen) <= 1:
			q[1]++
		default:
			q[0]++
		}
	})
	for class := range 3 {
		if q[class] == 0 {
			continue
		}
		nf, nd := f, d
		if class == 1 || (class == 2 && b.inAdd) {
			if b.sameType && !flesh {
				nd++
			} else {
				nf++
			}
		}
		if class == 2 {
			nd++
		}
		pp := p * q[class] / 36
		if nf+2*nd >= b.B {
			hours := int((now + 60*b.L - 1) / (60 * b.L))
			b.out[[4]int{1, hours, nf, nd}] += pp
			b.tests[tests+1] += pp
			continue
		}
		lf, ld, xf, xd := lastF, lastD, nextF, nextD
		if flesh {
			lf, xf = now, now+1440*b.L/int64(nf)
		} else {
			ld, xd = now, now+60*b.L/int64(nd)
		}
		if f == 0 && nf > 0 {
			lf, xf = now, now+1440*b.L/int64(nf)
		}
		if d == 0 && nd > 0 {
			ld, xd = now, now+60*b.L/int64(nd)
		}
		if b.change && (nf != f || nd != d) {
			if nf > 0 {
				xf = max(now, lf+1440*b.L/int64(nf))
			}
			if nd > 0 {
				xd = max(now, ld+60*b.L/int64(nd))
			}
		}
		b.walk(nf, nd, lf, ld, xf, xd, pp, tests+1)
	}
}

// TestWoundDegenerationBrute compares the event DP (with its merged
// states) with the enumeration of every path, on short horizons.
func TestWoundDegenerationBrute(t *testing.T) {
	for _, tc := range []struct {
		f0, d0, body, B, hours int
		sets                   []string
	}{
		{1, 1, 2, 6, 4, nil},
		{2, 1, 1, 7, 4, []string{"opt.failure_adds=same_type", "opt.fumble=deep_in_addition"}},
		{3, 1, 2, 6, 5, []string{"opt.period_update=immediately_on_change"}},
		{1, 1, 2, 6, 3, []string{"opt.first_test=immediately", "opt.penalties=off"}},
		{1, 0, 1, 6, 30, nil},
	} {
		sets := append([]string{"flesh=" + strconv.Itoa(tc.f0), "deep=" + strconv.Itoa(tc.d0), "body=" + strconv.Itoa(tc.body), "boxes=" + strconv.Itoa(tc.B), "hours=" + strconv.Itoa(tc.hours)}, tc.sets...)
		r := runExact(t, "ag.wound_degeneration", sets...)
		m, _ := registry.Lookup("ag.wound_degeneration")
		c, _ := m.Configure(sets)
		b := &degBrute{B: tc.B, body: tc.body, L: lcmUpTo(tc.B), out: map[[4]int]float64{}, tests: map[int]float64{},
			sameType:  c.Options["ag.wound_degeneration.opt.failure_adds"] == "same_type",
			inAdd:     c.Options["ag.wound_degeneration.opt.fumble"] == "deep_in_addition",
			change:    c.Options["ag.wound_degeneration.opt.period_update"] == "immediately_on_change",
			penalties: c.Options["ag.wound_degeneration.opt.penalties"] == "on"}
		b.H = int64(tc.hours) * 60 * b.L
		first := func(period int64) int64 {
			if c.Options["ag.wound_degeneration.opt.first_test"] == "immediately" {
				return 0
			}
			return period
		}
		nf, nd := int64(-1), int64(-1)
		if tc.f0 > 0 {
			nf = first(1440 * b.L / int64(tc.f0))
		}
		if tc.d0 > 0 {
			nd = first(60 * b.L / int64(tc.d0))
		}
		b.walk(tc.f0, tc.d0, 0, 0, nf, nd, 1, 0)
		var bled float64
		hours, flesh, deep := map[int]float64{}, map[int]float64{}, map[int]float64{}
		for k, p := range b.out {
			if k[0] == 1 {
				bled += p
				hours[k[1]] += p
			} else {
				hours[tc.hours+1] += p
			}
			flesh[k[2]] += p
			deep[k[3]] += p
		}
		what := fmt.Sprint(sets)
		near(t, what+" P(bled out)", r.Event("bled_out").P, bled, 1e-12)
		for name, want := range map[string]map[int]float64{"hours_to_bleed_out": hours, "flesh_at_end": flesh, "deep_at_end": deep} {
			v := r.Var(name)
			got := map[int]float64{}
			for i, p := range v.P {
				got[v.Lo+i] = p
			}
			for x := range got {
				if math.Abs(got[x]-want[x]) > 1e-12 {
					t.Errorf("%v: P(%s = %d) = %v; want %v", sets, name, x, got[x], want[x])
				}
			}
			for x, p := range want {
				if _, ok := got[x]; !ok && p > 1e-15 {
					t.Errorf("%v: P(%s = %d) = 0; want %v", sets, name, x, p)
				}
			}
		}
		// The number of tests: S(t) of the process.
		surv := r.Process.Survival
		for k := range len(surv) {
			want := 0.0
			for n, p := range b.tests {
				if n > k {
					want += p
				}
			}
			near(t, what+" S(t)", surv[k], want, 1e-12)
		}
		if r.Process.Undecided != 0 {
			t.Errorf("%v: not absorbed within the horizon %d: %v", sets, r.Process.Horizon, r.Process.Undecided)
		}
	}
}
