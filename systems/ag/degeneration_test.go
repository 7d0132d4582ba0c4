package ag

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

func TestWoundDegeneration(t *testing.T) {
	t.Parallel()
	// Body 6 and one flesh wound: the TN 1 test fails only on a fumble; tests at 24 h and 48 h.
	r := mechtest.MustExact(t, registry, "ag.wound_degeneration", "flesh=1", "deep=0", "body=6", "hours=48")
	mechtest.Near(t, "P(worse)", r.Event("got_worse").P, 1-math.Pow(35.0/36, 2), 1e-12)
	// Penalty feedback accelerates bleeding out.
	on := mechtest.MustExact(t, registry, "ag.wound_degeneration", "body=2", "hours=24").Event("bled_out").P
	off := mechtest.MustExact(t, registry, "ag.wound_degeneration", "body=2", "hours=24", "opt.penalties=off").Event("bled_out").P
	if !(on > off) {
		t.Errorf("bleed-out within 24 h: %v with penalties, %v without", on, off)
	}
	// The memoryless clock has the same mean test rate: one flesh wound, Body 6
	// (only fumbles matter), 48 h: P(no fumble) ≈ exp(−2/36) for Poisson
	// clocks; per-minute steps are within 1e-4 of it.
	ex := mechtest.MustExact(t, registry, "ag.wound_degeneration", "flesh=1", "deep=0", "body=6", "hours=48", "opt.clock=exponential")
	mechtest.Near(t, "P(worse), exponential clock", ex.Event("got_worse").P, 1-math.Exp(-2.0/36), 1e-4)
	m := lookup(t, "ag.wound_degeneration")
	c, err := m.Configure([]string{"flesh=2", "deep=2"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Build(c); err == nil {
		t.Error("a full track at the start was accepted")
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
	t.Parallel()
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
		t.Run(fmt.Sprintf("F%d D%d body %d B%d %dh %v", tc.f0, tc.d0, tc.body, tc.B, tc.hours, tc.sets), func(t *testing.T) {
			sets := append([]string{"flesh=" + strconv.Itoa(tc.f0), "deep=" + strconv.Itoa(tc.d0), "body=" + strconv.Itoa(tc.body), "boxes=" + strconv.Itoa(tc.B), "hours=" + strconv.Itoa(tc.hours)}, tc.sets...)
			r := mechtest.MustExact(t, registry, "ag.wound_degeneration", sets...)
			c, err := lookup(t, "ag.wound_degeneration").Configure(sets)
			if err != nil {
				t.Fatal(err)
			}
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
			mechtest.Near(t, what+" P(bled out)", r.Event("bled_out").P, bled, 1e-12)
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
				mechtest.Near(t, what+" S(t)", surv[k], want, 1e-12)
			}
			if r.Process.Undecided != 0 {
				t.Errorf("%v: not absorbed within the horizon %d: %v", sets, r.Process.Horizon, r.Process.Undecided)
			}
		})
	}
}
